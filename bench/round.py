"""What saving one round costs: queries and milliseconds, from the page and from the API.

    .venv/bin/python bench/round.py [--saves 200] [--database sqlite postgresql]

For each database (a fresh one of its own: a SQLite file in /tmp, a PostgreSQL database
`sk_round_bench` on 127.0.0.1:5432), in one process with Django's test client (no server, no
network: the time is the app's own, middleware to template):
  page   POST /games/{id}/rounds/new/ with the round form, then GET the sheet it redirects to
         (what a phone does when Save is tapped)
  api    POST /api/v1/games/{id}/rounds/ as JSON, with the session and its CSRF token (what the
         offline queue does)
Rounds go into double-12 games for 4, one after the other (every 13th round ends a game: records
and ratings follow), page and API in turn so a slow moment of the machine lands on both. The last
round of a game, reached in order, saves at once like the others (nothing is asked). It prints,
per path, the median and the 95th percentile in ms over `--saves` saves (the page with and without the sheet it then shows),
the median CPU time of this process for the POST (steadier than the wall clock on a busy machine;
with PostgreSQL the database server's own work is not in it), and the queries of a round in the
middle of a game and of the round that ends it.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SQLITE = "sqlite:////tmp/sk-round-bench.sqlite3"
POSTGRES = "postgres://postgres@127.0.0.1:5432/sk_round_bench"
PLAYERS = 4


def fresh(url: str) -> None:
    if url.startswith("sqlite"):
        Path(url.removeprefix("sqlite:///")).unlink(missing_ok=True)
        return
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS sk_round_bench WITH (FORCE)")
        conn.execute("CREATE DATABASE sk_round_bench")


def measure(url: str, saves: int) -> None:
    os.environ |= {
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "LOG_LEVEL": "ERROR",
        "ALLOWED_HOSTS": "testserver",
    }
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scorekeeper import services
    from scorekeeper.rules.game import GameRules
    from tests.factories import PlayerFactory, UserFactory

    call_command("migrate", "--noinput", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)  # the pages meet the manifest storage
    user = UserFactory(email="bench@example.com")
    players = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben", "Cy", "Dot")]
    browser = Client()
    browser.force_login(user)
    browser.get("/")  # the CSRF cookie, as a page sets it
    csrf = browser.cookies["csrftoken"].value

    def new_game():
        game = services.create_game(by=user, players=players, rules=GameRules(tile_set=12), name="Bench")
        return {"id": game.pk, "next": 12}

    def values(double):
        # Ann goes out; the others hold a few pips (plausible, so only the game's end is a surprise).
        return [0, 3 + double % 5, 7 + double % 3, 11]

    def page_save(game):
        double, pips = game["next"], values(game["next"])
        data = {"starting_double": double, "version": _version(game["id"])}
        for player, value in zip(players, pips, strict=True):
            data[f"p{player}_pips"] = value
        data[f"p{players[0]}_went_out"] = "on"
        path = f"/games/{game['id']}/rounds/new/"
        start, cpu = time.perf_counter(), time.process_time()
        with CaptureQueriesContext(connection) as posted:
            response = browser.post(path, data)
        saved, saved_cpu = time.perf_counter(), time.process_time()
        with CaptureQueriesContext(connection) as shown:
            sheet = browser.get(response["Location"])
        end = time.perf_counter()
        assert response.status_code == 302 and sheet.status_code == 200, (response.status_code, response.content[:500])
        return ((end - start) * 1000, (saved - start) * 1000, (saved_cpu - cpu) * 1000), len(posted), len(shown)

    def api_save(game):
        double, pips = game["next"], values(game["next"])
        entries = [{"player": p, "pips": v} for p, v in zip(players, pips, strict=True)]
        entries[0]["went_out"] = True
        body = {"starting_double": double, "entries": entries}
        start, cpu = time.perf_counter(), time.process_time()
        with CaptureQueriesContext(connection) as posted:
            response = browser.post(
                f"/api/v1/games/{game['id']}/rounds/", body, content_type="application/json",
                headers={"X-CSRFToken": csrf},
            )  # fmt: skip
        elapsed, cpu = (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000
        assert response.status_code == 201, response.content[:500]
        return (elapsed, elapsed, cpu), len(posted), 0

    def _version(pk):
        from scorekeeper.models import Game

        return Game.objects.values_list("version", flat=True).get(pk=pk)

    games = {"page": new_game(), "api": new_game()}
    saver = {"page": page_save, "api": api_save}
    times = {"page": [], "api": []}
    queries = {"page": {}, "api": {}}
    for i in range(saves + 10):  # 10 to warm up (query plans, caches, the templates)
        for kind in ("page", "api"):
            game = games[kind]
            elapsed, posted, shown = saver[kind](game)
            where = "end" if game["next"] == 0 else "middle" if game["next"] == 6 else None
            if where:
                queries[kind][where] = (posted, shown)
            if i >= 10:
                times[kind].append(elapsed)
            game["next"] -= 1
            if game["next"] < 0:
                games[kind] = new_game()
    print(f"\n{connection.vendor}: {saves} saves each")
    print(" path | with the sheet: median, p95 ms | the POST: median, p95 ms | its CPU: median ms | "
          "queries, mid-game round | round that ends the game")  # fmt: skip
    for kind in ("page", "api"):
        whole, post, cpu = (sorted(each) for each in zip(*times[kind], strict=True))
        p95 = int(len(whole) * 0.95) - 1
        counts = [
            f"{posted} + {shown} (POST + sheet)" if kind == "page" else f"{posted}"
            for posted, shown in (queries[kind]["middle"], queries[kind]["end"])
        ]
        print(f" {kind:4} | {statistics.median(whole):14.2f}, {whole[p95]:7.2f} | {statistics.median(post):12.2f}, "
              f"{post[p95]:7.2f} | {statistics.median(cpu):12.2f} | {counts[0]:23} | {counts[1]}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--saves", type=int, default=200)
    parser.add_argument("--database", nargs="+", choices=["sqlite", "postgresql"], default=["sqlite", "postgresql"])
    parser.add_argument("--url", help=argparse.SUPPRESS)  # the child process measuring one database
    args = parser.parse_args()
    if args.url:
        measure(args.url, args.saves)
        return
    for name in args.database:
        url = SQLITE if name == "sqlite" else POSTGRES
        fresh(url)
        subprocess.run([sys.executable, __file__, "--saves", str(args.saves), "--url", url], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
