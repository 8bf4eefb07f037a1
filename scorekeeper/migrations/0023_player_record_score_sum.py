"""PlayerRecord.score_sum: the sum of a player's round scores, which the average round score divides.

Before seats could change during a game every total was the sum of its round scores (nobody started
with an opening total), so the records saved until now hold it already, as total_sum."""

from django.db import migrations, models
from django.db.models import F


def from_totals(apps, schema_editor):
    apps.get_model("scorekeeper", "PlayerRecord").objects.update(score_sum=F("total_sum"))


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0022_game_stopped_after"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerrecord",
            name="score_sum",
            field=models.BigIntegerField(default=0),
        ),
        migrations.RunPython(from_totals, migrations.RunPython.noop),
    ]
