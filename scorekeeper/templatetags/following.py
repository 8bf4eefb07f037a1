"""What pages need of a game's saved state: the round form's follow data (scorekeeper.follow) and
a game card's standings (selectors.game_state, never the seats' own columns)."""

from django import template

from .. import follow
from ..selectors import game_state

register = template.Library()


@register.simple_tag(takes_context=True)
def follow_round_form(context, sheet):
    return follow.of_round_form(sheet, context["request"].user)


@register.filter
def state(game):
    """The game's state as last saved (rules.scoring.GameState): seats, totals, winners, finished."""
    return game_state(game).state
