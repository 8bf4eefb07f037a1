"""Every page x {owner, scorer, viewer, non-member, anonymous}, checked against the URL resolver:
a page added without its row fails. A viewer reads and is refused every write (403); a
non-member gets 404 for anything of the scorebook; anonymous goes to log in."""

import re

import pytest
from django.test import Client
from django.urls import URLPattern, get_resolver, reverse

from scorekeeper.models import Game, LiveLink, Membership, Night, NightLink, Player, Round, Season
from tests.roles import ROLES, expect, make_club

pytestmark = pytest.mark.django_db

PUBLIC = {"rules", "healthz", "blank_sheet"}
GAME = lambda c: {"pk": c.game.pk}  # noqa: E731
NONE = lambda c: {}  # noqa: E731
BOOK = lambda c: {"pk": c.book.pk}  # noqa: E731

# page -> (method, path kwargs, form data, expected status per role). The club is every member's
# current scorebook, so "new game" and "add player" act in it (a stranger's act in their own).
PAGES = {
    "home": ("get", NONE, None, expect(200, 200, 200, 200, anonymous=200)),  # the front door
    "new_game": ("get", NONE, None, expect(200, 200, 403, 200)),
    "paper_game": ("get", NONE, None, expect(200, 200, 403, 200)),  # in the current scorebook, as new_game
    "game": ("get", GAME, None, expect(200, 200, 200, 404)),
    "game_history": ("get", GAME, None, expect(200, 200, 200, 404)),
    "game_sheet": ("get", GAME, None, expect(200, 200, 200, 404)),  # what a member's sheet redraws
    "home_games": ("get", NONE, None, expect(200, 200, 200, 200)),  # what the home page redraws: your own
    "record_round": ("get", GAME, None, expect(200, 200, 403, 404)),
    "seat_change": ("get", lambda c: {"pk": c.game.pk, "kind": "join"}, None, expect(200, 200, 403, 404)),
    "edit_round": ("get", lambda c: {"pk": c.game.pk, "number": 1}, None, expect(200, 200, 403, 404)),
    "history": ("get", NONE, None, expect(200, 200, 200, 200)),
    "players": ("get", NONE, None, expect(200, 200, 200, 200)),
    "player": ("get", lambda c: {"pk": c.players[0].pk}, None, expect(200, 200, 200, 404)),
    "leaderboard": ("get", NONE, None, expect(200, 200, 200, 200)),
    "my_stats": ("get", NONE, None, expect(200, 200, 200, 200)),
    "delete_account": ("get", NONE, None, expect(200, 200, 200, 200)),  # deleting: tests/api/test_account_deletion.py
    "scorebooks": ("get", NONE, None, expect(200, 200, 200, 200)),
    "scorebook": ("get", BOOK, None, expect(200, 200, 200, 404)),
    # Signed out, an invite says who invites to which scorebook as what (joining asks to log in).
    "invite": ("get", lambda c: {"code": c.invite.code}, None, expect(200, 200, 200, 200, anonymous=200)),
    "invite_qr": ("get", lambda c: {"code": c.invite.code}, None, expect(200, 404, 404, 404)),
    "add_player": ("post", NONE, {"player-name": "Zed"}, expect(302, 302, 403, 302)),
    "undo_round": ("post", GAME, {"number": 1}, expect(302, 302, 403, 404)),
    "restore_round": ("post", GAME, {}, expect(302, 302, 403, 404)),
    "rename_game": ("post", GAME, {"name": "Friday"}, expect(302, 302, 403, 404)),
    "rematch": ("post", GAME, {}, expect(302, 302, 403, 404)),
    "undo_seat_change": ("post", GAME, {}, expect(302, 302, 403, 404)),
    "finish_game": ("post", GAME, {}, expect(302, 302, 403, 404)),  # no version: a message, nothing ended
    "delete_game": ("post", GAME, {}, expect(302, 302, 403, 404)),
    "delete_player": ("post", lambda c: {"pk": c.spare.pk}, {}, expect(302, 302, 403, 404)),
    "archive_player": ("post", lambda c: {"pk": c.spare.pk}, {"archived": "1"}, expect(302, 302, 403, 404)),
    "merge_players": ("get", NONE, None, expect(200, 200, 403, 200)),  # in the current scorebook, as new_game
    "casual_game": ("post", GAME, {"casual": "1"}, expect(302, 302, 403, 404)),
    "link_player": ("post", lambda c: {"pk": c.players[0].pk}, {"me": "1"}, expect(302, 302, 302, 404)),
    "switch_scorebook": ("post", BOOK, {}, expect(302, 302, 302, 404)),
    "create_invite": ("post", BOOK, {"role": "viewer"}, expect(302, 403, 403, 404)),
    "remove_member": ("post", lambda c: {"pk": c.book.pk, "user_pk": c.extra.pk}, {}, expect(302, 403, 403, 404)),
    "member_role": (
        "post",
        lambda c: {"pk": c.book.pk, "user_pk": c.extra.pk},
        {"role": "scorer"},
        expect(302, 403, 403, 404),
    ),
    "delete_scorebook": ("post", BOOK, {}, expect(302, 403, 403, 404)),
    "trash": ("get", BOOK, None, expect(200, 403, 403, 404)),
    "seasons": ("get", BOOK, None, expect(200, 200, 200, 404)),
    "season": ("get", lambda c: {"pk": c.season.pk}, None, expect(200, 200, 200, 404)),
    "delete_season": ("post", lambda c: {"pk": c.season.pk}, {}, expect(302, 403, 403, 404)),
    "add_night": ("post", BOOK, {"name": "Saturday", "date": "2025-11-22"}, expect(302, 302, 403, 404)),
    "night": ("get", lambda c: {"pk": c.night.pk}, None, expect(200, 200, 200, 404)),
    "night_body": ("get", lambda c: {"pk": c.night.pk}, None, expect(200, 200, 200, 404)),
    "delete_night": ("post", lambda c: {"pk": c.night.pk}, {}, expect(302, 302, 403, 404)),
    "share_night": ("post", lambda c: {"pk": c.night.pk}, {}, expect(302, 302, 403, 404)),
    "revoke_night_share": ("post", lambda c: {"pk": c.night.pk}, {}, expect(302, 302, 403, 404)),
    "game_night": ("post", GAME, {"night": ""}, expect(302, 302, 403, 404)),
    "night_live": ("get", lambda c: {"token": c.night_live.token}, None, expect(200, 200, 200, 200, anonymous=200)),
    "night_live_sheet": (
        "get",
        lambda c: {"token": c.night_live.token},
        None,
        expect(200, 200, 200, 200, anonymous=200),
    ),
    "night_live_qr": ("get", lambda c: {"token": c.night_live.token}, None, expect(200, 200, 200, 200, anonymous=200)),
    "restore_game": ("post", GAME, {}, expect(404, 404, 404, 404)),  # nothing in the trash: see tests/test_trash.py
    "share_game": ("post", GAME, {}, expect(302, 302, 403, 404)),
    "export": ("get", lambda c: {}, None, expect(200, 200, 200, 200)),  # each gets what they can see
    "import_games": ("post", BOOK, {}, expect(302, 302, 403, 404)),  # no file: a message, nothing saved
    "revoke_share": ("post", GAME, {}, expect(302, 302, 403, 404)),
    "live": ("get", lambda c: {"token": c.live.token}, None, expect(200, 200, 200, 200, anonymous=200)),
    "live_sheet": ("get", lambda c: {"token": c.live.token}, None, expect(200, 200, 200, 200, anonymous=200)),
    "live_qr": (
        "get",
        lambda c: {"token": c.live.token},
        None,
        expect(200, 200, 200, 200, anonymous=200),
    ),  # refused with a message: it has a game
}


def page_names():
    return {
        p.name
        for p in get_resolver().url_patterns
        if isinstance(p, URLPattern)
        and p.name
        and p.callback.__module__.startswith(("scorekeeper.views.", "scorekeeper.http.errors", "scorekeeper.health"))
    }


def test_every_page_has_a_row():
    assert page_names() == set(PAGES) | PUBLIC


@pytest.fixture
def club(db):
    return make_club()


def visit(club, role, name):
    method, kwargs, data, _ = PAGES[name]
    client = Client()
    if role != "anonymous":
        client.force_login(club.users[role])
    return getattr(client, method)(reverse(name, kwargs=kwargs(club)), data or {})


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", sorted(PAGES))
def test_each_role_gets_what_its_role_allows(club, role, name):
    response = visit(club, role, name)
    if role == "anonymous" and PAGES[name][3]["anonymous"] is None:
        assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    else:
        assert response.status_code == PAGES[name][3][role]


def snapshot(club):
    club.book.refresh_from_db()
    game = Game.objects.get(pk=club.game.pk)
    return (Player.objects.count(), Game.objects.count(), Round.objects.count(), Membership.objects.count(),
            game.version, game.name, club.book.name, club.book.invites.count(),
            sorted(Membership.objects.values_list("user_id", "role")),
            list(LiveLink.objects.values_list("selector", flat=True)),
            list(Player.objects.values_list("user_id", "archived")), game.casual,
            list(Season.objects.values_list("name", "starts", "ends", "min_games", "drop_worst")),
            list(Night.objects.values_list("name", "date", "version")), list(NightLink.objects.values_list("selector")))  # fmt: skip


REFUSED_WRITES = [
    (role, name)
    for name in sorted(n for n in PAGES if PAGES[n][0] == "post")
    for role in ("viewer", "stranger", "anonymous")
    if role == "anonymous" or PAGES[name][3][role] >= 400
]


@pytest.mark.parametrize(("role", "name"), REFUSED_WRITES)
def test_a_refused_write_changes_nothing(club, role, name):
    before = snapshot(club)
    visit(club, role, name)
    assert snapshot(club) == before


def test_a_viewer_sees_no_control_they_cannot_use(club):
    client = Client()
    client.force_login(club.users["viewer"])
    sheet = client.get(reverse("game", args=[club.game.pk])).content.decode()
    for control in ("enter-round", 'id="undo"', "Change or delete this game", "casual-form", "Edit round 1"):
        assert control not in sheet, control
    assert "+ New game" not in client.get(reverse("home")).content.decode()
    assert "Add a player" not in client.get(reverse("players")).content.decode()
    client.force_login(club.users["scorer"])
    sheet = client.get(reverse("game", args=[club.game.pk])).content.decode()
    assert "enter-round" in sheet and 'id="undo"' in sheet and "Change or delete this game" in sheet


def test_a_stranger_sees_nothing_of_the_scorebook_on_any_list(club):
    client = Client()
    client.force_login(club.users["stranger"])
    for name in ("home", "history", "players", "leaderboard", "scorebooks", "my_stats"):
        # The text a person reads (tags and attributes out: nonces and CSRF tokens are random letters).
        text = re.sub(r"<[^>]*>", " ", client.get(reverse(name)).content.decode())
        assert "Club" not in text and "Ann" not in text, name


def test_the_admin_lists_only_what_a_staff_members_scorebooks_hold(club):
    from django.contrib.auth.models import Permission

    staff = club.users["stranger"]
    staff.is_staff = True
    staff.save()
    staff.user_permissions.set(Permission.objects.filter(codename__in=["view_game", "view_player", "view_round"]))
    client = Client()
    client.force_login(staff)
    for path in ("/admin/scorekeeper/game/", "/admin/scorekeeper/player/", "/admin/scorekeeper/round/"):
        response = client.get(path)
        assert response.status_code == 200 and response.context["cl"].result_count == 0, path
    assert client.get(f"/admin/scorekeeper/game/{club.game.pk}/change/").status_code == 302  # "does not exist"
    Membership.objects.create(scorebook=club.book, user=staff, role="viewer")
    assert client.get("/admin/scorekeeper/game/").context["cl"].result_count == 1


def test_a_strangers_export_holds_nothing_of_the_scorebook(club):
    client = Client()
    client.force_login(club.users["stranger"])
    assert client.get(reverse("export")).json()["games"] == []
    assert client.get(reverse("export") + f"?game={club.game.pk}").status_code == 404
    assert client.get(reverse("export") + f"?scorebook={club.book.pk}").status_code == 404
    client.force_login(club.users["viewer"])
    assert len(client.get(reverse("export")).json()["games"]) == 1  # the club's game
