"""The WSGI application served under the Procfile's ASGI server, in a pool of threads, with one hop
into the pool and one back per answer.

a2wsgi's WSGIMiddleware (which this replaces for answers; its request body and environ are used as
they are) hands every message of an answer from the pool thread to the event loop and waits for
it there: the start, each chunk and the end, three waits for a 304, each a trip of the GIL between
two threads. Here the thread makes the whole answer and returns it, and the loop sends it: the
cheapest answers (a poll's 304, about half a millisecond of work) lost 18 to 26% of their rate to
those trips (docs/benchmarks.md, issue 39). An answer longer than WHOLE (an export, a large file)
is sent as it is made, each piece waited for, so memory stays bounded.
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from a2wsgi.wsgi import Body, build_environ

WHOLE = 1 << 20  # bytes of an answer held to be sent at once


class Started:
    """start_response's arguments, as ASGI wants them, and what `write` was given."""

    def __init__(self):
        self.status, self.headers, self.written = 500, [], []

    def start_response(self, status: str, headers, exc_info=None):
        if exc_info is not None and self.headers:
            raise exc_info[1].with_traceback(exc_info[2])  # too late to change the answer (PEP 3333)
        self.status = int(status.split(" ", 1)[0])
        self.headers = [
            (name.strip().lower().encode("latin1"), value.strip().encode("latin1")) for name, value in headers
        ]
        return self.written.append

    def start(self) -> dict:
        return {"type": "http.response.start", "status": self.status, "headers": self.headers}


class Bridge:
    """An ASGI application answering HTTP with `app`, a WSGI application, in `workers` threads."""

    def __init__(self, app, workers: int):
        self.app = app
        self.executor = ThreadPoolExecutor(thread_name_prefix="WSGI", max_workers=workers)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] != "http":  # a websocket: nothing here speaks it
            await send({"type": "websocket.close", "code": 1000})
            return
        loop = asyncio.get_running_loop()
        environ = build_environ(scope, Body(loop, receive))
        whole = await loop.run_in_executor(self.executor, self.answer, environ, loop, send)
        if whole is not None:
            started, body = whole
            await send(started.start())
            await send({"type": "http.response.body", "body": body})

    def answer(self, environ, loop, send):
        """In a pool thread: the answer whole, (Started, body); or None once it has been sent piece by
        piece, being longer than WHOLE."""
        started = Started()
        chunks = self.app(environ, started.start_response)
        try:
            body, size, pieces = started.written, sum(map(len, started.written)), iter(chunks)
            for chunk in pieces:
                body.append(chunk)
                size += len(chunk)
                if size > WHOLE:
                    return self._sent_in_pieces(started, body, pieces, loop, send)
            return started, b"".join(body)
        finally:
            getattr(chunks, "close", lambda: None)()

    @staticmethod
    def _sent_in_pieces(started, body, pieces, loop, send) -> None:
        def sent(message):
            asyncio.run_coroutine_threadsafe(send(message), loop).result()

        sent(started.start())
        sent({"type": "http.response.body", "body": b"".join(body), "more_body": True})
        for chunk in pieces:
            if chunk:
                sent({"type": "http.response.body", "body": chunk, "more_body": True})
        sent({"type": "http.response.body", "body": b""})
