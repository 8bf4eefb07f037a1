"""A game's live link: made, replaced, revoked. The old token stops working at once."""

from django.db import transaction
from django.utils import timezone

from ..caches.rule import announce
from ..models import Game, LiveLink, new_live_token


@transaction.atomic
def share(*, game: Game, by) -> LiveLink:
    """Make the game's live link, or replace it: the old token stops working at once."""
    selector, verifier = new_live_token()
    link, _ = LiveLink.objects.update_or_create(
        game=game,
        defaults={"selector": selector, "verifier": verifier, "created_by": by, "created_at": timezone.now()},
    )
    announce("live link made", games=[game.pk])  # the old token's entries no longer match the game
    return link


def revoke(*, game: Game) -> bool:
    deleted, _ = LiveLink.objects.filter(game=game).delete()
    announce("live link revoked", games=[game.pk])
    return bool(deleted)
