"""The round form: a row of fields per seated player, and the pips box it and other forms use."""

import json

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..rules.rounds import SETTLED_BY, EntryInput
from ..rules.tiles import read_pips, read_tile_list, split_tiles
from .common import NUMERIC

MAX_PIPS = 100_000


class PipsField(forms.Field):
    """A pips box: a number, or a sum as the table counts it ("12+9+4" is 25, rules.tiles.read_pips),
    or the tiles themselves ("8-6 3-2", rules.tiles.read_tile_list: a list, read as the tiles box's).
    Phones show it a keypad with "+" (inputmode "tel": the numeric keypads of iOS have no "+", and
    a number box would drop the whole sum); the page shows "= 25" as it is typed (round-entry.js)."""

    widget = forms.TextInput

    def to_python(self, value) -> int | list[str] | None:
        text = str(value).strip() if value is not None else ""
        if not text:
            return None
        pips = read_pips(text) if len(text) <= 400 else None  # a box is no place for a long text
        if pips is None and len(text) <= 400 and (tiles := read_tile_list(text)) is not None:
            return tiles
        if pips is None:
            raise forms.ValidationError(
                _(
                    "Write the pips as a number, or as a sum like 12+9+4, or as the tiles like 8-6 3-2 (got “{text}”)."
                ).format(text=text[:20]),
                code="invalid",
            )
        if pips > MAX_PIPS:
            raise forms.ValidationError(
                _("That is more pips than a hand can hold ({pips}).").format(pips=pips), code="max_value"
            )
        return pips


PIPS_BOX = {"inputmode": "tel", "autocomplete": "off", "class": "pips", "enterkeyhint": "next", "spellcheck": "false"}

# A round's switches per player: field, label, the chip's short text.
TOGGLES = (
    ("went_out", gettext_lazy("went out"), gettext_lazy("out")),
    ("double_blank", gettext_lazy("holds 0-0"), "0-0"),
    ("ended_on_double", gettext_lazy("went out on a double"), gettext_lazy("dbl")),
)


class RoundForm(forms.Form):
    """One screen for a whole round: a row of fields per seated player."""

    starting_double = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Starting double"))
    # The game's version the page was drawn from, and the round a new one was entered as: a round
    # another phone saved meanwhile is shown beside this one (round_taken), never saved twice.
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    number = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1, max_value=2**31 - 1)

    def __init__(self, *args, seats, doubles, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.fields["starting_double"].choices = [(d, f"{d}-{d}") for d in doubles]
        for seat in seats:
            prefix = f"p{seat.player_id}"
            self.fields[f"{prefix}_pips"] = PipsField(
                required=False, label=_("{name}: pips left").format(name=seat.player.name),
                widget=forms.TextInput({**PIPS_BOX, "placeholder": _("pips")}),
            )  # fmt: skip
            self.fields[f"{prefix}_tiles"] = forms.CharField(
                required=False, max_length=2000, label=_("tiles in hand (optional)"),
                widget=forms.TextInput({"class": "tile-list", "placeholder": _("e.g. 12-3 5-5 0-4"), "autocomplete": "off",
                                        "autocapitalize": "off", "spellcheck": "false"}),
            )  # fmt: skip
            self.fields[f"{prefix}_tiles_left"] = forms.IntegerField(
                required=False, min_value=0, max_value=1000, label=_("tiles left (optional)"),
                widget=forms.NumberInput({**NUMERIC, "class": "tiles", "placeholder": _("tiles")}),
            )  # fmt: skip
            for toggle, label, _short in TOGGLES:
                # What ticking it settles (the rules' checks 3 and 4): the script fills that in.
                settles = {"data-settles": json.dumps(SETTLED_BY[toggle])} if toggle in SETTLED_BY else {}
                self.fields[f"{prefix}_{toggle}"] = forms.BooleanField(
                    required=False, label=label, widget=forms.CheckboxInput({"class": toggle, **settles})
                )

    def rows(self):
        """Per seat: the player and their bound fields, for the template."""
        for seat in self.seats:
            prefix = f"p{seat.player_id}"
            yield {
                "seat": seat,
                "pips": self[f"{prefix}_pips"],
                "tiles_left": self[f"{prefix}_tiles_left"],
                "tiles": self[f"{prefix}_tiles"],
                "toggles": [(self[f"{prefix}_{name}"], short) for name, _label, short in TOGGLES],
            }

    def clean(self):
        data = super().clean()
        for seat in self.seats:
            prefix = f"p{seat.player_id}"
            if isinstance(data.get(f"{prefix}_pips"), list) and split_tiles(data.get(f"{prefix}_tiles") or ""):
                self.add_error(f"{prefix}_pips", _("Tiles are listed in both boxes: keep one list, or the pips here."))
        return data

    def entries(self) -> list[EntryInput]:
        data = self.cleaned_data
        entries = []
        for seat in self.seats:
            prefix = f"p{seat.player_id}"
            tiles, pips = split_tiles(data[f"{prefix}_tiles"]), data[f"{prefix}_pips"]
            if isinstance(pips, list):  # the tiles typed in the pips box: the list is theirs, the pips its sum
                tiles, pips = pips, None
            entries.append(
                EntryInput(
                    player=seat.player_id,
                    # Empty stays empty: the rules read it (check 10), as they read the API's
                    # (a player who went out holds nothing: 0; anyone else: pips_required).
                    pips=pips,
                    tiles_left=data[f"{prefix}_tiles_left"],
                    tiles=tiles,
                    # With a list, the 0-0 box only needs ticking to double-check the list.
                    double_blank=data[f"{prefix}_double_blank"] or (None if tiles is not None else False),
                    went_out=data[f"{prefix}_went_out"],
                    ended_on_double=data[f"{prefix}_ended_on_double"],
                )
            )
        return entries

    @classmethod
    def initial_for(cls, round_):
        initial = {}
        for entry in round_.entries.all():
            prefix = f"p{entry.player_id}"
            initial |= {
                f"{prefix}_pips": entry.pips,
                f"{prefix}_tiles": " ".join(entry.tiles),
                f"{prefix}_tiles_left": entry.tiles_left,
                f"{prefix}_went_out": entry.went_out,
                f"{prefix}_double_blank": entry.double_blank,
                f"{prefix}_ended_on_double": entry.ended_on_double,
            }
        return initial
