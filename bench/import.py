"""Benchmark: an import of 1,000 games through the HTTP paths, as a phone or the page sends it.

Builds a realistic export: 1,000 finished games of 4 players on double-12, every round dealt from
real tiles (scorekeeper.demo.play_game: 13 rounds, 12 when the table skips a double), seeded into
one account and downloaded through GET /api/v1/export/. Then, with Django's test client in this
process, imports it into fresh accounts and prints each request's time (wall and CPU) and queries:

  - the whole file through POST /api/v1/import/ and the page's upload (POST /scorebooks/<id>/import/),
    with the byte and round-score limits lifted for the run: such a file is about 7.6 MB, over IMPORT_MAX_BYTES;
  - the same file under the real limits (a 413 from its Content-Length);
  - the most games that fit in IMPORT_MAX_BYTES, under the real limits.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sk_bench .venv/bin/python bench/import.py
    DATABASE_URL=sqlite:////tmp/sk_bench.sqlite3 .venv/bin/python bench/import.py [--games 1000] [--players 4] [--profile]

Works in a throwaway test database (test_<name> on PostgreSQL, <file>.test on SQLite), dropped at
the end. --profile prints the API import's 25 most expensive functions (cProfile, own time) and
keeps the whole profile in /tmp/bench-import-*.prof."""

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import override_settings, setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from scorekeeper import services  # noqa: E402
from scorekeeper.demo import PlayerFactory, UserFactory, play_game  # noqa: E402
from scorekeeper.models import Game, Scorebook  # noqa: E402
from scorekeeper.rules.game import GameRules  # noqa: E402


class Queries:
    """Counts the queries run inside the block (without Django's debug cursor and its copies)."""

    def __enter__(self):
        self.count = 0
        self._wrapper = connection.execute_wrapper(self)
        self._wrapper.__enter__()
        return self

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)

    def __exit__(self, *exc):
        self._wrapper.__exit__(*exc)


NAMES = ("Ann", "Bén", "Çy", "Dot", "Eve", "Fé", "Gus", "Hal")


def seed(owner, games: int, rng: random.Random, seated: int = 4) -> None:
    """Finished games, checked and saved in bulk as an import saves them (not timed)."""
    players = [PlayerFactory(owner=owner, name=name) for name in NAMES[:seated]]
    now, rules = timezone.now(), GameRules()  # double-12, the usual game
    checked = []
    for _ in range(games):
        played_at = now - timedelta(days=rng.uniform(0, 730))
        table = rng.sample(players, seated)
        checked.append(
            services.check_import(
                seats=[(player.pk, player.name) for player in table],
                rules=rules,
                rounds=play_game(rules, [player.pk for player in table], rng),
                name=rng.choice(["Friday", "Game night", "Family", "Club", ""]),
                played_at=played_at,
                finished_at=played_at + timedelta(minutes=rng.randint(40, 150)),
            )
        )
    services.save_imports(by=owner, scorebook=Scorebook.personal_for(owner), games=checked)


def timed(label: str, call, profile: bool):
    profiler = cProfile.Profile() if profile else None
    with Queries() as queries:
        start, cpu = time.perf_counter(), time.process_time()
        if profiler:
            profiler.enable()
        response = call()
        if profiler:
            profiler.disable()
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"{label:<38} {elapsed:6.2f} s ({cpu:5.2f} s CPU) {queries.count:6} queries -> {response.status_code}")
    if profiler:
        out = io.StringIO()
        profiler.dump_stats(f"/tmp/bench-import-{label.split()[0]}.prof")
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())
    return response


def dump(data) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


def api_post(client, body: bytes):
    return client.post("/api/v1/import/", body, content_type="application/json")


def page_post(client, book, body: bytes):
    upload = io.BytesIO(body)
    upload.name = "games.json"
    return client.post(f"/scorebooks/{book.pk}/import/", {"file": upload})


def largest_that_fits(data: dict) -> dict:
    """The export's first games, as many as IMPORT_MAX_BYTES holds."""
    low, high = 0, len(data["games"])
    while low < high:
        middle = (low + high + 1) // 2
        if len(dump({**data, "games": data["games"][:middle]})) <= settings.IMPORT_MAX_BYTES:
            low = middle
        else:
            high = middle - 1
    return {**data, "games": data["games"][:low]}


accounts = iter(range(1, 1000))


def into_fresh_account(label: str, client, post, profile: bool = False) -> None:
    user = UserFactory(email=f"bench-{next(accounts)}@example.com")
    client.force_login(user)
    book = Scorebook.personal_for(user)
    response = timed(label, lambda: post(book), profile)
    games = Game.objects.filter(scorebook=book).count()
    print(f"{'':<38} {games} games saved")
    if response.status_code == 413:
        print(f"{'':<38} {response.json()['detail'][:90]}...")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9), help="at each table (2-8)")
    parser.add_argument("--profile", action="store_true")
    options = parser.parse_args()

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        print(f"database: {connection.vendor}, {options.games} games of {options.players} players on double-12")
        owner = UserFactory(email="bench-owner@example.com")
        start = time.perf_counter()
        seed(owner, options.games, random.Random(7), options.players)
        book = Scorebook.personal_for(owner)
        rounds = sum(len(g.rounds.all()) for g in Game.objects.filter(scorebook=book).prefetch_related("rounds"))
        print(f"{'seeded (services.save_imports)':<38} {time.perf_counter() - start:6.2f} s   ({rounds} rounds)")

        client = Client()
        client.force_login(owner)
        exported = timed(
            "export  GET /api/v1/export/", lambda: client.get("/api/v1/export/?format=json"), options.profile
        )
        body = exported.content
        print(f"{'the export file':<38} {len(body) / 1024:6.0f} KB")

        data = json.loads(body)
        lifted = override_settings(
            IMPORT_MAX_BYTES=len(body) + 1024 * 1024,
            DATA_UPLOAD_MAX_MEMORY_SIZE=len(body) + 1024 * 1024,
            IMPORT_MAX_ENTRIES=10**9,
        )
        with lifted:
            into_fresh_account(
                "import  POST /api/v1/import/", client, lambda _: api_post(client, body), options.profile
            )
            into_fresh_account("import  page upload", client, lambda book: page_post(client, book, body))
        print(f"under the real limits ({settings.IMPORT_MAX_GAMES:,} games, {settings.IMPORT_MAX_BYTES / 2**20:g} MB):")
        into_fresh_account("import  POST /api/v1/import/", client, lambda _: api_post(client, body))
        fitting = largest_that_fits(data)
        print(
            f"{'the most games under the byte limit':<38} {len(fitting['games']):6} games, {len(dump(fitting)) / 1024:.0f} KB"
        )
        into_fresh_account("import  POST /api/v1/import/", client, lambda _: api_post(client, dump(fitting)))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
