"""axe-core (from the npm registry: `make browser` puts it in .cache/axe) on every page, in English
and in Spanish, signed in and signed out, the live view and its TV mode included: not one serious
or critical violation. axe is injected with Playwright's evaluate, which the page's CSP does not
govern; the pages' own console stays free of CSP errors meanwhile."""

from pathlib import Path

import pytest
from django.urls import reverse

from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_csp import log_in, table, watch_csp  # noqa: F401 (table is a fixture)

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Path(__file__).resolve().parents[2] / ".cache/axe/node_modules/axe-core/axe.min.js"
LANGUAGES = {"en": "en-US", "es": "es-MX"}


def signed_out_pages(objects):
    return {
        "landing": "/",
        "rules": reverse("rules"),
        "login": reverse("account_login"),
        "signup": reverse("account_signup"),
        "password reset": reverse("account_reset_password"),
        "invite": reverse("invite", kwargs={"code": objects["invite"]}),
        "live": reverse("live", kwargs={"token": objects["live"]}),
        "live, TV mode": reverse("live", kwargs={"token": objects["live"]}) + "?tv",
        "night live": reverse("night_live", kwargs={"token": objects["night_live"]}),
        "night live, TV mode": reverse("night_live", kwargs={"token": objects["night_live"]}) + "?tv",
        "offline": reverse("offline"),
    }


def signed_in_pages(objects):
    game, finished = objects["game"], objects["finished"]
    return {
        "home": reverse("home"),
        "new game": reverse("new_game"),
        "sheet": reverse("game", args=[game]),
        "finished sheet": reverse("game", args=[finished]),
        "round form": reverse("record_round", args=[game]),
        "correction form": reverse("edit_round", args=[game, 1]),
        "game history": reverse("game_history", args=[game]),
        "history": reverse("history"),
        "players": reverse("players"),
        "merge players": reverse("merge_players"),
        "player": reverse("player", args=[objects["player"]]),
        "leaderboard": reverse("leaderboard"),
        "my stats": reverse("my_stats"),
        "scorebooks": reverse("scorebooks"),
        "scorebook": reverse("scorebook", args=[objects["scorebook"]]),
        "trash": reverse("trash", args=[objects["scorebook"]]),
        "seasons": reverse("seasons", args=[objects["scorebook"]]),
        "season": reverse("season", args=[objects["season"]]),
        "night": reverse("night", args=[objects["night"]]),
        "new game at a night": reverse("new_game") + f"?night={objects['night']}",
        "delete account": reverse("delete_account"),
        "rules": reverse("rules"),
        "invite": reverse("invite", kwargs={"code": objects["invite"]}),
        "live": reverse("live", kwargs={"token": objects["live"]}),
        "live, TV mode": reverse("live", kwargs={"token": objects["live"]}) + "?tv",
        "offline": reverse("offline"),
    }


def axe(page) -> list[dict]:
    """The serious and critical violations axe finds on the page as it is."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [violation for violation in found if violation["impact"] in ("serious", "critical")]


def described(where: str, violation: dict) -> str:
    nodes = "; ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
    return f"{where}: {violation['id']} ({violation['impact']}, {len(violation['nodes'])} nodes: {nodes})"


@pytest.mark.parametrize("language", LANGUAGES)
def test_axe_finds_no_serious_or_critical_violation_on_any_page(browser, live_server, table, language):  # noqa: F811
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make browser` installs axe-core from the npm registry")
    user, objects = table
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True, has_touch=True,
                                  locale=LANGUAGES[language])  # fmt: skip
    page = context.new_page()
    page.set_default_timeout(10_000)
    csp = watch_csp(page)
    problems, checked = [], 0
    try:
        for signed_in, pages in ((False, signed_out_pages(objects)), (True, signed_in_pages(objects))):
            if signed_in:
                log_in(page, user.email)
            for name, url in pages.items():
                page.goto(url)
                page.wait_for_load_state("networkidle")
                assert page.evaluate("document.documentElement.lang") == language, (name, language)
                where = f"{name} ({language}, {'signed in' if signed_in else 'signed out'}, {url})"
                problems += [described(where, violation) for violation in axe(page)]
                styled = page.evaluate(
                    "Array.from(document.querySelectorAll('[style]'), (e) => e.outerHTML.slice(0, 120))"
                )
                problems += [f"{where}: an inline style: {element}" for element in styled]
                checked += 1
                if name in ("live, TV mode", "login", "round form") and language == "es":
                    screenshot(page, f"axe-{language}-{name.replace(', ', '-').replace(' ', '-')}")
    finally:
        context.close()
    assert checked == 37  # 11 pages signed out, 26 signed in: every one was checked
    problems += [f"CSP: {message}" for message in csp]
    assert problems == [], "\n".join(problems)


# Every link and control a finger may aim at in the page's header, main and footer, as a box: its
# label where a label holds it (a checkbox, a chip), else itself; what is hidden is left out.
TARGETS = """() => {
  const found = [];
  const seen = new Set();
  document.querySelectorAll("header a[href], header button, main a[href], main button, main input:not([type=hidden]), main select, main textarea, main summary, footer a[href], footer button").forEach((element) => {
    let target = element;
    if (element.matches("input[type=checkbox], input[type=radio]")) target = element.closest("label") || (element.id && document.querySelector(`label[for="${element.id}"]`)) || element;
    if (seen.has(target)) return;
    seen.add(target);
    const box = target.getBoundingClientRect();
    const style = getComputedStyle(target);
    if (!box.width || !box.height || style.visibility === "hidden" || target.closest("[hidden], .visually-hidden, .skip")) return;
    if (box.height < 44) found.push(`${target.tagName.toLowerCase()}${target.id ? "#" + target.id : ""}${target.className && typeof target.className === "string" ? "." + target.className.trim().split(/\\s+/).join(".") : ""} "${(target.textContent || target.value || target.getAttribute("aria-label") || "").trim().replace(/\\s+/g, " ").slice(0, 40)}" ${Math.round(box.height)} px`);
  });
  return found;
}"""


def test_every_link_and_control_is_at_least_44_px_tall(phone, table):  # noqa: F811
    user, objects = table
    small = []
    for signed_in, pages in ((False, signed_out_pages(objects)), (True, signed_in_pages(objects))):
        if signed_in:
            log_in(phone, user.email)
        for name, url in pages.items():
            phone.goto(url)
            phone.wait_for_load_state("networkidle")
            small += [f"{name} ({url}): {target}" for target in phone.evaluate(TARGETS)]
            screenshot(phone, f"tap-{'in' if signed_in else 'out'}-{name.replace(', ', '-').replace(' ', '-')}")
    assert small == [], "\n".join(small)
