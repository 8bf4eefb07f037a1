"""The calls to the cache the kept entries make."""

import logging

from django.core import cache as django_cache

from .keys import lifetime

logger = logging.getLogger(__name__)


# The store: Redis through its strict calls (never the database's cache), or any other cache
# (the database's table when there is no Redis, memory in tests) through the usual ones.


def _cache():
    return django_cache.cache


def quietly(call, *args, **kwargs):
    """A cache call whose failure costs a poll its shortcut, never a request its answer."""
    try:
        return call(*args, **kwargs)
    except Exception:  # any cache failure: the full path answers instead
        logger.warning("kept entries unavailable", exc_info=True)
        return None


def get_many(keys: list[str]) -> dict:
    cache = _cache()
    return (getattr(cache, "strict_get_many", None) or cache.get_many)(keys)


def set_many(data: dict, timeout: int) -> None:
    cache = _cache()
    if hasattr(cache, "strict_set_many"):
        cache.strict_set_many(data, timeout)
    else:
        cache.set_many(data, timeout)


def add(key: str, value, timeout: int) -> bool:
    cache = _cache()
    return (getattr(cache, "strict_add", None) or cache.add)(key, value, timeout)


def look(keys: list[str], create: dict | None = None, pointer=None, prefix="", follow_create=None):
    """The values found at `keys` (those of `create` made first when missing), and the value at
    `prefix` + the value at `pointer` (made `follow_create` when missing, unless None): one round
    trip on Redis."""
    cache, create = _cache(), create or {}
    if (own := getattr(cache, "look", None)) is not None:
        return own(keys, create, pointer, prefix, follow_create, lifetime())
    found = cache.get_many(keys)
    for key, value in create.items():
        if key not in found:
            found[key] = value if cache.add(key, value, lifetime()) else cache.get(key, value)
    followed = None
    if pointer is not None and (target := found.get(pointer)) is not None:
        followed = cache.get(f"{prefix}{target}")
        if followed is None and follow_create is not None:
            followed = follow_create if cache.add(f"{prefix}{target}", follow_create, lifetime()) else None
    return found, followed


def peek(keys: list[str], pointer: int, prefix: str):
    """The values at `keys` (None for a missing one), and the value at `prefix` + the value at
    `keys[pointer]`: what a poll reads, in one round trip on Redis (RedisWithFallback.peek). Nothing
    is made: a poll trusts what a full request wrote, or takes the full way."""
    cache = _cache()
    if (own := getattr(cache, "peek", None)) is not None:
        return own(keys, pointer, prefix)
    found = cache.get_many(keys)
    target = found.get(keys[pointer])
    return [found.get(key) for key in keys], None if target is None else cache.get(f"{prefix}{target}")
