"""A game carries the day it was played (issue 40, a paper game entered afterwards): for the games
recorded at the table so far, the day they finished in their scorebook's time zone."""

import zoneinfo

from django.conf import settings
from django.db import migrations, models


def zone_of(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def fill_played_on(apps, schema_editor):
    Game = apps.get_model("scorekeeper", "Game")
    finished = Game.objects.filter(finished_at__isnull=False, played_on__isnull=True)
    games, zones = [], {}
    for game in finished.only("pk", "finished_at", "scorebook__time_zone").select_related("scorebook").iterator(
        chunk_size=2000
    ):
        name = game.scorebook.time_zone
        zone = zones.get(name) or zones.setdefault(name, zone_of(name))
        game.played_on = game.finished_at.astimezone(zone).date()
        games.append(game)
        if len(games) == 2000:
            Game.objects.bulk_update(games, ["played_on"])
            games = []
    Game.objects.bulk_update(games, ["played_on"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0030_cache_notes"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="entered_afterwards",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="game",
            name="played_on",
            field=models.DateField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicalgame",
            name="entered_afterwards",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="historicalgame",
            name="played_on",
            field=models.DateField(blank=True, null=True),
        ),
        migrations.RunPython(fill_played_on, migrations.RunPython.noop),
    ]
