"""Seasons (issue 34): a scorebook's time zone, the Season table and its tallies, and each seat's
place points, worked out here for the seats saved until now (rules.places, as services.state
writes them). No season exists yet, so there is no tally to fill."""

from django.conf import settings
from django.db import migrations, models
from scorekeeper.rules.places import place_points
import django.db.models.deletion
import scorekeeper.models.common
import scorekeeper.models.scorebooks


def fill_place_points(apps, schema_editor):
    """Every finished game's seats' place points from their ranks, a batch of games at a time."""
    Seat = apps.get_model("scorekeeper", "Seat")
    finished = Seat.objects.filter(game__status="finished").order_by()
    game_ids = list(finished.values_list("game_id", flat=True).distinct())
    for start in range(0, len(game_ids), 500):
        seats = list(Seat.objects.filter(game_id__in=game_ids[start : start + 500]).order_by("game_id", "position"))
        by_game = {}
        for seat in seats:
            by_game.setdefault(seat.game_id, []).append(seat)
        for table in by_game.values():
            for seat, earned in zip(table, place_points([s.rank for s in table]), strict=True):
                seat.place_points = earned
        Seat.objects.bulk_update(seats, ["place_points"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0024_game_number"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Season",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=80)),
                ("starts", models.DateField()),
                ("ends", models.DateField()),
                ("min_games", models.PositiveSmallIntegerField(default=0)),
                ("drop_worst", models.PositiveSmallIntegerField(default=0)),
                ("starts_at", models.DateTimeField(editable=False)),
                ("ends_before", models.DateTimeField(editable=False)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "ordering": ["-starts", "-id"],
            },
            bases=(scorekeeper.models.common.ReaderRole, models.Model),
        ),
        migrations.CreateModel(
            name="SeasonTally",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("place_points", models.PositiveSmallIntegerField()),
                ("games", models.IntegerField(default=0)),
                ("wins", models.IntegerField(default=0)),
                ("total_sum", models.BigIntegerField(default=0)),
                ("place_sum", models.IntegerField(default=0)),
            ],
        ),
        migrations.AddField(
            model_name="scorebook",
            name="time_zone",
            field=models.CharField(default=scorekeeper.models.scorebooks.default_time_zone, max_length=64),
        ),
        migrations.AddField(
            model_name="seat",
            name="place_points",
            field=models.PositiveSmallIntegerField(
                blank=True, help_text="Empty for a player who left, and while the game goes on.", null=True
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["scorebook", "finished_at"], name="game_scorebook_finished"),
        ),
        migrations.AddField(
            model_name="season",
            name="scorebook",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="seasons", to="scorekeeper.scorebook"
            ),
        ),
        migrations.AddField(
            model_name="seasontally",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="scorekeeper.player"
            ),
        ),
        migrations.AddField(
            model_name="seasontally",
            name="season",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="tallies", to="scorekeeper.season"
            ),
        ),
        migrations.AddIndex(
            model_name="season",
            index=models.Index(fields=["scorebook", "starts"], name="season_scorebook_starts"),
        ),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.CheckConstraint(
                condition=models.Q(("name", ""), _negated=True), name="season_name_not_empty"
            ),
        ),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.CheckConstraint(
                condition=models.Q(("ends__gte", models.F("starts"))), name="season_ends_after_starts"
            ),
        ),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.CheckConstraint(
                condition=models.Q(("min_games__gte", 0)), name="season_min_games_not_negative"
            ),
        ),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.CheckConstraint(
                condition=models.Q(("drop_worst__gte", 0)), name="season_drop_worst_not_negative"
            ),
        ),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.CheckConstraint(
                condition=models.Q(("ends_before__gt", models.F("starts_at"))), name="season_bounds_in_order"
            ),
        ),
        migrations.AddConstraint(
            model_name="seasontally",
            constraint=models.UniqueConstraint(fields=("season", "player", "place_points"), name="season_tally_unique"),
        ),
        migrations.RunPython(fill_place_points, migrations.RunPython.noop),
    ]
