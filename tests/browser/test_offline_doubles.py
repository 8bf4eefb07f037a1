"""Offline, in Chromium at 390x844: the round form offers exactly the doubles the rules open after
the rounds waiting on the phone, skipped doubles and a new pass included."""

import pytest
from playwright.sync_api import expect

from scorekeeper.rules.game import GameRules, open_positions, place_round
from tests.browser.conftest import screenshot
from tests.browser.test_offline import sheet_kept
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db(transaction=True)


def offline_at_the_table(phone, **rules):
    user = UserFactory()
    game = make_game(owner=user, names=("Ann", "Ben", "Cy"), tile_set=6, **rules)
    sheet_kept(phone, user, game)
    phone.context.set_offline(True)
    phone.reload()
    return game


def offered(page):
    return page.locator("#round-form select[name=starting_double] option")


def save_offline(page, number: int, double: int) -> None:
    """From the sheet: Enter round `number`, start it with `double`, Ann out, the others' pips; it
    waits on the phone."""
    page.locator("#enter-round").click()
    expect(page.locator("#round-title")).to_have_text(f"Round {number}")
    page.locator("#round-form select[name=starting_double]").select_option(str(double))
    page.locator("fieldset[data-player='Ann'] input.pips").fill("0")
    page.locator("fieldset[data-player='Ann'] input.went_out").check()
    page.locator("fieldset[data-player='Ben'] input.pips").fill("7")
    page.locator("fieldset[data-player='Cy'] input.pips").fill("5")
    page.locator("#save-round").click()
    page.wait_for_selector("#outbox")


def rules_offer(rules: GameRules, doubles: list[int]) -> list[str]:
    """What the rules open after rounds starting with `doubles`: each double once, expected first."""
    last = None
    for double in doubles:
        last = place_round(rules, last, double)
    return [f"{d}-{d}" for d in dict.fromkeys(rules.double_at(p) for p in open_positions(rules, last))]


def test_doubles_skipped_by_a_waiting_round_are_not_offered_again(phone):
    game = offline_at_the_table(phone)
    save_offline(phone, 1, 4)  # nobody held the 6-6 or the 5-5
    phone.locator("#enter-round").click()
    expect(phone.locator("#round-title")).to_have_text("Round 2")
    assert rules_offer(game.rules, [4]) == ["3-3", "2-2", "1-1", "0-0"]
    expect(offered(phone)).to_have_text(rules_offer(game.rules, [4]))
    screenshot(phone, "45-offline-round-form-after-a-skip")
    phone.go_back()
    save_offline(phone, 2, 1)
    phone.locator("#enter-round").click()
    expect(phone.locator("#round-title")).to_have_text("Round 3")
    assert rules_offer(game.rules, [4, 1]) == ["0-0"]
    expect(offered(phone)).to_have_text(rules_offer(game.rules, [4, 1]))


def test_in_a_target_game_the_form_goes_on_to_the_next_pass_after_the_waiting_rounds(phone):
    game = offline_at_the_table(phone, target_score=500)
    save_offline(phone, 1, 6)
    save_offline(phone, 2, 0)  # skips 5-5 to 1-1: the pass is over, the next one starts at the top
    phone.locator("#enter-round").click()
    expect(phone.locator("#round-title")).to_have_text("Round 3")
    assert rules_offer(game.rules, [6, 0]) == ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1"]
    expect(offered(phone)).to_have_text(rules_offer(game.rules, [6, 0]))
