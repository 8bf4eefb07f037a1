"""Printed, the score sheet is the paper sheet people know; a blank one can be printed beforehand."""

import random

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.demo import play_game
from scorekeeper.rules.game import GameRules
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_printed_sheet_keeps_the_sheet_and_the_winner_and_drops_the_controls(phone):
    user = UserFactory()
    ids = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben", "Cy", "Dot")]
    rules = GameRules(tile_set=6)
    game = services.import_game(by=user, players=ids, rules=rules, rounds=play_game(rules, ids, random.Random(5)))
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/")
    phone.emulate_media(media="print")
    phone.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    expect(phone.locator("#sheet")).to_be_visible()
    expect(phone.locator("#sheet tbody tr")).to_have_count(7)
    expect(phone.locator(".winners")).to_be_visible()
    for hidden in (".topbar", ".footer", ".actions", ".manage", ".live-share"):
        expect(phone.locator(hidden).first).to_be_hidden()
    screenshot(phone, "23-print-sheet")
    assert len(phone.pdf(format="A4")) > 1000  # Chromium prints it


def test_a_blank_sheet_for_the_chosen_set_and_table(phone):
    phone.goto("/sheets/blank/?set=9&players=5")
    rows, heads = phone.locator("#blank-sheet tbody tr"), phone.locator("#blank-sheet thead th")
    expect(rows).to_have_count(10)  # 9-9 down to 0-0
    expect(heads).to_have_count(6)
    expect(rows.first.locator("th")).to_have_text("9-9")
    phone.emulate_media(media="print")
    expect(phone.locator(".blank-options")).to_be_hidden()
    screenshot(phone, "24-print-blank-sheet")
    phone.goto("/sheets/blank/?set=7&players=99")  # nonsense falls back to a real set and the most players
    expect(phone.locator("#blank-sheet tbody tr")).to_have_count(13)
    expect(phone.locator("#blank-sheet thead th")).to_have_count(11)
