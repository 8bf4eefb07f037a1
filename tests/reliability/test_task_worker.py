"""The Procfile's worker (`manage.py task_worker`) on PostgreSQL: it takes up again a task a killed
worker left RUNNING, never one a living worker runs, and it outlives a database outage."""

import json
import subprocess
import sys
import time
import uuid

import psycopg
import pytest

from tests.reliability.served import ROOT, app_env, free_port
from tests.reliability.test_database_outage_served import Proxy

pytestmark = pytest.mark.django_db

TABLE = "django_tasks_database_dbtaskresult"


class TaskWorker:
    """`python manage.py task_worker` on `database_url`, as the Procfile starts it (a quick interval)."""

    def __init__(self, database_url: str, static_root):
        env = app_env(database_url, STATIC_ROOT=str(static_root))
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "task_worker", "--interval", "0.2", "--no-startup-delay"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def enqueue(database: str, status: str = "READY", worker: str | None = None) -> str:
    """A task of the app's (a ratings replay of a scorebook with nothing pending: it ends at once)."""
    pk = str(uuid.uuid4())
    with psycopg.connect(database, autocommit=True) as db:
        db.execute(
            f"INSERT INTO {TABLE} (id, status, enqueued_at, started_at, args_kwargs, priority, task_path,"
            " worker_ids, queue_name, backend_name, run_after, exception_class_path, traceback)"
            " VALUES (%s, %s, now(), CASE WHEN %s = 'RUNNING' THEN now() END, %s, 0, %s, %s, 'default', 'default',"
            " now(), '', '')",
            [pk, status, status, json.dumps({"args": [1], "kwargs": {}}), "scorekeeper.tasks.replay_ratings",
             json.dumps([worker] if worker else [])],
        )  # fmt: skip
    return pk


def status_of(database: str, pk: str) -> str:
    with psycopg.connect(database, autocommit=True) as db:
        return db.execute(f"SELECT status FROM {TABLE} WHERE id = %s", [pk]).fetchone()[0]


def wait_for(database: str, pk: str, status: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while status_of(database, pk) != status:
        assert time.monotonic() < deadline, f"task {pk} is {status_of(database, pk)}, not {status}"
        time.sleep(0.1)


def test_the_worker_takes_up_what_a_killed_worker_left_and_outlives_a_database_outage(
    postgres_only, tmp_path, static_root, migrated
):
    from scorekeeper.management.commands.task_worker import LOCKS

    direct = migrated.url(tmp_path, "worker")
    port = free_port()
    proxy = Proxy(port, ("127.0.0.1", 5432))
    with psycopg.connect(direct, autocommit=True) as alive:  # a living worker: its session holds its lock
        alive.execute("SELECT pg_advisory_lock(%s, hashtext(%s))", [LOCKS, "living-worker"])
        left = enqueue(direct, "RUNNING", worker="killed-worker")  # its worker's session is gone
        running = enqueue(direct, "RUNNING", worker="living-worker")
        worker = TaskWorker(direct.replace(":5432/", f":{port}/"), static_root)
        try:
            wait_for(direct, left, "SUCCESSFUL")
            wait_for(direct, enqueue(direct), "SUCCESSFUL")  # a turn of the worker after the hand-back
            assert status_of(direct, running) == "RUNNING"
            proxy.cut()
            time.sleep(1.5)  # an outage that ended db_worker (its first query failed)
            assert worker.process.poll() is None
            proxy.start()
            wait_for(direct, enqueue(direct), "SUCCESSFUL")
            assert worker.process.poll() is None
        finally:
            worker.stop()
            proxy.cut()
