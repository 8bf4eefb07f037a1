"""How well and how fast the vision room counts a hand from a photo (figures in docs/benchmarks.md).

    python bench/vision.py [PHOTOS]    (default 501 synthetic photos, the three sets in turn)

Prints:
- on the synthetic set (scorekeeper/vision/synthetic.py, seed 1): per set and in all, the tiles
  found and the tiles found and read exactly (both halves) as a share of the labelled tiles, tiles
  found where none is, and the hands whose pips were summed exactly;
- on the real labelled photos (a folder of them beside the repository, when present): per photo,
  tiles found / labelled, tiles read right (as a multiset of halves) and whether the total is right;
- a 12-megapixel JPEG (a synthetic hand enlarged to 4000 x 3000) decoded, EXIF-turned and shrunk
  by scorekeeper/vision/image.py and counted, on one core (OpenCV held to one thread, the process
  pinned to one CPU): median and slowest of 7 runs in wall-clock time and in CPU time (what a busy
  machine's other work cannot inflate), and the process's peak memory (a fresh
  process, so the figure is one photo at a time, interpreter and libraries included).
"""

import io
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
from PIL import Image  # noqa: E402

from scorekeeper.vision import count_hand, synthetic  # noqa: E402
from scorekeeper.vision.image import decode  # noqa: E402

PHOTOS = ROOT.parent / "shared" / "photos"
SEED = 1


def one_core():
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


def synthetic_figures(count: int):
    rows = defaultdict(Counter)
    started = time.perf_counter()
    for hand in synthetic.hands(SEED, count):
        counted = count_hand(hand.image, tile_set=hand.tile_set)
        score = synthetic.score(hand, counted.tiles, counted.pips)
        for key in (hand.tile_set, "all"):
            row = rows[key]
            row["photos"] += 1
            row["labelled"] += score.labelled
            row["found"] += score.found
            row["read"] += score.read
            row["extra"] += score.extra
            row["hands"] += score.hand_right
    print(f"synthetic set: {count} photos (seed {SEED}), {time.perf_counter() - started:.0f} s with drawing them")
    print(" set    | photos | tiles | found  | read exactly | found where none is | hands summed exactly")
    for key in (*synthetic.SETS, "all"):
        row = rows[key]
        name = f"double-{key}" if key != "all" else "all"
        print(
            f" {name:<9}| {row['photos']:>6} | {row['labelled']:>5} | {100 * row['found'] / row['labelled']:5.1f}% |"
            f" {100 * row['read'] / row['labelled']:11.1f}% | {row['extra']:>19} | {100 * row['hands'] / row['photos']:5.1f}%"
        )


def real_figures():
    labels = PHOTOS / "labels.json"
    if not labels.exists():
        print(f"real photos: none at {PHOTOS}")
        return
    print("real photos:")
    for entry in json.loads(labels.read_text()):
        photo = decode((PHOTOS / entry["file"]).read_bytes())
        counted = count_hand(photo.pixels, tile_set=entry["set_max"])
        got = Counter(tuple(sorted(tile.halves)) for tile in counted.tiles)
        wanted = Counter(tuple(sorted(tile)) for tile in entry["tiles"])
        right = "right" if counted.pips == entry["total"] else "wrong"
        print(
            f" {entry['file'][:40]:<40} found {len(counted.tiles):>2} / {len(entry['tiles']):>2},"
            f" read right {sum((got & wanted).values()):>2}, total {counted.pips:>3} of {entry['total']:>3}: {right}"
        )


def twelve_megapixels() -> bytes:
    hand = synthetic.hand(12, tile_set=12)
    big = cv2.resize(hand.image, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    out = io.BytesIO()
    Image.fromarray(big).save(out, format="JPEG", quality=92)
    return out.getvalue()


def _resident_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def timing(path: str):
    """Run in a fresh process (`--timing FILE`): one core, 7 counts of a 12-megapixel JPEG."""
    one_core()
    data = Path(path).read_bytes()
    base = _resident_kb()
    decoding, counting, cpu, tiles = [], [], [], 0
    for _ in range(7):
        started, cpu_started = time.perf_counter(), time.process_time()
        photo = decode(data)
        decoded = time.perf_counter()
        hand = count_hand(photo.pixels, tile_set=12)
        counting.append(time.perf_counter() - decoded)
        decoding.append(decoded - started)
        cpu.append(time.process_time() - cpu_started)
        tiles = len(hand.tiles)
    total = [d + c for d, c in zip(decoding, counting, strict=True)]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"12-megapixel JPEG ({len(data) / 1e6:.1f} MB, 4000 x 3000, {tiles} tiles found), one core: "
        f"decode and shrink median {1000 * statistics.median(decoding):.0f} ms, "
        f"count median {1000 * statistics.median(counting):.0f} ms, "
        f"in all median {1000 * statistics.median(total):.0f} ms, slowest {1000 * max(total):.0f} ms; "
        f"CPU time in all median {1000 * statistics.median(cpu):.0f} ms, most {1000 * max(cpu):.0f} ms"
    )
    print(
        f"peak memory of the process: {peak / 1024:.0f} MB resident at its most, interpreter and libraries "
        f"included ({base / 1024:.0f} MB resident before the first photo, after loading them)"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--timing"]:
        timing(sys.argv[2])
        sys.exit(0)
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 501
    one_core()
    with tempfile.NamedTemporaryFile(suffix=".jpg") as photo:
        photo.write(twelve_megapixels())
        photo.flush()
        subprocess.run([sys.executable, __file__, "--timing", photo.name], check=True)
    real_figures()
    synthetic_figures(count)
