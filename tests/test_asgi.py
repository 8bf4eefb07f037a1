"""The Procfile's ASGI application runs every request but a stream in a pool of threads (a2wsgi):
each thread keeps one cache client (and one database connection, thread-local in Django already),
as gthread's threads do, however a2wsgi starts each request's context afresh."""

import asyncio
import contextvars

import httpx
from a2wsgi import WSGIMiddleware
from django.core.cache import caches
from django.db import connections

from scorekeeper.asgi import in_thread_context


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


def ask_twice(app) -> None:
    async def run():
        transport = httpx.ASGITransport(app=WSGIMiddleware(app, workers=1))  # one thread: both requests on it
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
    ask_twice(seen)
    (_, cache), again = seen.calls
    assert again[1] is not cache
