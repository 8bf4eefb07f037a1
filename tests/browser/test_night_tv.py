"""A club night's TV (issue 39), in Chromium at 1280x720 and 1920x1080: three tables of 4, 5 and 6
players (two unnamed, called "Table 1" and "Table 2" as the phones call them, one named), each live
table with its players' scores in the round played last beside their totals, and the standings
with a caption saying what they count.
The TV link on the night's page opens straight in TV mode; every live table and the night's
standings are on screen without scrolling; a round at a table shows at once (the
night's stream), that table highlighted for a few seconds; a table that finishes shrinks after the
live ones and never pushes one off the screen. In Spanish too, and axe finds nothing serious."""

from datetime import date

import pytest
from playwright.sync_api import TimeoutError, expect

from scorekeeper import services
from scorekeeper.models import Game, Role, Scorebook
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import nights
from tests.browser.conftest import PHONE, close_context, screenshot
from tests.browser.test_axe import AXE, axe, described
from tests.browser.test_csp import log_in
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

TVS = {"720p": {"width": 1280, "height": 720}, "1080p": {"width": 1920, "height": 1080}}
LANGUAGES = {"en": "en-US", "es": "es-MX"}
# ms: a round at any table is on the TV at once (the night's stream). The 1 s of the issue is measured by
# bench/streams.py; a browser test on a loaded CI box allows what every "within 3 seconds" test here allows.
STREAMED = 3000
TABLES = (
    ("María Guadalupe Fernández Concepción", "José", "Ann", "Ben"),
    ("Bartholomew Featherstonehaugh-Smythe", "Cy", "Dot", "Eve", "Fay"),
    ("Gus", "Hal", "Ida", "🐔 Jo", "Kim", "Lou"),
)
NAMED = "Window table"  # the third table has a name of its own


def play(game, pips) -> None:
    """One round: the seat at 0 went out, the others hold `pips` (seat order)."""
    game = Game.objects.get(pk=game.pk)
    seats = [seat.player_id for seat in game.seats.order_by("position")]
    double = 12 - game.rounds.count()
    services.record_round(game=game, starting_double=double, by=None, entries=[
        EntryInput(player=p, pips=v, went_out=v == 0) for p, v in zip(seats, pips, strict=True)])  # fmt: skip


def rounds_of(size: int, count: int, shift: int = 0) -> list[list[int]]:
    """`count` rounds at a table of `size`, whoever is out turning round the table."""
    return [[0 if seat == (n + shift) % size else 3 + (7 * seat + 5 * n) % 40 for seat in range(size)]
            for n in range(count)]  # fmt: skip


@pytest.fixture
def club_night():
    user = UserFactory()
    book = Scorebook.personal_for(user)
    night = nights.create_night(book=book, role=Role.OWNER, name="Friday club at the Legion Hall", date=date.today())
    games = []
    for number, names in enumerate(TABLES, start=1):
        players = [PlayerFactory(owner=user, name=name) for name in names]
        games.append(services.create_game(
            by=user, scorebook=book, players=[p.pk for p in players], rules=GameRules(tile_set=12),
            number=number, name=NAMED if number == 3 else "", night=night.pk))  # fmt: skip
    for game, count in zip(games, (5, 6, 7), strict=True):
        for pips in rounds_of(len(game.seats.all()), count):
            play(game, pips)
    return user, night, games, nights.share(night=night, by=user)


def on_screen(locator, viewport) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]  # fmt: skip


def no_scrolling(page, viewport) -> bool:
    width, height = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    return width <= viewport["width"] and height <= viewport["height"]


AS_SEEN = """() => [...document.querySelectorAll(".night-table")]
  .map((card) => [card.getBoundingClientRect(), card.querySelector("h3").textContent.trim()])
  .sort(([a], [b]) => Math.floor(a.top / 24) - Math.floor(b.top / 24) || a.left - b.left)
  .map(([, name]) => name)"""


def assert_seen_in_order(page, names: list[str]) -> None:
    """The tables' names in the order the screen shows them, row by row, left to right (once the
    page has settled: a screenshot of the whole page resizes it for a moment)."""
    try:
        page.wait_for_function(
            f"(names) => JSON.stringify(({AS_SEEN})()) === JSON.stringify(names)", arg=names, timeout=5000
        )
    except TimeoutError:
        assert page.evaluate(AS_SEEN) == names


def assert_one_screen(page, viewport, tables: int, standings: int) -> None:
    assert no_scrolling(page, viewport)
    cards = page.locator(".night-table")
    expect(cards).to_have_count(tables)
    for index in range(tables):
        assert on_screen(cards.nth(index), viewport), index
    rows = page.locator(".night-standings li")
    expect(rows).to_have_count(standings)
    for index in range(standings):
        assert on_screen(rows.nth(index), viewport), index


def assert_last_round(page, viewport, table: str, number: int, scores: list[int]) -> None:
    """The table's column of the round played last says its number, and holds each player's score
    in it, on screen."""
    expect(page.locator(f"{table} .table-columns .last")).to_have_text(f"Round {number}")
    cells = page.locator(f"{table} .table-players .last")
    expect(cells).to_have_count(len(scores))
    shown = [text.split(": ")[-1] for text in cells.all_text_contents()]
    assert sorted(shown) == sorted(f"+{score}" for score in scores)
    for index in range(len(scores)):
        assert on_screen(cells.nth(index), viewport), index


@pytest.mark.parametrize("tv", TVS)
def test_the_nights_tv_link_shows_every_table_and_the_standings_on_one_screen(browser, live_server, club_night, tv):
    user, night, games, _link = club_night
    viewport = TVS[tv]
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        log_in(page, user.email)
        page.goto(f"/nights/{night.pk}/")
        tv_link = page.locator("#tv-link").get_attribute("href")
        assert tv_link.endswith("?tv=1") and "/live/nights/" in tv_link
        assert page.locator("#tv-qr").get_attribute("src").endswith("?tv=1")  # a QR code of its own
        context.clear_cookies()  # the TV has no account
        page.goto(tv_link)
        expect(page.locator("body.tv")).to_have_count(1)  # no tap on the TV
        page.wait_for_function("() => document.documentElement.dataset.js === 'ready'")
        expect(page.locator(".night-table")).to_have_count(3)
        assert_one_screen(page, viewport, tables=3, standings=0)  # three live tables of 4, 5 and 6
        screenshot(page, f"39-night-tv-{tv}-three-live")
        assert_seen_in_order(page, ["Table 1", "Table 2", NAMED])
        expect(page.locator("#live-body")).not_to_contain_text("Game 1")  # never the game's own title
        for table, (names, count) in enumerate(zip(TABLES, (5, 6, 7), strict=True), start=1):
            assert_last_round(page, viewport, f"#table-{table}", count, rounds_of(len(names), count)[-1])
        assert on_screen(page.locator(".night-caption"), viewport)  # what the standings count

        play(games[2], rounds_of(6, 1, shift=3)[0])  # a round at the named table: 🐔 Jo goes out
        table = page.locator("#table-3")
        expect(table).to_have_attribute("data-rounds", "8", timeout=STREAMED)
        expect(table).to_have_class("night-table just-played")
        expect(table.locator(".table-players li.just-played")).to_have_count(5)  # everyone's total but Jo's moved
        assert_last_round(page, viewport, "#table-3", 8, rounds_of(6, 1, shift=3)[0])  # the round just played
        assert_one_screen(page, viewport, tables=3, standings=0)
        screenshot(page, f"39-night-tv-{tv}-round-played")
        expect(table).to_have_class("night-table", timeout=10_000)  # the highlight lasts a few seconds

        services.finish_game(game=Game.objects.get(pk=games[0].pk), by=user)  # table 1 is over: standings start
        expect(page.locator("#table-1")).to_have_class("night-table finished just-played", timeout=STREAMED)
        assert_seen_in_order(page, ["Table 2", NAMED, "Table 1"])  # the live ones first, finished after
        assert_one_screen(page, viewport, tables=3, standings=4)
        screenshot(page, f"39-night-tv-{tv}-one-finished")
        live_height = page.locator("#table-3").bounding_box()["height"]
        assert page.locator("#table-1").bounding_box()["height"] < live_height / 2  # the finished one shrank

        services.finish_game(game=Game.objects.get(pk=games[1].pk), by=user)  # table 2 is over too
        expect(page.locator("#table-2")).to_have_class("night-table finished just-played", timeout=STREAMED)
        screenshot(page, f"39-night-tv-{tv}-two-finished")
        assert_seen_in_order(page, [NAMED, "Table 1", "Table 2"])
        assert_one_screen(page, viewport, tables=3, standings=9)
        assert page.locator("#table-3 .table-players li").count() == 6
        for row in page.locator("#table-3 .table-players li").all():
            assert on_screen(row, viewport)  # the live table keeps its whole place
    finally:
        close_context(context)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_nights_tv_speaks_the_viewers_language_and_axe_finds_nothing_serious(browser, live_server, club_night, language):  # fmt: skip
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make browser` installs axe-core from the npm registry")
    user, _night, games, link = club_night
    services.finish_game(game=Game.objects.get(pk=games[0].pk), by=user)  # the standings start
    viewport = TVS["720p"]
    context = browser.new_context(viewport=viewport, base_url=live_server.url, locale=LANGUAGES[language])
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"/live/nights/{link.token}/?tv=1")
        expect(page.locator("body.tv")).to_have_count(1)
        page.wait_for_load_state("networkidle")
        table = "Mesa" if language == "es" else "Table"
        expect(page.locator(".night-table h3")).to_have_text([f"{table} 1", f"{table} 2", NAMED])
        expect(page.locator("#table-2 .table-columns")).to_have_text(
            "Ronda 6Total" if language == "es" else "Round 6Total"
        )
        caption = (
            "Puntos por puesto de cada mesa terminada" if language == "es" else "Place points from each finished table"
        )
        expect(page.locator(".night-caption")).to_contain_text(caption)
        assert_seen_in_order(page, [f"{table} 2", NAMED, f"{table} 1"])
        assert_one_screen(page, viewport, tables=3, standings=4)
        screenshot(page, f"39-night-tv-720p-{language}")
        problems = [described(f"night TV ({language})", violation) for violation in axe(page)]
        assert problems == [], "\n".join(problems)
    finally:
        close_context(context)


def test_the_nights_tv_keeps_a_long_name_on_one_line_whole_or_cut_with_its_title(browser, live_server, club_night):
    """Tryout 39 saw names broken inside words over two lines: a name now reads on one line, cut
    with an ellipsis only when the type the screen holds cannot show it whole (tests/browser/
    test_night_tv_names.py measures the tables' names at one, three and six tables)."""
    _user, _night, games, share = club_night
    for game in games[:2]:  # two tables finish: their winners, the long names, lead the standings
        while not Game.objects.get(pk=game.pk).is_finished:
            play(game, rounds_of(len(game.seats.all()), 1)[0])
    context = browser.new_context(viewport=TVS["720p"], base_url=live_server.url)
    page = context.new_page()
    try:
        page.goto(f"/live/nights/{share.token}/?tv=1")
        page.wait_for_function("() => document.documentElement.dataset.js === 'ready'")
        screenshot(page, "39-night-tv-720p-long-names-whole")
        seen = page.locator(".night-standings .who").evaluate_all(
            "(parts) => Object.fromEntries(parts.map((p) => [p.textContent.trim(), [p.title,"
            " Math.round(p.clientHeight / parseFloat(getComputedStyle(p).lineHeight)),"
            " p.scrollWidth <= p.clientWidth + 1 || getComputedStyle(p).textOverflow === 'ellipsis']]))"
        )
        for name in ("Bartholomew Featherstonehaugh-Smythe", "María Guadalupe Fernández Concepción", "José"):
            assert seen[name] == [name, 1, True], (name, seen[name])  # its title, one line, whole or "…"
        assert no_scrolling(page, TVS["720p"])
    finally:
        close_context(context)


def test_a_phone_calls_each_table_as_the_tv_does(browser, live_server, club_night):
    """The phones at the tables (the game's page, the home page's list, the night's page) say
    "Table 1" where the TV does, never the game's own number."""
    user, night, games, _link = club_night
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        log_in(page, user.email)
        page.goto(f"/games/{games[0].pk}/")
        expect(page.locator("#game-title")).to_have_text("Table 1")
        screenshot(page, "39-night-phone-table-1")
        page.goto("/")
        for name in ("Table 1", "Table 2", NAMED):
            expect(page.locator("main")).to_contain_text(name)
        expect(page.locator("main")).not_to_contain_text("Game 1 ·")
        page.goto(f"/nights/{night.pk}/")
        expect(page.locator(".night-table h3")).to_have_text(["Table 1", "Table 2", NAMED])
        expect(page.locator("#table-2 .table-columns .last")).to_have_text("Round 6")
        screenshot(page, "39-night-phone-night-page")
    finally:
        close_context(context)
