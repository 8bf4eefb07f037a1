from django.db import migrations, models


def fill(apps, schema_editor):
    """Best and worst totals of the games finished before this migration (one UPDATE)."""
    from django.db.models import OuterRef, Subquery

    PlayerRecord, Seat = apps.get_model("scorekeeper", "PlayerRecord"), apps.get_model("scorekeeper", "Seat")
    seats = Seat.objects.filter(
        player=OuterRef("player"),
        game__tile_set=OuterRef("tile_set"),
        game__status="finished",
        game__deleted_at__isnull=True,
    ).values("total")
    PlayerRecord.objects.update(
        best_total=Subquery(seats.order_by("total")[:1]), worst_total=Subquery(seats.order_by("-total")[:1])
    )


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0012_records_and_ratings"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerrecord",
            name="best_total",
            field=models.IntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="playerrecord",
            name="worst_total",
            field=models.IntegerField(blank=True, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
