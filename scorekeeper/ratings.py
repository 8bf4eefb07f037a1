"""Keeps the rating steps and the players' current ratings in step with each scorebook's finished games.

The services call `changed` whenever a finished game appears, changes its ranks, stops being
finished, or goes to (or comes back from) the trash. The steps from that game onward are replayed
(rules.rating); the steps before it stand. The usual case, a game that has just finished, is the
latest of its scorebook: one game to rate, a handful of queries. Bulk imports defer the replay to
their end (`deferred`), so 10,000 imported games cost one replay, not 10,000.
"""

import contextlib
import functools
import threading
from dataclasses import dataclass

from django.db.models import OuterRef, Prefetch, Q, Subquery

from .models import Game, Player, RatingStep, Seat
from .rules.rating import Rating, replay

_local = threading.local()


@dataclass(order=True, frozen=True)
class Point:
    """Where a game sits in its scorebook's order of finished games."""

    finished_at: object
    game: int


def changed(scorebook_id: int, point: Point, players) -> None:
    """Replay the scorebook's ratings from `point` on; `players` (of the changed game) get their
    current rating written even if no replayed game seats them any more."""
    pending = getattr(_local, "pending", None)
    if pending is not None:
        earliest, seen = pending.get(scorebook_id, (point, set()))
        pending[scorebook_id] = (min(earliest, point), seen | set(players))
        return
    _replay_from(scorebook_id, point, set(players))


@contextlib.contextmanager
def deferred():
    """Within this block, gather the changes and replay each scorebook once, at the end."""
    if getattr(_local, "pending", None) is not None:  # nested: the outer block replays
        yield
        return
    _local.pending = {}
    try:
        yield
        pending = _local.pending
    finally:
        _local.pending = None
    for scorebook_id, (point, players) in pending.items():
        _replay_from(scorebook_id, point, players)


def deferring(function):
    """Run `function` inside deferred()."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with deferred():
            return function(*args, **kwargs)

    return wrapper


def _at_or_after(point: Point) -> Q:
    """Rating steps of games at the point or later in the order."""
    return Q(finished_at__gt=point.finished_at) | Q(finished_at=point.finished_at, game_id__gte=point.game)


def _replay_from(scorebook_id: int, point: Point, players: set[int]) -> None:
    RatingStep.objects.filter(Q(scorebook_id=scorebook_id) & _at_or_after(point)).delete()
    games = list(
        Game.objects.filter(scorebook_id=scorebook_id, status=Game.Status.FINISHED, deleted_at__isnull=True)
        .filter(Q(finished_at__gt=point.finished_at) | Q(finished_at=point.finished_at, pk__gte=point.game))
        .order_by("finished_at", "pk")
        .only("pk", "finished_at")
        .prefetch_related(Prefetch("seats", Seat.objects.only("game_id", "player_id", "rank")))
    )
    ranks = [{seat.player_id: seat.rank for seat in game.seats.all()} for game in games]
    players |= {player for game in ranks for player in game}
    if not players:
        return
    # Each player's rating going in: their latest step before the point (one query for them all).
    before = Q(finished_at__lt=point.finished_at) | Q(finished_at=point.finished_at, game_id__lt=point.game)
    latest = RatingStep.objects.filter(before, player=OuterRef("pk")).order_by("-finished_at", "-game_id")
    start = {
        row["pk"]: Rating(row["mu"], row["sigma"])
        for row in Player.objects.filter(pk__in=players)
        .annotate(mu=Subquery(latest.values("mu")[:1]), sigma=Subquery(latest.values("sigma")[:1]))
        .values("pk", "mu", "sigma")
        if row["mu"] is not None
    }
    current = dict(start)
    steps = []
    for game, rated in zip(games, replay(ranks, start), strict=True):
        current.update(rated)
        steps += [
            RatingStep(game_id=game.pk, player_id=player, scorebook_id=scorebook_id, finished_at=game.finished_at,
                       mu=rating.mu, sigma=rating.sigma)
            for player, rating in rated.items()
        ]  # fmt: skip
    RatingStep.objects.bulk_create(steps, batch_size=2000)
    _write_current(players, current)


def _write_current(players: set[int], current: dict[int, Rating]) -> None:
    """Each player's rating after their latest game (empty when they have none)."""
    by_rating: dict[Rating | None, list[int]] = {}
    for player in players:
        by_rating.setdefault(current.get(player), []).append(player)
    for rating, group in by_rating.items():
        Player.objects.filter(pk__in=group).update(
            rating_mu=rating.mu if rating else None, rating_sigma=rating.sigma if rating else None
        )


def rebuild(scorebook_id: int) -> None:
    """Every step of the scorebook, from its first finished game."""
    RatingStep.objects.filter(scorebook_id=scorebook_id).delete()
    Player.objects.filter(scorebook_id=scorebook_id).update(rating_mu=None, rating_sigma=None)
    first = (
        Game.objects.filter(scorebook_id=scorebook_id, status=Game.Status.FINISHED, deleted_at__isnull=True)
        .order_by("finished_at", "pk")
        .first()
    )
    if first is not None:
        _replay_from(scorebook_id, Point(first.finished_at, first.pk), set())
