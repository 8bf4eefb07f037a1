"""Benchmark: leaderboard and player stats against a trivial authenticated endpoint, under gunicorn.

Seeds 100, then 1,000, then 10,000 finished games for one user in a PostgreSQL database of its
own, serves the app with gunicorn after each step, and times sequential requests to:
  /api/v1/me/                     trivial: token lookup and the user, nothing else
  /api/v1/leaderboard/            every player's figures over finished games
  /api/v1/players/{id}/stats/     one player's figures, per starting double, head to head
It prints each endpoint's median and 95th percentile latency and its ratio to the trivial one.

    .venv/bin/python bench/run.py [--sizes 100 1000 10000] [--requests 200]
"""

import argparse
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
DB = "scorekeeper_bench"
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
PORT = 8765
EMAIL, PASSWORD = "bench@example.com", "table-talk-42"


def env():
    return os.environ | {
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB}",
        "SECRET_KEY": "benchmark-only",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
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


def call(conn, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"} | ({"X-Session-Token": token} if token else {})
    conn.request(method, path, body=json.dumps(body) if body else None, headers=headers)
    response = conn.getresponse()
    data = response.read()
    if response.status >= 400:
        raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
    return json.loads(data) if data else None


def timings(conn, path, token, requests):
    for _ in range(10):  # warm up: connections, caches, query plans
        call(conn, "GET", path, token=token)
    samples = []
    for _ in range(requests):
        start = time.perf_counter()
        call(conn, "GET", path, token=token)
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95) - 1]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--requests", type=int, default=200)
    options = parser.parse_args()

    fresh_database()
    seeded, results = 0, []
    for size in options.sizes:
        start = time.perf_counter()
        manage(
            "seed_demo", "--games", str(size - seeded), "--email", EMAIL, "--players", "8", "--seed", str(size), "-v0"
        )
        print(f"seeded {size - seeded} games in {time.perf_counter() - start:.0f} s", flush=True)
        seeded = size
        # What autovacuum does on a live server between bursts of writes: the records table is
        # small and updated once per finished game, so a bulk seed leaves it full of dead rows.
        manage("shell", "-v0", "-c", "from django.db import connection; connection.cursor().execute('VACUUM ANALYZE')")
        server = serve()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
            token = call(conn, "POST", "/_allauth/app/v1/auth/login", {"email": EMAIL, "password": PASSWORD})["meta"][
                "session_token"
            ]
            top = call(conn, "GET", "/api/v1/leaderboard/", token=token)["results"][0]["player"]["id"]
            row = {"games": size}
            for name, path in (("trivial", "/api/v1/me/"), ("leaderboard", "/api/v1/leaderboard/"),
                               ("stats", f"/api/v1/players/{top}/stats/")):  # fmt: skip
                row[name] = timings(conn, path, token, options.requests)
            results.append(row)
        finally:
            server.terminate()
            server.wait()

    print()
    print(f"{'games':>6} | {'endpoint':<11} | {'median ms':>9} | {'p95 ms':>7} | {'x trivial':>9}")
    print("-" * 56)
    for row in results:
        base = row["trivial"][0]
        for name in ("trivial", "leaderboard", "stats"):
            median, p95 = row[name]
            print(f"{row['games']:>6} | {name:<11} | {median:>9.2f} | {p95:>7.2f} | {median / base:>9.2f}")
    first, last = results[0], results[-1]
    for name in ("leaderboard", "stats"):
        growth = last[name][0] / first[name][0]
        print(f"{name}: median grows {growth:.2f}x from {first['games']} to {last['games']} games")


if __name__ == "__main__":
    main()
