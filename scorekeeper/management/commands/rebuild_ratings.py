"""Replay every scorebook's ratings from its first finished game (after restoring a backup, say)."""

from django.core.management.base import BaseCommand
from django.db import transaction

from scorekeeper.models import Scorebook
from scorekeeper.services import ratings


class Command(BaseCommand):
    help = "Recompute the OpenSkill ratings of every scorebook (or one) from its finished games."

    def add_arguments(self, parser):
        parser.add_argument("--scorebook", type=int, help="only this scorebook's id")

    def handle(self, *args, scorebook=None, **options):
        books = Scorebook.objects.all() if scorebook is None else Scorebook.objects.filter(pk=scorebook)
        count = 0
        for book in books.iterator():
            with transaction.atomic():
                ratings.rebuild(book.pk)
            count += 1
        self.stdout.write(f"Replayed the ratings of {count} scorebook{'s' if count != 1 else ''}.")
