"""Nothing a client sends gives a 500: deep JSON, numbers too long for any column, any route."""

import json

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from scorekeeper.http import errors
from scorekeeper.models import Game
from tests.factories import make_game
from tests.views.test_pages import play_round

pytestmark = pytest.mark.django_db

DEEP = ("[" * 10_000 + "]" * 10_000).encode()
DEEP_OBJECT = ('{"a":' * 10_000 + "1" + "}" * 10_000).encode()
LONG = ["9" * 12, "9" * 20, "9" * 5000, "-" + "9" * 30]


def routes(resolver=None, prefix=""):
    """Every URL pattern of the site as a path with sample arguments, from the resolver itself."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        text = prefix + str(pattern.pattern).lstrip("^").rstrip("$")
        if isinstance(pattern, URLResolver):
            yield from routes(pattern, text)
        elif isinstance(pattern, URLPattern):
            yield text


def sample_path(route: str, game: Game) -> str:
    """Fill converters and groups with a real game's ids (so the view really runs)."""
    import re

    path = re.sub(r"<id:(game_)?pk>", str(game.pk), route)
    path = re.sub(r"<id:number>", "1", path)
    path = re.sub(r"<(?:\w+:)?\w+>", "1", path)
    path = re.sub(r"\(\?P<\w+>[^)]*\)", "1", path)
    return "/" + path.replace("\\", "").replace("\\Z", "")


@pytest.fixture
def owned_game(user):
    game = make_game(owner=user, tile_set=6)
    play_round(game)
    return game


@pytest.mark.parametrize("body", [DEEP, DEEP_OBJECT], ids=["array", "object"])
def test_deeply_nested_json_is_a_400_on_every_route(client, user, owned_game, body):
    client.force_login(user)
    checked = 0
    for route in routes():
        path = sample_path(route, owned_game)
        for method in ("post", "put", "patch"):
            response = getattr(client, method)(path, body, content_type="application/json")
            assert response.status_code != 500, (method, path)
            if response.status_code == 400:
                checked += 1
            if path.startswith(("/api/", "/_allauth/")):
                assert response["Content-Type"].startswith("application/json"), (method, path)
    assert checked > 100  # every JSON write was read and refused, ours and allauth's


def test_json_depth_counts_brackets_outside_strings_only():
    assert errors.json_depth(b'{"a": [1, {"b": "[[[[{{{{"}]}') == 3
    assert errors.json_depth(b'["\\"[[[", [[]]]') == 3
    assert errors.json_depth(DEEP) == 10_000


def test_a_normal_round_is_not_refused_as_deep(client, user, owned_game):
    client.force_login(user)
    seats = [s.player_id for s in owned_game.seats.order_by("position")]
    body = {
        "starting_double": 5,
        "entries": [{"player": seats[0], "pips": 0, "went_out": True}]
        + [{"player": p, "tiles": ["1-2"] if i == 0 else ["3-4"]} for i, p in enumerate(seats[1:])],
    }
    response = client.post(f"/api/v1/games/{owned_game.pk}/rounds/", body, content_type="application/json")
    assert response.status_code == 201, response.json()


@pytest.mark.parametrize("number", LONG)
def test_long_numbers_in_any_page_form_are_form_errors(client, user, owned_game, number):
    client.force_login(user)
    game, seats = owned_game, [s.player_id for s in owned_game.seats.order_by("position")]
    rounds = Game.objects.get(pk=game.pk).rounds.count()
    forms = {
        "/games/new/": [
            "players",
            "seat_order",
            "tile_set",
            "double_blank_penalty",
            "end_on_double_penalty",
            "target_score",
        ],
        f"/games/{game.pk}/rounds/new/": ["starting_double", "version", f"p{seats[1]}_pips", f"p{seats[1]}_tiles_left"],
        f"/games/{game.pk}/rounds/1/edit/": ["version", f"p{seats[1]}_pips", f"p{seats[2]}_tiles_left"],
        f"/games/{game.pk}/rounds/undo/": ["number", "version"],
        f"/games/{game.pk}/rename/": ["name"],
        "/players/add/": ["player-name"],
        f"/players/{seats[0]}/": ["name"],
    }
    base = {"players": seats[:2], "tile_set": 6, "double_blank_penalty": 50, "end_on_double_penalty": 50,
            "starting_double": 5, "version": game.version, f"p{seats[0]}_went_out": "on",
            f"p{seats[1]}_pips": 3, f"p{seats[2]}_pips": 4}  # fmt: skip
    for url, fields in forms.items():
        for field in fields:
            value = [number] if field == "players" else number
            response = client.post(url, {**base, field: value})
            assert response.status_code in {200, 302}, (url, field, response.status_code)
    assert Game.objects.get(pk=game.pk).rounds.count() == rounds  # nothing was recorded or undone


@pytest.mark.parametrize("number", LONG)
def test_long_numbers_in_query_strings_are_ignored_or_a_400(client, user, owned_game, number):
    client.force_login(user)
    player = owned_game.seats.first().player_id
    for url in ("/history/", "/leaderboard/", f"/players/{player}/", "/api/v1/games/", "/api/v1/players/",
                "/api/v1/leaderboard/", f"/api/v1/players/{player}/stats/", f"/api/v1/games/{owned_game.pk}/rounds/"):  # fmt: skip
        for parameter in ("page", "tile_set", "period", "status", "sort"):
            response = client.get(url, {parameter: number})
            assert response.status_code in {200, 400, 404}, (url, parameter, response.status_code)


@pytest.mark.parametrize("number", LONG)
def test_long_numbers_in_api_bodies_are_a_400(client, user, owned_game, number):
    client.force_login(user)
    seats = [s.player_id for s in owned_game.seats.order_by("position")]
    bodies = {
        "/api/v1/games/": [f'{{"players": [{number}, {seats[0]}]}}', f'{{"players": {seats[:2]}, "tile_set": {number}}}',
                           f'{{"players": {seats[:2]}, "rules": {{"target_score": {number}}}}}'],
        f"/api/v1/games/{owned_game.pk}/rounds/": [
            f'{{"starting_double": {number}, "entries": []}}',
            f'{{"starting_double": 5, "entries": [{{"player": {number}, "pips": 1}}]}}',
            f'{{"starting_double": 5, "entries": [{{"player": {seats[0]}, "pips": {number}}}]}}',
        ],
        "/_allauth/app/v1/auth/login": [f'{{"email": {number}, "password": {number}}}'],
    }  # fmt: skip
    for url, payloads in bodies.items():
        for payload in payloads:
            response = client.post(url, payload, content_type="application/json")
            assert response.status_code == 400, (url, payload[:80], response.status_code)
            json.loads(response.content)
