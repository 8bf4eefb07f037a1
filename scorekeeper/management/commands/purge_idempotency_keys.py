from django.core.management.base import BaseCommand

from scorekeeper.api.idempotency import purge_expired


class Command(BaseCommand):
    help = "Delete Idempotency-Keys older than a day (run it daily, e.g. from cron)."

    def handle(self, *args, **options):
        self.stdout.write(f"deleted {purge_expired()} expired idempotency keys")
