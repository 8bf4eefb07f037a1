"""Daily: remove the games that have been in a scorebook's trash for more than 30 days."""

from django.core.management.base import BaseCommand

from scorekeeper import services
from scorekeeper.models import TRASH_DAYS


class Command(BaseCommand):
    help = f"Remove games deleted more than {TRASH_DAYS} days ago (run daily)."

    def handle(self, *args, **options):
        removed = services.purge_trash()
        self.stdout.write(f"Removed {removed} game{'s' if removed != 1 else ''} from the trash.")
