"""A client that opens a stream and never reads what it is sent (API.md, "Bad input and faults"):
once its TCP buffers are full, the stream waits settings.STREAM_SEND_TIMEOUT for it to take one
event and then drops it: the server closes the connection, the stream's slot in the push hub is
given back and the connection no longer counts against the server's limit (uvicorn's
`limit_concurrency`, the Procfile's --worker-connections).

The Procfile's ASGI application is served by uvicorn in a thread of the test process (tests/live.py,
the browser tests' server), so the hub and the server's connections can be counted. The buffers are
made small (the server's send buffer, the client's receive buffer) so that a few changes of a
ten-player game fill them, and the timeout is lowered to a second."""

import socket
import time

import pytest

from scorekeeper import services
from scorekeeper.caches import push
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import live as links
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db(transaction=True)

TEN = ("Maria Guadalupe Fernandez", "José", "Ann", "Ben", "Cy", "Dot", "Eve", "Fay", "Gus", "Hal")
SMALL_BUFFER = 4096  # bytes (Linux doubles it)


def listeners() -> int:
    """The streams this process's hub holds (a stream listens under several topics: counted once)."""
    return len(set().union(*push.hub.listeners.values()))


def wait_until(check, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def closed_by_server(client: socket.socket) -> bool:
    """Whether the server has ended the connection: reading what is left comes to its end (or a reset)."""
    client.settimeout(5)
    try:
        while client.recv(65536):
            pass
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return True


def test_a_client_that_never_reads_is_dropped_and_frees_its_slot(live_server, settings):
    settings.STREAM_SEND_TIMEOUT = 1.0
    user = UserFactory()
    game = make_game(owner=user, names=TEN, tile_set=12)
    players = [seat.player_id for seat in game.seats.order_by("position")]
    for number in range(6):  # rounds make each state event a few kilobytes
        services.record_round(game=game, starting_double=12 - number, by=user, entries=[
            EntryInput(player=p, pips=0 if i == number else 10 + i, went_out=i == number) for i, p in enumerate(players)])  # fmt: skip
    token = links.share(game=game, by=user).token
    live_server.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SMALL_BUFFER)  # taken by what it accepts
    held_before, connections = listeners(), live_server.server.server_state.connections
    connected_before = len(connections)

    client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL_BUFFER)
    client.connect(live_server.socket.getsockname())
    try:
        client.sendall(f"GET /api/v1/live/{token}/events/ HTTP/1.1\r\nHost: {live_server.host}\r\n"
                       "Accept: text/event-stream\r\n\r\n".encode())  # fmt: skip
        assert wait_until(lambda: listeners() == held_before + 1, 10), "the stream never started"
        changes = 0
        while listeners() > held_before and changes < 400:  # each change is one state event it never reads
            services.rename_game(game=game, name=f"Friday at Lupe's, change {changes}", by=user)
            changes += 1
            time.sleep(0.02)
        assert listeners() == held_before, f"still streaming to a client that never read, after {changes} changes"
        # The connection itself is let go, not kept until the client reads what the server holds for it.
        assert wait_until(lambda: len(connections) == connected_before, 5), "the connection still counts"
        assert closed_by_server(client)
        print(f"dropped after {changes} unread changes")
    finally:
        client.close()
