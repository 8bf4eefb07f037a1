"""A game's state is derived once per change and saved; every page and answer reads that one."""

import importlib

import pytest
from django.apps import apps

from scorekeeper import selectors, services
from scorekeeper.models import Entry, Game
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.rules.scoring import RoundResult, derive
from scorekeeper.services import live as links

pytestmark = pytest.mark.django_db


def entries(game, *pips, out=0, blank=None, on_double=False):
    """A round: the player at seat `out` went out (on a double, if asked); `blank` held the 0-0."""
    seats = [seat.player_id for seat in game.seats.order_by("position")]
    return [
        EntryInput(player=player, pips=0 if seat == out else value, went_out=seat == out,
                   ended_on_double=on_double and seat == out, double_blank=seat == blank)
        for seat, (player, value) in enumerate(zip(seats, pips, strict=True))
    ]  # fmt: skip


def from_the_entries(game) -> object:
    """The state worked out afresh from what the database holds, flags and all."""
    seats = [(seat.player_id, seat.player.name) for seat in game.seats.select_related("player").order_by("position")]
    results = []
    for round_ in game.rounds.order_by("number"):
        rows = list(Entry.objects.filter(round=round_))
        results.append(
            RoundResult(round_.position, {e.player_id: e.score for e in rows},
                        *(frozenset(e.player_id for e in rows if getattr(e, flag))
                          for flag in ("went_out", "double_blank", "ended_on_double")))
        )  # fmt: skip
    return derive(game.rules, seats, results)


def read(game):
    return selectors.game_state(Game.objects.get(pk=game.pk)).state


def test_the_saved_state_follows_every_change_to_the_rounds(game):
    services.record_round(game=game, starting_double=6, entries=entries(game, 0, 12, 7, out=0, on_double=True))
    services.record_round(game=game, starting_double=5, entries=entries(game, 9, 0, 8, out=1, blank=2))
    assert read(game) == from_the_entries(game)
    round_two = game.rounds.get(number=2)
    services.correct_round(round=round_two, entries=entries(game, 9, 0, 3, out=1))
    assert read(game) == from_the_entries(game)
    services.undo_last_round(game=game)
    assert read(game) == from_the_entries(game) and len(read(game).rounds) == 1
    services.restore_round(game=game)
    assert read(game) == from_the_entries(game) and len(read(game).rounds) == 2
    for double in range(4, -1, -1):  # to the end of the sequence: the game finishes
        services.record_round(game=game, starting_double=double, entries=entries(game, 0, 2, 3))
    state = read(game)
    assert state == from_the_entries(game) and state.finished and state.winners
    assert selectors.game_state(Game.objects.get(pk=game.pk)).version == Game.objects.get(pk=game.pk).version


def test_the_sheet_counts_who_went_out_held_the_0_0_and_ended_on_a_double(client, user, game):
    services.record_round(game=game, starting_double=6, entries=entries(game, 0, 12, 7, out=0, on_double=True))
    services.record_round(game=game, starting_double=5, entries=entries(game, 9, 0, 8, out=1, blank=2))
    client.force_login(user)
    sheet = client.get(f"/games/{game.pk}/").context["sheet"]
    counts = [(s.went_out, s.double_blank_penalties, s.end_on_double_penalties) for s in sheet.state.seats]
    assert counts == [(1, 0, 1), (1, 0, 0), (0, 1, 0)]


def test_a_renamed_player_is_read_by_the_new_name_with_no_round_changed(game):
    services.record_round(game=game, starting_double=6, entries=entries(game, 0, 12, 7))
    ben = game.seats.get(position=1).player
    services.rename_player(player=ben, name="Benedict")
    assert [seat.name for seat in read(game).seats] == ["Ann", "Benedict", "Cy"]


def test_the_sheet_the_live_view_and_the_api_read_the_same_state(client, user, game):
    services.record_round(game=game, starting_double=6, entries=entries(game, 0, 12, 7))
    services.record_round(game=game, starting_double=4, entries=entries(game, 3, 0, 9, out=1))
    link = links.share(game=game, by=user)
    client.force_login(user)
    sheet = client.get(f"/games/{game.pk}/").context["sheet"]
    public = client.get(f"/api/v1/live/{link.token}/").json()
    detail = client.get(f"/api/v1/games/{game.pk}/").json()
    listed = client.get("/api/v1/games/").json()["results"][0]
    standings = [(seat.name, seat.total, seat.rank) for seat in sheet.state.standings]
    assert [(s["name"], s["total"], s["rank"]) for s in public["standings"]] == standings
    assert [(s["name"], s["total"], s["rank"]) for s in detail["standings"]] == standings
    assert [(s["name"], s["total"], s["rank"]) for s in listed["standings"]] == standings
    assert public["next_starting_double"] == detail["next_starting_double"] == sheet.next_double == 3


def test_the_migration_fills_every_game_with_the_state_the_services_save(user):
    from tests.factories import make_game

    games = [make_game(owner=user, tile_set=6), make_game(owner=user, tile_set=6, target_score=60)]
    for game in games:
        services.record_round(game=game, starting_double=6, entries=entries(game, 0, 12, 7, out=0, on_double=True))
        services.record_round(game=game, starting_double=3, entries=entries(game, 9, 0, 25, out=1, blank=2))
    saved = {game.pk: Game.objects.get(pk=game.pk).state for game in games}
    Game.objects.update(state=None)
    importlib.import_module("scorekeeper.migrations.0015_game_state").fill_state(apps, None)
    assert {game.pk: Game.objects.get(pk=game.pk).state for game in games} == saved
    assert saved[games[1].pk]["finished"]  # the target game ended with its second round
