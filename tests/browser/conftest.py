"""Real Chromium (Debian's /usr/bin/chromium) driven by Playwright, at phone size, against live_server."""

import os
import signal
import time
import warnings
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"
PHONE = {"width": 390, "height": 844}
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# One browser for the package's tests, ended after its last: Playwright's sync API holds a running
# event loop in this thread while it is open, and a later test that calls async code the sync way
# (async_to_sync: the health checks, the push hub's tests) would find it and refuse.
@pytest.fixture(scope="package")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


class CloseHung(Exception):
    pass


def close_context(context, seconds: float = 30) -> None:
    """Close a context, giving up after `seconds`: now and then Chromium never answers the close
    of a context whose service worker is still busy (Target.disposeBrowserContext; puppeteer
    #11627), and a test whose every check passed stalled its run for pytest-timeout's five minutes.
    The browser goes on serving the next contexts (seen in CI), so the test's result stands and a
    warning says what happened. pytest-timeout's own alarm is put back as it was."""

    def give_up(signum, frame):
        raise CloseHung

    before = signal.signal(signal.SIGALRM, give_up)
    pending, _interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    started = time.monotonic()
    try:
        context.close()
    except CloseHung:
        warnings.warn(f"Chromium did not close a browser context within {seconds} s; going on", stacklevel=2)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
        if pending:  # pytest-timeout's alarm, less the time spent here
            signal.setitimer(signal.ITIMER_REAL, max(pending - (time.monotonic() - started), 0.001))


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    close_context(context)


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)
