"""The cache backends: Redis, and the database's cache table when Redis cannot be reached.

allauth keeps its login and sign-up limits in the cache, and the live view keeps its budgets and
bodies there, so a Redis outage used to turn every sign-in into a 500. Here a failed Redis call
is answered by the database cache instead (the table `createcachetable` made on release), and
Redis is left alone for a few seconds before it is tried again, so a request never waits on a
dead server more than once per pause. The limits go on counting, in the database, on every node.

What the polls trust (caches.kept: who is signed in, who may read which game, kept pages and
answers) never falls back: an entry the database cache kept from an earlier outage could be one a
sign-out since took away. Its calls (`strict_*`, `look`, `peek`) raise Unavailable instead, and
the kept entries' module takes the full path or, for a write it could not announce, moves the
epoch on.
"""

import logging
import pickle
import time

from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# Seconds Redis is left alone after a failed call (then one request tries it again).
PAUSE = 5.0
FALLBACK = "database"  # the alias of the database cache in settings.CACHES
SEEN = 8192  # pointers whose last value peek keeps (a club's sessions), forgotten all at once past that


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


class Unavailable(Exception):
    """Redis did not answer a call that must not fall back (or is left alone for a pause)."""


# Connections this process has made to Redis: a new one may reach another Redis than the last (a
# restart, a failover), so caches.kept trusts nothing read on it before it checks again.
CONNECTIONS = 0


def _connected(connection) -> None:
    """redis-py's hook when a connection is made, instead of its own (which it calls)."""
    global CONNECTIONS
    connection.on_connect()
    CONNECTIONS += 1


class SharedClients(RedisCacheClient):
    """Django's Redis client maker, keeping one client per connection pool. Django makes a new
    `redis.Redis` for every call, and each builds its table of reply parsers: about 0.2 ms, half
    of what a poll answered from the cache cost (a client is safe to share between threads).
    Each connection it makes is counted (CONNECTIONS)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}
        self._pool_options.setdefault("redis_connect_func", _connected)

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
        self._look = None  # look's
        self._peek = None  # peek's
        self._seen = {}  # peek's guesses: a pointer's stored key, and the value (bytes) read there last

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

    def _strict(self, call):
        if self.redis_down:
            raise Unavailable("Redis is paused after a failed call")
        try:
            return call()
        except RedisError as error:
            self._pause(error)
            raise Unavailable(str(error)) from error

    def strict_get_many(self, keys):
        return self._strict(lambda: RedisCache.get_many(self, keys))

    def strict_set_many(self, data: dict, timeout: int):
        return self._strict(lambda: RedisCache.set_many(self, data, timeout))

    def strict_delete_many(self, keys):
        return self._strict(lambda: RedisCache.delete_many(self, keys))

    def strict_set(self, key, value, timeout):
        return self._strict(lambda: RedisCache.set(self, key, value, timeout))

    def strict_add(self, key, value, timeout):
        return self._strict(lambda: RedisCache.add(self, key, value, timeout))

    def bump(self, key: str) -> int:
        """INCR `key` (kept for ever), tried even during a pause: the one call that ends one."""
        stored = self.make_and_validate_key(key)
        try:
            value = self._cache.get_client(stored, write=True).incr(stored)
        except RedisError as error:
            raise Unavailable(str(error)) from error
        self._down_until = 0.0
        return value

    def identity(self, applied_key: str, beat_key: str) -> tuple[str, int]:
        """This Redis's run_id (new at every start: a restart from a snapshot, a replica promoted)
        and the note its epoch last moved past (caches.kept), with a write that must be answered at
        once (a Redis holding writes back is not trusted): one round trip, Unavailable on failure."""

        def call():
            made = self.make_and_validate_key
            pipe = self._cache.get_client(None, write=True).pipeline(transaction=False)
            pipe.info("server")
            pipe.get(made(applied_key))
            pipe.set(made(beat_key), 1, ex=60)
            info, applied, _ = pipe.execute()
            return info["run_id"], int(applied or 0)

        return self._strict(call)

    def apply_note(self, epoch_key: str, applied_key: str, note: int) -> None:
        """Move the epoch on and remember `note` as applied, unless it was applied already."""
        made = self.make_and_validate_key

        def call():
            client = self._cache.get_client(None, write=True)
            client.eval(_APPLY_NOTE, 2, made(epoch_key), made(applied_key), note)

        self._strict(call)

    def look(self, keys: list[str], create: dict, pointer: str | None, prefix: str, follow_create, timeout: int):
        """The values of `keys` (each key of `create` set to its value first when missing), and the
        value at `prefix` + the value at `pointer` (set to `follow_create` when missing, unless that
        is None): one round trip (a script). Unavailable rather than the database's answer."""

        def call():
            made = self.make_and_validate_key
            dumps = self._cache._serializer.dumps
            stored = [made(key) for key in keys]
            index = keys.index(pointer) + 1 if pointer is not None else 0
            args = [timeout, made(prefix) if pointer is not None else "", index]
            args.append("" if follow_create is None else dumps(follow_create))
            args += ["" if key not in create else dumps(create[key]) for key in keys]
            client = self._cache.get_client(stored[0], write=True)
            if self._look is None:
                self._look = client.register_script(_LOOK)
            *values, followed = self._look(keys=stored, args=args, client=client)
            load = self._cache._serializer.loads
            found = {key: load(value) for key, value in zip(keys, values, strict=True) if value is not None}
            return found, (None if followed is None else load(followed))

        return self._strict(call)

    def peek(self, keys: list[str], pointer: int, prefix: str):
        """The values of `keys`, and the value at `prefix` + the value of `keys[pointer]` (None
        when either is missing): nothing made (look is the full way's), and Unavailable rather
        than the database's answer. What a poll reads.

        Redis runs a script for 20 µs of its CPU, an MGET of six keys for 2: so the pointer's
        target is guessed from what this process read at that pointer last time (a session's
        account stays the same) and read with the rest in one MGET, and the guess is checked
        against the pointer read in that same MGET: one round trip. Without a guess (a session
        new to this process) the script reads instead, following the pointer inside Redis; a
        wrong guess (a pointer changed or taken away since) costs the MGET and the script.

        The keys are the app's own (caches.kept's: a prefix, hex digests and numbers), so they are
        made without Django's check of each of their characters for memcached's sake."""

        def call():
            made = self.make_key
            stored = [made(key) for key in keys]
            client = self._cache.get_client(stored[0])
            guess = self._seen.get(stored[pointer])
            if guess is not None:
                *values, followed = client.mget([*stored, made(prefix) + guess.decode()])
            if guess is None or values[pointer] != guess:
                if self._peek is None:
                    self._peek = client.register_script(_PEEK)
                *values, followed = self._peek(keys=stored, args=[made(prefix), pointer + 1], client=client)
                if values[pointer] is None:
                    self._seen.pop(stored[pointer], None)
                else:
                    if len(self._seen) >= SEEN:
                        self._seen.clear()
                    self._seen[stored[pointer]] = values[pointer]
            return [None if value is None else _load(value) for value in values], (
                None if followed is None else _load(followed)
            )

        return self._strict(call)

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


# KEYS: the keys to read; ARGV: the expiry of what is made, the followed key's prefix ('' for none),
# the pointer's index among KEYS (0 for none), the value to make the followed key with ('' for
# none), then for each key the value to make it with when it is missing ('' for none).
_LOOK = """
local reply = {}
for i = 1, #KEYS do
  local value = redis.call('GET', KEYS[i])
  if not value and ARGV[4 + i] ~= '' then
    redis.call('SET', KEYS[i], ARGV[4 + i], 'EX', ARGV[1])
    value = ARGV[4 + i]
  end
  reply[i] = value
end
local followed = false
local index = tonumber(ARGV[3])
if index > 0 and reply[index] then
  local key = ARGV[2] .. reply[index]
  followed = redis.call('GET', key)
  if not followed and ARGV[4] ~= '' then
    redis.call('SET', key, ARGV[4], 'EX', ARGV[1])
    followed = ARGV[4]
  end
end
reply[#KEYS + 1] = followed
return reply
"""


# KEYS: the epoch, the note applied last; ARGV: the newest note.
_APPLY_NOTE = """
if tonumber(redis.call('GET', KEYS[2]) or '0') ~= tonumber(ARGV[1]) then
  redis.call('INCR', KEYS[1])
  redis.call('SET', KEYS[2], ARGV[1])
end
return 1
"""


def _load(value: bytes):
    """What Django's RedisSerializer stored as `value`: an int as its digits, anything else pickled.
    Its own loads tries int() first and catches the ValueError of every pickled value, four of a
    poll's five; a pickle (protocol 2 on) starts with the PROTO opcode, which no int does."""
    if value[:1] != b"\x80":
        try:
            return int(value)
        except ValueError:
            pass
    return pickle.loads(value)


# KEYS: the keys to read; ARGV: the followed key's prefix, the pointer's index among KEYS.
_PEEK = """
local reply = redis.call('MGET', unpack(KEYS))
local pointer = reply[tonumber(ARGV[2])]
reply[#KEYS + 1] = pointer and redis.call('GET', ARGV[1] .. pointer)
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
