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
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
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


class SharedClients(RedisCacheClient):
    """Django's Redis client maker, keeping one client per connection pool. Django makes a new
    `redis.Redis` for every call, and each builds its table of reply parsers: about 0.2 ms, half
    of what a poll answered from the cache cost (a client is safe to share between threads)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        if (client := self._clients.get(id(pool))) is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisWithFallback(RedisCache):
    """Django's Redis cache; each call answered by the database cache while Redis is unreachable."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = SharedClients
        self._down_until = 0.0
        self._script = None  # hit_then_follow's, registered on first use

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

    def hit_then_follow(self, counter: str, timeout: int, keys: list[str], pointer: str, prefix: str):
        """`hit(counter, timeout)`, the values of `keys`, and the value at `prefix` + the value at
        `pointer` (None when `pointer` holds nothing): in one round trip to Redis (a script), where
        a cache without scripts takes one for each."""
        if not self.redis_down:
            try:
                made = self.make_and_validate_key
                stored = [made(counter), made(pointer), *(made(key) for key in keys)]
                client = self._cache.get_client(stored[0], write=True)
                if self._script is None:  # its digest, sent instead of the script once Redis knows it
                    self._script = client.register_script(_HIT_THEN_FOLLOW)
                count, followed, *values = self._script(keys=stored, args=[timeout, made(prefix)], client=client)
                load = self._cache._serializer.loads
                return (
                    count,
                    [None if value is None else load(value) for value in values],
                    (None if followed is None else load(followed)),
                )
            except RedisError as error:
                self._pause(error)
        return hit_then_follow(self.fallback, counter, timeout, keys, pointer, prefix)


# KEYS: the counter, the pointer, then the keys to read; ARGV: the counter's expiry, the prefix.
_HIT_THEN_FOLLOW = """
local reply = {redis.call('INCR', KEYS[1]), false}
if reply[1] == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local pointer = redis.call('GET', KEYS[2])
if pointer then reply[2] = redis.call('GET', ARGV[2] .. pointer) end
for i = 3, #KEYS do reply[i] = redis.call('GET', KEYS[i]) end
return reply
"""


def hit(cache: BaseCache, key: str, timeout: int) -> int:
    """One more in a window counted under `key` in `cache`, the count returned (see
    RedisWithFallback.hit; any other cache: add, else incr)."""
    if (own := getattr(cache, "hit", None)) is not None:  # a RedisWithFallback, or django's proxy of one
        return own(key, timeout)
    if cache.add(key, 1, timeout=timeout):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=timeout)
        return 1


def hit_then_follow(cache: BaseCache, counter: str, timeout: int, keys: list[str], pointer: str, prefix: str):
    """The count after one more hit under `counter`, the values of `keys` (None for a missing one),
    and the value under `prefix` + the value under `pointer` (None when either is missing): see
    RedisWithFallback.hit_then_follow; any other cache takes a call for each."""
    if (own := getattr(cache, "hit_then_follow", None)) is not None:
        return own(counter, timeout, keys, pointer, prefix)
    count = hit(cache, counter, timeout)
    found = cache.get_many([*keys, pointer])
    target = found.get(pointer)
    return count, [found.get(key) for key in keys], None if target is None else cache.get(f"{prefix}{target}")
