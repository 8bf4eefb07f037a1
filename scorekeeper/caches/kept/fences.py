"""The stamps a full request reads before it asks the database (a `Fence`): what its entries are
written under. A game's fence holds the game's stamp; a night's holds the night's stamp and the
stamps of its games as the last full request found them (`night_games_key`: the fence cannot know
the games before the database says which they are, so an entry is remembered only when the database
found the same ones; a game joining or leaving moves the night's stamp on, caches.rule)."""

from dataclasses import dataclass, field

from .keys import (
    account_key,
    epoch_key,
    game_key,
    link_opens_key,
    new_stamp,
    night_games_key,
    session_key,
    session_user_key,
    stamp_key,
)
from .store import get_many, look, quietly
from .trust import still_trusted, trusted

# What a link opens never changes (a new link has a new selector): its pointer lives a day.
LINK_GAME_TTL = 24 * 3600


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
    learned: bool = False  # the game a link opens was learned after the database was asked (learn_game)
    night: int | None = None
    night_stamp: str | None = None
    games: tuple[int, ...] | None = None  # a night's games as the fence guessed them, and their stamps
    game_stamps: tuple = ()

    @property
    def opens(self) -> tuple[str, int | None, str | None]:
        """What the fence guards: ("game", its id, its stamp) or ("night", ...)."""
        if self.night is not None:
            return "night", self.night, self.night_stamp
        return "game", self.game, self.game_stamp

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
        stamp now (the window this leaves is open_link's, reads.live)."""
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


def fence(*, session: str | None = None, game: int | None = None, night: int | None = None, fetch=()) -> Fence:
    """Read (and make where missing) the stamps of `session`, its account and `game` (or `night`,
    and the games it was last found with: a second round trip), and the values of `fetch`, in one
    round trip, before the database is asked."""
    keys, create = [epoch_key(), *fetch], {}
    for kind, pk in (("game", game), ("night", night)):
        if pk is not None:
            keys.append(stamp_key(kind, pk))
            create[stamp_key(kind, pk)] = new_stamp()
    if night is not None:
        keys.append(night_games_key(night))
    pointer = None
    if session:
        pointer = session_user_key(session)
        keys += [session_key(session), pointer]
        create[session_key(session)] = new_stamp()
    result = (
        quietly(look, keys, create, pointer, account_key(), new_stamp() if session else None) if trusted() else None
    )
    if result is None or not still_trusted():
        return Fence(session=session, game=game, night=night)
    found, account_stamp = result
    user = found.get(pointer) if session else None
    made = Fence(
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
    if night is not None:
        guessed = found.get(night_games_key(night))
        made.night, made.night_stamp = night, found.get(stamp_key("night", night))
        made.games = None if guessed is None else tuple(guessed)
        _game_stamps(made)
    return made


def _game_stamps(fence: Fence) -> None:
    """The stamps of a night's guessed games (made where missing): the second round trip."""
    if not fence.usable or not fence.games:
        return
    keys = [game_key(pk) for pk in fence.games]
    found = quietly(look, keys, {key: new_stamp() for key in keys})
    if found is None or not still_trusted():
        fence.usable = False
        return
    fence.game_stamps = tuple(found[0].get(key) for key in keys)


def link_fence(kind: str, selector: str) -> Fence:
    """fence() for a live link to a game or a night (`kind`): what it opens is followed from the
    link's selector when known (else entries.remember_link learns it)."""
    keys = [epoch_key(), link_opens_key(kind, selector)]
    result = (
        quietly(look, keys, None, link_opens_key(kind, selector), stamp_key(kind), new_stamp()) if trusted() else None
    )
    if result is None or not still_trusted():
        return Fence()
    found, stamp = result
    pk, epoch = found.get(link_opens_key(kind, selector)), found.get(epoch_key(), 0)
    if kind == "game" or pk is None:
        return Fence(epoch=epoch, game=pk, game_stamp=stamp, usable=True)
    made = Fence(epoch=epoch, night=pk, night_stamp=stamp, usable=True)
    guessed = quietly(get_many, [night_games_key(pk)])
    if guessed is None:
        made.usable = False
        return made
    if (games := guessed.get(night_games_key(pk))) is not None:
        made.games = tuple(games)
        _game_stamps(made)
    return made
