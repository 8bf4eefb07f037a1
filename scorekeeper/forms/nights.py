"""Club nights: a night, and the night a game is a table of."""

from django import forms
from django.utils.translation import gettext_lazy


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
