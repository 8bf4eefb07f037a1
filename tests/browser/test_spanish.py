"""A round entered in Spanish, in Chromium at 390x844, by a phone whose browser asks for Spanish."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Round
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_csp import log_in
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db(transaction=True)

TABLE = ("Lupe", "Memo", "Chuy", "Toña")


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


def pips(page, name):
    return page.locator(f"fieldset[data-player='{name}'] input.pips")


def test_a_round_entered_in_spanish_with_its_errors_and_the_tile_picker_in_spanish(telefono):
    page = telefono
    user = UserFactory()
    game = make_game(owner=user, names=TABLE, tile_set=12)
    log_in(page, user.email)
    page.goto(f"/games/{game.pk}/rounds/new/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("#round-title")).to_have_text("Ronda 1")
    expect(page.locator("#save-round")).to_have_text("Guardar la ronda")

    for digits in ("12", "7", "0", "31"):  # Chuy's 0: a hand holding only the 0-0, and he did not go out
        page.keyboard.type(digits)
        page.keyboard.press("Enter")
    summary = page.locator("#error-summary")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("No se guardó nada. Hay 1 cosa que corregir:")
    expect(summary).to_contain_text("Chuy: no salió, así que tiene al menos una ficha")
    screenshot(page, "50-round-entry-spanish-errors")

    # The tile picker speaks Spanish too (its words come from the page, not the script).
    row = page.locator("fieldset[data-player='Chuy']")
    row.locator("details.extras summary").click()
    row.locator("[data-pick-tiles]").click()
    row.locator("button.tile[data-tile='3-2']").click()
    expect(row.locator(".picker-sum")).to_have_text("Chuy: 1 ficha, 5 puntos")
    expect(row.locator("[data-picker-done]")).to_have_text("Listo")
    screenshot(page, "51-round-entry-spanish-picker")
    row.locator("[data-picker-done]").click()
    page.locator("#save-round").click()
    expect(page.locator(".messages")).to_contain_text("Ronda 1 anotada.")
    expect(page.locator("#enter-round")).to_have_text("Anotar la ronda 11-11")
    screenshot(page, "52-sheet-spanish")
    assert [e.pips for e in Round.objects.get(game=game).entries.order_by("position")] == [12, 7, 5, 31]


def test_a_scorebook_named_in_english_reads_in_spanish_on_a_spanish_phone(telefono, browser, live_server):
    """ "Libreta Ana's scorebook" read wrong: a personal scorebook's first name, made in English,
    reads "Libreta de Ana" on a Spanish phone and "Ana's scorebook" (once) on an English one."""
    from django.utils import translation

    from scorekeeper.models import Scorebook

    ana = UserFactory(email="ana@example.com")
    with translation.override("en"):
        assert Scorebook.personal_for(ana).name == "Ana's scorebook"
    log_in(telefono, ana.email)
    telefono.goto("/leaderboard/")
    expect(telefono.locator(".book-line")).to_have_text("Libreta de Ana")
    screenshot(telefono, "52-personal-scorebook-spanish")
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True)
    phone = context.new_page()
    log_in(phone, ana.email)
    phone.goto("/leaderboard/")
    expect(phone.locator(".book-line")).to_have_text("Ana's scorebook")
    screenshot(phone, "52-personal-scorebook-english")
    context.close()
