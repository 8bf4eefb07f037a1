"""Seats that change during a game, at the table on a 390 px phone: someone arrives, someone takes
over a hand, someone goes to bed; the sheet, the round form and the live view follow."""

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Game
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from tests.browser.conftest import PHONE, SCREENSHOTS, screenshot
from tests.browser.test_csp import log_in
from tests.browser.test_leaderboard_fit import assert_no_sideways_scroll, small_tap_targets
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Grandma Josefina", "María José", "María Luisa", "Uncle Bartholomew", "Cousin Guadalupe", "Ólafur Þórðarson",
         "Nguyễn Thị Minh Khai")  # fmt: skip


@pytest.fixture
def evening():
    """Seven at the table of a double-12 game, one round played."""
    user = UserFactory()
    ids = [PlayerFactory(owner=user, name=name).pk for name in NAMES]
    game = services.create_game(by=user, players=ids, rules=GameRules(tile_set=12))
    entries = [EntryInput(player=ids[0], pips=0, went_out=True)] + [
        EntryInput(player=pk, pips=5 + seat) for seat, pk in enumerate(ids[1:], start=1)
    ]
    services.record_round(game=game, starting_double=12, entries=entries)
    return user, game, ids


def choose(page, text):
    page.locator("label.choice", has_text=text).first.click()


def test_a_late_arrival_a_take_over_and_a_player_going_to_bed_at_phone_size(phone, evening):
    user, game, _ids = evening
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/")
    expect(phone.locator("#shuffles-next")).to_contain_text("María José shuffles next")

    # A cousin arrives after round 1: three taps and a name.
    phone.locator("#seat-join").click()
    expect(phone.locator("#join-rule")).to_contain_text("highest total at the table")
    screenshot(phone, "60-seat-join")
    assert small_tap_targets(phone) == []
    phone.locator("#id_name").fill("Cousin Itzel Villalobos")
    phone.locator("#save-seat").click()
    expect(phone.locator("#standings")).to_contain_text("Cousin Itzel Villalobos")
    # Her column starts with her opening total, the highest at the table, beside round 1.
    expect(phone.locator("#standings li", has_text="Cousin Itzel")).to_contain_text("joined after round 1: 11")
    expect(phone.locator("#sheet tbody tr.played td.joined")).to_have_text("joined with11")
    assert_no_sideways_scroll(phone)  # "joined with" wraps in its narrow column

    # Grandma goes to bed; María Luisa plays out her hand.
    phone.locator("#seat-take-over").click()
    phone.locator("#replaces-choices label.choice", has_text="Grandma Josefina").click()
    phone.locator("#id_name").fill("maría luisa")  # her name typed: the scorebook's María Luisa
    phone.locator("#save-seat").click()
    # María Luisa sits at the table already: refused beside the control, nothing changed.
    expect(phone.locator("#player-choices .errorlist")).to_contain_text("already seated")  # the page's own form says
    assert Game.objects.get(pk=game.pk).seat_changes.count() == 1
    phone.locator("#replaces-choices label.choice", has_text="Grandma Josefina").click()
    phone.locator("#id_name").fill("Ana Sofía")
    phone.locator("#save-seat").click()
    expect(phone.locator("#sheet thead th.player", has_text="Ana Sofía")).to_contain_text("for Grandma J.")
    expect(phone.locator("#standings li", has_text="Ana Sofía")).to_contain_text("for Grandma Josefina from round 2")

    # Uncle Bartholomew goes home.
    phone.locator("#seat-leave").click()
    phone.locator("#player-choices label.choice", has_text="Uncle Bartholomew").click()
    phone.locator("#save-seat").click()
    expect(phone.locator("#sheet thead th.player.left")).to_contain_text("Uncle B.")
    expect(phone.locator("#standings li.left")).to_contain_text("Uncle Bartholomew")
    screenshot(phone, "61-seats-changed-sheet")
    assert_no_sideways_scroll(phone)
    # Seven columns scroll sideways in their box, each as wide as its short name's longest word:
    # "Grandma J." shows whole ("Grand J." before), and so does every other head.
    heads = phone.locator("#sheet thead th.player :is(.who, .seat-note)")
    expect(heads.filter(has_text="Grandma J.")).to_have_text("for Grandma J.")
    phone.locator(".sheet-box").screenshot(path=SCREENSHOTS / "61-seats-changed-sheet-heads.png")
    cut = "(heads) => heads.filter((who) => who.scrollWidth > who.clientWidth).map((who) => who.textContent)"
    assert heads.evaluate_all(cut) == []

    # The round form shows the seated players only, each name whole.
    phone.locator("#enter-round").click()
    rows = phone.locator("fieldset.player-row")
    expect(rows).to_have_count(7)
    names = rows.evaluate_all("(rows) => rows.map((row) => row.dataset.player)")
    assert "Uncle Bartholomew" not in names and "Grandma Josefina" not in names
    assert {"Ana Sofía", "Cousin Itzel Villalobos", "María José", "María Luisa"} <= set(names)
    screenshot(phone, "62-seats-round-form")
    assert_no_sideways_scroll(phone)
    assert phone.viewport_size == PHONE

    # A sum typed as the table counts it shows whole in its box while typing, at seven players too.
    pips = rows.filter(has_text="María José").locator("input.pips")
    pips.click()
    phone.keyboard.type("12+9+4+10")
    expect(rows.filter(has_text="María José").locator("output.pips-sum")).to_have_text("= 35")
    assert pips.evaluate("box => box.scrollWidth <= box.clientWidth")
    pips.screenshot(path=SCREENSHOTS / "62-seats-pips-sum-box.png")
    screenshot(phone, "62-seats-pips-sum")
    assert_no_sideways_scroll(phone)
    assert min(pips.bounding_box()["width"], pips.bounding_box()["height"]) >= 44


def test_the_last_but_one_cannot_leave_and_the_page_says_why(phone):
    user = UserFactory()
    ids = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben")]
    game = services.create_game(by=user, players=ids, rules=GameRules(tile_set=6))
    services.record_round(game=game, starting_double=6, entries=[
        EntryInput(player=ids[0], pips=0, went_out=True), EntryInput(player=ids[1], pips=9)])  # fmt: skip
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/seats/leave/")
    phone.locator("#player-choices label.choice", has_text="Ben").click()
    phone.locator("#save-seat").click()
    expect(phone.locator("#seat-form .errorlist")).to_contain_text("at least 2 players stay seated")
    assert not Game.objects.get(pk=game.pk).seat_changes.exists()


def test_undo_on_the_sheet_takes_away_the_last_change_at_the_table_before_any_round(phone, evening):
    user, game, ids = evening
    services.change_seat(game=game, kind="leave", player=ids[3], by=user)
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/")
    expect(phone.locator("#undo")).to_have_count(0)  # round 1 cannot be undone while the change follows it
    expect(phone.locator("#undo-seat")).to_have_text("Undo: Uncle Bartholomew left")
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.locator("#undo-seat").click()
    expect(phone.locator(".messages")).to_contain_text("Undid the last change at the table.")
    expect(phone.locator("#sheet thead th.player.left")).to_have_count(0)
    expect(phone.locator("#undo")).to_have_text("Undo round 1")


def _round(game, double, seated):
    """A round of `seated` (player ids in seat order): the first goes out, the others hold pips."""
    entries = [EntryInput(player=seated[0], pips=0, went_out=True)]
    entries += [EntryInput(player=pk, pips=3 + n) for n, pk in enumerate(seated[1:], start=1)]
    services.record_round(game=game, starting_double=double, entries=entries)


def test_every_name_on_the_game_over_card_starts_in_one_column(phone, evening):
    """A name with a seat note ("joined after round 4", "for … from round 7", "left after round 6")
    starts where the others do: the place column keeps its width whatever follows it."""
    user, game, ids = evening
    seated = list(ids)
    for double in (11, 10, 9):
        _round(game, double, seated)
    cousin, ana = (PlayerFactory(owner=user, name=name).pk for name in ("Cousin Itzel Villalobos", "Ana Sofía"))
    game = services.change_seat(game=game, kind="join", player=cousin, by=user)
    seated.append(cousin)
    for double in (8, 7):
        _round(game, double, seated)
    game = services.change_seat(game=game, kind="leave", player=ids[3], by=user)
    seated.remove(ids[3])
    game = services.change_seat(game=game, kind="take_over", player=ana, replaces=ids[0], by=user)
    seated[0] = ana
    _round(game, 6, seated)
    services.finish_game(game=game, by=user)
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/")
    card = phone.locator(".game-over .final")
    expect(card.locator(".seat-note")).to_have_count(3)
    screenshot(phone, "63-seats-game-over")
    card.scroll_into_view_if_needed()
    phone.screenshot(path=SCREENSHOTS / "63-seats-game-over-card.png", clip=card.bounding_box())
    lefts = card.locator(".name").evaluate_all("(names) => names.map((name) => name.getBoundingClientRect().left)")
    assert len(lefts) == len(ids) + 1 and max(lefts) - min(lefts) <= 1, lefts
    assert_no_sideways_scroll(phone)


def test_a_six_column_sheet_after_a_take_over_cuts_no_name_in_its_heads(phone):
    user = UserFactory()
    names = (*NAMES[:5], "Ana Sofía")
    ids = [PlayerFactory(owner=user, name=name).pk for name in names]
    game = services.create_game(by=user, players=ids[:5], rules=GameRules(tile_set=12))
    services.record_round(game=game, starting_double=12, entries=[EntryInput(player=ids[0], pips=0, went_out=True)] + [
        EntryInput(player=pk, pips=5 + seat) for seat, pk in enumerate(ids[1:5], start=1)])  # fmt: skip
    services.change_seat(game=game, kind="join", player=ids[5], by=user)
    tia = PlayerFactory(owner=user, name="Tía Rosa").pk
    services.change_seat(game=game, kind="take_over", player=tia, replaces=ids[0], by=user)
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/")
    phone.locator("#sheet thead").screenshot(path="tests/screenshots/64-six-column-heads-after-take-over.png")
    heads = phone.locator("#sheet thead th.player :is(.who, .seat-note)")
    cut = heads.evaluate_all("es => es.filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)")
    assert cut == []  # "Grandn J.", "for Grandr J." were cut at the column's edge
    # "Grandma" is too long for a sixth of the screen: the sheet turns to a row per player, whole names.
    expect(phone.locator("#sheet thead th.player", has_text="Tía").locator(".seat-note")).to_have_text("for Grandma J.")
    expect(phone.locator("#sheet-rows tbody th .who")).to_have_text(
        ["Tía R.", "María J.", "María L.", "Uncle B.", "Cousin G.", "Ana S."]
    )
    assert_no_sideways_scroll(phone)
