"""A night's game keeps its table number (Game.table, issue 39): the phones called a night's game
without a name "Game 9 · Fri 27 Nov" while the night's TV called it "Table 4", counting the night's
games out of the trash in the order they were made. The games of each night are numbered as the TV
numbered them, so no table changes its name; its trashed games after them, in the same order (a
game brought back keeps a number of its own). Their history's versions in that night too."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def number_the_tables(apps, schema_editor):
    Game = apps.get_model("scorekeeper", "Game")
    HistoricalGame = apps.get_model("scorekeeper", "HistoricalGame")
    rows = Game.objects.filter(night__isnull=False).only("pk", "night_id", "deleted_at")
    games, night, number = [], None, 0
    for game in sorted(rows.iterator(chunk_size=2000), key=lambda g: (g.night_id, g.deleted_at is not None, g.pk)):
        if game.night_id != night:
            night, number = game.night_id, 0
        number += 1
        game.table = number
        games.append(game)
    Game.objects.bulk_update(games, ["table"], batch_size=500)
    HistoricalGame.objects.filter(night__isnull=False).update(
        table=Subquery(Game.objects.filter(pk=OuterRef("id"), night=OuterRef("night")).values("table")[:1])
    )


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0031_game_played_on"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="table",
            field=models.PositiveSmallIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="historicalgame",
            name="table",
            field=models.PositiveSmallIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(number_the_tables, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(fields=("night", "table"), name="game_table_unique_per_night"),
        ),
    ]
