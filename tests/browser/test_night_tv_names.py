"""A club night's TV with long names (tryout 39): at 1280x720 and 1920x1080, with one, three and six
live tables of 4 to 6 players called as people are ("Maximiliano", "Guadalupe Hernández"), every
name reads whole on one line, never broken inside a word; a name the room cannot hold is cut with
an ellipsis at a word's end of its line and its whole name is in its title. Every live table and the
night's standings are on the screen, which does not scroll; the type grows to fill a screen that
has room for it."""

from datetime import date

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Role, Scorebook
from scorekeeper.rules.game import GameRules
from scorekeeper.services import nights
from tests.browser.conftest import close_context, screenshot
from tests.browser.test_night_tv import TVS, assert_one_screen, play, rounds_of
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Maximiliano", "Guadalupe Hernández", "Bartolomé Echeverría", "Concepción", "Alejandro Villanueva",
         "Wilhelmina Pemberton", "Christopher", "María José Castillo", "Montserrat", "Evangelina Sotomayor",
         "Jonathan Whitfield", "Purificación", "Sebastián Ortega", "Margarita Domínguez", "Leopoldo",
         "Esperanza Quintero", "Encarnación López", "Gwendolyn Ashby", "Nepomuceno", "Rosalinda Bustamante",
         "Theodore Blackwood", "Inmaculada", "Ximena Valenzuela", "Bernardino", "Clementina Ruiz",
         "Ezequiel Benavides", "Natividad Carrasco", "Fitzgerald", "Anastasia Kowalczyk", "Francisco Javier")  # fmt: skip
SIZES = (4, 5, 6, 5, 6, 4)  # the players at each table, in the order the tables start


@pytest.fixture
def night_of():
    def make(tables: int):
        user = UserFactory()
        book = Scorebook.personal_for(user)
        night = nights.create_night(book=book, role=Role.OWNER, name="Friday club", date=date.today())
        names = iter(NAMES)
        for number, size in enumerate(SIZES[:tables], start=1):
            players = [PlayerFactory(owner=user, name=next(names)) for _ in range(size)]
            game = services.create_game(by=user, scorebook=book, players=[p.pk for p in players],
                                        rules=GameRules(tile_set=12), number=number, night=night.pk)  # fmt: skip
            for pips in rounds_of(size, 3 + number % 4):
                play(game, pips)
        return nights.share(night=night, by=user)

    return make


# Each name the TV shows (the tables' players, the standings): its text, whether it is cut short of
# its whole width, whether a cut shows an ellipsis, its title, its lines, and whether any of its
# words is broken over two lines (a word's own rectangles: more than one is a word split; a line may
# end after a hyphen, "Bartholomew-" then "Alexander").
NAMES_SEEN = """(parts) => parts.filter((part) => part.getClientRects().length).map((part) => {
  const style = getComputedStyle(part);
  const words = [];
  const range = document.createRange();
  const texts = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
  for (let text = texts.nextNode(); text; text = texts.nextNode()) {
    for (const match of text.textContent.matchAll(/[^\\s-]+-?/g)) {
      range.setStart(text, match.index);
      range.setEnd(text, match.index + match[0].length);
      words.push(new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size);
    }
  }
  return {
    name: (part.querySelector("bdi") || part).textContent, cut: part.scrollWidth > part.clientWidth + 1,
    ellipsis: style.textOverflow === "ellipsis", title: part.title,
    lines: Math.round(part.clientHeight / parseFloat(style.lineHeight)), split: words.some((tops) => tops > 1),
  };
})"""


def words_split(page, selector: str) -> list[str]:
    """The names under `selector` with a word broken over two lines."""
    return [name["name"] for name in page.locator(selector).evaluate_all(NAMES_SEEN) if name["split"]]


def names_seen(page) -> list[dict]:
    return page.locator(".night-live .table-players .who, .night-live .night-standings .who").evaluate_all(NAMES_SEEN)


@pytest.mark.parametrize("tables", [1, 3, 6])
@pytest.mark.parametrize("tv", TVS)
def test_the_nights_tv_shows_long_names_whole_on_one_line_and_every_table_on_the_screen(browser, live_server, night_of, tv, tables):  # fmt: skip
    share = night_of(tables)
    viewport = TVS[tv]
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"/live/nights/{share.token}/?tv=1")
        expect(page.locator("body.tv")).to_have_count(1)
        page.wait_for_function("() => document.documentElement.dataset.js === 'ready'")
        expect(page.locator(".night-table")).to_have_count(tables)
        screenshot(page, f"39-night-tv-{tv}-{tables}-tables-long-names")
        assert_one_screen(page, viewport, tables=tables, standings=0)
        seen = names_seen(page)
        assert len(seen) == sum(SIZES[:tables])
        assert [name for name in seen if name["split"] or name["lines"] != 1] == []
        cut = [name for name in seen if name["cut"]]
        assert all(name["ellipsis"] and name["title"] == name["name"] for name in cut), cut
        if tables <= 3:
            assert cut == []  # room enough for every name whole
        type_px = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.table-players')).fontSize)")
        assert type_px >= 0.027 * viewport["height"]  # the type readable across a room (20 px at 720p)
        if tables == 1:
            assert type_px >= 0.05 * viewport["height"]  # the type grows into the room one table leaves
    finally:
        close_context(context)
