"""Benchmark: every hot path against the trivial read and the one-row create, under gunicorn.

Seeds 100, then 1,000, then 10,000 finished games for one user in a PostgreSQL database of its
own, serves the app with gunicorn after each step, and times sequential requests over one
keep-alive connection:
  reads, against GET /api/v1/me/ (token lookup and the user, nothing else):
    game detail         GET /api/v1/games/{id}/ (a finished 13-round game)
    sheet page          GET /games/{id}/ (the HTML score sheet, session cookie)
    leaderboard         GET /api/v1/leaderboard/?sort=rating
    player stats        GET /api/v1/players/{id}/stats/ (the leaderboard's top player)
    season table        GET /api/v1/seasons/{id}/ (a season of the seeded scorebook's last 90 days)
    season all games    the same season stretched over every seeded game (the table's worst case)
  and the season tables against the leaderboard's read, timed in turn (issue 34: at 10,000 games
  the season table costs no more than 1.5x the leaderboard's read, and grows at most 1.2x):
    season vs board     GET /api/v1/seasons/{id}/ against GET /api/v1/leaderboard/?sort=rating
    all vs board        the all-games season against the same
  a club night of three tables (4, 5 and 6 players, a round each, one table finished), against
  the trivial read:
    night read          GET /api/v1/nights/{id}/ (its tables and standings, in full)
    night poll 304      the same with If-None-Match: answered from the shared cache (Redis)
  writes, against POST /api/v1/players/ (one row):
    round by totals     POST /api/v1/games/{id}/rounds/ (4 players; every 13th round ends a game)
    round by tiles      the same with tile lists
    correct a round     PUT /api/v1/games/{id}/rounds/{n}/
  and a seat change against a round by totals:
    seat change         POST /api/v1/games/{id}/seats/ (a late player joins), then DELETE
                        /api/v1/games/{id}/seats/changes/last/ (undone), in turn
Each path is timed in turn with its baseline, one request of each after the other, so that a slow
moment of the machine (it has two cores, shared by server, database and client) lands on both: a
path's ratio is its median over the median of the baseline requests made between its own. It prints
each one's median and 95th percentile, that ratio, and the growth of the ratios from the smallest
size to the largest.

    .venv/bin/python bench/run.py [--sizes 100 1000 10000] [--requests 200] [--only leaderboard ...]

With --only, it times those paths alone (the leaderboard's: --only leaderboard "board by set" ...).

Then bench/paper.py (in a database of its own, in process: its queries counted): a paper game of 13
rounds saved in one request against the same game's 14 requests recorded live, and a paper game
entered for the day before every game of a scorebook of each size from 1,000 up (the request, and
the task's one replay of every later game). --paper-only runs that part alone; --no-paper skips it.
"""

import argparse
import datetime
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
DB = os.environ.get("BENCH_DB", "scorekeeper_bench")  # another name when two checkouts bench at once
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
PORT = int(os.environ.get("BENCH_PORT", "8765"))  # another free port when 8765 is taken
EMAIL, PASSWORD = "bench@example.com", "table-talk-42"


def env():
    return os.environ | {
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB}",
        "SECRET_KEY": "benchmark-only",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
        # The Procfile's setup: a cache every worker shares (Redis), as allauth's rate limits need.
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/8"),
    }


def manage(*args):
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env(), check=True)


def fresh_database():
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB}")
    manage("migrate", "--noinput", "-v0")
    manage("collectstatic", "--noinput", "-v0")


def serve():
    server = subprocess.Popen(
        [str(Path(PYTHON).parent / "gunicorn"), "scorekeeper.wsgi", "--bind", f"127.0.0.1:{PORT}",
         "--workers", "2", "--no-control-socket", "--log-level", "warning"],
        cwd=ROOT, env=env(),
    )  # fmt: skip
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", PORT, timeout=1).request("GET", "/api/schema/")
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("gunicorn did not start")


def timed(conn, requests, make, baseline=None):
    """`make(i)` gives (method, path, body, headers): the median and p95 in ms of `requests` calls,
    and with a `baseline` (another make) the median of as many baseline calls made in between."""
    makes = [make] if baseline is None else [make, baseline]
    for i in range(5):  # warm up: connections, caches, query plans
        for each in makes:
            call(conn, *each(-1 - i))
    samples = [[] for _ in makes]
    for i in range(requests):
        for each, times in zip(makes, samples, strict=True):
            args = each(i)
            start = time.perf_counter()
            call(conn, *args)
            times.append((time.perf_counter() - start) * 1000)
    ours = sorted(samples[0])
    base = statistics.median(samples[1]) if baseline else statistics.median(ours)
    return statistics.median(ours), ours[int(len(ours) * 0.95) - 1], base


def call(conn, method, path, body=None, headers=None):
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers={"Content-Type": "application/json", **(headers or {})})  # fmt: skip
    response = conn.getresponse()
    data = response.read()
    if response.status >= 400:
        raise RuntimeError(f"{method} {path}: {response.status} {data[:300]!r}")
    return json.loads(data) if data and response.getheader("Content-Type", "").startswith("application/json") else None


TILES = [["1-2", "3-4"], ["5-6", "0-1", "2-4"], ["4-5", "0-3"]]


def round_body(players, double, by_tiles, shift=0):
    entries = [{"player": players[0], "pips": 0, "went_out": True}]
    for seat, player in enumerate(players[1:]):
        entries.append(
            {"player": player, "tiles": TILES[seat]} if by_tiles else {"player": player, "pips": 3 + seat + shift}
        )
    return {"starting_double": double, "entries": entries}


def session_cookie():
    """A logged-in browser session for the HTML pages (made the way login makes one)."""
    code = (
        "from django.contrib.sessions.backends.db import SessionStore; from accounts.models import User; "
        "from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, BACKEND_SESSION_KEY; "
        f"u = User.objects.get(email='{EMAIL}'); s = SessionStore(); s[SESSION_KEY] = str(u.pk); "
        "s[BACKEND_SESSION_KEY] = 'django.contrib.auth.backends.ModelBackend'; "
        "s[HASH_SESSION_KEY] = u.get_session_auth_hash(); s.create(); print(s.session_key)"
    )
    out = subprocess.run([PYTHON, "manage.py", "shell", "-v0", "-c", code], cwd=ROOT, env=env(), check=True,
                         capture_output=True, text=True)  # fmt: skip
    return {"Cookie": f"sessionid={out.stdout.strip().splitlines()[-1]}"}


def measure(size, requests, only=None):
    """Every path's timings at this size (`only`: the names of those to time, with their baselines)."""
    wanted = set(NAMES if only is None else [*only, *(BASELINES_OF.get(name) for name in only)])
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    token = call(conn, "POST", "/_allauth/app/v1/auth/login", {"email": EMAIL, "password": PASSWORD})["meta"][
        "session_token"
    ]
    auth = {"X-Session-Token": token}
    top = call(conn, "GET", "/api/v1/leaderboard/?sort=rating", headers=auth)["results"][0]["player"]["id"]
    finished = call(conn, "GET", "/api/v1/games/?status=finished", headers=auth)["results"]
    done = next(
        g["id"] for g in finished if len(call(conn, "GET", f"/api/v1/games/{g['id']}/", headers=auth)["rounds"]) >= 10
    )
    cookie = session_cookie()
    row = {}

    def trivial(i):
        return "GET", "/api/v1/me/", None, auth

    row["trivial"] = timed(conn, requests, trivial)
    if wanted & set(BOARD):
        row |= measure_boards(conn, requests, wanted, auth, cookie, top, trivial)
    if not wanted - set(BOARD) - {"trivial"}:
        return row
    # The writes go to a scorebook of their own, so the seeded one (leaderboard, stats) stays as seeded.
    book = call(conn, "POST", "/api/v1/scorebooks/", {"name": f"Bench writes {size}"}, auth)["id"]
    players = [
        call(conn, "POST", "/api/v1/players/", {"name": f"Bench {n}", "scorebook": book}, auth)["id"] for n in range(4)
    ]
    games = []

    def next_round(by_tiles):
        def make(i):
            if not games or games[-1]["next"] < 0:
                game = call(
                    conn, "POST", "/api/v1/games/", {"players": players, "tile_set": 12, "scorebook": book}, auth
                )
                games.append({"id": game["id"], "next": 12, "rounds": 0})
            game = games[-1]
            body = round_body(players, game["next"], by_tiles)
            game["next"] -= 1
            game["rounds"] += 1
            return "POST", f"/api/v1/games/{game['id']}/rounds/", body, auth

        return make

    names = iter(range(10**9))

    def one_row(i):
        return "POST", "/api/v1/players/", {"name": f"P{next(names)}", "scorebook": book}, auth

    row["game detail"] = timed(conn, requests, lambda i: ("GET", f"/api/v1/games/{done}/", None, auth), trivial)
    row["sheet page"] = timed(conn, requests, lambda i: ("GET", f"/games/{done}/", None, cookie), trivial)
    # The sheet page against the API's game detail of the same game, timed in turn as well.
    row["sheet vs detail"] = timed(
        conn,
        requests,
        lambda i: ("GET", f"/games/{done}/", None, cookie),
        lambda i: ("GET", f"/api/v1/games/{done}/", None, auth),
    )
    row["player stats"] = timed(conn, requests, lambda i: ("GET", f"/api/v1/players/{top}/stats/", None, auth), trivial)
    board = lambda i: ("GET", "/api/v1/leaderboard/?sort=rating", None, auth)  # noqa: E731
    season = season_of(conn, auth, top, days=90)
    read = lambda i: ("GET", f"/api/v1/seasons/{season}/", None, auth)  # noqa: E731
    row["season table"] = timed(conn, requests, read, trivial)
    row["season vs board"] = timed(conn, requests, read, board)
    season_of(conn, auth, top, days=None)
    row["season all games"] = timed(conn, requests, read, trivial)
    row["all vs board"] = timed(conn, requests, read, board)
    night = night_of(conn, auth, book)
    path = f"/api/v1/nights/{night}/"
    row["night read"] = timed(conn, requests, lambda i: ("GET", path, None, auth), trivial)
    etag = night_etag(conn, path, auth)
    row["night poll 304"] = timed(
        conn, requests, lambda i: ("GET", path, None, auth | {"If-None-Match": etag}), trivial
    )
    row["one-row create"] = timed(conn, requests, one_row)
    row["round by totals"] = timed(conn, requests, next_round(False), one_row)
    row["round by tiles"] = timed(conn, requests, next_round(True), one_row)
    if games[-1]["next"] < 0:  # the last game has just ended: start one more, to correct its round
        call(conn, *next_round(False)(0))
    game = games[-1]
    row["correct a round"] = timed(conn, requests, lambda i: (
        "PUT", f"/api/v1/games/{game['id']}/rounds/{game['rounds']}/",
        round_body(players, game["next"] + 1, False, shift=i % 2), auth,
    ), one_row)  # fmt: skip
    # A seat change against recording a round, timed in turn (issue 33: it costs no more). A late
    # player joins a game after its first round, then that change is undone, and again: each call is
    # one seat change through the one command (services.seats), the round the same round command.
    seat_game = call(conn, "POST", "/api/v1/games/", {"players": players, "tile_set": 12, "scorebook": book}, auth)
    call(conn, "POST", f"/api/v1/games/{seat_game['id']}/rounds/", round_body(players, 12, False), auth)
    late = call(conn, "POST", "/api/v1/players/", {"name": "Bench late", "scorebook": book}, auth)["id"]
    seated = [False]

    def seat_change(i):
        seated[0] = not seated[0]
        if seated[0]:
            return "POST", f"/api/v1/games/{seat_game['id']}/seats/", {"player": late}, auth
        return "DELETE", f"/api/v1/games/{seat_game['id']}/seats/changes/last/", None, auth

    row["seat change"] = timed(conn, requests, seat_change, next_round(False))
    return row


def measure_boards(conn, requests, wanted, auth, cookie, top, trivial):
    """The leaderboard, all time and filtered (issue 34: by set, period, day and season), from the API
    and as a page, each against the trivial read; a season of the last 90 days exists throughout (the
    page shows its table above the board)."""
    season = season_of(conn, auth, top, days=90)
    since = datetime.date.today() - datetime.timedelta(days=90)
    paths = {
        "leaderboard": "/api/v1/leaderboard/?sort=rating",
        "board by set": "/api/v1/leaderboard/?sort=rating&tile_set=12",
        "board this year": "/api/v1/leaderboard/?sort=rating&period=year",
        "board since": f"/api/v1/leaderboard/?sort=rating&since={since}",
        "board season": f"/api/v1/leaderboard/?sort=rating&season={season}",
    }
    row = {}
    for name, path in paths.items():
        if name in wanted:
            row[name] = timed(conn, requests, lambda i, path=path: ("GET", path, None, auth), trivial)
    pages = {"board page": "/leaderboard/", "board page by set": "/leaderboard/?tile_set=12"}
    for name, path in pages.items():
        if name in wanted:
            row[name] = timed(conn, requests, lambda i, path=path: ("GET", path, None, cookie), trivial)
    return row


def season_of(conn, auth, player, days):
    """The seeded scorebook's one season (made on first need): its last `days` days, or (None) every
    day the seeded games were played on. Its id."""
    book = call(conn, "GET", f"/api/v1/players/{player}/", headers=auth)["scorebook"]
    today = datetime.date.today()
    starts = today - datetime.timedelta(days=days or 800)
    body = {"name": "Bench season", "starts": str(starts), "ends": str(today + datetime.timedelta(days=1))}
    found = call(conn, "GET", f"/api/v1/scorebooks/{book}/seasons/", headers=auth)["results"]
    if found:
        return call(conn, "PATCH", f"/api/v1/seasons/{found[0]['id']}/", body, auth)["id"]
    return call(conn, "POST", f"/api/v1/scorebooks/{book}/seasons/", body, auth)["id"]


def night_of(conn, auth, book):
    """A club night of three tables in the writes' scorebook: 4, 5 and 6 players, a round each, the
    first table finished (its standings). Its id."""
    night = call(
        conn, "POST", f"/api/v1/scorebooks/{book}/nights/", {"name": "Bench night", "date": "2026-11-27"}, auth
    )
    for table, size in enumerate((4, 5, 6)):
        ids = [call(conn, "POST", "/api/v1/players/", {"name": f"Night {table}-{n}", "scorebook": book}, auth)["id"]
               for n in range(size)]  # fmt: skip
        body = {"players": ids, "tile_set": 12, "scorebook": book, "night": night["id"]}
        game = call(conn, "POST", "/api/v1/games/", body, auth)
        call(conn, "POST", f"/api/v1/games/{game['id']}/rounds/", round_body(ids, 12, False), auth)
        if table == 0:
            call(conn, "POST", f"/api/v1/games/{game['id']}/finish/", None, auth)
    return night["id"]


def night_etag(conn, path, auth):
    """The night's ETag, asked until the poll is answered from the cache (what a phone's polls reach
    after its first few: the night's games learned, then the session's account, then the entry)."""
    conn.request("GET", path, headers=auth)
    response = conn.getresponse()
    response.read()
    etag = response.getheader("ETag")
    for _ in range(5):
        conn.request("GET", path, headers=auth | {"If-None-Match": etag})
        answer = conn.getresponse()
        answer.read()
        if answer.status != 304:
            raise RuntimeError(f"the night's poll: {answer.status}")
    return etag


BOARD = [
    "leaderboard",
    "board by set",
    "board this year",
    "board since",
    "board season",
    "board page",
    "board page by set",
]
READS = ["game detail", "sheet page", *BOARD, "player stats", "season table", "season all games", "night read",
         "night poll 304"]  # fmt: skip
SEASON_VS_BOARD = ["season vs board", "all vs board"]
BASELINES = (
    {"sheet vs detail": "game detail"} | dict.fromkeys(READS, "trivial") | dict.fromkeys(SEASON_VS_BOARD, "leaderboard")
)
WRITES = ["round by totals", "round by tiles", "correct a round"]
BASELINES_OF = BASELINES | dict.fromkeys(WRITES, "one-row create") | {"seat change": "round by totals"}
NAMES = ["trivial", *READS, "sheet vs detail", *SEASON_VS_BOARD, "one-row create", *WRITES, "seat change"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--only", nargs="+", choices=NAMES, help="time these paths only (and their baselines)")
    parser.add_argument(
        "--seeded",
        action="store_true",
        help="the database (BENCH_DB) holds one size's games already, from an earlier run: time them, seed nothing "
        "(one --sizes value: the size it holds), to compare two versions of the code on the same games",
    )
    parser.add_argument(
        "--paper-only", action="store_true", help="bench/paper.py alone (a paper game entered afterwards)"
    )
    parser.add_argument("--no-paper", action="store_true", help="leave out bench/paper.py")
    options = parser.parse_args()
    if options.paper_only:
        paper(options.sizes)
        return

    if not options.seeded:
        fresh_database()
    else:  # this checkout's static files, as fresh_database() collects them
        manage("collectstatic", "--noinput", "-v0")
    seeded, results = 0, []
    for size in options.sizes:
        start = time.perf_counter()
        if not options.seeded:
            manage(
                "seed_demo", "--games", str(size - seeded), "--email", EMAIL, "--players", "8", "--seed", str(size),
                "-v0",
            )  # fmt: skip
            print(f"seeded {size - seeded} games in {time.perf_counter() - start:.0f} s", flush=True)
        seeded = size
        # What autovacuum does on a live server between bursts of writes.
        manage("shell", "-v0", "-c", "from django.db import connection; connection.cursor().execute('VACUUM ANALYZE')")
        server = serve()
        try:
            results.append((size, measure(size, options.requests, options.only)))
        finally:
            server.terminate()
            server.wait()

    print()
    baselines = BASELINES_OF
    shown = [name for name in NAMES if name in results[0][1]]
    print(
        f"{'games':>6} | {'endpoint':<16} | {'median ms':>9} | {'p95 ms':>7} | {'its base':>8} | {'ratio':>6} | baseline"
    )
    print("-" * 84)
    for size, row in results:
        for name in shown:
            median, p95, base = row[name]
            print(f"{size:>6} | {name:<16} | {median:>9.2f} | {p95:>7.2f} | {base:>8.2f} | {median / base:>6.2f} | "
                  f"{baselines.get(name, '')}")  # fmt: skip
    (first_size, first), (last_size, last) = results[0], results[-1]
    print()
    for name in [name for name in shown if name not in ("trivial", "one-row create")]:
        before, after = first[name][0] / first[name][2], last[name][0] / last[name][2]
        print(f"{name:<16} ratio {before:.2f} at {first_size} -> {after:.2f} at {last_size} games: "
              f"grows {after / before:.2f}x (median {last[name][0] / first[name][0]:.2f}x)")  # fmt: skip
    if not options.no_paper and options.only is None:
        paper(options.sizes)


def paper(sizes):
    """A paper game entered afterwards (issue 40): bench/paper.py prints its own figures."""
    wanted = [size for size in sizes if size >= 1000] or [1000]
    subprocess.run([PYTHON, str(ROOT / "bench" / "paper.py"), "--sizes", *map(str, wanted)], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
