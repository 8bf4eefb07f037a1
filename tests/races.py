"""Several phones doing the same thing at the same instant (threads released by one barrier)."""

import threading

from django.db import connection


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
