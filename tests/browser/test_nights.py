"""A club night of three tables (4, 5 and 6 players, long names) on a 390 px phone: the club's TV
view (the night's live link, TV mode, no account) shows every table and the standings, and follows
a round entered at another table within 3 s; the members' night page starts a game in the night.
Nothing scrolls sideways, every tap target is 44 px."""

from datetime import date

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Game, Role, Scorebook
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput
from scorekeeper.services import nights
from tests.browser.conftest import screenshot
from tests.browser.test_csp import log_in
from tests.browser.test_leaderboard_fit import assert_fits_a_phone
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SOON = 3000  # ms: a club's screen follows any table within 3 s
TABLES = (
    ("María Guadalupe Fernández Concepción", "José", "Ann", "Ben"),
    ("Bartholomew Featherstonehaugh-Smythe", "Cy", "Dot", "Eve", "Fay"),
    ("Gus", "Hal", "Ida", "🐔 Jo", "Kim", "Lou"),
)


def play(game, double, pips):
    """One round: the first seat at 0 went out, the others hold `pips` in seat order."""
    game = Game.objects.get(pk=game.pk)
    seats = [seat.player_id for seat in game.seats.order_by("position")]
    services.record_round(game=game, starting_double=double, by=None, entries=[
        EntryInput(player=p, pips=v, went_out=v == 0) for p, v in zip(seats, pips, strict=True)])  # fmt: skip


@pytest.fixture
def club_night():
    user = UserFactory()
    book = Scorebook.personal_for(user)
    night = nights.create_night(book=book, role=Role.OWNER, name="Friday club at the Legion Hall", date=date.today())
    games = []
    for number, names in enumerate(TABLES, start=1):
        players = [PlayerFactory(owner=user, name=name) for name in names]
        games.append(services.create_game(by=user, scorebook=book, players=[p.pk for p in players],
                                          rules=GameRules(tile_set=6), name=f"Table {number}", night=night.pk))  # fmt: skip
    play(games[0], 6, [0, 9, 14, 22])
    services.finish_game(game=Game.objects.get(pk=games[0].pk), by=user)  # table 1 is over: the standings start
    play(games[1], 6, [5, 0, 3, 8, 12])
    play(games[2], 6, [0, 4, 7, 2, 9, 11])
    return user, night, games, nights.share(night=night, by=user)


def test_the_clubs_tv_follows_a_round_at_another_table_within_3_seconds(phone, club_night):
    _user, _night, games, link = club_night
    phone.goto(f"/live/nights/{link.token}/?tv")
    expect(phone.locator("body.tv")).to_have_count(1)
    tables = phone.locator(".night-table")
    expect(tables).to_have_count(3)
    expect(tables.nth(0).locator(".table-state")).to_contain_text("finished")
    expect(tables.nth(2).locator(".table-state")).to_contain_text("Next: round 2")
    expect(phone.locator(".night-standings li")).to_have_count(4)  # table 1's players: the only one over
    expect(phone.locator(".night-standings li").first).to_contain_text("María Guadalupe")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "34-night-tv")
    play(games[2], 5, [9, 0, 6, 8, 4, 2])  # Hal goes out at table 3 and leads it (4 against 9)
    expect(tables.nth(2).locator(".table-state")).to_contain_text("Next: round 3", timeout=SOON)
    expect(tables.nth(2).locator(".table-leader")).to_have_text("Hal", timeout=SOON)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "34-night-tv-followed")


def test_a_member_starts_a_game_at_the_night_from_its_page(phone, club_night):
    user, night, _games, _link = club_night
    log_in(phone, user.email)
    phone.goto(f"/nights/{night.pk}/")
    expect(phone.locator(".night-table")).to_have_count(3)
    assert_fits_a_phone(phone)
    screenshot(phone, "34-night-page")
    phone.locator("#start-game").click()
    expect(phone.locator("#new-game-night")).to_contain_text(night.name)
    for name in ("Ann", "José"):
        phone.get_by_text(name, exact=True).click()
    phone.locator("#new-game button[type=submit]").last.click()
    expect(phone.locator("#game-night")).to_have_text(night.name)
    assert Game.objects.latest("pk").night_id == night.pk
    phone.goto(f"/nights/{night.pk}/")
    expect(phone.locator(".night-table")).to_have_count(4)
