"""Exports are files, not pages: on a phone at 390 px, each CSV and JSON link of the sheet, the
scorebook and the account's data page downloads a file and leaves the page as it was (the site
boosts its links with htmx, which would fetch the file and paste it over the page)."""

import csv
import io
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.transfer import CSV_COLUMNS
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in
from tests.factories import make_game

pytestmark = pytest.mark.django_db(transaction=True)

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def downloads_every_export(page, expected_name: str, shot: str) -> None:
    """Clicks each export link of the page: each gives a download named after what it holds, in
    the format it says, and the page stays where and as it was, with no htmx request made."""
    htmx_requests = []
    page.on(
        "request", lambda request: htmx_requests.append(request.url) if request.header_value("HX-Request") else None
    )
    if page.locator("#enter-round").count():
        # The outbox script draws the sheet once it has read this phone's waiting rounds (it marks
        # what it drew); the page "as it was" is the page after that first drawing.
        expect(page.locator("#enter-round")).to_have_attribute("data-drawn", re.compile("."))
    before_url, before_main = page.url, page.locator("main").inner_html()
    links = page.locator("main a[href*='/export/']")
    expect(links).to_have_count(2)
    for index in range(links.count()):
        link = links.nth(index)
        kind = link.inner_text().strip().lower()
        box = link.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, f"{kind}: {box}"  # a thumb's tap target
        with page.expect_download() as started:
            link.tap()
        download = started.value
        assert download.failure() is None
        assert download.suggested_filename == f"{expected_name}.{kind}"
        content = Path(download.path()).read_text(encoding="utf-8-sig")
        if kind == "csv":
            assert next(csv.reader(io.StringIO(content))) == CSV_COLUMNS
        else:
            assert len(json.loads(content)["games"]) == 1
        assert page.url == before_url
        assert page.locator("main").inner_html() == before_main, f"{kind}: the page changed"
    assert htmx_requests == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, shot)


def test_each_export_link_of_the_sheet_and_the_scorebook_downloads_its_file_and_leaves_the_page(phone):
    game = make_game(tile_set=6)
    log_in(phone, game.created_by.email)

    phone.goto(f"/games/{game.pk}/")
    expect(phone.locator("#sheet")).to_be_visible()
    downloads_every_export(phone, f"game-{game.pk}", "downloads-sheet")

    phone.goto(f"/scorebooks/{game.scorebook_id}/")
    downloads_every_export(phone, f"scorebook-{game.scorebook_id}", "downloads-scorebook")

    phone.goto("/me/delete/")
    downloads_every_export(phone, "chicken-foot-games", "downloads-your-data")


def test_no_template_boosts_a_download_link():
    """Every link to the export (a file, not a page) says hx-boost="false": htmx's boost, set on
    the whole page in base.html, would otherwise fetch it and swap it in as if it were one."""
    links = []
    for template in TEMPLATES.rglob("*.html"):
        for tag in re.findall(r"<a\b[^>]*>", template.read_text(encoding="utf-8")):
            if "url 'export'" in tag or re.search(r"\sdownload[\s>=]", tag):
                links.append((template.name, 'hx-boost="false"' in tag))
    assert len(links) >= 6
    assert [name for name, unboosted in links if not unboosted] == []
