"""Games get a uid that travels with them in exports; existing games each get their own."""

import uuid

from django.db import migrations, models


def give_each_game_its_own(apps, schema_editor):
    Game = apps.get_model("scorekeeper", "Game")
    for game in Game.objects.only("pk").iterator():
        Game.objects.filter(pk=game.pk).update(uid=uuid.uuid4())


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0008_live_link")]

    operations = [
        migrations.AddField(model_name="game", name="uid", field=models.UUIDField(null=True, editable=False)),
        migrations.RunPython(give_each_game_its_own, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game", name="uid", field=models.UUIDField(default=uuid.uuid4, editable=False)
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(fields=("scorebook", "uid"), name="game_uid_unique_per_scorebook"),
        ),
    ]
