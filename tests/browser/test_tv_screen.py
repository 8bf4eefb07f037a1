"""A game's TV (issue 39), in Chromium at 1280x720 and 1920x1080 with ten players: the TV link opens
straight in TV mode; twelve rounds played, the standings and the newest round are on screen and the
page never scrolls, the oldest rounds giving way; the thirteenth round, saved while the TV watches,
shows highlighted under the winner's card, still without scrolling."""

import random

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import live as links
from tests.browser.conftest import screenshot
from tests.browser.test_night_tv_names import words_split
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db(transaction=True)

TEN = ("Maria Guadalupe Fernandez", "José", "Ann", "Ben", "Cy", "Dot", "Eve", "Fay", "Gus", "Hal")
TVS = {"720p": {"width": 1280, "height": 720}, "1080p": {"width": 1920, "height": 1080}}
GIVE_WAY = {"720p": 8, "1080p": 0}  # the oldest rounds that do not fit under ten standings


def play_round(game, user, rng) -> None:
    players = [seat.player_id for seat in game.seats.order_by("position")]
    out = rng.randrange(len(players))
    double = 12 - game.rounds.count()  # a double-12 set plays 12-12 down to 0-0
    entries = [EntryInput(player=p, pips=0 if i == out else rng.randint(1, 60), went_out=i == out) for i, p in enumerate(players)]  # fmt: skip
    services.record_round(game=game, starting_double=double, by=user, entries=entries)


def on_screen(page, locator, viewport) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]  # fmt: skip


def no_overflow(page, viewport) -> bool:
    width, height = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    return width <= viewport["width"] and height <= viewport["height"]


@pytest.mark.parametrize("tv", TVS)
def test_the_tv_link_fits_ten_players_and_thirteen_rounds_on_one_screen_newest_first_to_stay(browser, live_server, tv):
    viewport = TVS[tv]
    user = UserFactory()
    game = make_game(owner=user, names=TEN, tile_set=12)
    rng = random.Random(39)
    for _ in range(12):
        play_round(game, user, rng)
    share = links.share(game=game, by=user)
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    try:
        page.goto(f"/live/{share.token}/?tv=1")
        expect(page.locator("body.tv")).to_have_count(1)
        played = page.locator("#sheet tbody tr.played")
        expect(played).to_have_count(12)
        page.wait_for_function("() => document.documentElement.dataset.js === 'ready'")
        screenshot(page, f"39-tv-{tv}-twelve-rounds")
        assert no_overflow(page, viewport)
        standings = page.locator("#live-standings li")
        expect(standings).to_have_count(10)
        for index in range(10):
            assert on_screen(page, standings.nth(index), viewport), index
        assert on_screen(page, played.nth(11), viewport)  # the newest round
        shown = [played.nth(i).is_visible() for i in range(12)]
        assert shown == sorted(shown), shown  # only the oldest give way: the newest N rows stay
        assert shown.count(False) == GIVE_WAY[tv], shown  # 720p: 8 of 12 give way; 1080p: all fit

        play_round(game, user, rng)  # the thirteenth: the game is over
        expect(page.locator("#sheet tbody tr.played")).to_have_count(13, timeout=15_000)
        newest = page.locator("#sheet tbody tr.played").nth(12)
        expect(newest).to_have_class("played just-played")
        screenshot(page, f"39-tv-{tv}-thirteenth-round")
        assert on_screen(page, newest, viewport) and on_screen(page, page.locator(".game-over .winners"), viewport)
        assert no_overflow(page, viewport)
        expect(newest).to_have_class("played", timeout=10_000)  # the glow lasts a few seconds
    finally:
        context.close()


# Ten long names, as a family's TV shows them (the longest names of the browser tests).
LONG_TEN = ("Grandma Josefina", "Uncle Bartholomew", "María José", "María Luisa", "Cousin Maximiliano",
            "Auntie Guadalupe", "Little Christopher", "Grandpa Wolfgang", "Ólafur_Þórðarson_Wolfeschlegelsteinhause",
            "Bartholomew-Alexander Featherstonehaugh")  # fmt: skip
NAME_PARTS = "#live-standings .name, #sheet thead th.player .who, #sheet thead .seat-note, .leader, #shuffles-next"


def small_names(page) -> list[str]:
    """Every name the TV shows in type smaller than 60% of its base (body.tv), or running past its box."""
    return page.locator(NAME_PARTS).evaluate_all(
        """(parts) => {
            const base = parseFloat(getComputedStyle(document.body).fontSize);
            return parts.filter((part) => part.getClientRects().length)
              .filter((part) => parseFloat(getComputedStyle(part).fontSize) < 0.6 * base
                  || part.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
              .map((part) => `${part.textContent.trim()}: ${getComputedStyle(part).fontSize} of ${base}px`);
        }"""
    )


@pytest.mark.parametrize("players", [3, 10])  # three: columns wide enough for the phone's smaller `.tight` type
def test_long_names_on_a_720p_tv_stay_readable_cut_with_an_ellipsis_never_shrunk_to_fit(browser, live_server, players):
    viewport = TVS["720p"]
    user = UserFactory()
    game = make_game(owner=user, names=LONG_TEN[-players:], tile_set=12)
    rng = random.Random(40)
    for _ in range(6):
        play_round(game, user, rng)
    share = links.share(game=game, by=user)
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    try:
        page.goto(f"/live/{share.token}/?tv=1")
        expect(page.locator("body.tv")).to_have_count(1)
        page.wait_for_function("() => document.documentElement.dataset.js === 'ready'")
        expect(page.locator("#live-standings li")).to_have_count(players)
        screenshot(page, f"39-tv-720p-{players}-long-names")
        assert small_names(page) == []
        assert words_split(page, "#live-standings .name, #sheet thead th.player .who") == []  # tryout 39
        assert no_overflow(page, viewport)
        standings = page.locator("#live-standings li")
        for index in range(players):
            assert on_screen(page, standings.nth(index), viewport), index
        assert on_screen(page, page.locator("#sheet tbody tr.played").nth(5), viewport)  # the newest round
    finally:
        context.close()


SIX_LONG = ("Great-Grandma Josefina", "Hortensia", "Ignacio", "Juanita", "Kiko", "Uncle Bartholomew")
LINES = "(parts) => Object.fromEntries(parts.map((p) => [p.textContent.trim(), Math.round(p.clientHeight / parseFloat(getComputedStyle(p).lineHeight))]))"  # fmt: skip


def test_a_1080p_tv_uses_the_whole_width_in_larger_type_and_gives_long_names_two_lines_before_cutting(
    browser, live_server
):
    viewport = TVS["1080p"]
    user = UserFactory()
    game = make_game(owner=user, names=SIX_LONG, tile_set=12)
    rng = random.Random(41)
    for _ in range(10):
        play_round(game, user, rng)
    share = links.share(game=game, by=user)
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    try:
        page.goto(f"/live/{share.token}/?tv=1")
        page.wait_for_function("() => document.documentElement.dataset.js === 'ready'")
        screenshot(page, "39-tv-1080p-six-long-names")
        assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") > 30  # 28 px at 720p
        sheet = page.locator("#sheet").bounding_box()
        assert sheet["width"] >= 0.9 * viewport["width"]  # not the middle 1230 px
        lines = page.locator("#live-standings .name").evaluate_all(LINES)
        assert (lines["Great-Grandma Josefina"], lines["Uncle Bartholomew"], lines["Kiko"]) == (2, 2, 1), lines
        assert no_overflow(page, viewport)
    finally:
        context.close()
