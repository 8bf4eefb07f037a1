"""ASGI entry point: the Procfile's web line serves `scorekeeper.asgi:application` with gunicorn and
uvicorn's worker (scorekeeper.http.worker).

A stream of pushed updates (`/api/v1/.../events/`) is held on the event loop (http.streams); every
other request (pages, the API, the polls, static files through whitenoise) is the WSGI application
of scorekeeper.wsgi, answered in a pool of WEB_THREADS threads per process (http.bridge, one hop
into the pool and one back per answer) as gthread answered it:
its polls keep their shortcut (http.polls.PollsFirst), its sync views their concurrency, and each
thread keeps its one database connection (CONN_MAX_AGE), so connections never pile up past the pool.

That needs `in_thread_context`: a pool that runs each request in a fresh copy of the event loop's
context (a2wsgi's WSGIMiddleware, which served here before http.bridge) breaks it, as Django keeps
its cache clients in a context variable (asgiref's Local; its database connections are
thread-local already), so each request would make a cache client of its own and
drop it after: a new Redis connection per request, and with it the kept answers' trust check made
again (caches.kept trusts no new connection unchecked), so no sheet page was ever sent as kept
(measured: 24 against gthread's 190 sheet pages a second, one worker). Each thread of the pool runs
its requests, their answers' bodies and their close (Django's request_finished) in one context of
its own instead, as gthread's threads do.
"""

import contextvars
import os
import re
import threading

from scorekeeper.wsgi import application as wsgi_application

from .http.bridge import Bridge
from .http.streams import Stream

THREADS = int(os.environ.get("WEB_THREADS", "4"))
STREAMS = re.compile(r"^/api/v1/(?:games/[0-9]{1,18}|nights/[0-9]{1,18}|live/[A-Za-z0-9_-]{1,64}"
                     r"|live/nights/[A-Za-z0-9_-]{1,64})/events/$")  # fmt: skip


class InContext:
    """A WSGI answer whose body is read and closed in `context`."""

    def __init__(self, context: contextvars.Context, answer):
        self.context, self.answer, self.chunks = context, answer, iter(answer)

    def __iter__(self):
        return self

    def __next__(self) -> bytes:
        return self.context.run(next, self.chunks)

    def close(self) -> None:
        if (close := getattr(self.answer, "close", None)) is not None:
            self.context.run(close)


def in_thread_context(app):
    """`app` run, in each thread, in one context of that thread's own (see above)."""
    local = threading.local()

    def run(environ, start_response):
        context = getattr(local, "context", None)
        if context is None:
            context = local.context = contextvars.Context()
        return InContext(context, context.run(app, environ, start_response))

    return run


pooled = in_thread_context(wsgi_application)
wsgi = Bridge(pooled, THREADS)


async def application(scope, receive, send):
    if scope["type"] == "http" and scope["method"] == "GET" and STREAMS.match(scope["path"]):
        await Stream(pooled, wsgi.executor, scope, receive, send).serve()
    else:
        await wsgi(scope, receive, send)
