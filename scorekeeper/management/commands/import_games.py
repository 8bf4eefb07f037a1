"""Import an export file (JSON) into a scorebook, all or nothing, with a progress bar."""

import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from scorekeeper import transfer
from scorekeeper.models import Scorebook


class Command(BaseCommand):
    help = "Import games exported by this app (JSON) into a scorebook; games it already holds are skipped."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the export file (.json)")
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("--scorebook", type=int, help="the scorebook's id")
        target.add_argument("--email", help="that user's personal scorebook")

    def handle(self, *args, file, scorebook, email, **options):
        if email:
            user = get_user_model().objects.filter(email__iexact=email).first()
            if user is None:
                raise CommandError(f"No user with the email {email}.")
            book = Scorebook.personal_for(user)
        else:
            book = Scorebook.objects.filter(pk=scorebook).first()
            if book is None:
                raise CommandError(f"No scorebook with id {scorebook}.")
            user = book.memberships.filter(role="owner").select_related("user").first().user
        try:
            with open(file, encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CommandError(f"Cannot read {file}: {error}") from None
        total = len(data.get("games", [])) if isinstance(data, dict) else 0
        with tqdm(total=total, unit="game", disable=options["verbosity"] == 0) as bar:
            try:
                result = transfer.import_games(data=data, scorebook=book, by=user, progress=bar)
            except transfer.BadFile as bad:
                raise CommandError("Nothing was imported. " + " ".join(bad.errors.get("file", []))) from None
        self.stdout.write(
            f"{book.name}: {result.games} games, {result.rounds} rounds, {result.players_created} new players; "
            f"{result.skipped} already there."
        )
