"""The tile picker reads a typed list as the server does, in Chromium at 390x844: the round form
carries the rules module's grammar, and the script has none of its own."""

import random

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Round
from scorekeeper.rules.tiles import DASHES, SPACES, TileError, parse_tile, split_tiles
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in
from tests.browser.test_round_entry import open_picker
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db(transaction=True)

VARIANTS = [
    *(f"3{dash}4" for dash in DASHES),  # every dash the server takes
    *(f" 12 {dash} 11 " for dash in DASHES),
    "3\u20154",  # a horizontal bar: not a dash to the server, so not to the picker
    "\uff13\uff0d\uff14",  # full width
    "\u0663-\u0664 \u06f5-\u06f5",  # Arabic-Indic and Persian digits
    "12-3, 5-5;0 - 4\u3000\uff16\uff0c6-2",
    "3-4-5 13-1 003-4 x-1 3- 4-",  # none of these is a tile of a double-12 set
]


def server_reading(text: str, highest: int = 12) -> dict:
    """What the server makes of a list: the tiles it reads and the parts it refuses."""
    tiles, refused = [], []
    for part in split_tiles(text) or []:
        try:
            tiles.append(str(parse_tile(part, highest)))
        except TileError:
            refused.append(part)
    return {"tiles": tiles, "refused": refused}


@pytest.fixture
def picker(phone):
    user = UserFactory()
    game = make_game(owner=user, names=("Ann", "Ben", "Cy"), tile_set=12)
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/rounds/new/")
    return phone, game, open_picker(phone, "Ann")


def test_each_way_of_typing_a_tile_lights_in_the_picker_exactly_the_tiles_the_server_reads(picker):
    page, _, ann = picker
    box = ann.locator("input.tile-list")
    for text in VARIANTS:
        box.fill(text)
        pressed = ann.locator("button.tile[aria-pressed='true']")
        expected = sorted(set(server_reading(text)["tiles"]))
        expect(pressed).to_have_count(len(expected))
        assert sorted(pressed.evaluate_all("buttons => buttons.map(b => b.dataset.tile)")) == expected, text
    box.fill("12-3, 5-5;0 \u2013 4  6\u22122 3\u20154")  # the last is not a tile: it stays unlit
    screenshot(page, "17-round-entry-typed-tiles-read")


def test_the_pickers_reading_of_any_text_equals_the_servers(picker):
    page, _, _ = picker
    rng = random.Random(21)
    alphabet = [*"0123456789 ,;-x", *DASHES, *SPACES, "\u2015", "\u0663", "\uff14", "\uff0d", "\uff0c", "\u3000",
                "\u00a0", "\u06f1", "\U0001d7d1", "\u0301", "\ufe58", "\ufe63", "\u2044", "\u00bd"]  # fmt: skip
    texts = [*VARIANTS, *("".join(rng.choices(alphabet, k=rng.randint(1, 14))) for _ in range(1500))]
    read = page.evaluate("texts => texts.map(text => window.scorekeeperTiles.read(text))", texts)
    assert [text for text, got in zip(texts, read, strict=True) if got != server_reading(text)] == []


def test_a_dash_the_server_refuses_is_not_saved_and_one_it_takes_is(picker):
    page, game, _ = picker
    page.locator("fieldset[data-player='Ann'] input.went_out").check()
    ben = open_picker(page, "Ben")
    ben.locator("input.tile-list").fill("3\u20154")  # a horizontal bar
    expect(ben.locator("button.tile[aria-pressed='true']")).to_have_count(0)
    page.locator("fieldset[data-player='Cy'] input.pips").fill("9")
    page.locator("#save-round").click()
    expect(page.locator("#error-summary")).to_contain_text("is not a tile")
    assert not Round.objects.filter(game=game).exists()
    ben = page.locator("fieldset[data-player='Ben']")
    expect(ben.locator("details.extras")).to_have_attribute("open", "")  # the list with the problem is in sight
    ben.locator("input.tile-list").fill("3\u20124")  # a figure dash
    page.locator("#save-round").click()
    # Save first asks whether the game changed (up to 3 s), then sends: more than the default 5 s.
    expect(page.locator(".messages")).to_contain_text("Recorded round 1", timeout=10_000)
    assert Round.objects.get(game=game).entries.get(player__name="Ben").tiles == ["4-3"]


def test_tiles_typed_in_a_pips_box_show_their_sum_and_are_saved_as_the_hands_list(picker):
    page, game, _ = picker
    page.locator("fieldset[data-player='Ann'] input.went_out").check()
    ben = page.locator("fieldset[data-player='Ben']")
    ben.locator("input.pips").fill("8-6 3-2")  # what the table sees in the hand, typed where the pips go
    expect(ben.locator("output.pips-sum")).to_have_text("= 19")
    page.locator("fieldset[data-player='Cy'] input.pips").fill("9")
    screenshot(page, "18-round-entry-tiles-in-the-pips-box")
    page.locator("#save-round").click()
    expect(page.locator(".messages")).to_contain_text("Recorded round 1")
    saved = Round.objects.get(game=game).entries.get(player__name="Ben")
    assert (saved.pips, saved.tiles) == (19, ["8-6", "3-2"])
