"""A gunicorn worker frozen (SIGSTOP) in the middle of a round's POST, holding the game's row lock and
the round's Idempotency-Key: PostgreSQL ends its idle transaction within seconds (the settings'
IDLE_IN_TRANSACTION_MS), so the phone's retry saves the round and the table goes on, long before
gunicorn's timeout would have killed the worker."""

import contextlib
import json
import os
import signal
import threading
import time
from pathlib import Path

import psycopg
import pytest

from tests.reliability.served import Server, app_env, request
from tests.reliability.test_forgetting import workers_of

pytestmark = pytest.mark.django_db

JSON = {"Content-Type": "application/json", "Accept": "application/json"}


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


@pytest.fixture
def served(postgres_only, tmp_path, static_root, migrated):
    url = migrated.url(tmp_path, "frozen")
    server = Server(app_env(url, STATIC_ROOT=str(static_root)), workers=2)
    yield server, url
    server.stop()


def test_a_worker_frozen_mid_round_lets_go_of_the_game_and_its_key_within_seconds(served):
    server, database = served
    body = json.dumps({"email": "frozen@example.com", "password": "correct-horse-42"}).encode()
    token = json.loads(request(f"{server.url}/_allauth/app/v1/auth/signup", "POST", body, JSON)[2])["meta"]
    auth = {"X-Session-Token": token["session_token"], **JSON}

    def call(method, path, payload=None, headers=auth):
        status, _, body = request(f"{server.url}{path}", method, payload and json.dumps(payload).encode(), headers)
        return status, json.loads(body or b"{}")

    ids = [call("POST", "/api/v1/players/", {"name": name})[1]["id"] for name in ("Ann", "Ben")]
    game = call("POST", "/api/v1/games/", {"players": ids})[1]["id"]
    path = f"/api/v1/games/{game}/rounds/"
    entries = [{"player": ids[0], "pips": 0, "went_out": True}, {"player": ids[1], "pips": 20}]
    payload = {"starting_double": 12, "entries": entries}
    keyed = {**auth, "Idempotency-Key": "frozen-round-1"}
    first = {}
    thread = threading.Thread(target=lambda: first.update(answer=call("POST", path, payload, keyed)), daemon=True)
    frozen = None
    with psycopg.connect(database, autocommit=True) as admin:
        lock = psycopg.connect(database)  # holds the game's row until the worker waits on it, key claimed
        try:
            lock.execute("SELECT 1 FROM scorekeeper_game WHERE id = %s FOR UPDATE", [game])
            thread.start()
            deadline, waiting = time.monotonic() + 20, None
            while waiting is None:
                assert time.monotonic() < deadline, "the POST never waited on the game's lock"
                waiting = admin.execute(
                    "SELECT client_port, pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> %s"
                    " AND datname = current_database()",
                    [lock.info.backend_pid],
                ).fetchone()
                time.sleep(0.02)
            frozen = _worker_with_port(workers_of(server), waiting[0])
            assert frozen is not None
            os.kill(frozen, signal.SIGSTOP)
        finally:
            lock.rollback()  # the frozen worker now holds the game's row, and the key
            lock.close()
        try:
            # Another phone's round and the same phone's retry, on the other worker: both wait on the
            # frozen transaction until PostgreSQL ends it, then go through.
            answers = []
            deadline = time.monotonic() + 20  # gunicorn's timeout (30 s) would free it only later
            while not answers or answers[-1] != 201:
                assert time.monotonic() < deadline, answers
                answers.append(call("POST", path, payload, keyed)[0])
            assert set(answers) <= {409, 201}, answers  # 409: in progress, while the frozen one holds the key
            other = [{"player": ids[0], "pips": 15}, {"player": ids[1], "pips": 0, "went_out": True}]
            assert call("POST", path, {"starting_double": 11, "entries": other})[0] == 201  # the table goes on
            gone = admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [waiting[1]])
            assert gone.fetchone()[0] == 0  # PostgreSQL ended the frozen worker's session
        finally:
            os.kill(frozen, signal.SIGCONT)
    thread.join(timeout=30)
    rounds = call("GET", f"/api/v1/games/{game}/")[1]["rounds"]
    assert [r["number"] for r in rounds] == [1, 2]  # the keyed round once, the other phone's once
