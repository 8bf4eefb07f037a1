"""What one box holds: the cost of a poll against the trivial read, and a club night of polling phones.

    .venv/bin/python bench/capacity.py [--quick] [--seconds 20] [--phones 100 200 400 800 1200 1600]
        [--web "gunicorn scorekeeper.wsgi --bind 0.0.0.0:$PORT --workers 2 ..."]

Builds the app as a deploy does: a PostgreSQL database of its own (`sk_capacity`, dropped and made
again), Redis db 9 (flushed), the Procfile's release line, then its web line with $PORT (DEBUG off,
the manifest static storage in a folder of its own under /tmp). `--web` runs another web line
instead, started the same way (for a sweep of worker classes, workers and threads; printed). Nothing else is dropped; gunicorn is
stopped at the end, on Ctrl-C and on errors. Needs wrk (Debian's wrk), or ApacheBench (`ab`,
Debian's apache2-utils) with `--client ab`.

Part 1, the table of issue 25: wrk (HTTP/1.1, one thread; `--client ab`: ApacheBench, HTTP/1.0,
which uvicorn never keeps alive), 16 clients with keep-alive, the same seconds on every path, in one run (after an unreported warm-up, in --passes runs of ab per path, forward then backward
in turn, so a busy moment of the machine lands on several paths; and since each run's 16 connections
fall on gunicorn's two workers as they happen to, 15 on one and 1 on the other giving two thirds of
8 and 8, the figure of each run is printed too), on a double-12 game for 4 with 6 rounds and a live link:
  trivial read           GET /api/v1/me/ (app token, X-Session-Token)
  member poll 304        GET /api/v1/games/{id}/ with If-None-Match
  viewer poll 304        GET /api/v1/live/{token}/ with If-None-Match
  live JSON 200          GET /api/v1/live/{token}/
  member game detail 200 GET /api/v1/games/{id}/
  sheet page 200         GET /games/{id}/ (browser session cookie, from allauth's headless browser login)
Every answer's status is counted from the server's access log (the web line writes one; ab's own
"Non-2xx responses" missed most 304s here, and its -v 2 printing cost the server CPU); a path with
any answer other than the one it expects, or a request ab counts as failed, is shouted about under
the table. All of ab's clients come from
127.0.0.1, and the live view allows LIVE_REQUESTS_PER_MINUTE (300) per address and link: the run
raises it (`--live-budget`, stated in the output) so the budget is still checked on every request
but never refuses; `--live-budget 300` shows the 429s instead.

Part 2, a club night: N phones on tables of 4 to 6 (one account per table, one app session per
phone, every phone a player of the table's double-12 game), each phone polling its game every 2 s
with the ETag it has (a 200 after each round, 304s otherwise), from a child process (asyncio, one
connection per phone, kept while the server keeps it). A step is measured in the steady state,
once every phone has had an answer (its first poll goes the full way: its session is not yet
known to the cache) and one more poll period has passed. Meanwhile every table records a real round
(dealt from the tiles by scorekeeper.demo) every 3 minutes: table i at offset_i + k * 180 s, offset_i
uniform in [0, 180), for as long as the step lasts (at least --duration s, longer when there are too
few tables to record --min-rounds rounds at that rate). The p95 of recording a round (POST
/api/v1/games/{id}/rounds/, connection included) is compared with its idle value (rounds one at a
time, nobody polling; measured before and after the steps, pooled). The most phones the box holds:
the largest N with round p95 <= 1.5x idle, no failed request, and at least 95% of the polls asked
for answered. The phones' client shares the 2 cores with the server: its CPU time is printed.
"""

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import random
import re
import resource
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "sk_capacity"
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/9"
EMAIL, PASSWORD = "capacity@example.com", "domino-night-77"
POLL_EVERY = 2.0
LOG = Path(tempfile.gettempdir()) / "sk-capacity-gunicorn.log"


def server_env(live_budget: int) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DEBUG", "STATIC_ROOT"}}
    return clean | {
        "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
        "SECRET_KEY": "capacity-" + secrets.token_urlsafe(40),
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        "REDIS_URL": REDIS_URL,
        "ALLOWED_HOSTS": "localhost,127.0.0.1",
        "STATIC_ROOT": str(Path(tempfile.gettempdir()) / "sk-capacity-static"),
        "MAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",  # the sign-up mail goes nowhere
        "LIVE_REQUESTS_PER_MINUTE": str(live_budget),
    }


def procfile(kind: str) -> str:
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{kind}:"):
            return line.split(":", 1)[1].strip()
    raise SystemExit(f"the Procfile has no {kind} line")


def fresh_stores() -> None:
    import psycopg
    import redis

    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{DATABASE}"')
    redis.Redis.from_url(REDIS_URL).flushdb()


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """The Procfile's web line (or --web's), as the deploy starts it (`bash -c "exec $web"` with PORT set)."""

    def __init__(self, env: dict, command: str | None = None):
        self.port = free_port()
        self.command = command or procfile("web")
        self.shown = subprocess.run(
            ["bash", "-c", f'echo "{self.command}"'], env=env | {"PORT": str(self.port)}, capture_output=True, text=True
        ).stdout.strip()
        self.log = LOG.open("w")
        self.process = subprocess.Popen(
            ["bash", "-c", f"exec {self.command}"], cwd=ROOT, env=env | {"PORT": str(self.port)},
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def wait_healthy(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"gunicorn exited with {self.process.returncode}: see {LOG}")
            try:
                if call(self.port, "GET", "/healthz/")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.25)
        raise SystemExit(f"gunicorn never became healthy: see {LOG}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # its own session: the master and its workers
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


def call(port: int, method: str, path: str, body=None, headers=None):
    """(status, headers, parsed JSON or raw bytes) over a connection of its own."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        sent = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
        connection.request(method, path, json.dumps(body) if body is not None else None, sent)
        response = connection.getresponse()
        data = response.read()
    finally:
        connection.close()
    if data and (response.getheader("Content-Type") or "").startswith("application/json"):
        data = json.loads(data)
    return response.status, response, data


def expect(answer, status: int, what: str):
    if answer[0] != status:
        raise SystemExit(f"{what}: expected {status}, got {answer[0]}: {str(answer[2])[:400]}")
    return answer


def round_payload(starting: int, entries) -> dict:
    fields = ("player", "pips", "tiles_left", "double_blank", "went_out", "ended_on_double")
    return {"starting_double": starting, "entries": [{f: getattr(e, f) for f in fields} for e in entries]}


# Part 1: a load generator on each path.


def seed_reads(port: int) -> dict:
    """The account, its app token and a browser session, a game of 6 rounds and its live link."""
    from scorekeeper.demo import play_game
    from scorekeeper.rules.game import GameRules

    expect(call(port, "POST", "/_allauth/app/v1/auth/signup", {"email": EMAIL, "password": PASSWORD}), 200, "sign-up")
    login = call(port, "POST", "/_allauth/app/v1/auth/login", {"email": EMAIL, "password": PASSWORD})
    token = {"X-Session-Token": expect(login, 200, "app login")[2]["meta"]["session_token"]}
    players = [
        expect(call(port, "POST", "/api/v1/players/", {"name": name}, token), 201, "player")[2]["id"]
        for name in ("Ann", "Ben", "Cy", "Dot")
    ]
    game = expect(call(port, "POST", "/api/v1/games/", {"players": players, "tile_set": 12}, token), 201, "game")[2]
    for starting, entries in play_game(GameRules(tile_set=12), players, random.Random(25))[:6]:
        body = round_payload(starting, entries)
        expect(call(port, "POST", f"/api/v1/games/{game['id']}/rounds/", body, token), 201, "round")
    live = expect(call(port, "POST", f"/api/v1/games/{game['id']}/share/", None, token), 201, "live link")[2]["token"]
    detail = f"/api/v1/games/{game['id']}/"
    member_etag = expect(call(port, "GET", detail, None, token), 200, "game detail")[1].getheader("ETag")
    live_etag = expect(call(port, "GET", f"/api/v1/live/{live}/"), 200, "live JSON")[1].getheader("ETag")
    expect(call(port, "GET", detail, None, token | {"If-None-Match": member_etag}), 304, "member poll")
    expect(call(port, "GET", f"/api/v1/live/{live}/", None, {"If-None-Match": live_etag}), 304, "viewer poll")
    cookie = browser_session(port)
    page = call(port, "GET", f"/games/{game['id']}/", None, {"Cookie": cookie, "Accept": "text/html"})
    if page[0] != 200 or b'id="sheet"' not in page[2]:
        raise SystemExit(f"the sheet page with the browser session: {page[0]} {page[2][:300]!r}")
    return {"game": game["id"], "live": live, "token": token["X-Session-Token"], "cookie": cookie,
            "member_etag": member_etag, "live_etag": live_etag}  # fmt: skip


def browser_session(port: int) -> str:
    """A browser's cookies after allauth's headless browser login (CSRF cookie first, as its page gets it)."""
    cookies = {}

    def keep(response):
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                cookies[name] = rest.split(";", 1)[0]

    keep(call(port, "GET", "/accounts/login/", None, {"Accept": "text/html"})[1])
    csrf = cookies["csrftoken"]
    answer = call(port, "POST", "/_allauth/browser/v1/auth/login", {"email": EMAIL, "password": PASSWORD},
                  {"X-CSRFToken": csrf, "Cookie": f"csrftoken={csrf}"})  # fmt: skip
    expect(answer, 200, "browser login")
    keep(answer[1])
    return "; ".join(f"{name}={value}" for name, value in cookies.items() if name in ("csrftoken", "sessionid"))


def read_paths(seeded: dict) -> list[tuple[str, str, list[str], int]]:
    game, live, auth = seeded["game"], seeded["live"], f"X-Session-Token: {seeded['token']}"
    return [
        ("trivial read `GET /api/v1/me/`", "/api/v1/me/", [auth], 200),
        ("member poll, `GET /api/v1/games/<id>/` → 304", f"/api/v1/games/{game}/",
         [auth, f"If-None-Match: {seeded['member_etag']}"], 304),
        ("viewer poll, `GET /api/v1/live/<t>/` → 304", f"/api/v1/live/{live}/",
         [f"If-None-Match: {seeded['live_etag']}"], 304),
        ("live JSON 200", f"/api/v1/live/{live}/", [], 200),
        ("member game detail 200", f"/api/v1/games/{game}/", [auth], 200),
        ("sheet page 200", f"/games/{game}/", [f"Cookie: {seeded['cookie']}", "Accept: text/html"], 200),
    ]  # fmt: skip


def ab(port: int, path: str, headers: list[str], seconds: int, clients: int) -> dict:
    """One ApacheBench run: requests, seconds, keep-alive requests, and every answer's status as the
    server's access log wrote it (the lines for `path` the run added). ab prints no answer (at -v 2
    its printing, read as it came, took a third of a core from the server at 2,000 requests a
    second, more than the cheapest answers cost)."""
    command = ["ab", "-k", "-l", "-q", "-c", str(clients), "-t", str(seconds), "-n", "10000000"]
    for header in headers:
        command += ["-H", header]
    command.append(f"http://127.0.0.1:{port}{path}")
    start = settled_log()
    run = subprocess.run(command, capture_output=True, text=True, errors="replace")
    summary = [line for line in run.stdout.splitlines()
               if re.match(r"(Complete|Failed|Keep-Alive) requests:|Time taken for tests:", line)]  # fmt: skip
    figures = {label: float(re.search(r"([\d.]+)", line)[1]) for line in summary for label in [line.split(":")[0]]}
    if run.returncode != 0 or "Complete requests" not in figures:
        raise SystemExit(f"ab failed ({run.returncode}): {' '.join(command)}\n{run.stderr[-2000:]}")
    return {"complete": int(figures["Complete requests"]), "failed": int(figures["Failed requests"]),
            "kept": int(figures.get("Keep-Alive requests", 0)), "seconds": figures["Time taken for tests"],
            "statuses": logged_statuses(path, start, int(figures["Complete requests"]))}  # fmt: skip


def wrk(port: int, path: str, headers: list[str], seconds: int, clients: int) -> dict:
    """One wrk run (HTTP/1.1, every connection kept alive, one thread as ab is one process): the
    same figures as `ab`. ab speaks HTTP/1.0, and uvicorn (the Procfile's worker) closes an HTTP/1.0
    connection after each answer whatever its Keep-Alive says, so under ab every request there paid
    a new connection; phones and browsers speak HTTP/1.1. A socket error or an answer outside 2xx
    and 3xx counts as failed (the statuses still come from the access log)."""
    command = ["wrk", "-t", "1", "-c", str(clients), "-d", f"{seconds}s", "--timeout", "10s"]
    for header in headers:
        command += ["-H", header]
    command.append(f"http://127.0.0.1:{port}{path}")
    start = settled_log()
    run = subprocess.run(command, capture_output=True, text=True, errors="replace")
    done = re.search(r"(\d+) requests in ([\d.]+)(ms|s|m)", run.stdout)
    if run.returncode != 0 or done is None:
        raise SystemExit(
            f"wrk failed ({run.returncode}): {' '.join(command)}\n{run.stdout[-2000:]}{run.stderr[-2000:]}"
        )
    complete, unit = int(done[1]), {"ms": 0.001, "s": 1.0, "m": 60.0}[done[3]]
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", run.stdout)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", run.stdout)
    failed = (sum(map(int, errors.groups())) if errors else 0) + (int(non_2xx[1]) if non_2xx else 0)
    return {"complete": complete, "failed": failed, "kept": max(0, complete - clients),
            "seconds": float(done[2]) * unit, "statuses": logged_statuses(path, start, complete)}  # fmt: skip


CLIENTS = {"wrk": wrk, "ab": ab}


def settled_log() -> int:
    """The access log's size once the answers of the run before are all in it (the requests a run
    left in flight when its time was up are logged after it ends): no line for 0.5 s."""
    size = LOG.stat().st_size
    while True:
        time.sleep(0.5)
        if (now := LOG.stat().st_size) == size:
            return size
        size = now


def logged_statuses(path: str, start: int, expected: int) -> dict:
    """{status: count} of the GETs of `path` in the access log after byte `start` (waiting up to
    5 s for its last lines); {} when the web line keeps no access log."""
    line = re.compile(rf'"GET {re.escape(path)} HTTP/[\d.]+" (\d{{3}})(?: |$)')
    deadline, statuses = time.monotonic() + 5, {}
    while time.monotonic() < deadline:
        statuses = {}
        with LOG.open(errors="replace") as log:
            log.seek(start)
            for found in filter(None, map(line.search, log)):
                statuses[int(found[1])] = statuses.get(int(found[1]), 0) + 1
        if sum(statuses.values()) >= expected:
            break
        time.sleep(0.2)
    return statuses


def measure_reads(port: int, seeded: dict, seconds: int, clients: int, warm: int, passes: int,
                  client: str = "wrk") -> list[dict]:  # fmt: skip
    paths, load = read_paths(seeded), CLIENTS[client]
    for _, path, headers, _ in paths:
        load(port, path, headers, warm, clients)  # workers, caches, query plans: not counted
    totals = {name: {"name": name, "expected": status, "statuses": {}} for name, _, _, status in paths}
    for turn in range(passes):  # forward, backward, forward ...
        for name, path, headers, _ in paths if turn % 2 == 0 else paths[::-1]:
            result = load(port, path, headers, max(1, seconds // passes), clients)
            total = totals[name]
            total.setdefault("rates", []).append(result["complete"] / result["seconds"])
            for key in ("complete", "failed", "kept", "seconds"):
                total[key] = total.get(key, 0) + result[key]
            for code, count in result["statuses"].items():
                total["statuses"][code] = total["statuses"].get(code, 0) + count
    return list(totals.values())


def print_reads(totals: list[dict], clients: int, seconds: int, passes: int, live_budget: int,
                client: str = "wrk") -> None:  # fmt: skip
    how = "wrk, HTTP/1.1 kept alive" if client == "wrk" else "ApacheBench, HTTP/1.0, -k"
    print(f"\n## Part 1: {how}, {clients} clients, {max(1, seconds // passes) * passes} s per path "
          f"({passes} passes)\n")  # fmt: skip
    print("| path | req/s | vs the trivial read | each pass, req/s | requests | answers | kept alive |")
    print("|---|---|---|---|---|---|---|")
    base = totals[0]["complete"] / totals[0]["seconds"]
    trouble = []
    for total in totals:
        rate = total["complete"] / total["seconds"]
        statuses = total["statuses"]
        answers = ", ".join(f"{count} x {code}" for code, count in sorted(statuses.items()))
        passes_ = " ".join(f"{rate:.0f}" for rate in total["rates"])
        print(f"| {total['name']} | {rate:.0f} | {rate / base:.2f}x | {passes_} | {total['complete']} | {answers} | "
              f"{total['kept']} |")  # fmt: skip
        wrong = sum(count for code, count in statuses.items() if code != total["expected"])
        # A run that ends on its time limit leaves up to one answer per client read but not counted complete.
        uncounted = sum(statuses.values()) - total["complete"]
        if wrong or total["failed"] or not 0 <= uncounted <= 2 * clients * len(total["rates"]):
            trouble.append(f"{total['name']}: {wrong} answers other than {total['expected']} ({answers}); ab: "
                           f"{total['complete']} complete, {total['failed']} failed")  # fmt: skip
    print(f"\nThe live view's budget for the run: LIVE_REQUESTS_PER_MINUTE={live_budget} (every client is "
          "127.0.0.1; the budget is still counted in the cache on every live request).")  # fmt: skip
    if trouble:
        print("\n!!! ERRORS: these figures include answers other than the ones asked for !!!")
        for line in trouble:
            print(f"!!! {line}")
    else:
        print(f"Every answer was the expected one (no error, no 429), as {client} counted them too.")


# Part 2: the club night.


def make_tables(port: int, phones: int, rng: random.Random) -> list[dict]:
    """Tables of 4 to 6 phones until there are `phones`: an account each (made in the database; the
    sign-up's password hashing is not what is measured), one app session per phone made by allauth's
    own token strategy, the players and the game made through the API."""
    import django.contrib.auth
    from allauth.headless import app_settings
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import RequestFactory
    from django.utils.module_loading import import_string

    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")
    sizes = []
    while sum(sizes) < phones:
        sizes.append(rng.randint(4, 6))
    tables = []
    for number, size in enumerate(sizes):
        user = get_user_model().objects.create(email=f"table{number}@example.com")
        tokens = []
        for _ in range(size):
            request = RequestFactory().get("/")
            request.session = store()
            django.contrib.auth.login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            request.session.save()  # login() gives a new session its key but saves what it holds at the answer
            tokens.append(app_settings.TOKEN_STRATEGY.create_session_token(request))
        tables.append({"tokens": tokens, "seed": rng.randrange(10**9)})

    def build(table):
        auth = {"X-Session-Token": table["tokens"][0]}
        names = ["Ann", "Ben", "Cy", "Dot", "Eve", "Fay"][: len(table["tokens"])]
        table["players"] = [
            expect(call(port, "POST", "/api/v1/players/", {"name": n}, auth), 201, "player")[2]["id"] for n in names
        ]
        new_game(port, table)

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(build, tables))
    return tables


def new_game(port: int, table: dict) -> None:
    """The table's next double-12 game, and its rounds dealt from the tiles (the last one ends it)."""
    from scorekeeper.demo import play_game
    from scorekeeper.rules.game import GameRules

    auth, players = {"X-Session-Token": table["tokens"][0]}, table["players"]
    game = expect(call(port, "POST", "/api/v1/games/", {"players": players, "tile_set": 12}, auth), 201, "game")
    table["seed"] += 1
    table |= {"game": game[2]["id"], "etag": game[1].getheader("ETag"), "next": 0,
              "deals": play_game(GameRules(tile_set=12), players, random.Random(table["seed"]))}  # fmt: skip


def record(port: int, table: dict) -> tuple[float, int]:
    """The table's next round, timed from the connection to the whole answer."""
    if table["next"] == len(table["deals"]):  # the game is over (only a long step gets there): the next one
        new_game(port, table)
    starting, entries = table["deals"][table["next"]]
    table["next"] += 1
    body = json.dumps(round_payload(starting, entries))
    headers = {"Content-Type": "application/json", "X-Session-Token": table["tokens"][0]}
    began = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("POST", f"/api/v1/games/{table['game']}/rounds/", body, headers)
        response = connection.getresponse()
        response.read()
        status = response.status
    except (OSError, http.client.HTTPException):
        status = 0
    finally:
        connection.close()
    return (time.perf_counter() - began) * 1000, status


def idle_rounds(port: int, tables: list[dict], count: int) -> tuple[list[float], int]:
    times, errors = [], 0
    for n in range(count):
        elapsed, status = record(port, tables[n % len(tables)])
        times.append(elapsed)
        errors += status != 201
        time.sleep(0.2)
    return times, errors


def scheduled_rounds(port: int, tables: list[dict], seconds: float, every: float, rng: random.Random):
    """Every table records a round at its offset + k * every, for `seconds`; the rounds run side by side."""
    due = []
    for n in range(len(tables)):
        at = rng.uniform(0, every)
        while at < seconds:
            due.append((at, n))
            at += every
    due.sort()
    results, threads, start = [], [], time.monotonic()
    for at, n in due:
        time.sleep(max(0.0, start + at - time.monotonic()))
        thread = threading.Thread(target=lambda n=n: results.append(record(port, tables[n])))
        thread.start()
        threads.append(thread)
    time.sleep(max(0.0, start + seconds - time.monotonic()))
    for thread in threads:
        thread.join()
    return [elapsed for elapsed, _ in results], sum(status != 201 for _, status in results)


def seated(tables: list[dict], phones: int) -> list[tuple[dict, int]]:
    """The first tables that hold `phones` phones, and how many of each table's phones are there."""
    used, left = [], phones
    for table in tables:
        if left <= 0:
            break
        used.append((table, min(left, len(table["tokens"]))))
        left -= used[-1][1]
    return used


def club_step(port: int, used: list[tuple[dict, int]], seconds: float, every: float, rng: random.Random) -> dict:
    config = {"port": port, "seed": rng.randrange(10**9),
              "phones": [[table["game"], token, table["etag"]] for table, k in used for token in table["tokens"][:k]]}  # fmt: skip
    child = subprocess.Popen([sys.executable, __file__, "--phones-child"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        child.stdin.write(json.dumps(config))
        child.stdin.close()
        if child.stdout.readline().strip() != "ready":
            raise SystemExit("the phones never got going")
        times, errors = scheduled_rounds(port, [table for table, _ in used], seconds, every, rng)
        child.send_signal(signal.SIGTERM)
        polls = json.loads(child.stdout.read())
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
    for table, _ in used:  # what the phones have now (their next step starts from the saved state)
        table["etag"] = call(port, "GET", f"/api/v1/games/{table['game']}/", None,
                             {"X-Session-Token": table["tokens"][0]})[1].getheader("ETag")  # fmt: skip
    phones = len(config["phones"])
    return {"phones": phones, "tables": len(used), "seconds": seconds, "times": times, "errors": errors} | polls


def p95(values: list[float]) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=20, method="inclusive")[18]


def club_night(port: int, steps: list[int], duration: float, every: float, min_rounds: int, idle_count: int,
               seed: int) -> None:  # fmt: skip
    rng = random.Random(seed)
    started = time.perf_counter()
    tables = make_tables(port, max(steps), rng)
    print(f"\n(made {len(tables)} tables and {sum(len(t['tokens']) for t in tables)} phone sessions "
          f"in {time.perf_counter() - started:.0f} s)", flush=True)  # fmt: skip
    # The idle rounds go to the last tables, which only the biggest step uses.
    spare = tables[::-1]
    idle_rounds(port, spare[:3], 3)  # warm-up
    before, idle_errors = idle_rounds(port, spare[3:], idle_count)
    rows = []
    for phones in steps:
        used = seated(tables, phones)
        seconds = max(duration, every * min_rounds / len(used))
        rows.append(club_step(port, used, seconds, every, rng))
        row = rows[-1]
        print(f"  {phones} phones: {len(row['times'])} rounds, p95 {p95(row['times']):.0f} ms, "
              f"{row['answered']}/{row['asked']} polls (steady after {row['warmed']:.1f} s)", flush=True)  # fmt: skip
    after, errors = idle_rounds(port, spare[3 + idle_count :], idle_count)
    idle_errors += errors
    idle = before + after
    base = p95(idle)

    print(f"\n## Part 2: a club night, a poll every {POLL_EVERY:g} s per phone, a round every {every:g} s per table\n")
    if every != 180:
        print(f"!!! the rounds come every {every:g} s per table, not every 180 s: a smoke check, not a figure !!!\n")
    print(f"idle: {len(idle)} rounds one at a time, nobody polling: median {statistics.median(idle):.0f} ms, "
          f"p95 {base:.0f} ms (before the steps {p95(before):.0f}, after {p95(after):.0f}); "
          f"{idle_errors} failed\n")  # fmt: skip
    print(
        "| phones | tables | seconds | rounds | round median ms | round p95 ms | vs idle p95 | polls asked | "
        "answered | 304 | 200 | other | poll p95 ms | failed | phones' client CPU | holds |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    held = None
    for row in rows:
        ratio = p95(row["times"]) / base
        failed = (
            row["errors"] + row["failed"] + sum(n for code, n in row["statuses"].items() if code not in ("200", "304"))
        )
        holds = ratio <= 1.5 and failed == 0 and row["answered"] >= 0.95 * row["asked"]
        held = row["phones"] if holds else held
        other = {code: n for code, n in row["statuses"].items() if code not in ("200", "304")}
        print(f"| {row['phones']} | {row['tables']} | {row['seconds']:.0f} | {len(row['times'])} | "
              f"{statistics.median(row['times']):.0f} | {p95(row['times']):.0f} | {ratio:.2f}x | {row['asked']} | "
              f"{row['answered']} | {row['statuses'].get('304', 0)} | {row['statuses'].get('200', 0)} | "
              f"{other or 0} | {row['poll_p95']:.0f} | {failed} | {row['cpu'] / row['window']:.0%} | "
              f"{'yes' if holds else 'no'} |")  # fmt: skip
        if failed:
            print(f"!!! {row['phones']} phones: {failed} failed requests (rounds {row['errors']}, polls "
                  f"{row['failed']} without an answer, statuses {other}) !!!")  # fmt: skip
    print(f"\nMost phones held (round p95 <= 1.5x idle, nothing failed, >= 95% of the polls answered): "
          f"{held if held is not None else 'none of the steps'}")  # fmt: skip


# The phones: a child process, so their client's work does not stall the rounds' clock.


def phones_child() -> None:
    config = json.loads(sys.stdin.read())
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, len(config["phones"]) + 256)), hard))
    print(json.dumps(asyncio.run(poll_all(config))), flush=True)


async def poll_all(config: dict) -> dict:
    loop = asyncio.get_running_loop()
    stop, window = asyncio.Event(), {}
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    stats = {"statuses": {}, "latencies": [], "answered": 0, "failed": 0}
    rng = random.Random(config["seed"])
    tasks = [asyncio.create_task(phone(config["port"], game, token, etag, rng.uniform(0, POLL_EVERY), stop, window,
                                       stats)) for game, token, etag in config["phones"]]  # fmt: skip
    # The step is measured in the steady state: every phone has had an answer (its first poll
    # goes the full way, its session not yet known to the cache: 1,500 phones starting within 2 s
    # are a storm of full reads no club night has), then one more poll each.
    began, window["warm"] = loop.time(), 0
    while window["warm"] < len(tasks) and loop.time() - began < 60:
        await asyncio.sleep(0.1)
    await asyncio.sleep(POLL_EVERY)
    warmed = loop.time() - began
    window["start"], cpu = loop.time(), time.process_time()
    print("ready", flush=True)
    await stop.wait()
    window["end"] = loop.time()
    cpu = time.process_time() - cpu
    _, late = await asyncio.wait(tasks, timeout=5)  # a poll still waiting for its answer is left
    for task in late:
        task.cancel()
    latencies = sorted(stats.pop("latencies"))
    poll_p95 = latencies[int(len(latencies) * 0.95) - 1] if latencies else float("nan")
    seconds = window["end"] - window["start"]
    asked = round(len(config["phones"]) * seconds / POLL_EVERY)  # what the phones ask for, answered or not
    return stats | {"asked": asked, "poll_p95": poll_p95, "cpu": cpu, "window": seconds, "warmed": warmed}


async def phone(port, game, token, etag, delay, stop, window, stats):
    await asyncio.sleep(delay)
    loop = asyncio.get_running_loop()
    connection, due, answered_once = None, loop.time(), False
    while not stop.is_set():
        counted = "start" in window
        began = loop.time()
        head = (f"GET /api/v1/games/{game}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Session-Token: {token}\r\n"
                f"If-None-Match: {etag}\r\n\r\n").encode()  # fmt: skip
        for _attempt in (1, 2):  # a kept connection the server has just closed: once more on a new one
            fresh = connection is None
            try:
                if fresh:
                    connection = await asyncio.open_connection("127.0.0.1", port)
                status, headers = await asyncio.wait_for(exchange(*connection, head), 30)
                break
            except (OSError, asyncio.IncompleteReadError, ValueError, TimeoutError):
                if connection:
                    connection[1].close()
                connection, status, headers = None, None, {}
                if fresh:
                    break
        if counted and "end" not in window:
            if status is None:
                stats["failed"] += 1
            else:
                stats["answered"] += 1
                stats["latencies"].append((loop.time() - began) * 1000)
                stats["statuses"][str(status)] = stats["statuses"].get(str(status), 0) + 1
        if status is not None and not answered_once:
            answered_once, window["warm"] = True, window["warm"] + 1
        if status == 200:
            etag = headers.get("etag", etag)
        if connection and headers.get("connection", "").lower() == "close":
            connection[1].close()
            connection = None
        due = max(due + POLL_EVERY, loop.time())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), due - loop.time())
    if connection:
        connection[1].close()


async def exchange(reader, writer, head: bytes):
    writer.write(head)
    await writer.drain()
    lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    if headers.get("transfer-encoding", "").lower() == "chunked":
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            await reader.readexactly(size + 2)
        await reader.readuntil(b"\r\n")
    elif status not in (204, 304):
        await reader.readexactly(int(headers.get("content-length", 0)))
    return status, headers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a short smoke, whatever the options below say: 2 s per path, 40 and 80 phones, a round every 10 s",
    )
    parser.add_argument("--seconds", type=int, default=24, help="seconds per path (split over the passes)")
    parser.add_argument("--passes", type=int, default=8, help="runs per path, in turn forward and backward")
    parser.add_argument(
        "--client",
        choices=sorted(CLIENTS),
        default="wrk",
        help="Part 1's load: wrk (HTTP/1.1, kept alive, as phones) or ab (HTTP/1.0: a new connection per "
        "request under uvicorn; the figures of issues 25 to 38 were ab's)",
    )
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--phones", type=int, nargs="+", default=[100, 200, 400, 800, 1200, 1600])
    parser.add_argument("--duration", type=float, default=90, help="the least seconds of a club-night step")
    parser.add_argument("--min-rounds", type=int, default=20, help="a step lasts long enough for this many rounds")
    parser.add_argument("--idle-rounds", type=int, default=20, help="idle rounds before the steps (as many after)")
    parser.add_argument("--live-budget", type=int, default=10**9, help="LIVE_REQUESTS_PER_MINUTE for the run")
    parser.add_argument("--only", choices=["reads", "club"], help="one part only")
    parser.add_argument(
        "--web",
        metavar="COMMAND",
        help="a web line to run instead of the Procfile's ($PORT substituted the same way), e.g. another "
        "worker class, workers or threads",
    )
    parser.add_argument("--phones-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phones_child:
        phones_child()
        return
    every, warm = 180.0, 3
    if args.quick:
        args.seconds, args.phones, args.duration, args.min_rounds, args.idle_rounds = 2, [40, 80], 10, 5, 5
        every, warm = 10.0, 1
    if args.only != "club" and not shutil.which(args.client):
        raise SystemExit(
            f"{args.client} is missing: apt-get install -y {'wrk' if args.client == 'wrk' else 'apache2-utils'}"
        )

    env = server_env(args.live_budget)
    fresh_stores()
    release = procfile("release")
    done = subprocess.run(["bash", "-c", release], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"release failed: {release}\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    os.environ.update(env | {"DJANGO_SETTINGS_MODULE": "scorekeeper.settings"})
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                           text=True).stdout  # fmt: skip
    # A plain kill of this script stops gunicorn too (the finally below runs).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped by SIGTERM"))
    server = Server(env, args.web)
    try:
        server.wait_healthy()
        print(f"# bench/capacity.py{' --quick' if args.quick else ''}: {os.cpu_count()} cores (nproc), "
              f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start")  # fmt: skip
        print(f"commit {commit.strip()}{' with uncommitted changes' if dirty else ''}; PostgreSQL {DATABASE}, "
              f"{REDIS_URL}; DEBUG off")  # fmt: skip
        origin = (
            f"--web `{server.command}`, not the Procfile's" if args.web else f"the Procfile's `web: {server.command}`"
        )
        print(
            f"release: {release}\nweb:     {server.shown}\n(from {origin}; "
            f"WEB_CONCURRENCY={os.environ.get('WEB_CONCURRENCY', 'unset')}; access log in {LOG})",
            flush=True,
        )
        started = time.perf_counter()
        if args.only != "club":
            seeded = seed_reads(server.port)
            totals = measure_reads(server.port, seeded, args.seconds, args.clients, warm, args.passes, args.client)
            print_reads(totals, args.clients, args.seconds, args.passes, args.live_budget, args.client)
            print(f"(part 1: {time.perf_counter() - started:.0f} s)", flush=True)
        if args.only != "reads":
            started = time.perf_counter()
            club_night(server.port, args.phones, args.duration, every, args.min_rounds, args.idle_rounds, seed=25)
            print(f"(part 2: {time.perf_counter() - started:.0f} s)")
        print(f"load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
