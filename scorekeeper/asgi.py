"""ASGI entry point: the Procfile's web line serves `scorekeeper.asgi:application` with gunicorn and
uvicorn's worker (scorekeeper.http.worker).

A stream of pushed updates (`/api/v1/.../events/`) is held on the event loop (http.streams); every
other request (pages, the API, the polls, static files through whitenoise) is the WSGI application
of scorekeeper.wsgi, answered in a pool of WEB_THREADS threads per process as gthread answered it:
its polls keep their shortcut (http.polls.PollsFirst), its sync views their concurrency, and each
thread keeps its one database connection (CONN_MAX_AGE), so connections never pile up past the pool.
"""

import os
import re

from a2wsgi import WSGIMiddleware

from scorekeeper.wsgi import application as wsgi_application

from .http.streams import Stream

THREADS = int(os.environ.get("WEB_THREADS", "4"))
STREAMS = re.compile(r"^/api/v1/(?:games/[0-9]{1,18}|nights/[0-9]{1,18}|live/[A-Za-z0-9_-]{1,64}"
                     r"|live/nights/[A-Za-z0-9_-]{1,64})/events/$")  # fmt: skip

wsgi = WSGIMiddleware(wsgi_application, workers=THREADS)


async def application(scope, receive, send):
    if scope["type"] == "http" and scope["method"] == "GET" and STREAMS.match(scope["path"]):
        await Stream(wsgi_application, wsgi.executor, scope, receive, send).serve()
    else:
        await wsgi(scope, receive, send)
