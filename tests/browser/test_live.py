"""The live link at the table: a phone with no account follows the game by itself."""

import io

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import LiveLink
from scorekeeper.services import live as links
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_csp import log_in
from tests.factories import UserFactory, make_game
from tests.roles import round_entries

pytestmark = pytest.mark.django_db(transaction=True)


def record(game, double, pips):
    players = [seat.player for seat in game.seats.order_by("position")]
    services.record_round(game=game, starting_double=double, entries=round_entries(players, pips))


def test_a_phone_without_an_account_follows_the_game_from_the_qr_code(phone, browser, live_server):
    user = UserFactory()
    game = make_game(owner=user, names=("Ann", "Ben", "Cy"), tile_set=6)
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/")
    phone.locator("#make-live").click()
    url = phone.locator("#live-url").input_value()
    assert url == f"{live_server.url}/live/{LiveLink.objects.get().token}/"
    qr = phone.locator("#live-qr")
    phone.wait_for_function("() => document.getElementById('live-qr').naturalWidth > 0")
    screenshot(phone, "20-live-share")
    (decoded,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(qr.screenshot())))
    assert decoded.text == url  # what a phone's camera reads is the link

    table = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # no account, no cookies
    viewer = table.new_page()
    violations = []
    viewer.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    viewer.goto(url)
    status, totals = viewer.locator("#live-status"), viewer.locator("#sheet tfoot td")
    expect(status).to_have_text("live")
    expect(totals).to_have_text(["0", "0", "0"])
    record(game, 6, (3, 4))
    expect(totals).to_have_text(["0", "3", "4"], timeout=3000)  # within 3 s, without reloading
    expect(viewer.locator(".leader")).to_contain_text("Ann with 0")
    screenshot(viewer, "21-live-view")

    # The network drops: it says so, and catches up by itself when it is back.
    table.set_offline(True)
    expect(status).to_have_text("reconnecting…", timeout=5000)
    record(game, 5, (2, 6))
    table.set_offline(False)
    expect(totals).to_have_text(["0", "5", "10"], timeout=20000)
    expect(status).to_have_text("live")

    viewer.locator("#tv-mode").click()
    assert viewer.evaluate("getComputedStyle(document.body).fontSize") == "28px"
    screenshot(viewer, "22-live-tv")
    viewer.reload()  # TV mode is kept on this device, its header hidden: the switch says how to leave it
    expect(viewer.locator("#tv-mode")).to_have_text("Leave TV mode")
    viewer.locator("#tv-mode").click()
    expect(viewer.locator("#tv-mode")).to_have_text("TV mode")
    assert viewer.evaluate("getComputedStyle(document.body).fontSize") != "28px"

    phone.reload()
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Stop sharing").click()
    expect(phone.locator(".messages")).to_contain_text("stopped")
    # `event: gone` ends the stream and the page says so at once (its reconnect would wait 2-6 s).
    expect(status).to_have_text("This live link was stopped", timeout=2500)
    expect(viewer.locator("#live-updates")).to_be_hidden()  # a stopped link no longer "updates by itself"
    screenshot(viewer, "23-live-stopped")
    assert viewer.goto(url).status == 404
    assert violations == []
    table.close()


def test_a_viewer_who_chose_spanish_keeps_spanish_as_the_game_moves_on(browser, live_server):
    """The switch's cookie chose Spanish on a phone whose browser asks for English: the sheet the
    page fetches by itself (without cookies) comes in the page's language all the same."""
    game = make_game(names=("Ann", "Ben", "Cy"), tile_set=6)
    link = links.share(game=game, by=None)
    table = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US")
    table.add_cookies([{"name": "language", "value": "es", "url": live_server.url}])
    viewer = table.new_page()
    viewer.goto(f"{live_server.url}/live/{link.token}/")
    expect(viewer.locator("#live-status")).to_have_text("en vivo")
    record(game, 6, (3, 4))
    expect(viewer.locator("#sheet tfoot td")).to_have_text(["0", "3", "4"], timeout=3000)
    expect(viewer.locator(".leader")).to_contain_text("Va ganando: Ann con 0")
    table.close()
