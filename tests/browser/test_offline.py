"""No signal at the table, in Chromium at 390x844: the sheet opens offline, rounds saved offline
wait on the phone and reach the server once each, in order, when the connection is back."""

from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Round
from scorekeeper.rules.rounds import EntryInput
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db(transaction=True)

KEPT = """async (path) => {
  for (const key of await caches.keys()) {
    for (const request of await (await caches.open(key)).keys()) {
      if (new URL(request.url).pathname === path) return true;
    }
  }
  return false;
}"""


@pytest.fixture
def table(phone):
    """A logged-in phone on the sheet of a double-6 game for three, its pages kept by the worker."""
    user = UserFactory()
    game = make_game(owner=user, names=("Ann", "Ben", "Cy"), tile_set=6)
    requests = []
    phone.context.on("request", lambda request: requests.append(request.url))
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/")
    phone.wait_for_function("navigator.serviceWorker.controller !== null")
    # Once in control, the worker is asked to keep this sheet and its round entry.
    for path in (f"/games/{game.pk}/", f"/games/{game.pk}/rounds/new/"):
        for _ in range(40):
            if phone.evaluate(KEPT, path):
                break
            phone.wait_for_timeout(250)
        else:
            raise AssertionError(f"{path} was not kept")
    return phone, game, requests


def enter_round(page, values):
    """From the sheet: tap Enter round, type each player's pips (0 = went out), save."""
    page.locator("#enter-round").click()
    page.wait_for_selector("#round-form")
    for name, pips in values.items():
        box = page.locator(f"fieldset[data-player='{name}'] input.pips")
        box.fill(str(pips))
        if pips == 0:
            page.locator(f"fieldset[data-player='{name}'] input.went_out").check()
    page.locator("#save-round").click()
    page.wait_for_selector("#outbox, .messages")


def waiting(page) -> int:
    return page.evaluate("window.scorekeeperOutbox.all().then((items) => items.length)")


def wait_until_synced(page, seconds=40):
    for _ in range(seconds * 2):
        if waiting(page) == 0:
            return
        page.evaluate("window.scorekeeperOutbox.sync()")  # as the page does every 15 s, or on its next visit
        page.wait_for_timeout(500)
    raise AssertionError(f"{waiting(page)} rounds still waiting")


def server_rounds(page, game):
    """The rounds as the API gives them to this browser's session."""
    rounds = page.context.request.get(f"/api/v1/games/{game.pk}/").json()["rounds"]
    return [(r["number"], r["starting_double"], [e["pips"] for e in r["entries"]]) for r in rounds]


def test_the_sheet_opens_offline_marked_as_possibly_out_of_date(table):
    page, game, _ = table
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text(game.name)
    expect(page.locator("#app-status")).to_contain_text("Offline: last updated")
    screenshot(page, "40-offline-sheet")
    page.goto("/players/")  # never opened here: the offline page says so instead of an error
    expect(page.locator("h1")).to_have_text("No connection")


def test_two_rounds_saved_offline_reach_the_server_once_each_in_order_though_answers_are_lost(table):
    page, game, _ = table
    page.context.set_offline(True)
    page.reload()
    enter_round(page, {"Ann": 0, "Ben": 9, "Cy": 14})
    expect(page.locator(".outbox-item.waiting")).to_have_count(1)
    enter_round(page, {"Ann": 11, "Ben": 0, "Cy": 4})  # the form offers 5-5 now: 6-6 waits on the phone
    items = page.locator(".outbox-item.waiting")
    expect(items).to_have_count(2)
    expect(items.nth(0)).to_contain_text("6-6")
    expect(items.nth(1)).to_contain_text("5-5")
    expect(items.nth(1)).to_contain_text("Ben: out")
    expect(page.locator("#app-status")).to_contain_text("2 rounds waiting to sync")
    screenshot(page, "41-offline-two-rounds-waiting")
    assert Round.objects.filter(game=game).count() == 0

    # The connection comes back flaky: the first two sends reach the server and their answers are
    # lost. (Playwright cannot route the requests of a page a service worker controls, so the
    # answer is dropped where the page receives it.)
    page.evaluate("""() => {
      window.lost = [];
      const send = window.fetch;
      window.fetch = async (url, options) => {
        const response = await send(url, options);
        if (options && options.method === "POST" && window.lost.length < 2) {
          window.lost.push(options.headers["Idempotency-Key"]);
          sessionStorage.setItem("lost", JSON.stringify(window.lost));
          throw new TypeError("Failed to fetch");  // the connection dropped before the answer
        }
        return response;
      };
    }""")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_until_synced(page)
    lost = page.evaluate("JSON.parse(sessionStorage.getItem('lost'))")
    assert len(lost) == 2 and lost[0] == lost[1]  # the first round twice, with its one key
    assert server_rounds(page, game) == [(1, 6, [0, 9, 14]), (2, 5, [11, 0, 4])]
    page.reload()
    expect(page.locator("#outbox")).to_be_hidden()


def test_a_round_the_server_refuses_on_sync_stays_with_its_message_to_fix_or_discard(table):
    page, game, _ = table
    page.context.set_offline(True)
    page.reload()
    enter_round(page, {"Ann": 0, "Ben": 9, "Cy": 14})
    # Meanwhile another phone records 6-6.
    seats = [s.player_id for s in game.seats.order_by("position")]
    services.record_round(game=game, starting_double=6, entries=[
        EntryInput(player=seats[0], pips=3), EntryInput(player=seats[1], pips=0, went_out=True),
        EntryInput(player=seats[2], pips=8),
    ])  # fmt: skip
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    refused = page.locator(".outbox-item.refused")
    expect(refused).to_contain_text("saved round 1 (6-6) first", timeout=20_000)
    expect(refused).to_contain_text("Ann: out")  # the values entered, still there
    screenshot(page, "42-offline-sync-refused")
    assert server_rounds(page, game) == [(1, 6, [3, 0, 8])]
    page.once("dialog", lambda dialog: dialog.accept())
    refused.get_by_role("button", name="Discard").click()
    expect(page.locator("#outbox")).to_be_hidden()


def test_logging_out_leaves_no_page_and_no_round_on_the_phone(table):
    page, game, requests = table
    page.context.set_offline(True)
    page.reload()
    enter_round(page, {"Ann": 0, "Ben": 9, "Cy": 14})
    # The round must still be waiting at logout: its sends fail (the page's fetch is cut for POSTs).
    page.evaluate("""() => {
      const send = window.fetch;
      window.fetch = (url, options) => (options && options.method === "POST" ? Promise.reject(new TypeError("Failed to fetch")) : send(url, options));
    }""")
    page.context.set_offline(False)
    assert waiting(page) == 1
    dialogs = []
    page.once("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    page.get_by_role("button", name="Log out").click()
    expect(page.locator("nav").get_by_role("link", name="Log in")).to_be_visible()
    assert dialogs == ["1 round saved on this phone has not reached the server and will be lost. Log out anyway?"]
    assert not page.evaluate(KEPT, f"/games/{game.pk}/")
    assert not page.evaluate(KEPT, f"/games/{game.pk}/rounds/new/")
    assert waiting(page) == 0
    # Nothing the app or its worker asked for left this origin.
    assert {urlparse(url).netloc for url in requests} == {urlparse(page.url).netloc}
