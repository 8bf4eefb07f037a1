"""What a full request remembers under its fence, and what a poll reads back: named entries, never
read by position."""

from typing import NamedTuple

from .fences import LINK_GAME_TTL, Fence, NightFence
from .keys import (
    digest,
    game_key,
    lifetime,
    link_game_key,
    link_key,
    member_key,
    night_games_key,
    night_link_key,
    night_link_night_key,
    night_member_key,
    session_user_key,
    sheet_key,
    space,
)
from .store import get_many, peek, quietly, set_many
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
    role: str | None = None  # the followed sheet's ETag is made of these too
    language: str | None = None


class LinkEntry(NamedTuple):
    """A live link's entry: what it opens, under which stamps, and what its ETags are made of."""

    epoch: int
    verifier: str  # the verifier's digest
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


class KeptSession(NamedTuple):
    """A session's data kept in Redis (caches.sessions), under the epoch and its stamp when written."""

    stamps: tuple  # (epoch, the session's stamp)
    data: dict


def _member(fence: Fence, tag, **more) -> MemberEntry:
    return MemberEntry(fence.epoch, fence.session_stamp, fence.account_stamp, fence.user, fence.game_stamp, tag, **more)


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
        entries[member_key(fence.session, fence.game)] = _member(fence, version)
    elif fence.session:
        fence.user = user_pk  # known from now on; trusted from the next full request
    _write(fence, entries)


def remember_sheet(fence: Fence, user_pk: int, version: int, role: str, language: str) -> None:
    """As remember_member, for the followed sheet: what its ETag is made of besides the version."""
    entries = {}
    if fence.user == user_pk and fence.session:
        entries[sheet_key(fence.session, fence.game)] = _member(fence, version, role=role, language=language)
    elif fence.session:
        fence.user = user_pk
    _write(fence, entries)


def remember_link(fence: Fence, selector: str, verifier: str, version: int) -> None:
    """The database found the live link `selector` opens `fence.game` at `version`."""
    if not fence.usable:
        return
    entry = LinkEntry(fence.epoch, digest(verifier), fence.game, fence.game_stamp, version)
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


def member_entry(session: str, pk: int, kind: str = "member") -> MemberEntry | None:
    """The trusted entry of `session` for game `pk` (a member's, or `kind` "sheet"), or None."""
    if not trusted():
        return None
    result = quietly(peek, *poll_keys(session, pk, kind))
    if result is None or not still_trusted():
        return None
    (epoch, session_stamp, user, game_stamp, entry), account_stamp = result
    if not _stamps_match(entry, epoch, session_stamp, account_stamp, user, game_stamp):
        return None
    return entry


def _stamps_match(entry: MemberEntry | None, epoch, session_stamp, account_stamp, user, stamp) -> bool:
    """Whether a member's entry was written under the stamps read now (none of them missing)."""
    return (
        entry is not None
        and None not in (session_stamp, account_stamp, user, stamp)
        and (entry.epoch, entry.session_stamp, entry.account_stamp, entry.user, entry.stamp)
        == (epoch or 0, session_stamp, account_stamp, user, stamp)
    )


def link_entry(found: list, game_stamp) -> LinkEntry | None:
    """A live link's entry (`found`: the epoch and the link's entry, read with the game's stamp it
    points to), trusted, or None."""
    epoch, entry = found
    if entry is None or game_stamp is None or entry.epoch != (epoch or 0) or entry.stamp != game_stamp:
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
        entries[night_member_key(fence.session, fence.night)] = MemberEntry(
            fence.epoch,
            fence.session_stamp,
            fence.account_stamp,
            fence.user,
            fence.night_stamp,
            etag_part,
            fence.games,
            fence.game_stamps,
        )
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
    entry = LinkEntry(
        fence.epoch, digest(verifier), night, fence.night_stamp, etag_part, fence.games, fence.game_stamps
    )
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


def night_member_entry(session: str, pk: int) -> MemberEntry | None:
    """The trusted entry of `session` for night `pk`, or None."""
    base, who = space(), digest(session)
    keys = [f"{base}:epoch", f"{base}:session:{who}", f"{base}:session-user:{who}", f"{base}:night:{pk}",
            f"{base}:night-member:{who}:{pk}"]  # fmt: skip
    if not trusted():
        return None
    result = quietly(peek, keys, 2, f"{base}:account:")
    if result is None or not still_trusted():
        return None
    (epoch, session_stamp, user, night_stamp, entry), account_stamp = result
    if not _stamps_match(entry, epoch, session_stamp, account_stamp, user, night_stamp):
        return None
    return entry if _games_current(entry.games, entry.game_stamps) else None


def night_link_entry(found: list, night_stamp) -> LinkEntry | None:
    """A night link's entry (`found`: the epoch and the link's entry, read with the night's stamp it
    points to), trusted (its games' stamps read and compared), or None."""
    epoch, entry = found
    if entry is None or night_stamp is None or entry.epoch != (epoch or 0) or entry.stamp != night_stamp:
        return None
    return entry if still_trusted() and _games_current(entry.games, entry.game_stamps) else None
