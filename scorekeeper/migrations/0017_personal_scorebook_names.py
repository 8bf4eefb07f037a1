"""Personal scorebooks still called "Personal" take their owner's name ("Ana's scorebook"), in the
owner's language if they chose one: whoever is invited into another's scorebook no longer sees
two called "Personal". A name an owner chose is kept."""

from django.conf import settings
from django.db import migrations

from scorekeeper.models.scorebooks import personal_name

OLD_NAME = "Personal"
BATCH = 500


def after_owner(book) -> str:
    owner = book.personal_of  # its name as User.short_name says it, in the owner's language
    return personal_name(owner.first_name or owner.email.split("@")[0], owner.language or settings.LANGUAGE_CODE)


def name_after_owners(apps, schema_editor):
    Scorebook = apps.get_model("scorekeeper", "Scorebook")
    books = Scorebook.objects.filter(name=OLD_NAME, personal_of__isnull=False).select_related("personal_of")
    renamed = []
    for book in books.order_by("pk").iterator(chunk_size=BATCH):
        book.name = after_owner(book)
        renamed.append(book)
    Scorebook.objects.bulk_update(renamed, ["name"], batch_size=BATCH)


def back_to_personal(apps, schema_editor):
    Scorebook = apps.get_model("scorekeeper", "Scorebook")
    books = Scorebook.objects.filter(personal_of__isnull=False).select_related("personal_of")
    renamed = []
    for book in books.order_by("pk").iterator(chunk_size=BATCH):
        if book.name == after_owner(book):
            book.name = OLD_NAME
            renamed.append(book)
    Scorebook.objects.bulk_update(renamed, ["name"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_user_language"),
        ("scorekeeper", "0016_idempotency_etag"),
    ]

    operations = [migrations.RunPython(name_after_owners, back_to_personal)]
