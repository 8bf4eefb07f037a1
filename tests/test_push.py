"""The hub of pushed updates (caches.push): what a committed write wakes, and how changes coalesce.
The streams themselves are read over HTTP in tests/api/test_streams.py."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from scorekeeper.caches import push
from scorekeeper.caches.rule import Change, announce


def run(coroutine):
    # In a thread of its own: after a browser test, Playwright (a session fixture) keeps an event
    # loop in the main thread, and asyncio.run refuses to start a second one there.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_a_change_wakes_the_streams_of_its_topics_and_no_other():
    async def scenario():
        hub = push.Hub()
        game, other = hub.listen([push.game_topic(1)]), hub.listen([push.game_topic(2)])
        hub.deliver(push.topics_of(Change("round recorded", games=frozenset({1}))))
        return game.woken.is_set(), other.woken.is_set()

    assert run(scenario()) == (True, False)


def test_changes_that_come_while_a_stream_is_busy_coalesce_into_one_wake():
    async def scenario():
        hub = push.Hub()
        listener = hub.listen([push.game_topic(1)])
        for _ in range(3):
            hub.deliver([push.game_topic(1)])
        wakes = 0
        while listener.woken.is_set():
            listener.woken.clear()
            wakes += 1
        return wakes

    assert run(scenario()) == 1


def test_a_stream_that_left_is_not_woken_and_leaves_no_topic_behind():
    async def scenario():
        hub = push.Hub()
        listener = hub.listen([push.game_topic(1), push.book_topic(3)])
        hub.leave(listener)
        hub.deliver([push.game_topic(1)])
        return listener.woken.is_set(), dict(hub.listeners)

    assert run(scenario()) == (False, {})


def test_a_scorebook_session_and_account_change_name_topics_without_the_session_key():
    change = Change("member removed", scorebooks=frozenset({3}), sessions=frozenset({"secret-key"}), accounts={7})
    topics = push.topics_of(change)
    assert push.book_topic(3) in topics and push.account_topic(7) in topics
    assert push.session_topic("secret-key") in topics and not any("secret-key" in topic for topic in topics)


@pytest.mark.django_db
def test_an_announced_write_is_published_only_once_its_transaction_commits(django_capture_on_commit_callbacks):
    loop, pool = asyncio.new_event_loop(), ThreadPoolExecutor(1)  # the loop in a thread of its own, as in run()

    def turn(coroutine):
        return pool.submit(loop.run_until_complete, coroutine).result()

    async def listen():
        return push.hub.listen([push.game_topic(41)])

    listener = turn(listen())
    try:
        with django_capture_on_commit_callbacks() as callbacks:
            announce("round recorded", games=[41])
        turn(asyncio.sleep(0))
        assert not listener.woken.is_set()  # not before the commit
        for callback in callbacks:
            callback()
        turn(asyncio.sleep(0))  # delivered through the loop, as from a worker thread
        assert listener.woken.is_set()
    finally:
        push.hub.leave(listener)
        pool.submit(loop.close).result()
        pool.shutdown()


def test_every_forked_worker_has_an_origin_of_its_own():
    """gunicorn's master imports this module (http.worker) before it forks the workers: workers that
    shared the master's origin would skip each other's news as their own."""
    import os

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its origin, and out
        os.write(write, push.ORIGIN.encode())
        os._exit(0)
    os.close(write)
    child = os.read(read, 64).decode()
    os.close(read)
    os.waitpid(pid, 0)
    assert child and child != push.ORIGIN
