"""Holding the streams of pushed updates open (the ASGI side of api.views.events).

The Procfile's server is ASGI (scorekeeper.asgi): every request but a stream goes to the WSGI
application in a pool of threads, and a stream is held here, on the event loop, where an idle one
costs a coroutine and its socket, not a thread. What a stream sends is always the events view's
answer, asked in a thread as any request is: at the start (its error, or its first event), then
again, with the ETag last sent as Last-Event-ID, each time the hub (caches.push) wakes it:

- a write touching its topics committed (on any node): read again; a new ETag is one `state`
  event, the same one sends nothing (unless the reader's role changed: the state once more, for a
  page whose controls depend on it), anything but a 200 (the GET's 401, 403 or 404: a sign-out,
  a removal, a revoked link, a trashed game) is `event: gone` and the end. A change that comes
  while the last one is being read waits in the slot (size 1): changes coalesce;
- Redis is away (the hub is not live): read again every 2 s instead, and once more when it comes back;
- nothing to say for 15 s: a comment (a router drops a quiet connection; a phone learns it is alive);
- the process shuts down (http.worker: a deploy, a restart): the stream ends at once, and its
  browser comes back after its `retry:` to a process that runs.

A client that does not read what it is sent (a full TCP buffer) is dropped after
settings.STREAM_SEND_TIMEOUT, so it holds no memory without bound. A stream ends when its client
goes (the disconnect cancels it).
"""

import asyncio
import io
import logging
import time

from a2wsgi.wsgi import build_environ
from django.conf import settings

from scorekeeper.caches import push

logger = logging.getLogger(__name__)

HEARTBEAT = 15.0  # seconds without a byte before a comment
FALLBACK = 2.0  # seconds between reads while Redis is away
RECHECK = 0.4  # seconds before a wake that found nothing new is checked once more
# `gone` carries no payload, but an empty `data:` line: a browser's EventSource dispatches no event
# without one (the HTML standard drops an event whose data buffer stays empty).
GONE = b"event: gone\ndata:\n\n"
HEARTBEAT_LINE = b": keep-alive\n\n"
# Headers the events view answers this module alone (api.views.events): never sent on.
INTERNAL_KEY, TOPICS_HEADER, ETAG_HEADER = "scorekeeper.stream", b"x-stream-topics", b"x-stream-etag"
READER_HEADER = b"x-stream-reader"


class Answer:
    """A WSGI application's answer collected whole: status, headers (lower-case bytes), body."""

    def __init__(self):
        self.status, self.headers, self.body = 500, [], b""

    def start_response(self, status, headers, exc_info=None):
        self.status = int(status.split(" ", 1)[0])
        self.headers = [(name.lower().encode("latin1"), value.encode("latin1")) for name, value in headers]
        return lambda chunk: None

    def header(self, name: bytes) -> str | None:
        return next((value.decode("latin1") for key, value in self.headers if key == name), None)


def ask(app, scope, kind: str, last_event_id: str | None = None) -> Answer:
    """The events view's answer to the stream's request (in a worker thread)."""
    headers = [(name, value) for name, value in scope["headers"] if name not in (b"last-event-id", b"if-none-match")]
    if last_event_id is not None:  # also as If-None-Match: the cache may answer (http.polls.stream_poll)
        headers += [
            (b"last-event-id", last_event_id.encode("latin1")),
            (b"if-none-match", last_event_id.encode("latin1")),
        ]
    environ = build_environ({**scope, "headers": headers}, io.BytesIO(b""))
    environ[INTERNAL_KEY] = kind
    answer = Answer()
    chunks = app(environ, answer.start_response)
    try:
        answer.body = b"".join(chunks)
    finally:
        getattr(chunks, "close", lambda: None)()
    return answer


class Stream:
    """One open stream: its request's scope, the WSGI app it asks, and the pool it asks in."""

    def __init__(self, app, executor, scope, receive, send):
        self.app, self.executor, self.scope, self.receive, self.send = app, executor, scope, receive, send
        self.loop = asyncio.get_running_loop()
        self.etag, self.last_write = None, time.monotonic()

    async def _ask(self, kind, last_event_id=None) -> Answer:
        return await self.loop.run_in_executor(self.executor, ask, self.app, self.scope, kind, last_event_id)

    async def _write(self, body: bytes) -> None:
        sent = self.send({"type": "http.response.body", "body": body, "more_body": True})
        await asyncio.wait_for(sent, settings.STREAM_SEND_TIMEOUT)  # a client that takes longer is dropped
        self.last_write = time.monotonic()

    async def serve(self) -> None:
        first = await self._ask("connect", _last_event_id(self.scope))
        if first.status != 200 or first.header(ETAG_HEADER) is None:  # the GET's error, as it is
            await self.send({"type": "http.response.start", "status": first.status, "headers": first.headers})
            await self.send({"type": "http.response.body", "body": first.body})
            return
        held = (TOPICS_HEADER, ETAG_HEADER, READER_HEADER, b"content-length")  # a stream has no length
        headers = [(name, value) for name, value in first.headers if name not in held]
        await self.send({"type": "http.response.start", "status": first.status, "headers": headers})
        self.etag, self.reader = first.header(ETAG_HEADER), first.header(READER_HEADER)
        self.listener = push.hub.listen((first.header(TOPICS_HEADER) or "").split())
        disconnected = self.loop.create_task(self._disconnect())
        try:
            await self._write(first.body)
            if await self._follow(disconnected):
                ended = self.send({"type": "http.response.body", "body": b""})  # the end (after `gone`)
                await asyncio.wait_for(ended, settings.STREAM_SEND_TIMEOUT)
        except TimeoutError:  # a client that stopped reading
            _drop(self.send)
            await asyncio.sleep(0)  # the server hears of it: a client gone, not an answer left unfinished
        except OSError:
            pass  # a socket gone
        finally:
            push.hub.leave(self.listener)
            disconnected.cancel()

    async def _disconnect(self) -> None:
        while (await self.receive())["type"] != "http.disconnect":
            pass

    async def _follow(self, disconnected) -> bool:
        """Follow the resource until the client goes (False), or its access is gone or the process
        shuts down (True: the stream is ended)."""
        recheck = None  # when a wake that found nothing new is checked once more
        while not disconnected.done():
            listener, live, now = self.listener, push.hub.live, time.monotonic()
            timeout = min(HEARTBEAT - (now - self.last_write), HEARTBEAT if live else FALLBACK)
            if recheck is not None:
                timeout = min(timeout, recheck - now)
            woken = self.loop.create_task(listener.woken.wait())
            await asyncio.wait({woken, disconnected}, timeout=max(0.0, timeout), return_when=asyncio.FIRST_COMPLETED)
            woken.cancel()
            if disconnected.done():
                return False
            if push.hub.closing:  # a restart: the browser reconnects (to a new process) after its retry
                return True
            was_woken = listener.woken.is_set()
            due = recheck is not None and time.monotonic() >= recheck
            if was_woken or due or not live or push.hub.live != live:
                listener.woken.clear()
                answer = await self._ask("reread", self.etag)
                if answer.status in (401, 403, 404, 410):
                    await self._write(GONE)
                    return True
                etag = answer.header(ETAG_HEADER) if answer.status == 200 else None
                reader = answer.header(READER_HEADER)
                if etag is None:  # a 429 or a 5xx: asked again shortly
                    recheck = time.monotonic() + FALLBACK
                elif etag != self.etag:
                    self.etag, self.reader, recheck = etag, reader, None
                    await self._write(answer.body)
                elif reader != self.reader:  # a new role, the same resource: its state once more
                    again = await self._ask("reread")
                    if again.status == 200 and again.header(ETAG_HEADER) is not None:
                        self.etag, self.reader, recheck = again.header(ETAG_HEADER), reader, None
                        await self._write(again.body)
                    else:
                        recheck = time.monotonic() + FALLBACK  # asked again shortly
                else:
                    # Woken, nothing new: a write may announce just before it acts (a sign-out's
                    # signal comes before its session goes), so one more look a moment later.
                    recheck = time.monotonic() + RECHECK if was_woken else None
                topics = frozenset((answer.header(TOPICS_HEADER) or "").split())
                if topics and topics != listener.topics:
                    self.listener = push.hub.move(listener, topics)
            if time.monotonic() - self.last_write >= HEARTBEAT:
                await self._write(HEARTBEAT_LINE)
        return False


def _drop(send) -> None:
    """End the connection at once, with what it still holds unsent. An ASGI application can only end
    its response, and the server then closes the transport, which waits for the unsent bytes to
    drain: a client that never reads never lets them, so its connection (and its place under
    --worker-connections) would be held for ever. The transport of uvicorn's request cycle (the
    `send` it gave) is aborted instead; under another server nothing is found and the close stands."""
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    if transport is not None:
        transport.abort()


def _last_event_id(scope) -> str | None:
    for name, value in scope["headers"]:
        if name == b"last-event-id":
            return value.decode("latin1")
    return None
