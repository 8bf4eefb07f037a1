"""The photo reader (scorekeeper/vision/image.py): read once, shrunk before anything else, turned
as its EXIF says, and every file it cannot or must not read refused from its header with a reason."""

import numpy
import pytest
from PIL import Image, ImageFile

from scorekeeper.vision import image
from tests.vision.photos import bomb_png, encoded, halves, jpeg, png_header, truncated_jpeg

RED, BLUE = (255, 0, 0), (0, 0, 255)


def colour_at(pixels: numpy.ndarray, x: int, y: int) -> tuple[int, int, int]:
    return tuple(int(value) for value in pixels[y, x])


def near(colour, expected) -> bool:
    return all(abs(a - b) <= 40 for a, b in zip(colour, expected, strict=True))


def test_a_small_jpeg_is_read_as_it_is_in_rgb():
    photo = image.decode(jpeg(400, 200))
    assert photo.pixels.shape == (200, 400, 3) and photo.pixels.dtype == numpy.uint8
    assert photo.size == (400, 200) and photo.scale == 1.0
    assert near(colour_at(photo.pixels, 10, 100), RED) and near(colour_at(photo.pixels, 390, 100), BLUE)


def test_a_photo_taken_sideways_is_turned_as_its_exif_says():
    # Orientation 6: the stored picture is shown turned a quarter clockwise, so its left (red) is on top.
    photo = image.decode(jpeg(400, 200, orientation=6))
    assert photo.pixels.shape == (400, 200, 3) and photo.size == (200, 400)
    assert near(colour_at(photo.pixels, 100, 10), RED) and near(colour_at(photo.pixels, 100, 390), BLUE)


def test_a_twelve_megapixel_jpeg_is_decoded_at_half_size_then_shrunk_to_1600_pixels(monkeypatch):
    shrunk_from = []
    resize = Image.Image.resize

    def watched(self, size, *args, **kwargs):
        shrunk_from.append(self.size)
        return resize(self, size, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "resize", watched)
    photo = image.decode(jpeg(4000, 3000, orientation=8))
    assert shrunk_from == [(2000, 1500)]  # the JPEG's own reduced decode: the 12 megapixels never were
    assert photo.pixels.shape == (1600, 1200, 3) and photo.size == (3000, 4000) and photo.scale == 2.5


def test_a_box_found_in_the_shrunk_photo_is_mapped_back_to_the_original_pixels_and_kept_inside_it():
    photo = image.decode(jpeg(4000, 3000))
    assert photo.original_box((100, 200, 40, 80)) == (250, 500, 100, 200)
    assert photo.original_box((1590, 1190, 40, 40)) == (3975, 2975, 25, 25)


@pytest.mark.parametrize("kind", ["PNG", "WEBP", "HEIF"])
def test_png_webp_and_heic_photos_are_read(kind):
    photo = image.decode(encoded(halves(64, 32), kind, quality=95) if kind != "PNG" else encoded(halves(64, 32), kind))
    assert photo.pixels.shape == (32, 64, 3)
    assert near(colour_at(photo.pixels, 4, 16), RED) and near(colour_at(photo.pixels, 60, 16), BLUE)


def test_a_transparent_png_is_read_on_white_and_a_grey_one_in_three_channels():
    clear = Image.new("RGBA", (20, 10), (0, 0, 0, 0))
    assert colour_at(image.decode(encoded(clear, "PNG")).pixels, 5, 5) == (255, 255, 255)
    grey = Image.new("I;16", (20, 10), 0x8000)
    assert colour_at(image.decode(encoded(grey, "PNG")).pixels, 5, 5) == (128, 128, 128)


def refusal(data: bytes, **limits) -> image.BadImage:
    with pytest.raises(image.BadImage) as refused:
        image.decode(data, **limits)
    assert str(refused.value)  # a reason a person can read
    return refused.value


@pytest.fixture
def nothing_decoded(monkeypatch):
    """Fails the test if any pixel is decoded: refusals come from the header alone."""

    def load(self):
        raise AssertionError("the pixels were decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", load)


def test_text_a_gif_and_nothing_at_all_are_refused_as_no_photo():
    assert refusal(b"Dear diary, tonight we played dominoes.").code == "not_an_image"
    assert refusal(encoded(halves(8, 8), "GIF")).code == "not_an_image"
    assert refusal(b"").code == "empty"


def test_a_truncated_jpeg_is_refused_as_damaged():
    assert refusal(truncated_jpeg()).code == "damaged"


def test_a_decompression_bomb_is_refused_from_its_header_without_decoding_a_pixel(nothing_decoded):
    bomb = bomb_png(8000)
    assert len(bomb) < 400_000  # 64 megapixels (192 MB as RGB) in under 400 KB
    refused = refusal(bomb)
    assert refused.code == "too_many_pixels" and "40 megapixels" in str(refused)


@pytest.mark.parametrize("side", [20_000, 10_000, 6_400])
def test_a_png_saying_it_is_too_many_pixels_is_refused_from_its_header(nothing_decoded, side):
    # 400 and 100 megapixels pass Pillow's own bomb limits (an error and a warning); 41 only ours.
    assert refusal(png_header(side, side)).code == "too_many_pixels"


def test_a_file_over_the_byte_limit_is_refused_before_it_is_opened(nothing_decoded):
    assert refusal(jpeg(64, 64), max_bytes=100).code == "too_large"
    assert image.MAX_BYTES == 15 * 1024 * 1024
