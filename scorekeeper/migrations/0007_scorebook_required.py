"""Players and games belong to a scorebook from now on; a game remembers who created it."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0006_personal_scorebooks"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="scorebook",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="players", to="scorekeeper.scorebook"
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="scorebook",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="games", to="scorekeeper.scorebook"
            ),
        ),
        migrations.RemoveConstraint(model_name="player", name="player_name_unique_per_owner"),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("scorebook", "name_key"),
                name="player_name_unique_per_scorebook",
                violation_error_message="This scorebook already has a player with this name.",
            ),
        ),
        migrations.RemoveField(model_name="player", name="owner"),
        migrations.RemoveIndex(model_name="game", name="scorekeeper_owner_i_2cba75_idx"),
        migrations.RenameField(model_name="game", old_name="owner", new_name="created_by"),
        migrations.AlterField(
            model_name="game",
            name="created_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="games_created",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["scorebook", "status", "-created_at"], name="scorekeeper_scorebo_e022f6_idx"),
        ),
    ]
