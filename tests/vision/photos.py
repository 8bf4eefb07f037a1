"""Photos and broken files made in the test, for the image reader and the endpoint."""

import io
import struct
import zlib

from PIL import Image, ImageDraw

ORIENTATION = 0x0112


def encoded(picture: Image.Image, kind: str, **options) -> bytes:
    out = io.BytesIO()
    picture.save(out, format=kind, **options)
    return out.getvalue()


def halves(width: int, height: int) -> Image.Image:
    """Red on the left half, blue on the right: which way it was turned can be read back."""
    picture = Image.new("RGB", (width, height), (0, 0, 255))
    picture.paste((255, 0, 0), (0, 0, width // 2, height))
    return picture


def jpeg(width: int, height: int, orientation: int | None = None) -> bytes:
    exif = Image.Exif()
    if orientation is not None:
        exif[ORIENTATION] = orientation
    return encoded(halves(width, height), "JPEG", quality=90, exif=exif.tobytes())


def truncated_jpeg() -> bytes:
    whole = jpeg(800, 600)
    return whole[: len(whole) // 2]


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_header(width: int, height: int, rows: bytes = b"") -> bytes:
    """A PNG of grey 8-bit pixels that says it is `width` x `height`, with `rows` (compressed) as its data."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", rows) + _chunk(b"IEND", b"")


def bomb_png(side: int = 8000) -> bytes:
    """A decompression bomb: a few hundred kilobytes of PNG that decode to `side` x `side` pixels of black."""
    packer, row = zlib.compressobj(1), b"\x00" * (side + 1)  # each row: its filter byte, then the pixels
    rows = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    return png_header(side, side, rows)


def no_dominoes() -> bytes:
    """A wooden table (seeded grain) with a grey cat's face on it, and not one domino, as a JPEG."""
    import numpy

    rng = numpy.random.default_rng(7)
    height, width = 900, 1200
    grain = numpy.sin(numpy.linspace(0, 60, width))[None, :] * 12 + rng.normal(0, 8, (height, width))
    wood = numpy.stack([133 + grain, 94 + grain * 0.8, 66 + grain * 0.6], axis=2).clip(0, 255).astype(numpy.uint8)
    picture = Image.fromarray(wood)
    drawing = ImageDraw.Draw(picture)
    drawing.ellipse((400, 250, 800, 650), fill=(90, 90, 95))
    drawing.polygon([(420, 330), (470, 180), (540, 270)], fill=(90, 90, 95))
    drawing.polygon([(780, 330), (730, 180), (660, 270)], fill=(90, 90, 95))
    for eye in (480, 660):
        drawing.ellipse((eye, 330, eye + 60, 390), fill=(240, 240, 230))
    return encoded(picture, "JPEG", quality=85)
