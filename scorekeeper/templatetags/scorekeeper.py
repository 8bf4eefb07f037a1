from django import template
from django.utils.translation import gettext

from ..models import Role
from ..rules.game import doubles_ahead as open_after

register = template.Library()


@register.filter
def percent(rate) -> str:
    """A rate the stats worked out (0 to 1) as a whole percentage: 0.4167 -> "42%"."""
    return "\u2013" if rate is None else gettext("{value}%").format(value=round(rate * 100))


@register.filter
def role(value) -> str:
    """A member's role in the page's language ("owner" -> "Owner", "Propietario")."""
    return Role(value).label if value in Role.values else value


@register.simple_tag
def doubles_ahead(sheet) -> dict:
    """The doubles open after each round that may come next (rules.game.doubles_ahead): the round
    form's script offers them past the rounds waiting on the phone."""
    return open_after(sheet.game.rules, sheet.state.last_position)
