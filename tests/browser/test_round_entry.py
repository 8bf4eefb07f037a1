"""The round at the table, in Chromium at 390x844: keyboard only, errors in sight, a second look."""

import random

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.demo import play_game
from scorekeeper.models import Game, Round
from scorekeeper.rules.game import GameRules
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db(transaction=True)

FOUR = ("Ann", "Ben", "Cy", "Dot")


@pytest.fixture
def four_at_the_table(phone):
    user = UserFactory()
    game = make_game(owner=user, names=FOUR, tile_set=12)
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/rounds/new/")
    return phone, game


def pips(page, name):
    return page.locator(f"fieldset[data-player='{name}'] input.pips")


def test_every_pips_box_and_save_are_on_screen_without_scrolling(four_at_the_table):
    page, _ = four_at_the_table
    screenshot(page, "10-round-entry-four")
    for name in FOUR:
        box = pips(page, name).bounding_box()
        assert box["y"] + box["height"] <= 844, name
    save = page.locator("#save-round").bounding_box()
    assert save["y"] + save["height"] <= 844
    expect(pips(page, "Ann")).to_be_focused()  # the keypad opens on the first player


def test_a_four_player_round_entered_with_the_keyboard_only(four_at_the_table):
    page, game = four_at_the_table
    for digits in ("12", "7", "0", "31"):  # Cy's 0: a hand holding only the 0-0
        page.keyboard.type(digits)
        page.keyboard.press("Enter")  # to the next player's pips; after the last, save
    # Cy's 0 without the 0-0 or going out is refused: fix it with the keyboard too.
    expect(page.locator("#error-summary")).to_be_visible()
    expect(pips(page, "Cy")).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("5")
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Recorded round 1")
    assert [e.pips for e in Round.objects.get(game=game).entries.order_by("position")] == [12, 7, 5, 31]


def test_enter_on_a_half_filled_round_saves_nothing_and_moves_to_the_empty_box(four_at_the_table):
    page, game = four_at_the_table
    page.keyboard.type("12")
    pips(page, "Cy").fill("4")
    pips(page, "Cy").press("Enter")
    expect(pips(page, "Dot")).to_be_focused()
    pips(page, "Dot").press("Enter")
    expect(pips(page, "Ben")).to_be_focused()
    assert Round.objects.filter(game=game).count() == 0 and "/rounds/new/" in page.url


def test_going_out_fills_0_and_moves_on(four_at_the_table):
    page, _ = four_at_the_table
    page.locator("fieldset[data-player='Ann'] .chip", has_text="out").first.click()
    expect(pips(page, "Ann")).to_have_value("0")
    expect(pips(page, "Ben")).to_be_focused()


def test_a_refused_save_lists_every_problem_at_the_top_and_focuses_the_first(four_at_the_table):
    page, _ = four_at_the_table
    for name, value in zip(FOUR, ("0", "3", "4", "30"), strict=True):
        pips(page, name).fill(value)
    page.locator("fieldset[data-player='Ann'] input.went_out").check()
    page.locator("fieldset[data-player='Dot'] details.extras summary").click()
    page.locator("fieldset[data-player='Dot'] input.tiles").fill("1")
    page.locator("#save-round").click()
    summary = page.locator("#error-summary")
    expect(summary).to_contain_text("Dot: 1 tile cannot hold 30 pips")
    expect(pips(page, "Dot")).to_be_focused()
    expect(pips(page, "Ben")).to_have_value("3")  # every value kept
    screenshot(page, "11-round-entry-summary")


def test_an_implausible_hand_is_saved_only_after_a_second_look(four_at_the_table):
    page, game = four_at_the_table
    for name, value in zip(FOUR, ("0", "250", "4", "9"), strict=True):
        pips(page, name).fill(value)
    page.locator("fieldset[data-player='Ann'] input.went_out").check()
    page.locator("#save-round").click()
    expect(page.locator("#surprises")).to_contain_text("Ben: 250 pips is more than")
    assert Round.objects.filter(game=game).count() == 0
    screenshot(page, "12-round-entry-second-look")
    pips(page, "Ben").fill("25")  # it was a typo
    page.locator("#save-round").click()
    expect(page.locator(".messages")).to_contain_text("Recorded round 1")


def test_a_long_skip_asks_first(four_at_the_table):
    page, game = four_at_the_table
    page.get_by_label("Starting double").select_option("9")
    for name, value in zip(FOUR, ("0", "5", "4", "9"), strict=True):
        pips(page, name).fill(value)
    page.locator("fieldset[data-player='Ann'] input.went_out").check()
    page.locator("#save-round").click()
    expect(page.locator("#surprises")).to_contain_text("skips 12-12, 11-11, 10-10")
    page.get_by_role("button", name="Save anyway").click()
    expect(page.locator(".messages")).to_contain_text("Recorded round 1")
    assert Game.objects.get(pk=game.pk).next_double == 8


def open_picker(page, name):
    row = page.locator(f"fieldset[data-player='{name}']")
    row.locator("details.extras summary").click()
    row.get_by_role("button", name=f"Tap {name}'s tiles").click()
    return row


def test_a_round_entered_by_tapping_tiles_with_taken_tiles_disabled(four_at_the_table):
    page, game = four_at_the_table
    ann = open_picker(page, "Ann")
    expect(ann.locator("button.tile[data-tile='12-12']")).to_be_disabled()  # the double on the table
    ann.locator("button.tile[data-tile='5-3']").click()
    ann.locator("button.tile[data-tile='0-0']").click()
    expect(pips(page, "Ann")).to_have_value("8")
    expect(ann.locator("input.tiles")).to_have_value("2")
    expect(ann.locator("input.double_blank")).to_be_checked()
    expect(ann.locator(".picker-sum")).to_have_text("Ann: 2 tiles, 8 pips, holds the 0-0")
    ann.locator("button.tile[data-tile='0-0']").click()  # a second tap takes it back
    expect(ann.locator("input.double_blank")).not_to_be_checked()
    expect(pips(page, "Ann")).to_have_value("8")
    ann.locator("button.tile[data-tile='4-1']").click()
    screenshot(page, "16-round-entry-tile-picker")
    ann.get_by_role("button", name="Done").click()
    ben = open_picker(page, "Ben")
    expect(ben.locator("button.tile[data-tile='5-3']")).to_be_disabled()  # in Ann's hand
    expect(ben.locator("button.tile[data-tile='4-1']")).to_be_disabled()
    ben.locator("button.tile[data-tile='11-7']").click()
    ben.get_by_role("button", name="Done").click()
    expect(pips(page, "Cy")).to_be_focused()  # Done goes on to the next empty pips box
    page.locator("fieldset[data-player='Cy'] .chip", has_text="out").first.click()
    pips(page, "Dot").fill("21")
    page.locator("#save-round").click()
    expect(page.locator(".messages")).to_contain_text("Recorded round 1")
    entries = {e.player.name: e for e in Round.objects.get(game=game).entries.select_related("player")}
    assert entries["Ann"].tiles == ["5-3", "4-1"] and entries["Ann"].pips == 13 and entries["Ann"].tiles_left == 2
    assert entries["Ben"].tiles == ["11-7"] and entries["Ben"].pips == 18


def test_without_scripts_the_tile_list_box_does_what_the_picker_does(browser, live_server):
    user = UserFactory()
    game = make_game(owner=user, names=("Ann", "Ben"), tile_set=6)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    log_in(page, user.email)
    page.goto(f"/games/{game.pk}/rounds/new/")
    expect(page.locator("[data-pick-tiles]").first).to_be_hidden()
    page.locator("fieldset[data-player='Ann'] input.went_out").check()
    page.locator("fieldset[data-player='Ben'] details.extras summary").click()
    page.locator("fieldset[data-player='Ben'] input.tile-list").fill("3-2 1-0")
    page.locator("#save-round").click()
    expect(page.locator(".messages")).to_contain_text("Recorded round 1")
    assert Round.objects.get(game=game).entries.get(player__name="Ben").pips == 6
    context.close()


def test_the_header_fits_one_line_and_no_page_scrolls_sideways_with_8_long_names(phone):
    user = UserFactory()
    names = [f"{'Bartholomew-Maximilian ' + str(i):.40}".ljust(40, "x") for i in range(8)]
    game = make_game(owner=user, names=names, tile_set=12)
    ids = [seat.player_id for seat in game.seats.order_by("position")]
    rules = GameRules(tile_set=9)
    services.import_game(by=user, players=ids, rules=rules, rounds=play_game(rules, ids, random.Random(1)))
    log_in(phone, user.email)
    for url in ("/", f"/games/{game.pk}/", f"/games/{game.pk}/rounds/new/", "/players/", "/leaderboard/", "/rules/",
                f"/players/{game.seats.first().player_id}/", "/games/new/", "/history/"):  # fmt: skip
        phone.goto(url)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, url
        assert phone.locator(".topbar").bounding_box()["height"] <= 56, url
    phone.goto(f"/players/{ids[0]}/")
    screenshot(phone, "15-player-eight-long-names")
    small = phone.evaluate(
        """() => [...document.querySelectorAll('main a, main button, nav a, footer button')]
                 .filter(e => e.offsetParent && !e.closest('p, li.prose'))
                 .map(e => [e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
                 .filter(([, r]) => r.width < 44 || r.height < 44).map(([t]) => t)"""
    )
    assert small == []  # every tap target at least 44 x 44
    phone.goto(f"/games/{game.pk}/rounds/new/")
    screenshot(phone, "13-round-entry-eight")
    last = phone.locator("#save-round").bounding_box()
    assert last["y"] + last["height"] <= 2 * 844  # at most one scroll


def test_the_screen_can_be_kept_on_during_a_game(four_at_the_table):
    page, game = four_at_the_table
    page.goto(f"/games/{game.pk}/")
    button = page.locator("#wake-lock")
    expect(button).to_be_visible()  # Chromium offers the Wake Lock API
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(button).to_have_text("Screen stays on")
    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
