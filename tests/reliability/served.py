"""The app as production runs it: the Procfile's web line on loopback, real settings, their own database."""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psycopg
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _admin_url() -> str:
    settings = connection.settings_dict
    return f"postgres://{settings['USER']}@{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}"


def database_name(name: str) -> str:
    """`name` within this run: after its own test database (one per DATABASE_URL, and one per
    pytest-xdist worker), so runs and workers side by side never drop each other's databases."""
    return f"{connection.settings_dict['NAME']}_{name}"


def fresh_database_url(tmp_path: Path, name: str, template: str | None = None) -> str:
    """A new database of the kind this test run uses (SQLite file or PostgreSQL): empty, or a copy
    of `template` (a URL this function gave)."""
    if connection.vendor != "postgresql":
        path = tmp_path / f"{name}.sqlite3"
        if template:
            shutil.copyfile(template.removeprefix("sqlite:///"), path)
        return f"sqlite:///{path}"
    server, name = _admin_url(), database_name(name)
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if template:
            admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template.rsplit("/", 1)[1]}"')
        else:
            admin.execute(f'CREATE DATABASE "{name}"')
    return f"{server}/{name}"


class MigratedDatabases:
    """Databases for served apps, each a copy of one migrated once per run (with its cache table,
    and whatever `manage` commands a test's set-up adds): a copy is made in a fraction of a second,
    where migrate and createcachetable in fresh processes took seconds for every test."""

    def __init__(self, tmp_path_factory, env: dict):
        self.tmp_path_factory, self.env, self.templates = tmp_path_factory, env, {}

    def url(self, tmp_path: Path, name: str, *setup: tuple[str, ...]) -> str:
        if setup not in self.templates:
            label = f"template{len(self.templates)}"
            template = fresh_database_url(self.tmp_path_factory.mktemp(label), label)
            env = app_env(template, **self.env)
            manage(env, "migrate", "--noinput")
            manage(env, "createcachetable")
            for command in setup:
                manage(env, *command)
            self.templates[setup] = template
        return fresh_database_url(tmp_path, name, template=self.templates[setup])


def app_env(database_url: str, **extra) -> dict:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DJANGO_SETTINGS_MODULE", "DEBUG", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    return {**clean, "SECRET_KEY": "served-" + "x" * 50, "DATABASE_URL": database_url, **extra}


def manage(env: dict, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


WEB_LINE = next(
    line.removeprefix("web: ") for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web: ")
)


class Server:
    """The Procfile's web line, as a deploy runs it (on a free port, `workers` processes)."""

    def __init__(self, env: dict, workers: int = 1, log: Path | None = None):
        """`log`: a file for the server's own log (warnings and errors); none kept otherwise."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        output = log.open("wb") if log is not None else subprocess.DEVNULL
        self.process = subprocess.Popen(
            ["bash", "-c", f"exec {WEB_LINE} --log-level warning"],
            cwd=ROOT,
            env={**env, "PORT": str(self.port), "WEB_CONCURRENCY": str(workers),
                 "PATH": f"{GUNICORN.parent}:{env.get('PATH', '')}"},
            stdout=output,
            stderr=output,
        )  # fmt: skip
        if log is not None:
            output.close()  # the child holds its own
        try:
            self.wait_until_up()
        except BaseException:
            self.stop()  # a server that did not start is not left running
            raise

    def wait_until_up(self):
        """Until a worker answers (a busy machine's workers take a while to boot)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                status, _, _ = request(f"{self.url}/rules/")
            except OSError:  # refused, reset or timed out (a busy machine): not up yet
                time.sleep(0.1)
            else:
                assert status == 200, status
                return
        raise RuntimeError("gunicorn did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)


def request(url: str, method: str = "GET", body: bytes | None = None, headers: dict | None = None):
    """(status, headers, body) without raising on 4xx/5xx.

    Every server is reached under one host name, as behind a site's proxy (allauth keys its
    per-account limits by site and email)."""
    req = urllib.request.Request(url, data=body, method=method, headers={"Host": "localhost", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=20) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()
