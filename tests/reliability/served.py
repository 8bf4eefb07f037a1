"""The app as production runs it: gunicorn processes on loopback, real settings, their own database."""

import os
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


def fresh_database_url(tmp_path: Path, name: str) -> str:
    """A new empty database of the kind this test run uses (SQLite file or PostgreSQL)."""
    if connection.vendor != "postgresql":
        return f"sqlite:///{tmp_path / f'{name}.sqlite3'}"
    settings = connection.settings_dict
    server = f"postgres://{settings['USER']}@{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    return f"{server}/{name}"


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


class Server:
    def __init__(self, env: dict, workers: int = 1):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [str(GUNICORN), "scorekeeper.wsgi", "--bind", f"127.0.0.1:{self.port}", "--workers", str(workers),
             "--no-control-socket", "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                status, _, _ = request(f"{self.url}/rules/")
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
            else:
                assert status == 200, status
                return
        self.stop()
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
