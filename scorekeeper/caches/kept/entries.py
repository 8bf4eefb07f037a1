"""What a full request remembers under its fence, and what a poll reads back: named entries, never
read by position."""

import time
from typing import NamedTuple

from .fences import LINK_GAME_TTL, Fence
from .keys import (
    STAMPED_BY,
    digest,
    game_key,
    lifetime,
    link_key,
    link_opens_key,
    member_key,
    night_games_key,
    session_user_key,
    space,
)
from .store import add, get_many, peek, quietly, set_many
from .trust import still_trusted, trusted


class MemberEntry(NamedTuple):
    """A session's entry for what it reads (a game, the game's followed sheet, or a night): the stamps
    it was written under, and what the answer's ETag is made of."""

    epoch: int
    session_stamp: str
    account_stamp: str
    user: int
    stamp: str  # the game's, or the night's
    tag: int | str  # the game's version, or the night's fingerprint
    games: tuple = ()  # a night's games, and their stamps when it was written
    game_stamps: tuple = ()
    role: str | None = None  # the followed sheet's ETag is made of these too (a stream: its reader's)
    language: str | None = None
    book: int | None = None  # a stream's: the scorebook whose topic it listens to


class LinkEntry(NamedTuple):
    """A live link's entry: what it opens, under which stamps, and what its ETags are made of."""

    epoch: int
    verifier: str  # the verifier's digest
    kind: str  # what it opens: "game" or "night"
    opens: int  # the game's id, or the night's
    stamp: str  # its stamp
    tag: int | str  # the game's version, or the night's fingerprint
    games: tuple = ()  # a night's games, and their stamps when it was written
    game_stamps: tuple = ()


class KeptPage(NamedTuple):
    """A game's page kept whole (caches.pages), under the stamps of the request that drew it."""

    signature: tuple
    version: int
    html: str


class KeptAnswer(NamedTuple):
    """The API's answer for a game at one version, the same for every member: the bytes sent."""

    version: int | None
    body: bytes | None


class KeptSession(NamedTuple):
    """A session's data kept in Redis (caches.sessions), under the epoch and its stamp when written."""

    stamps: tuple  # (epoch, the session's stamp)
    data: dict


def _write(fence: Fence, entries: dict) -> None:
    if not fence.usable:
        return
    if fence.session and fence.user is not None:
        entries[session_user_key(fence.session)] = fence.user
    if entries:
        quietly(set_many, entries, lifetime())


def _games_found(fence: Fence, games: tuple[int, ...] | None) -> bool:
    """Whether the database found the night's games the fence guessed (a game's fence guesses none);
    if not, its finding is the next guess."""
    if fence.night is None or fence.games == games:
        return True
    quietly(set_many, {night_games_key(fence.night): list(games)}, lifetime())
    return False


def remember_member(
    fence: Fence,
    user_pk: int,
    tag,
    *,
    games: tuple[int, ...] | None = None,
    role: str | None = None,
    language: str | None = None,
    extra: dict | None = None,
    stream: tuple[int | None, str] | None = None,
) -> None:
    """The database found `fence.session` signed in as `user_pk`, a reader of the fence's game (at
    version `tag`) or night (at fingerprint `tag`, its games `games`, sorted ids); the followed sheet
    says its `role` and `language` too. `extra` entries (the game's answer) go in the same call, and
    so does a stream's entry when a stream's start asked (`stream`: the game's scorebook and the
    reader's role there, remember_stream's)."""
    if not fence.usable or not _games_found(fence, games):
        return
    opens, pk, stamp = fence.opens
    kind = "night-member" if opens == "night" else ("sheet" if language is not None else "member")
    entries = dict(extra or {})
    if fence.user == user_pk and fence.session:
        entries[member_key(fence.session, pk, kind)] = MemberEntry(
            fence.epoch, fence.session_stamp, fence.account_stamp, fence.user, stamp, tag,
            fence.games or (), fence.game_stamps, role, language,
        )  # fmt: skip
        if stream is not None and opens == "game":
            entries |= _stream_entry(fence, tag, *stream)
    elif fence.session:
        fence.user = user_pk  # known from now on; trusted from the next full request
    _write(fence, entries)


def remember_stream(fence: Fence, user_pk: int, version: int, book: int | None, role: str) -> None:
    """The database found `fence.session` signed in as `user_pk`, a reader of the fence's game at
    `version` whose scorebook is `book` and who is its `role` there: what a stream's start needs
    beside the game (its topics, its reader), so that a stream's reconnect with the ETag it last had
    is answered from the cache (http.polls.member_stream)."""
    if fence.usable and fence.session and fence.user == user_pk and fence.night is None:
        _write(fence, _stream_entry(fence, version, book, role))


def _stream_entry(fence: Fence, version: int, book: int | None, role: str) -> dict:
    entry = MemberEntry(fence.epoch, fence.session_stamp, fence.account_stamp, fence.user, fence.game_stamp,
                        version, role=role, book=book)  # fmt: skip
    return {member_key(fence.session, fence.game, "stream"): entry}


def remember_link(fence: Fence, kind: str, pk: int, selector: str, verifier: str, tag, games=None) -> None:
    """The database found the live link `selector` opens game or night `pk` (`kind`; a night's games
    `games`), its ETags made of `tag` (the game's version, the night's fingerprint)."""
    if not fence.usable:
        return
    if getattr(fence, kind) is None:  # first seen (once a day per link)
        if kind != "game":  # a night's games' stamps are only ever read before the database:
            quietly(set_many, {link_opens_key(kind, selector): pk}, LINK_GAME_TTL)  # from the next request
            return
        fence.learn_game(pk)  # a game's stamp is read now: the window reads.live.open_link names
    if getattr(fence, kind) != pk or not _games_found(fence, games):
        return
    stamp = fence.opens[2]
    entry = LinkEntry(fence.epoch, digest(verifier), kind, pk, stamp, tag, fence.games or (), fence.game_stamps)
    _write(fence, {link_key(selector): entry})
    if fence.learned:
        quietly(set_many, {link_opens_key(kind, selector): pk}, LINK_GAME_TTL)


# An answer made once when many ask for it at once: a round wakes every phone of its table together
# (their streams, their polls), each would make the same bytes, and each making is most of a read's
# cost (docs/benchmarks.md, issue 39). The first to claim it makes it; the others wait for it.
MAKING_CLAIM = 5  # seconds a claim stands (a claimant that dies leaves it that long at most)
MAKING_WAIT, MAKING_STEP = 0.5, 0.01  # seconds the others wait for it at most, and between looks


def claim_making(key: str, version: int) -> bool:
    """Whether this request is the one to make the answer kept at `key` for `version` (True too
    when the cache cannot say: making it is never wrong, only slower)."""
    return quietly(add, f"{key}:making:{version}", 1, MAKING_CLAIM) is not False


def made_by_another(key: str, version: int) -> KeptAnswer | None:
    """The answer kept at `key` for `version` once its claimant has kept it, or None after
    MAKING_WAIT (the claimant is slow or gone: the caller makes it)."""
    deadline = time.monotonic() + MAKING_WAIT
    while time.monotonic() < deadline:
        time.sleep(MAKING_STEP)
        found = quietly(get_many, [key])
        if found is None:
            return None
        if (answer := found.get(key)) is not None and answer.version == version:
            return answer
    return None


# What a poll reads: one round trip for a game, two for a night (its games' stamps), nothing made.


def poll_keys(session: str, pk: int, kind: str = "member") -> tuple[list[str], int, str]:
    """What member_entry asks peek for: the keys epoch_key(), session_key(session),
    session_user_key(session) (the pointer, at 2), the stamp of game or night `pk` and
    member_key(session, pk, kind), then account_key()'s prefix. The same keys as those functions make
    (tests/test_caching_rule.py checks), made here with one hash of the session and one look at the
    secret, where the functions took three and six (a poll's every microsecond counts: a club's
    phones ask every 2 s)."""
    base, who = space(), digest(session)
    keys = [f"{base}:epoch", f"{base}:session:{who}", f"{base}:session-user:{who}", f"{base}:{STAMPED_BY[kind]}:{pk}"]
    keys.append(f"{base}:{kind}:{who}:{pk}")
    return keys, 2, f"{base}:account:"


def _games_current(games, stamps) -> bool:
    """Whether the stamps of a night's `games` are still `stamps` (the second round trip of its poll)."""
    if not games:
        return True
    now = quietly(get_many, [game_key(pk) for pk in games])
    return (
        now is not None
        and still_trusted()
        and tuple(now.get(game_key(pk)) for pk in games) == tuple(stamps)
        and None not in stamps
    )


def member_entry(session: str, pk: int, kind: str = "member") -> MemberEntry | None:
    """The trusted entry of `session` for game or night `pk` (`kind`: STAMPED_BY), or None."""
    if not trusted():
        return None
    result = quietly(peek, *poll_keys(session, pk, kind))
    if result is None or not still_trusted():
        return None
    (epoch, session_stamp, user, stamp, entry), account_stamp = result
    if (
        entry is None
        or None in (session_stamp, account_stamp, user, stamp)
        or (entry.epoch, entry.session_stamp, entry.account_stamp, entry.user, entry.stamp)
        != (epoch or 0, session_stamp, account_stamp, user, stamp)
    ):
        return None
    return entry if _games_current(entry.games, entry.game_stamps) else None


def link_entry(kind: str, found: list, stamp) -> LinkEntry | None:
    """A live link's entry for a game or a night (`kind`; `found`: the epoch and the link's entry,
    read with the stamp it points to), trusted (a night's games' stamps read and compared), or None."""
    epoch, entry = found
    if entry is None or stamp is None or (entry.kind, entry.epoch, entry.stamp) != (kind, epoch or 0, stamp):
        return None  # the poll asked trusted() before its read
    return entry if still_trusted() and _games_current(entry.games, entry.game_stamps) else None
