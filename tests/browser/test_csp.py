"""Every page in real Chromium under the site's Content-Security-Policy: not one violation."""

import random

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.demo import play_game
from scorekeeper.models import Invite, Scorebook
from scorekeeper.rules.game import GameRules
from scorekeeper.services import live as links
from scorekeeper.services import nights
from tests.browser.conftest import screenshot
from tests.factories import PlayerFactory, UserFactory
from tests.reliability.test_hostile_names import GET_PAGES
from tests.seasons import make_season

pytestmark = pytest.mark.django_db(transaction=True)


def watch_csp(page) -> list[str]:
    """Chromium reports each blocked script, style or frame on the console."""
    violations: list[str] = []
    page.on(
        "console",
        lambda message: violations.append(message.text) if "Content Security Policy" in message.text else None,
    )
    return violations


def log_in(page, email, password="table-talk-42"):
    page.goto(reverse("account_login"))
    page.locator("#id_login").fill(email)
    page.locator("#id_password").fill(password)
    page.locator("main form button[type=submit]").last.click()
    page.wait_for_url(lambda url: "/accounts/login" not in url)


@pytest.fixture
def table():
    user = UserFactory()
    ids = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben", "Cy")]
    rules = GameRules(tile_set=6)
    finished = services.import_game(by=user, players=ids, rules=rules, rounds=play_game(rules, ids, random.Random(3)))
    going = services.import_game(by=user, players=ids, rules=rules, rounds=play_game(rules, ids, random.Random(4))[:2])
    invite = Invite.objects.create(scorebook=Scorebook.personal_for(user), role="viewer", created_by=user)
    book = invite.scorebook
    season = make_season(book=book, name="This season", starts=book.today(), ends=book.today())
    night = nights.create_night(book=book, role="owner", name="Friday club", date=book.today())
    for game in (finished, going):  # the finished one in its standings, the other a table under way
        nights.set_night(game=game, night=night.pk)
    objects = {"game": going.pk, "player": ids[0], "finished": finished.pk, "invite": invite.code,
               "live": links.share(game=going, by=user).token, "season": season.pk, "night": night.pk,
               "night_live": nights.share(night=night, by=user).token}  # fmt: skip
    return user, objects | {"scorebook": invite.scorebook_id}


def test_no_page_breaks_the_content_security_policy(phone, table):
    user, objects = table
    violations = watch_csp(phone)
    for url in ("/", "/rules/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/", "/api/docs/"):
        response = phone.goto(url)
        assert "script-src 'self'" in response.headers["content-security-policy"]
        phone.wait_for_load_state("networkidle")
        if url in ("/", "/rules/"):
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390, url
            screenshot(phone, "00-front-door" if url == "/" else "08b-rules-how-to-play")
    expect_swagger = phone.locator(".swagger-ui .info")
    assert expect_swagger.count() == 1  # the API docs page really ran its scripts
    log_in(phone, user.email)
    urls = [reverse(name, kwargs=kwargs(objects)) for name, kwargs in GET_PAGES.items()]
    for url in [*urls, reverse("game", args=[objects["finished"]])]:
        phone.goto(url)
        phone.wait_for_load_state("networkidle")
    screenshot(phone, "csp-finished-game")
    # A boosted navigation (htmx) and a chart after it: still nothing blocked.
    phone.goto(reverse("home"))
    phone.get_by_role("link", name="Players").first.click()
    phone.wait_for_load_state("networkidle")
    assert violations == []


def test_an_inline_script_is_refused_by_the_browser(phone, table):
    """The policy is enforced, not only sent: a script injected into the page does not run."""
    violations = watch_csp(phone)
    phone.goto("/rules/")
    phone.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.pwned = 1'; document.body.append(s); }"
    )
    assert phone.evaluate("() => window.pwned === undefined")
    assert any("script-src" in text for text in violations)
