import random

from django.core.management.base import BaseCommand
from tqdm import tqdm

from scorekeeper.demo import DEMO_PASSWORD, demo_players, demo_user, seed_games
from scorekeeper.models import Scorebook


class Command(BaseCommand):
    help = "Create demo users, players and finished games whose every round is a real deal."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=50, help="finished games per user (default 50)")
        parser.add_argument("--users", type=int, default=1, help="how many users (default 1)")
        parser.add_argument("--players", type=int, default=6, help="players per user (default 6)")
        parser.add_argument("--email", help=f"seed this user (created if missing; password {DEMO_PASSWORD})")
        parser.add_argument("--seed", type=int, default=None, help="random seed, for repeatable data")

    def handle(self, *args, games, users, players, email, seed, **options):
        rng = random.Random(seed)
        emails = [email] if email else [f"keeper{n}@example.com" for n in range(1, users + 1)]
        owners = [demo_user(address) for address in emails]
        with tqdm(total=games * len(owners), unit="game", disable=options["verbosity"] == 0) as bar:
            for owner in owners:
                table = demo_players(owner, _names(rng, players))
                seed_games(owner, table, games, rng, progress=bar)
        for owner in owners:
            book = Scorebook.personal_for(owner)
            self.stdout.write(f"{owner.email}: {book.games.count()} games, {book.players.count()} players")
        # Whoever made the demo signs in next: the password is said here, not only in --help.
        self.stdout.write(f"Sign in with the email above and the password {DEMO_PASSWORD}")


def _names(rng, count):
    pool = ["Ann", "Ben", "Cy", "Dot", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou"]
    return rng.sample(pool, min(count, len(pool)))
