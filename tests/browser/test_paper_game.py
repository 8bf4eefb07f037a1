"""A paper game typed in on a 390 px phone: the evening's sheet of double-12 for four, cell after
cell with Enter as on a spreadsheet (sums and tile lists as written), one round refused beside its
cell and fixed, then saved whole; the page passes axe in English and Spanish."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Game, Scorebook
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_axe import axe, described
from tests.browser.test_csp import log_in, watch_csp
from tests.browser.test_leaderboard_fit import assert_no_sideways_scroll, small_tap_targets
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Abuela Carmen", "Dani", "Lucía", "Tío Beto")  # the columns, in the order the players are listed
# The sheet, 12-12 down to 0-0, as the family wrote it: "0" went out; sums and tiles as counted.
SHEET = [
    ("0", "34", "21", "9+8"), ("12", "0", "40", "27"), ("18", "25", "0", "11"), ("7", "30", "16", "0"),
    ("0", "22", "12-3 5-5", "19"), ("26", "0", "8", "33"), ("14", "9", "0", "20"), ("31", "17", "6", "0"),
    ("0", "11", "24", "15"), ("9", "0", "13", "28"), ("22", "16", "0", "4"), ("5", "12", "18", "0"),
    ("0", "7", "3-2", "10"),
]  # fmt: skip
REFUSED = (6, 3)  # Tío Beto's 6-6 cell typed as 0 at first: two players out in one round (Lucía too)


def test_an_evening_sheet_is_typed_in_with_enter_refused_beside_a_cell_fixed_and_saved(phone, browser, live_server):
    user = UserFactory()
    for name in NAMES:
        PlayerFactory(owner=user, name=name)
    book = Scorebook.personal_for(user)
    played_on = book.today() - timedelta(days=45)
    csp = watch_csp(phone)
    log_in(phone, user.email)
    phone.locator("#paper-game-link").click()
    expect(phone.locator("h1")).to_have_text("Enter a paper game")
    phone.get_by_label("Day it was played").fill(str(played_on))
    for name in NAMES:
        phone.locator("label.choice", has_text=name).click()
    phone.get_by_role("button", name="Next: the sheet").click()
    expect(phone.locator("input.cell")).to_have_count(13 * 4)
    expect(phone.locator(".paper-table thead th")).to_have_text(["Round", *NAMES])
    assert_no_sideways_scroll(phone)
    assert [described("grid", v) for v in axe(phone)] == []
    # Typed as on the sheet: one tap in the first cell, then the keyboard alone, Enter after each.
    phone.locator("input.cell").first.tap()
    for row, cells in enumerate(SHEET):
        for seat, text in enumerate(cells):
            phone.keyboard.type("0" if (row, seat) == REFUSED else text)
            phone.keyboard.press("Enter")
    expect(phone.locator("#save-paper")).to_be_focused()  # Enter after the last cell: on Save
    screenshot(phone, "paper-game-typed-phone")
    phone.locator("#save-paper").click()
    # Refused: beside Tío Beto's cell of round 7, everything typed still there, nothing saved.
    refused = phone.locator("td.has-error")
    expect(refused).to_have_count(1)
    expect(refused.locator(".cell-error")).to_contain_text("Tío Beto: only one player can go out")
    expect(refused.locator("input.cell")).to_be_focused()
    assert phone.locator("input.cell").nth(4 * 4 + 2).input_value() == "12-3 5-5"
    assert not Game.objects.exists()
    screenshot(phone, "paper-game-refused-phone")
    assert [described("grid, refused", v) for v in axe(phone)] == []
    refused.locator("input.cell").fill(SHEET[REFUSED[0]][REFUSED[1]])
    phone.locator("#save-paper").click()
    expect(phone.locator("ul.messages")).to_contain_text("Saved the paper game")
    game = Game.objects.get()
    assert (game.played_on, game.entered_afterwards, game.is_finished, game.rounds.count()) == (
        played_on,
        True,
        True,
        13,
    )
    screenshot(phone, "paper-game-saved-phone")
    assert csp == []


def test_the_paper_pages_pass_axe_in_spanish(browser, live_server):
    user = UserFactory()
    players = [PlayerFactory(owner=user, name=name) for name in NAMES[:3]]
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True,
                                  locale="es-MX")  # fmt: skip
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        log_in(page, user.email)
        page.goto("/games/paper/")
        expect(page.locator("h1")).to_have_text("Pasar una partida en papel")
        problems = [described("setup (es)", v) for v in axe(page)]
        day = Scorebook.personal_for(user).today() - timedelta(days=3)
        page.goto(f"/games/paper/?played_on={day}&tile_set=6" + "".join(f"&players={p.pk}" for p in players))
        expect(page.locator("input.cell")).to_have_count(7 * 3)
        problems += [described("grid (es)", v) for v in axe(page)]
        screenshot(page, "paper-game-grid-es")
    finally:
        context.close()
    assert problems == []


def grid_page(page, user, players, days=3):
    day = Scorebook.personal_for(user).today() - timedelta(days=days)
    page.goto(f"/games/paper/?played_on={day}&tile_set=6" + "".join(f"&players={p.pk}" for p in players))
    expect(page.locator("input.cell")).to_have_count(7 * len(players))
    return page.locator("input.cell")


def test_enter_in_the_middle_of_the_grid_and_on_a_toggle_moves_on_and_never_sends_the_sheet(phone, live_server):
    user = UserFactory()
    players = [PlayerFactory(owner=user, name=name) for name in NAMES[:3]]
    log_in(phone, user.email)
    cells = grid_page(phone, user, players)
    expect(phone.locator("html[data-js=ready]")).to_have_count(1)
    url = phone.url
    cells.nth(4).tap()  # round 2, the middle column
    phone.keyboard.type("17")
    phone.keyboard.press("Enter")
    expect(cells.nth(5)).to_be_focused()
    phone.keyboard.press("ArrowRight")  # from the empty cell's end to its 0-0 toggle
    expect(phone.locator("td").nth(5).locator("input.double_blank")).to_be_focused()
    phone.keyboard.press("Enter")
    expect(cells.nth(6)).to_be_focused()
    assert (phone.url, cells.nth(4).input_value(), Game.objects.count()) == (url, "17", 0)
    screenshot(phone, "paper-game-enter-middle-phone")


def test_enter_on_the_last_cell_goes_to_save_and_only_save_sends_the_sheet(phone, live_server):
    user = UserFactory()
    players = [PlayerFactory(owner=user, name=name) for name in NAMES[:2]]
    log_in(phone, user.email)
    cells = grid_page(phone, user, players)
    expect(phone.locator("html[data-js=ready]")).to_have_count(1)
    url = phone.url
    cells.last.tap()
    phone.keyboard.type("9")
    phone.keyboard.press("Enter")
    expect(phone.locator("#save-paper")).to_be_focused()
    assert (phone.url, Game.objects.count()) == (url, 0)
    phone.locator("#save-paper").click()  # Save does send it: refused, as rounds 1 to 6 are empty
    expect(phone.locator("#error-summary")).to_be_visible()
    assert Game.objects.count() == 0


def test_without_the_page_scripts_enter_in_a_cell_does_not_send_the_sheet(browser, live_server):
    user = UserFactory()
    players = [PlayerFactory(owner=user, name=name) for name in NAMES[:2]]
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True,
                                  java_script_enabled=False)  # fmt: skip
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        log_in(page, user.email)
        cells = grid_page(page, user, players)
        cells.nth(0).fill("0")
        cells.nth(1).fill("12")
        url = page.url
        cells.nth(1).press("Enter")
        page.wait_for_timeout(500)  # a submission would have navigated by now (not a timing test: no result is timed)
        assert (page.url, page.locator("#error-summary").count(), Game.objects.count()) == (url, 0, 0)
    finally:
        context.close()


def test_the_grid_and_the_game_seat_the_players_in_the_order_they_were_tapped(phone, live_server):
    user = UserFactory()
    for name in NAMES:
        PlayerFactory(owner=user, name=name)
    tapped = ("Tío Beto", "Lucía", "Abuela Carmen", "Dani")  # not the order they are listed in
    log_in(phone, user.email)
    phone.goto("/games/paper/")
    expect(phone.locator("html[data-js=ready]")).to_have_count(1)
    phone.get_by_label("Day it was played").fill(str(Scorebook.personal_for(user).today() - timedelta(days=2)))
    for name in tapped:
        phone.locator("label.choice", has_text=name).click()
    expect(phone.locator("label.choice", has_text="Lucía").locator(".seat-number")).to_have_text("seat 2")
    screenshot(phone, "paper-game-seats-tapped-phone")
    phone.get_by_role("button", name="Next: the sheet").click()
    expect(phone.locator(".paper-table thead th")).to_have_text(["Round", *tapped])
    phone.get_by_role("link", name="change").click()  # back to the first step: the order stays
    expect(phone.locator("label.choice", has_text="Abuela Carmen").locator(".seat-number")).to_have_text("seat 3")
    phone.get_by_role("button", name="Next: the sheet").click()
    expect(phone.locator(".paper-table thead th")).to_have_text(["Round", *tapped])
    for index, text in enumerate(("0", "34", "21", "17")):  # round 1 (12-12): Tío Beto went out
        phone.locator("input.cell").nth(index).fill(text)
    phone.locator("#save-paper").click()
    expect(phone.locator("ul.messages")).to_contain_text("Saved the paper game")
    expect(phone.locator("#stop-here")).to_have_count(0)  # one round typed: the evening stopped there, over
    screenshot(phone, "paper-game-one-round-saved-phone")
    game = Game.objects.get()
    assert [seat.player.name for seat in game.seats.select_related("player").order_by("position")] == list(tapped)
    assert (game.is_finished, game.stopped_after) == (True, 1)


def test_a_cell_no_hand_can_hold_is_refused_beside_it_by_the_tables_own_check(phone, live_server):
    user = UserFactory()
    players = [PlayerFactory(owner=user, name=name) for name in NAMES[:3]]
    log_in(phone, user.email)
    day = Scorebook.personal_for(user).today() - timedelta(days=3)
    phone.goto(f"/games/paper/?played_on={day}&tile_set=12" + "".join(f"&players={p.pk}" for p in players))
    cells = phone.locator("input.cell")
    for index, text in enumerate(("0", "1069", "20")):  # 12-12 is on the table: a hand holds at most 1068
        cells.nth(index).fill(text)
    phone.locator("#save-paper").click()
    refused = phone.locator("td.has-error")
    expect(refused).to_have_count(1)
    expect(refused.locator(".cell-error")).to_contain_text("Dani: 1069 pips is impossible: a hand holds 0 to 1068 pips")
    expect(refused.locator("input.cell")).to_have_value("1069")
    screenshot(phone, "paper-game-cell-refused-phone")
    assert not Game.objects.exists()


def test_a_cell_shows_a_long_tile_list_whole_as_typed_and_after_a_refused_save(phone, live_server):
    user = UserFactory()
    players = [PlayerFactory(owner=user, name=name) for name in NAMES]
    log_in(phone, user.email)
    day = Scorebook.personal_for(user).today() - timedelta(days=3)
    phone.goto(f"/games/paper/?played_on={day}&tile_set=12" + "".join(f"&players={p.pk}" for p in players))
    cells = phone.locator("input.cell")
    whole = "c => c.scrollWidth <= c.clientWidth"  # nothing of the text hidden past the cell's edge
    for index, text in enumerate(("0", "8*6,3*2", "12-11 10-9 8-7", "8*6,5*5")):  # 8-6 twice: refused
        cells.nth(index).fill(text)
        assert cells.nth(index).evaluate(whole), text
    phone.locator("#save-paper").click()
    expect(phone.locator("td.has-error")).not_to_have_count(0)
    for index, text in enumerate(("0", "8*6,3*2", "12-11 10-9 8-7", "8*6,5*5")):
        expect(cells.nth(index)).to_have_value(text)
        assert cells.nth(index).evaluate(whole), text
    assert_no_sideways_scroll(phone)  # a wider grid scrolls in its box, never the page
    screenshot(phone, "paper-game-long-tile-lists-whole")
    assert not Game.objects.exists()


@pytest.mark.parametrize(("language", "short"), [("en", "dbl"), ("es", "dob")])
def test_the_legend_under_the_grid_names_the_double_chip_as_the_chip_shows_it(browser, live_server, language, short):
    """ "dbl" in the legend beside chips saying "dob": the legend takes the chip's own word."""
    user = UserFactory()
    players = [PlayerFactory(owner=user, name=name) for name in NAMES]
    book = Scorebook.personal_for(user)
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True)
    context.add_cookies([{"name": "language", "value": language, "url": live_server.url}])
    page = context.new_page()
    log_in(page, user.email)
    query = "&".join(
        [f"played_on={book.today() - timedelta(days=3)}", "tile_set=12"] + [f"players={p.pk}" for p in players]
    )
    page.goto(f"/games/paper/?{query}")
    chips = page.locator(".paper-table label.chip.mini:nth-child(2) span[aria-hidden=true]")
    expect(chips).to_have_count(13 * 4)
    assert set(chips.all_inner_texts()) == {short}
    legend = page.locator("#paper-legend")
    expect(legend).to_contain_text(f"{short}: ")
    legend.scroll_into_view_if_needed()
    screenshot(page, f"paper-game-legend-{language}")
    context.close()


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_every_tap_target_of_both_steps_is_44_px_and_nothing_is_left_in_english(browser, live_server, locale):
    user = UserFactory()
    players = [PlayerFactory(owner=user, name=name) for name in NAMES]
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True,
                                  locale=locale)  # fmt: skip
    page = context.new_page()
    page.set_default_timeout(10_000)
    small, words = [], []
    try:
        log_in(page, user.email)
        page.goto("/games/paper/")
        page.locator("label.choice").first.click()
        small += [f"setup: {target}" for target in small_tap_targets(page)]
        words.append(page.locator("main").inner_text())
        screenshot(page, f"paper-game-setup-{locale}")
        day = Scorebook.personal_for(user).today() - timedelta(days=3)
        page.goto(f"/games/paper/?played_on={day}&tile_set=12" + "".join(f"&players={p.pk}" for p in players))
        page.locator("input.cell").nth(4).tap()  # round 2 opens: its toggles show
        page.locator("input.cell").first.fill("12++")
        page.locator("#save-paper").click()
        expect(page.locator("td.has-error")).to_have_count(4)  # the bad cell, and round 1's three empty ones
        small += [f"grid: {target}" for target in small_tap_targets(page)]
        # The hint's examples ("12+8", "8-6 3-2", "8*6,3*2") each on one line: never "8-6 3-" / "2".
        assert page.locator(".example").evaluate_all("(spans) => spans.map((s) => s.getClientRects().length)") == [
            1,
            1,
            1,
        ]
        chip = page.locator("td").first.locator("label.chip.mini").nth(1).locator("span[aria-hidden]").inner_text()
        expect(page.locator("main p.muted").last).to_contain_text(f"{chip}: ")  # the key under the grid says the same
        words.append(page.locator("main").inner_text())
        screenshot(page, f"paper-game-grid-refused-{locale}")
    finally:
        context.close()
    assert small == []
    if locale.startswith("es"):  # every word of the page in Spanish: none of the English ones left
        english = ("Enter a paper game", "Day it was played", "Players", "Tap in seat order", "Set", "Name",
                   "Next: the sheet", "Round", "Save the game", "Cancel", "change", "Write a number", "Type what",
                   "Nothing was saved", "held the double blank", "went out")  # fmt: skip
        assert [word for word in english if any(re.search(rf"\b{word}\b", text) for text in words)] == []


def seven_wide(phone) -> None:
    """The grid of a paper game of seven, wider than the phone."""
    user = UserFactory()
    names = ("Abuela Carmen", "Dani", "Lucía", "Tío Beto", "Guadalupe", "Maximiliano", "Bartholomew")
    for name in names:
        PlayerFactory(owner=user, name=name)
    log_in(phone, user.email)
    phone.goto("/games/paper/")
    phone.get_by_label("Day it was played").fill(str(Scorebook.personal_for(user).today() - timedelta(days=1)))
    for name in names:
        phone.locator("label.choice", has_text=name).click()
    phone.get_by_role("button", name="Next: the sheet").click()
    expect(phone.locator("input.cell")).to_have_count(13 * 7)


def test_a_grid_wider_than_the_phone_scrolls_in_its_box_and_never_widens_the_page(phone, live_server):
    """Seven players: the grid scrolls sideways inside its box; its cells' hidden labels stay in it."""
    seven_wide(phone)
    box = phone.locator(".grid-scroll")
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")  # wider than the phone: it scrolls
    assert_no_sideways_scroll(phone)
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    assert_no_sideways_scroll(phone)
    screenshot(phone, "paper-game-seven-wide")


def test_the_grids_top_left_cell_stays_in_place_with_the_doubles_column_when_the_grid_scrolls_sideways(
    phone, live_server
):
    """The corner above the doubles' column is sticky as the column is, and drawn over the names
    that pass under it (it scrolled away with them, 300 px off the screen, leaving a hole above 12-12)."""
    seven_wide(phone)
    box = phone.locator(".grid-scroll")
    corner = phone.locator(".paper-table thead th").first
    double = phone.locator(".paper-table tbody th").first

    def lefts() -> list[float]:
        return [cell.evaluate("c => c.getBoundingClientRect().left") for cell in (corner, double)]

    left = lefts()[0]
    assert [abs(x - left) <= 1 for x in lefts()] == [True, True]
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    assert box.evaluate("b => b.scrollLeft") > 100
    assert [abs(x - left) <= 1 for x in lefts()] == [True, True]  # where they started, to a pixel
    # Over the column heads that pass under it: the corner is what a finger sees there.
    assert corner.evaluate(
        "c => { const r = c.getBoundingClientRect(); return c.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }"
    )
    assert corner.evaluate("c => getComputedStyle(c).backgroundColor") != "rgba(0, 0, 0, 0)"
    phone.locator(".paper-table").screenshot(path="tests/screenshots/paper-game-seven-scrolled-corner.png")
