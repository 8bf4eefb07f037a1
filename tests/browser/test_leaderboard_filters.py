"""The filtered leaderboard on a 390 px phone (issue 34, items 4 and 5), tried as the new user did:
"Best rating" and double-12 chosen with the form (no script needed), then a day; the board says what
it counts and that the rating is over all games, shows the rating it orders by, lists apart who has
no double-12 game. The season table above the board keeps each label on one line ("Avg place"
wrapped). In English and in Spanish; nothing scrolls sideways, every tap target is 44 px."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scorekeeper.models import Scorebook
from tests.boards import played
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in
from tests.browser.test_leaderboard_fit import assert_fits_a_phone, telefono  # noqa: F401 (a fixture)
from tests.factories import PlayerFactory, UserFactory
from tests.seasons import make_season

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = (
    "María Guadalupe Fernández Concepción",  # never plays double-12: the best rating, no place there
    "Bartholomew Featherstonehaugh-Smythe",
    "José Ñúñez",
    "👩‍🚀 Astronaut Ana 🚀🌕",
    "Ólafur_Þórðarson_Wolfeschlegelsteinhause",
)


@pytest.fixture
def club():
    """María wins three double-6 games; Bartholomew and José share the only double-12 win over Ana
    and Ólafur; a season holds today."""
    user = UserFactory()
    book = Scorebook.personal_for(user)
    maria, bart, jose, ana, olafur = (PlayerFactory(owner=user, name=name) for name in NAMES)
    for _ in range(3):
        played(book, user, [maria, ana, olafur], [(0, 5, 10)])
    played(book, user, [bart, jose, ana, olafur], [(0, 5, 15, 20), (5, 0, 15, 20)], tile_set=12)
    today = book.today()
    make_season(book=book, name="Temporada de otoño 2026", starts=today - timedelta(days=10),
                ends=today + timedelta(days=60), min_games=2)  # fmt: skip
    return user


def single_line_labels(page, selector: str) -> list[str]:
    """The labels of `selector` that take more than one line."""
    return page.locator(selector).evaluate_all(
        """(labels) => labels
            .filter((e) => e.getClientRects().length)
            .filter((e) => e.getBoundingClientRect().height > 1.6 * parseFloat(getComputedStyle(e).fontSize))
            .map((e) => e.textContent.trim())"""
    )


def choose(page, order: str, tile_set: str, button: str):
    filters = page.locator("form.filters")
    filters.locator("select[name=sort]").select_option(label=order)
    filters.locator("select[name=tile_set]").select_option(label=tile_set)
    filters.get_by_role("button", name=button).click()


def test_best_rating_with_double_12_on_a_phone_ranks_only_double_12_players_and_says_so(phone, club):
    log_in(phone, club.email)
    phone.goto("/leaderboard/")
    expect(phone.locator("#season-now-title")).to_contain_text("Temporada de otoño 2026")
    assert single_line_labels(phone, ".season-table .board-figures dt") == []
    assert_fits_a_phone(phone)
    screenshot(phone, "board-filters-season-labels")
    choose(phone, "Best rating", "Double-12", "Show")
    expect(phone).to_have_url(re.compile(r"sort=rating.*tile_set=12"))
    cards = phone.locator("#leaderboard li.board-card")
    expect(cards).to_have_count(4)
    expect(phone.locator("#board-apart a")).to_have_text([NAMES[0]])  # no double-12 game: no place
    expect(phone.locator("#board-scope")).to_contain_text("count only the games chosen here: double-12.")
    expect(phone.locator("#board-scope")).to_contain_text("The rating counts all games")
    expect(cards.first.locator(".board-figures dt")).to_have_text(["Wins", "Games", "Per round", "Overall rating"])
    expect(phone.locator("#season-now-title")).to_have_count(0)  # a filtered board stands alone
    assert_fits_a_phone(phone)
    screenshot(phone, "board-filters-rating-double-12")
    phone.locator("form.filters input[name=since]").fill(str(timezone.localdate() + timedelta(days=1)))
    phone.locator("form.filters").get_by_role("button", name="Show").click()
    expect(phone.locator("#board-empty")).to_have_text("No finished game matches these filters.")
    expect(phone.locator("#board-apart a")).to_have_count(len(NAMES))
    assert_fits_a_phone(phone)
    screenshot(phone, "board-filters-nothing-since-tomorrow")


def test_the_filtered_board_reads_in_spanish_on_a_phone(telefono, club):  # noqa: F811
    log_in(telefono, club.email)
    telefono.goto("/leaderboard/")
    assert single_line_labels(telefono, ".season-table .board-figures dt") == []
    screenshot(telefono, "board-filters-season-labels-spanish")
    choose(telefono, "Mejor valoración", "Doble 12", "Mostrar")
    expect(telefono.locator("#leaderboard li.board-card")).to_have_count(4)
    expect(telefono.locator("form.filters label")).to_have_text(["Orden", "Juego de fichas", "Temporada", "Desde"])
    screenshot(telefono, "board-filters-rating-double-12-spanish")
    assert_fits_a_phone(telefono)
