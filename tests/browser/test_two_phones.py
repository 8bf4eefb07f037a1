"""Two accounts in one scorebook score one game from two phones (two browser contexts)."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Membership, Player, Round
from scorekeeper.rules.game import GameRules
from scorekeeper.services import scorebooks
from tests.browser.conftest import PHONE, close_context, screenshot
from tests.browser.test_csp import log_in
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def family(browser, live_server):
    ann = UserFactory(email="ann@family.example")
    bob = UserFactory(email="bob@family.example")
    viv = UserFactory(email="viv@family.example")
    book = scorebooks.create(by=ann, name="Family")
    Membership.objects.create(scorebook=book, user=bob, role="scorer", last_used_at=timezone.now())
    Membership.objects.create(scorebook=book, user=viv, role="viewer", last_used_at=timezone.now())
    players = [Player.objects.create(scorebook=book, name=name).pk for name in ("Gran", "Kid", "Dad")]
    game = services.create_game(by=ann, scorebook=book, players=players, rules=GameRules(tile_set=6), name="Sunday")
    phones = {}
    for user in (ann, bob, viv):
        context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(10_000)
        log_in(page, user.email)
        phones[user.email.split("@")[0]] = page
    yield game, phones
    for page in phones.values():
        close_context(page.context)


def fill(page, values):
    for name, pips in values.items():
        row = page.locator(f"fieldset[data-player='{name}']")
        if pips == "out":
            row.locator("input.went_out").check()
        else:
            row.locator("input.pips").fill(str(pips))


def totals(page):
    return page.locator("#sheet tfoot td").all_inner_texts()


def test_two_phones_score_one_game_and_a_clash_loses_nothing(family):
    game, phones = family
    ann, bob = phones["ann"], phones["bob"]
    for page in (ann, bob):
        page.goto(f"/games/{game.pk}/rounds/new/")
    fill(ann, {"Gran": "out", "Kid": 3, "Dad": 4})
    fill(bob, {"Gran": "out", "Kid": 5, "Dad": 4})  # Bob heard 5
    ann.locator("#save-round").click()
    expect(ann.locator(".messages")).to_contain_text("Recorded round 1")
    # Bob's form, a hand typed in it, learns it before Save and goes straight to the comparison:
    # both rounds show, his numbers kept, nothing offers to move his hand to another double.
    clash = bob.locator("#clash")
    expect(clash).to_contain_text("Ann's phone saved round 1 (6-6) a moment ago")
    expect(bob.locator("fieldset[data-player='Kid'] .theirs")).to_contain_text("saved: 3 pips")
    expect(bob.locator("fieldset[data-player='Kid'] input.pips")).to_have_value("5")  # his entry is kept
    screenshot(bob, "17-two-phones-clash")
    assert Round.objects.count() == 1 and [e.pips for e in Round.objects.get().entries.order_by("position")] == [
        0,
        3,
        4,
    ]

    # Kid says 5 was right: Bob replaces round 1 with his numbers; Ann's sheet shows the correction.
    bob.get_by_role("button", name="Replace round 1 with mine").click()
    expect(bob.locator(".messages")).to_contain_text("Corrected round 1")
    ann.goto(f"/games/{game.pk}/")
    assert totals(ann) == totals(bob) == ["0", "5", "4"]
    expect(ann.locator("#sheet tbody tr").first.locator("small.by")).to_have_text("Ann · ✎ Bob")

    # The next round from Bob's phone; Ann sees it; the viewer sees the same sheet and no controls.
    bob.locator("#enter-round").click()
    fill(bob, {"Gran": 2, "Kid": "out", "Dad": 6})
    bob.locator("#save-round").click()
    expect(bob.locator(".messages")).to_contain_text("Recorded round 2")
    ann.reload()
    viv = phones["viv"]
    viv.goto(f"/games/{game.pk}/")
    assert totals(ann) == totals(bob) == totals(viv) == ["2", "5", "10"]
    expect(viv.locator("#enter-round")).to_have_count(0)
    expect(viv.locator("#undo")).to_have_count(0)
    screenshot(viv, "18-viewer-sheet")
    assert viv.goto(f"/games/{game.pk}/rounds/new/").status == 403


def test_round_1_entered_on_two_phones_with_two_doubles_is_saved_once_and_keep_theirs_changes_nothing(family):
    """The attack's N4 from two pages: Ann saves round 1 with 6-6 while Bob's page has round 1 typed
    with 5-5 (6-6 skipped). Bob's 5-5 is still open after Ann's round, so once it went in as round 2;
    his form says it is round 1, so he gets the comparison instead, and Keep theirs keeps Ann's."""
    game, phones = family
    ann, bob = phones["ann"], phones["bob"]
    for page in (ann, bob):
        page.goto(f"/games/{game.pk}/rounds/new/")
    expect(bob.locator("#round-form input[name=number]")).to_have_value("1")
    bob.locator("#id_starting_double").select_option("5")
    fill(bob, {"Gran": 9, "Kid": "out", "Dad": 9})
    fill(ann, {"Gran": "out", "Kid": 10, "Dad": 10})
    ann.locator("#save-round").click()
    expect(ann.locator(".messages")).to_contain_text("Recorded round 1")
    # His page hears Ann's round while his hand for round 1 is typed, and sends it as it is (its
    # number and version) by itself: a tap on Save here would race that post.
    clash = bob.locator("#clash")
    expect(clash).to_contain_text("Ann's phone saved round 1 (6-6) a moment ago")
    expect(bob.locator("fieldset[data-player='Gran'] .theirs")).to_contain_text("went out")
    expect(bob.locator("fieldset[data-player='Gran'] input.pips")).to_have_value("9")  # his entry is kept
    expect(bob.get_by_role("button", name="Replace round 1 with mine")).to_be_visible()
    screenshot(bob, "17b-two-phones-round-taken")
    assert list(Round.objects.values_list("number", "starting_double")) == [(1, 6)]

    bob.get_by_role("link", name="Keep theirs").click()
    bob.wait_for_url(f"**/games/{game.pk}/")
    assert totals(bob) == ["0", "10", "10"]
    assert list(Round.objects.values_list("number", "starting_double")) == [(1, 6)]
    assert [entry.pips for entry in Round.objects.get().entries.order_by("position")] == [0, 10, 10]


def test_an_invite_link_brings_a_new_person_in_through_sign_up(family, browser, live_server):
    game, phones = family
    ann = phones["ann"]
    book = game.scorebook
    ann.goto(f"/scorebooks/{book.pk}/")
    ann.get_by_text("Viewer: reads only").click()
    ann.get_by_role("button", name="Make an invite link").click()
    link = ann.locator("#invite-url").input_value()
    expect(ann.locator("#invite-qr")).to_be_visible()
    ann.wait_for_function("() => document.getElementById('invite-qr').naturalWidth > 0")  # the SVG loaded and drew
    screenshot(ann, "19-invite")
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True)
    newcomer = context.new_page()
    newcomer.goto(link)  # signed out: the invite says what it is, and signing up comes back to it
    expect(newcomer.locator("main")).to_contain_text("ann@family.example invites you to keep score together")
    newcomer.get_by_role("link", name="Sign up and join").click()
    newcomer.wait_for_url(lambda url: "/accounts/signup/" in url and "next=" in url)
    newcomer.locator("#id_email").fill("newcomer@family.example")
    newcomer.locator("#id_password1").fill("table-talk-42")
    newcomer.locator("#id_password2").fill("table-talk-42")
    newcomer.locator("main form button[type=submit]").last.click()
    # A member at once, no second "Join" tap: home in the scorebook, saying so.
    newcomer.wait_for_url(f"{live_server.url}/")
    expect(newcomer.locator(".messages")).to_contain_text("You joined Family")
    expect(newcomer.get_by_role("button", name="Join Family")).to_have_count(0)
    screenshot(newcomer, "19-invite-signed-up-and-joined")
    expect(newcomer.locator("#current-scorebook")).to_have_text("Family")
    assert Membership.objects.get(scorebook=book, user__email="newcomer@family.example").role == "viewer"
    context.close()
