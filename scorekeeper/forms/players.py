"""Players: add or rename one, merge two, and the filters of the leaderboard and player pages."""

from django import forms
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import TILE_SET_CHOICES, Player
from ..reads.stats import PERIODS, SORTS, period_start


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name"]
        labels = {"name": gettext_lazy("Name")}

    def __init__(self, *args, scorebook, **kwargs):
        super().__init__(*args, **kwargs)
        self.scorebook = scorebook
        self.existing = None  # the active player the name is already taken by (new game ticks them instead)
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
                ).format(book=self.scorebook.shown_name, name=clash.name)
            )
        if clash is not None:
            self.existing = clash
            raise forms.ValidationError(
                _('{book} already has a player named "{name}".').format(book=self.scorebook.shown_name, name=clash.name)
            )
        return name

    def save(self, commit=True):
        self.instance.scorebook = self.scorebook
        return super().save(commit)


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
