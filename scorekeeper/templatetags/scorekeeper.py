from django import template

register = template.Library()


@register.filter
def percent(rate) -> str:
    """A rate the stats worked out (0 to 1) as a whole percentage: 0.4167 -> "42%"."""
    return "\u2013" if rate is None else f"{round(rate * 100)}%"
