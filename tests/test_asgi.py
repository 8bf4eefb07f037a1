"""The Procfile's ASGI application runs every request but a stream in a pool of threads
(http.bridge): each thread keeps one cache client (and one database connection, thread-local in
Django already), as gthread's threads do, and an answer crosses back to the event loop once."""

import asyncio
import contextvars

import httpx
from a2wsgi import WSGIMiddleware
from django.core.cache import caches
from django.db import connections

from scorekeeper.asgi import in_thread_context
from scorekeeper.http.bridge import WHOLE, Bridge


class Seen:
    """A WSGI app that notes which database connection and cache client each request found, in the
    app and when its answer is closed (Django's request_finished checks the connection then)."""

    def __init__(self):
        self.calls, self.closes = [], []

    def __call__(self, environ, start_response):
        self.calls.append((connections["default"], caches["default"]))  # kept: an id could be reused
        start_response("200 OK", [("Content-Type", "text/plain")])
        seen = self

        class Answer(list):
            def close(self):
                seen.closes.append((connections["default"], caches["default"]))

        return Answer([b"ok"])


def ask_twice(app, pool=Bridge) -> None:
    async def run():
        transport = httpx.ASGITransport(app=pool(app, workers=1))  # one thread: both requests on it
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            for _ in range(2):
                assert (await client.get("/")).text == "ok"

    # The server's event loop never touched the database: its context holds no connection (this
    # test's own does, so the loop runs in an empty one, as the server's does).
    contextvars.Context().run(asyncio.run, run())


def test_a_pool_thread_answers_its_requests_with_one_cache_client_and_one_database_connection():
    seen = Seen()
    ask_twice(in_thread_context(seen))
    (connection, cache), again = seen.calls
    assert again[0] is connection and again[1] is cache
    assert all(
        closed[0] is connection and closed[1] is cache for closed in seen.closes
    )  # the answer is closed where it was made: the same connection


def test_without_it_each_request_of_a2wsgi_would_make_a_new_cache_client():
    """What in_thread_context is for: the bare a2wsgi pool gives each request a context of its own."""
    seen = Seen()
    ask_twice(seen, pool=WSGIMiddleware)
    (_, cache), again = seen.calls
    assert again[1] is not cache


class Echo:
    """A WSGI app answering with the request's method, body and a header, in `size` bytes made of
    chunks of 64 KiB; it notes whether its answer was closed."""

    def __init__(self, size: int):
        self.size, self.closed = size, 0

    def __call__(self, environ, start_response):
        length = int(environ.get("CONTENT_LENGTH") or 0)
        head = f"{environ['REQUEST_METHOD']} {environ['wsgi.input'].read(length).decode()};".encode()
        start_response("201 Created", [("Content-Type", "text/plain"), ("X-Seen", "yes")])
        echo = self

        class Answer:
            def __iter__(self):
                yield head
                left = echo.size - len(head)
                while left > 0:
                    yield b"x" * min(left, 65536)
                    left -= 65536

            def close(self):
                echo.closed += 1

        return Answer()


def messages_of(app, method="POST", body=b"") -> list[dict]:
    """What the bridge sends the server for one request."""
    sent = []
    incoming = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive():
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": "/", "raw_path": b"/", "query_string": b"", "root_path": "", "server": ("testserver", 80),
             "client": ("127.0.0.1", 5000), "headers": [(b"content-length", str(len(body)).encode())]}  # fmt: skip
    asyncio.run(Bridge(app, workers=1)(scope, receive, send))
    return sent


def test_a_short_answer_crosses_to_the_event_loop_once_whole_with_its_status_and_headers():
    echo = Echo(1000)
    start, body = messages_of(echo, body=b"round 7")
    assert start == {"type": "http.response.start", "status": 201,
                     "headers": [(b"content-type", b"text/plain"), (b"x-seen", b"yes")]}  # fmt: skip
    assert body["type"] == "http.response.body" and not body.get("more_body")
    assert body["body"].startswith(b"POST round 7;") and len(body["body"]) == 1000
    assert echo.closed == 1


def test_an_answer_longer_than_whole_is_sent_in_pieces_as_it_is_made_and_arrives_entire():
    echo = Echo(3 * WHOLE)
    start, *pieces, end = messages_of(echo, method="GET")
    assert start["status"] == 201
    assert len(pieces) > 10 and all(piece["more_body"] for piece in pieces)  # never held whole
    assert max(len(piece["body"]) for piece in pieces) <= WHOLE + 65536
    assert (
        b"".join(piece["body"] for piece in pieces).startswith(b"GET ;")
        and sum(len(p["body"]) for p in pieces) == 3 * WHOLE
    )
    assert end == {"type": "http.response.body", "body": b""}
    assert echo.closed == 1


def test_the_server_s_start_and_stop_are_answered():
    told = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]
    sent = []

    async def receive():
        return told.pop(0)

    async def send(message):
        sent.append(message["type"])

    asyncio.run(Bridge(Echo(10), workers=1)({"type": "lifespan"}, receive, send))
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
