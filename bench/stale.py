"""How long a stale cached answer lasts after a write that takes something away.

    .venv/bin/python bench/stale.py [--tree PATH] [--only abcdefghijklmnopq] [--trials 12] [--give-up 70]
        [--database sk_stale]

`--tree` is the checkout to serve (default: the one this file lives in; another commit's worktree
with the same .venv, e.g. `git worktree add /tmp/old <commit>` and `ln -s $PWD/.venv /tmp/old/.venv`).

The tree's app is built as a deploy builds it (.ci/deploy): a PostgreSQL database of its own
(`sk_stale` on 127.0.0.1:5432, dropped and made again, dropped at the end), a redis-server of its
own on a free port (so it can be frozen with SIGSTOP or killed without touching the machine's
Redis), DEBUG off, a SECRET_KEY, the static files collected into a temporary STATIC_ROOT, the
Procfile's release line, then its web line with PORT set and WEB_CONCURRENCY=2 (two gunicorn
workers). LIVE_REQUESTS_PER_MINUTE is raised to 1,000,000: the pollers of scenario d all come from
127.0.0.1 and would otherwise be answered 429 by the live view's per-address budget.

Everything goes over HTTP as a phone or a browser would: app sessions from allauth's headless app
API (`meta.session_token` sent as X-Session-Token), a browser session (cookie) from its headless
browser login with CSRF. For each scenario, once the write that takes something away has returned
(or once Redis is back), the old ETag and credentials are sent again every ~50 ms, for at most
--give-up seconds, until the answers have been right for 2 s in a row (8 s after a Redis outage, e to
g: the app's cache leaves a failed Redis alone for 5 s and answers from the database meanwhile). The
stale window is the time from then to the arrival of the last stale answer (0.00 when none came);
stale answers are counted, and the order in which the answers came is printed under the row.

  a  a scorer demoted to viewer (PATCH of their membership by the owner): their followed sheet,
     GET /games/{id}/sheet/ with the browser session and the scorer's ETag; stale = 304
  b  a password change (allauth's headless POST /_allauth/app/v1/account/password/change from a
     second app session of the same user): GET /api/v1/games/{id}/ with the first session's token
     and ETag; stale = 304 or 200 (the right answer is 401)
  c  a member removed (DELETE /api/v1/scorebooks/{id}/members/{user}/) while 6 threads poll GET
     /api/v1/games/{id}/ as that member, 4 with If-None-Match and 2 without (full reads, which are
     what could write a removed member back into the cache); stale = a 304 to a request sent after
     the DELETE returned; --trials trials (the member invited back before each)
  d  a live link revoked (DELETE /api/v1/games/{id}/share/) while 6 threads poll GET
     /api/v1/live/{token}/, 4 with If-None-Match and 2 without; stale = a 304 to a request sent
     after the DELETE returned; --trials trials (a new link before each)
  e  a sign-out while Redis is frozen (SIGSTOP, DELETE /_allauth/app/v1/auth/session, SIGCONT):
     the old token on GET /api/v1/games/{id}/ with its ETag after Redis resumes; stale = 304 or 200
  f  a round saved while Redis is frozen (POST /api/v1/games/{id}/rounds/): the old ETag after
     Redis resumes; stale = 304
  g  Redis killed, a round saved while it is down, Redis started again empty on the same port:
     the old ETag once it answers PING; stale = 304
  h  a gunicorn worker SIGKILLed in the middle of a POST of a round with an Idempotency-Key (made
     slow by holding the game's row lock from another database connection until the claim of the
     key is committed and the request waits on the lock; the worker is the one whose database
     connection waits), then the lock released and the same POST retried every ~50 ms: the window
     is the time from the kill until the round is saved (2xx), stale answers the 409s
     `request_in_progress` meanwhile
  i  (N1) a sign-out while Redis is frozen, then both gunicorn workers SIGKILLed before Redis
     resumes (the master makes new ones): /api/v1/me/ and the old token's poll after Redis resumes;
     stale = /me 200 or a poll 304/200; a player POSTed with the old token after the watch
  j  (N1) Redis SAVEs, then a member is removed, another signs out and the owner saves a round (each
     told to Redis), then Redis is killed and started again from the dump: the three old polls at
     once (right: 404, 401, 200)
  k  (N5) a sign-out during CLIENT PAUSE 3000 WRITE (Redis answers reads, holds writes back): the
     old token's poll from the sign-out's return; stale = 304 or 200
  l  (N5) the same during CLIENT PAUSE 3000 ALL
  m  (N9) as h, the worker frozen (SIGSTOP) instead of killed, and thawed once the retry is saved
  n  (N2) the owner's sheet page asked with Host 127.0.0.1:10000 ... :10149 and one port of 4,000
     digits: stale = kept pages made (Redis keys); right = one
  o  (N6) a scorer records a round, leaves the scorebook, then deletes their account (the page's
     form): the owner's GET of the game; stale = an answer naming the recorder
  p  (N7) the Procfile's worker line through a TCP relay to PostgreSQL, the relay cut for 2.4 s:
     the window is from the database's return until a task queued then has run (never: stale 1)
  q  (N8) a ratings replay left RUNNING by a killed worker (its scorebook "updating"), then the
     Procfile's worker line started: the window until that replay has run (never: stale 1)

The table is printed at the end, with the tree's commit and the load average (the machine's other
work shares its cores with the server and with this client). Every server and redis-server started
here is stopped at the end, on Ctrl-C and on errors, and the database is dropped.
"""

import argparse
import contextlib
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "sk_stale"
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
PASSWORD, NEW_PASSWORD = "domino-stale-58", "domino-fresh-93"
EVERY = 0.05  # seconds between two polls of one poller
SETTLE = 2.0  # right answers in a row for this long end a watch
# After a Redis outage the app's cache leaves Redis alone for a few seconds (its PAUSE, 5 s) and
# answers from the database meanwhile: right answers then prove nothing yet, so a watch lasts longer.
OUTAGE_SETTLE = 8.0
POLLERS, CONDITIONAL = 6, 4  # threads of c and d; the first CONDITIONAL send If-None-Match


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def call(port: int, method: str, path: str, body=None, headers=None, timeout: float = 30):
    """(status, headers as a lower-cased dict plus the raw Set-Cookie list, parsed JSON or bytes), on a connection of its own."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        sent = {"Accept": "application/json", **(headers or {})}
        if body is not None:
            sent.setdefault("Content-Type", "application/json")
        connection.request(method, path, json.dumps(body) if body is not None else None, sent)
        response = connection.getresponse()
        data = response.read()
    finally:
        connection.close()
    got = {name.lower(): value for name, value in response.getheaders()}
    got["set-cookie-list"] = [value for name, value in response.getheaders() if name.lower() == "set-cookie"]
    if data and got.get("content-type", "").startswith("application/json"):
        data = json.loads(data)
    return response.status, got, data


def status_of(port: int, method: str, path: str, headers=None, body=None) -> int:
    """A poll's status; 0 when the connection failed."""
    try:
        return call(port, method, path, body, headers, timeout=20)[0]
    except OSError:
        return 0


def expect(answer, status, what: str):
    wanted = status if isinstance(status, tuple) else (status,)
    if answer[0] not in wanted:
        raise RuntimeError(f"{what}: expected {status}, got {answer[0]}: {str(answer[2])[:400]}")
    return answer


def procfile(tree: Path, kind: str) -> str:
    for line in (tree / "Procfile").read_text().splitlines():
        if line.startswith(f"{kind}:"):
            return line.split(":", 1)[1].strip()
    raise SystemExit(f"{tree}/Procfile has no {kind} line")


class Redis:
    """A redis-server of this run's own, on a port of its own (the machine's stays untouched); with
    `folder`, SAVE writes its dump there and a server started on the folder loads it."""

    def __init__(self, port: int | None = None, folder: Path | None = None):
        self.port, self.folder = port or free_port(), folder
        dump = ["--dir", str(folder), "--dbfilename", "dump.rdb"] if folder else []
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             *dump],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while not self.answers():
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def cli(self, *args: str) -> str:
        return subprocess.run(["redis-cli", "-p", str(self.port), *args], capture_output=True, text=True).stdout

    def freeze(self):
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self):
        self.process.send_signal(signal.SIGCONT)

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


class App:
    """The tree built as a deploy builds it, served by the Procfile's web line."""

    def __init__(self, tree: Path, redis: Redis, work: Path):
        self.tree, self.work = tree, work
        venv = tree / ".venv" / "bin"
        bin_dir = venv if venv.is_dir() else Path(sys.executable).parent
        clean = {
            k: v
            for k, v in os.environ.items()
            if k not in {"DJANGO_SETTINGS_MODULE", "DEBUG", "REDIS_URL", "STATIC_ROOT", "TASK_BACKEND", "DATABASE_URL"}
        }
        self.env = clean | {
            "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}",
            "VIRTUAL_ENV": str(bin_dir.parent),
            "SECRET_KEY": "stale-" + secrets.token_urlsafe(40),
            "DATABASE_URL": DATABASE_URL,
            "REDIS_URL": f"redis://127.0.0.1:{redis.port}/0",
            "ALLOWED_HOSTS": "localhost,127.0.0.1",
            "STATIC_ROOT": str(work / "static"),
            "WEB_CONCURRENCY": "2",
            "MAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",  # sign-up mails go nowhere
            "LIVE_REQUESTS_PER_MINUTE": "1000000",
        }
        self.web = procfile(tree, "web")
        self.process = None

    def release(self):
        line = procfile(self.tree, "release")
        with (self.work / "release.log").open("w") as log:
            done = subprocess.run(
                ["bash", "-c", line], cwd=self.tree, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        if done.returncode:
            raise RuntimeError(f"the release line failed: see {self.work / 'release.log'}")

    def start(self):
        self.port = free_port()
        self.log = (self.work / "gunicorn.log").open("w")
        self.process = subprocess.Popen(
            ["bash", "-c", f"exec {self.web}"], cwd=self.tree, env=self.env | {"PORT": str(self.port)},
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}: see {self.work / 'gunicorn.log'}")
            if status_of(self.port, "GET", "/healthz/") == 200 and len(self.workers()) == 2:
                return
            time.sleep(0.25)
        raise RuntimeError("gunicorn never became healthy")

    def healthy_cache(self, timeout: float = 20) -> bool:
        """Wait until /healthz/ reports every check OK (Redis used again after an outage)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError):
                status, _, report = call(self.port, "GET", "/healthz/", timeout=10)
                if status == 200 and isinstance(report, dict) and set(report.values()) == {"OK"}:
                    return True
            time.sleep(0.5)
        return False

    def workers(self) -> list[int]:
        if self.process is None:
            return []
        try:
            return [
                int(pid)
                for pid in Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
            ]
        except OSError:
            return []

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # its own session: the master and its workers
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        if self.process is not None:
            self.log.close()


def fresh_database():
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{DATABASE}"')


def drop_database():
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')


# Accounts and games, over HTTP.


class Bench:
    def __init__(self, app: App, redis: Redis, give_up: float, trials: int):
        self.app, self.redis, self.port = app, redis, app.port
        self.give_up, self.trials = give_up, trials

    def api(self, method, path, body=None, token=None, headers=None, status=(200, 201, 204), what=None):
        sent = {**({"X-Session-Token": token} if token else {}), **(headers or {})}
        return expect(call(self.port, method, path, body, sent), status, what or f"{method} {path}")

    def sign_up(self, name: str) -> dict:
        email = f"{name}-{secrets.token_hex(3)}@example.com"
        answer = self.api("POST", "/_allauth/app/v1/auth/signup", {"email": email, "password": PASSWORD}, status=200)
        token = answer[2]["meta"]["session_token"]
        me = self.api("GET", "/api/v1/me/", token=token, status=200)[2]
        return {"email": email, "token": token, "id": me.get("id") or me.get("pk")}

    def log_in(self, email: str, password: str = PASSWORD) -> str:
        answer = self.api("POST", "/_allauth/app/v1/auth/login", {"email": email, "password": password}, status=200)
        return answer[2]["meta"]["session_token"]

    def browser_session(self, email: str) -> str:
        """The cookies of a browser signed in through allauth's headless browser login (CSRF first)."""
        cookies = {}

        def keep(got):
            for value in got["set-cookie-list"]:
                name, _, rest = value.partition("=")
                cookies[name] = rest.split(";", 1)[0]

        keep(call(self.port, "GET", "/accounts/login/", None, {"Accept": "text/html"})[1])
        csrf = cookies["csrftoken"]
        answer = call(self.port, "POST", "/_allauth/browser/v1/auth/login", {"email": email, "password": PASSWORD},
                      {"X-CSRFToken": csrf, "Cookie": f"csrftoken={csrf}", "Referer": f"http://127.0.0.1:{self.port}/"})  # fmt: skip
        expect(answer, 200, "browser login")
        keep(answer[1])
        return "; ".join(f"{name}={value}" for name, value in cookies.items() if name in ("csrftoken", "sessionid"))

    def new_game(self, token: str, scorebook: int | None = None) -> int:
        extra = {"scorebook": scorebook} if scorebook else {}
        players = [
            self.api("POST", "/api/v1/players/", {"name": name, **extra}, token, status=201)[2]["id"]
            for name in ("Ann", "Ben")
        ]
        made = self.api("POST", "/api/v1/games/", {"players": players, "tile_set": 12, **extra}, token, status=201)
        return made[2]["id"]

    def cached_etag(self, path: str, headers: dict) -> str:
        """The ETag of `path`, checked to be answered 304 (from the cache, once a full read remembered it)."""
        etag = self.api("GET", path, headers=headers, status=200)[1]["etag"]
        for _ in range(3):
            self.api("GET", path, headers=headers | {"If-None-Match": etag}, status=304, what=f"the 304 of {path}")
        return etag

    def round_body(self, token: str, game: int) -> dict:
        detail = self.api("GET", f"/api/v1/games/{game}/", token=token, status=200)[2]
        seated = [p["id"] for p in detail["players"] if p.get("seated", True)]
        return {
            "starting_double": detail["next_starting_double"],
            "entries": [{"player": seated[0], "pips": 0, "went_out": True}, {"player": seated[1], "pips": 20}],
        }

    # A watch of one poller: the stale window after t0.

    def watch(self, ask, stale, t0: float, settle: float = SETTLE) -> dict:
        count, last, seen, right_since = 0, None, Counter(), None
        gave_up, runs = False, []  # runs: [status, count, first, last] in the order they came
        while True:
            sent = time.monotonic()
            if sent - t0 > self.give_up:
                gave_up = True
                break
            status = ask()
            got = time.monotonic()
            seen[status] += 1
            if runs and runs[-1][0] == status:
                runs[-1][1:] = [runs[-1][1] + 1, runs[-1][2], got - t0]
            else:
                runs.append([status, 1, got - t0, got - t0])
            if stale(status):
                count, last, right_since = count + 1, got - t0, None
            elif right_since is None:
                right_since = got
            elif got - right_since >= settle:
                break
            time.sleep(max(0.0, sent + EVERY - time.monotonic()))
        order = " then ".join(f"{s} x{n} ({a:.2f}-{z:.2f} s)" for s, n, a, z in runs[:6])
        order += " ..." if len(runs) > 6 else ""
        return {"window": last or 0.0, "stale": count, "seen": dict(seen), "gave_up": gave_up, "order": order}

    # A race of POLLERS threads with a write: stale 304s to requests sent after it returned.

    def race(self, conditional, full, remove) -> dict:
        records, stop = [], threading.Event()

        def poller(i):
            ask = conditional if i < CONDITIONAL else full
            while not stop.is_set():
                sent = time.monotonic()
                status = ask()
                records.append((sent, time.monotonic(), i < CONDITIONAL, status))
                stop.wait(max(0.0, sent + EVERY - time.monotonic()))

        threads = [threading.Thread(target=poller, args=(i,), daemon=True) for i in range(POLLERS)]
        for thread in threads:
            thread.start()
        time.sleep(0.6)
        try:
            before = sum(1 for r in records if r[2] and r[3] == 304)
            remove()
            t0 = time.monotonic()
            gave_up = False
            while True:
                time.sleep(0.1)
                now = time.monotonic()
                stale = [r for r in list(records) if r[0] >= t0 and r[2] and r[3] == 304]
                last = max((r[1] for r in stale), default=t0)
                if now - last >= SETTLE and now - t0 >= SETTLE:
                    break
                if now - t0 > self.give_up:
                    gave_up = True
                    break
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=30)
        after = [r for r in records if r[0] >= t0]
        stale = [r for r in after if r[2] and r[3] == 304]
        return {
            "window": max((r[1] - t0 for r in stale), default=0.0),
            "stale": len(stale),
            "before_304": before,
            "seen": dict(Counter(r[3] for r in after)),
            "gave_up": gave_up,
        }


# The scenarios: each returns a row {"window", "stale", ... "note"}.


def scenario_a(b: Bench, club: dict) -> dict:
    owner, book, game = club["owner"], club["book"], club["game"]
    member = b.sign_up("demoted")
    invite = b.api("POST", f"/api/v1/scorebooks/{book}/invites/", {"role": "scorer"}, owner["token"], status=201)[2]
    b.api("POST", f"/api/v1/invites/{invite['code']}/accept/", None, member["token"], status=200)
    cookie = b.browser_session(member["email"])
    path = f"/games/{game}/sheet/"
    etag = b.cached_etag(path, {"Cookie": cookie, "Accept": "text/html"})
    b.api("PATCH", f"/api/v1/scorebooks/{book}/members/{member['id']}/", {"role": "viewer"}, owner["token"], status=200)
    t0 = time.monotonic()
    row = b.watch(
        lambda: status_of(b.port, "GET", path, {"Cookie": cookie, "Accept": "text/html", "If-None-Match": etag}),
        lambda status: status == 304,
        t0,
    )
    new = call(b.port, "GET", path, None, {"Cookie": cookie, "Accept": "text/html"})
    row["note"] = f"after: {new[0]}, ETag {'changed' if new[1].get('etag') != etag else 'UNCHANGED'}"
    return row


def scenario_b(b: Bench) -> dict:
    user = b.sign_up("password")
    game = b.new_game(user["token"])
    other = b.log_in(user["email"])
    path = f"/api/v1/games/{game}/"
    etag = b.cached_etag(path, {"X-Session-Token": user["token"]})
    b.api("POST", "/_allauth/app/v1/account/password/change",
          {"current_password": PASSWORD, "new_password": NEW_PASSWORD}, other, status=200)  # fmt: skip
    t0 = time.monotonic()
    row = b.watch(
        lambda: status_of(b.port, "GET", path, {"X-Session-Token": user["token"], "If-None-Match": etag}),
        lambda status: status in (200, 304),
        t0,
    )
    row["note"] = "stale = 304 or 200; right = 401"
    return row


def scenario_c(b: Bench, club: dict) -> dict:
    owner, book, game = club["owner"], club["book"], club["game"]
    member = b.sign_up("removed")
    path = f"/api/v1/games/{game}/"
    rows = []
    for _ in range(b.trials):
        invite = b.api("POST", f"/api/v1/scorebooks/{book}/invites/", {"role": "viewer"}, owner["token"], status=201)[2]
        b.api("POST", f"/api/v1/invites/{invite['code']}/accept/", None, member["token"], status=200)
        auth = {"X-Session-Token": member["token"]}
        etag = b.cached_etag(path, auth)
        rows.append(b.race(
            lambda auth=auth, etag=etag: status_of(b.port, "GET", path, auth | {"If-None-Match": etag}),
            lambda auth=auth: status_of(b.port, "GET", path, auth),
            lambda: b.api("DELETE", f"/api/v1/scorebooks/{book}/members/{member['id']}/", None, owner["token"], status=204),
        ))  # fmt: skip
    return trials_row(rows, "right = 404")


def scenario_d(b: Bench, club: dict) -> dict:
    owner, game = club["owner"], club["game"]
    rows = []
    for _ in range(b.trials):
        token = b.api("POST", f"/api/v1/games/{game}/share/", None, owner["token"], status=201)[2]["token"]
        path = f"/api/v1/live/{token}/"
        etag = b.cached_etag(path, {})
        rows.append(b.race(
            lambda path=path, etag=etag: status_of(b.port, "GET", path, {"If-None-Match": etag}),
            lambda path=path: status_of(b.port, "GET", path),
            lambda: b.api("DELETE", f"/api/v1/games/{game}/share/", None, owner["token"], status=204),
        ))  # fmt: skip
    return trials_row(rows, "right = 404")


def trials_row(rows: list[dict], note: str) -> dict:
    stale_trials = [r for r in rows if r["stale"]]
    seen = Counter()
    for r in rows:
        seen.update(r["seen"])
    warm = min(r["before_304"] for r in rows)
    return {
        "window": max((r["window"] for r in rows), default=0.0),
        "stale": sum(r["stale"] for r in rows),
        "seen": dict(seen),
        "gave_up": any(r["gave_up"] for r in rows),
        "note": f"{len(stale_trials)}/{len(rows)} trials stale; {note}; >= {warm} 304s before each write",
    }


def scenario_e(b: Bench) -> dict:
    user = b.sign_up("signout")
    game = b.new_game(user["token"])
    path = f"/api/v1/games/{game}/"
    auth = {"X-Session-Token": user["token"]}
    etag = b.cached_etag(path, auth)
    b.redis.freeze()
    try:
        signed_out = call(b.port, "DELETE", "/_allauth/app/v1/auth/session", None, auth)
    finally:
        b.redis.thaw()
    t0 = time.monotonic()
    row = b.watch(
        lambda: status_of(b.port, "GET", path, auth | {"If-None-Match": etag}),
        lambda s: s in (200, 304),
        t0,
        OUTAGE_SETTLE,
    )
    row["note"] = f"sign-out answered {signed_out[0]}; stale = 304 or 200; right = 401"
    return row


def scenario_f(b: Bench, club: dict) -> dict:
    token, game = club["owner"]["token"], club["game"]
    path = f"/api/v1/games/{game}/"
    auth = {"X-Session-Token": token}
    body = b.round_body(token, game)
    etag = b.cached_etag(path, auth)
    b.redis.freeze()
    try:
        saved = call(b.port, "POST", f"{path}rounds/", body, auth)
    finally:
        b.redis.thaw()
    t0 = time.monotonic()
    expect(saved, 201, "the round saved while Redis was frozen")
    row = b.watch(
        lambda: status_of(b.port, "GET", path, auth | {"If-None-Match": etag}), lambda s: s == 304, t0, OUTAGE_SETTLE
    )
    row["note"] = "right = 200"
    return row


def scenario_g(b: Bench, club: dict) -> dict:
    token, game = club["owner"]["token"], club["game"]
    path = f"/api/v1/games/{game}/"
    auth = {"X-Session-Token": token}
    body = b.round_body(token, game)
    etag = b.cached_etag(path, auth)
    b.redis.kill()
    saved = call(b.port, "POST", f"{path}rounds/", body, auth)
    down = Counter(status_of(b.port, "GET", path, auth | {"If-None-Match": etag}) for _ in range(3))
    b.redis = Redis(b.redis.port)  # empty, on the same port
    t0 = time.monotonic()
    expect(saved, 201, "the round saved while Redis was down")
    row = b.watch(
        lambda: status_of(b.port, "GET", path, auth | {"If-None-Match": etag}), lambda s: s == 304, t0, OUTAGE_SETTLE
    )
    row["note"] = f"right = 200; while down: {dict(down)}"
    return row


def _connection_of_backend(admin, backend: int) -> int | None:
    """The local port of the client connection of PostgreSQL backend `backend`."""
    found = admin.execute("SELECT client_port FROM pg_stat_activity WHERE pid = %s", [backend]).fetchone()
    return found[0] if found else None


def _worker_with_port(workers: list[int], port: int) -> int | None:
    """The worker holding a TCP socket whose local port is `port` (/proc/net/tcp, then its fds)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{fields[9]}]")
    for pid in workers:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{pid}/fd/{fd}") in inodes:
                        return pid
    return None


def scenario_h(b: Bench, club: dict, stop: signal.Signals = signal.SIGKILL) -> dict:
    import psycopg

    token, game = club["owner"]["token"], club["game"]
    path = f"/api/v1/games/{game}/rounds/"
    body = b.round_body(token, game)
    key = "stale-" + secrets.token_hex(8)
    headers = {"X-Session-Token": token, "Idempotency-Key": key}
    rounds_before = len(b.api("GET", f"/api/v1/games/{game}/", token=token, status=200)[2]["rounds"])
    first = {}

    def post():
        try:
            first["answer"] = call(b.port, "POST", path, body, headers, timeout=60)[0]
        except OSError as error:
            first["answer"] = type(error).__name__

    with psycopg.connect(DATABASE_URL, autocommit=True) as admin:
        lock = psycopg.connect(DATABASE_URL)  # a transaction holding the game's row until the kill
        try:
            lock.execute("SELECT 1 FROM scorekeeper_game WHERE id = %s FOR UPDATE", [game])
            mine = lock.info.backend_pid
            thread = threading.Thread(target=post, daemon=True)
            thread.start()
            waiting = claimed = None
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and not (waiting and claimed):
                waiting = admin.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock' AND pid <> %s",
                    [DATABASE, mine],
                ).fetchone()
                claimed = admin.execute(
                    "SELECT 1 FROM scorekeeper_idempotencykey WHERE key = %s AND status_code IS NULL", [key]
                ).fetchone()
                time.sleep(0.02)
            if not (waiting and claimed):
                return {
                    "na": f"the POST never waited on the lock with its key claimed (waiting {waiting}, claimed {claimed})"
                }
            port = _connection_of_backend(admin, waiting[0])
            worker = _worker_with_port(b.app.workers(), port) if port else None
            if worker is None:
                return {"na": "could not tell which worker holds the waiting request"}
            os.kill(worker, stop)  # killed (h), or frozen (m) until the retry is saved
            t0 = time.monotonic()
        finally:
            lock.rollback()
            lock.close()
        if stop == signal.SIGKILL:
            thread.join(timeout=30)
        statuses, in_progress, saved_at, other = Counter(), 0, None, None
        while time.monotonic() - t0 <= b.give_up:
            sent = time.monotonic()
            try:
                status, _, answer = call(b.port, "POST", path, body, headers, timeout=20)
            except OSError:
                status, answer = 0, None
            statuses[status] += 1
            if 200 <= status < 300:
                saved_at = time.monotonic() - t0
                break
            if status == 409 and "request_in_progress" in json.dumps(answer):
                in_progress += 1
            elif status != 0:
                other = f"{status} {str(answer)[:120]}"
                break
            time.sleep(max(0.0, sent + EVERY - time.monotonic()))
    if stop != signal.SIGKILL:
        with contextlib.suppress(ProcessLookupError):  # gunicorn's timeout may have killed it meanwhile
            os.kill(worker, signal.SIGCONT)
        thread.join(timeout=30)
    rounds_after = len(b.api("GET", f"/api/v1/games/{game}/", token=token, status=200)[2]["rounds"])
    note = f"{'killed' if stop == signal.SIGKILL else 'froze'} worker {worker}; its POST: {first.get('answer')}; rounds {rounds_before} -> {rounds_after}"
    if other:
        note += f"; stopped on {other}"
    return {
        "window": saved_at if saved_at is not None else time.monotonic() - t0,
        "stale": in_progress,
        "seen": dict(statuses),
        "gave_up": saved_at is None,
        "note": note,
    }


def _kill_workers(b: Bench) -> None:
    """SIGKILL every gunicorn worker, and wait for the master to make two new ones."""
    old = set(b.app.workers())
    for pid in old:
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 60
    while not (len(b.app.workers()) == 2 and not old & set(b.app.workers())):
        if time.monotonic() > deadline:
            raise RuntimeError("gunicorn made no new workers")
        time.sleep(0.1)


def scenario_i(b: Bench) -> dict:
    user = b.sign_up("killed")
    game = b.new_game(user["token"])
    path = f"/api/v1/games/{game}/"
    auth = {"X-Session-Token": user["token"]}
    etag = b.cached_etag(path, auth)
    b.api("GET", "/api/v1/me/", token=user["token"], status=200)
    b.redis.freeze()
    try:
        signed_out = call(b.port, "DELETE", "/_allauth/app/v1/auth/session", None, auth)
        _kill_workers(b)  # every process that knew of the lost invalidation dies before Redis is back
    finally:
        b.redis.thaw()
    t0 = time.monotonic()
    row = b.watch(
        lambda: (
            status_of(b.port, "GET", "/api/v1/me/", auth),
            status_of(b.port, "GET", path, auth | {"If-None-Match": etag}),
        ),
        lambda s: s[0] == 200 or s[1] in (200, 304),
        t0,
        OUTAGE_SETTLE,
    )
    player = status_of(b.port, "POST", "/api/v1/players/", auth, {"name": "Late"})
    row["note"] = (
        f"sign-out answered {signed_out[0]}; answers are (/me, poll): stale = /me 200 or poll 304/200;"
        f" right = 401; a player POSTed after the watch: {player}"
    )
    return row


def _watch_all(b: Bench, asks: dict, t0: float) -> dict:
    """b.watch of each of `asks` (name: (ask, stale)) at once, in threads, from the same t0."""
    rows = {}
    threads = [
        threading.Thread(target=lambda n=name, a=ask, s=stale: rows.__setitem__(n, b.watch(a, s, t0, OUTAGE_SETTLE)))
        for name, (ask, stale) in asks.items()
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seen = Counter()
    for row in rows.values():
        seen.update(row["seen"])
    return {
        "window": max(row["window"] for row in rows.values()),
        "stale": sum(row["stale"] for row in rows.values()),
        "seen": dict(seen),
        "gave_up": any(row["gave_up"] for row in rows.values()),
        "note": "; ".join(f"{name}: {row['stale']} stale, last at {row['window']:.2f} s" for name, row in rows.items()),
    }


def scenario_j(b: Bench, club: dict) -> dict:
    owner, book, game = club["owner"], club["book"], club["game"]
    path = f"/api/v1/games/{game}/"
    member, leaver = b.sign_up("restored-member"), b.sign_up("restored-leaver")
    for who in (member, leaver):
        invite = b.api("POST", f"/api/v1/scorebooks/{book}/invites/", {"role": "viewer"}, owner["token"], status=201)[2]
        b.api("POST", f"/api/v1/invites/{invite['code']}/accept/", None, who["token"], status=200)
    auths = {name: {"X-Session-Token": who["token"]} for name, who in (("o", owner), ("m", member), ("l", leaver))}
    etags = {name: b.cached_etag(path, auth) for name, auth in auths.items()}
    body = b.round_body(owner["token"], game)
    if b.redis.cli("save").strip() != "OK":
        return {"na": "SAVE failed"}
    b.api("DELETE", f"/api/v1/scorebooks/{book}/members/{member['id']}/", None, owner["token"], status=204)
    call(b.port, "DELETE", "/_allauth/app/v1/auth/session", None, auths["l"])
    b.api("POST", f"{path}rounds/", body, owner["token"], status=201)
    b.redis.kill()
    b.redis = Redis(b.redis.port, b.redis.folder)  # from the dump saved before the writes
    t0 = time.monotonic()

    def poll(name):
        return lambda: status_of(b.port, "GET", path, auths[name] | {"If-None-Match": etags[name]})

    row = _watch_all(
        b,
        {
            "removed member (right 404)": (poll("m"), lambda s: s in (200, 304)),
            "signed out (right 401)": (poll("l"), lambda s: s in (200, 304)),
            "old ETag (right 200)": (poll("o"), lambda s: s == 304),
        },
        t0,
    )
    return row


def scenario_k(b: Bench, mode: str) -> dict:
    user = b.sign_up(f"paused-{mode}")
    game = b.new_game(user["token"])
    path = f"/api/v1/games/{game}/"
    auth = {"X-Session-Token": user["token"]}
    etag = b.cached_etag(path, auth)
    b.redis.cli("client", "pause", "3000", mode)
    signed_out = call(b.port, "DELETE", "/_allauth/app/v1/auth/session", None, auth)
    t0 = time.monotonic()
    row = b.watch(
        lambda: status_of(b.port, "GET", path, auth | {"If-None-Match": etag}),
        lambda s: s in (200, 304),
        t0,
        OUTAGE_SETTLE,
    )
    row["note"] = f"CLIENT PAUSE 3000 {mode}; sign-out answered {signed_out[0]}; stale = 304 or 200; right = 401"
    return row


def scenario_n(b: Bench, club: dict) -> dict:
    cookie = b.browser_session(club["owner"]["email"])
    path = f"/games/{club['game']}/"

    def pages() -> int:
        return len(b.redis.cli("--scan", "--pattern", "*:page:*").split())

    before, seen = pages(), Counter()
    for port in range(10000, 10150):
        seen[
            status_of(b.port, "GET", path, {"Cookie": cookie, "Accept": "text/html", "Host": f"127.0.0.1:{port}"})
        ] += 1
    long = status_of(b.port, "GET", path, {"Cookie": cookie, "Accept": "text/html", "Host": "127.0.0.1:" + "9" * 4000})
    made = pages() - before
    return {
        "window": 0.0,
        "stale": made,
        "seen": dict(seen),
        "gave_up": False,
        "note": f"stale = kept pages made by Host 127.0.0.1:10000 ... :10149 (one page is right); a 4,000-digit port: {long}",
    }


def _form_post(b: Bench, path: str, cookie: str, fields: dict) -> int:
    from urllib.parse import urlencode

    csrf = dict(part.split("=", 1) for part in cookie.split("; "))["csrftoken"]
    connection = http.client.HTTPConnection("127.0.0.1", b.port, timeout=30)
    try:
        connection.request("POST", path, urlencode({"csrfmiddlewaretoken": csrf, **fields}),
                           {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def scenario_o(b: Bench, club: dict) -> dict:
    owner, book, game = club["owner"], club["book"], club["game"]
    path = f"/api/v1/games/{game}/"
    recorder = b.sign_up("recorder")
    invite = b.api("POST", f"/api/v1/scorebooks/{book}/invites/", {"role": "scorer"}, owner["token"], status=201)[2]
    b.api("POST", f"/api/v1/invites/{invite['code']}/accept/", None, recorder["token"], status=200)
    b.api("POST", f"{path}rounds/", b.round_body(recorder["token"], game), recorder["token"], status=201)
    if recorder["email"] not in json.dumps(b.api("GET", path, token=owner["token"], status=200)[2]):
        return {"na": "the game's answer does not name its recorder"}
    b.api("DELETE", f"/api/v1/scorebooks/{book}/members/{recorder['id']}/", None, recorder["token"], status=204)
    if recorder["email"] not in json.dumps(b.api("GET", path, token=owner["token"], status=200)[2]):
        return {"na": "the game's answer no longer names its recorder once they left"}  # kept again, naming them
    cookie = b.browser_session(recorder["email"])
    deleted = _form_post(b, "/me/delete/", cookie, {"confirm": recorder["email"]})
    t0 = time.monotonic()

    def named() -> bool:
        try:
            return recorder["email"] in json.dumps(
                call(b.port, "GET", path, None, {"X-Session-Token": owner["token"]})[2]
            )
        except OSError:
            return False

    row = b.watch(named, bool, t0)
    row["note"] = f"the account's deletion answered {deleted}; stale = the owner's GET of the game names the recorder"
    return row


class Proxy:
    """A TCP relay on loopback to PostgreSQL; `cut()` drops every connection and stops listening."""

    def __init__(self, target=("127.0.0.1", 5432)):
        self.port, self.target, self.connections = free_port(), target, []
        self.start()

    def start(self):
        self.listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.connections += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.close()

    def cut(self):
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        for connection in self.connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
                connection.close()
        self.connections = []


TASKS = "django_tasks_database_dbtaskresult"


def _enqueue(scorebook: int, status: str = "READY", worker: str | None = None) -> str:
    """A ratings replay of `scorebook` in the database queue, as the app enqueues it (or as a killed
    worker leaves it: RUNNING, naming a worker that is gone)."""
    import uuid

    import psycopg

    pk = str(uuid.uuid4())
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        db.execute(
            f"INSERT INTO {TASKS} (id, status, enqueued_at, started_at, args_kwargs, priority, task_path, worker_ids,"
            " queue_name, backend_name, run_after, exception_class_path, traceback) VALUES (%s, %s, now(),"
            " CASE WHEN %s = 'RUNNING' THEN now() END, %s, 0, 'scorekeeper.tasks.replay_ratings', %s, 'default',"
            " 'default', now(), '', '')",
            [pk, status, status, json.dumps({"args": [scorebook], "kwargs": {}}), json.dumps([worker] if worker else [])],
        )  # fmt: skip
    return pk


def _query(sql: str, args=()):
    import psycopg

    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        return db.execute(sql, args).fetchone()


class Worker:
    """The Procfile's worker line of the tree, on `database_url`."""

    def __init__(self, b: Bench, database_url: str):
        line = procfile(b.app.tree, "worker")
        self.log = (b.app.work / "worker.log").open("a")
        self.process = subprocess.Popen(
            ["bash", "-c", f"exec {line}"], cwd=b.app.tree, env=b.app.env | {"DATABASE_URL": database_url},
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


def _done_within(b: Bench, task: str, t0: float) -> float | None:
    while time.monotonic() - t0 <= b.give_up:
        if _query(f"SELECT status FROM {TASKS} WHERE id = %s", [task])[0] == "SUCCESSFUL":
            return time.monotonic() - t0
        time.sleep(0.1)
    return None


def scenario_p(b: Bench, club: dict) -> dict:
    proxy = Proxy()
    worker = Worker(b, DATABASE_URL.replace(":5432/", f":{proxy.port}/"))
    try:
        if _done_within(b, _enqueue(club["book"]), time.monotonic()) is None:
            return {"na": "the worker never ran a task before the outage"}
        proxy.cut()
        time.sleep(2.4)
        proxy.start()
        t0 = time.monotonic()
        done = _done_within(b, _enqueue(club["book"]), t0)
        alive = worker.process.poll() is None
    finally:
        worker.stop()
        proxy.cut()
    return {
        "window": done if done is not None else time.monotonic() - t0,
        "stale": 0 if done is not None else 1,
        "seen": {"worker alive after": alive},
        "gave_up": done is None,
        "note": "window = from the database's return until a task queued then has run; stale = 1 if it never ran",
    }


def scenario_q(b: Bench, club: dict) -> dict:
    book, game = club["book"], club["game"]
    _query(
        "UPDATE scorekeeper_scorebook SET ratings_pending_at = now() - interval '1 day', ratings_pending_game = %s"
        " WHERE id = %s RETURNING id",
        [game, book],
    )
    _query(f"DELETE FROM {TASKS} WHERE status = 'READY' RETURNING 1")  # nothing else would clear the mark
    task = _enqueue(book, "RUNNING", worker="killed-mid-replay")  # what a worker killed mid-replay leaves
    t0 = time.monotonic()
    worker = Worker(b, DATABASE_URL)
    try:
        done = _done_within(b, task, t0)
        updating = _query("SELECT ratings_pending_game IS NOT NULL FROM scorekeeper_scorebook WHERE id = %s", [book])[0]
    finally:
        worker.stop()
    return {
        "window": done if done is not None else time.monotonic() - t0,
        "stale": 0 if done is not None else 1,
        "seen": {"scorebook still updating": updating},
        "gave_up": done is None,
        "note": "window = from the worker's start until the RUNNING replay a killed worker left has run",
    }


SCENARIOS = {
    "a": "demoted scorer: followed sheet 304",
    "b": "password change: old app token 304",
    "c": "member removed, 6 pollers: 304",
    "d": "live link revoked, 6 pollers: 304",
    "e": "sign-out, Redis frozen: old token",
    "f": "round saved, Redis frozen: old ETag",
    "g": "round, Redis down, empty restart",
    "h": "worker killed mid-POST: retry 409s",
    "i": "N1 sign-out, Redis frozen, workers killed",
    "j": "N1 restart from a snapshot: 3 polls",
    "k": "N5 sign-out, CLIENT PAUSE WRITE",
    "l": "N5 sign-out, CLIENT PAUSE ALL",
    "m": "N9 worker frozen mid-POST: retry 409s",
    "n": "N2 150 Host ports: kept pages made",
    "o": "N6 recorder left, then deleted: named",
    "p": "N7 worker, 2.4 s database outage",
    "q": "N8 replay left RUNNING by a killed worker",
}


def run(tree: Path, only: str, trials: int, give_up: float) -> None:
    commit = subprocess.run(["git", "-C", str(tree), "log", "-1", "--format=%h %s"], capture_output=True, text=True)
    print(f"tree {tree}: {commit.stdout.strip()[:100]}")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    work = Path(tempfile.mkdtemp(prefix="sk-stale-"))
    redis = app = None
    results = {}
    started = time.monotonic()
    try:
        (work / "redis").mkdir()
        redis = Redis(folder=work / "redis")
        fresh_database()
        app = App(tree, redis, work)
        app.release()
        app.start()
        print(
            f"web: {app.web} (PORT={app.port}, WEB_CONCURRENCY=2); redis-server on port {redis.port}; files in {work}"
        )
        bench = Bench(app, redis, give_up, trials)
        owner = bench.sign_up("owner")
        book = bench.api("POST", "/api/v1/scorebooks/", {"name": "Club"}, owner["token"], status=201)[2]["id"]
        club = {"owner": owner, "book": book, "game": bench.new_game(owner["token"], book)}
        runs = {
            "a": lambda: scenario_a(bench, club),
            "b": lambda: scenario_b(bench),
            "c": lambda: scenario_c(bench, club),
            "d": lambda: scenario_d(bench, club),
            "e": lambda: scenario_e(bench),
            "f": lambda: scenario_f(bench, club),
            "g": lambda: scenario_g(bench, club),
            "h": lambda: scenario_h(bench, club),
            "i": lambda: scenario_i(bench),
            "j": lambda: scenario_j(bench, club),
            "k": lambda: scenario_k(bench, "write"),
            "l": lambda: scenario_k(bench, "all"),
            "m": lambda: scenario_h(bench, club, signal.SIGSTOP),
            "n": lambda: scenario_n(bench, club),
            "o": lambda: scenario_o(bench, club),
            "p": lambda: scenario_p(bench, club),
            "q": lambda: scenario_q(bench, club),
        }
        for letter in only:
            if not app.healthy_cache():
                print(f"  ({letter}: /healthz/ did not report every check OK within 20 s; going on)")
            began = time.monotonic()
            try:
                results[letter] = runs[letter]()
            except Exception as error:  # one scenario's failure is reported, the others still run
                results[letter] = {"na": f"{type(error).__name__}: {str(error)[:200]}"}
            results[letter]["took"] = time.monotonic() - began
            redis = bench.redis  # g starts a new one
            print(f"  {letter} done in {results[letter]['took']:.0f} s", flush=True)
    finally:
        if app is not None:
            app.stop()
        if redis is not None:
            with contextlib.suppress(Exception):
                redis.thaw()
            redis.kill()
        with contextlib.suppress(Exception):
            drop_database()
    print()
    print(f"{'scenario':<40} {'stale window (s)':>17} {'stale answers':>14}  answers after the write; notes")
    for letter in only:
        row = results.get(letter, {"na": "not run"})
        name = f"{letter}  {SCENARIOS[letter]}"
        if "na" in row:
            print(f"{name:<40} {'N/A':>17} {'':>14}  {row['na']}")
            continue
        window = f"{'>= ' if row['gave_up'] else ''}{row['window']:.2f}"
        seen = ", ".join(f"{s}: {n}" for s, n in sorted(row["seen"].items(), key=lambda item: str(item[0])))
        print(f"{name:<40} {window:>17} {row['stale']:>14}  {{{seen}}}; {row.get('note', '')}")
        if row.get("order"):
            print(f"{'':<74}in order: {row['order']}")
    print()
    print(
        f"give-up {give_up:.0f} s; polls every {EVERY * 1000:.0f} ms; a watch ends after {SETTLE:.0f} s of right answers"
        f" in a row ({OUTAGE_SETTLE:.0f} s after a Redis outage: e, f, g); times in order are from the write's return"
    )
    print(
        f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; run took {time.monotonic() - started:.0f} s"
    )
    shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    global DATABASE, DATABASE_URL
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--only", default="".join(SCENARIOS), help="the scenarios to run, by letter")
    parser.add_argument("--database", default=DATABASE, help="the PostgreSQL database to make (and drop)")
    parser.add_argument("--trials", type=int, default=12, help="trials of c and d")
    parser.add_argument("--give-up", type=float, default=70.0, help="seconds a watch lasts at most")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the finally clauses stop what was started
    DATABASE, DATABASE_URL = args.database, f"postgres://postgres@127.0.0.1:5432/{args.database}"
    run(args.tree.resolve(), args.only, args.trials, args.give_up)


if __name__ == "__main__":
    main()
