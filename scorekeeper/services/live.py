"""A live link, whatever it opens (a game or a night): made, replaced, revoked. The old token stops
working at once."""

from django.db import transaction
from django.utils import timezone

from ..caches.rule import announce
from ..models import Game, Link, LiveLink, Night, NightLink, new_live_token


def _opened(game: Game | None, night: Night | None) -> tuple[type[Link], Game | Night, dict]:
    """The link's model, what it opens, and what its writes announce."""
    if (game is None) == (night is None):
        raise TypeError("a live link opens a game or a night")
    if game is not None:
        return LiveLink, game, {"games": [game.pk]}
    return NightLink, night, {"nights": [night.pk]}


@transaction.atomic
def share(*, game: Game | None = None, night: Night | None = None, by) -> Link:
    """Make the live link of `game` (or `night`), or replace it: the old token stops working at once
    (its entries no longer match what it opened)."""
    model, opens, touched = _opened(game, night)
    selector, verifier = new_live_token()
    link, _ = model.objects.update_or_create(
        **{model.KIND: opens},
        defaults={"selector": selector, "verifier": verifier, "created_by": by, "created_at": timezone.now()},
    )
    announce("live link made", **touched)
    return link


def revoke(*, game: Game | None = None, night: Night | None = None) -> bool:
    model, opens, touched = _opened(game, night)
    deleted, _ = model.objects.filter(**{model.KIND: opens}).delete()
    announce("live link revoked", **touched)
    return bool(deleted)
