"""The score sheet at arm's length: 2 to 10 players with long, accented, right-to-left and emoji
names fit a 390 px phone. Up to six players every total is on screen; past six the sheet scrolls
sideways inside its box and says so; a phone turned sideways shows all ten."""

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.rules.rounds import EntryInput
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_csp import log_in
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = (
    "Maria Guadalupe Fernandez",
    "José Ángel Núñez",
    "محمد عبد الرحمن",
    "דוד בן גוריון",
    "🐔 Chicken Joe",
    "Bartholomew-Alexander Featherstonehaugh",
    "Maria Fernandez",
    "Zoë Ødegård-Åkesson",
    "Wolfeschlegelsteinhausen",
    "👩‍👩‍👧 Família Conceição",
)
SHORT = ("Ana", "Bea", "Cy", "Dani", "Eva", "Flor")  # six names that fit six columns whole
LANDSCAPE = {"width": PHONE["height"], "height": PHONE["width"]}


def play(game, rounds: int) -> None:
    """`rounds` rounds with three-figure totals: the first player goes out (on a double in the
    second round), the second is caught with the 0-0 in the third."""
    players = [seat.player for seat in game.seats.order_by("position")]
    for number in range(rounds):
        entries = [EntryInput(player=players[0].pk, pips=0, went_out=True, ended_on_double=number == 1)]
        for index, player in enumerate(players[1:], start=1):
            pips = (7 * number + 13 * index) % 40 + 9
            entries.append(EntryInput(player=player.pk, pips=pips, double_blank=number == 2 and index == 1))
        services.record_round(game=game, starting_double=game.rules.double_at(number), entries=entries)


def open_sheet(browser, live_server, players: int, viewport=PHONE, language="en", names=NAMES):
    user = UserFactory()
    game = make_game(owner=user, names=names[:players])
    play(game, 6)
    context = browser.new_context(viewport=viewport, base_url=live_server.url, is_mobile=True, has_touch=True)
    context.add_cookies([{"name": "language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, user.email)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#sheet")).to_be_visible()
    return context, page


def inside(box, right: float, bottom: float) -> bool:
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= right and box["y"] + box["height"] <= bottom


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize(("players", "names"), [(2, NAMES), (4, NAMES), (6, SHORT)])
def test_up_to_six_players_every_total_is_on_a_390_px_screen_without_scrolling_sideways(
    browser, live_server, players, names
):
    """Up to six whose short names fit their columns whole (a longer one: test_sheet_rows)."""
    context, page = open_sheet(browser, live_server, players, names=names)
    totals = page.locator("#sheet tfoot td")
    expect(totals).to_have_count(players)
    page.locator("#sheet tfoot").scroll_into_view_if_needed()
    screenshot(page, f"sheet-fit-{players}-players")
    page.locator(".sheet-box").screenshot(path=f"tests/screenshots/sheet-fit-{players}-players-table.png")
    assert page_width(page) <= PHONE["width"]
    wrap = page.locator(".sheet-wrap")
    assert wrap.evaluate("w => w.scrollWidth <= w.clientWidth")  # no column hidden to the right
    for total in totals.all():
        assert inside(total.bounding_box(), PHONE["width"], PHONE["height"]), total.inner_text()
    expect(page.locator("#sheet-more")).to_have_count(0)
    # The full names are there for whoever needs them: each column's title and its hidden text.
    heads = page.locator("#sheet thead th.player")
    assert heads.evaluate_all("hs => hs.map(h => h.title)") == list(names[:players])
    # No head's short name is cut at its column's edge ("Grandn J.") or broken mid-word.
    cut = page.locator("#sheet thead th.player .who").evaluate_all(
        "ws => ws.filter(w => w.scrollWidth > w.clientWidth).map(w => w.textContent)"
    )
    assert cut == []
    context.close()


@pytest.mark.parametrize("players", [8, 10])
def test_past_six_players_the_sheet_scrolls_sideways_inside_its_box_and_says_so(browser, live_server, players):
    context, page = open_sheet(browser, live_server, players)
    page.locator("#sheet tfoot").scroll_into_view_if_needed()
    screenshot(page, f"sheet-fit-{players}-players")
    box = page.locator(".sheet-box")
    box.screenshot(path=f"tests/screenshots/sheet-fit-{players}-players-table.png")
    assert page_width(page) <= PHONE["width"]
    expect(page.locator("#sheet-more")).to_be_visible()
    cue = "b => getComputedStyle(b, '::after')"
    assert box.evaluate(f"{cue}.display") != "none" and box.evaluate(f"{cue}.opacity") == "1"

    wrap, last = page.locator(".sheet-wrap"), page.locator("#sheet tfoot td").last
    assert not inside(last.bounding_box(), PHONE["width"], PHONE["height"])  # off to the right, for now
    wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
    page.wait_for_function("() => document.querySelector('.sheet-wrap').scrollLeft > 0")
    assert inside(last.bounding_box(), PHONE["width"], PHONE["height"])
    # The doubles and the Total label stay at the left edge; the cue fades once the end is reached.
    edge = wrap.bounding_box()["x"]
    for label in (page.locator("#sheet tfoot th"), page.locator("#sheet thead th").first):
        assert abs(label.bounding_box()["x"] - edge) <= 1
    on_top = (
        "th => { const r = th.getBoundingClientRect(); return document.elementFromPoint(r.x + 5, r.y + 5) === th; }"
    )
    assert page.locator("#sheet tfoot th").evaluate(on_top)  # not covered by the scrolled totals
    page.wait_for_function("() => getComputedStyle(document.querySelector('.sheet-box'), '::after').opacity === '0'")
    page.screenshot(path=f"tests/screenshots/sheet-fit-{players}-players-scrolled.png", clip=box.bounding_box())
    context.close()


def test_a_phone_turned_sideways_shows_all_ten_totals(browser, live_server):
    context, page = open_sheet(browser, live_server, 10, viewport=LANDSCAPE)
    screenshot(page, "sheet-fit-10-players-landscape")
    page.locator(".sheet-box").screenshot(path="tests/screenshots/sheet-fit-10-players-landscape-table.png")
    assert page_width(page) <= LANDSCAPE["width"]
    assert page.locator(".sheet-wrap").evaluate("w => w.scrollWidth <= w.clientWidth")
    # The sheet scrolls with the page (taller than a phone on its side): its foot brought into view.
    page.locator("#sheet tfoot").scroll_into_view_if_needed()
    for total in page.locator("#sheet tfoot td").all():
        assert inside(total.bounding_box(), LANDSCAPE["width"], LANDSCAPE["height"]), total.inner_text()
    expect(page.locator("#sheet-more")).to_be_hidden()
    context.close()


def test_the_sheet_scrolls_with_the_page_its_header_and_totals_held_in_view(browser, live_server):
    """No box of its own to scroll inside the page (a thumb on the sheet moved the sheet, not the
    page): the page scrolls, the players' names stay at the top of the screen, the totals at its foot."""
    context, page = open_sheet(browser, live_server, 4, viewport=LANDSCAPE)
    wrap = page.locator(".sheet-wrap")
    assert wrap.evaluate("w => getComputedStyle(w).overflowY") == "visible"
    assert wrap.evaluate("w => w.scrollHeight <= w.clientHeight")  # every row in the page, none hidden in a box
    assert page.evaluate("document.documentElement.scrollHeight > innerHeight")  # the page is what scrolls
    first_row = page.locator("#sheet tbody tr").first.bounding_box()
    page.mouse.wheel(0, first_row["y"] + 4 * first_row["height"])
    page.wait_for_function(f"() => scrollY > {first_row['y']}")
    head = page.locator("#sheet thead th").first.bounding_box()
    assert abs(head["y"]) <= 2  # held at the top of the screen
    total = page.locator("#sheet tfoot td").first.bounding_box()
    assert total["y"] + total["height"] <= LANDSCAPE["height"] + 1  # the totals in view too
    screenshot(page, "sheet-scrolls-with-the-page")
    context.close()


def test_in_spanish_six_players_still_fit_with_their_places_said_in_spanish(browser, live_server):
    context, page = open_sheet(browser, live_server, 6, language="es", names=SHORT)
    page.locator("#sheet tfoot").scroll_into_view_if_needed()
    page.locator(".sheet-box").screenshot(path="tests/screenshots/sheet-fit-6-players-spanish-table.png")
    assert page_width(page) <= PHONE["width"]
    assert page.locator(".sheet-wrap").evaluate("w => w.scrollWidth <= w.clientWidth")
    expect(page.locator("#sheet thead th").first).to_have_text("Doble")
    expect(page.locator("#sheet thead th.player.lead .place")).to_have_text("1.º")
    context.close()
