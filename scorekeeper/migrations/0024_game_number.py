"""Games started on the pages without a name were given one in the language of whoever started
them ("Game 1 · Thu 26 Nov", "Partida 1 · jue 26 nov"), so a Spanish page showed it in English.
They keep their number instead, and are called by it in the reader's language (Game.title)."""

import re

from django.db import migrations, models

# What services.default_game_name wrote, in English or Spanish: "<word> <number> · <day>".
NUMBERED = re.compile(r"^(?:Game|Partida) (\d{1,9}) · \S+ \d{1,2} \S+$")


def number_untitled_games(apps, schema_editor):
    Game = apps.get_model("scorekeeper", "Game")
    games = []
    for game in Game.objects.filter(number__isnull=True).exclude(name="").only("pk", "name").iterator():
        if match := NUMBERED.match(game.name):
            game.number, game.name = int(match[1]), ""
            games.append(game)
    Game.objects.bulk_update(games, ["number", "name"], batch_size=500)


def name_them_again(apps, schema_editor):
    """Backwards: the name a numbered game was called by, in English (as default_game_name wrote it)."""
    Game = apps.get_model("scorekeeper", "Game")
    games = []
    for game in Game.objects.filter(number__isnull=False, name="").only("pk", "number", "created_at").iterator():
        game.name = f"Game {game.number} · {game.created_at:%a} {game.created_at.day} {game.created_at:%b}"
        games.append(game)
    Game.objects.bulk_update(games, ["name"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0023_player_record_score_sum"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="number",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="historicalgame",
            name="number",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(number_untitled_games, name_them_again),
    ]
