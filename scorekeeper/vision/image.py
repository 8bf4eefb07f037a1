"""A photo's bytes read once into the RGB pixels the counting works on, with its limits.

Pure (no Django), like the rest of the vision room. What is refused is refused from the file's
header, before any pixel is decoded: more than `MAX_BYTES`, more than `MAX_PIXELS` (Pillow's own
decompression-bomb check is turned into the same refusal), or not a JPEG, PNG, WebP or HEIC. A
JPEG is decoded at a reduced size (Image.draft: its DCT scaled by 1/2, 1/4 or 1/8), so a
12-megapixel photo is never decoded whole; every picture is then brought down to `LONG_SIDE`
pixels on its long side before anything else looks at it, and turned as its EXIF orientation says.
A PNG or WebP has no reduced decode: at most `MAX_PIXELS` of it is held once (160 MB for RGBA).
"""

import io
import math
import warnings
from dataclasses import dataclass

import numpy
import pillow_heif
from PIL import ExifTags, Image, UnidentifiedImageError

pillow_heif.register_heif_opener()  # iPhone photos (HEIC); the opener reads the header alone, like Pillow's

MAX_BYTES = 15 * 1024 * 1024
MAX_PIXELS = 40_000_000
LONG_SIDE = 1600
FORMATS = ("JPEG", "PNG", "WEBP", "HEIF")

# EXIF orientation: how to turn the stored pixels to see the photo as it was taken (as ImageOps.exif_transpose).
_TURNS = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
_SWAPS = {Image.Transpose.TRANSPOSE, Image.Transpose.TRANSVERSE, Image.Transpose.ROTATE_90, Image.Transpose.ROTATE_270}


class BadImage(ValueError):
    """The bytes are no photo this room reads. `code` says why for a program (empty, too_large,
    too_many_pixels, not_an_image, damaged); the message says it in English for a person."""

    def __init__(self, code: str, message: str):
        self.code = code
        super().__init__(message)


@dataclass(frozen=True, eq=False)
class Photo:
    """`pixels`: H x W x 3 uint8 RGB, long side at most LONG_SIDE, as the photo was taken (EXIF
    orientation applied). `size`: the original's width and height, after the same orientation,
    which the boxes found in `pixels` are mapped back to (`original_box`)."""

    pixels: numpy.ndarray
    size: tuple[int, int]

    @property
    def scale(self) -> float:
        """Original pixels per decoded pixel along the long side (1.0 when nothing was shrunk)."""
        return max(self.size) / max(self.pixels.shape[:2])

    def original_box(self, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        """A box (x, y, w, h) of `pixels` in the original's pixels, kept inside the original."""
        height, width = self.pixels.shape[:2]
        across, down = self.size[0] / width, self.size[1] / height
        x, y = min(max(round(box[0] * across), 0), self.size[0]), min(max(round(box[1] * down), 0), self.size[1])
        w = min(max(round(box[2] * across), 0), self.size[0] - x)
        h = min(max(round(box[3] * down), 0), self.size[1] - y)
        return x, y, w, h


def decode(
    data: bytes, *, max_bytes: int = MAX_BYTES, max_pixels: int = MAX_PIXELS, long_side: int = LONG_SIDE
) -> Photo:
    """The photo in `data`, read once and shrunk to `long_side`; BadImage when it is refused."""
    if not data:
        raise BadImage("empty", "The file is empty.")
    if len(data) > max_bytes:
        raise BadImage("too_large", f"The photo is larger than {max_bytes // (1024 * 1024)} MB.")
    picture = _opened(data, max_pixels)
    width, height = picture.size
    turn = _TURNS.get(_orientation(picture))
    try:
        shrink = min(1.0, long_side / max(width, height))
        target = (max(1, math.floor(width * shrink)), max(1, math.floor(height * shrink)))
        if picture.format == "JPEG" and shrink < 1:
            picture.draft("RGB", target)  # decodes at 1/2, 1/4 or 1/8 of its size, no smaller than target
        picture.load()
        if picture.size != target:
            picture = picture.resize(target, Image.Resampling.BILINEAR, reducing_gap=2.0)
        picture = _rgb(picture)
        if turn is not None:
            picture = picture.transpose(turn)
        pixels = numpy.asarray(picture, dtype=numpy.uint8)
    except Exception as error:  # a damaged file can make a decoder raise almost anything
        raise BadImage("damaged", "The photo could not be read: the file is damaged or cut short.") from error
    return Photo(pixels=pixels, size=(height, width) if turn in _SWAPS else (width, height))


def _opened(data: bytes, max_pixels: int) -> Image.Image:
    """The picture with its header read and no pixel decoded, once its size is known to be allowed."""
    try:
        with warnings.catch_warnings():
            # Pillow warns past its MAX_IMAGE_PIXELS (above ours) and refuses twice that: both a refusal here.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            picture = Image.open(io.BytesIO(data), formats=FORMATS)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise _too_many_pixels(max_pixels) from error
    except UnidentifiedImageError as error:
        raise BadImage("not_an_image", "This is not a photo: send a JPEG, PNG, WebP or HEIC image.") from error
    except Exception as error:  # a header broken on purpose can fail any way
        raise BadImage("damaged", "The photo could not be read: the file is damaged or cut short.") from error
    width, height = picture.size
    if width < 1 or height < 1:
        raise BadImage("damaged", "The photo could not be read: the file is damaged or cut short.")
    if width * height > max_pixels:
        raise _too_many_pixels(max_pixels)
    return picture


def _too_many_pixels(max_pixels: int) -> BadImage:
    return BadImage("too_many_pixels", f"The photo has more than {max_pixels // 1_000_000} megapixels.")


def _orientation(picture: Image.Image) -> int:
    try:
        return int(picture.getexif().get(ExifTags.Base.Orientation, 1))
    except Exception:  # a broken EXIF block is read as no turn at all
        return 1


def _rgb(picture: Image.Image) -> Image.Image:
    """Three 8-bit channels; a transparent part is white (a tile on nothing), never black."""
    if picture.mode == "RGB":
        return picture
    if picture.mode in ("RGBA", "LA", "PA") or (picture.mode == "P" and "transparency" in picture.info):
        picture = picture.convert("RGBA")
        white = Image.new("RGB", picture.size, (255, 255, 255))
        white.paste(picture, mask=picture.getchannel("A"))
        return white
    if picture.mode.startswith("I"):  # 16-bit grey: its high byte
        picture = Image.fromarray((numpy.asarray(picture) >> 8).clip(0, 255).astype(numpy.uint8))
    return picture.convert("RGB")
