"""Reading a stream of pushed updates as a client does: raw bytes over HTTP, parsed into events."""

import json
from dataclasses import dataclass, field

import httpx

from tests.reliability.served import request


@dataclass
class Event:
    """One block of a stream: its fields, or a comment (`comment` set, nothing else)."""

    event: str | None = None
    id: str | None = None
    data: str | None = None
    retry: int | None = None
    comment: str | None = None
    fields: list = field(default_factory=list)

    def json(self):
        return json.loads(self.data)


class Stream:
    """An open stream: `next()` is its next block (an httpx.ReadTimeout when none comes in `wait` s)."""

    def __init__(self, url: str, headers: dict | None = None, wait: float = 10.0):
        self.client = httpx.Client(timeout=httpx.Timeout(wait, connect=5.0))
        self.context = self.client.stream("GET", url, headers={"Host": "localhost", **(headers or {})})
        self.response = self.context.__enter__()
        self.chunks = self.response.iter_raw()
        self.buffer = b""
        self.ended = False

    @property
    def status(self) -> int:
        return self.response.status_code

    @property
    def headers(self):
        return self.response.headers

    def body(self) -> bytes:
        return self.buffer + b"".join(self.chunks)

    def next(self) -> Event | None:
        """The next block, or None when the server ended the stream."""
        while b"\n\n" not in self.buffer:
            try:
                self.buffer += next(self.chunks)
            except StopIteration:
                self.ended = True
                return None
        block, self.buffer = self.buffer.split(b"\n\n", 1)
        found = Event()
        for line in block.decode().split("\n"):
            if line.startswith(":"):
                found.comment = line[1:].strip()
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            found.fields.append(name)
            if name == "retry":
                found.retry = int(value)
            elif name in ("event", "id", "data"):
                setattr(found, name, value)
        return found

    def next_event(self) -> Event | None:
        """The next block that is not a comment or a bare `retry:` (None when the stream ended)."""
        while (block := self.next()) is not None:
            if block.event is not None or block.data is not None:
                return block
        return None

    def close(self):
        self.context.__exit__(None, None, None)
        self.client.close()


def api(server, method: str, path: str, body=None, headers=None):
    """(status, headers, parsed JSON or None)."""
    sent = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
    status, answer_headers, raw = request(
        f"{server.url}{path}", method, None if body is None else json.dumps(body).encode(), sent
    )
    return status, answer_headers, json.loads(raw) if raw else None
