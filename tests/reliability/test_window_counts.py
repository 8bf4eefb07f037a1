"""Counting requests in a window (the live view's budget): one round trip to a real Redis, and the
same counts from any other cache."""

import subprocess

from django.core.cache.backends.locmem import LocMemCache

from scorekeeper.cache import RedisWithFallback, hit
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
