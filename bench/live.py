"""Does a table full of live viewers slow the scorer down?

    .venv/bin/python bench/live.py [--viewers 200] [--rounds 20] [--workers 3]

Serves the app with gunicorn (the Procfile's command) on PostgreSQL (a throwaway database
`scorekeeper_bench` on 127.0.0.1) with the Redis cache, then twice records `--rounds` rounds of a
4-player game through the API, timing each: once with nobody watching, once while `--viewers`
simulated phones poll the game's live sheet every 2 s with If-None-Match, as the live page does.
Prints the round-recording latencies of both runs (median, p95, ratio) and how many 304s and
200s the viewers were served. A script, not a test: its figures go in docs/benchmarks.md."""

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATABASE = "scorekeeper_bench"
POLL_EVERY = 2.0
ROUND_EVERY = 5.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Api:
    def __init__(self, port: int):
        self.port = port
        self.token = None

    def call(self, method: str, path: str, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        sent = {"Content-Type": "application/json", **(headers or {})}
        if self.token:
            sent["X-Session-Token"] = self.token
        connection.request(method, path, json.dumps(body) if body is not None else None, sent)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, response.getheader("ETag"), data


def recreate_database():
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {DATABASE}")


def viewer(port: int, path: str, stop: threading.Event, counts: dict, lock: threading.Lock, seed: int):
    rng = random.Random(seed)
    time.sleep(rng.uniform(0, POLL_EVERY))  # phones join at different moments
    etag = None
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while not stop.is_set():
        started = time.monotonic()
        try:
            connection.request("GET", path, headers={"If-None-Match": etag} if etag else {})
            response = connection.getresponse()
            response.read()
            status = response.status
            etag = response.getheader("ETag") or etag
        except (OSError, http.client.HTTPException):
            status = "error"
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        with lock:
            counts[status] = counts.get(status, 0) + 1
        stop.wait(max(0.0, POLL_EVERY - (time.monotonic() - started)))
    connection.close()


def run(api: Api, port: int, viewers: int, rounds: int, seed: int) -> dict:
    from scorekeeper.demo import play_game
    from scorekeeper.rules.game import GameRules

    names = [f"P{seed}-{i}" for i in range(4)]
    ids = [json.loads(api.call("POST", "/api/v1/players/", {"name": name})[2])["id"] for name in names]
    rules = GameRules(tile_set=12, extended=True)  # 25 rounds: room for 20
    status, _, body = api.call("POST", "/api/v1/games/", {"players": ids, "tile_set": 12, "rules": {"extended": True}})
    game = json.loads(body)["id"]
    token = json.loads(api.call("POST", f"/api/v1/games/{game}/share/")[2])["token"]
    dealt = play_game(rules, ids, random.Random(seed))[:rounds]

    stop, lock, counts = threading.Event(), threading.Lock(), {}
    threads = [
        threading.Thread(target=viewer, args=(port, f"/live/{token}/sheet/", stop, counts, lock, i), daemon=True)
        for i in range(viewers)
    ]
    for thread in threads:
        thread.start()
    time.sleep(POLL_EVERY * 1.5 if viewers else 0)  # every viewer has the sheet once
    timings = []
    for starting, entries in dealt:
        payload = {
            "starting_double": starting,
            "entries": [
                {"player": e.player, "pips": e.pips, "tiles_left": e.tiles_left, "double_blank": e.double_blank,
                 "went_out": e.went_out, "ended_on_double": e.ended_on_double}
                for e in entries
            ],
        }  # fmt: skip
        began = time.perf_counter()
        status, _, body = api.call("POST", f"/api/v1/games/{game}/rounds/", payload)
        timings.append((time.perf_counter() - began) * 1000)
        if status != 201:
            raise SystemExit(f"recording failed: {status} {body[:300]!r}")
        time.sleep(ROUND_EVERY)  # the table plays the next round (minutes in real life)
    stop.set()
    for thread in threads:
        thread.join(timeout=10)
    return {"timings": timings, "counts": counts}


def p95(values):
    return statistics.quantiles(values, n=20, method="inclusive")[18]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=3)
    args = parser.parse_args()

    recreate_database()
    static = tempfile.mkdtemp(prefix="bench-static-")
    env = os.environ | {
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/7"),
        "SECRET_KEY": "bench-only-not-secret",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "STATIC_ROOT": static,
        "MAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",  # the sign-up mail goes nowhere
        "TASK_BACKEND": "django.tasks.backends.immediate.ImmediateBackend",
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
        # Every simulated phone polls from 127.0.0.1; real ones come from many addresses.
        "LIVE_REQUESTS_PER_MINUTE": "1000000",
    }
    manage = [sys.executable, "manage.py"]
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run(manage + command, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    os.environ.update(env)
    import django

    django.setup()
    port = free_port()
    gunicorn = Path(sys.executable).with_name("gunicorn")
    server = subprocess.Popen(
        [str(gunicorn), "scorekeeper.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", str(args.workers),
         "--no-control-socket", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    try:
        api = Api(port)
        for _ in range(100):
            try:
                _, _, body = api.call(
                    "POST",
                    "/_allauth/app/v1/auth/signup",
                    {"email": "bench@example.com", "password": "domino-night-77"},
                )
                break
            except OSError:
                time.sleep(0.2)
        api.token = json.loads(body)["meta"]["session_token"]
        for _ in range(10 * args.workers):  # every worker has loaded the app before anything is timed
            api.call("GET", "/api/v1/games/")
        quiet = run(api, port, 0, args.rounds, seed=1)
        busy = run(api, port, args.viewers, args.rounds, seed=2)
    finally:
        server.terminate()
        server.wait()

    print(f"gunicorn, {args.workers} workers, PostgreSQL + Redis; {args.rounds} rounds of a 4-player double-12 game")
    for label, result in (("no viewers", quiet), (f"{args.viewers} viewers", busy)):
        t = result["timings"]
        print(f"{label:>12}: record a round median {statistics.median(t):6.1f} ms, p95 {p95(t):6.1f} ms")
    ratio = p95(busy["timings"]) / p95(quiet["timings"])
    print(f"p95 with viewers / without: {ratio:.2f}x")
    counts = busy["counts"]
    total = sum(counts.values())
    print(f"viewer requests: {total} ({counts.get(304, 0)} x 304, {counts.get(200, 0)} x 200, "
          f"{sum(v for k, v in counts.items() if k not in (200, 304))} other: {counts})")  # fmt: skip


if __name__ == "__main__":
    main()
