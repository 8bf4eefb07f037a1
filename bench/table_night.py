"""A whole double-12 game for four, entered at phone size with the keyboard, as at the table.

    .venv/bin/python bench/table_night.py [--players 4] [--seed 7]

Starts the app (runserver on a throwaway SQLite database), drives Debian's chromium at 390x844
and enters every round of a dealt game the way a person would: tap "Enter round", then per
player either tap "out" or type the pips and press Next (the keypad's Enter), tapping "0-0" or
"dbl" when a penalty applies. Prints, per round, the taps on the page, the keypad presses
(digits and Next/Go apart) and the seconds from the sheet to the saved round, then the medians.
The seconds are the machine's (page loads and saves), not a person's thinking time."""

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]  # fmt: skip
NAMES = ["Ann", "Ben", "Cy", "Dot", "Eve", "Fay", "Gus", "Hal"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the app did not answer at {url}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="table-night-")
    env = os.environ | {
        "DATABASE_URL": f"sqlite:///{workdir}/db.sqlite3",
        "DEBUG": "1",
        "SECRET_KEY": "bench-only",
        "TASK_BACKEND": "django.tasks.backends.immediate.ImmediateBackend",
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
    }
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    from scorekeeper import services
    from scorekeeper.demo import PlayerFactory, UserFactory, play_game
    from scorekeeper.rules.game import GameRules

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    user = UserFactory(email="table@example.com")
    players = [PlayerFactory(owner=user, name=name).pk for name in NAMES[: args.players]]
    rules = GameRules()
    game = services.create_game(by=user, players=players, rules=rules, name="Bench night")
    rounds = play_game(rules, players, random.Random(args.seed))
    names = dict(zip(players, NAMES, strict=False))

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/rules/")
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
            page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                    base_url=base)  # fmt: skip
            page.goto("/accounts/login/")
            page.locator("#id_login").fill(user.email)
            page.locator("#id_password").fill("table-talk-42")
            page.locator("form button[type=submit]").last.click()
            page.wait_for_url(lambda url: "/accounts/login" not in url)
            page.goto(f"/games/{game.pk}/")
            figures = [play_round(page, starting, entries, names) for starting, entries in rounds]
            browser.close()
    finally:
        server.terminate()
        server.wait()

    print(f"{args.players} players, double-12, {len(figures)} rounds (seed {args.seed})")
    print(f"{'round':>5} {'taps':>5} {'digits':>6} {'next/go':>7} {'scrolls':>7} {'seconds':>7}")
    for number, row in enumerate(figures, start=1):
        print(
            f"{number:>5} {row['taps']:>5} {row['digits']:>6} {row['enters']:>7} {row['scrolls']:>7} {row['seconds']:>7.2f}"
        )
    for key in ("taps", "digits", "enters", "scrolls", "seconds"):
        values = [row[key] for row in figures]
        print(f"median {key}: {statistics.median(values):.3g} (most {max(values):.3g})")


def play_round(page, starting: int, entries, names) -> dict:
    row = {"taps": 0, "digits": 0, "enters": 0, "scrolls": 0}
    started = time.perf_counter()
    page.locator("#enter-round").click()
    row["taps"] += 1
    page.wait_for_selector("#round-form")
    select = page.get_by_label("Starting double")
    if select.input_value() != str(starting):
        select.select_option(str(starting))
        row["taps"] += 2  # open the list, pick the double
        page.locator("input.pips").first.focus()
    height = page.viewport_size["height"]
    save = page.locator("#save-round").bounding_box()
    if save["y"] + save["height"] > height:
        row["scrolls"] += 1
    for entry in entries:
        fieldset = page.locator(f"fieldset[data-player='{names[entry.player]}']")
        if entry.went_out:
            chip = "dbl" if entry.ended_on_double else "out"
            fieldset.locator(".chip", has_text=chip).first.click()  # fills 0, moves on
            row["taps"] += 1
            continue
        if entry.double_blank:
            fieldset.locator(".chip", has_text="0-0").click()  # then the keypad comes back to these pips
            row["taps"] += 1
        digits = str(entry.pips)
        page.keyboard.type(digits)
        row["digits"] += len(digits)
        page.keyboard.press("Enter")  # Next, or Go once every box is filled (that saves)
        row["enters"] += 1
    if entries[-1].went_out:
        page.keyboard.press("Enter")  # the last player went out: Save has the focus
        row["enters"] += 1
    page.wait_for_selector("#surprises, #error-summary, .messages")
    if page.locator("#surprises").count():
        page.get_by_role("button", name="Save anyway").click()
        row["taps"] += 1
        page.wait_for_selector("#error-summary, .messages")
    if not page.locator(".messages").count():
        raise SystemExit(f"round starting {starting}-{starting} was not saved: {page.locator('main').inner_text()}")
    row["seconds"] = time.perf_counter() - started
    return row


if __name__ == "__main__":
    main()
