"""The round form's second look (issue 22), in Chromium at 390x844: a filled box is selected when it
takes the focus, the focus after a refused or questioned save is in sight, and the 0-0 that ends a
game played in order saves at once."""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Game
from scorekeeper.rules.rounds import EntryInput
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in, watch_csp
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db(transaction=True)

EIGHT = ("Ann", "Ben", "Cy", "Dot", "Eve", "Fay", "Gus", "Hal")


def pips(page, name):
    return page.locator(f"fieldset[data-player='{name}'] input.pips")


def fully_in_view(page) -> bool:
    return page.evaluate(
        "() => { const r = document.activeElement.getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }"
    )


@pytest.fixture
def table(phone):
    user = UserFactory()
    log_in(phone, user.email)
    return phone, user


def test_tapping_a_filled_pips_box_selects_it_so_typing_replaces_the_number(table):
    page, user = table
    game = make_game(owner=user, names=EIGHT[:4], tile_set=12)
    page.goto(f"/games/{game.pk}/rounds/new/")
    pips(page, "Ben").fill("440")
    pips(page, "Ann").click()
    pips(page, "Ben").tap()  # a finger on the filled box: the number is selected
    assert page.evaluate("() => document.getSelection().toString() || document.activeElement.value") == "440"
    page.keyboard.type("44")
    expect(pips(page, "Ben")).to_have_value("44")  # never 4440
    pips(page, "Ann").fill("12")
    pips(page, "Ann").press("Enter")  # by keyboard, a box already filled is selected too
    pips(page, "Cy").fill("9")
    pips(page, "Ann").focus()
    page.keyboard.type("3")
    expect(pips(page, "Ann")).to_have_value("3")


def test_after_a_refused_save_the_focused_field_is_fully_on_screen(table):
    page, user = table
    game = make_game(owner=user, names=EIGHT, tile_set=12)
    page.goto(f"/games/{game.pk}/rounds/new/")
    for name in EIGHT:
        pips(page, name).fill("5")
    pips(page, "Hal").fill("3000")  # more than a double-12 set holds: Hal's box is the one to fix
    page.locator("#save-round").click()
    expect(page.locator("#error-summary")).to_be_visible()
    expect(pips(page, "Hal")).to_be_focused()
    page.wait_for_function("() => { const r = document.activeElement.getBoundingClientRect();"
                           " return r.top >= 0 && r.bottom <= window.innerHeight; }")  # fmt: skip
    assert fully_in_view(page)
    screenshot(page, "22-refused-save-focus-in-view")


def test_after_a_questioned_save_the_question_takes_the_focus_at_the_top_of_the_screen(table):
    page, user = table
    game = make_game(owner=user, names=EIGHT, tile_set=12)
    page.goto(f"/games/{game.pk}/rounds/new/")
    page.get_by_label("Starting double").select_option("9")  # skips 12-12, 11-11, 10-10: asked
    pips(page, "Ann").fill("0")
    page.locator("fieldset[data-player='Ann'] input.went_out").check()
    for number, name in enumerate(EIGHT[1:]):
        pips(page, name).fill(str(10 + 3 * number))
    page.locator("#save-round").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#surprises")).to_be_visible()
    expect(page.locator("#surprises")).to_be_focused()  # read before "Save anyway" is in reach
    page.wait_for_function("() => { const r = document.activeElement.getBoundingClientRect();"
                           " return r.top > -1 && r.top < window.innerHeight / 2; }")  # fmt: skip
    screenshot(page, "22-questioned-save-focus-in-view")


def test_the_0_0_round_of_a_game_played_in_order_saves_from_the_page_without_a_question(table):
    page, user = table
    game = make_game(owner=user, names=EIGHT[:3], tile_set=6)
    players = [seat.player_id for seat in game.seats.order_by("position")]
    for double in range(6, 0, -1):
        services.record_round(game=game, starting_double=double, by=user, entries=[
            EntryInput(player=players[0], pips=0, went_out=True), EntryInput(player=players[1], pips=4),
            EntryInput(player=players[2], pips=6)])  # fmt: skip
    page.goto(f"/games/{game.pk}/rounds/new/")
    expect(page.get_by_label("Starting double")).to_have_value("0")
    page.locator("fieldset[data-player='Ann'] input.went_out").check()
    pips(page, "Ben").fill("9")
    pips(page, "Cy").fill("14")
    page.locator("#save-round").click()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.locator("#surprises")).to_have_count(0)
    assert Game.objects.get(pk=game.pk).is_finished


PLACEHOLDER_ROOM = """(box) => {
  const hint = getComputedStyle(box, "::placeholder");
  const context = document.createElement("canvas").getContext("2d");
  context.font = `${hint.fontWeight} ${hint.fontSize} ${hint.fontFamily}`;
  const style = getComputedStyle(box);
  const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return {hint: box.placeholder, width: context.measureText(box.placeholder).width, room};
}"""


def test_in_spanish_the_pips_hint_and_the_chips_fit_a_390_px_phone(browser, live_server):
    user = UserFactory()
    game = make_game(owner=user, names=("Guadalupe", "Memo", "Chuy", "Toña"), tile_set=12)
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url,
                                  is_mobile=True, has_touch=True, locale="es-MX")  # fmt: skip
    page = context.new_page()
    try:
        log_in(page, user.email)
        page.goto(f"/games/{game.pk}/rounds/new/")
        room = pips(page, "Guadalupe").evaluate(PLACEHOLDER_ROOM)
        assert room["hint"] == "puntos" and room["width"] <= room["room"], room
        for row in page.locator("fieldset.player-row .line").all():
            assert row.evaluate("(line) => line.scrollWidth <= line.clientWidth")
            assert (
                row.locator(".chip").last.bounding_box()["x"] + row.locator(".chip").last.bounding_box()["width"] <= 390
            )
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(page, "22-round-form-es")
    finally:
        context.close()


def test_a_boosted_page_never_copies_a_style_attribute_so_the_csp_reports_nothing(table):
    """htmx settles a swapped element's attributes from the one it replaces (same id); a style
    there, even one a script set through the CSSOM, would be written back as an inline style
    attribute and refused by the CSP (style-src-attr). The page's htmx config settles no style."""
    page, _user = table
    violations = watch_csp(page)
    page.goto("/rules/")
    page.evaluate("() => { document.getElementById('main').style.minHeight = '10px'; }")
    page.get_by_role("navigation").get_by_role("link", name="Players").click()
    expect(page).to_have_url(re.compile("/players/$"))
    page.wait_for_load_state("networkidle")
    assert violations == []
    assert "style" not in page.evaluate("() => htmx.config.attributesToSettle")
