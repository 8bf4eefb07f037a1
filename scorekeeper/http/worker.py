"""The Procfile's gunicorn worker: uvicorn's (the uvicorn-worker package), with gunicorn's limits
passed on. `--worker-connections` caps the connections one process holds (past it: 503). A restart
or deploy (TERM, HUP) ends the open streams at once (caches.push.Hub.close) and lets the requests
in flight finish within `--graceful-timeout`; the streams' browsers come back to the new processes
after their `retry:`, 2 to 6 s, spread out. The Procfile loads the app before the fork
(`--preload`): the workers boot with nothing to import (measured: the five workers' boot took
2.2 s of CPU against 7.9 s, CPU a restart's returning streams need), and caches.push makes each
child's origin anew at the fork. Without Redis, a worker that is not the only one cannot
hear the others' writes: its streams also check every 2 s (caches.push.Hub.alone)."""

import sys

from gunicorn.arbiter import Arbiter
from uvicorn.server import Server
from uvicorn_worker import UvicornWorker


class StreamServer(Server):
    async def shutdown(self, sockets=None) -> None:
        # Before uvicorn waits for its connections to close: a stream never closes by itself, and
        # one still open at the graceful timeout would be cancelled (an error logged per stream).
        from scorekeeper.caches import push  # in the worker: gunicorn's master imports this module

        push.hub.close()
        await super().shutdown(sockets=sockets)


class StreamWorker(UvicornWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.config.limit_concurrency = self.cfg.worker_connections
        self.config.timeout_graceful_shutdown = self.cfg.graceful_timeout

    async def _serve(self) -> None:
        # uvicorn-worker's own, with the server above; and whether this worker is the only one.
        from scorekeeper.caches import push

        push.hub.alone = self.cfg.workers == 1
        self.config.app = self.wsgi
        server = StreamServer(config=self.config)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
