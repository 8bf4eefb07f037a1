"""A seat change between rounds."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import JOIN_TOTAL_CHOICES


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
