"""Counting requests in a window (the live view's budget) and a live poll's lookup: one round trip
to a real Redis each, and the same answers from any other cache."""

import subprocess
from unittest import mock

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from redis.connection import Connection

from scorekeeper.caches.backends import RedisWithFallback, hit, hit_then_follow
from tests.reliability.test_redis_outage import RedisServer


def test_a_window_count_in_redis_goes_up_by_one_and_expires_with_its_window():
    redis = RedisServer()
    try:
        cache = RedisWithFallback(redis.url, {"OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}})
        assert [hit(cache, "live-rate:x", 61) for _ in range(3)] == [1, 2, 3]
        assert cache.get("live-rate:x") == 3  # a plain number, as Django's own incr leaves it
        stored = cache.make_and_validate_key("live-rate:x")
        ttl = subprocess.run(["redis-cli", "-p", str(redis.port), "ttl", stored], capture_output=True, text=True)
        assert 0 < int(ttl.stdout) <= 61
        assert hit(cache, "live-rate:y", 61) == 1  # another window counts apart
    finally:
        redis.kill()


def test_any_other_cache_counts_the_same_way():
    cache = LocMemCache("window-counts", {})
    assert [hit(cache, "live-rate:x", 61) for _ in range(3)] == [1, 2, 3]


def round_trips(cache: RedisWithFallback, call):
    """How many times `call` sent something to Redis, and what it returned."""
    sent = mock.Mock(wraps=Connection.send_packed_command)

    def send(connection, *args, **kwargs):
        return sent(connection, *args, **kwargs)

    with mock.patch.object(Connection, "send_packed_command", send):
        result = call()
    return sent.call_count, result


def test_a_live_polls_lookup_counts_reads_and_follows_the_link_in_one_round_trip():
    redis = RedisServer()
    try:
        cache = RedisWithFallback(redis.url, {"OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}})
        cache.set_many({"link": ("digest", 7, "stamp"), "link-game": 7, "game:7": (3, "stamp")})

        def lookup(pointer="link-game"):
            return hit_then_follow(cache, "rate", 61, ["link", "absent"], pointer, "game:")

        lookup()  # the first call teaches Redis the script
        trips, (count, values, game) = round_trips(cache, lookup)
        assert trips == 1
        assert count == 2 and values == [("digest", 7, "stamp"), None] and game == (3, "stamp")
        assert lookup(pointer="nowhere")[0::2] == (3, None)
        assert round_trips(cache, lambda: hit(cache, "rate", 61)) == (1, 4)
    finally:
        redis.kill()


def test_through_djangos_cache_proxy_the_redis_calls_are_the_one_round_trip_ones(settings):
    redis = RedisServer()
    try:
        settings.CACHES = settings.CACHES | {
            "default": {"BACKEND": "scorekeeper.caches.backends.RedisWithFallback", "LOCATION": redis.url}
        }
        from django.core.cache import cache  # a ConnectionProxy, not the RedisWithFallback itself

        assert not isinstance(cache, RedisWithFallback)
        hit(cache, "warm", 61)  # the connection made
        assert round_trips(caches["default"], lambda: hit(cache, "rate", 61)) == (1, 1)
        cache.set_many({"link-game": 7, "game:7": (3, "stamp")})
        hit_then_follow(cache, "rate", 61, [], "link-game", "game:")
        trips, (count, values, game) = round_trips(
            caches["default"], lambda: hit_then_follow(cache, "rate", 61, [], "link-game", "game:")
        )
        assert (trips, count, values, game) == (1, 3, [], (3, "stamp"))
    finally:
        redis.kill()


def test_any_other_cache_looks_a_live_poll_up_the_same_way():
    cache = LocMemCache("lookups", {})
    cache.set_many({"link": ("digest", 7, "stamp"), "link-game": 7, "game:7": (3, "stamp")})
    count, values, game = hit_then_follow(cache, "rate", 61, ["link", "absent"], "link-game", "game:")
    assert (count, values, game) == (1, [("digest", 7, "stamp"), None], (3, "stamp"))
    assert hit_then_follow(cache, "rate", 61, [], "nowhere", "game:") == (2, [], None)


def test_a_polls_read_follows_the_sessions_account_in_one_round_trip_and_makes_nothing():
    """peek: the script the first time a process sees a pointer, then one MGET with the account's
    stamp guessed from it; a pointer that now names another account is followed anew, never
    answered with the guessed one's stamp."""
    redis = RedisServer()
    try:
        cache = RedisWithFallback(redis.url, {"OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}})
        cache.set_many({"epoch": 2, "session": "s1", "session-user": 7, "entry": (2, "s1", "a7", 5)})
        cache.set_many({"account:7": "a7", "account:8": "a8"})
        keys = ["epoch", "session", "session-user", "absent", "entry"]
        expected = ([2, "s1", 7, None, (2, "s1", "a7", 5)], "a7")
        # The first time: the script's digest sent, Redis does not know it, the script loaded and run.
        assert round_trips(cache, lambda: cache.peek(keys, 2, "account:")) == (3, expected)
        assert round_trips(cache, lambda: cache.peek(keys, 2, "account:")) == (1, expected)  # the MGET
        cache.set("session-user", 8)
        trips, (values, followed) = round_trips(cache, lambda: cache.peek(keys, 2, "account:"))
        assert (trips, values[2], followed) == (2, 8, "a8")  # the guess was 7: the script follows 8
        cache.delete("account:8")
        assert cache.peek(keys, 2, "account:")[1] is None
        cache.delete("session-user")
        assert cache.peek(keys, 2, "account:") == ([2, "s1", None, None, (2, "s1", "a7", 5)], None)
        dbsize = subprocess.run(["redis-cli", "-p", str(redis.port), "dbsize"], capture_output=True, text=True)
        assert int(dbsize.stdout) == 4  # epoch, session, entry, account:7: nothing made
    finally:
        redis.kill()


def test_any_other_cache_reads_a_poll_the_same_way():
    from scorekeeper.caches import kept

    kept._cache().set_many({"epoch": 2, "session-user": 7, "account:7": "a7"})
    keys = ["epoch", "session-user", "absent"]
    assert kept.peek(keys, 1, "account:") == ([2, 7, None], "a7")
    assert kept.peek(keys, 2, "account:") == ([2, 7, None], None)
