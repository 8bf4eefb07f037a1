"""Ratings that tell a story on a 390 px phone: the new game page shows each chosen player's chance to
win as they are ticked (the odds asked of the API with the page's session, the words from the
catalogue), and a finished game's card shows each player's rating move, in English and Spanish.
Nothing scrolls sideways, every tap target is 44 px."""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Game
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_csp import log_in
from tests.browser.test_leaderboard_fit import (
    assert_no_sideways_scroll,
    finished_game,
    outside_the_screen,
    small_tap_targets,
)
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("María Guadalupe Fernández Concepción", "Bartholomew Featherstonehaugh-Smythe", "José Ñúñez", "🐔 Cy")


@pytest.fixture
def telefono(browser, live_server):
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True, locale="es-MX"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def club():
    """María won twice, 🐔 Cy has never played: María's chance is the best, José's the worst."""
    user = UserFactory()
    players = [PlayerFactory(owner=user, name=name) for name in NAMES]
    finished_game(user, players[:3], days_ago=2)  # María, Bartholomew, José
    finished_game(user, players[:3], days_ago=1)
    return user, players


def assert_fits_a_phone(page):
    """Nothing past the screen's edges, and every tap target 44 px: a ticked box's target is its
    whole label (the boxes themselves are drawn smaller)."""
    assert_no_sideways_scroll(page)
    assert outside_the_screen(page, "main *") == []
    boxes = page.locator("main label:has(input[type=checkbox])").evaluate_all(
        "(labels) => labels.filter((l) => l.getClientRects().length && l.getBoundingClientRect().height < 44).length"
    )
    assert boxes == 0
    assert [target for target in small_tap_targets(page) if not target.startswith('INPUT ""')] == []


def percents(page) -> dict[str, int]:
    labels = page.locator("#player-choices label.choice", has=page.locator(".win-chance"))
    found = {}
    for index in range(labels.count()):
        label = labels.nth(index)
        found[label.locator("span").first.inner_text()] = int(
            re.search(r"\d+", label.locator(".win-chance").inner_text())[0]
        )
    return found


def test_the_new_game_page_shows_each_chosen_players_chance_to_win_as_they_are_ticked(phone, club):
    user, _players = club
    log_in(phone, user.email)
    phone.goto("/games/new/")
    expect(phone.locator("#odds-note")).to_be_hidden()
    phone.get_by_label(NAMES[2]).check()  # one player: no chance to show
    expect(phone.locator(".win-chance")).to_have_count(0)
    phone.get_by_label(NAMES[0]).check()
    expect(phone.locator(".win-chance")).to_have_count(2)
    expect(phone.locator("#odds-note")).to_be_visible()
    phone.get_by_label(NAMES[3]).check()
    expect(phone.locator(".win-chance")).to_have_count(3)
    expect(phone.locator(".win-chance").first).to_have_text(re.compile(r"^\d+% to win$"))
    chances = percents(phone)
    assert chances[NAMES[0]] > chances[NAMES[3]] > chances[NAMES[2]]
    assert 99 <= sum(chances.values()) <= 101  # whole percents of chances that add up to 1
    assert_fits_a_phone(phone)
    screenshot(phone, "story-new-game-chances-phone")
    phone.get_by_label(NAMES[0]).uncheck()  # worked out again for the two left
    expect(phone.locator(".win-chance")).to_have_count(2)
    assert sum(percents(phone).values()) in (99, 100, 101)


def test_a_finished_games_card_shows_each_players_rating_move_in_english_and_spanish(phone, telefono, club):
    user, players = club
    game = Game.objects.filter(seats__player=players[0]).order_by("-finished_at").first()
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/")
    moves = phone.locator(".game-over .final .rating-move")
    expect(moves).to_have_count(3)
    expect(moves.first).to_have_text(re.compile(r"^Rating -?\d+\.\d → -?\d+\.\d, \+\d+\.\d$"))  # María won again: up
    expect(moves.last).to_have_text(re.compile(r"^Rating -?\d+\.\d → -?\d+\.\d, [+-]\d+\.\d$"))
    assert_fits_a_phone(phone)
    phone.locator(".game-over").screenshot(path=str(screenshot_path("story-game-over-card-phone")))
    # María's page: two wins in a row; three games are needed before anyone is her nemesis or victim.
    phone.goto(f"/players/{players[0].pk}/")
    expect(phone.locator("#streak dd")).to_have_text("Current streak: 2 wins · Longest: 2")
    expect(phone.locator("#nemesis dd")).to_have_text("\u2013")
    assert_fits_a_phone(phone)
    phone.locator("#story").screenshot(path=str(screenshot_path("story-player-phone")))
    log_in(telefono, user.email)
    telefono.goto(f"/games/{game.pk}/")
    expect(telefono.locator(".game-over .final .rating-move").first).to_have_text(
        re.compile(r"^Valoración -?\d+,\d → -?\d+,\d; \+\d+,\d$")
    )
    assert_fits_a_phone(telefono)
    telefono.locator(".game-over").screenshot(path=str(screenshot_path("story-game-over-card-phone-es")))


def test_the_spanish_new_game_page_says_the_chances_in_spanish(telefono, club):
    user, _players = club
    log_in(telefono, user.email)
    telefono.goto("/games/new/")
    telefono.get_by_label(NAMES[0]).check()
    telefono.get_by_label(NAMES[1]).check()
    expect(telefono.locator(".win-chance").first).to_have_text(re.compile(r"^\d+\s?% de ganar$"))
    expect(telefono.locator("#odds-note")).to_have_text("Probabilidad de ganar, según la valoración de cada jugador.")
    assert_fits_a_phone(telefono)
    screenshot(telefono, "story-new-game-chances-phone-es")


def screenshot_path(name: str):
    from tests.browser.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
