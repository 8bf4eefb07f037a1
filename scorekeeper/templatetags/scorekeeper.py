from django import template
from django.template.defaultfilters import floatformat
from django.utils.translation import gettext

from .. import clock
from ..models import Role
from ..rules.game import doubles_ahead as open_after

register = template.Library()


@register.filter
def move_of(moves: dict, player):
    """A player's rating move on the game-over card (reads.story.card_moves), if they have one."""
    return moves.get(player)


@register.filter
def percent(rate) -> str:
    """A rate the stats worked out (0 to 1) as a whole percentage: 0.4167 -> "42%"."""
    return "\u2013" if rate is None else gettext("{value}%").format(value=round(rate * 100))


@register.filter
def points(tenths) -> str:
    """Place points the database keeps in tenths (rules.places.place_points), as one decimal in the
    page's language: 235 -> "23.5" ("23,5" in Spanish)."""
    return "\u2013" if tenths is None else floatformat(tenths / 10, 1)


@register.filter
def role(value) -> str:
    """A member's role in the page's language ("owner" -> "Owner", "Propietario")."""
    return Role(value).label if value in Role.values else value


@register.simple_tag
def doubles_ahead(sheet) -> dict:
    """The doubles open after each round that may come next (rules.game.doubles_ahead): the round
    form's script offers them past the rounds waiting on the phone."""
    return open_after(sheet.game.rules, sheet.state.last_position)


@register.filter
def moment(when) -> str:
    """A moment on the table's own clock, in the language's one format ("Sat 28 Nov, 08:21"): the
    page's view draws it in its scorebook's time zone (scorekeeper.clock)."""
    return clock.moment(when)


@register.filter
def day(when) -> str:
    """The day of a moment (or a day) on the table's own clock, in the language's one format ("Sat 28 Nov")."""
    return clock.day(when)
