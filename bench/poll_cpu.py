"""The CPU one poll answered from the cache costs, in-process: less sensitive to a busy machine than
ApacheBench, and with a profile of where the time goes.

    .venv/bin/python bench/poll_cpu.py [--polls 20000] [--repeats 5] [--profile 30]

Run from the root of the tree to measure (any commit whose WSGI application is
`scorekeeper.wsgi:application`; copy this file there for an older one). It starts a redis-server of
its own on a free port (so the Redis figure is the poll's alone, not the machine's other users'),
migrates a SQLite database under /tmp, signs up as bench/capacity.py does, reads the game once in
full (which remembers the session, its access and the version) and then calls the WSGI application
with a conditional GET of the game built as gunicorn builds it, the member poll ab sends in
bench/capacity.py (an app token, keep-alive, HTTP/1.0). Prints, per poll, the best of --repeats
rounds: this process's CPU (time.process_time, and the user part of it), the wall time, and Redis's own CPU (INFO cpu);
then the top of a cProfile of one round, sorted by own time, when --profile N is given.
"""

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import resource
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def environ(method: str, path: str, headers: dict, body: bytes = b"") -> dict:
    """What gunicorn hands the application for one request from ab."""
    env = {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "RAW_URI": path,
        "SERVER_PROTOCOL": "HTTP/1.0",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "REMOTE_ADDR": "127.0.0.1",
        "REMOTE_PORT": "50000",
        "HTTP_HOST": "127.0.0.1:8000",
        "HTTP_USER_AGENT": "ApacheBench/2.3",
        "HTTP_ACCEPT": "*/*",
        "HTTP_CONNECTION": "Keep-Alive",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if body:
        env["CONTENT_LENGTH"], env["CONTENT_TYPE"] = str(len(body)), "application/json"
    for name, value in headers.items():
        env["HTTP_" + name.upper().replace("-", "_")] = value
    return env


def call(app, method: str, path: str, headers: dict | None = None, body=None):
    seen = {}

    def start_response(status, response_headers, exc_info=None):
        seen["status"], seen["headers"] = int(status.split()[0]), dict(response_headers)

    data = json.dumps(body).encode() if body is not None else b""
    chunks = app(environ(method, path, {"Accept": "application/json", **(headers or {})}, data), start_response)
    content = b"".join(chunks)
    if hasattr(chunks, "close"):
        chunks.close()
    return seen["status"], seen["headers"], content


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--polls", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--profile", type=int, default=0, help="print the top N functions of a cProfile")
    args = parser.parse_args()

    port, folder = free_port(), Path(tempfile.mkdtemp(prefix="sk-poll-cpu-"))
    redis_server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        measure(args, port, folder)
    finally:
        redis_server.terminate()
        redis_server.wait()
        shutil.rmtree(folder, ignore_errors=True)


def measure(args, port: int, folder: Path) -> None:
    os.environ.update(
        SECRET_KEY="poll-cpu-" + secrets.token_urlsafe(40),
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        REDIS_URL=f"redis://127.0.0.1:{port}/0",
        ALLOWED_HOSTS="localhost,127.0.0.1",
        STATIC_ROOT=str(folder / "static"),
        MAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        LOG_LEVEL="WARNING",
    )
    for name in ("DJANGO_SETTINGS_MODULE", "DEBUG"):
        os.environ.pop(name, None)
    import redis
    from django.core.management import call_command

    for _ in range(100):
        try:
            redis.Redis(port=port).ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    from scorekeeper.wsgi import application

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)

    from scorekeeper.demo import play_game
    from scorekeeper.rules.game import GameRules

    email, password = "cpu@example.com", "domino-night-77"
    assert (
        call(application, "POST", "/_allauth/app/v1/auth/signup", None, {"email": email, "password": password})[0]
        == 200
    )
    login = call(application, "POST", "/_allauth/app/v1/auth/login", None, {"email": email, "password": password})
    token = {"X-Session-Token": json.loads(login[2])["meta"]["session_token"]}
    players = [
        json.loads(call(application, "POST", "/api/v1/players/", token, {"name": name})[2])["id"]
        for name in ("Ann", "Ben", "Cy", "Dot")
    ]
    game = json.loads(call(application, "POST", "/api/v1/games/", token, {"players": players, "tile_set": 12})[2])
    for starting, entries in play_game(GameRules(tile_set=12), players, random.Random(25))[:6]:
        fields = ("player", "pips", "tiles_left", "double_blank", "went_out", "ended_on_double")
        body = {"starting_double": starting, "entries": [{f: getattr(e, f) for f in fields} for e in entries]}
        assert call(application, "POST", f"/api/v1/games/{game['id']}/rounds/", token, body)[0] == 201
    path = f"/api/v1/games/{game['id']}/"
    full = call(application, "GET", path, token)
    assert full[0] == 200, full
    headers = token | {"If-None-Match": full[1]["ETag"]}
    answer = call(application, "GET", path, headers)
    assert answer[0] == 304, answer

    def start_response(status, response_headers, exc_info=None):
        if status[:3] != "304":
            raise SystemExit(f"a poll answered {status}")

    poll_environ = environ("GET", path, {"Accept": "*/*", **headers})

    def polls(n: int) -> None:
        for _ in range(n):
            env = dict(poll_environ)  # gunicorn makes a new one per request
            env["wsgi.input"] = io.BytesIO(b"")
            chunks = application(env, start_response)
            b"".join(chunks)

    server = redis.Redis(port=port)

    def redis_cpu() -> float:
        info = server.info("cpu")
        return info["used_cpu_user"] + info["used_cpu_sys"]

    def user_time() -> float:
        return resource.getrusage(resource.RUSAGE_SELF).ru_utime

    polls(2000)  # warm-up
    results = []
    for _ in range(args.repeats):
        cpu, user, wall, redis_before = time.process_time(), user_time(), time.perf_counter(), redis_cpu()
        polls(args.polls)
        cpu, user, wall = time.process_time() - cpu, user_time() - user, time.perf_counter() - wall
        results.append((cpu, user, wall, redis_cpu() - redis_before))
    per = 1e6 / args.polls
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    print(f"tree {ROOT} at {commit.stdout.strip()}")
    print(f"{args.polls} member polls x {args.repeats}: µs per poll (each round; best first)")
    for name, index in (("process CPU", 0), ("of it user", 1), ("wall", 2), ("Redis CPU", 3)):
        figures = sorted(result[index] * per for result in results)
        every = " ".join(f"{f:.1f}" for f in figures)
        print(f"  {name:12} best {figures[0]:7.1f}  median {figures[len(figures) // 2]:7.1f}  all {every}")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        polls(args.polls)
        profile.disable()
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(args.profile)
        print(out.getvalue())
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.profile)
        print(out.getvalue())


if __name__ == "__main__":
    main()
