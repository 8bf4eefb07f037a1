"""A paper game entered afterwards: first the day, the players and the set (PaperSetupForm), then
the sheet's grid as it was written (PaperGridForm), a row per double and a column per player.

A cell holds what the player was left with: a number, a sum as the table counts it ("12+8",
rules.tiles.read_pips, as the round form's pips box reads it) or the tiles themselves ("8-6 3-2",
rules.tiles.split_tiles and parse_tile, as the round form's tiles field reads them); 0 is the
player who went out. Beside it, the round form's two penalties as compact toggles: held the 0-0,
went out on a double. A cell that does not read keeps what was typed, with its error beside it."""

import secrets

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import TILE_SET_CHOICES, Player
from ..rules.game import GameRules
from ..rules.rounds import EntryInput
from ..rules.tiles import DASHES, DEFAULT_SET, TileError, parse_tile, read_pips, split_tiles
from .games import PlayerChoiceField, TappedSeatsForm
from .rounds import MAX_PIPS, PIPS_BOX

# The grid's cells: what the phone shows, and moving like a spreadsheet. The keypad is the round form's
# pips keypad, inputmode "tel": nearly every cell of a paper sheet is a number or a sum, and "tel" gives
# big digit keys with "+" on iOS and Android alike ("numeric" has no "+" on an iPhone and "decimal" no
# separator; "text" opens the letters, two taps more per cell on an iPhone, 13 rows x 4 players a
# sheet). A tile list needs a dash and a space, which the iPhone's "tel" keypad lacks: the tile grammar
# takes its "*" as a tile's dash and its "," (pause) between tiles, "8*6,3*2" (rules.tiles.DASHES,
# SEPARATORS); Android's "tel" keypad has "-" and the space too.
CELL = {"inputmode": PIPS_BOX["inputmode"], "autocomplete": "off", "enterkeyhint": "next", "spellcheck": "false",
        "autocapitalize": "off", "class": "cell"}  # fmt: skip
CELL_TEXT = 200  # characters: a hand of tiles written out is far shorter


class PaperSetupForm(TappedSeatsForm):
    """The day it was played, who played (in the order tapped, as on the new-game page), and the
    set: what the grid is drawn from (a GET form)."""

    played_on = forms.DateField(
        label=gettext_lazy("Day it was played"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    players = PlayerChoiceField(
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Players"),
        error_messages={"required": gettext_lazy("Tick the players of the sheet: at least two.")},
    )
    tile_set = forms.TypedChoiceField(
        choices=TILE_SET_CHOICES, coerce=int, initial=DEFAULT_SET, label=gettext_lazy("Set")
    )
    name = forms.CharField(max_length=80, required=False, label=gettext_lazy("Name (optional)"))

    def __init__(self, *args, scorebook, **kwargs):
        super().__init__(*args, **kwargs)
        self.scorebook = scorebook
        self.fields["players"].queryset = Player.objects.filter(scorebook=scorebook).active()
        self.fields["played_on"].widget.attrs["max"] = scorebook.today().isoformat()

    def clean_played_on(self):
        from ..rules.paper import day_problem  # the rules say which days a sheet may have

        day = self.cleaned_data["played_on"]
        if (problem := day_problem(day, self.scorebook.today())) is not None:
            raise forms.ValidationError(str(problem))
        return day

    def seated(self) -> list[Player]:
        """The players in seat order (the order tapped): the grid's columns, the game's seats."""
        chosen = {player.pk: player for player in self.cleaned_data["players"]}
        return [chosen[pk] for pk in self.seated_player_ids()]


class Cell:
    """One cell of the grid, for the template: its bound fields and the errors beside it."""

    def __init__(self, form, row: int, player: Player):
        self.player, self.row = player, row
        self.text = form[f"c{row}_{player.pk}"]
        self.double_blank = form[f"z{row}_{player.pk}"]
        self.ended_on_double = form[f"d{row}_{player.pk}"]
        self.problems = list(self.text.errors) + form.cell_problems.get((row, player.pk), [])


class PaperGridForm(forms.Form):
    """The grid: a row per double of the set's pass (13 for double-12), a column per player. The
    rows filled in are the rounds played, in order; the first empty row ends the game's rounds."""

    def __init__(self, *args, players: list[Player], rules: GameRules, **kwargs):
        super().__init__(*args, **kwargs)
        self.players, self.rules = players, rules
        self.doubles = list(rules.one_pass)
        self.cell_problems: dict[tuple[int, int], list[str]] = {}
        self.row_problems: dict[int, list[str]] = {}
        # The sheet's own key, made when its grid is first drawn and sent back with every save: a
        # second save of the same sheet (a double tap, Back then Save) finds the game the first made.
        self.fields["sheet"] = forms.CharField(
            required=False, max_length=64, widget=forms.HiddenInput, initial=secrets.token_urlsafe(18)
        )
        for row, double in enumerate(self.doubles):
            for player in players:
                label = _("{name}, round {number} ({double}-{double})").format(
                    name=player.name, number=row + 1, double=double
                )
                self.fields[f"c{row}_{player.pk}"] = forms.CharField(
                    required=False, max_length=CELL_TEXT, label=label, widget=forms.TextInput(CELL)
                )
                self.fields[f"z{row}_{player.pk}"] = forms.BooleanField(
                    required=False, label=_("{name} held the 0-0").format(name=player.name),
                    widget=forms.CheckboxInput({"class": "double_blank"}),
                )  # fmt: skip
                self.fields[f"d{row}_{player.pk}"] = forms.BooleanField(
                    required=False, label=_("{name} went out on a double").format(name=player.name),
                    widget=forms.CheckboxInput({"class": "ended_on_double"}),
                )  # fmt: skip

    def grid(self) -> list[dict]:
        """Per row: its double and its cells, for the template."""
        return [
            {"number": row + 1, "double": double, "problems": self.row_problems.get(row, []),
             "cells": [Cell(self, row, player) for player in self.players]}
            for row, double in enumerate(self.doubles)
        ]  # fmt: skip

    def clean(self):
        cleaned = super().clean()
        self.read = {}
        for row in range(len(self.doubles)):
            for player in self.players:
                name = f"c{row}_{player.pk}"
                text = (cleaned.get(name) or "").strip()
                if not text:
                    continue
                try:
                    self.read[(row, player.pk)] = read_cell(text, self.rules.tile_set)
                except forms.ValidationError as error:
                    self.add_error(name, error)
        filled = sorted(
            {row for row, _pk in self.read} | {int(n[1:].split("_")[0]) for n in self.errors if n[:1] == "c"}
        )
        if not filled and not self.errors:
            raise forms.ValidationError(_("Type the sheet's first round: a number in each player's cell."))
        for row in range(len(filled)):
            if row not in filled:  # a gap: the rounds of a sheet follow one another
                self.row_problems.setdefault(row, []).append(_("Fill this round in: later rounds are filled."))
        for row in filled:
            for player in self.players:
                if (row, player.pk) not in self.read and f"c{row}_{player.pk}" not in self.errors:
                    self.add_error(f"c{row}_{player.pk}", _("Type what {name} was left with (0: went out).").format(
                        name=player.name))  # fmt: skip
        if self.row_problems:
            raise forms.ValidationError(_("Some rounds are not filled in."))
        return cleaned

    def rounds(self) -> list[tuple[int, list[EntryInput]]]:
        """The rounds as the sheet has them, for services.enter_paper_game."""
        data, rounds = self.cleaned_data, []
        for row, double in enumerate(self.doubles):
            if not any((row, player.pk) in self.read for player in self.players):
                break
            entries = []
            for player in self.players:
                pips, tiles = self.read[(row, player.pk)]
                held = data[f"z{row}_{player.pk}"]
                went_out = pips == 0 and not tiles and not held
                entries.append(EntryInput(player=player.pk, pips=pips, tiles=tiles, went_out=went_out,
                                          double_blank=held or (None if tiles else False),
                                          ended_on_double=data[f"d{row}_{player.pk}"]))  # fmt: skip
            rounds.append((double, entries))
        return rounds

    def refused(self, errors: dict, round_errors) -> None:
        """What the service refused, beside its cell (a round's entry), its row, or the form."""
        for key, messages in errors.items():
            if key.startswith("rounds[") and key.endswith("]"):
                row = int(key[7:-1])
                placed = False
                for error in round_errors:
                    if error.player is not None and any(p.pk == error.player for p in self.players):
                        self.cell_problems.setdefault((row, error.player), []).append(str(error.message))
                        placed = True
                if not placed:
                    self.row_problems.setdefault(row, []).extend(messages)
            else:
                self.add_error(None, messages)


def read_cell(text: str, highest: int) -> tuple[int | None, tuple[str, ...] | None]:
    """A cell as typed: (pips, None) for a number or a sum, (None, tiles) for a list of tiles; what
    does not read is a ValidationError saying how to write it."""
    if len(text) <= CELL_TEXT and (pips := read_pips(text)) is not None:
        if pips > MAX_PIPS:
            raise forms.ValidationError(_("That is more pips than a hand can hold ({pips}).").format(pips=pips))
        return pips, None
    tiles = split_tiles(text)
    if tiles and any(mark in text for mark in DASHES):
        try:
            for tile in tiles:
                parse_tile(tile, highest)
        except TileError as error:
            raise forms.ValidationError(str(error)) from None
        return None, tuple(tiles)
    raise forms.ValidationError(
        _("Write a number, a sum like 12+8, or the tiles like 8-6 3-2 (got “{text}”).").format(text=text[:20])
    )
