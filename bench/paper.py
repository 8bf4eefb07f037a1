"""What a paper game entered afterwards costs (issue 40): saved whole in one request against the same
game recorded live, and entered for a day before every game of a scorebook of 1,000 or 10,000.

    .venv/bin/python bench/paper.py [--sizes 1000 10000] [--runs 5]

bench/run.py runs it after its own table (or alone: bench/run.py --paper-only). In a PostgreSQL
database of its own (`sk_paper_bench` on 127.0.0.1:5432, BENCH_PAPER_DB for another name), with
Django's test client in this process (no server: the time is the app's own, the queries counted):

  live game    POST /api/v1/games/, then its 13 rounds of double-12 for four, one POST each (the
               table's way: the game's time and queries are the 14 requests together)
  paper game   POST /api/v1/games/ with `played_on` (today) and the same 13 rounds: one request
               (issue 40: at most 2x the live game's)
  a year back  for each size, a scorebook with that many finished games (real deals, imported in
               batches, one a day), then a paper game entered for the day before the first of them: the request (more than ratings.REPLAY_IN_REQUEST games after it,
               so it marks the ratings as updating and leaves the replay to the task) and the task
               that replays every later game, once, in one pass (scorekeeper.tasks.replay_ratings)

and prints the median (and slowest) ms and the queries of each.
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DB = os.environ.get("BENCH_PAPER_DB", "sk_paper_bench")
URL = f"postgres://postgres@127.0.0.1:5432/{DB}"
BATCH = 1000
# The sheet: per round who went out (a seat) and the others' pips, 12-12 down to 0-0.
SHEET = [(seat % 4, (5 + seat, 9 + seat % 3, 14 - seat % 5)) for seat in range(13)]


def fresh() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB}")


def measure(sizes: list[int], runs: int) -> None:
    os.environ |= {"DATABASE_URL": URL, "DJANGO_SETTINGS_MODULE": "tests.settings", "LOG_LEVEL": "ERROR",
                   "ALLOWED_HOSTS": "testserver"}  # fmt: skip
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.tasks import task_backends
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from scorekeeper import services
    from scorekeeper.demo import play_game
    from scorekeeper.models import Game, Scorebook
    from scorekeeper.rules.game import GameRules
    from tests.factories import PlayerFactory, UserFactory

    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    call_command("migrate", "--noinput", verbosity=0)

    def timed(make) -> tuple[float, int]:
        began = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            make()
        return (time.perf_counter() - began) * 1000, len(queries)

    def rounds_of(players) -> list[dict]:
        rounds = []
        for number, (out, held) in enumerate(SHEET):
            others = iter(held)
            entries = [{"player": pk, "pips": 0, "went_out": True} if seat == out else {"player": pk, "pips": next(others)}
                       for seat, pk in enumerate(players)]  # fmt: skip
            rounds.append({"starting_double": 12 - number, "entries": entries})
        return rounds

    def post(api, path, body, status=201):
        response = api.post(path, body, content_type="application/json")
        assert response.status_code == status, response.content[:400]
        return response.json()

    # 1. One game of the sheet, recorded live (14 requests) and entered afterwards (one request).
    user = UserFactory(email="paper-bench@example.com")
    api = Client()  # a browser's session (the test client skips the CSRF check)
    api.force_login(user)
    players = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben", "Cy", "Dot")]
    body = {"tile_set": 12, "players": players}

    def live():
        game = post(api, "/api/v1/games/", body)
        for round_body in rounds_of(players):
            post(api, f"/api/v1/games/{game['id']}/rounds/", round_body)

    def paper():
        made = post(
            api, "/api/v1/games/", body | {"played_on": str(timezone.localdate()), "rounds": rounds_of(players)}
        )
        assert made["status"] == "finished"

    live(), paper()  # to warm up
    both = {"live": [], "paper": []}
    for _ in range(runs):
        both["live"].append(timed(live))
        both["paper"].append(timed(paper))
    live_ms, paper_ms = (statistics.median(ms for ms, _ in both[kind]) for kind in ("live", "paper"))
    print(
        f"\npostgresql: a game of 13 rounds of double-12 for four, {runs} times each | median ms | slowest ms | queries"
    )
    for kind, label in (("live", "recorded live: create + 13 round posts"), ("paper", "entered afterwards: one POST")):
        print(f"   {label:52} | {statistics.median(ms for ms, _ in both[kind]):9.0f} | "
              f"{max(ms for ms, _ in both[kind]):10.0f} | {both[kind][-1][1]}")  # fmt: skip
    print(
        f"   paper / live: {paper_ms / live_ms:.2f}x the time, "
        f"{both['paper'][-1][1] / both['live'][-1][1]:.2f}x the queries (at most 2x)"
    )

    # 2. A paper game entered for the day before every game of a scorebook of `size` games.
    queue = task_backends["default"]
    seeded, rng = 0, random.Random(40)
    owner = UserFactory(email="paper-year@example.com")
    book = Scorebook.personal_for(owner)
    names = ("Ann", "Ben", "Cy", "Dot", "Eve", "Flo", "Gus", "Hal")
    table = {PlayerFactory(owner=owner, name=name).pk: name for name in names}
    ids = list(table)
    clerk = Client()
    clerk.force_login(owner)
    # One game a day, the first of the largest size's on the first day: each size adds the days after.
    first_day = timezone.now() - timedelta(days=max(sizes))
    print("\n postgresql: a paper game entered for the day before a scorebook's games | games | ms | queries")
    for size in sizes:
        began = time.perf_counter()
        for batch in range(seeded, size, BATCH):
            checked = []
            for number in range(batch, min(size, batch + BATCH)):
                seats = rng.sample(ids, rng.randint(2, 6))
                rules = GameRules(tile_set=6)
                when = first_day + timedelta(days=number)
                checked.append(services.check_import(seats=[(pk, table[pk]) for pk in seats], rules=rules,
                                                     rounds=play_game(rules, seats, rng), played_at=when,
                                                     finished_at=when))  # fmt: skip
            services.save_imports(by=owner, scorebook=book, games=checked)
        seeded = size
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
        first = Game.objects.filter(scorebook=book).order_by("played_on").values_list("played_on", flat=True)[0]
        later = Game.objects.filter(scorebook=book).counted().count()
        print(f"   ({later:,} games seeded in {time.perf_counter() - began:.0f} s, the first on {first})")
        day = first - timedelta(days=1)
        sheet = {"tile_set": 12, "players": ids[:4], "played_on": str(day), "rounds": rounds_of(ids[:4])}
        request_ms, request_queries = timed(lambda sheet=sheet: post(clerk, "/api/v1/games/", sheet))
        assert Scorebook.objects.get(pk=book.pk).ratings_updating  # the replay is the task's
        (queued,) = queue.results
        queue.clear()
        task_ms, task_queries = timed(lambda queued=queued: queued.task.call(*queued.args))
        assert not Scorebook.objects.get(pk=book.pk).ratings_updating
        print(f"   the request (marks the ratings as updating, enqueues the task) | {later:>6,} | "
              f"{request_ms:7.0f} | {request_queries}")  # fmt: skip
        print(f"   the task: every later game replayed once, in one pass          | {later:>6,} | "
              f"{task_ms:7.0f} | {task_queries}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    if args.measure:
        measure(sorted(args.sizes), args.runs)
        return
    fresh()
    command = [sys.executable, __file__, "--measure", "--runs", str(args.runs), "--sizes", *map(str, args.sizes)]
    subprocess.run(command, cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
