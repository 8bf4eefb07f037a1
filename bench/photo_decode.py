"""What reading one photo to count costs (scorekeeper/vision/image.py decode): time and peak memory.

    .venv/bin/python bench/photo_decode.py [--repeat 5]

Each kind of photo is made once (seeded: a smooth gradient with noise and edges, closer to a photo
than pure noise), then decoded --repeat times, each in a fresh child process so its peak resident
memory (ru_maxrss, less the child's own before decoding) is the decode's alone. Prints the best and
median wall time and the peak memory added per kind:
  12 MP JPEG (4000 x 3000)   what a phone's camera sends as it is
  1600 px JPEG               what the round form sends (the phone shrinks it first)
  12 MP HEIC                 an iPhone's photo sent as it is
  40 MP PNG (7300 x 5479)    the largest picture allowed, with no reduced decode (smooth: under 15 MB)
  bomb PNG, 64 MP header     refused from its header
"""

import argparse
import io
import multiprocessing
import resource
import statistics
import struct
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy
from PIL import Image

from scorekeeper.vision import image


def picture(width: int, height: int, noise: int = 12) -> Image.Image:
    rng = numpy.random.default_rng(41)
    across = numpy.linspace(60, 190, width).astype(numpy.uint16)
    down = numpy.linspace(0, 50, height).astype(numpy.uint16)[:, None]
    grey = across[None, :] + down + rng.integers(0, noise, (height, width), dtype=numpy.uint16)
    grey = grey.clip(0, 255).astype(numpy.uint8)
    grey[height // 3 : height // 3 + 8, :] = 20  # a few hard edges, as tiles on a table have
    grey[:, width // 2 : width // 2 + 8] = 240
    return Image.merge("RGB", [Image.fromarray(grey)] * 2 + [Image.fromarray(grey // 5 * 4)])


def encoded(photo: Image.Image, kind: str, **options) -> bytes:
    out = io.BytesIO()
    photo.save(out, format=kind, **options)
    return out.getvalue()


def bomb(side: int = 8000) -> bytes:
    packer, row = zlib.compressobj(1), b"\x00" * (side + 1)
    rows = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def one(data: bytes, answer) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    try:
        photo = image.decode(data)
        outcome = f"{photo.pixels.shape[1]}x{photo.pixels.shape[0]}"
    except image.BadImage as refused:
        outcome = f"refused ({refused.code})"
    seconds = time.perf_counter() - started
    answer.send((seconds, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024, outcome))


def measured(data: bytes, repeat: int):
    runs = []
    context = multiprocessing.get_context("fork")
    for _ in range(repeat):
        mine, theirs = context.Pipe()
        child = context.Process(target=one, args=(data, theirs))
        child.start()
        runs.append(mine.recv())
        child.join()
    return runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    twelve = picture(4000, 3000)
    kinds = {
        "12 MP JPEG (4000 x 3000)": encoded(twelve, "JPEG", quality=92),
        "1600 px JPEG": encoded(twelve.resize((1600, 1200)), "JPEG", quality=90),
        "12 MP HEIC": encoded(twelve, "HEIF", quality=80),
        "40 MP PNG (7300 x 5479)": encoded(picture(7300, 5479, noise=1), "PNG"),
        "bomb PNG, 64 MP header": bomb(),
    }
    print(f"{'photo':28} {'bytes':>11} {'best s':>8} {'median s':>9} {'peak MB':>8}  read as")
    for name, data in kinds.items():
        runs = measured(data, repeat)
        seconds = [run[0] for run in runs]
        peak = max(run[1] for run in runs)
        print(
            f"{name:28} {len(data):>11,} {min(seconds):>8.3f} {statistics.median(seconds):>9.3f} {peak:>8.0f}  {runs[0][2]}"
        )


if __name__ == "__main__":
    main()
