"""What says "no longer trusted": forgetting keys, the epoch, and the checks that earn trust."""

import logging
import threading
import time

from .. import backends
from . import store
from .keys import epoch_key, space

logger = logging.getLogger(__name__)

# The epoch.

_mending = threading.Lock()
_mender: threading.Thread | None = None
MEND_EVERY = 0.2  # seconds between tries while Redis does not answer


def forget(keys: list[str]) -> None:
    """Take `keys` away; when the cache cannot be told, nothing it holds is trusted until it can
    be: a durable note (CacheNote, committed with the write when there is one) that the first
    process to reach Redis again applies (`trusted`), or, for a cache without notes or when the
    database cannot take the note either, a move of the epoch as soon as the cache answers (`mend`)."""
    if not keys:
        return
    cache = store._cache()
    try:
        (getattr(cache, "strict_delete_many", None) or cache.delete_many)(keys)
    except Exception:
        logger.warning("kept entries could not be forgotten: the epoch moves on", exc_info=True)
        distrust()
        if not (hasattr(cache, "identity") and _note()):
            mend()


def _note() -> bool:
    """Write a CacheNote of a write Redis was not told of; whether the database took it."""
    from django.db import transaction

    from scorekeeper.models import CacheNote

    try:
        with transaction.atomic():  # a savepoint inside the write's transaction: committed with it
            CacheNote.objects.create()
        return True
    except Exception:
        logger.warning("no note of the lost invalidation could be written", exc_info=True)
        return False


# Trust. The stamps in Redis are only as current as Redis itself: a write that could not reach it
# (a pause, a freeze, an outage) leaves stamps it meant to take away, and a Redis restarted from a
# snapshot or a replica promoted in its place holds stamps and entries from before writes that
# took them away. So a process trusts what it reads from Redis only while a check sent less than
# REFRESH seconds ago found (in one round trip and one query): the Redis it knew (its run_id, as
# the last identity note in the database names it: a new one is noted, which moves the epoch on),
# every note applied (the epoch moved on past the newest: entries of an earlier epoch are never
# trusted), and a write answered at once (a Redis holding writes back, CLIENT PAUSE or a freeze,
# is not trusted). A new connection to Redis (a restart, a failover) ends the trust at once.
# A poll checks before its read (`trusted`, which may run the check) and after it (`still_trusted`).

REFRESH = 0.25  # seconds a check stands: the bound on a stale answer after a lost invalidation
RETRY = 0.5  # seconds after a failed check before the next (meanwhile polls take the full way)

_trusting = threading.Lock()
_until = 0.0  # time.monotonic() until which the last check stands
_retry_at = 0.0
_connections = 0  # backends.CONNECTIONS when the last check was made


def applied_key() -> str:
    """The newest CacheNote this Redis's epoch has moved past."""
    return f"{space()}:noted"


def beat_key() -> str:
    """What a check writes: a Redis that holds writes back does not answer it."""
    return f"{space()}:beat"


def distrust() -> None:
    """Trust nothing read from Redis until the next check (this process)."""
    global _until
    _until = 0.0


def still_trusted() -> bool:
    """Whether the last check still stands and no new connection was made since (no check run)."""
    return (time.monotonic() < _until and _connections == backends.CONNECTIONS) or not hasattr(
        store._cache(), "identity"
    )


def trusted() -> bool:
    """Whether what this process reads from the cache now may be trusted, checked again when the
    last check is older than REFRESH (see above). A cache of this process's own, or the database's
    table, is its own truth: always."""
    if still_trusted():
        return True
    now = time.monotonic()
    if now < _retry_at:
        return False
    from django.db import connection

    if connection.in_atomic_block:  # a note made here would be rolled back with someone's write
        return False
    with _trusting:
        return still_trusted() or _check()


def _check() -> bool:
    global _until, _retry_at, _connections
    from scorekeeper.models import CacheNote

    cache, sent = store._cache(), time.monotonic()
    try:
        run_id, applied = cache.identity(applied_key(), beat_key())
        newest, known = _notes(CacheNote._meta.db_table)
        if known != run_id:
            logger.warning("kept entries: Redis %s is new here, nothing it held before is trusted", run_id)
            newest = CacheNote.objects.create(redis=run_id).pk
        if newest != applied:  # newer notes; or older ones only (the database went back): moved on all the same
            cache.apply_note(epoch_key(), applied_key(), newest)
            CacheNote.objects.filter(pk__lt=newest).exclude(redis=run_id).delete()  # applied: kept no longer
    except Exception:
        logger.warning("kept entries not trusted: the cache could not be checked", exc_info=True)
        _until, _retry_at = 0.0, time.monotonic() + RETRY
        return False
    _until, _connections = sent + REFRESH, backends.CONNECTIONS
    return True


def _notes(table: str) -> tuple[int, str | None]:
    """The newest note's number, and the run_id of the newest identity note: one query."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT MAX(id) FROM {table}),"  # the model's own table name
            f" (SELECT redis FROM {table} WHERE redis <> '' ORDER BY id DESC LIMIT 1)"
        )
        newest, known = cursor.fetchone()
    return newest or 0, known


def mend() -> None:
    """Move the epoch on, now or, if the cache does not answer, as soon as it does (a thread of
    this process tries every MEND_EVERY seconds). One move covers every write that failed before it."""
    global _mender
    with _mending:
        if _mender is not None and _mender.is_alive():
            return
        _mender = threading.Thread(target=_mend, name="kept-epoch-mender", daemon=True)
        _mender.start()


def _mend() -> None:
    while True:
        try:
            _bump()
            logger.warning("kept entries: epoch moved on, entries written before are no longer trusted")
            return
        except Exception:
            time.sleep(MEND_EVERY)


def _bump() -> None:
    cache = store._cache()
    if hasattr(cache, "bump"):
        cache.bump(epoch_key())
        return
    try:
        cache.incr(epoch_key())
    except ValueError:  # no epoch yet
        cache.add(epoch_key(), 1, None) or cache.incr(epoch_key())


def wait_for_mending(timeout: float = 5.0) -> bool:
    """Whether no move of the epoch is pending (after waiting up to `timeout`): for tests."""
    mender = _mender
    if mender is not None:
        mender.join(timeout)
        return not mender.is_alive()
    return True
