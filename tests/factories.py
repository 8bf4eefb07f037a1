from scorekeeper import services
from scorekeeper.demo import PlayerFactory, UserFactory
from scorekeeper.rules.game import GameRules

__all__ = ["PlayerFactory", "UserFactory", "make_game"]


def make_game(owner=None, names=("Ann", "Ben", "Cy"), **rules):
    """A game through the real service, with players named `names` in seat order."""
    owner = owner or UserFactory()
    players = [PlayerFactory(owner=owner, name=name) for name in names]
    return services.create_game(by=owner, players=[p.pk for p in players], rules=GameRules(**rules), name="Test")
