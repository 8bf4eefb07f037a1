"""Player names compare by one key (NFKC + case folding) on every database.

Names that were distinct under the old ASCII-only comparison but are the same name now get
" (2)", " (3)" ... so the new constraint holds; nothing else changes."""

import unicodedata

from django.db import migrations, models


def key(name):
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


def fill_keys(apps, schema_editor):
    Player = apps.get_model("scorekeeper", "Player")
    taken = set()
    for player in Player.objects.order_by("owner_id", "pk").iterator():
        name, copy = player.name, 1
        while (player.owner_id, key(name)) in taken:
            copy += 1
            suffix = f" ({copy})"
            name = player.name[: 40 - len(suffix)] + suffix
        taken.add((player.owner_id, key(name)))
        Player.objects.filter(pk=player.pk).update(name=name, name_key=key(name))


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=160),
            preserve_default=False,
        ),
        migrations.RemoveConstraint(model_name="player", name="player_name_unique_per_owner"),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("owner", "name_key"),
                name="player_name_unique_per_owner",
                violation_error_message="You already have a player with this name.",
            ),
        ),
        migrations.AlterModelOptions(name="player", options={"ordering": ["name_key"]}),
    ]
