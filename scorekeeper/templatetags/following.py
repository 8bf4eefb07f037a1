"""What pages need of a game's saved state: the round form's follow data (scorekeeper.reads.follow) and
a game card's standings (selectors.game_state, never the seats' own columns)."""

from django import template

from ..reads import follow
from ..selectors import game_state

register = template.Library()


@register.simple_tag(takes_context=True)
def follow_round_form(context, sheet):
    return follow.of_round_form(sheet, context["request"].user)


@register.filter
def state(game):
    """The game's state as last saved (rules.scoring.GameState): seats, totals, winners, finished."""
    return game_state(game).state


@register.filter
def at_the_table(state):
    """The seats a game card lists: a seat someone took over is its newcomer's (whose total
    continues it), so the player they took over from is not listed again."""
    replaced = {seat.replaced for seat in state.seats if seat.replaced is not None}
    return [seat for seat in state.seats if seat.player not in replaced]
