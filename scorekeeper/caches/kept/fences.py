"""The stamps a full request reads before it asks the database (a `Fence`): what its entries
are written under."""

from dataclasses import dataclass, field

from .keys import (
    account_key,
    epoch_key,
    game_key,
    link_game_key,
    new_stamp,
    night_games_key,
    night_key,
    night_link_night_key,
    session_key,
    session_user_key,
)
from .store import get_many, look, quietly
from .trust import still_trusted, trusted

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


@dataclass
class NightFence(Fence):
    """A Fence for a night: its stamp, and its games with their stamps as the fence guessed them."""

    night: int | None = None
    night_stamp: str | None = None
    games: tuple[int, ...] | None = None
    game_stamps: tuple = ()


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
