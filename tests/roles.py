"""A scorebook shared by four accounts, and one stranger: the cast of the role matrices."""

from datetime import date
from types import SimpleNamespace

from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Invite, Membership, Player, Role
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import live as links
from scorekeeper.services import nights, scorebooks
from tests.factories import UserFactory
from tests.seasons import make_season

ROLES = ("owner", "scorer", "viewer", "stranger", "anonymous")


def expect(owner, scorer, viewer, stranger, anonymous=None):
    """Expected status per role; anonymous defaults to what the route family answers."""
    return {"owner": owner, "scorer": scorer, "viewer": viewer, "stranger": stranger, "anonymous": anonymous}


def round_entries(players, pips):
    ann, *others = players
    return [EntryInput(player=ann.pk, pips=0, went_out=True)] + [
        EntryInput(player=p.pk, pips=n) for p, n in zip(others, pips, strict=True)
    ]


def make_club():
    owner, scorer, viewer, extra, stranger = (UserFactory() for _ in range(5))
    book = scorebooks.create(by=owner, name="Club")
    for user, role in ((scorer, Role.SCORER), (viewer, Role.VIEWER), (extra, Role.VIEWER)):
        Membership.objects.create(scorebook=book, user=user, role=role, last_used_at=timezone.now())
    players = [Player.objects.create(scorebook=book, name=name) for name in ("Ann", "Ben", "Cy", "Dot")]
    game = services.create_game(
        by=owner, scorebook=book, players=[p.pk for p in players[:3]], rules=GameRules(tile_set=6)
    )
    services.record_round(game=game, starting_double=6, entries=round_entries(players[:3], (3, 4)), by=owner)
    invite = Invite.objects.create(scorebook=book, role=Role.VIEWER, created_by=owner)
    link = links.share(game=game, by=owner)
    season = make_season(book=book, name="Spring", starts=date(2025, 3, 1), ends=date(2025, 5, 31))
    night = nights.create_night(book=book, role=Role.OWNER, name="Club night", date=date(2025, 11, 21))
    night_link = nights.share(night=night, by=owner)
    users = {"owner": owner, "scorer": scorer, "viewer": viewer, "stranger": stranger}
    return SimpleNamespace(
        book=book,
        users=users,
        extra=extra,
        players=players,
        spare=players[3],
        game=game,
        invite=invite,
        live=link,
        season=season,
        night=night,
        night_live=night_link,
    )
