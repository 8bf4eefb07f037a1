"""A change far back in a scorebook's history is replayed by a task (scorekeeper.tasks): the request
marks the ratings as updating and returns; pages and API say so until the task has run."""

import threading
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import OperationalError, connection
from django.tasks import task_backends
from django.tasks.backends.base import BaseTaskBackend
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Game, Player, Scorebook
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import ratings
from scorekeeper.tasks import replay_ratings
from tests.api.conftest import app_for
from tests.races import at_once
from tests.test_records import _current, _steps, assert_ratings_match_a_replay

pytestmark = pytest.mark.django_db

DUMMY = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
UPDATING = "Ratings are being updated…"


class QueueDown(BaseTaskBackend):
    """A task queue that cannot be reached (its database or broker is down)."""

    def enqueue(self, task, args, kwargs):
        raise OperationalError("the task queue is unreachable")


@pytest.fixture
def app(db):
    return app_for("ann@example.com")


def play(app, games: int) -> list[Game]:
    """`games` finished double-6 games of Ann, Ben and Cy, a day apart, the oldest first; the winner
    goes round the table, the others hold 5 and 9 in every round."""
    ids = [Player.objects.get_or_create(scorebook=book_of(app), name=name)[0].pk for name in ("Ann", "Ben", "Cy")]
    now = timezone.now()
    made = []
    for number in range(games):
        out, *others = ids[number % 3 :] + ids[: number % 3]
        rounds = [
            (double, [EntryInput(out, pips=0, went_out=True), EntryInput(others[0], pips=5),
                      EntryInput(others[1], pips=9)])
            for double in range(6, -1, -1)
        ]  # fmt: skip
        played = now - timedelta(days=games - number)
        made.append(services.import_game(by=app.user, players=ids, rules=GameRules(tile_set=6), rounds=rounds,
                                         played_at=played, finished_at=played))  # fmt: skip
    return made


def queued_replays() -> list:
    """The replays enqueued on the DummyBackend (mail sent at sign-up goes there too)."""
    return [result for result in task_backends["default"].results if result.task.name == "replay_ratings"]


def book_of(app) -> Scorebook:
    return Scorebook.personal_for(app.user)


def turn_around(app, game: Game):
    """Correct the game's last round through the API so its last player wins and its winner is
    last (the finishing order changes: the ratings must be replayed from this game on)."""
    seats = list(game.seats.order_by("rank", "position"))
    winner, middle, last = (seat.player_id for seat in seats)
    body = {
        "starting_double": 0,
        "entries": [{"player": last, "pips": 0, "went_out": True}, {"player": middle, "pips": 5},
                    {"player": winner, "pips": 60}],
    }  # fmt: skip
    return app.put(f"/api/v1/games/{game.pk}/rounds/7/", body)


def updating_in_api(app) -> set:
    rows = app.get("/api/v1/leaderboard/").json()["results"]
    stats = {app.get(f"/api/v1/players/{row['player']['id']}/stats/").json()["rating_updating"] for row in rows}
    return {row["rating_updating"] for row in rows} | stats


def pages_of(app, **headers) -> list[str]:
    browser = Client(headers=headers)
    browser.force_login(app.user)
    player = Player.objects.filter(scorebook=book_of(app)).first()
    return [browser.get(reverse(name, args=args)).content.decode() for name, args in
            (("leaderboard", ()), ("player", (player.pk,)))]  # fmt: skip


def test_a_correction_with_few_later_games_replays_the_ratings_in_the_request(
    app, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DUMMY
    games = play(app, ratings.REPLAY_IN_REQUEST)  # the corrected game and the ones after it: all replayed at once
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_around(app, games[0]).status_code == 200
    assert queued_replays() == []
    assert not Scorebook.objects.get(pk=book_of(app).pk).ratings_updating
    assert updating_in_api(app) == {False}
    assert all(UPDATING not in page for page in pages_of(app))
    assert_ratings_match_a_replay(app.user)


def test_a_correction_further_back_is_left_to_one_task_and_the_ratings_say_so_until_it_has_run(
    app, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DUMMY
    games = play(app, ratings.REPLAY_IN_REQUEST + 1)
    steps, current = _steps(), _current(app.user)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_around(app, games[0]).status_code == 200
    (queued,) = queued_replays()
    assert queued.task.name == "replay_ratings" and queued.args == [book_of(app).pk]
    # Until the task runs: the ratings from before the correction, marked as updating everywhere.
    assert (_steps(), _current(app.user)) == (steps, current)
    assert Scorebook.objects.get(pk=book_of(app).pk).ratings_updating
    assert updating_in_api(app) == {True}
    assert all(UPDATING in page for page in pages_of(app))
    assert all("Se están actualizando las valoraciones…" in page for page in pages_of(app, **{"Accept-Language": "es"}))

    assert queued.task.call(*queued.args) is True  # what the worker does
    assert not Scorebook.objects.get(pk=book_of(app).pk).ratings_updating
    assert updating_in_api(app) == {False}
    assert all(UPDATING not in page for page in pages_of(app))
    assert _steps() != steps
    assert_ratings_match_a_replay(app.user)  # the same as a replay of every game from scratch


def test_with_the_queue_down_the_request_replays_the_ratings_itself(
    app, settings, django_capture_on_commit_callbacks, caplog
):
    settings.TASKS = {"default": {"BACKEND": f"{__name__}.QueueDown"}}
    games = play(app, ratings.REPLAY_IN_REQUEST + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_around(app, games[0]).status_code == 200
    assert "Could not enqueue the ratings replay" in caplog.text
    assert not Scorebook.objects.get(pk=book_of(app).pk).ratings_updating
    assert_ratings_match_a_replay(app.user)


def test_changes_while_a_replay_is_pending_join_it_from_the_earliest_of_their_games(
    app, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DUMMY
    games = play(app, ratings.REPLAY_IN_REQUEST + 3)
    with django_capture_on_commit_callbacks(execute=True):
        assert app.delete(f"/api/v1/games/{games[1].pk}/").status_code == 204  # to the trash: 21 games after it
        assert turn_around(app, games[0]).status_code == 200  # further back still
        assert turn_around(app, games[-1]).status_code == 200  # the latest game: joins the pending replay
    book = Scorebook.objects.get(pk=book_of(app).pk)
    assert (book.ratings_pending_at, book.ratings_pending_game) == (games[0].finished_at, games[0].pk)
    queued = queued_replays()
    assert len(queued) == 3  # one per change; the first to run replays them all
    assert [result.task.call(*result.args) for result in queued] == [True, False, False]
    assert not Scorebook.objects.get(pk=book.pk).ratings_updating
    assert_ratings_match_a_replay(app.user)


def test_a_task_overtaken_by_a_change_leaves_the_writing_to_the_task_enqueued_after_it(
    app, settings, django_capture_on_commit_callbacks, monkeypatch
):
    settings.TASKS = DUMMY
    games = play(app, ratings.REPLAY_IN_REQUEST + 3)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_around(app, games[2]).status_code == 200  # 21 games to replay: the task's
    replay = ratings._replay

    def replay_while_a_correction_comes_in(*args):
        worked_out = replay(*args)  # the task has read the games; then a phone corrects an older one
        monkeypatch.setattr(ratings, "_replay", replay)
        with django_capture_on_commit_callbacks(execute=True):
            assert turn_around(app, Game.objects.get(pk=games[0].pk)).status_code == 200
        return worked_out

    monkeypatch.setattr(ratings, "_replay", replay_while_a_correction_comes_in)
    (first,) = queued_replays()
    assert first.task.call(*first.args) is False  # its replay misses the correction: not written
    book = Scorebook.objects.get(pk=book_of(app).pk)
    assert book.ratings_updating and book.ratings_pending_game == games[0].pk
    _first, second = queued_replays()  # the correction's own
    assert second.task.call(*second.args) is True
    assert_ratings_match_a_replay(app.user)


def test_the_rebuild_command_replays_a_pending_replay_and_clears_the_mark(
    app, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = DUMMY
    games = play(app, ratings.REPLAY_IN_REQUEST + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_around(app, games[0]).status_code == 200
    call_command("rebuild_ratings", stdout=StringIO())
    assert not Scorebook.objects.get(pk=book_of(app).pk).ratings_updating
    assert replay_ratings.call(book_of(app).pk) is False  # the queued task finds nothing left to do
    assert_ratings_match_a_replay(app.user)


@pytest.mark.django_db(transaction=True)
def test_the_worker_replays_a_deep_correction_from_the_database_queue(settings):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    app = app_for("ann@example.com")
    games = play(app, ratings.REPLAY_IN_REQUEST + 1)
    assert turn_around(app, games[0]).status_code == 200  # committed: the task is in the queue
    replays = DBTaskResult.objects.filter(task_path="scorekeeper.tasks.replay_ratings")
    assert list(replays.values_list("status", flat=True)) == ["READY"]
    assert updating_in_api(app) == {True}
    call_command("db_worker", "--batch", "--no-startup-delay")
    assert list(replays.values_list("status", flat=True)) == ["SUCCESSFUL"]
    assert updating_in_api(app) == {False}
    assert_ratings_match_a_replay(app.user)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_deep_corrections_at_the_same_instant_end_in_the_ratings_of_a_full_replay(postgres_only, attempt):
    """Each correction commits, enqueues its task and (ImmediateBackend) runs it at once, in its own
    thread: the replays overlap, the ones overtaken write nothing, none waits on another for ever."""
    app = app_for("ann@example.com")
    games = play(app, ratings.REPLAY_IN_REQUEST + 4)
    turned = [Game.objects.get(pk=game.pk) for game in games[:4]]
    outcomes = at_once(4, lambda: turn_around_in_service(turned.pop()))
    assert all(isinstance(outcome, Game) for outcome in outcomes), outcomes
    assert not Scorebook.objects.get(pk=book_of(app).pk).ratings_updating
    assert_ratings_match_a_replay(app.user)


def turn_around_in_service(game: Game) -> Game:
    """turn_around, as the service the API calls."""
    winner, middle, last = (seat.player_id for seat in game.seats.order_by("rank", "position"))
    services.correct_round(
        round=game.rounds.get(number=7),
        entries=[EntryInput(last, pips=0, went_out=True), EntryInput(middle, pips=5), EntryInput(winner, pips=60)],
    )
    return game


@pytest.mark.django_db(transaction=True)
def test_a_change_handed_over_while_the_task_writes_waits_for_nothing_and_is_not_lost(
    postgres_only, settings, monkeypatch
):
    settings.TASKS = DUMMY
    app = app_for("ann@example.com")
    games = play(app, ratings.REPLAY_IN_REQUEST + 3)
    turn_around_in_service(Game.objects.get(pk=games[2].pk))  # 21 games to replay: the task's
    (first,) = queued_replays()
    written, go_on, outcome = threading.Event(), threading.Event(), []
    write = ratings._write

    def write_then_wait(*args):
        write(*args)
        written.set()
        go_on.wait(timeout=30)

    def work():
        try:
            outcome.append(first.task.call(*first.args))
        finally:
            connection.close()

    monkeypatch.setattr(ratings, "_write", write_then_wait)
    worker = threading.Thread(target=work)
    worker.start()
    assert written.wait(timeout=30)
    # The task has written its steps and holds the games it replayed: a correction of an older game
    # goes through meanwhile (it hands its change over), and the task then leaves its writing.
    turn_around_in_service(Game.objects.get(pk=games[0].pk))
    go_on.set()
    worker.join()
    assert outcome == [False]
    monkeypatch.setattr(ratings, "_write", write)
    _first, second = queued_replays()  # the correction's
    assert second.task.call(*second.args) is True
    assert_ratings_match_a_replay(app.user)
