"""Pushed updates in Chromium, on the app served the Procfile's way (ASGI): a phone at the table
saves a round on its sheet, and the live link's TV, open meanwhile, shows it because its stream
said so, not because a poll came round (a page with a stream asks only when told)."""

import re

import pytest
from playwright.sync_api import expect

from tests.api.test_streams import PASSWORD, Member
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_game_night import enter_round
from tests.reliability.conftest import migrated, static_root  # noqa: F401 - the served app's fixtures
from tests.reliability.served import Server, app_env

pytestmark = pytest.mark.django_db

TV = {"width": 1280, "height": 720}
# A sign-in hashes its password at production cost in the served app (PBKDF2; the test settings'
# MD5 is not theirs): seconds on a busy machine. The same wait for every step.
WAIT = 30_000


@pytest.fixture
def served(tmp_path, migrated):  # noqa: F811
    server = Server(app_env(migrated.url(tmp_path, "pushed"), STATIC_ROOT=str(migrated.env["STATIC_ROOT"])))
    yield server
    server.stop()


def test_a_round_saved_on_a_phone_appears_on_the_live_tv_through_its_stream(browser, served):
    member = Member(served)
    game = member.game(names=("Ann", "Ben", "Cy"))
    names = [player["name"] for player in game["players"]]
    link = member.call("POST", f"/api/v1/games/{game['id']}/share/")[2]
    tv_context = browser.new_context(viewport=TV, base_url=served.url)
    phone_context = browser.new_context(viewport=PHONE, base_url=served.url, is_mobile=True, has_touch=True)
    try:
        tv = tv_context.new_page()
        tv.set_default_timeout(WAIT)
        asked = []
        tv.on("request", lambda request: asked.append(request.url))
        tv.goto(f"/live/{link['token']}/?tv")
        expect(tv.locator("body.tv")).to_have_count(1)
        expect(tv.locator("#live-status")).to_have_attribute("data-state", "live", timeout=WAIT)

        phone = phone_context.new_page()
        phone.set_default_timeout(WAIT)
        phone.goto("/accounts/login/")
        phone.locator("#id_login").fill(member.email)
        phone.locator("#id_password").fill(PASSWORD)
        phone.get_by_role("button", name=re.compile("sign in|log in", re.I)).click()
        expect(phone.get_by_role("link", name="+ New game")).to_be_visible(timeout=WAIT)
        phone.goto(f"/games/{game['id']}/")
        enter_round(phone, {names[0]: {"pips": 0, "went_out": True}, names[1]: {"pips": 37}, names[2]: {"pips": 23}})
        expect(phone.locator("#sheet tfoot")).to_contain_text("37", timeout=WAIT)

        expect(tv.locator("#live-standings")).to_contain_text("37", timeout=WAIT)
        screenshot(tv, "39-tv-pushed")
        streams = [url for url in asked if url.endswith(f"/api/v1/live/{link['token']}/events/")]
        polls = [url for url in asked if url.endswith(f"/live/{link['token']}/sheet/")]
        assert len(streams) == 1  # one stream, held open the whole time
        # Asked once when the stream started (its first state) and once for the round: no timer.
        assert 1 <= len(polls) <= 2, polls
    finally:
        tv_context.close()
        phone_context.close()
