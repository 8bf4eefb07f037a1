"""Pushed updates across two nodes sharing the database and a real Redis: a round saved on node A
reaches a stream held by node B through Redis pub/sub, and keeps reaching it while Redis is killed
and after it is started again (caches.push: the stream checks by itself while Redis is away and
reads again once the subscription is back)."""

import time

import pytest

from tests.api.stream_client import Stream
from tests.api.test_streams import Member, assert_a_round_reaches_every_stream_of_the_node
from tests.reliability.served import Server, app_env
from tests.reliability.test_redis_outage import RedisServer

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_nodes(tmp_path, static_root, migrated):
    redis = RedisServer()
    env = app_env(migrated.url(tmp_path, "streams_redis"), STATIC_ROOT=str(static_root), REDIS_URL=redis.url)
    nodes = []
    try:
        nodes = [Server(env), Server(env)]
        yield redis, nodes
    finally:
        for node in nodes:
            node.stop()
        redis.kill()


def wait_for_pong(redis: RedisServer):
    import subprocess

    deadline = time.monotonic() + 10
    while subprocess.run(["redis-cli", "-p", str(redis.port), "ping"], capture_output=True).stdout != b"PONG\n":
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_round_on_one_node_reaches_a_stream_on_the_other_before_during_and_after_a_redis_restart(two_nodes):
    redis, (a, b) = two_nodes
    member = Member(a)
    game = member.game()
    events = Stream(f"{b.url}/api/v1/games/{game['id']}/events/", {"Accept": "text/event-stream", **member.auth})
    try:
        assert events.next_event().event == "state"
        member.round(game, 12, 5, 7)  # on A; B hears it through Redis
        assert len(events.next_event().json()["rounds"]) == 1

        redis.kill()
        member.round(game, 11, 2, 3)  # nobody to tell: B's stream checks by itself meanwhile
        assert len(events.next_event().json()["rounds"]) == 2

        revived = RedisServer(redis.port)  # empty, on the same port
        redis.process = revived.process
        wait_for_pong(revived)
        member.round(game, 10, 4, 1)
        state = events.next_event()
        assert len(state.json()["rounds"]) == 3
        assert state.id == member.call("GET", f"/api/v1/games/{game['id']}/")[1]["ETag"]
    finally:
        events.close()


def test_a_round_reaches_the_streams_held_by_every_worker_of_a_node_through_redis(tmp_path, static_root, migrated):
    """The Procfile's workers share one port: eight streams fall on either of two, the round on one.
    Each worker has an origin of its own (caches.push.ORIGIN, made again at the fork), so each hears
    the other's news through Redis rather than skipping it as its own."""
    redis = RedisServer()
    env = app_env(migrated.url(tmp_path, "workers_redis"), STATIC_ROOT=str(static_root), REDIS_URL=redis.url)
    served = None
    try:
        served = Server(env, workers=2)
        assert_a_round_reaches_every_stream_of_the_node(served)
    finally:
        if served is not None:
            served.stop()
        redis.kill()
