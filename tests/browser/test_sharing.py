"""Sharing that lands, on a 390x844 phone in Chromium: the live link and the invite answer where the
tap was (their QR code on screen), with Copy and the phone's share sheet; an invite opened signed
out says what it is and sign-up comes back to it; a finished game becomes a picture for a chat."""

import io
import random
import re
import shutil

import pytest
from django.utils import timezone
from django.utils.formats import date_format
from PIL import Image
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.demo import play_game
from scorekeeper.models import LiveLink, Membership
from scorekeeper.rules.game import GameRules
from scorekeeper.services import scorebooks
from tests.browser.conftest import PHONE, SCREENSHOTS, screenshot
from tests.browser.test_csp import log_in, watch_csp
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Maria Guadalupe Fernandez", "José", "Ana", "Bea")

# A share sheet where Chromium on Linux has none: records what it was handed (files by name and type).
FAKE_SHARE = """
window.__shared = [];
navigator.share = (data) => {
  window.__shared.push({title: data.title, url: data.url,
                        files: (data.files || []).map((f) => ({name: f.name, type: f.type, size: f.size}))});
  return Promise.resolve();
};
"""
# Every word drawn on a canvas, to read what the picture holds.
DRAWN_WORDS = """
window.__drawn = [];
const fill = CanvasRenderingContext2D.prototype.fillText;
CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
  window.__drawn.push(String(text));
  return fill.call(this, text, ...rest);
};
"""


def played(user, rounds: int | None, seed: int):
    ids = [PlayerFactory(owner=user, name=name).pk for name in NAMES]
    rules = GameRules(tile_set=12)
    played = play_game(rules, ids, random.Random(seed))
    return services.import_game(by=user, players=ids, rules=rules, rounds=played[:rounds] if rounds else played)


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_the_live_link_lands_where_the_tap_was_with_its_qr_code_copy_and_share(phone, browser, live_server):
    user = UserFactory()
    game = played(user, 8, seed=5)  # eight rounds of four players: the sharing section is far down the page
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    violations = watch_csp(phone)
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/")
    phone.locator("#make-live").scroll_into_view_if_needed()
    phone.locator("#make-live").click()
    expect(phone.locator("#live-qr")).to_be_visible()
    phone.wait_for_function("() => document.getElementById('live-qr').naturalWidth > 0")
    phone.wait_for_function("() => document.getElementById('live-qr').getBoundingClientRect().top < 844")
    assert in_view(phone, "#live-qr"), phone.locator("#live-qr").bounding_box()  # the answer is on screen
    assert phone.evaluate("window.scrollY") > 800  # not the top of the page
    url = phone.locator("#live-url").input_value()
    assert url == f"{live_server.url}/live/{LiveLink.objects.get().token}/"
    expect(phone.locator("#live-url-copy")).to_be_visible()
    expect(phone.locator("#share-live")).to_be_hidden()  # no share sheet in this browser: no button
    # The screen as the thumb sees it (the caret left as it is: Playwright hiding it leaves a style attribute).
    phone.screenshot(path=SCREENSHOTS / "60-live-link-lands.png", caret="initial")

    phone.locator("#live-url-copy").click()
    expect(phone.locator("#live-url-copied")).to_have_text("Copied: paste it in a chat.")
    assert phone.evaluate("navigator.clipboard.readText()") == url

    # Undo sits with the rounds, above the sharing section; stopping the link lands back here too.
    assert phone.locator("#undo").bounding_box()["y"] < phone.locator("#live-share").bounding_box()["y"]
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Stop sharing").click()
    expect(phone.locator("#make-live")).to_be_visible()
    assert in_view(phone, "#make-live")
    assert violations == []


def test_a_phone_with_a_share_sheet_hands_it_the_live_link(phone, live_server):
    user = UserFactory()
    game = played(user, 3, seed=6)
    phone.add_init_script(FAKE_SHARE)
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/")
    phone.locator("#make-live").click()
    share = phone.locator("#share-live")
    expect(share).to_be_visible()
    assert in_view(phone, "#live-qr")
    screenshot(phone, "61-live-link-share-sheet")
    share.click()
    shared = phone.evaluate("window.__shared")
    assert shared == [{"title": str(game), "url": phone.locator("#live-url").input_value(), "files": []}]


def test_an_invite_lands_where_the_tap_was_with_its_qr_code_copy_and_share(phone, live_server):
    ann = UserFactory(email="ann@family.example")
    book = scorebooks.create(by=ann, name="Family")
    for n in range(5):  # members enough to push the invite below the first screen
        scorebooks.accept(code=scorebooks.invite(book=book, role="owner", by=ann, invite_role="scorer").code,
                          user=UserFactory(email=f"cousin{n}@family.example"))  # fmt: skip
    phone.add_init_script(FAKE_SHARE)
    log_in(phone, ann.email)
    phone.goto(f"/scorebooks/{book.pk}/")
    phone.get_by_text("Viewer: reads only").click()
    phone.get_by_role("button", name="Make an invite link").click()
    expect(phone.locator("#invite-qr")).to_be_visible()
    phone.wait_for_function("() => document.getElementById('invite-qr').naturalWidth > 0")
    assert in_view(phone, "#invite-qr"), phone.locator("#invite-qr").bounding_box()
    expect(phone.locator("#invite-url-copy")).to_be_visible()
    expect(phone.locator("#share-invite")).to_be_visible()
    phone.screenshot(path=SCREENSHOTS / "62-invite-lands.png", caret="initial")
    phone.locator("#share-invite").click()
    (shared,) = phone.evaluate("window.__shared")
    assert shared["url"] == phone.locator("#invite-url").input_value() and shared["title"] == "Join Family"
    # Ann is the only owner: no Leave button that could only refuse, a line that says why instead.
    expect(phone.locator("#members")).to_contain_text("The only owner: to leave, make someone else an owner first.")
    expect(phone.locator("#members").get_by_role("button", name="Leave")).to_have_count(0)
    screenshot(phone, "62b-scorebook-page")


def test_an_invite_opened_signed_out_says_who_invites_to_what_and_sign_up_joins_at_once(browser, live_server):
    ann = UserFactory(email="ann@family.example")
    book = scorebooks.create(by=ann, name="Family")
    code = scorebooks.invite(book=book, role="owner", by=ann, invite_role="scorer").code
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True)
    newcomer = context.new_page()
    violations = watch_csp(newcomer)
    newcomer.goto(f"/invites/{code}/")
    expect(newcomer.get_by_role("heading", name="Join Family")).to_be_visible()
    expect(newcomer.locator("main")).to_contain_text("ann@family.example invites you to keep score together, as Scorer")
    screenshot(newcomer, "63-invite-signed-out")
    newcomer.get_by_role("link", name="Sign up and join").click()
    newcomer.locator("#id_email").fill("bea@family.example")
    newcomer.locator("#id_password1").fill("table-talk-42")
    newcomer.locator("#id_password2").fill("table-talk-42")
    newcomer.locator("main form button[type=submit]").last.click()
    # Signed up from the invite, she is in at once: no second tap on "Join".
    expect(newcomer.locator(".messages")).to_contain_text("You joined Family")
    expect(newcomer.get_by_role("button", name="Join Family")).to_have_count(0)
    assert Membership.objects.get(scorebook=book, user__email="bea@family.example").role == "scorer"
    newcomer.goto("/scorebooks/")  # her own and Ann's, told apart
    expect(newcomer.locator("main")).to_contain_text("Bea's scorebook")
    expect(newcomer.locator("main")).to_contain_text("Family")
    screenshot(newcomer, "64-invitee-scorebooks")
    assert violations == []
    context.close()


def test_a_finished_game_becomes_a_png_of_its_card_for_a_chat(phone, live_server):
    user = UserFactory()
    game = played(user, None, seed=7)
    phone.add_init_script(DRAWN_WORDS)
    violations = watch_csp(phone)
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/")
    button = phone.get_by_role("button", name="Picture for the chat")
    expect(button).to_be_visible()
    screenshot(phone, "65-game-over-card")
    with phone.expect_download() as download:
        button.click()
    path = download.value.path()
    assert download.value.suggested_filename.startswith("chicken-foot-")
    assert download.value.suggested_filename.endswith(f"-{game.pk}.png")
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "PNG" and picture.width == 1080 and picture.height > 700
    assert len(picture.convert("RGB").getcolors(1 << 20)) > 50  # drawn text, not a blank card
    shutil.copy(path, SCREENSHOTS / "66-game-picture.png")  # looked at, as a chat would show it
    drawn = phone.evaluate("window.__drawn")
    # Each row is drawn as its place, its total, its name: the card's final list, in its order.
    rows = phone.locator("#game-top .final li").all()
    places = []
    for row in rows:
        place, name, total = (row.locator(part).inner_text() for part in (".place", ".name", ".total"))
        at = drawn.index(name)
        assert drawn[at - 2 : at] == [place, total], (name, drawn)
        places.append(int(place.lstrip("=")))
    assert len(rows) == len(NAMES) and places[0] == 1 and places == sorted(places)
    assert str(game) in drawn
    assert violations == []


def test_the_live_link_holder_gets_the_picture_too_and_a_phone_with_a_share_sheet_shares_it_as_a_file(
    browser, live_server
):
    from scorekeeper.services import live as links

    user = UserFactory()
    game = played(user, None, seed=8)
    token = links.share(game=game, by=user).token
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.add_init_script(FAKE_SHARE + "navigator.canShare = (data) => Boolean(data.files);")
    page.goto(f"/live/{token}/")
    page.get_by_role("button", name="Picture for the chat").click()
    page.wait_for_function("() => window.__shared.length === 1")
    (shared,) = page.evaluate("window.__shared")
    assert shared["title"] == str(game)
    assert shared["files"][0]["type"] == "image/png" and shared["files"][0]["name"].endswith(f"-{game.pk}.png")
    assert shared["files"][0]["size"] > 10_000
    context.close()


def test_the_picture_of_a_game_whose_table_changed_keeps_each_seats_note_and_the_apps_day(phone, live_server):
    from tests.seat_changes import changing_table

    user = UserFactory()
    game, _ids = changing_table(user)
    phone.add_init_script(DRAWN_WORDS)
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/")
    with phone.expect_download() as download:
        phone.get_by_role("button", name="Picture for the chat").click()
    shutil.copy(download.value.path(), SCREENSHOTS / "67-game-picture-seat-notes.png")
    drawn = phone.evaluate("window.__drawn")
    # Fay took over Ben's seat after round 2, Eve joined after round 1 with Cy's 10, Cy left after round 3.
    # A ranked seat's note line goes on with its rating move ("for Ben from round 3 · Rating 0.3 → 2.3, +2.0").
    for note in ("for Ben from round 3", "joined after round 1: 10", "left after round 3"):
        assert any(line == note or line.startswith(f"{note} · ") for line in drawn), (note, drawn)
    assert any(re.search(r"Rating -?\d+\.\d → -?\d+\.\d, [+-]\d+\.\d$", line) for line in drawn), drawn
    day = date_format(timezone.localtime(game.finished_at), "D j M")
    assert f"Game over · {day}" in drawn
