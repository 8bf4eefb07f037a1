"""No import or export holds a worker for long: one download holds at most EXPORT_MAX_GAMES
games (413 beyond, `manage.py export_games` writes any number), and an account runs one import or
export at a time across every node (429 with Retry-After)."""

import io
import json

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper import transfer
from scorekeeper.models import Game, Scorebook
from tests.api.conftest import app_for, start_game
from tests.api.test_import_limits import an_export
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_games(app, settings):
    settings.EXPORT_MAX_GAMES = 2
    for _ in range(3):
        start_game(app)
    return app


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_api_export_of_more_games_than_one_download_holds_is_a_413_naming_the_limit(three_games):
    response = three_games.get("/api/v1/export/?format=json")
    assert response.status_code == 413
    answer = response.json()
    assert answer["code"] == "export_too_large"
    assert "holds 3 games" in answer["detail"] and "at most 2" in answer["detail"]
    assert "manage.py export_games" in answer["detail"]
    assert three_games.get("/api/v1/export/?format=csv").status_code == 413


def test_one_game_or_a_download_within_the_limit_still_exports(three_games, settings):
    game = Game.objects.order_by("pk").first()
    assert three_games.get(f"/api/v1/games/{game.pk}/export/?format=json").status_code == 200
    settings.EXPORT_MAX_GAMES = 3
    exported = three_games.get("/api/v1/export/?format=json")
    assert exported.status_code == 200 and len(exported.json()["games"]) == 3


def test_the_export_page_refuses_too_many_games_with_a_page_saying_what_to_do(three_games):
    response = page_client(three_games.user).get("/export/?format=csv")
    assert response.status_code == 413
    page = response.content.decode()
    assert "This download is too large" in page and "one download holds at most 2" in page


@pytest.mark.parametrize("scorebook", ["abc", "-1", "99999999999999999999999", "١٢"])
def test_the_export_page_refuses_a_scorebook_that_is_not_one_of_yours(app, scorebook):
    start_game(app)
    response = page_client(app.user).get("/export/", {"format": "csv", "scorebook": scorebook})
    assert response.status_code == 404


def test_while_an_accounts_import_or_export_runs_another_is_a_429_on_any_node(app):
    start_game(app)
    book = Scorebook.personal_for(app.user)
    export = transfer.as_json(transfer.games_with_everything(Game.objects.all()))
    with transfer.one_at_a_time(app.user):  # as a request on another worker holds it
        for response in (
            app.get("/api/v1/export/?format=json"),
            app.post(f"/api/v1/import/?scorebook={book.pk}", export),
        ):
            assert response.status_code == 429 and response["Retry-After"] == "10"
            assert response.json()["code"] == "transfer_busy"
        page = page_client(app.user).get("/export/?format=json")
        assert page.status_code == 429 and page["Retry-After"] == "10"
        # Another account is not held up by this one.
        other = app_for("zed@example.com")
        start_game(other)
        assert other.get("/api/v1/export/?format=json").status_code == 200
    assert app.get("/api/v1/export/?format=json").status_code == 200  # released


def test_the_lock_is_released_when_the_transfer_fails():
    user = UserFactory()
    with pytest.raises(RuntimeError), transfer.one_at_a_time(user):
        raise RuntimeError("the import broke")
    assert cache.get(f"transfer-busy:{user.pk}") is None


def test_the_command_exports_every_game_and_import_games_reads_its_file(three_games, tmp_path):
    path = tmp_path / "all.json"
    call_command("export_games", str(path), "--email", three_games.user.email, stdout=io.StringIO())
    data = json.loads(path.read_text(encoding="utf-8"))
    assert len(data["games"]) == 3
    newcomer = UserFactory()
    out = io.StringIO()
    call_command("import_games", str(path), "--email", newcomer.email, stdout=out, verbosity=0)
    assert "3 games" in out.getvalue()
    csv_path = tmp_path / "all.csv"
    call_command("export_games", str(csv_path), "--email", three_games.user.email, "--format", "csv", stdout=out)
    assert csv_path.read_text(encoding="utf-8").startswith("\ufeffgame,")


def test_an_export_reads_the_same_number_of_queries_for_one_game_or_many(app):
    start_game(app)
    with CaptureQueriesContext(connection) as one:
        assert app.get("/api/v1/export/?format=json").status_code == 200
    for _ in range(4):
        start_game(app)
    with CaptureQueriesContext(connection) as five:
        assert len(app.get("/api/v1/export/?format=json").json()["games"]) == 5
    # token, user, scorebooks..., the count, then games, seats, rounds, entries: none per game
    assert len(five.captured_queries) == len(one.captured_queries)


def test_an_import_of_few_games_with_more_round_scores_than_a_request_checks_is_a_413_that_saves_nothing(
    app, settings, tmp_path
):
    export = an_export(app.user)  # one finished double-6 game of two
    scores = sum(len(round_["entries"]) for round_ in export["games"][0]["rounds"])
    settings.IMPORT_MAX_ENTRIES = scores - 1
    newcomer = app_for("newcomer@example.com")
    response = newcomer.post("/api/v1/import/", export)
    assert response.status_code == 413 and response.json()["code"] == "import_too_large"
    assert f"{scores - 1} round scores" in response.json()["detail"]
    assert not Game.objects.filter(scorebook=Scorebook.personal_for(newcomer.user)).exists()
    settings.IMPORT_MAX_ENTRIES = scores
    assert newcomer.post("/api/v1/import/", export).status_code == 201
    # The command has no such limit.
    path = tmp_path / "one.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    settings.IMPORT_MAX_ENTRIES = 1
    out = io.StringIO()
    call_command("import_games", str(path), "--email", UserFactory().email, stdout=out, verbosity=0)
    assert "1 games" in out.getvalue()
