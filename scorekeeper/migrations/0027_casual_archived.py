# Friendly games and archived players (issue 34).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeeper', '0026_nights'),  # chained after the nights' (main): 0025, 0028, 0026, 0027
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='casual',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='historicalgame',
            name='casual',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='historicalplayer',
            name='archived',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='player',
            name='archived',
            field=models.BooleanField(default=False),
        ),
    ]
