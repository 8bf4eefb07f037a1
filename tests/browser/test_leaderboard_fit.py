"""The leaderboard and a player's page read at arm's length on a 390x844 phone, in English and in
Spanish: ten players with long, accented, right-to-left and emoji names, one who always wins and one
who has played a single game. Nothing scrolls sideways, nothing is clipped, every tap target is 44 px."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_csp import log_in
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

LEADER = "María Guadalupe Fernández Concepción"
NEWCOMER = "🐣 Zoë Ångström-Løvgren"
NAMES = (
    LEADER,
    "José Ñúñez",
    "محمد عبد الرحمن الهاشمي",
    "שרה בת אברהם כהן",
    "👩‍🚀 Astronaut Ana 🚀🌕",
    "Bartholomew Featherstonehaugh-Smythe",
    "Nguyễn Thị Minh Khai",
    "🐔🦶 Chicken Foot Champion 🏆",
    "Ólafur_Þórðarson_Wolfeschlegelsteinhause",  # one word, 40 characters: the longest a name can be
    NEWCOMER,
)
SET = GameRules(tile_set=6)  # seven rounds a game: 6-6 down to 0-0
TOP_WORDS = {"en": "likely top of this table", "es": "probablemente en la cima de esta mesa"}
NEW_WORDS = {"en": "new: a few more games to tell", "es": "recién empieza: faltan unas partidas para saber"}


def finished_game(user, seated, days_ago: int = 0):
    """A finished game through the services: the first seated player goes out every round, the
    others keep 3, 6, 9... pips, so the order of the table is the order of `seated`."""
    ids = [player.pk for player in seated]
    rounds = [
        (
            double,
            [EntryInput(player=ids[0], pips=0, went_out=True)]
            + [EntryInput(player=pk, pips=3 * seat) for seat, pk in enumerate(ids[1:], start=1)],
        )
        for double in range(SET.tile_set, -1, -1)
    ]
    played_at = timezone.now() - timedelta(days=days_ago)
    return services.import_game(by=user, players=ids, rules=SET, rounds=rounds, played_at=played_at)


@pytest.fixture
def club():
    """Twelve finished games at tables of four: the leader wins each, the others take turns; the
    newcomer has played one."""
    user = UserFactory()
    players = [PlayerFactory(owner=user, name=name) for name in NAMES]
    leader, others, newcomer = players[0], players[1:9], players[9]
    for game in range(12):
        table = [others[(game * 3 + seat) % len(others)] for seat in range(3)]
        finished_game(user, [leader, *table], days_ago=2 * (12 - game))  # a game every other day
    finished_game(user, [leader, others[0], newcomer])
    return {"user": user, "leader": leader, "newcomer": newcomer}


@pytest.fixture
def telefono(browser, live_server):
    """A phone set to Mexican Spanish: Chromium sends Accept-Language: es-MX."""
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True, locale="es-MX"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def assert_no_sideways_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = outside_the_screen(page, "body *") if width > PHONE["width"] else []
    assert width <= PHONE["width"], f"the page is {width} px wide: {wide[-3:]}"


def outside_the_screen(page, selector: str) -> list[str]:
    """The elements of `selector` that reach past either edge of the screen (their text, to tell)."""
    return page.locator(selector).evaluate_all(
        """(elements, width) => elements
            .filter((e) => { const box = e.getBoundingClientRect(); return box.left < 0 || box.right > width + 0.5; })
            .map((e) => `${e.tagName}.${e.className} ${e.textContent.trim().slice(0, 60)}`)""",
        PHONE["width"],
    )


def small_tap_targets(page) -> list[str]:
    """Links, buttons, menus and fold headings of the page's main part smaller than 44 x 44 px (a box
    or a radio button counts as the label around it, which takes the tap)."""
    return page.locator("main a, main button, main select, main summary, main input:not([type=hidden])").evaluate_all(
        """(elements) => elements
            .filter((e) => e.getClientRects().length)
            .map((e) => (e.matches("input[type=radio], input[type=checkbox]") && e.closest("label")) || e)
            .filter((e) => { const box = e.getBoundingClientRect(); return box.height < 44 || box.width < 44; })
            .map((e) => `${e.tagName} "${e.textContent.trim()}" ${Math.round(e.getBoundingClientRect().width)}x${Math.round(e.getBoundingClientRect().height)}`)"""
    )


def clipped_menus(page) -> list[str]:
    """The filters' menus whose longest choice would not show whole in the menu's box (text and
    padding, and room for the arrow), and any control of the form past the screen's edges."""
    return page.locator("form.filters select").evaluate_all(
        """(menus) => {
            const clipped = [];
            const ruler = document.createElement("canvas").getContext("2d");
            for (const menu of menus) {
                const style = getComputedStyle(menu);
                ruler.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
                const room = menu.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
                for (const option of menu.options) {
                    if (ruler.measureText(option.text).width > room) clipped.push(`${menu.name}: ${option.text}`);
                }
            }
            return clipped;
        }"""
    )


def assert_fits_a_phone(page):
    assert_no_sideways_scroll(page)
    assert outside_the_screen(page, "main *") == []
    assert clipped_menus(page) == []
    assert small_tap_targets(page) == []


def card(page, name):
    return page.locator("#leaderboard li.board-card", has=page.get_by_role("link", name=name, exact=True))


def check_leaderboard(page, language: str, shot: str):
    page.goto("/leaderboard/")
    cards = page.locator("#leaderboard li.board-card")
    expect(cards).to_have_count(len(NAMES))
    leader, newcomer = card(page, LEADER), card(page, NEWCOMER)
    expect(cards.first).to_contain_text(LEADER)
    expect(leader.locator(".board-standing")).to_have_text(TOP_WORDS[language])
    expect(newcomer.locator(".board-standing")).to_have_text(NEW_WORDS[language])
    average = {"en": "0.0", "es": "0,0"}[language]
    expect(leader.locator(".board-figures dd")).to_have_text(["13", "13", average])  # wins, games, average
    expect(page.locator("form.filters select")).to_have_count(2)  # order and set (no season yet to choose)
    expect(page.locator("form.filters input[type=date]")).to_have_count(1)  # since a day
    expect(page.locator("#leaderboard table, #leaderboard th")).to_have_count(0)  # cards, not a table
    screenshot(page, shot)
    assert_fits_a_phone(page)
    for each in range(len(NAMES)):  # every figure of every card on the screen
        assert outside_the_screen(page, f"#leaderboard li.board-card >> nth={each} >> dd") == []


def check_player_page(page, player, words: str, shot: str):
    page.goto(f"/players/{player.pk}/")
    figures = page.locator("#figures > div")
    expect(figures).to_have_count(4)
    expect(page.locator("#rating")).to_contain_text(words)  # beside the figure, once rated
    expect(page.locator("main details:not([open])")).not_to_have_count(0)  # the rest is folded
    screenshot(page, shot)
    assert_fits_a_phone(page)
    folded = page.locator("main details:not([open]) > summary")  # the story is open already
    for _ in range(folded.count()):
        folded.first.click()
    expect(page.locator("main details:not([open])")).to_have_count(0)
    screenshot(page, f"{shot}-open")
    assert_fits_a_phone(page)


def test_the_leaderboard_is_a_column_of_cards_that_fits_a_phone_with_the_leader_and_the_newcomer_in_words(phone, club):
    log_in(phone, club["user"].email)
    check_leaderboard(phone, "en", "board-fit-leaderboard")


def test_the_leaderboard_order_and_filters_are_menus_in_reach_that_keep_what_was_chosen(phone, club):
    log_in(phone, club["user"].email)
    phone.goto("/leaderboard/")
    filters = phone.locator("form.filters")
    filters.get_by_label("Order").select_option(label="Name")
    filters.get_by_label("Since").fill(str(timezone.localdate() - timedelta(days=40)))
    filters.get_by_role("button", name="Show").click()
    expect(phone).to_have_url(re.compile(r"sort=name.*since=|since=.*sort=name"))
    names = phone.locator("#leaderboard .board-name").all_text_contents()
    assert names[0] == "Bartholomew Featherstonehaugh-Smythe" and len(names) == len(NAMES)
    expect(filters.get_by_label("Order")).to_have_value("name")
    expect(filters.get_by_label("Since")).to_have_value(str(timezone.localdate() - timedelta(days=40)))
    assert_fits_a_phone(phone)
    filters.get_by_label("Order").select_option(label="Most often out first")
    filters.get_by_role("button", name="Show").click()
    expect(card(phone, LEADER).locator(".board-figures dt")).to_have_text(["Wins", "Games", "Per round", "Went out"])
    expect(phone.locator("#leaderboard .board-name").first).to_have_text(LEADER)
    assert_fits_a_phone(phone)
    screenshot(phone, "board-fit-leaderboard-sorted")


def test_a_player_page_leads_with_four_figures_and_a_chart_and_folds_the_rest_within_a_phone(phone, club):
    log_in(phone, club["user"].email)
    check_player_page(phone, club["leader"], TOP_WORDS["en"], "board-fit-player-leader")
    expect(phone.locator(".totals-chart svg")).to_be_visible()
    check_player_page(phone, club["newcomer"], NEW_WORDS["en"], "board-fit-player-newcomer")


def test_the_leaderboard_and_a_player_page_read_in_spanish_and_fit_a_phone(telefono, club):
    log_in(telefono, club["user"].email)
    check_leaderboard(telefono, "es", "board-fit-leaderboard-spanish")
    expect(telefono.locator("form.filters label")).to_have_text(["Orden", "Juego de fichas", "Desde"])
    check_player_page(telefono, club["leader"], TOP_WORDS["es"], "board-fit-player-spanish")


def broken_or_spilled_figures(page) -> list[str]:
    """The figures of the cards that take more than one line, or reach past their column."""
    return page.locator(".board-figures dd").evaluate_all(
        """(figures) => figures
            .filter((dd) => {
                const box = dd.getBoundingClientRect(), column = dd.parentElement.getBoundingClientRect();
                const line = parseFloat(getComputedStyle(dd).lineHeight);
                return box.height > line * 1.5 || dd.scrollWidth > dd.clientWidth + 0.5 || box.right > column.right + 0.5;
            })
            .map((dd) => `${dd.previousElementSibling.textContent}: ${dd.textContent}`)"""
    )


@pytest.mark.parametrize(("language", "point"), [("en", "."), ("es", ",")])
def test_a_figure_like_501_1_stays_on_one_line_inside_its_column_in_four_columns(browser, live_server, language, point):
    """The tryout saw "501." above "1": "501.1" written into every figure of a four-column card
    (sorted by rating), then a rating of "1,501.1" beside them, each stays whole on one line within
    its column."""
    user = UserFactory()
    players = [PlayerFactory(owner=user, name=name) for name in (LEADER, "José Ñúñez", NEWCOMER)]
    finished_game(user, players)
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True, locale=language
    )
    page = context.new_page()
    log_in(page, user.email)
    page.goto("/leaderboard/?sort=rating")
    expect(card(page, LEADER).locator(".board-figures dd")).to_have_count(4)
    assert broken_or_spilled_figures(page) == []
    figures = page.locator(".board-figures dd")
    figures.evaluate_all("(figures, figure) => figures.forEach((dd) => { dd.textContent = figure; })", f"501{point}1")
    assert broken_or_spilled_figures(page) == []
    assert_no_sideways_scroll(page)
    screenshot(page, f"board-fit-figure-{language}")
    thousands = {".": ",", ",": "."}[point]
    page.locator(".board-figures div:nth-child(4) dd").evaluate_all(
        "(figures, figure) => figures.forEach((dd) => { dd.textContent = figure; })", f"1{thousands}501{point}1"
    )
    assert broken_or_spilled_figures(page) == []
    assert_no_sideways_scroll(page)
    screenshot(page, f"board-fit-figure-rating-{language}")
    context.close()
