"""A real outage: gunicorn talks to PostgreSQL through a proxy that we cut and bring back."""

import contextlib
import json
import socket
import threading

import pytest

from tests.reliability.served import Server, app_env, free_port, request


class Proxy:
    """A TCP relay on loopback; `cut()` drops every connection and stops listening."""

    def __init__(self, port: int, target: tuple[str, int]):
        self.port, self.target = port, target
        self.connections: list[socket.socket] = []
        self.start()

    def start(self):
        self.listener = socket.create_server(("127.0.0.1", self.port))  # SO_REUSEADDR: the port comes back at once
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
        with contextlib.suppress(OSError):  # wakes the thread blocked in accept() (Linux)
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        for connection in self.connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
                connection.close()
            except OSError:
                pass
        self.connections = []


@pytest.fixture
def served_through_proxy(postgres_only, tmp_path, static_root, migrated):
    direct = migrated.url(tmp_path, "outage")  # migrated, cache table made
    env = app_env(direct, STATIC_ROOT=str(static_root))
    port = free_port()
    proxy = Proxy(port, ("127.0.0.1", 5432))
    server = Server({**env, "DATABASE_URL": direct.replace(":5432/", f":{port}/")})
    yield server, proxy
    server.stop()
    proxy.cut()


def sign_up(server) -> str:
    body = json.dumps({"email": "outage@example.com", "password": "domino-night-77"}).encode()
    status, _, answer = request(
        f"{server.url}/_allauth/app/v1/auth/signup", "POST", body, {"Content-Type": "application/json"}
    )
    assert status == 200, answer
    return json.loads(answer)["meta"]["session_token"]


def test_a_lost_database_is_a_503_with_retry_after_and_the_app_recovers_by_itself(served_through_proxy):
    server, proxy = served_through_proxy
    token = sign_up(server)
    games = f"{server.url}/api/v1/games/"
    assert request(games, headers={"X-Session-Token": token})[0] == 200

    proxy.cut()
    status, headers, body = request(games, headers={"X-Session-Token": token})
    assert status == 503 and int(headers["Retry-After"]) > 0
    assert json.loads(body)["code"] == "service_unavailable"
    assert request(f"{server.url}/healthz/", headers={"Accept": "application/json"})[0] == 503

    proxy.start()  # the database is back: no restart, the next request reconnects
    assert request(games, headers={"X-Session-Token": token})[0] == 200
    assert request(f"{server.url}/healthz/", headers={"Accept": "application/json"})[0] == 200
