"""A season of a scorebook."""

from django import forms
from django.utils.translation import gettext_lazy

from .common import NUMERIC


class SeasonForm(forms.Form):
    """A season's fields (docs/api.md's names); the service checks the days against the other seasons."""

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
