"""The live server the browser tests drive: the Procfile's web application (scorekeeper.asgi, the
streams held on uvicorn's event loop, every other request answered by the WSGI app in its pool of
threads), served by uvicorn in a thread of the test process, so a test's own writes (services
called from the test) reach the open streams at once, as a write on the server would.

pytest-django's live server is Django's threaded WSGI server: there a stream ends after its first
event and the browser comes back 2 s later (`make run`'s way), which is not what a deploy runs."""

import socket
import threading

from django.db import connections
from django.test.utils import modify_settings


class AsgiLiveServer:
    """What pytest-django's `live_server` fixture returns (its `url`, and the ALLOWED_HOSTS change
    its `_live_server_helper` enables per test), serving scorekeeper.asgi."""

    def __init__(self, host: str):
        import uvicorn

        from scorekeeper import asgi

        self.host, self.asgi = host, asgi
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind((socket.gethostbyname(host), 0))
        self.port = self.socket.getsockname()[1]
        config = uvicorn.Config(
            asgi.application, lifespan="off", log_level="warning", access_log=False, timeout_graceful_shutdown=2
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": host})

    def start(self) -> None:
        self.thread.start()
        for _ in range(500):  # 10 s
            if self.server.started or not self.thread.is_alive():
                break
            threading.Event().wait(0.02)
        if not self.server.started:
            raise RuntimeError("the live server did not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self._close_pool_connections()
        self.socket.close()

    def _close_pool_connections(self) -> None:
        """Each thread of the WSGI pool holds its database connection (CONN_MAX_AGE): they are closed
        in their own threads (one task on each, held together by a barrier) before the test database
        is dropped, which PostgreSQL refuses while anyone is connected."""
        executor = self.asgi.wsgi.executor
        workers = executor._max_workers
        barrier = threading.Barrier(workers)

        def close() -> None:
            connections.close_all()
            barrier.wait(timeout=10)

        for future in [executor.submit(close) for _ in range(workers)]:
            future.result(timeout=15)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __str__(self) -> str:
        return self.url

    def __add__(self, other: str) -> str:
        return f"{self}{other}"
