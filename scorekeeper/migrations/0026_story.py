"""Ratings that tell a story (issue 34): each rating step keeps the rating going into its game (the
game's rating move), and each seat its worst deficit behind the leader and the round of it (a win's
comeback), both worked out here for what was saved until now, as services.ratings and
services.state write them from now on."""

from django.db import migrations, models
from django.db.models import F, Window
from django.db.models.functions import Lag

from scorekeeper.rules import snapshot
from scorekeeper.rules.rating import START
from scorekeeper.rules.story import deficits

BATCH = 500


def fill_ratings_before(apps, schema_editor):
    """A step's rating going in is its player's step before it (a player's steps follow their
    scorebook's finished games), or the starting rating for their first."""
    RatingStep = apps.get_model("scorekeeper", "RatingStep")
    order = [F("finished_at").asc(), F("game_id").asc()]
    steps = RatingStep.objects.annotate(
        previous_mu=Window(Lag("mu"), partition_by=[F("player_id")], order_by=order),
        previous_sigma=Window(Lag("sigma"), partition_by=[F("player_id")], order_by=order),
    ).order_by("pk")
    changed = []
    for step in steps.iterator(chunk_size=2000):
        first = step.previous_mu is None
        step.mu_before = START.mu if first else step.previous_mu
        step.sigma_before = START.sigma if first else step.previous_sigma
        changed.append(step)
        if len(changed) >= BATCH:
            RatingStep.objects.bulk_update(changed, ["mu_before", "sigma_before"], batch_size=BATCH)
            changed = []
    RatingStep.objects.bulk_update(changed, ["mu_before", "sigma_before"], batch_size=BATCH)


def fill_deficits(apps, schema_editor):
    """Every saved game's seats' worst deficits, from its saved state (its rounds' running totals)."""
    Game = apps.get_model("scorekeeper", "Game")
    Seat = apps.get_model("scorekeeper", "Seat")
    ids = list(Game.objects.filter(state__isnull=False).order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), BATCH):
        games = Game.objects.filter(pk__in=ids[start : start + BATCH]).only("pk", "state")
        seats = {}
        for seat in Seat.objects.filter(game_id__in=ids[start : start + BATCH]).order_by():
            seats[(seat.game_id, seat.player_id)] = seat
        changed = []
        for game in games:
            names = {row["player"]: "" for row in game.state["seats"]}
            state = snapshot.load(game.state, names)
            for derived, worst in zip(state.seats, deficits(state), strict=True):
                seat = seats.get((game.pk, derived.player))
                if seat is not None and worst.behind:
                    seat.deficit, seat.deficit_after = worst.behind, worst.after
                    changed.append(seat)
        Seat.objects.bulk_update(changed, ["deficit", "deficit_after"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0025_seasons"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratingstep",
            name="mu_before",
            field=models.FloatField(null=True),
        ),
        migrations.AddField(
            model_name="ratingstep",
            name="sigma_before",
            field=models.FloatField(null=True),
        ),
        migrations.RunPython(fill_ratings_before, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="ratingstep",
            name="mu_before",
            field=models.FloatField(),
        ),
        migrations.AlterField(
            model_name="ratingstep",
            name="sigma_before",
            field=models.FloatField(),
        ),
        migrations.AddField(
            model_name="seat",
            name="deficit",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seat",
            name="deficit_after",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(fill_deficits, migrations.RunPython.noop, elidable=True),
    ]
