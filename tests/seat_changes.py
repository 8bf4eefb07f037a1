"""A finished game whose table changed: a join, a take-over and a leave (for the reads' tests).

Ann, Ben, Cy and Dee start (double-6, four rounds agreed). After round 1 Eve joins (with the
highest total, Cy's 10); after round 2 Fay takes over Ben's seat (and his 5); after round 3 Cy
leaves (at 19). Round 4 ends the game: Ann 7, Dee 12, Fay 13, Eve 18 ranked; Ben and Cy left.
"""

from scorekeeper import services
from scorekeeper.models import Game, Player
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.rules.seating import Change
from tests.factories import PlayerFactory

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")
RULES = GameRules(tile_set=6, rounds=4)


def play(game: Game, double: int, **pips) -> Game:
    """Record a round: each named player's pips; the one with 0 went out."""
    ids = dict(Player.objects.filter(scorebook=game.scorebook).values_list("name", "pk"))
    entries = [EntryInput(player=ids[name], pips=value, went_out=value == 0) for name, value in pips.items()]
    services.record_round(game=game, starting_double=double, entries=entries)
    return Game.objects.get(pk=game.pk)


def changing_table(user, rules: GameRules = RULES) -> tuple[Game, dict[str, int]]:
    """The game above, finished, and its players' ids by name."""
    ids = {name: PlayerFactory(owner=user, name=name).pk for name in NAMES}
    game = services.create_game(by=user, players=[ids[n] for n in NAMES[:4]], rules=rules, name="Changing")
    game = play(game, 6, Ann=0, Ben=5, Cy=10, Dee=3)
    services.change_seat(game=game, kind=Change.JOIN, player=ids["Eve"], by=user)
    game = play(game, 5, Ann=4, Ben=0, Cy=2, Dee=6, Eve=1)
    services.change_seat(game=game, kind=Change.TAKE_OVER, player=ids["Fay"], replaces=ids["Ben"], by=user)
    game = play(game, 4, Ann=3, Fay=0, Cy=7, Dee=2, Eve=5)
    services.change_seat(game=game, kind=Change.LEAVE, player=ids["Cy"], by=user)
    game = play(game, 3, Ann=0, Fay=8, Dee=1, Eve=2)
    return game, ids
