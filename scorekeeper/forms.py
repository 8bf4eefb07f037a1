"""Page forms. They parse input; the services and the rules module decide what is allowed."""

import json

from django import forms
from django.utils.text import Truncator, format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .converters import parse_id
from .models import JOIN_TOTAL_CHOICES, TIE_BREAK_CHOICES, TILE_SET_CHOICES, Player
from .reads.stats import PERIODS, SORTS, period_start
from .rules.game import DEFAULT_PENALTY, MAX_PENALTY, MAX_TARGET_SCORE, RULE_FIELDS, GameRules, TieBreak
from .rules.rounds import SETTLED_BY, EntryInput
from .rules.seating import JoinTotal
from .rules.tiles import DEFAULT_SET, read_pips, split_tiles

NUMERIC = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}

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


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name"]
        labels = {"name": gettext_lazy("Name")}

    def __init__(self, *args, scorebook, **kwargs):
        super().__init__(*args, **kwargs)
        self.scorebook = scorebook
        self.fields["name"].widget.attrs.update({"autocomplete": "off", "autocapitalize": "words"})

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        taken = Player.objects.filter(scorebook=self.scorebook).named(name)
        if self.instance.pk:
            taken = taken.exclude(pk=self.instance.pk)
        clash = taken.only("name", "archived").first()
        if clash is not None and clash.archived:
            raise forms.ValidationError(
                _(
                    '{book} already has a player named "{name}", archived: bring them back from the players page.'
                ).format(book=self.scorebook.name, name=clash.name)
            )
        if clash is not None:
            raise forms.ValidationError(
                _('{book} already has a player named "{name}".').format(book=self.scorebook.name, name=clash.name)
            )
        return name

    def save(self, commit=True):
        self.instance.scorebook = self.scorebook
        return super().save(commit)


class PlayerChoiceField(forms.ModelMultipleChoiceField):
    """Refuses ids no database column could hold before they reach a query."""

    def _check_values(self, value):
        for pk in value:
            if parse_id(pk) is None:
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"], code="invalid_pk_value", params={"pk": str(pk)[:20]}
                )
        return super()._check_values(value)


class MergeForm(forms.Form):
    """Two names for one person made one: `player` merged into `into`, both of one scorebook's players."""

    player = forms.ModelChoiceField(queryset=Player.objects.none(), label=gettext_lazy("Merge this player"))
    into = forms.ModelChoiceField(queryset=Player.objects.none(), label=gettext_lazy("into this one, who stays"))

    def __init__(self, *args, scorebook, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("player", "into"):
            self.fields[name].queryset = Player.objects.filter(scorebook=scorebook)
            self.fields[name].error_messages["invalid_choice"] = _("Choose a player of this scorebook.")

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("player") is not None and cleaned.get("player") == cleaned.get("into"):
            self.add_error("into", _("A player cannot be merged into themselves."))
        return cleaned


class NewGameForm(forms.Form):
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
    # The order players were tapped in, filled by the page's script: that is the seat order.
    seat_order = forms.CharField(required=False, widget=forms.HiddenInput)
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
    # House options (RULES.md): a shorter sequence, a number of rounds, how ties are ranked.
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

    def __init__(self, *args, scorebook, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = Player.objects.filter(scorebook=scorebook).active()
        from .services import default_game_name  # the services read the forms' choices

        self.fields["name"].widget.attrs["placeholder"] = default_game_name(scorebook)  # what an empty name becomes

    def clean_seat_order(self) -> list[int]:
        """The page's script writes the tapped players' ids here, comma-separated."""
        items = [item for item in self.cleaned_data["seat_order"].split(",") if item.strip()]
        ids = [parse_id(item) for item in items]
        if None in ids:
            raise forms.ValidationError(_("The seat order is not a list of players: tap the players again."))
        return ids

    def seated_player_ids(self) -> list[int]:
        chosen = [player.pk for player in self.cleaned_data["players"]]
        tapped = self.cleaned_data.get("seat_order") or []
        ordered = [pk for pk in dict.fromkeys(tapped) if pk in chosen]
        return ordered + [pk for pk in chosen if pk not in ordered]

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


MAX_PIPS = 100_000


class PipsField(forms.Field):
    """A pips box: a number, or a sum as the table counts it ("12+9+4" is 25, rules.tiles.read_pips).
    Phones show it a keypad with "+" (inputmode "tel": the numeric keypads of iOS have no "+", and
    a number box would drop the whole sum); the page shows "= 25" as it is typed (round-entry.js)."""

    widget = forms.TextInput

    def to_python(self, value) -> int | None:
        text = str(value).strip() if value is not None else ""
        if not text:
            return None
        pips = read_pips(text) if len(text) <= 400 else None  # a box is no place for a long text
        if pips is None:
            raise forms.ValidationError(
                _("Write the pips as a number, or as a sum like 12+9+4 (got “{text}”).").format(text=text[:20]),
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
    # The game's version the page was drawn from; a queued round (sent later) comes without one.
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

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

    def entries(self) -> list[EntryInput]:
        data = self.cleaned_data
        entries = []
        for seat in self.seats:
            prefix = f"p{seat.player_id}"
            tiles = split_tiles(data[f"{prefix}_tiles"])
            entries.append(
                EntryInput(
                    player=seat.player_id,
                    # Empty stays empty: the rules read it (check 10), as they read the API's
                    # (a player who went out holds nothing: 0; anyone else: pips_required).
                    pips=data[f"{prefix}_pips"],
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


class ScorebookForm(forms.Form):
    name = forms.CharField(max_length=80, label=gettext_lazy("Name"))


class TimeZoneForm(forms.Form):
    """Where the scorebook's members play (an IANA name): the service checks it with zoneinfo."""

    time_zone = forms.CharField(
        max_length=64,
        label=gettext_lazy("Time zone"),
        help_text=gettext_lazy("Its seasons' days are days there."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false",
                                      "placeholder": "America/Mexico_City"}),
    )  # fmt: skip


class SeasonForm(forms.Form):
    """A season's fields (API.md's names); the service checks the days against the other seasons."""

    name = forms.CharField(max_length=80, label=gettext_lazy("Name"))
    starts = forms.DateField(
        label=gettext_lazy("First day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    ends = forms.DateField(
        label=gettext_lazy("Last day (included)"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    min_games = forms.IntegerField(
        min_value=0,
        max_value=32767,
        initial=0,
        label=gettext_lazy("Games to qualify"),
        widget=forms.NumberInput(NUMERIC),
    )
    drop_worst = forms.IntegerField(
        min_value=0,
        max_value=32767,
        initial=0,
        label=gettext_lazy("Worst games left out of each player's points"),
        widget=forms.NumberInput(NUMERIC),
    )

    def add_service_errors(self, errors: dict[str, list[str]]) -> None:
        """What the service refused, beside the field it names."""
        for field, messages in errors.items():
            self.add_error(field if field in self.fields else None, messages)


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        choices=[
            ("scorer", gettext_lazy("Scorer: players, games and rounds")),
            ("viewer", gettext_lazy("Viewer: reads only")),
        ],
        initial="scorer",
        widget=forms.RadioSelect,
    )


class RenameGameForm(forms.Form):
    name = forms.CharField(max_length=80, required=False)


class StatsFilterForm(forms.Form):
    """Filters of the leaderboard and player pages; anything unknown falls back to all games."""

    tile_set = forms.TypedChoiceField(
        choices=[("", gettext_lazy("All sets")), *TILE_SET_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
        label=gettext_lazy("Set"),
    )
    period = forms.ChoiceField(choices=list(PERIODS.items()), required=False, label=gettext_lazy("Period"))
    sort = forms.ChoiceField(
        choices=[(f"{sign}{key}", key) for key in [*SORTS, "rating"] for sign in ("", "-")],
        required=False,
        widget=forms.HiddenInput,
    )

    def options(self) -> dict:
        data = self.cleaned_data if self.is_valid() else {}
        return {"tile_set": data.get("tile_set"), "since": period_start(data.get("period") or "all")}


MENU_NAME = 20  # characters of a season's name in the leaderboard's menu


class LeaderboardFilterForm(StatsFilterForm):
    """The leaderboard's order and filters: a set, a season of the scorebook, since a day. A filter
    that does not parse shows its error beside it and is left out; the others still apply."""

    period = None  # "since a day" says it, with any day
    season = forms.TypedChoiceField(coerce=int, empty_value=None, required=False, label=gettext_lazy("Season"))
    since = forms.DateField(
        required=False,
        label=gettext_lazy("Since"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )

    def __init__(self, *args, seasons, **kwargs):
        super().__init__(*args, **kwargs)
        self.seasons = {season.pk: season for season in seasons}
        # A name shortened to what a phone's menu shows whole (the board then says the name in full).
        names = ((season.pk, Truncator(season.name).chars(MENU_NAME)) for season in seasons)
        self.fields["season"].choices = [("", _("Any season")), *names]

    def chosen(self) -> dict:
        """What was asked and is valid: the order, the set, the season (a Season) and the day."""
        self.is_valid()
        data = self.cleaned_data
        return {
            "sort": data.get("sort") or None,
            "tile_set": data.get("tile_set"),
            "season": self.seasons.get(data.get("season")),
            "since": data.get("since"),
        }


class SeatChangeForm(forms.Form):
    """One seat change, from the sheet between rounds: who joins (a player of the scorebook, or a new
    name) and where they sit, who leaves, or who takes over whose seat. The services decide whether
    it may be made (rules.seating)."""

    version = forms.IntegerField(widget=forms.HiddenInput)
    player = forms.TypedChoiceField(coerce=int, required=False, widget=forms.RadioSelect, empty_value=None)
    name = forms.CharField(required=False, max_length=40, label=gettext_lazy("Or a new player"))
    replaces = forms.TypedChoiceField(
        coerce=int, required=False, widget=forms.RadioSelect, empty_value=None, label=gettext_lazy("Whose seat?")
    )
    after = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=gettext_lazy("Sits after"))
    join_total = forms.ChoiceField(
        required=False, widget=forms.RadioSelect, label=gettext_lazy("They start with")
    )  # fmt: skip

    def __init__(self, *args, kind: str, seated: list, others: list, openings: dict | None = None, **kwargs):
        """`openings`: what a joiner would start with under each join option (rules.seating.opening_totals),
        when the game has rounds; the game's own option comes as the field's initial value."""
        super().__init__(*args, **kwargs)
        self.kind = kind
        at_table = [(seat.player_id, seat.player.name) for seat in seated]
        newcomers = [(player.pk, player.name) for player in others]
        self.fields["player"].choices = at_table if kind == "leave" else newcomers
        self.fields["player"].label = {
            "join": _("Who joins?"), "leave": _("Who leaves?"), "take_over": _("Who takes over?"),
        }[kind]  # fmt: skip
        self.fields["name"].widget.attrs.update({"autocomplete": "off", "autocapitalize": "words"})
        if not newcomers:  # everyone of the scorebook is at the table: a new name is the only way
            self.fields["name"].label = _("A new player's name")
        self.fields["replaces"].choices = at_table
        self.fields["after"].choices = [("", _("Last")), *at_table]
        if kind == "join" and openings:
            words = dict(JOIN_TOTAL_CHOICES)
            self.fields["join_total"].choices = [
                (option, _("{option}: {total}").format(option=words[option], total=total))
                for option, total in openings.items()
            ]
        else:
            del self.fields["join_total"]
        if kind == "leave":
            del self.fields["name"], self.fields["replaces"], self.fields["after"]
        elif kind == "join":
            del self.fields["replaces"]
        else:
            del self.fields["after"]

    def clean(self):
        data = super().clean()
        if self.kind == "leave" and data.get("player") is None and "player" not in self.errors:
            self.add_error("player", _("Choose who leaves."))
        if self.kind != "leave" and data.get("player") is None and not data.get("name", "").strip():
            self.add_error("player", _("Choose who it is, or type a new player's name."))
        if self.kind == "take_over" and data.get("replaces") is None and "replaces" not in self.errors:
            self.add_error("replaces", _("Choose whose seat they take over."))
        return data


class NightForm(forms.Form):
    """A club night: a name and its day (in the scorebook's time zone)."""

    name = forms.CharField(max_length=80, label=gettext_lazy("Name"))
    date = forms.DateField(label=gettext_lazy("Day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    def add_service_errors(self, errors: dict[str, list[str]]) -> None:
        for field, messages in errors.items():
            self.add_error(field if field in self.fields else None, messages)


class GameNightForm(forms.Form):
    """The night a game is a table of (or none), among its scorebook's nights."""

    night = forms.TypedChoiceField(coerce=int, empty_value=None, required=False, label=gettext_lazy("Club night"))

    def __init__(self, *args, nights=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["night"].choices = [("", gettext_lazy("None")), *((night.pk, str(night)) for night in nights)]
