# Friendly games and archived players (issue 34).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeeper', '0027_nights'),
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
