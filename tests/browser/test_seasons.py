"""A season made on a 390 px phone: the owner opens the scorebook's seasons, adds one around today
with the form, and lands on its table (a failed change of it comes back open at the top); the
leaderboard shows it above the all-time board. Nothing
scrolls sideways, every tap target is 44 px."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scorekeeper.models import Scorebook
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in
from tests.browser.test_leaderboard_fit import assert_fits_a_phone, finished_game
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("María Guadalupe Fernández Concepción", "Bartholomew Featherstonehaugh-Smythe", "José Ñúñez", "🐔 Cy")


def test_an_owner_makes_a_season_on_a_phone_and_sees_its_table(phone):
    user = UserFactory()
    players = [PlayerFactory(owner=user, name=name) for name in NAMES]
    finished_game(user, players[:3])  # María wins, Bartholomew second, José last
    finished_game(user, [players[1], players[3], players[0]])
    book = Scorebook.personal_for(user)
    log_in(phone, user.email)
    phone.goto(f"/scorebooks/{book.pk}/")
    phone.locator("#seasons-link").click()
    expect(phone.locator("h1")).to_have_text("Seasons")
    today = timezone.localdate()
    # A season that ends before it starts is refused, beside the field.
    phone.get_by_label("Name").fill("Autumn league")
    phone.get_by_label("First day").fill(str(today - timedelta(days=7)))
    phone.get_by_label("Last day (included)").fill(str(today - timedelta(days=8)))
    phone.get_by_role("button", name="Add the season").click()
    expect(phone.locator(".field", has=phone.get_by_label("Last day (included)")).locator(".errorlist")).to_have_text(
        "A season cannot end before it starts."
    )
    phone.get_by_label("Last day (included)").fill(str(today + timedelta(days=60)))
    phone.get_by_label("Games to qualify").fill("2")
    phone.get_by_role("button", name="Add the season").click()
    expect(phone.locator("h1")).to_have_text("Autumn league")
    cards = phone.locator("ol.season-table li.board-card")
    expect(cards).to_have_count(4)
    # María 10 + 0, Bartholomew 5 + 10: he leads on points; 🐔 Cy has played once and has not qualified.
    expect(cards.nth(0).locator(".board-name")).to_have_text(NAMES[1])
    expect(cards.nth(0).locator(".board-figures dd").first).to_have_text("15.0")
    expect(cards.nth(3).locator(".board-standing")).to_have_text("Not qualified: needs 2 games")
    assert_fits_a_phone(phone)
    screenshot(phone, "season-table-phone")
    # A change that fails comes back open at the top, seen without scrolling (the body swapped by htmx).
    phone.locator("#edit-season summary").click()
    phone.get_by_label("Last day (included)").fill(str(today - timedelta(days=30)))
    phone.get_by_role("button", name="Save").click()
    expect(phone.locator("#edit-season-failed")).to_be_in_viewport()
    expect(phone.locator("#edit-season")).to_have_attribute("open", "")
    expect(phone.locator(".field", has=phone.get_by_label("Last day (included)")).locator(".errorlist")).to_have_text(
        "A season cannot end before it starts."
    )
    screenshot(phone, "season-change-failed-phone")
    phone.goto("/leaderboard/")
    expect(phone.locator("#season-now-title")).to_have_text("This season: Autumn league")
    assert_fits_a_phone(phone)
    screenshot(phone, "season-on-leaderboard-phone")
