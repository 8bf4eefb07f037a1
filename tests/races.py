"""Several phones doing the same thing at the same instant (threads released by one barrier), or one
while another holds its rows."""

import threading
import time

from django.db import connection, transaction


def at_once(count: int, action) -> list:
    """Run `action()` in `count` threads started together; what each returned or raised, as a list
    (in no particular order). Every thread closes its own database connection."""
    barrier = threading.Barrier(count)
    outcomes = []

    def run():
        try:
            barrier.wait()
            outcomes.append(action())
        except Exception as error:  # the test says which errors are expected
            outcomes.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def first_holds_second_waits(first, second) -> tuple:
    """`first()` runs in a transaction of its own thread and keeps it open until `second()`, in
    another thread, waits for one of its row locks (PostgreSQL's pg_stat_activity says so); then it
    commits. What each returned or raised, and whether the second was seen waiting."""
    outcomes, done_first, release = {}, threading.Event(), threading.Event()

    def run_first():
        try:
            with transaction.atomic():
                outcomes["first"] = first()
                done_first.set()
                release.wait(30)
        except Exception as error:
            outcomes["first"] = error
        finally:
            done_first.set()
            connection.close()

    def run_second():
        try:
            outcomes["second"] = second()
        except Exception as error:
            outcomes["second"] = error
        finally:
            connection.close()

    holder = threading.Thread(target=run_first)
    holder.start()
    done_first.wait(30)
    waiter = threading.Thread(target=run_second)
    waiter.start()
    waited = _until_a_lock_is_awaited()
    release.set()
    holder.join()
    waiter.join()
    return outcomes.get("first"), outcomes.get("second"), waited


def _until_a_lock_is_awaited(tries: int = 500) -> bool:
    """Whether a connection to this database came to wait for a lock (checked every 20 ms, 10 s at most)."""
    with connection.cursor() as cursor:
        for _ in range(tries):
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.02)
    return False
