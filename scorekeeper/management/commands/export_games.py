"""Export any number of games (JSON or CSV) to a file: what one download over the web refuses
beyond settings.EXPORT_MAX_GAMES. The file is what the web export writes, so import_games reads it."""

import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from scorekeeper import transfer
from scorekeeper.models import Game, Scorebook


class Command(BaseCommand):
    help = "Export a user's games (every scorebook they are in) or one scorebook's, as JSON or CSV."

    def add_arguments(self, parser):
        parser.add_argument("file", help="where to write the export")
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--scorebook", type=int, help="the scorebook's id")
        source.add_argument("--email", help="every game that user can see")
        parser.add_argument("--format", choices=["json", "csv"], default="json")

    def handle(self, *args, file, scorebook, email, format, **options):
        if email:
            user = get_user_model().objects.filter(email__iexact=email).first()
            if user is None:
                raise CommandError(f"No user with the email {email}.")
            games = Game.objects.for_user(user)
        else:
            book = Scorebook.objects.filter(pk=scorebook).first()
            if book is None:
                raise CommandError(f"No scorebook with id {scorebook}.")
            games = Game.objects.alive().filter(scorebook=book)
        games = transfer.games_with_everything(games.order_by("created_at", "id"))
        with open(file, "w", encoding="utf-8", newline="") as out:
            if format == "csv":
                out.write(transfer.as_csv(games))
            else:
                json.dump(transfer.as_json(games), out, ensure_ascii=False, indent=1)
        self.stdout.write(f"Wrote {len(games)} games to {file}.")
