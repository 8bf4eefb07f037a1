"""The house options on the pages: the new-game form, the sheet, the game-over card and the rules page,
in English and in Spanish."""

import json
import re

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Game
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from tests.factories import PlayerFactory, make_game
from tests.views.test_spanish import SPANISH, visible_text

pytestmark = pytest.mark.django_db


def new_game_form(players, **changes) -> dict:
    """What the new-game page posts with the standard rules, the players tapped in order."""
    ids = [player.pk for player in players]
    return {
        "players": ids, "seat_order": ",".join(map(str, ids)), "preset": "standard", "tile_set": 12,
        "double_blank_penalty": 50, "end_on_double_penalty": 50, "target_score": "", "first_double": "",
        "rounds": "", "tie_break": "shared", "name": "Club",
    } | changes  # fmt: skip


@pytest.fixture
def table(user):
    return [PlayerFactory(owner=user, name=name) for name in ("Ann", "Ben")]


def record(game, double, *, out, pips):
    """A round where the seat `out` went out and the other seat holds `pips`."""
    seats = [seat.player_id for seat in game.seats.order_by("position")]
    entries = [EntryInput(player=p, pips=0, went_out=True) if i == out else EntryInput(player=p, pips=pips)
               for i, p in enumerate(seats)]  # fmt: skip
    services.record_round(game=game, starting_double=double, entries=entries)


def tied_game(user, tie_break, *, broken=True):
    """Ann and Ben finish level on 10: Ann went out twice and Ben once when `broken`, once each otherwise."""
    if broken:
        game = make_game(owner=user, names=("Ann", "Ben"), tile_set=6, first_double=2, tie_break=tie_break)
        rounds = [(2, 0, 5), (1, 0, 5), (0, 1, 10)]
    else:
        game = make_game(owner=user, names=("Ann", "Ben"), tile_set=6, first_double=1, tie_break=tie_break)
        rounds = [(1, 0, 10), (0, 1, 10)]
    for double, out, pips in rounds:
        record(game, double, out=out, pips=pips)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def tie_sentence(html: str) -> str | None:
    found = re.search(r'<p class="ended[^"]*">.*?<span class="tie-broken">(.*?)</span>.*?</p>', html, re.S)
    return visible_text(found.group(1)).strip() if found else None


def test_the_new_game_page_offers_the_house_presets_and_options(client, user, table):
    client.force_login(user)
    html = client.get(reverse("new_game")).content.decode()
    assert 'name="preset" value="short"' in html and 'name="preset" value="seven-rounds"' in html
    presets = json.loads(re.search(r'<script id="presets" type="application/json">(.*?)</script>', html).group(1))
    assert (presets["short"]["first_double"], presets["short"]["rounds"]) == (9, None)
    assert (presets["seven-rounds"]["rounds"], presets["seven-rounds"]["tie_break"]) == (7, "most_went_out")
    assert presets["standard"]["first_double"] is None  # empty: follows the set chosen
    assert '<details class="fold house-options">' in html  # folded while nothing in it is chosen
    assert 'name="first_double"' in html and 'name="rounds"' in html
    assert 'name="tie_break" value="shared"' in html and 'name="tie_break" value="most_went_out"' in html


@pytest.mark.parametrize(
    ("changes", "rules"),
    [
        ({"preset": "short", "first_double": 9}, {"first_double": 9, "rounds": None, "tie_break": "shared"}),
        ({"preset": "seven-rounds", "rounds": 7, "tie_break": "most_went_out"},
         {"first_double": 12, "rounds": 7, "tie_break": "most_went_out"}),
        ({"tile_set": 6, "first_double": 3, "rounds": 2, "target_score": 100},
         {"first_double": 3, "rounds": 2, "tie_break": "shared"}),
    ],
)  # fmt: skip
def test_the_new_game_page_starts_a_game_with_the_house_options_posted(client, user, table, changes, rules):
    client.force_login(user)
    response = client.post(reverse("new_game"), new_game_form(table, **changes))
    game = Game.objects.get(name="Club")
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    assert {name: getattr(game.rules, name) for name in rules} == rules


def test_a_form_without_the_tie_break_starts_a_game_that_shares_ties(client, user, table):
    """A page drawn before the house options (or any script) posts no tie_break: the default, not an error."""
    client.force_login(user)
    form = new_game_form(table)
    del form["tie_break"], form["first_double"], form["rounds"], form["preset"]
    response = client.post(reverse("new_game"), form)
    assert response.status_code == 302, response.context["form"].errors
    assert Game.objects.get(name="Club").tie_break == "shared"


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"first_double": 13}, "between 0-0 and 12-12 on a double-12 set (got 13)"),
        ({"tile_set": 6, "first_double": 7}, "between 0-0 and 6-6 on a double-6 set"),
        ({"tile_set": 6, "first_double": 0, "target_score": 100}, "cannot play to a target score"),
    ],
)
def test_a_first_double_out_of_range_is_an_error_on_its_field_and_starts_nothing(client, user, table, changes, says):
    client.force_login(user)
    response = client.post(reverse("new_game"), new_game_form(table, **changes))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["first_double"] and says in errors["first_double"][0], errors
    html = response.content.decode()
    assert '<details class="fold house-options" open>' in html  # the error is not folded away
    assert Game.objects.count() == 0


def test_same_table_as_last_time_brings_back_the_house_options(client, user, table):
    client.force_login(user)
    client.post(reverse("new_game"), new_game_form(table, first_double=9, rounds=7, tie_break="most_went_out"))
    form = client.get(reverse("new_game") + "?same=1").context["form"]
    assert (form["first_double"].value(), form["rounds"].value(), form["tie_break"].value()) == (
        9, 7, "most_went_out"
    )  # fmt: skip
    plain = make_game(owner=user, tile_set=9)
    form = client.get(reverse("new_game") + "?same=1").context["form"]
    assert plain.rules.first_double == 9 and form["first_double"].value() is None  # the set's top: left empty


def test_the_sheet_of_a_short_game_counts_down_from_its_first_double(client, user):
    game = make_game(owner=user, tile_set=12, first_double=9)
    client.force_login(user)
    response = client.get(reverse("game", args=[game.pk]))
    summary = visible_text(
        re.search(r'<p class="muted" id="game-summary">(.*?)</p>', response.content.decode(), re.S)[1]
    ).strip()
    assert summary.startswith("double-12 from 9-9 · 10 rounds; this round: 9-9 starts"), summary
    assert [row.starting_double for row in response.context["sheet"].rows] == list(range(9, -1, -1))
    doubles = re.findall(r'<tr class="\w+" data-double="(\d+)">', response.content.decode())
    assert doubles == [str(d) for d in range(9, -1, -1)]


def test_the_sheet_summary_names_the_rounds_agreed_and_the_tie_break(client, user):
    game = make_game(owner=user, tile_set=12, rounds=7, target_score=300, tie_break="most_went_out")
    client.force_login(user)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    summary = visible_text(re.search(r'<p class="muted" id="game-summary">(.*?)</p>', html, re.S)[1]).strip()
    assert summary.startswith("double-12 · 7 rounds or up to 300 points · ties: most rounds gone out;"), summary


def test_a_tie_broken_by_rounds_gone_out_is_said_on_the_game_over_card(client, user):
    game = tied_game(user, "most_went_out")
    client.force_login(user)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert tie_sentence(html) == "Tied on 10 points, broken by rounds gone out: Ann 2, Ben 1."
    assert '<span class="winner">★ Ann</span>' in html and "★ Ben" not in html


def test_a_shared_tie_says_nothing_of_a_tie_break(client, user):
    for game in (tied_game(user, "shared"), tied_game(user, "most_went_out", broken=False)):
        client.force_login(user)
        html = client.get(reverse("game", args=[game.pk])).content.decode()
        assert "tie-broken" not in html and "broken by rounds gone out" not in html
        assert "★ Ann" in html and "★ Ben" in html and "share the win" in html


def test_a_game_ended_by_its_rounds_says_so(client, user):
    game = make_game(owner=user, names=("Ann", "Ben"), tile_set=6, rounds=2)
    record(game, 6, out=0, pips=5)
    record(game, 5, out=1, pips=9)
    client.force_login(user)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Ended after round 2: the 2 rounds agreed were played." in visible_text(html)


def test_the_rules_page_explains_the_house_options(client):
    html = client.get(reverse("rules")).content.decode()
    assert '<h2 id="house-options">House options</h2>' in html
    assert "gives 10 rounds instead of 13" in visible_text(html)
    assert "most rounds gone out" in html and "whichever comes first" in html


def test_the_house_options_read_in_spanish(client, user):
    rules_page = visible_text(client.get(reverse("rules"), **SPANISH).content.decode())
    assert "Reglas de la casa" in rules_page and "da 10 rondas en vez de 13" in rules_page
    client.force_login(user)
    PlayerFactory(owner=user, name="Lupe")
    new_page = client.get(reverse("new_game"), **SPANISH).content.decode()
    assert '<summary class="disclosure">Reglas de la casa</summary>' in new_page
    assert "Partida corta: doble 12, del 9-9 hacia abajo" in new_page
    assert "7 rondas; un empate lo gana quien salió más veces" in new_page
    short = make_game(owner=user, tile_set=12, first_double=9, tie_break="most_went_out")
    sheet = client.get(reverse("game", args=[short.pk]), **SPANISH).content.decode()
    summary = visible_text(re.search(r'<p class="muted" id="game-summary">(.*?)</p>', sheet, re.S)[1])
    assert "desde el 9-9" in summary and "empates: gana quien salió más veces" in summary, summary
    tied = tied_game(user, "most_went_out")
    over = client.get(reverse("game", args=[tied.pk]), **SPANISH).content.decode()
    assert tie_sentence(over) == "Empate a 10 puntos, resuelto por las rondas en que salió cada uno: Ann 2, Ben 1."


def test_a_first_double_out_of_range_is_refused_in_spanish(client, user, table):
    client.force_login(user)
    response = client.post(reverse("new_game"), new_game_form(table, tile_set=6, first_double=7), **SPANISH)
    assert Game.objects.count() == 0
    assert (
        "En un juego doble 6, el primer doble va del 0-0 al 6-6 (se indicó 7)."
        in response.context["form"].errors["first_double"]
    )


def test_a_house_rule_game_keeps_its_options_in_a_rematch(client, user):
    game = make_game(owner=user, tile_set=9, first_double=5, rounds=4, tie_break="most_went_out")
    client.force_login(user)
    client.post(reverse("rematch", args=[game.pk]))
    new = Game.objects.exclude(pk=game.pk).get()
    assert new.rules == game.rules == GameRules(tile_set=9, first_double=5, rounds=4, tie_break="most_went_out")
