"""The new-game form, its presets, and renaming a game."""

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..converters import parse_id
from ..models import JOIN_TOTAL_CHOICES, TIE_BREAK_CHOICES, TILE_SET_CHOICES, Player
from ..rules.game import DEFAULT_PENALTY, MAX_PENALTY, MAX_TARGET_SCORE, RULE_FIELDS, GameRules, TieBreak
from ..rules.seating import JoinTotal
from ..rules.tiles import DEFAULT_SET
from .common import NUMERIC

# Presets drawn from the rule texts the product grew from; every option stays editable.
PRESETS = {
    "standard": (
        format_lazy(
            gettext_lazy("Standard double-{n}, both penalties {points}"), n=DEFAULT_SET, points=DEFAULT_PENALTY
        ),
        GameRules(),
    ),
    "double-9-quarter": (gettext_lazy("Double-9, the 0-0 costs 25"), GameRules(tile_set=9, double_blank_penalty=25)),
    "extended": (gettext_lazy("Extended: down to 0-0 and back up"), GameRules(extended=True)),
    "target": (gettext_lazy("Play to 500 points"), GameRules(target_score=500)),
    "short": (
        format_lazy(gettext_lazy("Short game: double-{n} from {first}-{first} down"), n=DEFAULT_SET, first=9),
        GameRules(first_double=9),
    ),
    "seven-rounds": (
        gettext_lazy("7 rounds, a tie goes to who went out most"),
        GameRules(rounds=7, tie_break=TieBreak.MOST_WENT_OUT),
    ),
}


def form_values(rules: GameRules) -> dict:
    """The rules as the new-game form shows them: the first double left empty when it is the set's
    own top double, so changing the set does not leave it behind."""
    values = rules.as_dict()
    if values["first_double"] == rules.tile_set:
        values["first_double"] = None
    return values


class PlayerChoiceField(forms.ModelMultipleChoiceField):
    """Refuses ids no database column could hold before they reach a query."""

    def _check_values(self, value):
        for pk in value:
            if parse_id(pk) is None:
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"], code="invalid_pk_value", params={"pk": str(pk)[:20]}
                )
        return super()._check_values(value)


class TappedSeatsForm(forms.Form):
    """A form whose players are seated in the order they were tapped (new-game.js numbers the seats
    and writes that order into `seat_order`): the new game's, the paper game's."""

    seat_order = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_seat_order(self) -> list[int]:
        """The page's script writes the tapped players' ids here, comma-separated."""
        items = [item for item in self.cleaned_data["seat_order"].split(",") if item.strip()]
        ids = [parse_id(item) for item in items]
        if None in ids:
            raise forms.ValidationError(_("The seat order is not a list of players: tap the players again."))
        return ids

    def seated_player_ids(self) -> list[int]:
        """The chosen players in the order tapped; any not in that order (no script) after them, as listed."""
        chosen = [player.pk for player in self.cleaned_data["players"]]
        tapped = self.cleaned_data.get("seat_order") or []
        ordered = [pk for pk in dict.fromkeys(tapped) if pk in chosen]
        return ordered + [pk for pk in chosen if pk not in ordered]


class NewGameForm(TappedSeatsForm):
    name = forms.CharField(
        max_length=80,
        required=False,
        label=gettext_lazy("Name"),
        help_text=gettext_lazy("Empty: the day's name and date."),
    )
    players = PlayerChoiceField(
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Players"),
        error_messages={"required": gettext_lazy("Tick the players at the table: at least two.")},
    )
    preset = forms.ChoiceField(
        choices=[(key, label) for key, (label, _rules) in PRESETS.items()],
        initial="standard",
        widget=forms.RadioSelect,
        required=False,
    )
    tile_set = forms.TypedChoiceField(
        choices=TILE_SET_CHOICES, coerce=int, initial=DEFAULT_SET, label=gettext_lazy("Set")
    )
    double_blank_penalty = forms.IntegerField(
        min_value=0,
        max_value=MAX_PENALTY,
        initial=DEFAULT_PENALTY,
        label=gettext_lazy("Holding the 0-0 costs"),
        widget=forms.NumberInput(NUMERIC),
    )
    end_on_double_penalty = forms.IntegerField(
        min_value=0,
        max_value=MAX_PENALTY,
        initial=DEFAULT_PENALTY,
        label=gettext_lazy("Going out on a double costs"),
        widget=forms.NumberInput(NUMERIC),
    )
    extended = forms.BooleanField(required=False, label=gettext_lazy("Extended: after 0-0, back up to the top double"))
    target_score = forms.IntegerField(
        min_value=1, max_value=MAX_TARGET_SCORE, required=False, label=gettext_lazy("Play to a target score (empty: one pass)"),
        widget=forms.NumberInput(NUMERIC),
    )  # fmt: skip
    # House options (the rules page, /rules/): a shorter sequence, a number of rounds, how ties are ranked.
    # Their ranges are the rules' (GameRules.problems, in clean): one message each, all at once.
    first_double = forms.IntegerField(
        required=False, label=gettext_lazy("Start from this double (empty: the set's top double)"),
        widget=forms.NumberInput(NUMERIC),
    )  # fmt: skip
    rounds = forms.IntegerField(
        required=False, label=gettext_lazy("End after this many rounds (empty: no limit)"),
        widget=forms.NumberInput(NUMERIC),
    )  # fmt: skip
    tie_break = forms.ChoiceField(
        choices=TIE_BREAK_CHOICES, initial=TieBreak.SHARED, widget=forms.RadioSelect, label=gettext_lazy("Equal totals"),
        required=False,  # not sent: shared, as before the option existed
    )  # fmt: skip

    join_total = forms.ChoiceField(
        choices=JOIN_TOTAL_CHOICES, initial=JoinTotal.HIGHEST, widget=forms.RadioSelect, required=False,
        label=gettext_lazy("Someone who joins late starts with"),
    )  # fmt: skip

    casual = forms.BooleanField(
        required=False,
        label=gettext_lazy("Friendly game: counts in no leaderboard, rating or season"),
    )

    def clean_tie_break(self) -> str:
        return self.cleaned_data["tie_break"] or TieBreak.SHARED

    def clean_join_total(self) -> str:
        return self.cleaned_data["join_total"] or JoinTotal.HIGHEST

    def __init__(self, *args, scorebook, night: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = Player.objects.filter(scorebook=scorebook).active()
        from ..services import default_game_name  # the services read the forms' choices

        # What an empty name becomes (at a night: its next table).
        self.fields["name"].widget.attrs["placeholder"] = default_game_name(scorebook, night)

    def clean(self):
        """The options together, as the rules judge them (a first double beyond the set, a number
        of rounds out of range, a target with 0-0 alone): every problem beside its field at once."""
        cleaned = super().clean()
        if all(name in cleaned for name in RULE_FIELDS):
            for field, problem in self.game_rules().problems().items():
                self.add_error(field, str(problem))
        return cleaned

    def game_rules(self) -> GameRules:
        return GameRules(**{name: self.cleaned_data[name] for name in RULE_FIELDS})


class RenameGameForm(forms.Form):
    name = forms.CharField(max_length=80, required=False)
