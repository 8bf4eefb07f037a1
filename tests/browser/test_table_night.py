"""What a table asked for (issue 33, items 6 and 7), in Chromium at 390x844: a pips box takes a sum
as people count it and shows its total before saving, a typed tile list shows what it adds up to as
it is typed, eight long names show whole on the round form, and "We stop here" asks first, then
ends the game ranked as it stands."""

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Game, Round
from scorekeeper.rules.rounds import EntryInput
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in, watch_csp
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db(transaction=True)

LONG = ("Grandma Josefina", "Uncle Bartholomew", "María José", "María Luisa", "Cousin Maximiliano",
        "Auntie Guadalupe", "Little Christopher", "Grandpa Wolfgang")  # fmt: skip


@pytest.fixture
def table(phone):
    user = UserFactory()
    log_in(phone, user.email)
    return phone, user


def row(page, name):
    return page.locator(f"fieldset[data-player='{name}']")


def test_a_pips_box_takes_a_sum_shows_its_total_and_a_typed_list_shows_its_pips(table):
    page, user = table
    csp = watch_csp(page)
    game = make_game(owner=user, names=("Ann", "Ben", "Cy"), tile_set=12)
    page.goto(f"/games/{game.pk}/rounds/new/")
    ben = row(page, "Ben").locator("input.pips")
    expect(ben).to_have_attribute("inputmode", "tel")  # the keypad with "+" on Android and iOS
    ben.fill("12+9+4")
    expect(row(page, "Ben").locator("output.pips-sum")).to_have_text("= 25")
    ben.fill("12")
    expect(row(page, "Ben").locator("output.pips-sum")).to_be_hidden()  # a plain number needs no total
    ben.fill("12+9+4")
    row(page, "Ann").locator("input.went_out").check()
    row(page, "Cy").locator("summary").click()
    row(page, "Cy").locator("input.tile-list").fill("8-6 3-2")
    expect(row(page, "Cy").locator("output.list-sum")).to_have_text("2 tiles, 19 pips")  # before saving
    row(page, "Cy").locator("input.tile-list").fill("8-6 3-2 x")
    expect(row(page, "Cy").locator("output.list-sum")).to_have_text("2 tiles, 19 pips, not a tile: x")
    row(page, "Cy").locator("input.tile-list").fill("8-6 3-2")
    screenshot(page, "90-pips-sum-and-typed-list")
    page.locator("#save-round").click()
    expect(page.locator(".messages")).to_contain_text("Recorded round 1")
    assert [e.pips for e in Round.objects.get().entries.order_by("position")] == [0, 25, 19]
    assert csp == []


def test_a_sum_that_does_not_read_is_refused_with_a_clear_message_and_nothing_saved(table):
    page, user = table
    game = make_game(owner=user, names=("Ann", "Ben", "Cy"), tile_set=12)
    page.goto(f"/games/{game.pk}/rounds/new/")
    row(page, "Ann").locator("input.went_out").check()
    row(page, "Ben").locator("input.pips").fill("12+")
    expect(row(page, "Ben").locator("output.pips-sum")).to_be_hidden()
    row(page, "Cy").locator("input.pips").fill("7")
    page.locator("#save-round").click()
    expect(page.locator("#error-summary")).to_contain_text("Write the pips as a number, or as a sum like 12+9+4")
    expect(row(page, "Ben").locator("input.pips")).to_have_value("12+")
    assert Round.objects.count() == 0


def test_eight_long_names_show_whole_on_the_round_form(table):
    page, user = table
    game = make_game(owner=user, names=LONG, tile_set=12)
    page.goto(f"/games/{game.pk}/rounds/new/")
    for name in LONG:
        label = row(page, name).locator("label.name")
        expect(label).to_contain_text(name)
        whole = label.evaluate(
            "(el) => el.scrollWidth <= el.clientWidth && !getComputedStyle(el).textOverflow.includes('ellipsis')"
        )
        assert whole, name
        assert row(page, name).locator("input.pips").bounding_box()["width"] >= 44
    # Nothing wider than the phone, and the names break between words only.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # Each word of each name on one line: a name breaks between its words only.
    broken = page.evaluate(
        """() => Array.from(document.querySelectorAll('label.name')).flatMap((label) => {
             const text = label.firstChild, bad = [];
             let at = 0;
             for (const word of text.data.split(' ')) {
               const range = document.createRange();
               range.setStart(text, at); range.setEnd(text, at + word.length);
               const tops = Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => r.top);
               if (tops.length && Math.max(...tops) - Math.min(...tops) > 4) bad.push(`${word} ${tops}`);
               at += word.length + 1;
             }
             return bad;
           })"""
    )
    screenshot(page, "91-round-form-eight-long-names")
    assert broken == []


def test_we_stop_here_asks_first_then_ends_the_game_ranked_as_it_stands(table):
    page, user = table
    game = make_game(owner=user, names=("Ann", "Ben", "Cy"), tile_set=6)
    seats = [s.player_id for s in game.seats.order_by("position")]
    entries = [EntryInput(player=seats[0], pips=12), EntryInput(player=seats[1], pips=0, went_out=True),
               EntryInput(player=seats[2], pips=7)]  # fmt: skip
    services.record_round(game=game, starting_double=6, entries=entries)
    page.goto(f"/games/{game.pk}/")
    stop = page.locator("#stop-here")
    expect(stop).to_have_text("We stop here")
    assert stop.bounding_box()["height"] >= 44
    # The question is the page script's (data-confirm): a tap before the scripts are in would send
    # the form unasked, so wait for them; the dialog's handler runs in its own time, so wait for it.
    expect(page.locator("html")).to_have_attribute("data-js", "ready")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    stop.click()
    for _ in range(100):
        if asked:
            break
        page.wait_for_timeout(100)
    expect(page.locator("#enter-round")).to_be_visible()
    assert asked and asked[0].startswith("End the game after round 1?")
    assert Game.objects.get(pk=game.pk).status == "in_progress"  # said no: nothing ended
    page.once("dialog", lambda dialog: dialog.accept())
    stop.click()
    expect(page.locator(".game-over .ending")).to_have_text(
        "Stopped after round 1: the table agreed to end the game here."
    )
    expect(page.locator(".game-over .winners")).to_contain_text("Ben")
    expect(page.locator("#stop-here")).to_have_count(0)
    screenshot(page, "92-game-stopped-by-agreement")
    assert Game.objects.get(pk=game.pk).ended_because == "agreed"
