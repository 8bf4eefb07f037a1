from django import template
from django.utils.translation import gettext

from ..models import Role

register = template.Library()


@register.filter
def percent(rate) -> str:
    """A rate the stats worked out (0 to 1) as a whole percentage: 0.4167 -> "42%"."""
    return "\u2013" if rate is None else gettext("{value}%").format(value=round(rate * 100))


@register.filter
def role(value) -> str:
    """A member's role in the page's language ("owner" -> "Owner", "Propietario")."""
    return Role(value).label if value in Role.values else value
