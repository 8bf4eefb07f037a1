"""The shared cache: Redis, and the database's cache table when Redis cannot be reached.

allauth keeps its login and sign-up limits in the cache, and the live view keeps its budgets and
bodies there, so a Redis outage used to turn every sign-in into a 500. Here a failed Redis call
is answered by the database cache instead (the table `createcachetable` made on release), and
Redis is left alone for a few seconds before it is tried again, so a request never waits on a
dead server more than once per pause. The limits go on counting, in the database, on every node.
"""

import logging
import time

from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# Seconds Redis is left alone after a failed call (then one request tries it again).
PAUSE = 5.0
FALLBACK = "database"  # the alias of the database cache in settings.CACHES


def _falls_back(name: str):
    def method(self, *args, **kwargs):
        if not self.redis_down:
            try:
                return getattr(super(RedisWithFallback, self), name)(*args, **kwargs)
            except RedisError as error:
                self._pause(error)
        return getattr(self.fallback, name)(*args, **kwargs)

    method.__name__ = name
    return method


class RedisWithFallback(RedisCache):
    """Django's Redis cache; each call answered by the database cache while Redis is unreachable."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._down_until = 0.0

    @property
    def fallback(self) -> BaseCache:
        return caches[FALLBACK]

    @property
    def redis_down(self) -> bool:
        return time.monotonic() < self._down_until

    def _pause(self, error: Exception) -> None:
        if not self.redis_down:
            logger.warning("Redis unreachable (%s): the database cache answers for %.0f s", error, PAUSE)
        self._down_until = time.monotonic() + PAUSE

    add = _falls_back("add")
    get = _falls_back("get")
    set = _falls_back("set")
    touch = _falls_back("touch")
    delete = _falls_back("delete")
    get_many = _falls_back("get_many")
    has_key = _falls_back("has_key")
    incr = _falls_back("incr")
    set_many = _falls_back("set_many")
    delete_many = _falls_back("delete_many")
    clear = _falls_back("clear")

    def hit(self, key: str, timeout: int) -> int:
        """One more in a window counted under `key`, the count returned: one round trip to Redis
        (SET NX with its expiry, then INCR, pipelined), where add and incr take three."""
        if not self.redis_down:
            try:
                stored = self.make_and_validate_key(key)
                pipe = self._cache.get_client(stored, write=True).pipeline()
                pipe.set(stored, 0, ex=timeout, nx=True)
                pipe.incr(stored)
                return pipe.execute()[1]
            except RedisError as error:
                self._pause(error)
        return hit(self.fallback, key, timeout)


def hit(cache: BaseCache, key: str, timeout: int) -> int:
    """One more in a window counted under `key` in `cache`, the count returned (see
    RedisWithFallback.hit; any other cache: add, else incr)."""
    if isinstance(cache, RedisWithFallback):
        return cache.hit(key, timeout)
    if cache.add(key, 1, timeout=timeout):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=timeout)
        return 1
