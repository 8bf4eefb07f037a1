"""A hand-worked club night for the night tests: tables of 4, 5 and 6 players, a tie at a table
and a player who left, finished; the place points and standings worked out by hand below."""

from datetime import date
from types import SimpleNamespace

from scorekeeper.models import Player, Role
from scorekeeper.services import nights
from tests.seasons import finished_game


def hand_worked_night(book, by):
    """Eight players over three finished tables (the first of each goes out, the others hold pips):
    1. Ann, Ben, Cy, Dot (3, 4, 9): 10, 6.7, 3.3, 0.
    2. Eve, Fay, Gus, Hal, Ben (5, 5, 8, 2): Eve 10, Ben 7.5, Fay and Gus level 3.8 (1.5 of 4), Hal 0.
    3. Cy, Dot, Eve, Fay, Gus, Hal (1, 2, 3, 4, 6), Hal leaves after the round: of the five ranked
       Cy 10, Dot 7.5, Eve 5, Fay 2.5, Gus 0; Hal earns nothing and plays no game here."""
    named = {player.name: player for player in Player.objects.filter(scorebook=book)}
    for name in ("Ann", "Ben", "Cy", "Dot", "Eve", "Fay", "Gus", "Hal"):
        if name not in named:
            named[name] = Player.objects.create(scorebook=book, name=name)
    p = SimpleNamespace(**{name.lower(): player for name, player in named.items()})
    night = nights.create_night(book=book, role=Role.OWNER, name="Friday club", date=date(2026, 11, 27))
    tables = [
        finished_game(book, by, [p.ann, p.ben, p.cy, p.dot], (3, 4, 9)),
        finished_game(book, by, [p.eve, p.fay, p.gus, p.hal, p.ben], (5, 5, 8, 2)),
        finished_game(book, by, [p.cy, p.dot, p.eve, p.fay, p.gus, p.hal], (1, 2, 3, 4, 6), leaves=p.hal),
    ]
    for game in tables:
        nights.set_night(game=game, night=night.pk)
    return SimpleNamespace(night=night, tables=tables, players=p)


# name -> (games, points, total, rank), worked out by hand from the tables above.
STANDINGS = [
    ("Eve", 2, 15.0, 2, 1),  # 10 + 5, totals 0 + 2
    ("Ben", 2, 14.2, 5, 2),  # 6.7 + 7.5, totals 3 + 2
    ("Cy", 2, 13.3, 4, 3),  # 3.3 + 10, totals 4 + 0
    ("Ann", 1, 10.0, 0, 4),
    ("Dot", 2, 7.5, 10, 5),  # 0 + 7.5, totals 9 + 1
    ("Fay", 2, 6.3, 8, 6),  # 3.8 + 2.5, totals 5 + 3
    ("Gus", 2, 3.8, 9, 7),  # 3.8 + 0, totals 5 + 4
    ("Hal", 1, 0.0, 8, 8),  # 0 at table 2; left table 3: nothing there
]
