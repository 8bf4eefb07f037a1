"""The house options on a phone: the presets fill them, the fold opens to large targets, a game starts with them."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Game
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_csp import log_in
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_presets_fill_the_house_options_and_a_seven_round_game_starts_with_them(phone):
    user = UserFactory()
    for name in ("Ann", "Ben"):
        PlayerFactory(owner=user, name=name)
    log_in(phone, user.email)
    phone.goto("/games/new/")
    form = phone.locator("#new-game")
    first_double, rounds = form.locator("input[name=first_double]"), form.locator("input[name=rounds]")
    shared = form.locator("input[name=tie_break][value=shared]")
    most_went_out = form.locator("input[name=tie_break][value=most_went_out]")
    expect(shared).to_be_checked()

    phone.locator("label.preset", has_text="Short game").tap()
    expect(first_double).to_have_value("9")
    expect(rounds).to_have_value("")
    expect(shared).to_be_checked()

    phone.locator("label.preset", has_text="7 rounds").tap()
    expect(rounds).to_have_value("7")
    expect(most_went_out).to_be_checked()
    expect(first_double).to_have_value("")  # the set's top double again

    fold = phone.locator("details.house-options")
    if fold.get_attribute("open") is None:
        fold.locator("summary").tap()
    expect(first_double).to_be_visible()
    fold.scroll_into_view_if_needed()
    screenshot(phone, "house-options-390")
    targets = [fold.locator("summary"), first_double, rounds, *fold.locator("label.choice").all(),
               *phone.locator("label.preset").all()]  # fmt: skip
    for target in targets:
        box = target.bounding_box()
        assert box["height"] >= 44, (target, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (target, box)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing off the side

    for name in ("Ann", "Ben"):
        phone.locator("#player-choices label", has_text=name).tap()
    phone.get_by_role("button", name="Start the game").tap()
    expect(phone.locator("#sheet")).to_be_visible()
    summary = phone.locator("#game-summary")
    expect(summary).to_contain_text("double-12 · 7 rounds · ties: most rounds gone out")
    expect(summary).to_contain_text("this round: 12-12 starts")
    game = Game.objects.get()
    assert (game.rules.rounds, game.rules.tie_break, game.rules.first_double) == (7, "most_went_out", 12)
    assert [s.player.name for s in game.seats.order_by("position")] == ["Ann", "Ben"]
