"""A table of seven to ten on a 390 px phone: the sheet turns first to a row per player, each
name whole as the table knows it (its short form, never broken mid-word), the last round, the
total and the place, with nothing off to the side; the paper sheet follows for every round."""

import pytest
from playwright.sync_api import expect

from scorekeeper.rules.names import short_names
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_sheet_fit import NAMES, open_sheet, page_width

pytestmark = pytest.mark.django_db(transaction=True)

# The longest names of the browser tests: a 40-letter word, a hyphenated pair, family titles.
LONGEST = ("Ólafur_Þórðarson_Wolfeschlegelsteinhause", "Bartholomew-Alexander Featherstonehaugh", "Cousin Maximiliano",
           "Grandma Josefina", "Little Christopher", "Nguyễn Thị Minh Khai")  # fmt: skip
# The words of each element that take more than one line (a word broken across lines, hyphen or not).
BROKEN_WORDS = """(elements) => elements.flatMap((element) => {
    const text = element.querySelector("bdi").firstChild, broken = [];
    for (const word of text.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        if (new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size > 1) broken.push(word[0]);
    }
    return broken;
})"""
CUT = "(elements) => elements.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent)"
# Ten of the longest names: LONGEST and four more whose first word a column cuts ("Great-Gran… A.").
LONGEST_TEN = (*LONGEST, "Great-Grandmother Ana", "Great-Grandfather Bo", "Wolfeschlegelsteinhausen",
               "Maximiliana Concepción")  # fmt: skip
# A row's name as the table knows it, each name: [text, lines, pieces broken across lines, cut,
# pieces wider than a whole line]. A piece is a word, or a hyphenated word's part up to its hyphen
# (a row may wrap there, never elsewhere inside a word); a name is cut (its ellipsis drawn by the
# browser) only where a piece is wider than the line it would have alone.
ROW_NAMES = """(elements) => elements.map((element) => {
    const text = element.querySelector("bdi").firstChild, ctx = document.createElement("canvas").getContext("2d");
    const style = getComputedStyle(element);  // its `font` is empty beside font-variant-numeric: tabular-nums
    ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const tops = new Set(), broken = [], wider = [];
    for (const piece of text.textContent.matchAll(/[^\\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(text, piece.index);
        range.setEnd(text, piece.index + piece[0].length);
        const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
        lines.forEach((top) => tops.add(top));
        if (lines.size > 1) broken.push(piece[0]);
        if (ctx.measureText(piece[0]).width > element.clientWidth) wider.push(piece[0]);
    }
    return [text.textContent, tops.size, broken, element.scrollWidth > element.clientWidth, wider];
})"""


@pytest.mark.parametrize(("players", "language"), [(7, "es"), (10, "en")])
def test_seven_to_ten_players_each_show_a_whole_name_the_last_round_and_the_total_without_scrolling_sideways(
    browser, live_server, players, language
):
    context, page = open_sheet(browser, live_server, players, language=language)
    rows = page.locator("#sheet-rows tbody tr")
    expect(rows).to_have_count(players)
    page.locator("#sheet-rows").scroll_into_view_if_needed()
    screenshot(page, f"sheet-rows-{players}-players-{language}")
    page.locator("#sheet-rows").screenshot(path=f"tests/screenshots/sheet-rows-{players}-players-{language}-table.png")
    assert page_width(page) <= PHONE["width"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]  # nothing to scroll sideways
    # Every cell of every row is on the screen's width: no total, round or place off to the side.
    for box in page.locator("#sheet-rows th, #sheet-rows td").evaluate_all(
        "cells => cells.map(c => { const r = c.getBoundingClientRect(); return [r.left, r.right]; })"
    ):
        assert box[0] >= 0 and box[1] <= PHONE["width"], box
    covered = page.locator("#sheet-rows th, #sheet-rows td").evaluate_all(
        "cells => cells.filter(c => { const r = c.getBoundingClientRect();"
        " const at = document.elementFromPoint(r.right - 4, r.top + r.height / 2); return !(at && c.contains(at)); })"
        ".map(c => c.textContent)"
    )
    assert covered == []  # nothing drawn over a cell's right edge (the sheet's sideways cue)
    # Each name as the table knows it: the short form that tells players apart with its first word
    # whole, on one line or two, no word broken, none cut but one wider than the line alone
    # ("Wolfeschlegelsteinhausen", cut by the browser where the line ends).
    names = page.locator("#sheet-rows tbody th .who")
    assert names.all_inner_texts() == short_names(NAMES[:players], first_word=None)
    assert [row for row in names.evaluate_all(ROW_NAMES) if row[1] > 2 or row[2] or (row[3] and not row[4])] == []
    assert names.evaluate_all("ws => ws.filter(w => w.textContent.includes('\\u00ad')).map(w => w.textContent)") == []
    assert page.locator("#sheet-rows tbody th").evaluate_all("hs => hs.map(h => h.title)") == list(NAMES[:players])
    # The totals are the sheet's, the last round is the sheet's last played row, in seat order.
    grid_totals = page.locator("#sheet tfoot td").all_inner_texts()
    assert page.locator("#sheet-rows td.grand").all_inner_texts() == grid_totals
    last = page.locator("#sheet tbody tr.played").last
    scores = last.locator("td small.score").evaluate_all(
        "ss => ss.map(s => Array.from(s.childNodes).filter(n => n.nodeType === 3).map(n => n.textContent).join(''))"
    )
    latest = page.locator("#sheet-rows td.latest").evaluate_all(
        "ls => ls.map(l => Array.from(l.childNodes).filter(n => n.nodeType === 3).map(n => n.textContent).join(''))"
    )
    assert [text.strip() for text in latest] == [text.strip() for text in scores]
    double = last.get_attribute("data-double")
    expect(page.locator("#sheet-rows thead th.latest")).to_have_text(f"{double}-{double}")
    first_place = "1.º" if language == "es" else "1st"
    expect(page.locator("#sheet-rows tr.lead td.place")).to_contain_text(first_place)
    expect(page.locator("#sheet-rows thead th").nth(2)).to_have_text("Total")
    # The paper sheet follows for every round (one tap on the link below the rows).
    page.locator(".sheet-rows-more a").click()
    expect(page.locator("#sheet")).to_be_in_viewport()
    # The round form of the same table: every name above its box, short or long (never beside one
    # box and above the next).
    page.goto(page.url.split("#")[0] + "rounds/new/")
    places = page.locator("fieldset.player-row").evaluate_all(
        """rows => rows.map(row => {
             const name = row.querySelector("label.name").getBoundingClientRect();
             const box = row.querySelector("input.pips").getBoundingClientRect();
             return [row.dataset.player, name.bottom <= box.top + 1, Math.round(name.left - row.getBoundingClientRect().left)];
           })"""
    )
    assert len(places) == players
    assert [name for name, above, _left in places if not above] == []
    assert len({left for _name, _above, left in places}) == 1  # every name starts at the same place in its row
    screenshot(page, f"sheet-rows-{players}-players-{language}-round-form")
    # A wide screen (a tablet, the TV) shows the paper sheet alone, every column side by side.
    page.set_viewport_size({"width": 1024, "height": 768})
    page.go_back()
    expect(page.locator("#sheet-rows")).to_have_count(1)  # the sheet's page again: there, and hidden
    expect(page.locator("#sheet-rows")).to_be_hidden()
    assert page.locator(".sheet-wrap").evaluate("w => w.scrollWidth <= w.clientWidth")
    context.close()


@pytest.mark.parametrize(("players", "language"), [(3, "en"), (4, "es"), (5, "en"), (6, "es")])
def test_three_to_six_players_with_the_longest_names_show_each_whole_and_never_hyphenated(
    browser, live_server, players, language
):
    """Up to six columns keep a name whole when it fits its column ("Bartholome… F." in a third of
    the screen); when one would not, the sheet turns to a row per player as ten do: no soft hyphen,
    no word broken across lines or cut at a column's edge in the paper sheet; the rows show the first
    word whole ("Bartholomew-Alexander F."), wrapping after its hyphen."""
    context, page = open_sheet(browser, live_server, players, language=language, names=LONGEST)
    shown = short_names(LONGEST[:players])
    heads = page.locator("#sheet thead th.player .who")
    assert heads.evaluate_all("ws => ws.map(w => w.textContent)") == shown  # no soft hyphen put in
    assert page_width(page) <= PHONE["width"]
    if players == 3:  # three wide columns hold every name whole, every total on screen
        expect(page.locator("#sheet-rows")).to_have_count(0)
        assert page.locator(".sheet-wrap").evaluate("w => w.scrollWidth <= w.clientWidth")
    else:
        rows = page.locator("#sheet-rows tbody th .who")
        expect(rows).to_have_count(players)
        expect(page.locator("#sheet-rows")).to_be_visible()
        # A row keeps the first word whole, on a line or two, cut only when wider than a line alone.
        assert rows.evaluate_all("ws => ws.map(w => w.textContent)") == short_names(LONGEST[:players], first_word=None)
        assert [row for row in rows.evaluate_all(ROW_NAMES) if row[1] > 2 or row[2] or (row[3] and not row[4])] == []
        page.locator("#sheet-rows").screenshot(path=f"tests/screenshots/sheet-names-{players}-players-rows.png")
    assert heads.evaluate_all(CUT) == []
    assert heads.evaluate_all(BROKEN_WORDS) == []
    page.locator("#sheet thead").scroll_into_view_if_needed()
    page.locator(".sheet-box").screenshot(path=f"tests/screenshots/sheet-names-{players}-players-{language}.png")
    screenshot(page, f"sheet-names-{players}-players-{language}-page")
    context.close()


@pytest.mark.parametrize(("players", "language"), [(7, "en"), (10, "es")])
def test_seven_and_ten_players_with_the_longest_names_keep_the_page_390_px_wide_and_cut_no_word_that_fits(
    browser, live_server, players, language
):
    """The rows show each name with its first word whole ("Great-Grandmother A.", never
    "Great-Gran… A."), wrapping onto a second line between words or after a hyphen; only a word
    wider than a whole line (a 40-letter one) is cut, by the browser, where the line ends. The page
    never grows past the phone's 390 px (a first word kept to 16 letters made it 418-425 px)."""
    context, page = open_sheet(browser, live_server, players, language=language, names=LONGEST_TEN)
    names = page.locator("#sheet-rows tbody th .who")
    expect(names).to_have_count(players)
    page.locator("#sheet-rows").scroll_into_view_if_needed()
    page.locator("#sheet-rows").screenshot(path=f"tests/screenshots/sheet-rows-{players}-longest-names-{language}.png")
    screenshot(page, f"sheet-rows-{players}-longest-names-{language}-page")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    assert names.all_inner_texts() == short_names(LONGEST_TEN[:players], first_word=None)
    assert [text for text in names.all_inner_texts() if text.endswith("…")] == []
    rows = names.evaluate_all(ROW_NAMES)
    assert [text for text, lines, _broken, _cut, _wider in rows if lines > 2] == []
    assert [(text, broken) for text, _lines, broken, _cut, _wider in rows if broken] == []
    # Cut only where a word is wider than the line it would have alone, as the 40-letter one is.
    assert [text for text, _lines, _broken, cut, wider in rows if cut and not wider] == []
    giants = {LONGEST[0], "Wolfeschlegelsteinhausen"}  # 40 and 24 letters: wider than a row's line
    assert {text for text, _lines, _broken, cut, _wider in rows if cut} == giants & set(LONGEST_TEN[:players])
    assert "Great-Grandmother A." in names.all_inner_texts()
    for box in page.locator("#sheet-rows th, #sheet-rows td").evaluate_all(
        "cells => cells.map(c => { const r = c.getBoundingClientRect(); return [r.left, r.right]; })"
    ):
        assert box[0] >= 0 and box[1] <= PHONE["width"], box
    context.close()
