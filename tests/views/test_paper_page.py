"""The page "Enter a paper game": the day, players and set, then the sheet's grid typed as on paper,
every round checked on save with the refusal beside its cell, all or nothing, nothing typed lost."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from scorekeeper.forms import PIPS_BOX
from scorekeeper.models import Game, Player, Scorebook

pytestmark = pytest.mark.django_db

# Double-6 for three, as the sheet has it: per row (6-6 down) Ann, Ben, Cy; "0" went out.
SHEET = [("0", "12", "20+11"), ("8", "0", "19"), ("25", "4", "0"), ("0", "5-4", "17"), ("30", "0", "6"),
         ("3", "11", "0"), ("0", "14", "22")]  # fmt: skip


@pytest.fixture
def table(client, user):
    client.force_login(user)
    book = Scorebook.personal_for(user)
    players = [Player.objects.create(scorebook=book, name=name) for name in ("Ann", "Ben", "Cy")]
    return book, players


def setup_data(book, players, days=20):
    return {"played_on": str(book.today() - timedelta(days=days)), "tile_set": "6", "players": [p.pk for p in players]}


def grid_data(book, players, sheet=SHEET, **extra):
    data = setup_data(book, players)
    for row, cells in enumerate(sheet):
        for player, text in zip(players, cells, strict=True):
            data[f"c{row}_{player.pk}"] = text
    return data | extra


def test_the_grid_has_a_row_per_double_and_a_number_keypad_in_each_cell(client, table):
    book, players = table
    assert 'type="date"' in client.get(reverse("paper_game")).content.decode()
    page = client.get(reverse("paper_game"), setup_data(book, players)).content.decode()
    # The round form's pips keypad: digits and "+" for a sum ("numeric" has no "+" on an iPhone).
    assert page.count('class="cell"') == 7 * 3 and page.count(f'inputmode="{PIPS_BOX["inputmode"]}"') == 7 * 3
    assert PIPS_BOX["inputmode"] == "tel"
    assert [f"{d}-{d}" in page for d in range(7)] == [True] * 7 and 'enterkeyhint="next"' in page
    assert "<script>" not in page


def test_a_cell_typed_on_an_iphones_phone_keypad_reads_8_star_6_comma_3_star_2_as_two_tiles(client, table):
    """The cells keep the "tel" keypad (digits and "+" on every phone): an iPhone's has no dash
    and no space, so a tile list is typed with its star and its comma, as the page says."""
    book, players = table
    page = client.get(reverse("paper_game"), setup_data(book, players)).content.decode()
    assert '<span class="example">8*6,3*2</span>' in page
    sheet = [list(row) for row in SHEET]
    sheet[3][1], sheet[6][2] = "5*4", "6*5,5*5,1*0"  # Ben's 5-4 and Cy's 6-5 5-5 1-0 (22 pips)
    response = client.post(reverse("paper_game"), grid_data(book, players, sheet))
    assert response.status_code == 302, re.findall(r'class="cell-error"[^>]*>([^<]*)', response.content.decode())
    totals = {seat.player.name: seat.total for seat in Game.objects.get().seats.select_related("player")}
    assert totals == {"Ann": 8 + 25 + 30 + 3, "Ben": 12 + 4 + (5 + 4) + 11 + 14, "Cy": 20 + 11 + 19 + 17 + 6 + 22}


def test_a_sheet_with_sums_and_tile_lists_is_saved_as_one_game_on_its_day(client, table):
    book, players = table
    response = client.post(reverse("paper_game"), grid_data(book, players))
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    assert (game.played_on, game.entered_afterwards, game.is_finished) == (
        book.today() - timedelta(days=20),
        True,
        True,
    )
    totals = {seat.player.name: seat.total for seat in game.seats.select_related("player")}
    assert totals == {"Ann": 8 + 25 + 30 + 3, "Ben": 12 + 4 + (5 + 4) + 11 + 14, "Cy": 20 + 11 + 19 + 17 + 6 + 22}


def test_cells_that_do_not_read_keep_what_was_typed_with_the_error_beside_them(client, table):
    book, players = table
    sheet = [list(row) for row in SHEET]
    sheet[1][2], sheet[3][1] = "12++", "6-5 3"
    response = client.post(reverse("paper_game"), grid_data(book, players, sheet))
    page = response.content.decode()
    assert response.status_code == 200 and not Game.objects.exists()
    for row, player, typed in ((1, players[2], "12++"), (3, players[1], "6-5 3")):
        name = f"c{row}_{player.pk}"
        cell = page[page.index(f'name="{name}"') : page.index(f'id="id_{name}-error"') + 300]
        assert f'value="{typed}"' in cell and 'aria-invalid="true"' in cell
    assert "Write a number, a sum like 12+8, or the tiles like 8-6 3-2 (got “12++”)." in page
    assert "&quot;3&quot; is not a tile" in page or "“3” is not a tile" in page or '"3" is not a tile' in page


def test_a_round_a_rule_refuses_is_shown_beside_its_cell_and_nothing_is_saved(client, table):
    book, players = table
    sheet = [list(row) for row in SHEET]
    sheet[4][0] = "0"  # Ann and Ben both went out in round 5
    response = client.post(reverse("paper_game"), grid_data(book, players, sheet))
    page = response.content.decode()
    assert response.status_code == 200 and not Game.objects.exists()
    assert 'class="has-error"' in page and "Nothing was saved" in page
    assert f'value="{sheet[6][2]}"' in page  # the rest of the sheet as typed


def test_a_day_after_today_is_refused_on_the_first_step(client, table):
    book, players = table
    data = setup_data(book, players) | {"played_on": str(book.today() + timedelta(days=1))}
    page = client.get(reverse("paper_game"), data).content.decode()
    assert "is after today" in page and 'class="cell"' not in page


def test_a_sheet_of_an_evening_that_stopped_early_is_saved_finished_after_its_last_round(client, table):
    book, players = table
    response = client.post(reverse("paper_game"), grid_data(book, players, SHEET[:3]))
    game = Game.objects.get()
    assert response.status_code == 302
    assert (game.is_finished, game.stopped_after, game.rounds.count()) == (True, 3, 3)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "We stop here" not in page


def test_the_day_played_is_written_as_every_page_writes_a_day_with_its_year_when_not_this_one(client, table):
    book, players = table
    today = book.today()
    this_year = today - timedelta(days=1) if today.timetuple().tm_yday > 1 else today
    last_year = today.replace(year=today.year - 1, day=min(today.day, 28))
    for day, shown in ((this_year, this_year.strftime("%a %-d %b")), (last_year, last_year.strftime("%a %-d %b %Y"))):
        data = setup_data(book, players) | {"played_on": str(day)}
        grid = client.get(reverse("paper_game"), data).content.decode()
        assert f"{shown} · double-6" in grid and day.strftime("%b. ") not in grid  # not "Nov. 20, 2025"
    client.post(reverse("paper_game"), grid_data(book, players) | {"played_on": str(last_year)})
    game = Game.objects.get()
    history = client.get(reverse("game_history", args=[game.pk])).content.decode()
    shown = last_year.strftime("%a %-d %b %Y")
    assert f"played on {shown}" in history and str(last_year) not in history
    assert f"Game {game.number} · {shown}" in history  # its name says the day it was played, with its year
    with translation.override("es"):
        spanish_day = date_format(last_year, "D j b Y")
    spanish = client.get(reverse("game_history", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f"jugada el {spanish_day}" in spanish


@pytest.mark.parametrize(
    ("language", "short", "words"), [("en", "dbl", "went out on a double"), ("es", "dob", "salió con un doble")]
)
def test_the_legend_names_the_double_chip_by_the_word_the_chip_shows_in_each_language(
    client, table, language, short, words
):
    """The legend said "dbl" on a Spanish page whose chips said "dob"."""
    book, players = table
    client.cookies["language"] = language
    page = client.get(reverse("paper_game"), setup_data(book, players)).content.decode()
    legend = re.search(r'<p class="muted" id="paper-legend">(.*?)</p>', page, re.S).group(1)
    chips = re.findall(r'class="chip mini"[^>]*>.*?<span aria-hidden="true">(.*?)</span>', page, re.S)
    assert set(chips) == {"0-0", short} and chips.count(short) == 7 * 3
    assert f"{short}: {words}" in legend and legend.startswith("0-0: ")


def test_a_hand_a_deal_could_hardly_hold_is_asked_about_first_and_saved_only_when_confirmed(client, table):
    """The round form's question ("A typo?"), asked for the sheet: 90 for Cy in round 2 is legal
    (check 7 allows up to 156 in a double-6 round of 5-5) but past what 7 dealt tiles hold."""
    book, players = table
    sheet = [list(row) for row in SHEET]
    sheet[1][2] = "90"
    data = grid_data(book, players, sheet)
    asked = client.post(reverse("paper_game"), data)
    page = asked.content.decode()
    assert asked.status_code == 200 and not Game.objects.exists()
    assert "Round 2: Cy: 90 pips is more than the 7 biggest tiles of a deal hold" in page and "Save anyway" in page
    assert 'value="90"' in page  # as typed
    key = re.search(r'name="confirmed" value="([0-9a-f]+)"', page)[1]
    wrong = client.post(reverse("paper_game"), data | {"confirmed": "0" * 16})
    assert wrong.status_code == 200 and not Game.objects.exists()  # another answer is no answer
    saved = client.post(reverse("paper_game"), data | {"confirmed": key})
    assert (
        saved.status_code == 302 and Game.objects.get().seats.get(player=players[2]).total == 20 + 11 + 90 + 17 + 6 + 22
    )


def test_a_sheet_saved_twice_makes_one_game_and_the_second_save_finds_it(client, table):
    """A double tap on Save, or Back then Save: the grid's own key (drawn with it) saves it once."""
    book, players = table
    grid = client.get(reverse("paper_game"), setup_data(book, players)).content.decode()
    sheet = re.search(r'name="sheet" value="([A-Za-z0-9_-]+)"', grid)[1]
    first = client.post(reverse("paper_game"), grid_data(book, players) | {"sheet": sheet})
    game = Game.objects.get()
    again = client.post(reverse("paper_game"), grid_data(book, players) | {"sheet": sheet}, follow=True)
    assert first["Location"] == again.redirect_chain[-1][0] == reverse("game", args=[game.pk])
    assert Game.objects.count() == 1 and "This sheet was saved already" in again.content.decode()
    other = client.get(reverse("paper_game"), setup_data(book, players)).content.decode()
    assert re.search(r'name="sheet" value="([A-Za-z0-9_-]+)"', other)[1] != sheet  # a new sheet, a new key


def test_a_paper_games_card_names_the_day_on_its_sheet_after_its_scorebook_moves_east(client, table):
    """Counted at 23:59:59 of its day on the clock it was entered under: a scorebook moved to UTC+14
    afterwards must not show the next day under its title on the history and home cards."""
    book, players = table
    client.post(reverse("paper_game"), grid_data(book, players))
    played_on = Game.objects.get().played_on
    Scorebook.objects.filter(pk=book.pk).update(time_zone="Pacific/Kiritimati")
    day = date_format(played_on, "D j M")
    for page in (reverse("history"), reverse("home")):
        html = client.get(page).content.decode()
        assert f"double-6 · {day}" in html, page
        assert f"double-6 · {date_format(played_on + timedelta(days=1), 'D j M')}" not in html, page
