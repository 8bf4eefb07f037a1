"""caches.kept's notes and checks against a real Redis, in this process: a lost invalidation is a
note in the database, committed with its write, and whichever process next checks Redis moves the
epoch on past it; a Redis restarted (a new run_id) is noted and moved on the same way."""

import signal

import pytest

from scorekeeper.caches import kept
from scorekeeper.caches.backends import RedisWithFallback
from scorekeeper.models import CacheNote
from tests.reliability.test_redis_outage import RedisServer


@pytest.fixture
def redis_cache(transactional_db, monkeypatch):
    """A real Redis as the kept entries' cache; no transaction around the test (a check is never
    made inside one)."""
    redis = RedisServer()
    cache = RedisWithFallback(redis.url, {"OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}})
    monkeypatch.setattr(kept.store, "_cache", lambda: cache)
    monkeypatch.setattr(kept.trust, "_until", 0.0)
    monkeypatch.setattr(kept.trust, "_retry_at", 0.0)
    yield redis, cache
    redis.process.send_signal(signal.SIGCONT)
    redis.kill()


def epoch(cache) -> int:
    return cache.get(kept.epoch_key(), 0)


def checked_again(cache) -> bool:
    """A check now, as after REFRESH (and after the pause the cache takes when Redis failed)."""
    cache._down_until, kept.trust._until, kept.trust._retry_at = 0.0, 0.0, 0.0
    return kept.trusted()


def test_a_lost_invalidation_is_a_note_committed_with_its_write_and_the_next_check_moves_the_epoch_on(redis_cache):
    """And a Redis that holds writes back is not trusted."""
    from django.db import transaction

    redis, cache = redis_cache
    assert kept.trusted()  # the first check notes this Redis, and moves its epoch on
    first = epoch(cache)
    assert list(CacheNote.objects.values_list("redis", flat=True)) == [cache.identity("x", "y")[0]]
    assert kept.still_trusted()

    redis.process.send_signal(signal.SIGSTOP)
    with transaction.atomic():
        kept.forget([kept.game_key(7)])  # Redis does not answer: a note, in the write's transaction
        assert not kept.still_trusted()
    redis.process.send_signal(signal.SIGCONT)
    assert CacheNote.objects.filter(redis="").count() == 1
    assert checked_again(cache) and epoch(cache) == first + 1

    # A note left by another process (one killed before Redis came back) is applied by this one.
    CacheNote.objects.create()
    assert checked_again(cache) and epoch(cache) == first + 2
    assert checked_again(cache) and epoch(cache) == first + 2  # applied once
    assert CacheNote.objects.count() == 2  # applied notes are dropped: the newest and this Redis's stay

    # A Redis that holds writes back (CLIENT PAUSE WRITE) answers reads, not the check's write.
    assert redis.cli("client", "pause", "2000", "write").strip() == "OK"
    assert not checked_again(cache)
    assert not kept.trusted()  # and it is not asked again at once (RETRY)


def test_a_redis_restarted_from_anything_is_noted_and_nothing_it_held_is_trusted(redis_cache):
    redis, cache = redis_cache
    assert kept.trusted()
    cache.set(kept.epoch_key(), 5)  # as a snapshot would bring back an epoch of before
    old_run = cache.identity("x", "y")[0]
    redis.kill()
    revived = RedisServer(redis.port)
    try:
        cache.set(kept.epoch_key(), 5)  # the same epoch, on a new server: its entries would match
        assert not kept.still_trusted()  # a new connection was made: nothing read on it is trusted yet
        assert checked_again(cache)
        assert epoch(cache) == 6
        runs = list(CacheNote.objects.exclude(redis="").values_list("redis", flat=True))
        assert runs == [cache.identity("x", "y")[0]] and runs[0] != old_run  # the old one's note applied, dropped
    finally:
        revived.kill()
