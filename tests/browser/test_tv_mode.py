"""The live view's TV mode (issue 22), in Chromium: held upright or lying down, the "stopped" badge
stays inside the screen, and lying down (a phone or a TV, landscape) every player's standing shows
at once, not one row."""

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import live as links
from tests.browser.conftest import screenshot
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db(transaction=True)

SIX = ("Maria Guadalupe Fernandez", "José", "Ann", "Ben", "Cy", "Dot")
SCREENS = {"upright": {"width": 390, "height": 844}, "landscape": {"width": 844, "height": 390}}


@pytest.fixture
def shared_game():
    user = UserFactory()
    game = make_game(owner=user, names=SIX, tile_set=12)
    services.rename_game(game=game, name="Friday at Lupe's", by=user)
    players = [seat.player_id for seat in game.seats.order_by("position")]
    for double, pips in ((12, [0, 9, 14, 22, 5, 31]), (11, [12, 0, 3, 8, 40, 6])):
        services.record_round(game=game, starting_double=double, by=user, entries=[
            EntryInput(player=p, pips=v, went_out=v == 0) for p, v in zip(players, pips, strict=True)])  # fmt: skip
    return game, user, links.share(game=game, by=user)


def inside(page, selector) -> bool:
    return page.locator(selector).evaluate(
        "(e) => { const r = e.getBoundingClientRect(); return r.left >= 0 && r.right <= window.innerWidth; }"
    )


@pytest.mark.parametrize("screen", SCREENS)
def test_tv_mode_shows_every_standing_and_keeps_the_stopped_badge_on_screen(browser, live_server, shared_game, screen):
    game, _user, share = shared_game
    viewport = SCREENS[screen]
    context = browser.new_context(viewport=viewport, base_url=live_server.url, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"/live/{share.token}/?tv")
        expect(page.locator("body.tv")).to_have_count(1)
        rows = page.locator("#live-standings li")
        expect(rows).to_have_count(6)
        screenshot(page, f"22-tv-{screen}")
        for index in range(6):
            box = rows.nth(index).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (screen, index, box)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        links.revoke(game=game)
        expect(page.locator("#live-status")).to_have_attribute("data-state", "gone", timeout=15_000)
        assert inside(page, "#live-status")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        screenshot(page, f"22-tv-{screen}-stopped")
    finally:
        context.close()
