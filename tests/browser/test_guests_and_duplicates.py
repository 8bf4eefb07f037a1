"""A guest archived and a duplicate merged on a 390 px phone (issue 34, item 3): the scorer archives
the guest from the players page (off the new-game page's choices, back with one tap), then merges
the duplicate from the players page, answering the question first; two who sat at one table are
refused beside the field before any question. Nothing scrolls sideways, every tap target is 44 px."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Player, Scorebook
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in
from tests.browser.test_leaderboard_fit import assert_fits_a_phone, assert_no_sideways_scroll, finished_game
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("María Guadalupe Fernández Concepción", "Bartholomew Featherstonehaugh-Smythe", "Bob", "Robert", "Guest")


def test_a_scorer_archives_a_guest_and_merges_a_duplicate_on_a_phone(phone):
    user = UserFactory()
    maria, bart, bob, robert, guest = (PlayerFactory(owner=user, name=name) for name in NAMES)
    finished_game(user, [bob, maria, guest])
    finished_game(user, [maria, bob, bart])
    finished_game(user, [robert, bart])
    log_in(phone, user.email)
    phone.goto("/players/")
    expect(phone.locator("h1")).to_have_text("Players")
    phone.get_by_role("button", name="Archive Guest").click()
    expect(phone.locator("#archived")).to_contain_text("Guest")
    expect(phone.locator("#players")).not_to_contain_text("Guest")
    assert_fits_a_phone(phone)
    screenshot(phone, "players-archived-guest-phone")
    phone.goto("/games/new/")
    expect(phone.locator("#player-choices label")).to_have_count(4)
    expect(phone.locator("#player-choices")).not_to_contain_text("Guest")
    phone.goto("/players/")
    # Two names for one person: merging Bob into María is refused (they sat at one table) before
    # any question, with no Merge button ...
    phone.locator("#merge summary").click()
    phone.get_by_label("Merge this player").select_option(label="Bob")
    phone.get_by_label("into this one, who stays").select_option(label=NAMES[0])
    phone.get_by_role("button", name="Merge into…").click()
    expect(phone.locator("#merge-question")).to_have_count(0)
    expect(phone.get_by_role("button", name="Merge", exact=True)).to_have_count(0)
    refusal = phone.locator(".field", has=phone.get_by_label("into this one, who stays")).locator(".errorlist")
    expect(refusal).to_contain_text("sat at one table")
    assert_fits_a_phone(phone)
    screenshot(phone, "merge-refused-phone")
    # ... into Robert, who never played with him, it asks first, then moves his games.
    phone.get_by_label("into this one, who stays").select_option(label="Robert")
    phone.get_by_role("button", name="Merge into…").click()
    expect(phone.locator("#merge-question")).to_have_text(
        "Merge Bob into Robert? Bob's 2 games become Robert's. This cannot be undone."
    )
    assert_fits_a_phone(phone)
    screenshot(phone, "merge-question-phone")
    phone.get_by_role("button", name="Merge", exact=True).click()
    expect(phone.locator("h1")).to_contain_text("Robert")
    assert not Player.objects.filter(pk=bob.pk).exists()
    phone.goto("/players/")
    expect(phone.locator("#players li", has_text="Robert")).to_contain_text("3 games")
    phone.get_by_role("button", name="Bring back Guest").click()
    expect(phone.locator("#players")).to_contain_text("Guest")
    expect(phone.locator("#archived")).to_have_count(0)
    assert_fits_a_phone(phone)
    screenshot(phone, "players-after-merge-phone")
    assert Scorebook.personal_for(user).players.count() == 4


def test_a_friendly_game_is_started_on_a_phone_and_its_sheet_says_so(phone):
    user = UserFactory()
    for name in NAMES[:3]:
        PlayerFactory(owner=user, name=name)
    log_in(phone, user.email)
    phone.goto("/games/new/")
    for name in NAMES[:3]:
        phone.locator("#player-choices label", has_text=name).click()
    phone.get_by_label("Friendly game: counts in no leaderboard, rating or season").check()
    assert_no_sideways_scroll(phone)  # its boxes sit in 44 px rows (the label is what a thumb taps)
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("#casual-note")).to_have_text(
        "Friendly game: it counts in no leaderboard, rating, record or season."
    )
    assert_fits_a_phone(phone)
    screenshot(phone, "friendly-game-sheet-phone")
    phone.locator("details.manage summary").click()
    phone.get_by_role("button", name="Count this game again").click()
    expect(phone.locator("#casual-note")).to_have_count(0)
    assert not Scorebook.personal_for(user).games.get().casual
