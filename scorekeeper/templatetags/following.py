"""What a round form needs to follow its game (scorekeeper.follow). A tag for now: the round form's
view is being rewritten around the one round command, and will hand it over itself."""

from django import template

from .. import follow

register = template.Library()


@register.simple_tag(takes_context=True)
def follow_round_form(context, sheet):
    return follow.of_round_form(sheet, context["request"].user)
