"""Player and game names are user text: on every page and in every chart they stay text."""

import random
import re
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.demo import play_game
from scorekeeper.models import Invite, Scorebook
from scorekeeper.rules.game import GameRules
from scorekeeper.services import live as links
from scorekeeper.services import nights
from tests.factories import PlayerFactory
from tests.seasons import make_season
from tests.views.test_page_roles import PAGES

# Every page a member can read, with the objects it needs (the role matrix lists them all).
GET_PAGES = {
    "home": lambda o: {},
    "new_game": lambda o: {},
    "paper_game": lambda o: {},
    "game": lambda o: {"pk": o["game"]},
    "game_history": lambda o: {"pk": o["game"]},
    "game_sheet": lambda o: {"pk": o["game"]},
    "home_games": lambda o: {},
    "record_round": lambda o: {"pk": o["game"]},
    "seat_change": lambda o: {"pk": o["game"], "kind": "take_over"},
    "edit_round": lambda o: {"pk": o["game"], "number": 1},
    "history": lambda o: {},
    "players": lambda o: {},
    "merge_players": lambda o: {},
    "player": lambda o: {"pk": o["player"]},
    "leaderboard": lambda o: {},
    "my_stats": lambda o: {},
    "delete_account": lambda o: {},
    "scorebooks": lambda o: {},
    "scorebook": lambda o: {"pk": o["scorebook"]},
    "invite": lambda o: {"code": o["invite"]},
    "trash": lambda o: {"pk": o["scorebook"]},
    "seasons": lambda o: {"pk": o["scorebook"]},
    "season": lambda o: {"pk": o["season"]},
    "live": lambda o: {"token": o["live"]},
    "live_sheet": lambda o: {"token": o["live"]},
    "night": lambda o: {"pk": o["night"]},
    "night_body": lambda o: {"pk": o["night"]},
    "night_live": lambda o: {"token": o["night_live"]},
    "night_live_sheet": lambda o: {"token": o["night_live"]},
}

pytestmark = pytest.mark.django_db

HOSTILE = [
    '"><img src=x onerror=alert(1)>',
    "</script><script>alert(2)</script>",
    "Ann \"the 'boss'\" & co",
    "\u202eevil RTL \u05e9\u05dc\u05d5\u05dd",
    "🐔 Chick 🁣",
]
# What must never reach a page as markup: each would run or break out if unescaped.
RAW = ["<img src=x onerror", "</script><script>alert(2)"]
ATTRIBUTE = re.compile(r"^[a-z][a-z0-9:_.-]*$")


class Elements(HTMLParser):
    """Every element and attribute as a browser would parse them."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


@pytest.fixture
def hostile_book(user):
    players = [PlayerFactory(owner=user, name=name) for name in HOSTILE]
    ids = [player.pk for player in players]
    rules = GameRules(tile_set=6)
    finished = services.import_game(
        by=user, players=ids[:4], rules=rules, rounds=play_game(rules, ids[:4], random.Random(8)), name=HOSTILE[0]
    )
    going = services.import_game(
        by=user,
        players=ids[1:],
        rules=rules,
        rounds=play_game(rules, ids[1:], random.Random(9))[:2],
        name=HOSTILE[1],
    )
    assert finished.is_finished and not going.is_finished
    book = Scorebook.personal_for(user)
    book.name = HOSTILE[0]
    book.save()
    players[0].user = user  # "this is me": My stats shows the name too
    players[0].save()
    invite = Invite.objects.create(scorebook=book, role="viewer", created_by=user)
    link = links.share(game=going, by=user)
    # A season around today, named as badly: the leaderboard shows its table too.
    today = book.today()
    season = make_season(book=book, name=HOSTILE[1], starts=today.replace(day=1), ends=today + timedelta(days=60))
    # A club night named as badly, both games its tables (the finished one in its standings).
    night = nights.create_night(book=book, role="owner", name=HOSTILE[0], date=today)
    for game in (going, finished):
        nights.set_night(game=game, night=night.pk)
    night_link = nights.share(night=night, by=user)
    return {"game": going.pk, "player": ids[0], "finished": finished.pk, "scorebook": book.pk, "invite": invite.code,
            "live": link.token, "season": season.pk, "night": night.pk, "night_live": night_link.token}  # fmt: skip


def test_every_page_a_member_reads_is_in_the_list():
    # Left out: two SVGs of URLs, and the export (a JSON or CSV download, not a page).
    readable = {name for name, row in PAGES.items() if row[0] == "get"} - {
        "invite_qr",
        "live_qr",
        "night_live_qr",
        "export",
    }
    assert set(GET_PAGES) == readable


def pages(objects):
    for name, kwargs in GET_PAGES.items():
        yield name, reverse(name, kwargs=kwargs(objects))
    yield "finished game", reverse("game", args=[objects["finished"]])
    for pk in (objects["player"], objects["player"] + 1):
        yield "player with a chart", reverse("player", args=[pk])


def test_hostile_names_stay_text_on_every_page_and_chart(client, user, hostile_book):
    client.force_login(user)
    charts = 0
    for name, url in pages(hostile_book):
        response = client.get(url)
        assert response.status_code == 200, name
        html = response.content.decode()
        for raw in RAW:
            assert raw not in html, f"{name}: {raw!r} unescaped"
        parsed = Elements()
        parsed.feed(html)
        for tag, attrs in parsed.tags:
            handlers = [attr for attr in attrs if attr.startswith("on") or not ATTRIBUTE.match(attr)]
            assert not handlers, f"{name}: <{tag}> has {handlers}"  # an event handler, or a quote broke out
            assert not (tag == "script" and "src" not in attrs and attrs.get("type") != "application/json"), name
        charts += html.count('class="pygal-chart"')
    assert charts >= 3  # the sheet's chart and both players' charts were rendered


def test_hostile_names_are_shown_escaped_not_dropped(client, user, hostile_book):
    client.force_login(user)
    html = client.get(reverse("players")).content.decode()
    assert "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in html
    assert "\u202eevil RTL" in html and "🐔 Chick" in html
    chart_page = client.get(reverse("player", args=[hostile_book["player"]])).content.decode()
    assert 'aria-label="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#x27;s total' in chart_page


def test_charts_carry_no_script_and_no_inline_style(client, user, hostile_book):
    client.force_login(user)
    html = client.get(reverse("game", args=[hostile_book["finished"]])).content.decode()
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert "<script" not in svg and "<style" not in svg and "style=" not in svg


def test_the_chart_stylesheet_is_what_pygal_would_inline():
    from pathlib import Path

    from scorekeeper.reads import charts

    served = (Path(charts.__file__).parent.parent / "static" / "scorekeeper" / "charts.css").read_text()
    assert served.split("\n", 1)[1] == charts.stylesheet()
