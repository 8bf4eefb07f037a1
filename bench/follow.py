"""What a member's page costs the server while it follows the game: a poll every 2 s per phone.

    .venv/bin/python bench/follow.py [--polls 500] [--database sqlite postgresql]

For each database (a fresh one of its own: a SQLite file in /tmp, a PostgreSQL database
`sk_follow_bench` on 127.0.0.1:5432), in one process with Django's test client (no server, no
network: the time is the app's own, middleware to template), on a double-12 game for 4 with 6
rounds played and a live link:
  member 304   GET /games/{id}/sheet/ with the ETag it has (nothing changed: every poll but one)
  member 200   the same with an ETag older than the game, as after a change on another phone (the
               parts and the latest changes in words)
  live 304     GET /live/{token}/sheet/ with its ETag, for comparison (no account)
  sheet page   GET /games/{id}/ (what a reload would cost instead)
It prints the median and 95th percentile in ms over `--polls` requests of each, and their queries.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SQLITE = "sqlite:////tmp/sk-follow-bench.sqlite3"
POSTGRES = "postgres://postgres@127.0.0.1:5432/sk_follow_bench"


def fresh(url: str) -> None:
    if url.startswith("sqlite"):
        Path(url.removeprefix("sqlite:///")).unlink(missing_ok=True)
        return
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS sk_follow_bench WITH (FORCE)")
        conn.execute("CREATE DATABASE sk_follow_bench")


def measure(url: str, polls: int) -> None:
    os.environ |= {"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "tests.settings", "ALLOWED_HOSTS": "testserver"}
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scorekeeper import services
    from scorekeeper.models import Game
    from scorekeeper.rules.game import GameRules
    from scorekeeper.rules.rounds import EntryInput
    from scorekeeper.services import live as links
    from tests.factories import PlayerFactory, UserFactory

    settings.LIVE_REQUESTS_PER_MINUTE = 10**9  # one client asks far more often than a phone
    call_command("migrate", "--noinput", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    user = UserFactory(email="bench@example.com")
    players = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben", "Cy", "Dot")]
    game = services.create_game(by=user, players=players, rules=GameRules(tile_set=12), name="Bench")
    doubles = iter(range(12, -1, -1))

    def record():
        entries = [EntryInput(player=players[0], pips=0, went_out=True)]
        entries += [EntryInput(player=player, pips=5 + n) for n, player in enumerate(players[1:])]
        services.record_round(
            game=Game.objects.get(pk=game.pk), starting_double=next(doubles), entries=entries, by=user
        )

    for _ in range(6):
        record()
    token = links.share(game=game, by=user).token
    phone, viewer = Client(), Client()
    phone.force_login(user)
    member, public = f"/games/{game.pk}/sheet/", f"/live/{token}/sheet/"
    etags = {member: phone.get(member)["ETag"], public: viewer.get(public)["ETag"]}

    def timed(client, path, headers, status):
        start = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path, headers=headers)
        elapsed = (time.perf_counter() - start) * 1000
        assert response.status_code == status, (path, response.status_code)
        return elapsed, len(queries)

    cases = {
        "member 304": lambda: timed(phone, member, {"If-None-Match": etags[member]}, 304),
        "live 304": lambda: timed(viewer, public, {"If-None-Match": etags[public]}, 304),
        "sheet page": lambda: timed(phone, f"/games/{game.pk}/", {}, 200),
    }
    results = {name: [] for name in [*cases, "member 200"]}
    counts = {}
    for i in range(polls + 20):  # 20 to warm up
        for name, case in cases.items():
            elapsed, queries = case()
            counts[name] = queries
            if i >= 20:
                results[name].append(elapsed)
    # A 200 needs a change first: the parts are asked for with an ETag older than the game.
    stale = '"sheet-0-v0"'
    for i in range(polls + 20):
        elapsed, queries = timed(phone, member, {"If-None-Match": stale}, 200)
        counts["member 200"] = queries
        if i >= 20:
            results["member 200"].append(elapsed)
    print(f"\n{connection.vendor}: {polls} requests each, a double-12 game for 4 with 6 rounds")
    print(" request     | median ms | p95 ms | queries")
    for name, times in results.items():
        times.sort()
        print(
            f" {name:11} | {statistics.median(times):9.2f} | {times[int(len(times) * 0.95) - 1]:6.2f} | {counts[name]}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--polls", type=int, default=500)
    parser.add_argument("--database", nargs="+", choices=["sqlite", "postgresql"], default=["sqlite", "postgresql"])
    parser.add_argument("--url", help=argparse.SUPPRESS)  # the child process measuring one database
    args = parser.parse_args()
    if args.url:
        measure(args.url, args.polls)
        return
    for name in args.database:
        url = SQLITE if name == "sqlite" else POSTGRES
        fresh(url)
        subprocess.run([sys.executable, __file__, "--polls", str(args.polls), "--url", url], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
