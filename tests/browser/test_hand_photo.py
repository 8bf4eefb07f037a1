"""A hand counted from a photo on the round form, in Chromium at 390x844: the photo comes back with
a box and the halves on each tile, one tile is corrected with a tap, a missed one added with a drag,
"Use N" fills the player's tiles and pips, and the round is saved as any other. Offline, the camera
says it needs a connection (here in Spanish).

The detector is a test double here (its own tests measure it): this is the page's flow, and a
real detector's reading of a photo is no fixed answer to check a page against."""

import io

import pytest
from PIL import Image, ImageDraw
from playwright.sync_api import expect

from scorekeeper.api.views import hands
from scorekeeper.models import Round
from scorekeeper.vision import Hand, Tile
from tests.browser.conftest import PHONE, close_context, screenshot
from tests.browser.test_axe import axe
from tests.browser.test_csp import log_in
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db(transaction=True)

FOUR = ("Ann", "Ben", "Cy", "Dot")
# Where the three tiles lie, as shares of the photo's width and height.
LAID = {(6, 4): (0.10, 0.30, 0.18, 0.40), (12, 3): (0.40, 0.30, 0.18, 0.40), (5, 5): (0.70, 0.30, 0.18, 0.40)}


def table_photo(tmp_path):
    """Three white tiles on a wooden table, 1200 x 900."""
    photo = Image.new("RGB", (1200, 900), (133, 94, 66))
    drawing = ImageDraw.Draw(photo)
    for x, y, w, h in LAID.values():
        box = (x * 1200, y * 900, (x + w) * 1200, (y + h) * 900)
        drawing.rounded_rectangle(box, radius=18, fill=(245, 242, 232), outline=(60, 60, 60), width=4)
        middle = (box[1] + box[3]) / 2
        drawing.line((box[0] + 10, middle, box[2] - 10, middle), fill=(60, 60, 60), width=5)
    path = tmp_path / "hand.jpg"
    out = io.BytesIO()
    photo.save(out, format="JPEG", quality=90)
    path.write_bytes(out.getvalue())
    return path


@pytest.fixture
def detector(monkeypatch):
    def count_hand(pixels, *, tile_set):
        height, width = pixels.shape[:2]
        # Answered right to left, each tile's lower half first: the page puts them as a person reads.
        tiles = tuple(
            Tile(halves[::-1], (round(x * width), round(y * height), round(w * width), round(h * height)), 0.9)
            for halves, (x, y, w, h) in reversed(LAID.items())
        )
        return Hand(tiles=tiles, pips=sum(sum(tile.halves) for tile in tiles), doubts=())

    monkeypatch.setattr(hands, "count_hand", count_hand)


def row(page, name):
    return page.locator(f"fieldset[data-player='{name}']")


def at(canvas, share_x: float, share_y: float) -> dict:
    box = canvas.bounding_box()
    return {"x": share_x * box["width"], "y": share_y * box["height"]}


def test_a_hand_counted_from_a_photo_corrected_with_a_tap_is_saved_with_the_round(phone, detector, tmp_path):
    user = UserFactory()
    game = make_game(owner=user, names=FOUR, tile_set=12)
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/rounds/new/")
    ann = row(phone, "Ann")
    camera = ann.locator("[data-hand-photo]")
    expect(camera).to_be_visible()
    size = camera.bounding_box()
    assert size["width"] >= 44 and size["height"] >= 44
    screenshot(phone, "41-hand-photo-camera")

    ann.locator("[data-hand-photo] input").set_input_files(table_photo(tmp_path))
    expect(ann.locator(".hand-photo-tile")).to_have_count(3)
    # The list reads the photo from the left, each tile named higher half first.
    expect(ann.locator(".hand-photo-tile strong")).to_have_text(["6-4", "12-3", "5-5"])
    expect(ann.locator(".hand-photo-status")).to_have_text("3 tiles found: 35 pips.")
    canvas = ann.locator("canvas.hand-photo-canvas")
    expect(canvas).to_be_visible()
    assert canvas.evaluate("c => [c.width, c.height]") == [1200, 900]  # drawn at the photo's size
    screenshot(phone, "41-hand-photo-boxes")

    # A tap on the 12-3 opens its halves: it is a 12-2.
    canvas.click(position=at(canvas, 0.49, 0.5))
    edit = ann.locator(".hand-photo-edit")
    expect(edit).to_be_visible()
    expect(edit.locator(".hand-photo-edit-title")).to_have_text("Tile 2: 12-3")
    assert [edit.locator(f"select[data-half='{half}']").input_value() for half in (0, 1)] == ["12", "3"]
    edit.locator("select[data-half='1']").select_option("2")
    assert axe(phone) == []
    screenshot(phone, "41-hand-photo-correct")
    edit.locator("[data-photo-done]").click()
    expect(edit).to_be_hidden()

    # A drag across the table adds a missed tile, a 1-0.
    box = canvas.bounding_box()
    phone.mouse.move(box["x"] + 0.05 * box["width"], box["y"] + 0.80 * box["height"])
    phone.mouse.down()
    phone.mouse.move(box["x"] + 0.20 * box["width"], box["y"] + 0.95 * box["height"], steps=5)
    phone.mouse.up()
    expect(edit).to_be_visible()
    # A new tile has no halves until someone picks both: never a 0-0 by accident.
    done = edit.locator("[data-photo-done]")
    use = ann.locator("[data-photo-use]")
    assert [edit.locator(f"select[data-half='{half}']").input_value() for half in (0, 1)] == ["", ""]
    expect(done).to_be_disabled()
    expect(edit.locator(".hand-photo-edit-note")).to_be_visible()
    expect(use).to_be_disabled()
    expect(use).to_have_text("Check the 1 marked tile first")
    assert use.evaluate("b => getComputedStyle(b).backgroundColor") != "rgb(20, 83, 45)"  # not the brand's green
    new = ann.locator(".hand-photo-tile").nth(3)
    expect(new.locator("strong")).to_have_text("?-?")
    expect(new).to_have_text("?-? check: new: pick its halves")
    name, note = new.locator("strong").bounding_box(), new.locator(".hand-photo-doubt").bounding_box()
    assert name["height"] < 1.6 * new.locator("strong").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert name["x"] + name["width"] < note["x"]  # the name on one line, its note beside it
    assert axe(phone) == []
    screenshot(phone, "41-hand-photo-new-tile")
    edit.locator("select[data-half='0']").select_option("1")
    expect(done).to_be_disabled()  # one half is not a tile
    expect(use).to_be_disabled()
    edit.locator("select[data-half='1']").select_option("0")
    expect(edit.locator(".hand-photo-edit-note")).to_be_hidden()
    done.click()
    expect(use).to_have_text("Use 35")  # 14 + 10 + 10 + 1
    use.click()

    expect(ann.locator(".hand-photo")).to_be_hidden()
    expect(ann.locator("input.pips")).to_have_value("35")
    expect(ann.locator("input.tile-list")).to_have_value("12-2 6-4 5-5 1-0")
    for name, pips in zip(FOUR[1:], ("7", "5", "31"), strict=True):
        row(phone, name).locator("input.pips").fill(pips)
    phone.locator("#save-round").click()
    expect(phone.locator(".messages")).to_contain_text("Recorded round 1")
    entries = list(Round.objects.get(game=game).entries.order_by("position"))
    assert [entry.pips for entry in entries] == [35, 7, 5, 31]
    assert sorted(entries[0].tiles) == sorted(["12-2", "6-4", "5-5", "1-0"])


def test_offline_the_camera_says_it_needs_a_connection_in_spanish(browser, live_server, detector):
    user = UserFactory()
    game = make_game(owner=user, names=FOUR, tile_set=12)
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True, locale="es-ES"
    )
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        log_in(page, user.email)
        page.goto(f"/games/{game.pk}/rounds/new/")
        camera = row(page, "Ben").locator("[data-hand-photo]")
        expect(camera).to_be_visible()
        context.set_offline(True)
        camera.click()
        status = row(page, "Ben").locator(".hand-photo-status")
        expect(status).to_have_text(
            "Contar con una foto necesita conexión: escribe los puntos, o inténtalo de nuevo cuando tengas conexión."
        )
        screenshot(page, "41-hand-photo-offline-es")
        assert axe(page) == []
        # "Guardar la ronda" on one line beside "Cancelar" at 390 px.
        save, cancel = page.locator("#save-round"), page.get_by_role("link", name="Cancelar")
        expect(save).to_have_text("Guardar la ronda")
        assert save.bounding_box()["height"] <= 60
        assert abs(save.bounding_box()["y"] - cancel.bounding_box()["y"]) < 20
    finally:
        close_context(context)


def test_a_photo_with_no_tile_found_says_to_drag_and_a_dragged_tile_waits_for_its_halves(phone, monkeypatch, tmp_path):
    monkeypatch.setattr(hands, "count_hand", lambda pixels, *, tile_set: Hand(tiles=(), pips=0, doubts=()))
    user = UserFactory()
    game = make_game(owner=user, names=FOUR, tile_set=12)
    log_in(phone, user.email)
    phone.goto(f"/games/{game.pk}/rounds/new/")
    ben = row(phone, "Ben")
    ben.locator("[data-hand-photo] input").set_input_files(table_photo(tmp_path))
    status = ben.locator(".hand-photo-status")
    expect(status).to_have_text("No tile found: drag across each tile on the photo to add it.")
    canvas = ben.locator("canvas.hand-photo-canvas")
    expect(canvas).to_be_visible()
    expect(ben.locator(".hand-photo-hint")).to_be_hidden()  # the status says it: no "Tap a tile" with none
    expect(ben.locator("[data-photo-use]")).to_be_hidden()
    screenshot(phone, "41-hand-photo-none-found")

    box = canvas.bounding_box()
    phone.mouse.move(box["x"] + 0.10 * box["width"], box["y"] + 0.30 * box["height"])
    phone.mouse.down()
    phone.mouse.move(box["x"] + 0.28 * box["width"], box["y"] + 0.70 * box["height"], steps=5)
    phone.mouse.up()
    edit = ben.locator(".hand-photo-edit")
    expect(edit).to_be_visible()
    expect(ben.locator(".hand-photo-hint")).to_be_visible()
    expect(status).to_have_text("1 tile found: 0 pips.")
    use = ben.locator("[data-photo-use]")
    expect(use).to_be_disabled()
    # Done is refused until both halves are picked, and Use stays locked after it.
    expect(edit.locator("[data-photo-done]")).to_be_disabled()
    use.click(force=True)
    expect(ben.locator("input.pips")).to_have_value("")
    edit.locator("select[data-half='0']").select_option("6")
    edit.locator("select[data-half='1']").select_option("4")
    edit.locator("[data-photo-done]").click()
    expect(use).to_have_text("Use 10")
    use.click()
    expect(ben.locator("input.pips")).to_have_value("10")
    expect(ben.locator("input.tile-list")).to_have_value("6-4")
