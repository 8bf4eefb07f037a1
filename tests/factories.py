import factory
from django.contrib.auth import get_user_model

from scorekeeper import services
from scorekeeper.models import Player
from scorekeeper.rules.game import GameRules


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"keeper{n}@example.com")
    password = factory.django.Password("table-talk-42")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


def make_game(owner=None, names=("Ann", "Ben", "Cy"), **rules):
    """A game through the real service, with players named `names` in seat order."""
    owner = owner or UserFactory()
    players = [PlayerFactory(owner=owner, name=name) for name in names]
    return services.create_game(owner=owner, players=[p.pk for p in players], rules=GameRules(**rules), name="Test")
