"""What correcting an old finished game costs when 10,000 games of its scorebook came after it.

    .venv/bin/python bench/replay.py [--games 10000] [--runs 3] [--database postgresql sqlite]

For each database (a fresh one of its own: the PostgreSQL database `sk_replay_bench` on
127.0.0.1:5432, a SQLite file in /tmp), one scorebook gets the game to correct (double-6, Ann, Ben
and Cy) and then `--games` later finished games of 2 to 6 of 8 players, imported in batches of
1,000 (real deals, scorekeeper.demo.play_game). Then, with Django's test client in this process
(no server: the time is the app's own), the last round of the first game is corrected through
`PUT /api/v1/games/{id}/rounds/7/` so that its finishing order turns around, and back, `--runs`
times each way (after one correction and its task left out, to warm up):

  before   every later game replayed inside the request (ratings.REPLAY_IN_REQUEST lifted: the
           behaviour before the task)
  after    the request marks the ratings as updating and enqueues the task (REPLAY_IN_REQUEST as
           shipped; the queue is Django's DummyBackend, so nothing runs it meanwhile)
  task     the task that replay then runs (scorekeeper.tasks.replay_ratings), timed on its own,
           and the part of it that holds the replayed games' locks (writing the steps and the
           players' ratings: a request correcting one of those games meanwhile waits that long)

and prints the median and slowest of each in ms, with their queries.
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
SQLITE = "sqlite:////tmp/sk-replay-bench.sqlite3"
POSTGRES = "postgres://postgres@127.0.0.1:5432/sk_replay_bench"
BATCH = 1000


def fresh(url: str) -> None:
    if url.startswith("sqlite"):
        Path(url.removeprefix("sqlite:///")).unlink(missing_ok=True)
        return
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS sk_replay_bench WITH (FORCE)")
        conn.execute("CREATE DATABASE sk_replay_bench")


def measure(url: str, games: int, runs: int) -> None:
    os.environ |= {
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "LOG_LEVEL": "ERROR",
        "ALLOWED_HOSTS": "testserver",
    }
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
    from scorekeeper.rules.rounds import EntryInput
    from scorekeeper.services import ratings
    from tests.factories import PlayerFactory, UserFactory

    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    call_command("migrate", "--noinput", verbosity=0)
    user = UserFactory(email="bench@example.com")
    book = Scorebook.personal_for(user)
    names = ("Ann", "Ben", "Cy", "Dot", "Eve", "Flo", "Gus", "Hal")
    players = {PlayerFactory(owner=user, name=name).pk: name for name in names}
    ids = list(players)
    rng = random.Random(25)
    start = timezone.now() - timedelta(days=games + 1)

    # The game to correct, the first of the scorebook: Ann goes out every round, Ben holds 5, Cy 9.
    first = services.import_game(
        by=user, players=ids[:3], rules=GameRules(tile_set=6), played_at=start, finished_at=start,
        rounds=[(d, [EntryInput(ids[0], pips=0, went_out=True), EntryInput(ids[1], pips=5),
                     EntryInput(ids[2], pips=9)]) for d in range(6, -1, -1)],
    )  # fmt: skip
    began = time.perf_counter()
    for batch in range(0, games, BATCH):
        checked = []
        for number in range(batch, min(games, batch + BATCH)):
            table = rng.sample(ids, rng.randint(2, 6))
            rules = GameRules(tile_set=6)
            when = start + timedelta(days=1 + number)
            checked.append(services.check_import(seats=[(pk, players[pk]) for pk in table], rules=rules,
                                                 rounds=play_game(rules, table, rng), played_at=when,
                                                 finished_at=when))  # fmt: skip
        services.save_imports(by=user, scorebook=book, games=checked)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    print(f"\n{connection.vendor}: {games:,} later games seeded in {time.perf_counter() - began:.0f} s")

    api = Client()  # a browser's session (the test client skips the CSRF check)
    api.force_login(user)
    queue = task_backends["default"]

    def correct(turned: bool) -> tuple[float, int]:
        """PUT the first game's last round: turned around (Cy out, Ann 60) or back as it was."""
        out, middle, last = (ids[2], ids[1], ids[0]) if turned else (ids[0], ids[1], ids[2])
        body = {"starting_double": 0, "entries": [{"player": out, "pips": 0, "went_out": True},
                                                  {"player": middle, "pips": 5},
                                                  {"player": last, "pips": 60 if turned else 9}]}  # fmt: skip
        began = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            response = api.put(f"/api/v1/games/{first.pk}/rounds/7/", body, content_type="application/json")
        elapsed = (time.perf_counter() - began) * 1000
        assert response.status_code == 200, response.content[:500]
        return elapsed, len(queries)

    write, written = ratings._write, []

    def timed_write(*args):
        began = time.perf_counter()
        write(*args)
        written.append((time.perf_counter() - began) * 1000)

    ratings._write = timed_write  # what the task does holding the replayed games' locks

    def run_task() -> tuple[float, int]:
        (queued,) = queue.results
        queue.clear()
        began = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            assert queued.task.call(*queued.args) is True
        timings["locked"].append((written[-1], None))
        return (time.perf_counter() - began) * 1000, len(queries)

    shipped = ratings.REPLAY_IN_REQUEST
    timings = {"before": [], "after": [], "task": [], "locked": []}
    correct(turned=True)  # to warm up (the first request builds the URL resolver, DRF's settings ...)
    run_task()
    turned = True
    timings["locked"].clear()  # the warm-up's
    for _ in range(runs):
        for kind in ("before", "after"):
            turned = not turned
            ratings.REPLAY_IN_REQUEST = games + 10 if kind == "before" else shipped
            timings[kind].append(correct(turned))
            assert Scorebook.objects.get(pk=book.pk).ratings_updating == (kind == "after")
            if kind == "after":
                timings["task"].append(run_task())
                assert not Scorebook.objects.get(pk=book.pk).ratings_updating
    assert Game.objects.filter(scorebook=book, status=Game.Status.FINISHED).count() == games + 1
    print(f" correcting the first of {games + 1:,} finished games, {runs} times each way | median ms | slowest ms | queries")  # fmt: skip
    labels = {
        "before": "before: the request replays every later game",
        "after": f"after: the request (<= {shipped} games inline, else the task)",
        "task": "the task's replay",
        "locked": "  of which its writing (the games it replays locked)",
    }
    for kind, label in labels.items():
        elapsed = [ms for ms, _ in timings[kind]]
        queries = timings[kind][-1][1]
        print(f"   {label:58} | {statistics.median(elapsed):9.0f} | {max(elapsed):10.0f} | {queries or ''}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--database", nargs="+", choices=["sqlite", "postgresql"], default=["postgresql"])
    parser.add_argument("--url", help=argparse.SUPPRESS)  # the child process measuring one database
    args = parser.parse_args()
    if args.url:
        measure(args.url, args.games, args.runs)
        return
    for name in args.database:
        url = SQLITE if name == "sqlite" else POSTGRES
        fresh(url)
        subprocess.run(
            [sys.executable, __file__, "--games", str(args.games), "--runs", str(args.runs), "--url", url],
            cwd=ROOT,
            check=True,
        )


if __name__ == "__main__":
    main()
