"""A write that takes something away races the polls that remember it (PostgreSQL, real commits):
six phones poll as fast as they can while the write happens; no poll that starts once the write has
returned is answered 304 from the cache (caches.kept: entries are written under the stamps read
before the database, so one remembered by a full request that overlapped the write is born stale)."""

import threading
import time

import pytest
from django.db import connection
from django.test import Client

from tests.api.conftest import Api, app_for, start_game

pytestmark = [pytest.mark.django_db(transaction=True)]

POLLERS, TRIALS = 6, 4


def _race(poll, write) -> list[tuple[float, int]]:
    """Run `poll()` (a status) in POLLERS threads while `write()` runs once; each poll's start time
    and status, and the moment the write returned."""
    answers, stop = [], threading.Event()

    def phone():
        try:
            while not stop.is_set():
                started = time.monotonic()
                answers.append((started, poll()))
        finally:
            connection.close()

    threads = [threading.Thread(target=phone) for _ in range(POLLERS)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while not any(status == 304 for _started, status in answers) and time.monotonic() < deadline:
        time.sleep(0.05)  # the race is on once the polls are answered from the cache
    time.sleep(0.1)
    write()
    done = time.monotonic()
    time.sleep(0.5)
    stop.set()
    for thread in threads:
        thread.join()
    return done, answers


@pytest.fixture
def club(postgres_only):
    owner, member = app_for("owner@example.com"), app_for("member@example.com")
    book = owner.post("/api/v1/scorebooks/", {"name": "Club"}).json()
    return owner, member, book


def _member_of(owner, member, book, trial, role="scorer"):
    code = owner.post(f"/api/v1/scorebooks/{book['id']}/invites/", {"role": role}).json()["code"]
    assert member.post(f"/api/v1/invites/{code}/accept/").status_code == 200
    ids = [
        owner.post("/api/v1/players/", {"name": n, "scorebook": book["id"]}).json()["id"]
        for n in (f"A{trial}", f"B{trial}")
    ]
    return owner.post("/api/v1/games/", {"scorebook": book["id"], "players": ids}).json()


def test_a_member_removed_while_six_phones_poll_gets_no_304_once_the_removal_returned(club):
    owner, member, book = club
    for trial in range(TRIALS):
        game = _member_of(owner, member, book, trial)
        url = f"/api/v1/games/{game['id']}/"
        etag = member.get(url)["ETag"]
        token = member.headers["X-Session-Token"]

        def poll(token=token, url=url, etag=etag):
            return Api(Client(), {"X-Session-Token": token}).get(url, headers={"If-None-Match": etag}).status_code

        removal = f"/api/v1/scorebooks/{book['id']}/members/{member.user.pk}/"
        done, answers = _race(poll, lambda path=removal: owner.delete(path))
        assert any(status == 304 for started, status in answers if started < done)  # the race was on
        assert [status for started, status in answers if started > done and status == 304] == []


def test_a_live_link_revoked_while_six_viewers_poll_gets_no_304_once_the_revocation_returned(club, settings):
    settings.LIVE_REQUESTS_PER_MINUTE = 1_000_000  # the address's budget is not what this races
    owner, _member, _book = club
    for _trial in range(TRIALS):
        game = start_game(owner)
        made = owner.post(f"/api/v1/games/{game['id']}/share/").json()
        etag = Client().get(made["api_url"])["ETag"]

        def poll(url=made["api_url"], etag=etag):
            return Client().get(url, headers={"If-None-Match": etag}).status_code

        done, answers = _race(poll, lambda pk=game["id"]: owner.delete(f"/api/v1/games/{pk}/share/"))
        assert any(status == 304 for started, status in answers if started < done)
        assert [status for started, status in answers if started > done and status == 304] == []


def test_a_round_at_one_table_while_six_phones_poll_the_night_gets_no_304_once_the_round_returned(club, settings):
    settings.LIVE_REQUESTS_PER_MINUTE = 1_000_000
    owner, member, book = club
    for trial in range(TRIALS):
        if trial == 0:
            game = _member_of(owner, member, book, trial, role="viewer")
        else:
            ids = [owner.post("/api/v1/players/", {"name": f"{n}{trial}", "scorebook": book["id"]}).json()["id"]
                   for n in ("A", "B")]  # fmt: skip
            game = owner.post("/api/v1/games/", {"scorebook": book["id"], "players": ids}).json()
        night = owner.post(f"/api/v1/scorebooks/{book['id']}/nights/", {"name": f"N{trial}", "date": "2026-11-27"})
        night = night.json()["id"]
        assert owner.patch(f"/api/v1/games/{game['id']}/", {"night": night}).status_code == 200
        url = f"/api/v1/nights/{night}/"
        live = owner.post(f"/api/v1/nights/{night}/share/").json()["api_url"]
        etag, live_etag = member.get(url)["ETag"], Client().get(live)["ETag"]
        token = member.headers["X-Session-Token"]
        players = [player["id"] for player in game["players"]]
        round_ = {"starting_double": game["next_starting_double"], "entries": [{"player": players[0], "pips": 0, "went_out": True},
                                                     {"player": players[1], "pips": 7}]}  # fmt: skip

        def poll(token=token, url=url, etag=etag, live=live, live_etag=live_etag):
            mine = Api(Client(), {"X-Session-Token": token}).get(url, headers={"If-None-Match": etag}).status_code
            seen = Client().get(live, headers={"If-None-Match": live_etag}).status_code
            return 304 if 304 in (mine, seen) else mine

        done, answers = _race(poll, lambda pk=game["id"], body=round_: owner.post(f"/api/v1/games/{pk}/rounds/", body))
        assert any(status == 304 for started, status in answers if started < done)  # the race was on
        assert [status for started, status in answers if started > done and status == 304] == []
