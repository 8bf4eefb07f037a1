"""The Procfile's gunicorn worker: uvicorn's (the uvicorn-worker package), with gunicorn's limits
passed on. `--worker-connections` caps the connections one process holds (past it: 503), and a
restart or deploy ends the open streams after `--graceful-timeout` (their browsers come back to the
new processes after their `retry:`, 2 to 6 s, spread out)."""

from uvicorn_worker import UvicornWorker


class StreamWorker(UvicornWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.config.limit_concurrency = self.cfg.worker_connections
        self.config.timeout_graceful_shutdown = self.cfg.graceful_timeout
