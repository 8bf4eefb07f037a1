"""Signed-in members follow their game on their own phones (two browser contexts at 390 px): each
sees the other's round, correction and undo within 3 s without reloading, with a short notice of
who did what (one line, clear of the title and the status, however many come); a round form learns
before Save that its double was taken, or that an undo opened a double again (a form left as it
was drawn moves to it; one whose double was chosen says what saving it skips), just above Save,
which never moves; a sheet kept for offline use never says "live" and catches up as soon as the
network is back."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scorekeeper import selectors, services
from scorekeeper.models import Game, Membership, Player, Round
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import scorebooks
from tests.browser.conftest import PHONE, close_context, screenshot
from tests.browser.test_csp import log_in
from tests.browser.test_offline import sheet_kept
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SOON = 3000  # ms: "within 3 seconds of any change by anyone"


@pytest.fixture
def table(browser, live_server):
    """Ann owns the scorebook and Bea keeps score in it; a double-6 game for José, Ana and Eva; one
    phone each, signed in."""
    ann = UserFactory(email="ann@table.example", first_name="Ann")
    bea = UserFactory(email="bea@table.example", first_name="Bea")
    book = scorebooks.create(by=ann, name="Friday")
    Membership.objects.create(scorebook=book, user=bea, role="scorer", last_used_at=timezone.now())
    players = [Player.objects.create(scorebook=book, name=name).pk for name in ("José", "Ana", "Eva")]
    game = services.create_game(by=ann, scorebook=book, players=players, rules=GameRules(tile_set=6), name="Friday")
    phones = {}
    for user in (ann, bea):
        context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(10_000)
        log_in(page, user.email)
        phones[user.first_name] = page
    yield game, players, phones
    for page in phones.values():
        close_context(page.context)


def open_sheet(page, game):
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#follow-status")).to_have_text("live")
    page.evaluate("window.stayed = true")  # gone if the page is ever loaded again


def still_the_same_page(page):
    assert page.evaluate("window.stayed === true"), "the page was reloaded"


def totals(page):
    return page.locator("#sheet tfoot td")


def fill(page, values):
    for name, pips in values.items():
        row = page.locator(f"fieldset[data-player='{name}']")
        if pips == "out":
            row.locator("input.went_out").check()
        else:
            row.locator("input.pips").fill(str(pips))


def record_on(page, game, values):
    page.goto(f"/games/{game.pk}/")
    page.locator("#enter-round").click()
    expect(page.locator("#round-form")).to_be_visible()
    fill(page, values)
    page.locator("#save-round").click()
    expect(page.locator(".messages")).to_contain_text("Recorded round")


def correct_on(page, game, number, values):
    page.goto(f"/games/{game.pk}/")
    page.get_by_label(f"Edit round {number}").click()
    expect(page.locator("#round-form")).to_be_visible()
    fill(page, values)
    page.locator("#save-round").click()
    expect(page.locator(".messages")).to_contain_text(f"Corrected round {number}")


def undo_on(page, game, number):
    page.goto(f"/games/{game.pk}/")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name=f"Undo round {number}").click()
    expect(page.locator(".messages")).to_contain_text(f"Undid round {number}")


def notice(page):
    return page.locator("#notices .notice-text")


def note(page):
    """What the round form says about its double, just above Save."""
    return page.locator("#double-note")


def boxes(page, *selectors):
    return [page.locator(selector).bounding_box() for selector in selectors]


def overlap(a, b) -> bool:
    across = a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
    return across and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def test_each_phone_sees_the_others_round_correction_and_undo_within_3_seconds(table):
    game, _, phones = table
    ann, bea = phones["Ann"], phones["Bea"]
    open_sheet(ann, game)

    record_on(bea, game, {"José": "out", "Ana": 3, "Eva": 9})
    expect(totals(ann)).to_have_text(["0", "3", "9"], timeout=SOON)
    expect(ann.locator("#enter-round")).to_have_text("Enter round 5-5")
    expect(ann.locator(".leader")).to_contain_text("José with 0")
    expect(notice(ann)).to_have_text(["Bea recorded round 1 (6-6)"])
    screenshot(ann, "60-member-sees-a-round-from-another-phone")
    still_the_same_page(ann)
    expect(notice(bea)).to_have_count(0)  # her own round: no notice on her phone

    open_sheet(bea, game)
    correct_on(ann, game, 1, {"Eva": 15})
    expect(totals(bea)).to_have_text(["0", "3", "15"], timeout=SOON)
    expect(notice(bea)).to_contain_text(["Ann changed round 1: Eva 9 → 15"])
    expect(bea.locator("#corrections")).to_contain_text("Round 1 corrected by Ann")
    screenshot(bea, "61-member-sees-a-correction-from-another-phone")
    still_the_same_page(bea)

    open_sheet(ann, game)
    record_on(bea, game, {"José": 4, "Ana": "out", "Eva": 2})
    expect(totals(ann)).to_have_text(["4", "3", "17"], timeout=SOON)
    expect(ann.locator("#undo")).to_have_text("Undo round 2")
    open_sheet(ann, game)
    undo_on(bea, game, 2)
    expect(totals(ann)).to_have_text(["0", "3", "15"], timeout=SOON)
    expect(notice(ann).last).to_have_text("Bea undid round 2")
    expect(ann.locator("#enter-round")).to_have_text("Enter round 5-5")
    still_the_same_page(ann)

    open_sheet(bea, game)
    undo_on(ann, game, 1)
    expect(totals(bea)).to_have_text(["0", "0", "0"], timeout=SOON)
    expect(notice(bea).last).to_have_text("Ann undid round 1")
    expect(bea.locator("#enter-round")).to_have_text("Enter round 6-6")
    still_the_same_page(bea)

    # Dismissed with one tap; the buttons under it never moved.
    bea.locator("#notices .notice").last.get_by_role("button", name="Dismiss").click()
    expect(notice(bea)).to_have_count(0)


def test_a_hand_typed_for_a_double_another_phone_saved_goes_straight_to_the_comparison(table):
    """Never "Use 5-5": one tap would save the same hand again as a bogus round of its own."""
    game, _, phones = table
    ann, bea = phones["Ann"], phones["Bea"]
    ann.goto(f"/games/{game.pk}/rounds/new/")
    expect(ann.locator("#id_starting_double")).to_have_value("6")
    fill(ann, {"José": 7, "Ana": "out"})

    record_on(bea, game, {"José": "out", "Ana": 3, "Eva": 9})  # Bea was quicker with 6-6
    clash = ann.locator("#clash")
    expect(clash).to_contain_text("Bea's phone saved round 1 (6-6) a moment ago.", timeout=SOON)
    expect(ann.get_by_role("button", name="Replace round 1 with mine")).to_be_visible()
    expect(ann.get_by_role("link", name="Keep theirs")).to_be_visible()
    expect(ann.get_by_role("button", name="Use 5-5")).to_have_count(0)
    # What was typed stays beside theirs; the players whose numbers differ are marked.
    expect(ann.locator("fieldset[data-player='José'] input.pips")).to_have_value("7")
    expect(ann.locator("fieldset[data-player='Ana'] input.went_out")).to_be_checked()
    expect(ann.locator("fieldset.differs")).to_have_count(3)  # José and Ana, and Eva left empty
    expect(ann.locator("fieldset[data-player='José'] .theirs.differs")).to_contain_text("saved: 0 pips, went out")
    screenshot(ann, "62-round-form-double-taken-comparison")

    ann.get_by_role("link", name="Keep theirs").click()
    expect(ann.locator("#enter-round")).to_have_text("Enter round 5-5")
    assert list(Round.objects.filter(game=game).values_list("starting_double", flat=True)) == [6]


def test_an_empty_form_whose_double_another_phone_saved_becomes_the_next_rounds(table):
    game, _, phones = table
    ann, bea = phones["Ann"], phones["Bea"]
    ann.goto(f"/games/{game.pk}/rounds/new/")
    expect(ann.locator("#id_starting_double")).to_have_value("6")
    save = ann.locator("#save-round").bounding_box()

    record_on(bea, game, {"José": "out", "Ana": 3, "Eva": 9})
    expect(note(ann)).to_contain_text(
        "Bea saved round 1 with 6-6 a moment ago. This form is now for round 2 (5-5).", timeout=SOON
    )
    expect(ann.locator("#id_starting_double")).to_have_value("5")
    expect(ann.locator("#round-title")).to_have_text("Round 2")
    assert ann.locator("#save-round").bounding_box() == save  # nothing moved under the thumb
    fill(ann, {"José": "out", "Ana": 4, "Eva": 2})
    ann.locator("#save-round").click()
    expect(ann.locator(".messages")).to_contain_text("Recorded round 2")
    assert list(Round.objects.filter(game=game).order_by("number").values_list("starting_double", flat=True)) == [6, 5]


def member(game, role):
    return Membership.objects.get(scorebook=game.scorebook, role=role).user


def record_as(user, game, players, double):
    """A round saved on another phone (José out, Ana 3, Eva 9)."""
    entries = [EntryInput(player=players[0], pips=0, went_out=True), EntryInput(player=players[1], pips=3),
               EntryInput(player=players[2], pips=9)]  # fmt: skip
    return services.record_round(game=Game.objects.get(pk=game.pk), starting_double=double, entries=entries, by=user)


def open_round_form(page, game):
    page.goto(f"/games/{game.pk}/rounds/new/")
    expect(page.locator("html")).to_have_attribute("data-js", "ready")


def rounds_of(game):
    return list(Round.objects.filter(game=game).order_by("number").values_list("number", "starting_double"))


def test_an_undo_elsewhere_moves_an_untouched_round_form_to_the_double_it_opened_again(table):
    game, players, phones = table
    ann, bea = phones["Ann"], phones["Bea"]
    record_as(member(game, "owner"), game, players, 6)
    open_round_form(bea, game)
    expect(bea.locator("#round-title")).to_have_text("Round 2")
    expect(bea.locator("#id_starting_double")).to_have_value("5")
    fill(bea, {"José": 7, "Ana": "out"})
    save = boxes(bea, "#save-round")

    undo_on(ann, game, 1)  # 6-6 is open again
    expect(note(bea)).to_have_text("Ann undid round 1: this round is now 6-6.", timeout=SOON)
    expect(bea.locator("#id_starting_double")).to_have_value("6")
    expect(bea.locator("#round-title")).to_have_text("Round 1")
    expect(notice(bea)).to_have_text(["Ann undid round 1"])
    expect(note(bea)).to_be_in_viewport()
    expect(bea.locator("fieldset[data-player='José'] input.pips")).to_have_value("7")  # what was typed stays
    assert boxes(bea, "#save-round") == save
    screenshot(bea, "64-round-form-moved-by-an-undo")

    fill(bea, {"Eva": 4})
    bea.locator("#save-round").click()
    expect(bea.locator(".messages")).to_contain_text("Recorded round 1")
    assert rounds_of(game) == [(1, 6)]


def test_a_round_form_whose_double_was_chosen_keeps_it_and_says_before_save_what_it_now_skips(table):
    game, players, phones = table
    ann, bea = phones["Ann"], phones["Bea"]
    owner = member(game, "owner")
    first = record_as(owner, game, players, 6)
    record_as(owner, game, players, 5)
    open_round_form(bea, game)
    expect(bea.locator("#id_starting_double")).to_have_value("4")
    bea.locator("#id_starting_double").select_option("3")  # nobody held the 4-4
    fill(bea, {"José": 7, "Ana": "out"})
    save = boxes(bea, "#save-round")

    # A change that means nothing for this round's double: told in the space kept above Save.
    entries = [EntryInput(player=players[0], pips=0, went_out=True), EntryInput(player=players[1], pips=3),
               EntryInput(player=players[2], pips=12)]  # fmt: skip
    services.correct_round(round=first, entries=entries, by=owner)
    expect(bea.locator("#double-note #notices .notice-text")).to_have_text(
        "Ann changed round 1: Eva 9 → 12", timeout=SOON
    )
    bar = bea.locator("#notices").bounding_box()
    assert not any(overlap(bar, box) for box in boxes(bea, "#save-round", "#round-title", "#id_starting_double"))
    expect(bea.locator("#notices")).to_be_in_viewport()
    assert boxes(bea, "#save-round") == save
    screenshot(bea, "65a-round-form-notice-above-save")

    undo_on(ann, game, 2)  # 5-5 is open again
    warning = note(bea)
    expect(warning).to_contain_text("5-5 is open again: saving 3-3 skips it.", timeout=SOON)
    expect(bea.locator("#id_starting_double")).to_have_value("3")  # the choice stays
    expect(bea.locator("#round-title")).to_have_text("Round 2")
    expect(warning).to_be_in_viewport()
    expect(notice(bea)).to_have_text(["Ann undid round 2"])  # floating now, clear of the warning and Save
    assert not any(
        overlap(bea.locator("#notices").bounding_box(), box) for box in boxes(bea, "#save-round", "#double-note")
    )
    assert boxes(bea, "#save-round") == save
    screenshot(bea, "65-round-form-chosen-double-skips-a-reopened-one")

    warning.get_by_role("button", name="Use 5-5").click()
    expect(warning).to_have_attribute("data-kind", "")
    expect(bea.locator("#id_starting_double")).to_have_value("5")
    fill(bea, {"Eva": 4})
    bea.locator("#save-round").click()
    expect(bea.locator(".messages")).to_contain_text("Recorded round 2")
    assert rounds_of(game) == [(1, 6), (2, 5)]


def test_save_shows_a_change_not_drawn_yet_instead_of_saving_over_it(table):
    """The undo lands between two polls (the page's clock stands still: no poll runs by itself):
    Save asks first, draws the change and sends nothing; Save again saves the round it now shows."""
    game, players, phones = table
    bea = phones["Bea"]
    owner = member(game, "owner")
    record_as(owner, game, players, 6)
    bea.clock.install()
    open_round_form(bea, game)
    fill(bea, {"José": 7, "Ana": "out", "Eva": 4})
    services.undo_last_round(game=Game.objects.get(pk=game.pk), number=1, by=owner)
    expect(bea.locator("#id_starting_double")).to_have_value("5")  # not drawn yet

    bea.locator("#save-round").click()
    expect(note(bea)).to_have_text("Ann undid round 1: this round is now 6-6.")
    expect(bea.locator("#id_starting_double")).to_have_value("6")
    assert rounds_of(game) == []
    bea.locator("#save-round").click()
    expect(bea.locator(".messages")).to_contain_text("Recorded round 1")
    assert rounds_of(game) == [(1, 6)]


def test_a_spanish_round_form_whose_double_was_taken_compares_in_spanish(table):
    game, players, phones = table
    bea = phones["Bea"]
    bea.context.add_cookies([{"name": "language", "value": "es", "url": bea.url}])
    open_round_form(bea, game)
    fill(bea, {"José": 7})

    record_as(member(game, "owner"), game, players, 6)
    # What this checks is the language (the 3 seconds: the test above): room for a busy machine.
    expect(bea.locator("#clash")).to_contain_text("El teléfono de Ann guardó la ronda 1 (6-6)", timeout=10_000)
    expect(bea.locator("fieldset[data-player='José'] input.pips")).to_have_value("7")
    expect(bea.locator("fieldset[data-player='José'].differs")).to_be_visible()
    screenshot(bea, "66-round-form-double-taken-spanish")


def test_stacked_notices_collapse_into_one_line_clear_of_the_title_and_the_status(table):
    game, players, phones = table
    ann = phones["Ann"]
    open_sheet(ann, game)
    bea = member(game, "scorer")
    round_ = record_as(bea, game, players, 6)
    entries = [EntryInput(player=players[0], pips=0, went_out=True), EntryInput(player=players[1], pips=3),
               EntryInput(player=players[2], pips=12)]  # fmt: skip
    services.correct_round(round=round_, entries=entries, by=bea)
    record_as(bea, game, players, 5)

    expect(notice(ann)).to_have_text(["Bea recorded round 2 (5-5)"], timeout=SOON)
    expect(ann.locator("#notices .notice-more")).to_have_text("+2 more")
    bar = ann.locator("#notices").bounding_box()
    for part in ("header.topbar", "#game-title", "#follow-status", "#game-summary", "#enter-round"):
        # A part the last redraw is replacing has no box for a moment: its box once it is back.
        expect(ann.locator(part)).to_be_visible()
        assert not overlap(bar, ann.locator(part).bounding_box() or ann.locator(part).bounding_box()), part
    close = ann.locator("#notices .notice-close").bounding_box()
    assert close["width"] >= 44 and close["height"] >= 44
    screenshot(ann, "67-stacked-notices-one-line")

    ann.locator("#notices .notice-open").click()
    expect(ann.locator("#notices .notice-earlier li")).to_have_text(
        ["Bea recorded round 1 (6-6)", "Bea changed round 1: Eva 9 → 12"]
    )
    screenshot(ann, "68-stacked-notices-opened")
    ann.locator("#notices").get_by_role("button", name="Dismiss").click()
    expect(ann.locator("#notices")).to_have_count(0)


def test_a_members_home_page_follows_the_games_in_progress(table):
    game, players, phones = table
    ann = phones["Ann"]
    ann.goto("/")
    card = ann.locator("#home-games .card", has_text="Friday")
    expect(card).to_contain_text("José 0 · Ana 0 · Eva 0")
    ann.evaluate("window.stayed = true")
    bea = Membership.objects.get(scorebook=game.scorebook, role="scorer").user
    entries = [EntryInput(player=players[0], pips=0, went_out=True), EntryInput(player=players[1], pips=8),
               EntryInput(player=players[2], pips=5)]  # fmt: skip
    services.record_round(game=Game.objects.get(pk=game.pk), starting_double=6, entries=entries, by=bea)
    expect(card).to_contain_text("José 0 · Ana 8 · Eva 5", timeout=SOON)
    services.create_game(by=bea, scorebook=game.scorebook, players=players, rules=GameRules(tile_set=6), name="Late")
    expect(ann.locator("#home-games .card", has_text="Late")).to_be_visible(timeout=SOON)
    still_the_same_page(ann)


def test_a_sheet_whose_game_went_to_the_trash_says_it_no_longer_updates(table):
    game, _, phones = table
    ann = phones["Ann"]
    open_sheet(ann, game)
    services.delete_game(game=Game.objects.get(pk=game.pk), by=None)
    expect(ann.locator("#follow-status")).to_have_text("Not updating: reload the page", timeout=SOON)
    assert ann.reload().status == 404


def test_a_phone_in_spanish_is_told_in_spanish(table):
    game, _, phones = table
    bea = phones["Bea"]
    bea.context.add_cookies([{"name": "language", "value": "es", "url": bea.url}])
    bea.goto(f"/games/{game.pk}/")
    expect(bea.locator("#follow-status")).to_have_text("en vivo")
    record_on(phones["Ann"], game, {"José": "out", "Ana": 3, "Eva": 9})
    expect(notice(bea)).to_have_text(["Ann anotó la ronda 1 (6-6)"], timeout=SOON)
    expect(bea.locator("#enter-round")).to_have_text("Anotar la ronda 5-5")
    expect(bea.locator(".notice-close")).to_have_attribute("aria-label", "Cerrar")


def test_a_kept_sheet_opened_offline_is_not_live_and_catches_up_when_back_online(phone):
    ann = UserFactory(email="ann@kept.example", first_name="Ann")
    book = selectors.current_scorebook(ann)
    players = [Player.objects.create(scorebook=book, name=name).pk for name in ("José", "Ana", "Eva")]
    game = services.create_game(by=ann, scorebook=book, players=players, rules=GameRules(tile_set=6), name="Kept")
    sheet_kept(phone, ann, game)
    phone.context.set_offline(True)
    phone.reload()
    expect(phone.locator("#app-status")).to_contain_text("Offline: last updated")
    status = phone.locator("#follow-status")
    expect(status).to_have_text("offline")
    screenshot(phone, "63-kept-sheet-offline-not-live")

    entries = [EntryInput(player=players[0], pips=0, went_out=True), EntryInput(player=players[1], pips=8),
               EntryInput(player=players[2], pips=5)]  # fmt: skip
    services.record_round(game=Game.objects.get(pk=game.pk), starting_double=6, entries=entries, by=None)
    phone.evaluate("window.stayed = true")
    phone.context.set_offline(False)
    expect(totals(phone)).to_have_text(["0", "8", "5"], timeout=SOON)
    expect(status).to_have_text("live")
    expect(phone.locator("#enter-round")).to_have_text("Enter round 5-5")
    expect(phone.locator("#app-status")).not_to_contain_text("last updated")
    still_the_same_page(phone)


def test_a_scorer_made_a_viewer_loses_every_scorer_control_of_the_open_sheet_within_3_seconds(table):
    game, players, phones = table
    ann_user, bea = member(game, "owner"), member(game, "scorer")
    record_as(ann_user, game, players, 6)
    page = phones["Bea"]
    open_sheet(page, game)
    expect(page.get_by_role("button", name="Undo round 1")).to_be_visible()
    scorebooks.set_role(book=game.scorebook, role="owner", user_id=bea.pk, new_role="viewer")
    expect(page.get_by_role("button", name="Undo round 1")).to_have_count(0, timeout=SOON)
    expect(page.locator("#enter-round")).to_have_count(0)
    screenshot(page, "members-follow-demoted")
