"""What the shared cache keeps so that a poll is answered without the database, and how an entry
earns trust.

A poll of an unchanged game (a member's API poll, a member's followed sheet, a live link's poll)
is answered 304 from one round trip to the cache when an entry says "this session, signed in as
this account, may read this game, which is at this version". An entry is written by a full request
after the database said so, and it is only trusted while the *stamps* it was written under are
still the current ones:

- `game:<pk>` changes with every write to the game and every change of who may read it;
- `session:<digest>` goes at sign-out;
- `account:<user>` goes with a new password, an account switched off or deleted;
- `epoch` moves on when a write could not tell the cache (Redis paused, restarting, unreachable).

A full request reads the stamps *before* it asks the database (a `Fence`), making any that are
missing, and writes its entry under the stamps it read then. A write that commits meanwhile
replaces a stamp after its commit, so the entry is born stale and never trusted: the race of an
invalidation against a full request remembering access cannot let a 304 through.

The stamps are taken away by one module only, `caches.rule` (a write announces what it changed).
What says "no longer trusted" never lives only in Redis or in a process: when a write cannot reach
Redis, it leaves a durable note in the database (`CacheNote`, committed with the write), and a Redis
this app has not seen before (restarted, restored from a snapshot, a replica promoted: its run_id)
is noted too. Every entry names the epoch it was written in, and the first process to reach Redis
again moves the epoch on past every note (`trusted`), so nothing written before is trusted after,
even when the process that made the write died meanwhile. A process trusts what it reads only under
a check of Redis and the notes less than REFRESH seconds old, made with a write Redis answered at
once (a Redis holding writes back is not trusted). The kept store never falls back to the
database's cache (an entry kept there in an earlier outage could be one a sign-out took away
since): while Redis is unreachable, every poll takes the full path.
"""

import functools
import hashlib
import logging
import random
import secrets
import threading
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.core import cache as django_cache

from . import backends

logger = logging.getLogger(__name__)

# Seconds an entry or a stamp stands unless something renews it: the bound on how long a missed
# invalidation could matter if every other safeguard failed.
TTL = 60


def lifetime() -> int:
    """An entry's seconds: between half of TTL and TTL, drawn anew at each write. Entries written
    together (a club's phones opening their games at 7 pm, or a server's restart) would otherwise
    expire together, every TTL seconds, and their phones would all take the full way at once: at
    1,500 phones that storm queued rounds for up to a second (docs/benchmarks.md)."""
    return random.randint(TTL // 2, TTL)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:40]


def new_stamp() -> str:
    return secrets.token_hex(8)


# Keys. Their prefix is made of the SECRET_KEY: a new secret (sessions signed with the old one are
# Django's to judge again) starts from an empty cache.


def space() -> str:
    return _space_of(settings.SECRET_KEY)


@functools.lru_cache(maxsize=4)
def _space_of(secret: str) -> str:
    """Remembered per secret: every key starts with it, and hashing the secret anew for each was
    most of what making a key cost."""
    return "kept:" + digest(secret)[:8]


def epoch_key() -> str:
    return f"{space()}:epoch"


def game_key(pk: int | str = "") -> str:
    """A game's stamp; with no `pk`, the prefix of every game's."""
    return f"{space()}:game:{pk}"


def session_key(session: str) -> str:
    return f"{space()}:session:{digest(session)}"


def session_user_key(session: str) -> str:
    """The account a session is signed in as (an int: the cache follows it to the account's stamp)."""
    return f"{space()}:session-user:{digest(session)}"


def account_key(user_pk: int | str = "") -> str:
    return f"{space()}:account:{user_pk}"


def member_key(session: str, pk: int) -> str:
    return f"{space()}:member:{digest(session)}:{pk}"


def sheet_key(session: str, pk: int) -> str:
    return f"{space()}:sheet:{digest(session)}:{pk}"


def link_key(selector: str) -> str:
    return f"{space()}:live:{selector}"


def link_game_key(selector: str) -> str:
    """The number of the game a link opens, alone: the cache follows it to the game's stamp."""
    return f"{space()}:live-game:{selector}"


def answer_key(pk: int, language: str) -> str:
    """The API's answer for game `pk` in `language`, the same for every member: (version, bytes)."""
    return f"{space()}:answer:{pk}:{language}"


def pages_key(pk: int) -> str:
    """The list of game `pk`'s kept pages (caches.pages), so they go with the game's stamp."""
    return f"{space()}:pages-of:{pk}"


def page_key(pk: int, vary: str) -> str:
    return f"{space()}:page:{pk}:{vary}"


def answers_of(pk: int) -> list[str]:
    return [answer_key(pk, code) for code, _name in settings.LANGUAGES]


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
    cache = _cache()
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
    return (time.monotonic() < _until and _connections == backends.CONNECTIONS) or not hasattr(_cache(), "identity")


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

    cache, sent = _cache(), time.monotonic()
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
    cache = _cache()
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


# Entries.


@dataclass
class Fence:
    """The stamps a full request read before it asked the database, and what else it asked for
    (`found`). Entries it remembers are written under these stamps."""

    epoch: int = 0
    session: str | None = None
    session_stamp: str | None = None
    user: int | None = None
    account_stamp: str | None = None
    game: int | None = None
    game_stamp: str | None = None
    found: dict = field(default_factory=dict)
    usable: bool = False
    learned: bool = False  # the game was learned after the database was asked (learn_game)

    def learn_account(self, user_pk: int) -> None:
        """The session turned out to be `user_pk`'s and the fence did not know it: read their
        account's stamp now, before the database checks the account."""
        if not self.usable or self.user == user_pk:
            return
        key = account_key(user_pk)
        found = quietly(look, [key], {key: new_stamp()})
        if found is None or not still_trusted():
            self.usable = False
            return
        self.user, self.account_stamp = user_pk, found[0].get(key)

    def learn_game(self, pk: int) -> None:
        """The live link turned out to open game `pk` and the fence did not know it: read the game's
        stamp now. The caller asks the database again before it remembers (a link revoked between
        its first read and this one would otherwise be remembered under a fresh stamp)."""
        if not self.usable:
            return
        key = game_key(pk)
        found = quietly(look, [key], {key: new_stamp()})
        if found is None or not still_trusted():
            self.usable = False
            return
        self.game, self.game_stamp, self.learned = pk, found[0].get(key), True

    def signature(self) -> tuple:
        return (self.epoch, self.session_stamp, self.account_stamp, self.game_stamp, self.user)


def fence(*, session: str | None = None, game: int | None = None, fetch=()) -> Fence:
    """Read (and make where missing) the stamps of `session`, its account and `game`, and the
    values of `fetch`, in one round trip, before the database is asked."""
    keys, create = [epoch_key(), *fetch], {}
    if game is not None:
        keys.append(game_key(game))
        create[game_key(game)] = new_stamp()
    pointer = None
    if session:
        pointer = session_user_key(session)
        keys += [session_key(session), pointer]
        create[session_key(session)] = new_stamp()
    result = (
        quietly(look, keys, create, pointer, account_key(), new_stamp() if session else None) if trusted() else None
    )
    if result is None or not still_trusted():
        return Fence(session=session, game=game)
    found, account_stamp = result
    user = found.get(pointer) if session else None
    return Fence(
        epoch=found.get(epoch_key(), 0),
        session=session,
        session_stamp=found.get(session_key(session)) if session else None,
        user=user,
        account_stamp=account_stamp if user is not None else None,
        game=game,
        game_stamp=found.get(game_key(game)) if game is not None else None,
        found={key: found[key] for key in fetch if key in found},
        usable=True,
    )


def link_fence(selector: str) -> Fence:
    """fence() for a live link: the game it opens is followed from the link's selector when known."""
    keys = [epoch_key(), link_game_key(selector)]
    result = quietly(look, keys, None, link_game_key(selector), game_key(), new_stamp()) if trusted() else None
    if result is None or not still_trusted():
        return Fence()
    found, game_stamp = result
    game = found.get(link_game_key(selector))
    return Fence(epoch=found.get(epoch_key(), 0), game=game, game_stamp=game_stamp, usable=True)


# What a link opens never changes (a new link has a new selector): its pointer lives a day.
LINK_GAME_TTL = 24 * 3600


def _write(fence: Fence, entries: dict) -> None:
    if not fence.usable:
        return
    if fence.session and fence.user is not None:
        entries[session_user_key(fence.session)] = fence.user
    if entries:
        quietly(set_many, entries, lifetime())


def remember_member(fence: Fence, user_pk: int, version: int, extra: dict | None = None) -> None:
    """The database found `fence.session` signed in as `user_pk`, a reader of `fence.game` at
    `version`; `extra` entries (the game's answer) are written in the same call."""
    entries = dict(extra or {})
    if fence.user == user_pk and fence.session:
        entries[member_key(fence.session, fence.game)] = (*fence.signature(), version)
    elif fence.session:
        fence.user = user_pk  # known from now on; trusted from the next full request
    _write(fence, entries)


def remember_sheet(fence: Fence, user_pk: int, version: int, role: str, language: str) -> None:
    """As remember_member, for the followed sheet: what its ETag is made of besides the version."""
    entries = {}
    if fence.user == user_pk and fence.session:
        entries[sheet_key(fence.session, fence.game)] = (*fence.signature(), version, role, language)
    elif fence.session:
        fence.user = user_pk
    _write(fence, entries)


def remember_link(fence: Fence, selector: str, verifier: str, version: int) -> None:
    """The database found the live link `selector` opens `fence.game` at `version`."""
    if not fence.usable:
        return
    entry = (fence.epoch, digest(verifier), fence.game, fence.game_stamp, version)
    _write(fence, {link_key(selector): entry})
    if fence.learned:
        quietly(set_many, {link_game_key(selector): fence.game}, LINK_GAME_TTL)


# What a poll reads: one round trip, nothing made.


def poll_keys(session: str, pk: int, kind: str = "member") -> tuple[list[str], int, str]:
    """What member_entry asks peek for: the keys epoch_key(), session_key(session),
    session_user_key(session) (the pointer, at 2), game_key(pk) and member_key(session, pk) (or
    sheet_key, `kind` "sheet"), then account_key()'s prefix. The same keys as those functions make
    (tests/test_caching_rule.py checks), made here with one hash of the session and one look at the
    secret, where the functions took three and six (a poll's every microsecond counts: a club's
    phones ask every 2 s)."""
    base, who = space(), digest(session)
    keys = [f"{base}:epoch", f"{base}:session:{who}", f"{base}:session-user:{who}", f"{base}:game:{pk}"]
    keys.append(f"{base}:{kind}:{who}:{pk}")
    return keys, 2, f"{base}:account:"


def member_entry(session: str, pk: int, kind: str = "member"):
    """The trusted entry of `session` for game `pk` (a member's, or `kind` "sheet"), or None."""
    if not trusted():
        return None
    result = quietly(peek, *poll_keys(session, pk, kind))
    if result is None or not still_trusted():
        return None
    (epoch, session_stamp, user, game_stamp, entry), account_stamp = result
    now = (epoch or 0, session_stamp, account_stamp, game_stamp)
    if entry is None or None in now[1:] or user is None or tuple(entry[:4]) != now or entry[4] != user:
        return None
    return entry


def link_entry(found: list, game_stamp) -> tuple | None:
    """A live link's entry (`found`: the epoch and the link's entry, read with the game's stamp it
    points to), trusted, or None."""
    epoch, entry = found
    if entry is None or game_stamp is None or entry[0] != (epoch or 0) or entry[3] != game_stamp:
        return None
    return entry if still_trusted() else None  # the poll asked trusted() before its read


# Club nights. A night's kept polls (a member's API poll, its live link's JSON and page body) are
# written under the night's stamp and the stamp of every game of the night (the trash's too: one
# brought back changes the night), read before the database is asked. The fence cannot know the
# games before the database says which they are: it reads them from what the last full request
# found (`night_games_key`), and an entry is remembered only when the database found the same
# games; a game joining or leaving the night moves the night's stamp on (caches.rule), so an entry
# written meanwhile is born stale. A poll takes two round trips: the entry with its stamps, then
# its games' stamps.


def night_key(pk: int | str = "") -> str:
    """A night's stamp; with no `pk`, the prefix of every night's."""
    return f"{space()}:night:{pk}"


def night_games_key(pk: int) -> str:
    """The night's games as the last full request found them (sorted ids): the fence's guess."""
    return f"{space()}:night-games:{pk}"


def night_member_key(session: str, pk: int) -> str:
    return f"{space()}:night-member:{digest(session)}:{pk}"


def night_link_key(selector: str) -> str:
    return f"{space()}:night-live:{selector}"


def night_link_night_key(selector: str) -> str:
    """The number of the night a night's link opens, alone: the cache follows it to the night's stamp."""
    return f"{space()}:night-live-night:{selector}"


@dataclass
class NightFence(Fence):
    """A Fence for a night: its stamp, and its games with their stamps as the fence guessed them."""

    night: int | None = None
    night_stamp: str | None = None
    games: tuple[int, ...] | None = None
    game_stamps: tuple = ()

    def night_signature(self) -> tuple:
        return (self.epoch, self.session_stamp, self.account_stamp, self.user, self.night_stamp, self.games,
                self.game_stamps)  # fmt: skip


def _game_stamps(fence: NightFence) -> None:
    """The stamps of the fence's guessed games (made where missing): the second round trip."""
    if not fence.usable or not fence.games:
        return
    keys = [game_key(pk) for pk in fence.games]
    found = quietly(look, keys, {key: new_stamp() for key in keys})
    if found is None or not still_trusted():
        fence.usable = False
        return
    fence.game_stamps = tuple(found[0].get(key) for key in keys)


def night_fence(*, night: int, session: str | None = None) -> NightFence:
    """fence() for a night: the stamps of `session`, its account, the night and the games it was
    last found with, read (and made where missing) before the database is asked."""
    keys, create = [epoch_key(), night_key(night), night_games_key(night)], {night_key(night): new_stamp()}
    pointer = None
    if session:
        pointer = session_user_key(session)
        keys += [session_key(session), pointer]
        create[session_key(session)] = new_stamp()
    result = (
        quietly(look, keys, create, pointer, account_key(), new_stamp() if session else None) if trusted() else None
    )
    if result is None or not still_trusted():
        return NightFence(session=session, night=night)
    found, account_stamp = result
    user = found.get(pointer) if session else None
    games = found.get(night_games_key(night))
    fence = NightFence(
        epoch=found.get(epoch_key(), 0),
        session=session,
        session_stamp=found.get(session_key(session)) if session else None,
        user=user,
        account_stamp=account_stamp if user is not None else None,
        usable=True,
        night=night,
        night_stamp=found.get(night_key(night)),
        games=None if games is None else tuple(games),
    )
    _game_stamps(fence)
    return fence


def night_link_fence(selector: str) -> NightFence:
    """night_fence() for a night's live link: the night it opens is followed from the link's selector
    when known (else nothing is remembered this time, only what the link opens)."""
    found = quietly(get_many, [night_link_night_key(selector)])
    if found is None:
        return NightFence()
    night = found.get(night_link_night_key(selector))
    if night is None:
        return NightFence(usable=True)
    return night_fence(night=night)


def _night_games_found(fence: NightFence, games: tuple[int, ...]) -> bool:
    """Whether the database found the games the fence guessed; if not, its finding is the next guess."""
    if fence.games == games:
        return True
    quietly(set_many, {night_games_key(fence.night): list(games)}, lifetime())
    return False


def remember_night(fence: NightFence, user_pk: int, games: tuple[int, ...], etag_part: str) -> None:
    """The database found `fence.session` signed in as `user_pk`, a reader of `fence.night`, whose
    games are `games` (sorted ids), and its answer's ETag made of `etag_part`."""
    if not fence.usable or fence.night is None or not _night_games_found(fence, games):
        return
    entries = {}
    if fence.user == user_pk and fence.session:
        entries[night_member_key(fence.session, fence.night)] = (*fence.night_signature(), etag_part)
    elif fence.session:
        fence.user = user_pk
    _write(fence, entries)


def remember_night_link(fence: NightFence, night: int, selector: str, verifier: str, games, etag_part: str) -> None:
    """The database found the night's link `selector` opens `night` with `games`, its ETags made of `etag_part`."""
    if not fence.usable:
        return
    if fence.night is None:  # first seen: what the link opens is learned for the next full request
        quietly(set_many, {night_link_night_key(selector): night}, LINK_GAME_TTL)
        return
    if fence.night != night or not _night_games_found(fence, games):
        return
    entry = (fence.epoch, digest(verifier), night, fence.night_stamp, fence.games, fence.game_stamps, etag_part)
    _write(fence, {night_link_key(selector): entry})


def _games_current(games, stamps) -> bool:
    """Whether the stamps of `games` are still `stamps` (the second round trip of a night's poll)."""
    if not games:
        return True
    now = quietly(get_many, [game_key(pk) for pk in games])
    return (
        now is not None
        and still_trusted()
        and tuple(now.get(game_key(pk)) for pk in games) == tuple(stamps)
        and None not in stamps
    )


def night_member_entry(session: str, pk: int):
    """The trusted entry of `session` for night `pk` (its ETag's part at [-1]), or None."""
    base, who = space(), digest(session)
    keys = [f"{base}:epoch", f"{base}:session:{who}", f"{base}:session-user:{who}", f"{base}:night:{pk}",
            f"{base}:night-member:{who}:{pk}"]  # fmt: skip
    if not trusted():
        return None
    result = quietly(peek, keys, 2, f"{base}:account:")
    if result is None or not still_trusted():
        return None
    (epoch, session_stamp, user, night_stamp, entry), account_stamp = result
    now = (epoch or 0, session_stamp, account_stamp, user, night_stamp)
    if entry is None or None in now[1:] or tuple(entry[:5]) != now:
        return None
    return entry if _games_current(entry[5], entry[6]) else None


def night_link_entry(found: list, night_stamp):
    """A night link's entry (`found`: the epoch and the link's entry, read with the night's stamp it
    points to), trusted (its games' stamps read and compared), or None."""
    epoch, entry = found
    if entry is None or night_stamp is None or entry[0] != (epoch or 0) or entry[3] != night_stamp:
        return None
    return entry if still_trusted() and _games_current(entry[4], entry[5]) else None
