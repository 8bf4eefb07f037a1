"""The page forms and query strings under hostile values: never a 500, and a refusal changes nothing.

Values: NUL bytes, digits of other scripts (Python's int() reads "١٢" as 12), numbers past any
column, signs, blanks and arbitrary text, each sent into one field of an otherwise sensible form.
Hypothesis runs derandomized (the same cases every run), so a failure is reproducible, never flaky.
"""

from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from scorekeeper.models import Game, IdempotencyKey, Invite, Membership, Player, Round, Scorebook
from scorekeeper.services import scorebooks
from tests.factories import UserFactory, make_game
from tests.views.test_pages import play_round

pytestmark = pytest.mark.django_db

UNICODE_DIGITS = ["١٢", "۱۲", "१२", "\uff11\uff12", "\U0001d7cf\U0001d7d0", "٣٠٠", "²", "½", "Ⅻ", "߄"]
ODD = ["-1", "0", "", " ", "1e3", "0x10", "NaN", "inf", "-0", "+5", "1_000", " 7 ", "9" * 40, "-" + "9" * 40,
       "on", "true", "/", "//evil.example/", "%00", "\u202e", "\ufeff1"]  # fmt: skip
HOSTILE = st.one_of(
    st.sampled_from(UNICODE_DIGITS + ODD),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(st.characters(codec="utf-8"), max_size=12),
    st.text(st.characters(codec="utf-8"), max_size=6).map(lambda text: f"{text}\x00{text}"),
)
FUZZ = settings(
    max_examples=20,
    deadline=None,
    database=None,
    derandomize=True,  # the same cases every run: a failure is reproducible, never flaky
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def snapshot() -> tuple:
    """Everything a refused form could have written."""
    return (
        list(Game.objects.order_by("pk").values_list("name", "version", "deleted_at")),
        Round.objects.count(),
        list(Player.objects.order_by("pk").values_list("name", "user_id")),
        list(Scorebook.objects.order_by("pk").values_list("name", flat=True)),
        list(Membership.objects.order_by("pk").values_list("role", "last_used_at")),
        list(Invite.objects.order_by("pk").values_list("code", "accepted_by_id")),
        IdempotencyKey.objects.count(),
        list(User.objects.order_by("pk").values_list("language", flat=True)),
    )


@pytest.fixture
def table(user):
    """A game with a round played, a scorebook with a second member, and a page client."""
    game = make_game(owner=user, tile_set=6)
    play_round(game)
    seats = [seat.player_id for seat in game.seats.order_by("position")]
    book = game.scorebook
    friend = UserFactory()
    code = scorebooks.invite(book=book, role="owner", by=user, invite_role="scorer").code
    scorebooks.accept(code=code, user=friend)
    other = scorebooks.create(by=friend, name="Friday club")
    invite = scorebooks.invite(book=other, role="owner", by=friend, invite_role="viewer").code
    client = Client(raise_request_exception=False)  # a 500 is an answer to look at
    client.force_login(user)
    return {"game": game, "seats": seats, "book": book, "friend": friend, "invite": invite, "client": client}


def forms(table) -> dict[str, tuple[str, dict]]:
    """Every page form: its URL and sensible values for all its fields."""
    g, b, s = table["game"].pk, table["book"].pk, table["seats"]
    version = Game.objects.get(pk=g).version
    round_fields = {"starting_double": 5, "version": version, f"p{s[0]}_went_out": "on", f"p{s[1]}_pips": 3,
                    f"p{s[1]}_tiles": "1-2", f"p{s[2]}_pips": 4, f"p{s[2]}_tiles_left": 1, "confirmed": ""}  # fmt: skip
    return {
        "new game": (
            "/games/new/",
            {
                "name": "Fri",
                "players": s[:2],
                "seat_order": f"{s[1]},{s[0]}",
                "preset": "standard",
                "tile_set": 6,
                "double_blank_penalty": 50,
                "end_on_double_penalty": 50,
                "extended": "",
                "target_score": "",
            },
        ),
        "add player": ("/players/add/", {"player-name": "Dee", "next": "/players/"}),
        "rename player": (f"/players/{s[0]}/", {"name": "Ann B"}),
        "this is me": (f"/players/{s[0]}/me/", {"me": "1"}),
        "round entry": (f"/games/{g}/rounds/new/", round_fields),
        "round edit": (f"/games/{g}/rounds/1/edit/", {**round_fields, "starting_double": 6}),
        "undo": (f"/games/{g}/rounds/undo/", {"number": 1, "version": version}),
        "restore": (f"/games/{g}/rounds/restore/", {"version": version}),
        "rename game": (f"/games/{g}/rename/", {"name": "Friday"}),
        "new scorebook": ("/scorebooks/", {"name": "Club"}),
        "rename scorebook": (f"/scorebooks/{b}/", {"name": "Home"}),
        "invite": (f"/scorebooks/{b}/invites/", {"role": "viewer"}),
        "member role": (f"/scorebooks/{b}/members/{table['friend'].pk}/role/", {"role": "viewer"}),
        "switch": (f"/scorebooks/{b}/switch/", {"next": "/history/"}),
        "accept invite": (f"/invites/{table['invite']}/", {}),
        "language": ("/language/", {"language": "es", "next": "/"}),
    }


PAGES = ["/", "/games/new/", "/history/", "/leaderboard/", "/players/", "/me/stats/", "/scorebooks/", "/export/",
         "/sheets/blank/", "/games/{g}/", "/players/{p}/", "/scorebooks/{b}/"]  # fmt: skip
PARAMETERS = ["page", "same", "set", "players", "game", "scorebook", "format", "invite", "tile_set", "period", "sort"]


FORMS = ["new game", "add player", "rename player", "this is me", "round entry", "round edit", "undo", "restore",
         "rename game", "new scorebook", "rename scorebook", "invite", "member role", "switch", "accept invite",
         "language"]  # fmt: skip


def test_the_fuzzed_forms_are_every_form_in_the_table(table):
    assert sorted(forms(table)) == sorted(FORMS)


@pytest.mark.parametrize("name", FORMS)
def test_hostile_values_in_any_field_of_a_page_form_are_never_a_500_and_a_refusal_changes_nothing(table, name):
    client = table["client"]
    fields = forms(table)[name][1]

    @FUZZ
    @given(field=st.sampled_from([*sorted(fields), "next"]), value=HOSTILE, as_list=st.booleans())
    def send(field, value, as_list):
        url_now, sensible = forms(table)[name]  # the version moves as rounds are saved and undone
        before = snapshot()
        response = client.post(url_now, {**sensible, field: [value, value] if as_list else value})
        assert response.status_code < 500, (name, field, value, response.status_code)
        if "\x00" in value:
            assert response.status_code == 400, (name, field, value, response.status_code)
        if response.status_code == 400:
            assert snapshot() == before, (name, field, value)

    send()


def test_a_nul_in_any_field_of_any_page_form_is_a_400_that_changes_nothing(table):
    client, checked = table["client"], 0
    for name, (url, fields) in forms(table).items():
        for field in [*fields, "next", "csrfmiddlewaretoken"]:
            before = snapshot()
            response = client.post(url, {**fields, field: "1\x00"})
            assert response.status_code == 400, (name, field, response.status_code)
            assert snapshot() == before, (name, field)
            checked += 1
    assert checked > 60


@FUZZ
@given(page=st.sampled_from(PAGES), parameter=st.sampled_from(PARAMETERS), value=HOSTILE)
def test_hostile_query_strings_on_the_pages_are_never_a_500(table, page, parameter, value):
    url = page.format(g=table["game"].pk, p=table["seats"][0], b=table["book"].pk)
    response = table["client"].get(url, {parameter: value})
    assert response.status_code < 500, (url, parameter, value, response.status_code)
    if "\x00" in value:
        assert response.status_code == 400, (url, parameter, value)


@FUZZ
@given(code=HOSTILE, method=st.sampled_from(["get", "post"]))
def test_hostile_invite_codes_in_the_path_are_never_a_500_and_join_nothing(table, code, method):
    before = snapshot()
    response = getattr(table["client"], method)(f"/invites/{quote(code, safe='')}/")
    assert response.status_code in {400, 404}, (code, method, response.status_code)
    assert snapshot() == before
