"""A whole game night on a phone: sign up, players, a double-6 game, mistakes, corrections, a winner."""

import gzip
import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Game, Round
from tests.browser.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)


def sign_up(page, email="night@example.com"):
    page.goto("/accounts/signup/")
    screenshot(page, "01-sign-up")
    page.locator("#id_email").fill(email)
    page.locator("#id_password1").fill("domino-night-77")
    page.locator("#id_password2").fill("domino-night-77")
    page.get_by_role("button", name=re.compile("sign up", re.I)).click()
    expect(page.get_by_role("link", name="+ New game")).to_be_visible()


def start_double_6_game(page, names=("Ann", "Ben", "Cy")):
    page.get_by_role("link", name="+ New game").click()
    for name in names:
        page.get_by_label("Add a player").fill(name)
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator("#player-choices label", has_text=name)).to_be_visible()
    page.locator("#id_tile_set").select_option("6")
    page.locator("#id_name").fill("Game night")
    screenshot(page, "02-new-game")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#sheet")).to_be_visible()


def row(page, name):
    return page.locator(f"fieldset.player-row[data-player='{name}']")


def enter_round(page, hands, starting_double=None):
    """hands: name -> dict(pips=, tiles=, went_out=, double_blank=, ended_on_double=)."""
    page.locator("#enter-round").click()
    expect(page.locator("#round-form")).to_be_visible()
    if starting_double is not None:
        page.get_by_label("Starting double").select_option(str(starting_double))
    fill_round(page, hands)


def fill_round(page, hands):
    for name, hand in hands.items():
        player = row(page, name)
        if "pips" in hand:
            player.locator("input.pips").fill(str(hand["pips"]))
        if "tiles" in hand:
            extras = player.locator("details.extras")
            if extras.get_attribute("open") is None:
                extras.locator("summary").click()
            player.locator("input.tiles").fill(str(hand["tiles"]))
        for toggle in ("went_out", "double_blank", "ended_on_double"):
            if toggle in hand:
                player.locator(f"input.{toggle}").set_checked(hand[toggle])
    page.get_by_role("button", name=re.compile("Save")).click()


def totals(page):
    return page.locator("#sheet tfoot td").all_inner_texts()


def test_a_whole_game_night_at_phone_size(phone):
    page = phone
    sign_up(page)
    start_double_6_game(page)
    screenshot(page, "03-score-sheet")
    expect(page.locator("#game-summary")).to_contain_text("7 rounds; this round: 6-6 starts, deal 7 each")

    # Round 1: Ann goes out on a double, Ben is caught with the 0-0.
    enter_round(
        page,
        {
            "Ann": {"went_out": True, "ended_on_double": True},
            "Ben": {"pips": 12, "double_blank": True},
            "Cy": {"pips": 7},
        },
    )
    expect(page.locator(".messages")).to_contain_text("Recorded round 1")
    assert totals(page) == ["50", "62", "7"]

    # Round 2: Ben's single tile cannot hold 30 pips with 5-5 on the table.
    enter_round(page, {"Cy": {"went_out": True}, "Ann": {"pips": 4}, "Ben": {"pips": 30, "tiles": 1}})
    error = row(page, "Ben").locator(".player-errors")
    expect(error).to_contain_text("Ben: 1 tile cannot hold 30 pips in a double-6 set while 5-5 is on the table")
    expect(row(page, "Ann").locator(".player-errors")).to_have_count(0)
    screenshot(page, "04-round-entry-error")
    assert Round.objects.count() == 1
    fill_round(page, {"Ben": {"pips": 11, "tiles": 1}})
    expect(page.locator(".messages")).to_contain_text("Recorded round 2")
    assert totals(page) == ["54", "73", "7"]

    # Fix round 1: Cy had 9, not 7.
    page.get_by_role("link", name="Edit round 1").click()
    expect(page.get_by_role("heading", name="Correct round 1")).to_be_visible()
    expect(row(page, "Cy").locator("input.pips")).to_have_value("7")
    fill_round(page, {"Cy": {"pips": 9}})
    expect(page.locator(".messages")).to_contain_text("Corrected round 1")
    assert totals(page) == ["54", "73", "9"]

    # Undo round 2: the page asks first (dismissed: nothing happens), then it can be brought back.
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="Undo round 2").click()
    assert totals(page) == ["54", "73", "9"]
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo round 2").click()
    expect(page.locator(".messages")).to_contain_text("Undid round 2")
    assert totals(page) == ["50", "62", "9"]
    page.get_by_role("button", name="Bring back round 2").click()
    expect(page.locator(".messages")).to_contain_text("Round 2 is back")
    assert totals(page) == ["54", "73", "9"]
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo round 2").click()
    expect(page.locator(".messages")).to_contain_text("Undid round 2")
    assert totals(page) == ["50", "62", "9"]

    # Nobody held 5-5: skip to 4-4, then play down to 0-0.
    enter_round(page, {"Ann": {"went_out": True}, "Ben": {"pips": 3}, "Cy": {"pips": 4}}, starting_double=4)
    expect(page.locator("#sheet tr.skipped")).to_have_count(1)
    for _ in range(4):
        enter_round(page, {"Ann": {"pips": 2}, "Ben": {"pips": 3}, "Cy": {"went_out": True}})  # a deal can give both
    # The 0-0 round, reached in order, is the game's normal end: saved at once, nothing asked.
    expect(page.locator("#surprises")).to_have_count(0)
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.locator(".winners")).to_contain_text("Cy")
    screenshot(page, "05-game-over")
    game = Game.objects.get()
    assert game.is_finished and [s.player.name for s in game.seats.filter(is_winner=True)] == ["Cy"]

    # History and players list it.
    page.get_by_role("link", name="History").click()
    expect(page.locator(".card", has_text="Game night")).to_be_visible()
    screenshot(page, "06-history")
    page.get_by_role("link", name="Players").click()
    expect(page.locator(".list")).to_contain_text("Ben")
    screenshot(page, "07-players")
    page.get_by_role("link", name="Rules").click()
    screenshot(page, "08-rules")


def test_the_round_entry_page_is_light_and_needs_no_other_host(phone, live_server):
    page = phone
    sign_up(page, "light@example.com")
    start_double_6_game(page)
    host = urlparse(live_server.url).netloc
    url = page.url.rstrip("/") + "/rounds/new/"
    fresh = page.context.new_page()  # a cold tab: only this page's own requests are counted
    seen = []
    fresh.on("response", lambda response: seen.append(response))
    fresh.goto(url)
    fresh.wait_for_load_state("networkidle")
    expect(fresh.locator("#round-form")).to_be_visible()
    screenshot(fresh, "09-round-entry")
    assert {urlparse(r.url).netloc for r in seen} == {host}
    # What a server that compresses its responses (whitenoise does for static files) sends.
    # A 304 carries no body: the sheet's conditional ask when the page's stream sends its first state;
    # the stream itself stays open (its body never ends: asking for it would wait for ever).
    weighed = [
        r for r in seen if r.status != 304 and not r.headers.get("content-type", "").startswith("text/event-stream")
    ]
    compressed = sum(len(gzip.compress(r.body(), 9)) for r in weighed)
    print(f"round entry page: {len(seen)} responses, {compressed} bytes compressed")
    # 60 KB until issue 33 (the pips box's sum, the typed list's live sum, the two phones'
    # comparison, the outbox's seat changes): 62.7 KB then; the seat changes' module itself is
    # loaded only by a page that has one (offline.js). 68.6 KB after issue 34: site.css +2.6 KB
    # (nights, seasons, the board's filters, friendly games), odds.js 1.2 KB, and offline.js in four
    # modules under 300 lines (+2 KB: four files compressed apart). The next lever is to load what
    # only some pages use (the new game's form and chances, the game-over picture: 5 KB) from those
    # pages alone. 80.3 KB after the fifth wave: the camera's hand-photo.js and hand-photo-send.js
    # (5.5 KB), site.css +1.8 KB (the camera, the TV, the rows of a table of ten), follow.js +0.6 KB
    # (the stream), confirm.js and tv.js (0.8 KB each). The lever is the same and larger now: the
    # camera's modules are wanted only once a photo is taken (a dynamic import from the button).
    # 82.7 KB after the third session's tile grammar, table-full note and TV type; then 77.5 KB once
    # hand-photo.js and its sender came only with a chosen photo (hand-photo-offer.js).
    assert compressed <= 80 * 1024


def test_inputs_are_labelled_thumb_sized_and_pips_bring_up_a_number_pad(phone):
    page = phone
    sign_up(page, "thumbs@example.com")
    start_double_6_game(page)
    page.locator("#enter-round").click()
    pips = page.locator("input.pips")
    expect(pips).to_have_count(3)
    for i in range(3):  # the phone keypad with "+" (iOS's numeric one has none): "12+9+4" as counted
        assert pips.nth(i).get_attribute("inputmode") == "tel"
    for control in page.locator("#round-form input:visible, #round-form select, #round-form button").all():
        box = control.bounding_box()
        if control.get_attribute("type") == "checkbox":
            box = control.locator("xpath=..").bounding_box()  # the whole toggle is the tap target
        assert box["height"] >= 44, control.evaluate("e => e.outerHTML")
    unlabelled = page.evaluate(
        """() => [...document.querySelectorAll('input:not([type=hidden]), select')]
                 .filter(e => !(e.labels && e.labels.length)).map(e => e.name)"""
    )
    assert unlabelled == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
