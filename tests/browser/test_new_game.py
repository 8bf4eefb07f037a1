"""A new game in seconds: Enter adds a player and keeps the keyboard, seats follow the taps."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Game
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in
from tests.factories import PlayerFactory, UserFactory, make_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_enter_adds_a_player_keeps_the_keyboard_and_seats_follow_the_taps(phone):
    user = UserFactory()
    PlayerFactory(owner=user, name="Ann")
    log_in(phone, user.email)
    phone.goto("/games/new/")
    name = phone.get_by_label("Add a player")
    name.fill("Zoe")
    name.press("Enter")
    expect(phone.locator("#player-choices label", has_text="Zoe")).to_be_visible()
    expect(phone.get_by_label("Add a player")).to_be_focused()  # ready for the next name
    phone.get_by_label("Add a player").fill("Bob")
    phone.get_by_label("Add a player").press("Enter")
    expect(phone.locator("#player-choices label", has_text="Bob")).to_be_visible()
    phone.locator("#player-choices label", has_text="Ann").click()  # tapped after the two added
    screenshot(phone, "14-new-game-seats")
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("#sheet")).to_be_visible()
    game = Game.objects.get()
    assert [s.player.name for s in game.seats.order_by("position")] == ["Zoe", "Bob", "Ann"]
    assert game.number == 1 and str(game).startswith("Game 1 · ")  # called by its number and day when left empty


def test_adding_a_name_the_book_already_has_ticks_that_player_and_says_so(phone):
    user = UserFactory()
    PlayerFactory(owner=user, name="Ann")
    PlayerFactory(owner=user, name="Dot")
    log_in(phone, user.email)
    phone.goto("/games/new/")
    phone.locator("#player-choices label", has_text="Dot").click()
    name = phone.get_by_label("Add a player")
    name.fill("ann")
    name.press("Enter")
    expect(phone.locator("#new-player-ticked")).to_have_text("Ann is already a player here: ticked.")
    expect(phone.locator("#player-choices input[data-seat]:checked")).to_have_count(2)
    expect(phone.locator("#player-choices label", has_text="Ann")).to_contain_text("seat 2")  # seated next
    expect(phone.locator("#new-player-errors")).to_have_text("")
    expect(phone.get_by_label("Add a player")).to_have_value("")
    screenshot(phone, "14-new-game-existing-ticked")
    phone.get_by_label("Add a player").fill("DOT")  # ticked already: keeps their seat
    phone.get_by_label("Add a player").press("Enter")
    expect(phone.locator("#new-player-ticked")).to_have_text("Dot is already a player here: ticked.")
    expect(phone.locator("#player-choices label", has_text="Dot")).to_contain_text("seat 1")
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("#sheet")).to_be_visible()
    assert [s.player.name for s in Game.objects.get().seats.order_by("position")] == ["Dot", "Ann"]


def test_same_table_as_last_time_brings_back_the_players_seats_and_rules(phone):
    user = UserFactory()
    last = make_game(owner=user, names=("Cy", "Ann", "Ben"), tile_set=9, double_blank_penalty=25, extended=True)
    log_in(phone, user.email)
    phone.goto("/games/new/")
    phone.get_by_role("link", name="Same table as last time").click()
    phone.wait_for_url("**/games/new/?same=1")  # the page with the last table, not the one before it
    expect(phone.locator("#player-choices label", has_text="Cy").locator("input")).to_be_checked()
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("#sheet")).to_be_visible()
    new = Game.objects.exclude(pk=last.pk).get()
    assert [s.player.name for s in new.seats.order_by("position")] == ["Cy", "Ann", "Ben"]
    assert new.rules == last.rules
