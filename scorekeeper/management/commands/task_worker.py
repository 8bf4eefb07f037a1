"""The Procfile's `worker:`: django-tasks-db's `db_worker`, made to outlive the database and to
take up what a dead worker left.

`db_worker` stops at the first error the database answers (a 2.4 s outage ended it, and nothing
started it again), and a task it was running when it was killed stays RUNNING for ever (a ratings
replay left its scorebook "updating" until its next rating change). This one:

- waits out a database that does not answer: any database error between tasks closes the
  connections and tries again after `--interval`, for as long as it takes;
- holds, on each of its database sessions, an advisory lock named after its worker id
  (PostgreSQL), so a dead worker is known at once (its sessions end with it): at its start and
  every HAND_BACK_EVERY seconds it hands back to the queue every RUNNING task whose worker holds no
  such lock, and runs it again. On SQLite, where no session can be seen, a task RUNNING for
  longer than RUNNING_AT_MOST is handed back. A task may so run twice: the tasks here are
  idempotent (a ratings replay writes what the games say; a mail is at least once).
Everything else is `db_worker`'s (its options, its signals).
"""

import logging
import threading
import time
from datetime import timedelta

from django.db import InterfaceError, OperationalError, connection, connections
from django.db.backends.signals import connection_created
from django.utils import timezone
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

logger = logging.getLogger(__name__)

HAND_BACK_EVERY = 20  # seconds: a killed worker's task runs again within a minute
RUNNING_AT_MOST = timedelta(minutes=10)  # SQLite's only rule
LOCKS = 38_0001  # the advisory locks' first key: a worker's is (LOCKS, hashtext(its id))


def _hold(worker_id: str):
    def take(sender, connection, **kwargs):
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))", [LOCKS, worker_id])

    return take


def living(worker_ids: set[str]) -> set[str]:
    """The workers of `worker_ids` whose database session still holds their lock (PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT worker FROM unnest(%s::text[]) AS worker WHERE EXISTS (SELECT 1 FROM pg_locks"
            " WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database"
            " WHERE datname = current_database()) AND classid = %s AND objsubid = 2"
            " AND objid::bigint = (hashtext(worker)::bigint & 4294967295))",
            [list(worker_ids), LOCKS],
        )
        return {row[0] for row in cursor.fetchall()}


def hand_back(backend_name: str) -> int:
    """Put back in the queue each RUNNING task whose worker died; how many."""
    running = DBTaskResult.objects.running().filter(backend_name=backend_name)
    tasks = list(running.values_list("id", "worker_ids", "started_at"))
    if not tasks:
        return 0
    if connection.vendor == "postgresql":
        alive = living({workers[-1] for _id, workers, _started in tasks if workers})
        dead = [pk for pk, workers, _started in tasks if not workers or workers[-1] not in alive]
    else:
        since = timezone.now() - RUNNING_AT_MOST
        dead = [pk for pk, _workers, started in tasks if started is None or started < since]
    handed = running.filter(pk__in=dead).update(status="READY", started_at=None) if dead else 0
    if handed:
        logger.warning("%d task(s) of dead workers handed back to the queue", handed)
    return handed


class SteadyWorker(db_worker.Worker):
    def run(self) -> None:
        connection_created.connect(_hold(self.worker_id), weak=False)
        threading.Thread(target=self._handing_back, name="hand-back", daemon=True).start()
        while True:
            try:
                super().run()
                return
            except (OperationalError, InterfaceError) as error:
                if not self.running:
                    return
                logger.warning("the database did not answer (%s): trying again in %s s", error, self.interval)
                connections.close_all()
                time.sleep(self.interval)

    def _handing_back(self) -> None:
        while self.running:
            try:
                hand_back(self.backend_name)
            except Exception:  # the database away: the next turn tries again
                logger.warning("could not look for tasks of dead workers", exc_info=True)
                connections.close_all()
            time.sleep(HAND_BACK_EVERY)


class Command(db_worker.Command):
    help = "Run the database queue's tasks, through database outages, taking up what dead workers left."

    def handle(self, *args, **options) -> None:
        plain, db_worker.Worker = db_worker.Worker, SteadyWorker  # db_worker's handle makes it by this name
        try:
            super().handle(*args, **options)
        finally:
            db_worker.Worker = plain
