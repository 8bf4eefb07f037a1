import factory
from django.contrib.auth import get_user_model

from scorekeeper import services
from scorekeeper.models import Player, Scorebook
from scorekeeper.rules.game import GameRules


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["email"]
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"keeper{n}@example.com")
    password = factory.django.Password("table-talk-42")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player
        django_get_or_create = ["scorebook", "name"]

    class Params:
        owner = factory.SubFactory(UserFactory)  # the player goes into their personal scorebook

    scorebook = factory.LazyAttribute(lambda o: Scorebook.personal_for(o.owner))
    name = factory.Sequence(lambda n: f"Player {n}")


def make_game(owner=None, names=("Ann", "Ben", "Cy"), **rules):
    """A game through the real service, with players named `names` in seat order."""
    owner = owner or UserFactory()
    players = [PlayerFactory(owner=owner, name=name) for name in names]
    return services.create_game(by=owner, players=[p.pk for p in players], rules=GameRules(**rules), name="Test")
