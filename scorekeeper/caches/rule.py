"""The one rule of what a write changes: every write that changes what someone may read or what
they see says so once, by calling `announce` with what it touched; this module alone knows which
kept entries that forgets (caches.kept explains how an entry earns trust).

| write (announced as)                                   | what is forgotten                          |
|--------------------------------------------------------|--------------------------------------------|
| a round recorded, corrected, undone, brought back      | the game's stamp, its kept answers, pages  |
| a game created, renamed, trashed, brought back, purged | the game's stamp, its kept answers, pages  |
| a game made casual, or made to count again            | the game's stamp, its kept answers, pages  |
| a player renamed, linked, unlinked, deleted            | the stamps, answers, pages of their games  |
| two players merged into one                            | the stamps, answers, pages of games moved  |
| a player archived or brought back                      | nothing: pickers and boards are read anew  |
| a live link made, replaced, revoked                    | the stamp of the game or night it opens    |
| a member joined, removed, left, given another role     | every game of the scorebook, as above      |
| a scorebook renamed, deleted, its time zone changed    | every game of the scorebook, as above      |
| an import                                              | every game of the scorebook, as above      |
| a ratings replay (its games' rating moves, new versions)| the replayed games' stamps, answers, pages |
| a sign-out                                             | the session's stamp                        |
| a new password, an account switched off or deleted     | the account's stamp (every session of it)  |
| an account deleted                                     | also its scorebooks' games, and every game |
|                                                        | it recorded or started in (left or not)    |
| a new player, scorebook, invite (nothing shown yet)    | nothing                                    |
| a season created, changed, deleted                     | nothing: season tables are read in full    |
| a night renamed or moved to another day, deleted       | the night's stamp (its kept polls with it) |
| a game put in a night or taken out of one              | the game's and both nights' stamps         |
| a night created (nothing shown yet)                    | nothing                                    |

A night's kept polls (a member's, its live link's) are written under the night's stamp *and* the
stamp of each of its games (caches.kept.fence), so a round at any of its tables, a game
renamed, trashed or brought back, forgets them with the game; a write that names the scorebook
forgets its nights' stamps too (who may read a night changed).

A game's stamp is what every entry of the game was written under (a member's poll, a followed
sheet, a live link), so forgetting it forgets them all. It is forgotten at once and again after
the write commits: at once, so a poll holding the old version goes the full way (and reads the old
version until the commit: a slower 304, never a wrong one); after the commit, so an entry a full
request wrote meanwhile, under the old stamp, is never trusted. A write whose transaction rolls
back only cost some polls their shortcut.

After the commit the change is also published to the open streams it touches (caches.push): a
stream only hears that something of its own changed and reads it again through the GET's code.

When the cache cannot be told, the write leaves a durable note (models.CacheNote, committed with
it), and the first process to reach Redis again moves the epoch on past it; a Redis restarted
or restored from a snapshot (a new run_id) is noted the same way (caches.kept.forget, trusted).
A test (tests/test_caching_rule.py) finds every public write of `services/` and proves it
announces, so a new write that does not fails the suite.
"""

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from . import kept, push

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Change:
    """What one write changed: `what` names it (the table above); the rest says whom it touches."""

    what: str
    games: frozenset[int] = frozenset()
    scorebooks: frozenset[int] = frozenset()
    sessions: frozenset[str] = frozenset()
    accounts: frozenset[int] = frozenset()
    nights: frozenset[int] = frozenset()


# Every announcement of this process, newest last, for the test that proves each write announces.
heard: list[Change] = []


def announce(
    what: str,
    *,
    games: Iterable[int] = (),
    scorebooks: Iterable[int] = (),
    sessions: Iterable[str | None] = (),
    accounts: Iterable[int] = (),
    nights: Iterable[int | None] = (),
) -> Change:
    """Say what a write changed: its kept entries are forgotten now and after the commit."""
    change = Change(
        what,
        frozenset(int(pk) for pk in games),
        frozenset(int(pk) for pk in scorebooks),
        frozenset(session for session in sessions if session),
        frozenset(int(pk) for pk in accounts),
        frozenset(int(pk) for pk in nights if pk is not None),
    )
    heard.append(change)
    del heard[:-100]
    keys = forgotten(change)
    kept.forget(keys)
    transaction.on_commit(lambda: kept.forget(forgotten(change) if change.scorebooks else keys))
    transaction.on_commit(lambda: push.publish(change))  # the open streams it touches (caches.push)
    return change


def forgotten(change: Change) -> list[str]:
    """The keys `change` forgets: the table above."""
    games, nights = set(change.games), set(change.nights)
    if change.scorebooks:
        from scorekeeper.models import Game, Night

        games |= set(Game.objects.filter(scorebook_id__in=change.scorebooks).values_list("pk", flat=True))
        nights |= set(Night.objects.filter(scorebook_id__in=change.scorebooks).values_list("pk", flat=True))
    keys = []
    listed = kept.quietly(kept.get_many, [kept.pages_key(pk) for pk in sorted(games)]) or {}
    for pk in sorted(games):
        keys += [kept.game_key(pk), *kept.answers_of(pk), kept.pages_key(pk), *listed.get(kept.pages_key(pk), ())]
    keys += [kept.stamp_key("night", pk) for pk in sorted(nights)]
    keys += [kept.session_key(session) for session in change.sessions]
    keys += [kept.account_key(pk) for pk in change.accounts]
    return keys


def on_sign_out(sender, request, **kwargs) -> None:
    """user_logged_out: the session it ends (a browser's cookie, or an app's token)."""
    sessions = [request.headers.get("X-Session-Token"), getattr(request.session, "session_key", None)]
    announce("signed out", sessions=sessions)


def on_account_change(sender, instance, **kwargs) -> None:
    """post_save / post_delete of a user: a new password, an account switched off or deleted ends
    what the cache knows of every session of theirs (Django then judges each in full). A sign-in's
    stamp of the time (last_login) changes nothing."""
    if kwargs.get("update_fields") == frozenset({"last_login"}):
        return
    announce("account changed", accounts=[instance.pk])
