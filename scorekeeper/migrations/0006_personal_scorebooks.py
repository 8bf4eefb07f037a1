"""Every user who kept score gets a personal scorebook; their players and games move into it,
and each existing round is credited to the game's owner (the only one who could record it)."""

from django.db import migrations
from django.utils import timezone


def into_personal_scorebooks(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Scorebook = apps.get_model("scorekeeper", "Scorebook")
    Membership = apps.get_model("scorekeeper", "Membership")
    Player = apps.get_model("scorekeeper", "Player")
    Game = apps.get_model("scorekeeper", "Game")
    Round = apps.get_model("scorekeeper", "Round")
    for user in User.objects.iterator():
        book = Scorebook.objects.filter(personal_of=user).first()
        if book is None:
            book = Scorebook.objects.create(name="Personal", personal_of=user)
            Membership.objects.create(scorebook=book, user=user, role="owner", last_used_at=timezone.now())
        Player.objects.filter(owner=user).update(scorebook=book)
        Game.objects.filter(owner=user).update(scorebook=book)
        Round.objects.filter(game__owner=user, recorded_by__isnull=True).update(recorded_by=user)


def back_to_owners(apps, schema_editor):
    Player = apps.get_model("scorekeeper", "Player")
    Game = apps.get_model("scorekeeper", "Game")
    Player.objects.update(scorebook=None)
    Game.objects.update(scorebook=None)


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0005_scorebooks")]

    operations = [migrations.RunPython(into_personal_scorebooks, back_to_owners)]
