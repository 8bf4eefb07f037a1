"""Members follow their games: the sheet's parts (/games/<id>/sheet/) and the home page's games
(/games/playing/) answer 304 while nothing changed, for two queries, and the new parts with the
latest changes told in words when something did."""

import json
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Game, Membership, Player, Role, Round, Scorebook
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import scorebooks
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    """Ann's scorebook, where Bea keeps score and Vic reads; a double-6 game for José, Ana, Eva."""
    ann = UserFactory(email="ann@example.com", first_name="Ann")
    bea = UserFactory(email="bea@example.com", first_name="Bea")
    vic = UserFactory(email="vic@example.com", first_name="Vic")
    book = scorebooks.create(by=ann, name="Friday")
    Membership.objects.create(scorebook=book, user=bea, role=Role.SCORER, last_used_at=timezone.now())
    Membership.objects.create(scorebook=book, user=vic, role=Role.VIEWER, last_used_at=timezone.now())
    players = [Player.objects.create(scorebook=book, name=name).pk for name in ("José", "Ana", "Eva")]
    game = services.create_game(by=ann, scorebook=book, players=players, rules=GameRules(tile_set=6), name="Friday")
    phones = {}
    for user in (ann, bea, vic):
        phones[user.first_name.lower()] = client = Client()
        client.force_login(user)
    return game, players, phones


def record(game, players, double, pips, by):
    """A round where the first player went out and the others hold `pips`."""
    entries = [EntryInput(player=players[0], pips=0, went_out=True)]
    entries += [EntryInput(player=player, pips=n) for player, n in zip(players[1:], pips, strict=True)]
    return services.record_round(game=Game.objects.get(pk=game.pk), starting_double=double, entries=entries, by=by)


def sheet_url(game):
    return f"/games/{game.pk}/sheet/"


def state_of(response) -> dict:
    found = re.search(r'<script id="follow-state" type="application/json">(.*?)</script>', response.content.decode())
    return json.loads(found.group(1))


def etag_on(page) -> str:
    return re.search(r'data-etag="([^"]+)"', page.content.decode()).group(1).replace("&quot;", '"')


def test_the_sheet_page_carries_the_etag_its_parts_answer_304_to(table):
    game, _, phones = table
    page = phones["ann"].get(f"/games/{game.pk}/")
    again = phones["ann"].get(sheet_url(game), headers={"If-None-Match": etag_on(page)})
    assert again.status_code == 304 and again["ETag"] == etag_on(page) and again.content == b""


def test_an_unchanged_game_costs_two_queries_and_a_change_elsewhere_is_a_200_telling_it(
    table, django_assert_num_queries
):
    game, players, phones = table
    ann = phones["ann"]
    etag = ann.get(sheet_url(game))["ETag"]
    cache.clear()  # the full path (the cached one: tests/api/test_cached_polls.py)
    # 1 the session, 2 the session's user with the game's version and their role in its scorebook
    # (one row: nothing after it reads the user again, the account marker and Cache-Control included)
    with django_assert_num_queries(2):
        unchanged = ann.get(sheet_url(game), headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged["ETag"] == etag
    assert unchanged["Cache-Control"] == "private, no-store" and unchanged["X-Account"] != "none"

    bea = Membership.objects.get(scorebook=game.scorebook, role=Role.SCORER).user
    record(game, players, 6, (5, 9), by=bea)
    # 1 the session, 2 the user with the game's version and role, 3 the game with the role, 4 seats +
    # players, 5 rounds, 6 entries, 7-9 the history of the game, its rounds and its seat changes
    # (corrections, notices)
    with django_assert_num_queries(9):
        changed = ann.get(sheet_url(game), headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    text = changed.content.decode()
    assert 'id="game-top"' in text and 'id="game-sheet"' in text and 'id="game-actions"' in text
    assert "Enter round 5-5" in text and "Leading:" in text
    assert re.findall(r"<tfoot>.*?</tfoot>", text, re.S)[0].count("<td>") == 3
    state = state_of(changed)
    assert state["version"] == Game.objects.get(pk=game.pk).version and state["next_number"] == 2
    assert state["doubles"][0] == [5, "5-5"] and state["finished"] is False
    latest = state["changes"][0]
    assert latest | {"key": None} == {
        "key": None,
        "mine": False,
        "by": "Bea",
        "action": "round_recorded",
        "round": 1,
        "double": 6,
        "text": "Bea recorded round 1 (6-6)",
    }
    assert state["seen"][0] == latest["key"]


def test_a_correction_and_an_undo_are_told_with_who_and_what(table):
    game, players, phones = table
    bea = Membership.objects.get(scorebook=game.scorebook, role=Role.SCORER).user
    round_ = record(game, players, 6, (5, 9), by=bea)
    entries = [EntryInput(player=players[0], pips=0, went_out=True), EntryInput(player=players[1], pips=5),
               EntryInput(player=players[2], pips=12)]  # fmt: skip
    services.correct_round(round=round_, entries=entries, by=bea)
    assert state_of(phones["ann"].get(sheet_url(game)))["changes"][0]["text"] == "Bea changed round 1: Eva 9 → 12"
    services.undo_last_round(game=Game.objects.get(pk=game.pk), number=1, by=bea)
    assert state_of(phones["ann"].get(sheet_url(game)))["changes"][0]["text"] == "Bea undid round 1"
    services.restore_round(game=Game.objects.get(pk=game.pk), by=None)
    assert state_of(phones["ann"].get(sheet_url(game)))["changes"][0]["text"] == "Someone brought back round 1"


def test_a_members_own_changes_are_marked_theirs(table):
    game, players, phones = table
    ann = Membership.objects.get(scorebook=game.scorebook, role=Role.OWNER).user
    record(game, players, 6, (5, 9), by=ann)
    assert state_of(phones["ann"].get(sheet_url(game)))["changes"][0]["mine"] is True
    assert state_of(phones["bea"].get(sheet_url(game)))["changes"][0]["mine"] is False


def test_the_parts_speak_the_pages_language_and_the_etag_says_which(table):
    game, players, phones = table
    bea = Membership.objects.get(scorebook=game.scorebook, role=Role.SCORER).user
    record(game, players, 6, (5, 9), by=bea)
    ann = phones["ann"]
    spanish = ann.get(sheet_url(game), headers={"Accept-Language": "es"})
    english = ann.get(sheet_url(game), headers={"Accept-Language": "en"})
    assert spanish["ETag"] != english["ETag"] and spanish["Content-Language"] == "es"
    assert "Anotar la ronda 5-5" in spanish.content.decode()
    assert state_of(spanish)["changes"][0]["text"] == "Bea anotó la ronda 1 (6-6)"
    again = ann.get(sheet_url(game), headers={"Accept-Language": "en", "If-None-Match": spanish["ETag"]})
    assert again.status_code == 200 and "Enter round 5-5" in again.content.decode()


def test_a_viewer_gets_the_parts_without_controls_and_an_etag_of_their_own(table):
    game, _, phones = table
    viewer, scorer = phones["vic"].get(sheet_url(game)), phones["bea"].get(sheet_url(game))
    assert viewer.status_code == 200 and "enter-round" not in viewer.content.decode()
    assert 'id="game-actions"' not in viewer.content.decode() and "enter-round" in scorer.content.decode()
    assert viewer["ETag"] != scorer["ETag"]


def test_a_stranger_a_game_in_the_trash_and_nobody_signed_in_get_nothing(table):
    game, _, phones = table
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(sheet_url(game)).status_code == 404
    anonymous = Client().get(sheet_url(game))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    services.delete_game(game=game, by=None)
    assert phones["ann"].get(sheet_url(game)).status_code == 404


def test_a_session_the_password_change_ended_is_not_answered(table):
    game, _, phones = table
    ann = phones["ann"]
    etag = ann.get(sheet_url(game))["ETag"]
    user = Membership.objects.get(scorebook=game.scorebook, role=Role.OWNER).user
    user.set_password("a-new-one-42")
    user.save()
    ended = ann.get(sheet_url(game), headers={"If-None-Match": etag})
    assert ended.status_code == 302 and ended["Location"].startswith("/accounts/login/")


def test_a_session_signed_with_a_secret_being_retired_is_answered_the_way_django_answers_it(table, settings):
    """The quick read checks a session against the current secret only: anything else goes Django's
    own way, which signs the session again with the new secret, or ends it."""
    game, _, _ = table
    settings.SECRET_KEY = "the-old-secret"
    phone = Client()
    phone.force_login(Membership.objects.get(scorebook=game.scorebook, role=Role.OWNER).user)
    etag = phone.get(sheet_url(game))["ETag"]
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "the-new-secret", ["the-old-secret"]
    assert phone.get(sheet_url(game), headers={"If-None-Match": etag}).status_code == 304
    settings.SECRET_KEY_FALLBACKS = []
    assert phone.get(sheet_url(game), headers={"If-None-Match": etag}).status_code == 304  # signed again
    settings.SECRET_KEY = "a-third-secret"
    ended = phone.get(sheet_url(game), headers={"If-None-Match": etag})
    assert ended.status_code == 302 and ended["Location"].startswith("/accounts/login/")


def test_the_round_form_carries_the_etag_and_the_changes_it_has_seen(table):
    game, players, phones = table
    bea = Membership.objects.get(scorebook=game.scorebook, role=Role.SCORER).user
    record(game, players, 6, (5, 9), by=bea)
    form = phones["ann"].get(f"/games/{game.pk}/rounds/new/")
    seen = state_of(form)["seen"]
    assert seen == state_of(phones["ann"].get(sheet_url(game)))["seen"] and len(seen) == 2  # created, round 1
    assert phones["ann"].get(sheet_url(game), headers={"If-None-Match": etag_on(form)}).status_code == 304
    assert state_of(form)["doubles"] == [[d, f"{d}-{d}"] for d in (5, 4, 3, 2, 1, 0)]


def test_the_home_pages_games_answer_304_for_two_queries_until_one_changes(table, django_assert_num_queries):
    game, players, phones = table
    ann = phones["ann"]
    page = ann.get("/")
    etag = etag_on(page)
    # 1 the session, 2 the session's user with their current scorebook and its games' fingerprint
    with django_assert_num_queries(2):
        unchanged = ann.get("/games/playing/", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    bea = Membership.objects.get(scorebook=game.scorebook, role=Role.SCORER).user
    record(game, players, 6, (5, 9), by=bea)
    # 1 the session, 2 the user with the fingerprint, 3 the current scorebook, 4 the fingerprint again
    # (the answer's ETag), 5 games in progress, 6 their seats + players, 7 finished games
    with django_assert_num_queries(7):
        changed = ann.get("/games/playing/", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    text = re.sub(r"</?bdi>", "", changed.content.decode())  # each name isolated for right-to-left ones
    assert 'id="home-games"' in text and "José 0 · Ana 5 · Eva 9" in text
    etag = changed["ETag"]
    services.create_game(by=bea, scorebook=game.scorebook, players=players, rules=GameRules(tile_set=6), name="Two")
    assert "Two" in ann.get("/games/playing/", headers={"If-None-Match": etag}).content.decode()


def test_the_home_page_follows_the_scorebook_it_shows(table):
    game, _, phones = table
    ann = phones["ann"]
    etag = ann.get("/games/playing/")["ETag"]
    user = Membership.objects.get(scorebook=game.scorebook, role=Role.OWNER).user
    own = services.create_game(by=user, players=_own_players(user), rules=GameRules(tile_set=6))
    assert own.scorebook != game.scorebook
    assert ann.get("/games/playing/", headers={"If-None-Match": etag}).status_code == 304  # not the one shown
    scorebooks.switch(user, own.scorebook)
    switched = ann.get("/games/playing/", headers={"If-None-Match": etag})
    assert switched.status_code == 200 and "Friday" not in switched.content.decode()


def _own_players(user):
    book = Scorebook.personal_for(user)
    return [Player.objects.create(scorebook=book, name=name).pk for name in ("Uno", "Dos")]


def test_a_round_form_drawn_before_an_undo_saves_nothing_until_it_has_shown_the_double_it_now_skips(table):
    """The form carries the version it was drawn for. Sent after another phone undid the round
    before it, it saves nothing (a double nobody saw open again is never skipped unasked): it comes
    back for the game as it is now, saying who changed what and which double saving it skips, and
    saving it again saves it."""
    game, players, phones = table
    ann = Membership.objects.get(scorebook=game.scorebook, role=Role.OWNER).user
    record(game, players, 6, (5, 9), by=ann)
    bea = phones["bea"]
    drawn = re.search(r'name="version" value="(\d+)"', bea.get(f"/games/{game.pk}/rounds/new/").content.decode())[1]
    services.undo_last_round(game=Game.objects.get(pk=game.pk), number=1, by=ann)  # 6-6 is open again

    round_ = {"starting_double": 5, f"p{players[0]}_went_out": "on", f"p{players[1]}_pips": 4,
              f"p{players[2]}_pips": 8, "confirmed": ""}  # fmt: skip
    answer = bea.post(f"/games/{game.pk}/rounds/new/", round_ | {"version": drawn})
    page = answer.content.decode()
    assert answer.status_code == 200 and not Round.objects.filter(game=game).exists()
    assert "Ann undid round 1 while you were entering this round." in page
    assert "Saving 5-5 skips 6-6." in page and "Save anyway" in page
    assert 'id="round-title">Round 1<' in page and 'value="4"' in page  # what was typed stays
    now = re.search(r'name="version" value="(\d+)"', page)[1]
    assert now == str(Game.objects.get(pk=game.pk).version) != drawn

    again = bea.post(f"/games/{game.pk}/rounds/new/", round_ | {"version": now})
    assert again.status_code == 302
    assert list(Round.objects.filter(game=game).values_list("number", "starting_double")) == [(1, 5)]
