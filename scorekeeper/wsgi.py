"""WSGI entry point: gunicorn serves `scorekeeper.wsgi:application`.

Polls are answered before Django's handler (scorekeeper.http.polls.PollsFirst). Then, once the app is
loaded (every view imported through the URLconf), what it loaded is frozen out of the garbage
collector's reach: a full collection scanned those 130,000 objects in 60 ms idle and 165 ms
(up to 490) under a club night's polls, the whole process stalled meanwhile; frozen, it takes a
few milliseconds (docs/benchmarks.md, "Issue 25, third pass")."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
# A web worker frozen mid-request lets go of its transaction (a game's row, an Idempotency-Key)
# within seconds, and a request waits for a lock at most 15 s (settings.IDLE_IN_TRANSACTION_MS).
os.environ.setdefault("IDLE_IN_TRANSACTION_MS", "5000")
os.environ.setdefault("LOCK_TIMEOUT_MS", "15000")
django_application = get_wsgi_application()  # sets Django up


def _loaded(app):
    from django.urls import get_resolver

    from scorekeeper.http.polls import PollsFirst

    get_resolver().url_patterns  # imports every view now, not on the first request  # noqa: B018
    gc.freeze()
    return PollsFirst(app)


application = _loaded(django_application)
