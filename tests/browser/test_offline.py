"""No signal at the table, in Chromium at 390x844: the sheet opens offline, rounds saved offline
wait on the phone and reach the server once each, in order, when the connection is back."""

import re
import zoneinfo
from datetime import timedelta
from urllib.parse import urlparse

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from scorekeeper import clock, services
from scorekeeper.models import Membership, Round, Scorebook
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


def wait_until_kept(page, *paths):
    for path in paths:
        for _ in range(120):  # 30 s, as the worker's install above
            if page.evaluate(KEPT, path):
                break
            page.wait_for_timeout(250)
        else:
            raise AssertionError(f"{path} was not kept")


def sheet_kept(page, user, game):
    """Log in as `user` and open the game's sheet until the worker keeps it and its round entry,
    and nothing the page or its worker asked for is still on its way."""
    in_flight = set()
    seat_pages = tuple(f"/games/{game.pk}/seats/{kind}/" for kind in ("join", "leave", "take_over"))
    game_pages = (f"/games/{game.pk}/", f"/games/{game.pk}/rounds/new/", *seat_pages)
    events = {
        "request": lambda request: urlparse(request.url).path in game_pages and in_flight.add(request),
        "requestfinished": lambda request: in_flight.discard(request),
        "requestfailed": lambda request: in_flight.discard(request),
    }
    for event, listener in events.items():
        page.context.on(event, listener)
    log_in(page, user.email)
    page.goto(f"/games/{game.pk}/")
    # The worker installs first, fetching every asset it keeps: on a busy machine (two CI lanes) that
    # took over the page's 10 s, so the install has the 30 s the deploy's smoke test gives it.
    try:
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    except PlaywrightTimeoutError:  # seen in CI: an install that never took control; a reload lets it
        page.reload()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    # Once in control, the worker is asked to keep this sheet, its round entry and its seat changes.
    wait_until_kept(page, *game_pages)
    # The worker fetches both pages again: an answer still on its way would renew the CSRF cookie
    # after a test clears the cookies, and the next sign-in would fail its CSRF check.
    for _ in range(100):
        if not in_flight:
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError(f"still on their way: {[request.url for request in in_flight]}")
    for event, listener in events.items():
        page.context.remove_listener(event, listener)


@pytest.fixture
def table(phone):
    """A logged-in phone on the sheet of a double-6 game for three, its pages kept by the worker."""
    user = UserFactory()
    game = make_game(owner=user, names=("Ann", "Ben", "Cy"), tile_set=6)
    # Its scorebook plays at UTC+14: the page's times are on that clock, not the phone's (UTC here).
    Scorebook.objects.filter(pk=game.scorebook_id).update(time_zone="Pacific/Kiritimati")
    requests = []
    phone.context.on("request", lambda request: requests.append(request.url))
    sheet_kept(phone, user, game)
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


def ask(page, expression):
    """Evaluates in the page. The page reloads itself once a sync lands: what is asked while it
    navigates is asked again of the new page."""
    for _ in range(3):
        try:
            page.wait_for_function("() => window.scorekeeperOutbox")
            return page.evaluate(expression)
        except PlaywrightError as error:
            if "context was destroyed" not in str(error):
                raise
            page.wait_for_load_state()
    raise AssertionError(f"the page kept navigating while asked {expression}")


def waiting(page) -> int:
    return ask(page, "window.scorekeeperOutbox.all().then((items) => items.length)")


def wait_until_synced(page, seconds=40):
    for _ in range(seconds * 2):
        if waiting(page) == 0:
            return
        ask(page, "window.scorekeeperOutbox.sync()")  # as the page does every 15 s, or on its next visit
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
    # On the scorebook's clock, as the game's history writes a moment: "Sat 28 Nov, 21:57" (24-hour).
    expect(page.locator("#app-status")).to_have_text(re.compile(r"last updated \w+ \d+ \w+, [0-2][0-9]:[0-5][0-9]\."))
    shown = re.search(r"last updated (.+?)\.", page.locator("#app-status").inner_text())[1]
    now = timezone.now()
    with timezone.override(zoneinfo.ZoneInfo("Pacific/Kiritimati")):  # kept within the last minutes
        assert shown in {clock.moment(now - timedelta(minutes=back)) for back in range(6)}
    screenshot(page, "40-offline-sheet")
    page.goto("/players/")  # never opened here: the offline page says so instead of an error
    expect(page.locator("h1")).to_have_text("No connection")


def test_two_rounds_saved_offline_reach_the_server_once_each_in_order_though_answers_are_lost(table):
    page, game, _ = table
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#this-round strong")).to_have_text("6-6")
    expect(page.locator("#shuffles-next")).to_have_text("Ann shuffles next")
    enter_round(page, {"Ann": 0, "Ben": "4+5", "Cy": 14})  # a sum as the table counts it goes as its total
    expect(page.locator(".outbox-item.waiting")).to_have_count(1)
    expect(page.locator(".outbox-item.waiting")).to_contain_text("Ben: 9 pips")
    # Every word of the sheet about the next round follows the round waiting on the phone: the
    # double after it, and the next player around the table shuffles.
    expect(page.locator("#enter-round")).to_have_text("Enter round 5-5")
    expect(page.locator("#this-round strong")).to_have_text("5-5")
    expect(page.locator("#shuffles-next")).to_have_text("Ben shuffles next")
    enter_round(page, {"Ann": 11, "Ben": 0, "Cy": 4})  # the form offers 5-5 now: 6-6 waits on the phone
    expect(page.locator("#enter-round")).to_have_text("Enter round 4-4")
    expect(page.locator("#this-round strong")).to_have_text("4-4")
    expect(page.locator("#shuffles-next")).to_have_text("Cy shuffles next")
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
    lost = ask(page, "JSON.parse(sessionStorage.getItem('lost'))")  # the page reloads itself once synced
    assert len(lost) == 2 and lost[0] == lost[1]  # the first round twice, with its one key
    assert server_rounds(page, game) == [(1, 6, [0, 9, 14]), (2, 5, [11, 0, 4])]
    page.reload()
    expect(page.locator("#outbox")).to_be_hidden()


def test_a_round_saved_offline_that_another_phone_recorded_first_asks_keep_theirs_or_compare(table):
    """The attack's N4 through the outbox: round 1 saved offline with 5-5 (6-6 skipped) while another
    phone records round 1 with 6-6. Once it went in as round 2; it says it is round 1 now, so the
    outbox asks instead: Compare shows the page's question, theirs beside it; Keep theirs sends nothing."""
    page, game, _ = table
    page.context.set_offline(True)
    page.reload()
    page.locator("#enter-round").click()
    page.wait_for_selector("#round-form")
    page.locator("#id_starting_double").select_option("5")
    for name, pips in {"Ann": 0, "Ben": 9, "Cy": 14}.items():
        page.locator(f"fieldset[data-player='{name}'] input.pips").fill(str(pips))
    page.locator("fieldset[data-player='Ann'] input.went_out").check()
    page.locator("#save-round").click()
    expect(page.locator(".outbox-item.waiting")).to_have_count(1)
    # Meanwhile another phone records round 1 with 6-6.
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
    expect(refused.get_by_role("button", name="Discard")).to_have_count(0)
    screenshot(page, "42-offline-sync-refused")
    assert server_rounds(page, game) == [(1, 6, [3, 0, 8])]

    refused.get_by_role("button", name="Compare").click()  # the round form, theirs beside this one
    expect(page.locator("#clash")).to_contain_text("saved round 1 (6-6) a moment ago")
    expect(page.locator("fieldset[data-player='Ben'] .theirs")).to_contain_text("went out")
    expect(page.locator("fieldset[data-player='Cy'] input.pips")).to_have_value("14")
    screenshot(page, "42b-offline-clash-compared")
    assert server_rounds(page, game) == [(1, 6, [3, 0, 8])]
    page.get_by_role("link", name="Keep theirs").click()
    page.wait_for_url(f"**/games/{game.pk}/")
    expect(page.locator("#outbox")).to_be_hidden()
    assert server_rounds(page, game) == [(1, 6, [3, 0, 8])]


def test_keep_theirs_in_the_outbox_drops_the_round_waiting_and_sends_nothing(table):
    page, game, _ = table
    page.context.set_offline(True)
    page.reload()
    enter_round(page, {"Ann": 0, "Ben": 9, "Cy": 14})
    seats = [s.player_id for s in game.seats.order_by("position")]
    services.record_round(game=game, starting_double=6, entries=[
        EntryInput(player=seats[0], pips=3), EntryInput(player=seats[1], pips=0, went_out=True),
        EntryInput(player=seats[2], pips=8),
    ])  # fmt: skip
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    refused = page.locator(".outbox-item.refused")
    expect(refused).to_contain_text("saved round 1 (6-6) first", timeout=20_000)
    refused.get_by_role("button", name="Keep theirs").click()
    expect(page.locator("#outbox")).to_be_hidden()
    assert waiting(page) == 0 and server_rounds(page, game) == [(1, 6, [3, 0, 8])]


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


def end_the_session(page, how):
    if how == "cookies cleared":
        page.context.clear_cookies()
    else:  # deleted on the server: expired, or signed out through allauth's API from elsewhere
        Session.objects.all().delete()


@pytest.mark.parametrize("how", ["cookies cleared", "session deleted on the server"])
def test_the_next_account_on_the_phone_never_sees_the_last_ones_kept_pages_offline(phone, how):
    ann = UserFactory(email="annabel.private@example.com")
    hers = make_game(owner=ann, names=("Annabel Quist", "Ben Hollow"), tile_set=6)
    bea = UserFactory(email="bea@example.com")
    bea_game = make_game(owner=bea, names=("Bea", "Dot"), tile_set=6)
    sheet_kept(phone, ann, hers)
    end_the_session(phone, how)  # no logout button: nothing on the phone was cleared
    sheet_kept(phone, bea, bea_game)
    # Only what was kept for Bea is on the phone now.
    assert not phone.evaluate(KEPT, f"/games/{hers.pk}/")
    assert not phone.evaluate(KEPT, f"/games/{hers.pk}/rounds/new/")
    phone.context.set_offline(True)
    phone.goto(f"/games/{hers.pk}/")
    expect(phone.locator("h1")).to_have_text("No connection")
    content = phone.content()
    assert "Annabel" not in content and "annabel.private" not in content and "Ben Hollow" not in content
    screenshot(phone, "43-offline-other-accounts-sheet")
    # Bea's own sheet still opens, kept for her.
    phone.goto(f"/games/{bea_game.pk}/")
    expect(phone.locator("#app-status")).to_contain_text("Offline: last updated")
    expect(phone.locator("main")).to_contain_text("Dot")
    expect(phone.locator("footer")).to_contain_text("bea@example.com")


def test_signing_out_through_allauths_api_drops_the_kept_pages_with_no_page_in_between(table):
    page, game, _ = table
    status = page.evaluate("""async () => {
      const token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
      const response = await fetch("/_allauth/browser/v1/auth/session", { method: "DELETE", headers: { "X-CSRFToken": token } });
      return response.status;
    }""")
    assert status == 401  # allauth's answer: nobody is signed in now
    assert not page.evaluate(KEPT, f"/games/{game.pk}/")
    assert not page.evaluate(KEPT, f"/games/{game.pk}/rounds/new/")
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text("No connection")


def test_a_kept_sheet_that_is_now_not_found_is_dropped_with_its_round_entry(table):
    page, game, _ = table
    sheet, entry = f"/games/{game.pk}/", f"/games/{game.pk}/rounds/new/"
    game.delete()
    assert page.reload().status == 404  # online
    assert not page.evaluate(KEPT, sheet)
    assert not page.evaluate(KEPT, entry)
    page.context.set_offline(True)
    page.goto(entry)
    expect(page.locator("h1")).to_have_text("No connection")


def test_a_kept_round_entry_the_account_may_no_longer_use_is_dropped(phone):
    owner, ann = UserFactory(), UserFactory()
    game = make_game(owner=owner, names=("Ann", "Ben", "Cy"), tile_set=6)
    membership = Membership.objects.create(scorebook=game.scorebook, user=ann, role="scorer")
    sheet_kept(phone, ann, game)
    membership.role = "viewer"  # the owner makes Ann a viewer
    membership.save()
    response = phone.goto(f"/games/{game.pk}/rounds/new/")
    assert response.status == 403
    assert not phone.evaluate(KEPT, f"/games/{game.pk}/rounds/new/")
    assert phone.evaluate(KEPT, f"/games/{game.pk}/")  # she still sees the sheet
    phone.context.set_offline(True)
    phone.goto(f"/games/{game.pk}/rounds/new/")
    expect(phone.locator("h1")).to_have_text("No connection")
    phone.goto(f"/games/{game.pk}/")
    expect(phone.locator("#app-status")).to_contain_text("Offline: last updated")


def test_a_kept_page_is_kept_though_it_says_private_no_store(table):
    page, game, _ = table
    cache_control = page.evaluate(
        """async (path) => {
      for (const key of await caches.keys()) {
        const found = await (await caches.open(key)).match(path, { ignoreVary: true });
        if (found) return found.headers.get("Cache-Control");
      }
      return null;
    }""",
        f"/games/{game.pk}/",
    )
    assert cache_control == "private, no-store"


def test_a_round_saved_offline_waits_for_its_own_account_and_is_never_sent_with_the_next_ones(phone):
    ann, bea = UserFactory(), UserFactory()
    game = make_game(owner=ann, names=("Ann", "Ben", "Cy"), tile_set=6)
    Membership.objects.create(scorebook=game.scorebook, user=bea, role="scorer")
    sheet_kept(phone, ann, game)
    phone.context.set_offline(True)
    phone.reload()
    enter_round(phone, {"Ann": 0, "Ben": 9, "Cy": 14})
    expect(phone.locator(".outbox-item.waiting")).to_have_count(1)
    phone.context.clear_cookies()  # Ann's session ends without the logout button
    # Her page's own tries to send it fail (the page's fetch is cut for POSTs), so it still waits.
    phone.evaluate("""() => {
      const send = window.fetch;
      window.fetch = (url, options) => (options && options.method === "POST" ? Promise.reject(new TypeError("Failed to fetch")) : send(url, options));
    }""")
    phone.context.set_offline(False)
    sheet_kept(phone, bea, game)  # Bea, a scorer of the same game, signs in on the phone
    phone.evaluate("window.scorekeeperOutbox.sync()")
    expect(phone.locator("#outbox")).to_be_hidden()  # not hers to see
    expect(phone.locator("#app-status")).not_to_contain_text("waiting")
    screenshot(phone, "44-offline-next-account-sheet")
    assert waiting(phone) == 1  # kept aside, for Ann
    assert not Round.objects.filter(game=game).exists()
    # Ann back on her phone: her round goes, as hers.
    phone.context.clear_cookies()
    log_in(phone, ann.email)
    phone.goto(f"/games/{game.pk}/")  # the sheet sends what waits as it opens, then shows it saved
    for _ in range(80):
        if Round.objects.filter(game=game).exists():
            break
        phone.wait_for_timeout(250)
    assert list(Round.objects.filter(game=game).values_list("starting_double", "recorded_by")) == [(6, ann.pk)]


def test_a_surprising_round_saved_offline_asks_on_sync_and_saving_anyway_sends_it_with_the_answer(table):
    page, game, _ = table
    page.context.set_offline(True)
    page.reload()
    enter_round(page, {"Ann": 0, "Ben": 80, "Cy": 14})  # more than 7 dealt tiles of a double-6 set hold
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    asked = page.locator(".outbox-item.refused")
    expect(asked).to_contain_text("Ben: 80 pips is more than the 7 biggest tiles of a deal hold", timeout=20_000)
    screenshot(page, "45-offline-sync-asks")
    assert not Round.objects.filter(game=game).exists()
    asked.get_by_role("button", name="Save anyway").click()
    expect(page.locator("#outbox")).to_be_hidden(timeout=20_000)  # sent, and the sheet shown again
    assert server_rounds(page, game) == [(1, 6, [0, 80, 14])]
    expect(page.locator(".messages")).to_contain_text("Recorded round 1")


def test_a_round_saved_offline_that_breaks_a_rule_shows_why_and_fix_opens_it_in_the_form(table):
    page, game, _ = table
    page.context.set_offline(True)
    page.reload()
    enter_round(page, {"Ann": 0, "Ben": 400, "Cy": 14})  # more pips than the set holds
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    refused = page.locator(".outbox-item.refused")
    expect(refused).to_contain_text("Ben", timeout=20_000)
    expect(refused).to_contain_text("400")
    expect(refused.get_by_role("button", name="Save anyway")).to_have_count(0)
    refused.get_by_role("button", name="Fix").click()
    expect(page.locator("#error-summary")).to_contain_text("Ben")  # the page's form says it too
    expect(page.locator("fieldset[data-player='Ben'] input.pips")).to_have_value("400")
    assert not Round.objects.filter(game=game).exists()


def test_a_round_waiting_when_the_session_ends_waits_and_asks_to_log_in_again(table):
    page, game, _ = table
    page.context.set_offline(True)
    page.reload()
    enter_round(page, {"Ann": 0, "Ben": 9, "Cy": 14})
    page.context.clear_cookies()  # the session ended (expired, or signed out elsewhere)
    page.context.set_offline(False)
    page.evaluate("window.scorekeeperOutbox.sync()")
    waiting_item = page.locator(".outbox-item.waiting")
    expect(waiting_item).to_contain_text("Log in again to send it.", timeout=20_000)
    assert waiting(page) == 1 and not Round.objects.filter(game=game).exists()


def test_a_player_seated_offline_and_the_round_after_reach_the_server_once_in_order(table):
    page, game, _ = table
    enter_round(page, {"Ann": 0, "Ben": 9, "Cy": 14})  # online: round 1
    expect(page.locator("#sheet tbody tr.played")).to_have_count(1)
    # The sheet had the worker keep its seat changes' pages: never opened, they open offline.
    wait_until_kept(page, f"/games/{game.pk}/seats/join/", f"/games/{game.pk}/seats/leave/")
    page.context.set_offline(True)
    page.goto(f"/games/{game.pk}/seats/join/")
    page.locator("#id_name").fill("Dee Newcomer")
    page.locator("#save-seat").click()
    page.wait_for_url(f"**/games/{game.pk}/")
    items = page.locator(".outbox-item.waiting")
    expect(items).to_have_count(1)
    expect(items.first).to_contain_text("Dee Newcomer joins")
    # The round form drawn before she joined has her row, waiting on this phone like her seat.
    page.locator("#enter-round").click()
    expect(page.locator("fieldset.player-row")).to_have_count(4)
    expect(page.locator("fieldset.player-row").last).to_have_attribute("data-player", "Dee Newcomer")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#shuffles-next")).to_have_text("Ben shuffles next")
    enter_round(page, {"Ann": 5, "Ben": 0, "Cy": 4, "Dee Newcomer": 7})
    expect(page.locator(".outbox-item.waiting")).to_have_count(2)
    expect(page.locator("#this-round strong")).to_have_text("4-4")
    expect(page.locator("#shuffles-next")).to_have_text("Cy shuffles next")  # Ben shuffled the round waiting
    screenshot(page, "43-offline-seat-and-round-waiting")
    assert game.seats.count() == 3

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_until_synced(page)
    names = [seat.player.name for seat in game.seats.select_related("player").order_by("position")]
    assert names == ["Ann", "Ben", "Cy", "Dee Newcomer"]
    assert game.seat_changes.count() == 1
    assert server_rounds(page, game)[1] == (2, 5, [5, 0, 4, 7])
