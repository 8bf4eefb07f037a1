"""POST /api/v1/hands/count/: a photo in, the tiles found in it out. Every bad photo is a 400 naming
`image` (a bad set one naming `tile_set`), never a 5xx; the photo is never stored, spooled to disk
or logged; at most two are counted at once in a worker and an account has a budget a minute."""

import io
import json
import logging
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.files.uploadhandler import TemporaryFileUploadHandler
from django.test import Client
from PIL import Image, ImageOps

from scorekeeper.api.views import hands
from scorekeeper.http import photos
from scorekeeper.vision import Doubt, Hand, Tile
from tests.api.conftest import browser_for
from tests.factories import UserFactory
from tests.vision.photos import bomb_png, encoded, halves, jpeg, no_dominoes, png_header, truncated_jpeg

pytestmark = pytest.mark.django_db

URL = "/api/v1/hands/count/"
PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "photos"


def send(api, data: bytes | None, tile_set="12", name="hand.jpg", **extra):
    """The multipart form a phone sends: the photo as `image`, and `tile_set`."""
    form = {} if tile_set is None else {"tile_set": tile_set}
    if data is not None:
        upload = io.BytesIO(data)
        upload.name = name
        form["image"] = upload
    return api.client.post(URL, form, headers=api.headers, **extra)


@pytest.fixture
def seen(monkeypatch):
    """The detector as a test double: what it was shown, and a fixed hand in the shrunk photo's pixels."""
    shown = []

    def count_hand(pixels, *, tile_set):
        shown.append((pixels.shape, tile_set))
        tiles = (Tile((6, 4), (100, 200, 40, 80), 0.9), Tile((13, 2), (0, 0, 10, 10), 0.4))
        return Hand(tiles=tiles, pips=25, doubts=(Doubt(1, "above_set"),))

    monkeypatch.setattr(hands, "count_hand", count_hand)
    return shown


def test_a_photo_comes_back_as_its_tiles_with_boxes_in_the_original_pixels_after_its_exif_turn(app, seen):
    response = send(app, jpeg(4000, 3000, orientation=6))
    assert response.status_code == 200, response.content
    # The detector saw the photo once, shrunk to 1600 pixels and turned upright (3000 x 4000).
    assert seen == [((1600, 1200, 3), 12)]
    assert response.json() == {
        "tiles": [
            {"halves": [6, 4], "box": [250, 500, 100, 200], "confidence": 0.9},
            {"halves": [13, 2], "box": [0, 0, 25, 25], "confidence": 0.4},
        ],
        "pips": 25,
        "doubts": [{"tile": 1, "code": "above_set", "reason": "A half is above 12, the set's highest value."}],
    }


def test_a_doubt_is_said_in_the_language_asked_for(app, seen):
    answer = send(app, jpeg(64, 64), HTTP_ACCEPT_LANGUAGE="es").json()
    assert answer["doubts"] == [
        {"tile": 1, "code": "above_set", "reason": "Una mitad pasa de 12, el valor más alto del juego."}
    ]


def test_a_browser_session_counts_with_its_csrf_token_and_is_refused_without_it(seen):
    browser = browser_for(UserFactory())
    assert send(browser, jpeg(64, 64)).status_code == 200
    browser.headers = {}
    refused = send(browser, jpeg(64, 64))
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]


def test_counting_needs_a_signed_in_user(seen):
    refused = Client().post(URL, {"tile_set": "12", "image": io.BytesIO(jpeg(64, 64))})
    assert refused.status_code == 401 and refused.json()["code"] == "not_authenticated"
    assert seen == []


def refused_image(response) -> str:
    assert response.status_code == 400, response.content
    body = response.json()
    assert list(body) == ["image"] and body["image"][0]
    return body["image"][0]


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"Dear diary, tonight we played dominoes.", "not a photo"),
        (truncated_jpeg(), "damaged or cut short"),
        (bomb_png(8000), "more than 40 megapixels"),
        (png_header(20_000, 20_000), "more than 40 megapixels"),
        (encoded(halves(8, 8), "GIF"), "not a photo"),
        (b"", "empty"),
    ],
    ids=["text", "truncated-jpeg", "bomb", "20000-square-png", "gif", "empty"],
)
def test_a_file_that_is_no_photo_it_may_read_is_a_400_naming_image(app, seen, data, says):
    assert says in refused_image(send(app, data))
    assert seen == []


def test_a_fifty_megabyte_upload_is_refused_from_its_length_before_anything_reads_it(app, django_assert_num_queries):
    # The body is a small photo; its Content-Length says 50 MB. No query: refused before the session,
    # the token, the CSRF check or the parser, so nothing of it is read.
    with django_assert_num_queries(0):
        response = send(app, jpeg(64, 64), CONTENT_LENGTH=str(50 * 1024 * 1024))
    assert "larger than 15 MB" in refused_image(response)


def test_a_photo_just_over_fifteen_megabytes_is_read_in_memory_and_refused(app, seen, monkeypatch):
    def spooled(*args, **kwargs):
        raise AssertionError("the photo was written to a temporary file")

    monkeypatch.setattr(TemporaryFileUploadHandler, "new_file", spooled)
    assert "larger than 15 MB" in refused_image(send(app, b"\xff" * (15 * 1024 * 1024 + 1)))
    assert seen == []


def test_a_photo_too_big_for_djangos_memory_limit_is_still_never_written_to_disk(app, seen, monkeypatch, settings):
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 1000  # Django would spool anything longer to a temporary file

    def spooled(*args, **kwargs):
        raise AssertionError("the photo was written to a temporary file")

    monkeypatch.setattr(TemporaryFileUploadHandler, "new_file", spooled)
    assert send(app, jpeg(400, 300)).status_code == 200


@pytest.mark.parametrize("tile_set", ["5", "19", "twelve", "", None])
def test_a_tile_set_outside_6_to_18_is_a_400_naming_tile_set(app, seen, tile_set):
    response = send(app, jpeg(64, 64), tile_set=tile_set)
    assert response.status_code == 400 and list(response.json()) == ["tile_set"]
    assert seen == []


def test_no_image_at_all_is_a_400_naming_image(app, seen):
    assert refused_image(send(app, None))


def test_the_photo_is_never_stored_nor_logged(app, seen, caplog, django_assert_num_queries):
    marker = "hand-photo-secret-5f3a"
    photo = Image.new("RGB", (64, 64), (200, 200, 190))
    data = encoded(photo, "PNG", pnginfo=_text(marker))
    caplog.set_level(logging.DEBUG)
    # Queries: the app token's session, its user. No write: nothing of the photo is kept.
    with django_assert_num_queries(2):
        assert send(app, data, name=f"{marker}.png").status_code == 200
    refused_image(send(app, data[:40], name=f"{marker}.png"))
    logged = "\n".join(f"{record.getMessage()} {record.args}" for record in caplog.records)
    assert marker not in logged and marker.encode() not in logged.encode()


def _text(words: str):
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add_text("Comment", words)
    return info


def test_a_third_photo_while_two_are_being_counted_is_a_503_with_retry_after(app, seen):
    with photos.counting_slot() as first, photos.counting_slot() as second:
        assert first and second
        busy = send(app, jpeg(64, 64))
    assert busy.status_code == 503 and busy["Retry-After"] == "1" and busy.json()["code"] == "counting_busy"
    assert seen == []
    assert send(app, jpeg(64, 64)).status_code == 200  # the places are free again


def test_an_account_over_its_photos_a_minute_is_a_429_with_retry_after(app, seen, settings, monkeypatch):
    settings.HAND_COUNTS_PER_MINUTE = 2
    monkeypatch.setattr(photos, "time", SimpleNamespace(time=lambda: 1_800_000_045.0))  # 15 s before a minute ends
    assert [send(app, jpeg(64, 64)).status_code for _ in range(2)] == [200, 200]
    throttled = send(app, jpeg(64, 64))
    assert throttled.status_code == 429 and throttled["Retry-After"] == "15"
    assert throttled.json()["code"] == "throttled" and len(seen) == 2


def test_the_schema_describes_the_multipart_request_and_every_answer(app):
    schema = json.loads(Client().get("/api/schema/?format=json").content)
    operation = schema["paths"][URL]["post"]
    form = operation["requestBody"]["content"]["multipart/form-data"]["schema"]
    component = schema["components"]["schemas"][form["$ref"].rsplit("/", 1)[1]]
    assert component["properties"]["image"]["format"] == "binary"
    assert component["properties"]["tile_set"]["minimum"] == 6 and component["properties"]["tile_set"]["maximum"] == 18
    assert set(component["required"]) == {"image", "tile_set"}
    assert {"200", "400", "401", "429", "503"} <= set(operation["responses"])
    answer = schema["components"]["schemas"]["CountedHand"]
    assert set(answer["properties"]) == {"tiles", "pips", "doubts"} and set(answer["required"]) == set(
        answer["properties"]
    )


def test_a_photo_of_a_cat_on_the_table_and_no_domino_is_a_200_with_no_tiles(app):
    response = send(app, no_dominoes())
    assert response.status_code == 200, response.content
    assert response.json() == {"tiles": [], "pips": 0, "doubts": []}


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="no photos of real hands beside the repository")
def test_a_real_photo_is_counted_by_the_detector_with_every_box_inside_it(app):
    path = sorted(PHOTOS.glob("*.jpg"))[0]
    width, height = ImageOps.exif_transpose(Image.open(path)).size  # boxes are in the upright photo's pixels
    response = send(app, path.read_bytes(), name=path.name)
    assert response.status_code == 200, response.content
    answer = response.json()
    for tile in answer["tiles"]:
        x, y, w, h = tile["box"]
        assert min(x, y, w, h) >= 0 and x + w <= width and y + h <= height
        assert 0 <= tile["confidence"] <= 1 and len(tile["halves"]) == 2
    assert all(0 <= doubt["tile"] < len(answer["tiles"]) for doubt in answer["doubts"])
