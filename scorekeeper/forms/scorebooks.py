"""A scorebook: its name, its time zone, an invitation."""

from django import forms
from django.utils.translation import gettext_lazy


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


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        choices=[
            ("scorer", gettext_lazy("Scorer: players, games and rounds")),
            ("viewer", gettext_lazy("Viewer: reads only")),
        ],
        initial="scorer",
        widget=forms.RadioSelect,
    )
