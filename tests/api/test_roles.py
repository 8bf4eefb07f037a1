"""Every /api/v1/ route and method x {owner, scorer, viewer, non-member, anonymous}.

The table is checked against the URL resolver: a route or method added without its row fails."""

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scorekeeper.models import Game, LiveLink, Membership, Night, NightLink, Player, Round, Scorebook, Season
from tests.roles import ROLES, expect, make_club

pytestmark = pytest.mark.django_db

ROUND_2 = lambda c: {  # noqa: E731
    "starting_double": 5,
    "entries": [{"player": c.players[0].pk, "pips": 0, "went_out": True},
                {"player": c.players[1].pk, "pips": 2}, {"player": c.players[2].pk, "pips": 3}],
}  # fmt: skip
ROUND_1 = lambda c: {  # noqa: E731
    "starting_double": 6,
    "entries": [{"player": c.players[0].pk, "pips": 0, "went_out": True},
                {"player": c.players[1].pk, "pips": 5}, {"player": c.players[2].pk, "pips": 4}],
}  # fmt: skip
GAME = lambda c: {"pk": c.game.pk}  # noqa: E731
EMPTY_EXPORT = {"format": "chicken-foot-scorekeeper", "version": 1, "games": []}
NONE = lambda c: {}  # noqa: E731

# (route, method) -> (path kwargs, query, body, expected status per role)
MATRIX = {
    ("player-list", "get"): (NONE, "", None, expect(200, 200, 200, 200)),
    ("player-list", "post"): (NONE, "", lambda c: {"name": "Zed", "scorebook": c.book.pk}, expect(201, 201, 403, 404)),
    ("player-detail", "get"): (lambda c: {"pk": c.players[0].pk}, "", None, expect(200, 200, 200, 404)),
    ("player-detail", "patch"): (lambda c: {"pk": c.players[0].pk}, "", lambda c: {"name": "Anna"}, expect(200, 200, 403, 404)),
    ("player-detail", "delete"): (lambda c: {"pk": c.spare.pk}, "", None, expect(204, 204, 403, 404)),
    ("player-merge", "post"): (lambda c: {"pk": c.spare.pk}, "", lambda c: {"into": c.players[2].pk}, expect(200, 200, 403, 404)),
    ("player-stats", "get"): (lambda c: {"pk": c.players[0].pk}, "", None, expect(200, 200, 200, 404)),
    ("game-list", "get"): (NONE, "", None, expect(200, 200, 200, 200)),
    ("game-list", "post"): (
        NONE, "", lambda c: {"scorebook": c.book.pk, "players": [c.players[0].pk, c.players[1].pk]}, expect(201, 201, 403, 404)
    ),
    ("game-detail", "get"): (lambda c: {"pk": c.game.pk}, "", None, expect(200, 200, 200, 404)),
    ("game-detail", "patch"): (lambda c: {"pk": c.game.pk}, "", lambda c: {"name": "Friday"}, expect(200, 200, 403, 404)),
    ("game-detail", "delete"): (lambda c: {"pk": c.game.pk}, "", None, expect(204, 204, 403, 404)),
    ("round-list", "get"): (GAME, "", None, expect(200, 200, 200, 404)),
    ("round-list", "post"): (GAME, "", ROUND_2, expect(201, 201, 403, 404)),
    ("round-detail", "get"): (lambda c: {"pk": c.game.pk, "number": 1}, "", None, expect(200, 200, 200, 404)),
    ("round-detail", "put"): (lambda c: {"pk": c.game.pk, "number": 1}, "", ROUND_1, expect(200, 200, 403, 404)),
    ("round-detail", "delete"): (lambda c: {"pk": c.game.pk, "number": 1}, "", None, expect(204, 204, 403, 404)),
    ("round-restore", "post"): (GAME, "", None, expect(409, 409, 403, 404)),  # nothing was undone
    ("seat-list", "post"): (GAME, "", lambda c: {"player": c.spare.pk}, expect(201, 201, 403, 404)),  # Dot joins
    ("seat-detail", "delete"): (lambda c: {"pk": c.game.pk, "player": c.players[2].pk}, "", None, expect(200, 200, 403, 404)),
    ("seat-change-last", "delete"): (GAME, "", None, expect(409, 409, 403, 404)),  # no seat change yet
    ("game-finish", "post"): (GAME, "", None, expect(200, 200, 403, 404)),  # "We stop here" after round 1
    ("game-share", "get"): (GAME, "", None, expect(200, 200, 200, 404)),  # the club's game is shared already
    ("game-share", "post"): (GAME, "", None, expect(201, 201, 403, 404)),
    ("game-share", "delete"): (GAME, "", None, expect(204, 204, 403, 404)),
    ("live", "get"): (lambda c: {"token": c.live.token}, "", None, expect(200, 200, 200, 200, anonymous=200)),
    ("game-history", "get"): (GAME, "", None, expect(200, 200, 200, 404)),
    ("game-export", "get"): (GAME, "?format=csv", None, expect(200, 200, 200, 404)),
    ("export", "get"): (NONE, "?scorebook={book}", None, expect(200, 200, 200, 404)),
    ("import", "post"): (NONE, "?scorebook={book}", lambda c: EMPTY_EXPORT, expect(200, 200, 403, 404)),
    ("leaderboard", "get"): (NONE, "?scorebook={book}", None, expect(200, 200, 200, 404)),
    # An outsider asking about a scorebook of others learns nothing: the 400 of one that is not there.
    ("odds", "get"): (NONE, "?scorebook={book}&players={players}", None, expect(200, 200, 200, 400)),
    ("me", "get"): (NONE, "", None, expect(200, 200, 200, 200)),
    ("me-stats", "get"): (NONE, "", None, expect(200, 200, 200, 200)),
    ("scorebook-list", "get"): (NONE, "", None, expect(200, 200, 200, 200)),
    ("scorebook-list", "post"): (NONE, "", lambda c: {"name": "Mine"}, expect(201, 201, 201, 201)),
    ("scorebook-detail", "get"): (lambda c: {"pk": c.book.pk}, "", None, expect(200, 200, 200, 404)),
    ("scorebook-detail", "patch"): (lambda c: {"pk": c.book.pk}, "", lambda c: {"name": "Club 2"}, expect(200, 403, 403, 404)),
    ("scorebook-detail", "delete"): (lambda c: {"pk": c.book.pk}, "", None, expect(409, 403, 403, 404)),  # it has a game
    ("scorebook-invites", "post"): (lambda c: {"pk": c.book.pk}, "", lambda c: {"role": "viewer"}, expect(201, 403, 403, 404)),
    ("scorebook-member", "delete"): (
        lambda c: {"pk": c.book.pk, "user_pk": c.extra.pk}, "", None, expect(204, 403, 403, 404)
    ),
    ("scorebook-member", "patch"): (
        lambda c: {"pk": c.book.pk, "user_pk": c.extra.pk}, "", lambda c: {"role": "scorer"}, expect(200, 403, 403, 404)
    ),
    ("scorebook-seasons", "get"): (lambda c: {"pk": c.book.pk}, "", None, expect(200, 200, 200, 404)),
    ("scorebook-seasons", "post"): (
        lambda c: {"pk": c.book.pk}, "", lambda c: {"name": "Summer", "starts": "2025-06-01", "ends": "2025-08-31"},
        expect(201, 403, 403, 404),
    ),
    ("season-detail", "get"): (lambda c: {"pk": c.season.pk}, "", None, expect(200, 200, 200, 404)),
    ("season-detail", "patch"): (lambda c: {"pk": c.season.pk}, "", lambda c: {"min_games": 3}, expect(200, 403, 403, 404)),
    ("season-detail", "delete"): (lambda c: {"pk": c.season.pk}, "", None, expect(204, 403, 403, 404)),
    ("scorebook-nights", "get"): (lambda c: {"pk": c.book.pk}, "", None, expect(200, 200, 200, 404)),
    ("scorebook-nights", "post"): (
        lambda c: {"pk": c.book.pk}, "", lambda c: {"name": "Saturday", "date": "2025-11-22"}, expect(201, 201, 403, 404),
    ),
    ("night-detail", "get"): (lambda c: {"pk": c.night.pk}, "", None, expect(200, 200, 200, 404)),
    ("night-detail", "patch"): (lambda c: {"pk": c.night.pk}, "", lambda c: {"name": "Sat"}, expect(200, 200, 403, 404)),
    ("night-detail", "delete"): (lambda c: {"pk": c.night.pk}, "", None, expect(204, 204, 403, 404)),
    ("night-share", "get"): (lambda c: {"pk": c.night.pk}, "", None, expect(200, 200, 200, 404)),
    ("night-share", "post"): (lambda c: {"pk": c.night.pk}, "", None, expect(201, 201, 403, 404)),
    ("night-share", "delete"): (lambda c: {"pk": c.night.pk}, "", None, expect(204, 204, 403, 404)),
    ("night-live", "get"): (lambda c: {"token": c.night_live.token}, "", None, expect(200, 200, 200, 200, 200)),
    ("invite-accept", "post"): (lambda c: {"code": c.invite.code}, "", None, expect(200, 200, 200, 200)),
    # The streams answer as their GETs do (a stream served by Django's test client sends its first state and ends).
    ("game-events", "get"): (GAME, "", None, expect(200, 200, 200, 404)),
    ("night-events", "get"): (lambda c: {"pk": c.night.pk}, "", None, expect(200, 200, 200, 404)),
    ("live-events", "get"): (lambda c: {"token": c.live.token}, "", None, expect(200, 200, 200, 200, anonymous=200)),
    ("night-live-events", "get"): (lambda c: {"token": c.night_live.token}, "", None, expect(200, 200, 200, 200, 200)),
    # Any signed-in account may count a hand; a request without a photo is refused naming `image`.
    ("hand-count", "post"): (NONE, "", None, expect(400, 400, 400, 400)),
}  # fmt: skip


def api_methods():
    (api,) = [p for p in get_resolver().url_patterns if isinstance(p, URLResolver) and p.namespace == "api"]
    pairs = set()
    for pattern in api.url_patterns:
        if isinstance(pattern, URLPattern):
            view = pattern.callback.view_class
            offered = [m for m in ("get", "post", "put", "patch", "delete") if m in view.http_method_names]
            pairs |= {(pattern.name, m) for m in offered if hasattr(view, m)}
    return pairs


def test_every_api_route_and_method_has_a_row():
    assert api_methods() == set(MATRIX)


@pytest.fixture
def club(db):
    return make_club()


def call(club, role, route, method):
    kwargs, query, body, _ = MATRIX[(route, method)]
    client = Client()
    if role != "anonymous":
        client.force_login(club.users[role])
    players = ",".join(str(player.pk) for player in club.players[:3])
    url = reverse(f"api:{route}", kwargs=kwargs(club)) + query.format(book=club.book.pk, players=players)
    if body is None:
        return getattr(client, method)(url)
    return getattr(client, method)(url, data=body(club), content_type="application/json")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("route", "method"), sorted(MATRIX))
def test_each_role_gets_what_its_role_allows(club, role, route, method):
    expected = MATRIX[(route, method)][3][role] or 401
    response = call(club, role, route, method)
    assert response.status_code == expected, response.content[:300]
    assert response.status_code == 204 or response["Content-Type"].startswith(
        ("application/json", "text/csv", "text/event-stream")
    )


REFUSED_WRITES = [
    (role, route, method)
    for route, method in sorted(MATRIX)
    if method != "get"
    for role in ("viewer", "stranger", "anonymous")
    if (MATRIX[(route, method)][3][role] or 401) >= 400
]


@pytest.mark.parametrize(("role", "route", "method"), REFUSED_WRITES)
def test_a_refused_write_changes_nothing(club, role, route, method):
    before = (Player.objects.count(), Game.objects.count(), Round.objects.count(),
              sorted(Membership.objects.values_list("user_id", "role")), Game.objects.get().version,
              club.book.invites.count(), list(LiveLink.objects.values_list("selector", flat=True)),
              list(Season.objects.values_list("name", "starts", "ends", "min_games", "drop_worst")),
              sorted(Player.objects.values_list("pk", "archived")), Game.objects.get().casual,
              Scorebook.objects.get(pk=club.book.pk).time_zone,
              list(Night.objects.values_list("name", "date", "version")), list(NightLink.objects.values_list("selector")))  # fmt: skip
    call(club, role, route, method)
    club.book.refresh_from_db()
    after = (Player.objects.count(), Game.objects.count(), Round.objects.count(),
             sorted(Membership.objects.values_list("user_id", "role")), Game.objects.get().version,
             club.book.invites.count(), list(LiveLink.objects.values_list("selector", flat=True)),
             list(Season.objects.values_list("name", "starts", "ends", "min_games", "drop_worst")),
             sorted(Player.objects.values_list("pk", "archived")), Game.objects.get().casual,
             Scorebook.objects.get(pk=club.book.pk).time_zone,
             list(Night.objects.values_list("name", "date", "version")), list(NightLink.objects.values_list("selector")))  # fmt: skip
    assert after == before and club.book.name == "Club"


def test_a_stranger_sees_nothing_of_the_scorebook_in_any_list(club):
    client = Client()
    client.force_login(club.users["stranger"])
    for path in ("/api/v1/players/", "/api/v1/games/", "/api/v1/leaderboard/"):
        assert client.get(path).json()["count"] == 0, path
    books = client.get("/api/v1/scorebooks/").json()["results"]
    assert [b["personal"] for b in books] == [True]
    assert client.get("/api/v1/me/stats/").json()["players"] == []
