"""Every question a page asks before doing something (each data-confirm of templates/), answered
both ways in Chromium at phone size: Cancel and the server has nothing new, OK and it did it.

The list of questions comes from the templates themselves: a form given a data-confirm tomorrow
fails this test until the walk below visits it."""

import re
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.urls import resolve
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Game, LiveLink, Membership, Night, NightLink, Round, Scorebook, Season
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.rules.seating import Change
from scorekeeper.services import live as links
from scorekeeper.services import nights
from scorekeeper.services import scorebooks as books
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in
from tests.factories import PlayerFactory, UserFactory
from tests.seasons import make_season

pytestmark = pytest.mark.django_db(transaction=True)

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# A form with a question: its action's URL name, and the question as the template writes it.
ASKING_FORM = re.compile(
    r"""<form\b[^>]*?action="\{% url '(?P<name>\w+)'[^>]*?data-confirm="\{% (?:translate '(?P<plain>[^']+)' %\}|"""
    r"""blocktranslate[^%]*%\}(?P<block>.+?)\{% endblocktranslate %\})""",
    re.S,
)


def questions_in_templates() -> dict[tuple[str, str], re.Pattern]:
    """(URL name, question) -> the question as a pattern ({{ name }} stands for any words)."""
    found = {}
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text()
        forms = list(ASKING_FORM.finditer(text))
        assert len(forms) == text.count("data-confirm="), f"{path}: a data-confirm this test cannot read"
        for form in forms:
            question = form["plain"] or form["block"]
            pattern = re.escape(question)
            pattern = re.sub(r"\\\{\\\{\\ \w+\\ \\\}\\\}", ".+", pattern)
            found[(form["name"], question)] = re.compile(pattern)
    return found


def missed(questions, answered) -> set[tuple[str, str]]:
    """The templates' questions (URL name, question) not among those answered (URL name, words asked)."""
    return {
        (name, question)
        for (name, question), pattern in questions.items()
        if not any(form == name and pattern.fullmatch(asked) for form, asked in answered)
    }


class Table:
    """The page, the questions it asked and the answers given, and every POST it sent, in order."""

    def __init__(self, page):
        self.page, self.asked, self.answer, self.posts = page, [], None, []
        page.on("dialog", self.reply)
        page.on(
            "request",
            lambda request: self.posts.append(urlparse(request.url).path) if request.method == "POST" else None,
        )

    def reply(self, dialog):
        self.asked.append(dialog.message)
        dialog.accept() if self.answer == "ok" else dialog.dismiss()

    def tap(self, button, answer: str) -> tuple[str, str]:
        """Tap a button whose form asks; answer; return (the form's URL name, the question)."""
        expect(self.page.locator("html")).to_have_attribute("data-js", "ready")  # the question is the page script's
        name = resolve(urlparse(button.evaluate("b => b.form.action")).path).url_name
        asked, posts = len(self.asked), len(self.posts)
        self.answer = answer
        button.click()
        for _ in range(100):  # the dialog's handler runs in its own time
            if len(self.asked) > asked:
                break
            self.page.wait_for_timeout(50)
        assert len(self.asked) == asked + 1, f"{name}: no question asked"
        if answer == "cancel":
            # The submit's listeners have all run by the time the page answers this: a request
            # any of them sent has been sent, and a form sent natively has left.
            self.page.evaluate("() => new Promise((resolve) => setTimeout(resolve, 0))")
            assert self.posts[posts:] == [], f"{name}: Cancel, yet the page sent {self.posts[posts:]}"
        return name, self.asked[-1]


def seat_four(book, user, names):
    ids = [PlayerFactory(scorebook=book, name=name).pk for name in names]
    game = services.create_game(by=user, players=ids[:3], rules=GameRules(tile_set=6))
    entries = [EntryInput(player=ids[0], pips=0, went_out=True), EntryInput(player=ids[1], pips=8),
               EntryInput(player=ids[2], pips=13)]  # fmt: skip
    services.record_round(game=game, starting_double=6, entries=entries)
    return services.change_seat(game=Game.objects.get(pk=game.pk), kind=Change.JOIN, player=ids[3], by=user)


@pytest.fixture
def scorebooks():
    """A keeper's personal scorebook with a game under way (a round, then a fourth player joined),
    shared live, a night shared live and a season; a club with another owner and a scorer; an
    empty scorebook; and a second game for the Spanish part."""
    user, bob, carol = UserFactory(email="keeper@example.com"), UserFactory(email="bob@example.com"), UserFactory()
    book = Scorebook.personal_for(user)
    game = seat_four(book, user, ("Ann", "Ben", "Cy", "Dee"))
    links.share(game=game, by=user)
    night = nights.create_night(book=book, role="owner", name="Friday club", date=book.today())
    nights.share(night=night, by=user)
    season = make_season(book=book, name="Autumn", starts=book.today(), ends=book.today())
    club = books.create(by=user, name="Club")
    Membership.objects.create(scorebook=club, user=bob, role="scorer")
    Membership.objects.create(scorebook=club, user=carol, role="owner")
    spare = books.create(by=user, name="Spare")
    otra = seat_four(book, user, ("Lupe", "Memo", "Chuy", "Toña"))
    return user, game, night, season, club, spare, otra


def test_every_question_cancelled_changes_nothing_and_answered_ok_does_it(phone, scorebooks):
    user, game, night, season, club, spare, otra = scorebooks
    questions = questions_in_templates()
    assert len(questions) >= 12  # the twelve there are today, at least: the templates were read
    table = Table(phone)
    cancelled, confirmed = set(), set()

    def both(button, unchanged, done, wait):
        """Cancel: `unchanged()` holds on the server; OK: once `wait()` sees the answer, `done()` holds."""
        name, question = table.tap(button(), "cancel")
        unchanged()
        cancelled.add((name, question))
        posts = len(table.posts)
        name, question = table.tap(button(), "ok")
        wait()
        assert len(table.posts) > posts
        done()
        confirmed.add((name, question))

    log_in(phone, user.email)
    page = phone

    def shown(selector):
        return lambda: expect(page.locator(selector)).to_be_visible()

    def renewed():
        link = page.locator("#live-url").input_value()
        return lambda: expect(page.locator("#live-url")).not_to_have_value(link)

    def left(path):
        return lambda: page.wait_for_url(lambda url: path not in url)

    page.goto(f"/games/{game.pk}/")
    rounds = Round.objects.filter(game=game)
    both(lambda: page.locator("#undo-seat"),
         lambda: assert_equal(game.seat_changes.count(), 1), lambda: assert_equal(game.seat_changes.count(), 0),
         shown("#undo"))  # fmt: skip
    both(lambda: page.locator("#stop-here"),
         lambda: assert_equal(Game.objects.get(pk=game.pk).status, "in_progress"),
         lambda: assert_equal(Game.objects.get(pk=game.pk).ended_because, "agreed"),
         shown(".game-over .ending"))  # fmt: skip
    screenshot(page, "130-confirmed-we-stop-here")
    both(lambda: page.locator("#undo"),
         lambda: assert_equal(rounds.count(), 1), lambda: assert_equal(rounds.count(), 0),
         shown("#restore"))  # fmt: skip
    token = LiveLink.objects.get(game=game).selector
    share = page.locator("#live-share")
    both(lambda: share.get_by_role("button", name="New link"),
         lambda: assert_equal(LiveLink.objects.get(game=game).selector, token),
         lambda: assert_not_equal(LiveLink.objects.get(game=game).selector, token),
         renewed())  # fmt: skip
    both(lambda: share.get_by_role("button", name="Stop sharing"),
         lambda: assert_equal(LiveLink.objects.filter(game=game).count(), 1),
         lambda: assert_equal(LiveLink.objects.filter(game=game).count(), 0),
         shown("#make-live"))  # fmt: skip

    def delete_game():
        if page.locator("details.manage[open]").count() == 0:
            page.locator("details.manage summary").click()
        return page.get_by_role("button", name="Delete game")

    both(delete_game,
         lambda: assert_equal(Game.objects.get(pk=game.pk).deleted_at, None),
         lambda: assert_not_equal(Game.objects.get(pk=game.pk).deleted_at, None),
         left(f"/games/{game.pk}/"))  # fmt: skip

    page.goto(f"/nights/{night.pk}/")
    token = NightLink.objects.get(night=night).selector
    share = page.locator("#live-share")
    both(lambda: share.get_by_role("button", name="New link"),
         lambda: assert_equal(NightLink.objects.get(night=night).selector, token),
         lambda: assert_not_equal(NightLink.objects.get(night=night).selector, token),
         renewed())  # fmt: skip
    both(lambda: share.get_by_role("button", name="Stop sharing"),
         lambda: assert_equal(NightLink.objects.filter(night=night).count(), 1),
         lambda: assert_equal(NightLink.objects.filter(night=night).count(), 0),
         shown("#make-live"))  # fmt: skip

    def opened(fold, name):
        def button():
            if page.locator(f"{fold}[open]").count() == 0:
                page.locator(f"{fold} summary").click()
            return page.locator(fold).get_by_role("button", name=name)

        return button

    both(opened("#edit-night", "Delete the night"),
         lambda: assert_equal(Night.objects.filter(pk=night.pk).count(), 1),
         lambda: assert_equal(Night.objects.filter(pk=night.pk).count(), 0), left(f"/nights/{night.pk}/"))  # fmt: skip

    page.goto(f"/seasons/{season.pk}/")
    both(opened("#edit-season", "Delete the season"),
         lambda: assert_equal(Season.objects.filter(pk=season.pk).count(), 1),
         lambda: assert_equal(Season.objects.filter(pk=season.pk).count(), 0), left(f"/seasons/{season.pk}/"))  # fmt: skip

    page.goto(f"/scorebooks/{spare.pk}/")
    both(opened("details.manage", "Delete scorebook"),
         lambda: assert_equal(Scorebook.objects.filter(pk=spare.pk).count(), 1),
         lambda: assert_equal(Scorebook.objects.filter(pk=spare.pk).count(), 0), left(f"/scorebooks/{spare.pk}/"))  # fmt: skip

    page.goto(f"/scorebooks/{club.pk}/")
    members = page.locator("#members")
    both(lambda: members.locator("li", has_text="bob@example.com").get_by_role("button", name="Remove"),
         lambda: assert_equal(club.memberships.filter(user__email="bob@example.com").count(), 1),
         lambda: assert_equal(club.memberships.filter(user__email="bob@example.com").count(), 0),
         lambda: expect(members).not_to_contain_text("bob@example.com"))  # fmt: skip
    both(lambda: members.get_by_role("button", name="Leave"),
         lambda: assert_equal(club.memberships.filter(user=user).count(), 1),
         lambda: assert_equal(club.memberships.filter(user=user).count(), 0), left(f"/scorebooks/{club.pk}/"))  # fmt: skip

    # Every question of the templates was asked here, and answered both ways.
    assert missed(questions, cancelled) == set()
    assert missed(questions, confirmed) == set()

    # The same at a Spanish table: "¿Deshacer el último cambio en la mesa?", then the round.
    page.goto(f"/games/{otra.pk}/")
    page.locator("#language-switch button[lang=es]").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    rounds = Round.objects.filter(game=otra)
    _name, asked = table.tap(page.locator("#undo-seat"), "cancel")
    assert asked == "¿Deshacer el último cambio en la mesa?"
    assert otra.seat_changes.count() == 1
    screenshot(page, "131-cancelled-undo-in-spanish")
    table.tap(page.locator("#undo-seat"), "ok")
    expect(page.locator("#undo")).to_be_visible()
    assert otra.seat_changes.count() == 0
    _name, asked = table.tap(page.locator("#undo"), "cancel")
    assert asked.startswith("¿Deshacer la ronda 1?")
    assert rounds.count() == 1
    table.tap(page.locator("#undo"), "ok")
    expect(page.locator("#restore")).to_be_visible()
    assert rounds.count() == 0

    # And not one POST besides the answers OK (the log-in, the language): none from a Cancel, late.
    assert [resolve(path).url_name for path in table.posts] == [
        "account_login", "undo_seat_change", "finish_game", "undo_round", "share_game", "revoke_share", "delete_game",
        "share_night", "revoke_night_share", "delete_night", "delete_season", "delete_scorebook", "remove_member",
        "remove_member", "set_language", "undo_seat_change", "undo_round",
    ]  # fmt: skip


def assert_equal(value, expected):
    assert value == expected


def assert_not_equal(value, other):
    assert value != other
