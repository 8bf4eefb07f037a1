"""Page forms. They parse input; the services and the rules module decide what is allowed."""

from django import forms
from django.db.models.functions import Lower

from .models import TILE_SET_CHOICES, Player
from .rules.game import MAX_PENALTY, MAX_TARGET_SCORE, GameRules
from .rules.rounds import EntryInput
from .stats import PERIODS, SORTS, period_start

NUMERIC = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}

# Presets drawn from the rule texts the product grew from; every option stays editable.
PRESETS = {
    "standard": ("Standard double-12, both penalties 50", GameRules()),
    "double-9-quarter": ("Double-9, the 0-0 costs 25", GameRules(tile_set=9, double_blank_penalty=25)),
    "extended": ("Extended: down to 0-0 and back up", GameRules(extended=True)),
    "target": ("Play to 500 points", GameRules(target_score=500)),
}


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name"]

    def __init__(self, *args, owner, **kwargs):
        super().__init__(*args, **kwargs)
        self.owner = owner
        self.fields["name"].widget.attrs.update({"autocomplete": "off", "autocapitalize": "words"})

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        taken = Player.objects.for_user(self.owner).annotate(lower=Lower("name")).filter(lower=name.lower())
        if self.instance.pk:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise forms.ValidationError(f'You already have a player named "{name}".')
        return name

    def save(self, commit=True):
        self.instance.owner = self.owner
        return super().save(commit)


class NewGameForm(forms.Form):
    name = forms.CharField(max_length=80, required=False, widget=forms.TextInput(attrs={"placeholder": "Friday night"}))
    players = forms.ModelMultipleChoiceField(queryset=Player.objects.none(), widget=forms.CheckboxSelectMultiple)
    # The order players were tapped in, filled by the page's script: that is the seat order.
    seat_order = forms.CharField(required=False, widget=forms.HiddenInput)
    preset = forms.ChoiceField(
        choices=[(key, label) for key, (label, _) in PRESETS.items()],
        initial="standard",
        widget=forms.RadioSelect,
        required=False,
    )
    tile_set = forms.TypedChoiceField(choices=TILE_SET_CHOICES, coerce=int, initial=12, label="Set")
    double_blank_penalty = forms.IntegerField(
        min_value=0, max_value=MAX_PENALTY, initial=50, label="Holding the 0-0 costs", widget=forms.NumberInput(NUMERIC)
    )
    end_on_double_penalty = forms.IntegerField(
        min_value=0,
        max_value=MAX_PENALTY,
        initial=50,
        label="Going out on a double costs",
        widget=forms.NumberInput(NUMERIC),
    )
    extended = forms.BooleanField(required=False, label="Extended: after 0-0, back up to the top double")
    target_score = forms.IntegerField(
        min_value=1, max_value=MAX_TARGET_SCORE, required=False, label="Play to a target score (empty: one pass)",
        widget=forms.NumberInput(NUMERIC),
    )  # fmt: skip

    def __init__(self, *args, owner, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = Player.objects.for_user(owner)

    def seated_player_ids(self) -> list[int]:
        chosen = [player.pk for player in self.cleaned_data["players"]]
        tapped = [int(pk) for pk in self.cleaned_data.get("seat_order", "").split(",") if pk.strip().isdigit()]
        ordered = [pk for pk in dict.fromkeys(tapped) if pk in chosen]
        return ordered + [pk for pk in chosen if pk not in ordered]

    def game_rules(self) -> GameRules:
        data = self.cleaned_data
        return GameRules(
            tile_set=data["tile_set"],
            double_blank_penalty=data["double_blank_penalty"],
            end_on_double_penalty=data["end_on_double_penalty"],
            extended=data["extended"],
            target_score=data["target_score"],
        )


class RoundForm(forms.Form):
    """One screen for a whole round: a row of fields per seated player."""

    starting_double = forms.TypedChoiceField(coerce=int, label="Starting double")
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, seats, doubles, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.fields["starting_double"].choices = [(d, f"{d}-{d}") for d in doubles]
        for seat in seats:
            prefix = f"p{seat.player_id}"
            self.fields[f"{prefix}_pips"] = forms.IntegerField(
                required=False, min_value=0, max_value=100_000, label=f"{seat.player.name}: pips left",
                widget=forms.NumberInput({**NUMERIC, "class": "pips", "placeholder": "pips"}),
            )  # fmt: skip
            self.fields[f"{prefix}_tiles_left"] = forms.IntegerField(
                required=False, min_value=0, max_value=1000, label="tiles left (optional)",
                widget=forms.NumberInput({**NUMERIC, "class": "tiles", "placeholder": "tiles"}),
            )  # fmt: skip
            for toggle, label in (
                ("went_out", "went out"),
                ("double_blank", "holds 0-0"),
                ("ended_on_double", "ended on a double"),
            ):
                self.fields[f"{prefix}_{toggle}"] = forms.BooleanField(required=False, label=label)

    def rows(self):
        """Per seat: the player and their bound fields, for the template."""
        for seat in self.seats:
            prefix = f"p{seat.player_id}"
            yield {
                "seat": seat,
                "pips": self[f"{prefix}_pips"],
                "tiles_left": self[f"{prefix}_tiles_left"],
                "toggles": [self[f"{prefix}_{name}"] for name in ("went_out", "double_blank", "ended_on_double")],
            }

    def entries(self) -> list[EntryInput]:
        data = self.cleaned_data
        entries = []
        for seat in self.seats:
            prefix = f"p{seat.player_id}"
            went_out = data[f"{prefix}_went_out"]
            pips = data[f"{prefix}_pips"]
            entries.append(
                EntryInput(
                    player=seat.player_id,
                    # A player who went out holds nothing: an empty pips box means 0 there.
                    pips=0 if went_out and pips is None else pips,
                    tiles_left=data[f"{prefix}_tiles_left"],
                    double_blank=data[f"{prefix}_double_blank"],
                    went_out=went_out,
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
                f"{prefix}_tiles_left": entry.tiles_left,
                f"{prefix}_went_out": entry.went_out,
                f"{prefix}_double_blank": entry.double_blank,
                f"{prefix}_ended_on_double": entry.ended_on_double,
            }
        return initial


class RenameGameForm(forms.Form):
    name = forms.CharField(max_length=80, required=False)


class StatsFilterForm(forms.Form):
    """Filters of the leaderboard and player pages; anything unknown falls back to all games."""

    tile_set = forms.TypedChoiceField(
        choices=[("", "All sets"), *TILE_SET_CHOICES], coerce=int, empty_value=None, required=False, label="Set"
    )
    period = forms.ChoiceField(choices=list(PERIODS.items()), required=False, label="Period")
    sort = forms.ChoiceField(
        choices=[(f"{sign}{key}", key) for key in SORTS for sign in ("", "-")], required=False, widget=forms.HiddenInput
    )

    def options(self) -> dict:
        data = self.cleaned_data if self.is_valid() else {}
        return {"tile_set": data.get("tile_set"), "since": period_start(data.get("period") or "all")}
