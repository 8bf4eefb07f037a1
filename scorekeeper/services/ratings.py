"""Keeps the rating steps and the players' current ratings in step with each scorebook's finished games.

The services call `changed` whenever a finished game appears, changes its ranks, stops being
finished, or goes to (or comes back from) the trash. The steps from that game onward are replayed
(rules.rating); the steps before it stand. The usual case, a game that has just finished, is the
latest of its scorebook: one game to rate, a handful of queries. Bulk imports defer the replay to
their end (`deferred`), so 10,000 imported games cost one replay, not 10,000. A change with more than
REPLAY_IN_REQUEST games after it is replayed by a task (`catch_up`), the scorebook's ratings marked
as updating until then (Scorebook.ratings_updating).
"""

import contextlib
import functools
import logging
import threading
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F, OuterRef, Prefetch, Q, Subquery
from django.utils.module_loading import import_string

from ..caches.rule import announce
from ..models import Game, Player, RatingStep, Scorebook, Seat
from ..rules.rating import START, Rating, replay

logger = logging.getLogger(__name__)
_local = threading.local()

# At most this many games are replayed inside the request that changed one (0.66 ms each measured,
# so about 15 ms); a change further back in a scorebook's history (correcting, undoing or trashing an
# old finished game) marks its ratings as updating and leaves the replay to a task (scorekeeper.tasks).
REPLAY_IN_REQUEST = 20


@dataclass(order=True, frozen=True)
class Point:
    """Where a game sits in its scorebook's order of finished games."""

    finished_at: object
    game: int


@dataclass(frozen=True)
class Pending:
    """A scorebook's replay left to the task: from where (None: none is) and how many changes so far."""

    point: Point | None
    changes: int


def changed(scorebook_id: int, point: Point, players) -> None:
    """Replay the scorebook's ratings from `point` on; `players` (of the changed game) get their
    current rating written even if no replayed game seats them any more. Past REPLAY_IN_REQUEST
    games the replay is handed to a task."""
    pending = getattr(_local, "pending", None)
    if pending is not None:
        earliest, seen = pending.get(scorebook_id, (point, set()))
        pending[scorebook_id] = (min(earliest, point), seen | set(players))
        return
    _apply(scorebook_id, point, set(players), limit=REPLAY_IN_REQUEST)


@contextlib.contextmanager
def deferred(*, limit: int | None = None):
    """Within this block, gather the changes and replay each scorebook once, from the earliest
    change, at the end: in the same request whatever its length (a bulk import or seed is long
    already), or with `limit` (REPLAY_IN_REQUEST: a paper game entered for an earlier day) handed
    to the task past that many games, as `changed` does."""
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
        _apply(scorebook_id, point, players, limit=limit)


def deferring(function):
    """Run `function` inside deferred()."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with deferred():
            return function(*args, **kwargs)

    return wrapper


@transaction.atomic
def _apply(scorebook_id: int, point: Point, players: set[int], *, limit: int | None) -> None:
    """Replay from `point` now, or hand it to the task: when one is pending already, or when more
    than `limit` games are to replay."""
    # The scorebook's row puts the requests that change its ratings in turn (each replays or hands
    # over with the mark as the one before left it) and the task's clearing of the mark (catch_up).
    # FOR NO KEY UPDATE, so new games and players of the scorebook (which reference it) never wait.
    pending = _pending(scorebook_id, lock=True)
    if pending is None:
        return  # the scorebook is gone
    if pending.point is not None:
        _hand_over(scorebook_id, min(point, pending.point))
        return
    games = _rated_games(scorebook_id, point)
    games = list(games if limit is None else games[: limit + 1])
    if limit is not None and len(games) > limit:
        _hand_over(scorebook_id, point)
        return
    # The game at the point is being written by the caller (its version moves on with it); the later
    # games' rating moves change under them, so their versions move on too (_moved). Their rows are
    # taken only if free: this request holds the scorebook's row, and a request writing one of them
    # holds that game and waits for the scorebook's row, so waiting here would be a deadlock. A later
    # game busy: the replay is the task's, which takes the games before the scorebook's row.
    later = [game.pk for game in games if game.pk != point.game]
    if later and not _taken_if_free(later):
        _hand_over(scorebook_id, point)
        return
    _write(scorebook_id, point, *_replay(scorebook_id, point, players, games))
    _moved(later)


def _taken_if_free(games: list[int]) -> bool:
    """Lock the games' rows (FOR NO KEY UPDATE) without waiting: whether every one was free."""
    taken = Game.objects.filter(pk__in=games).select_for_update(no_key=True, skip_locked=True)
    return len(list(taken.values_list("pk", flat=True))) == len(games)


def _moved(games: list[int]) -> None:
    """Games whose rating moves (their steps) were written again by a replay: a game's answer shows
    them (`rating_changes`), so their versions move on and what was kept of them is forgotten."""
    if games:
        Game.objects.filter(pk__in=games).update(version=F("version") + 1)
        announce("ratings replayed", games=games)


def _pending(scorebook_id: int, *, lock: bool = False) -> Pending | None:
    """The scorebook's pending replay, None if there is no such scorebook; `lock`: its row locked
    (FOR NO KEY UPDATE) till the end of the transaction."""
    books = Scorebook.objects.select_for_update(no_key=True) if lock else Scorebook.objects
    row = (
        books.filter(pk=scorebook_id)
        .values_list("ratings_pending_at", "ratings_pending_game", "ratings_changes")
        .first()
    )
    if row is None:
        return None
    at, game, changes = row
    return Pending(None if game is None else Point(at, game), changes)


def _hand_over(scorebook_id: int, point: Point) -> None:
    """Mark the scorebook's ratings as updating from `point` and enqueue the task once this
    transaction has committed (the task must see the change it replays)."""
    Scorebook.objects.filter(pk=scorebook_id).update(
        ratings_pending_at=point.finished_at, ratings_pending_game=point.game, ratings_changes=F("ratings_changes") + 1
    )
    # robust: the change is saved whatever happens to its replay; a failure is logged, not answered.
    transaction.on_commit(functools.partial(_enqueue, scorebook_id), robust=True)


# The task that runs catch_up in the worker: named, not imported (the task module stands above this one).
REPLAY_TASK = "scorekeeper.tasks.replay_ratings"


def _enqueue(scorebook_id: int) -> None:
    try:
        import_string(REPLAY_TASK).enqueue(scorebook_id)
    except Exception:  # the queue is down: replay here, slowly, rather than leave the ratings stale
        logger.exception("Could not enqueue the ratings replay of scorebook %s; replaying it here", scorebook_id)
        catch_up(scorebook_id)


def catch_up(scorebook_id: int) -> bool:
    """The task's work: replay the scorebook's ratings from its pending point and clear the mark.

    The replay is worked out with no lock held (seconds for 10,000 games) and written only if no
    change came in meanwhile; otherwise it is dropped (False), because each change enqueues a task
    of its own after it commits, and that later task replays from the earliest point, which only
    moves earlier while a replay is pending. Two overlapping tasks therefore end in the state a
    replay of the last committed games gives, whichever of them writes."""
    pending = _pending(scorebook_id)
    if pending is None or pending.point is None:
        return False  # another task has done it already
    point = pending.point
    # Whose current rating may change: everyone rated at or after the point (the changed game's
    # players among them, when it was rated before), and everyone seated in a game replayed.
    rated = RatingStep.objects.filter(Q(scorebook_id=scorebook_id) & _at_or_after(point))
    players = set(rated.values_list("player_id", flat=True).distinct())
    games = list(_rated_games(scorebook_id, point))
    replayed = _replay(scorebook_id, point, players, games)
    with transaction.atomic():
        # Locks in the order a request takes them, its game before the scorebook's row: first the
        # games the steps point at (a request holding one waits for nothing of ours; a second task
        # waits here for this one), the scorebook's row only once the steps are written, so a
        # request that changes a rating meanwhile hands its change over without waiting.
        list(_rated(scorebook_id, point).select_for_update(no_key=True).values_list("pk", flat=True))
        if _pending(scorebook_id) != pending:
            return False  # superseded: a later change enqueued the task that replays it
        _write(scorebook_id, point, *replayed)
        if _pending(scorebook_id, lock=True) != pending:  # a change came in while writing
            transaction.set_rollback(True)
            return False
        Scorebook.objects.filter(pk=scorebook_id).update(ratings_pending_at=None, ratings_pending_game=None)
        # Every replayed game's rating moves were shown as updating (null) or as they were: new versions.
        _moved([game.pk for game in games]) if games else announce("ratings replayed")
    return True


def _at_or_after(point: Point) -> Q:
    """Rating steps of games at the point or later in the order."""
    return Q(finished_at__gt=point.finished_at) | Q(finished_at=point.finished_at, game_id__gte=point.game)


def _rated(scorebook_id: int, point: Point):
    """The scorebook's rated games at the point or later: finished, not in the trash, not casual."""
    return (
        Game.objects.filter(scorebook_id=scorebook_id)
        .counted()
        .filter(Q(finished_at__gt=point.finished_at) | Q(finished_at=point.finished_at, pk__gte=point.game))
    )


def _rated_games(scorebook_id: int, point: Point):
    """_rated in their order, with each seat's rank."""
    return (
        _rated(scorebook_id, point)
        .order_by("finished_at", "pk")
        .only("pk", "finished_at")
        .prefetch_related(
            Prefetch("seats", Seat.objects.only("game_id", "player_id", "rank", "rounds", "joined_after", "left_after"))
        )
    )


def _replay(
    scorebook_id: int, point: Point, players: set[int], games: list[Game]
) -> tuple[list[RatingStep], set[int], dict[int, Rating]]:
    """Rate `games` (the rated games from `point` on) in order: their steps, and the current rating
    of `players` and of everyone seated in them."""
    seats = [[seat for seat in game.seats.all() if _rated_in(seat)] for game in games]
    ranks = [{seat.player_id: seat.rank for seat in game} for game in seats]
    shares = [{seat.player_id: share_of_rounds(seat) for seat in game} for game in seats]
    players = players | {player for game in ranks for player in game}
    if not players:
        return [], players, {}
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
    for game, rated in zip(games, replay(ranks, start, shares), strict=True):
        # Each step keeps the rating going in beside the one coming out: the game's rating move.
        steps += [
            RatingStep(game_id=game.pk, player_id=player, scorebook_id=scorebook_id, finished_at=game.finished_at,
                       mu=rating.mu, sigma=rating.sigma, mu_before=current.get(player, START).mu,
                       sigma_before=current.get(player, START).sigma)
            for player, rating in rated.items()
        ]  # fmt: skip
        current.update(rated)
    return steps, players, current


def _rated_in(seat: Seat) -> bool:
    """Whether a finished game's seat is rated: its player was ranked (those who left are not rated
    for the game) and played a round of it."""
    return seat.rank is not None and seat.left_after is None and seat.rounds > 0


def share_of_rounds(seat: Seat) -> float:
    """The share of the game's rounds a ranked player played: one who is still at the table at the
    end sat from the round after they joined to the last, so the game had joined_after + rounds."""
    return seat.rounds / ((seat.joined_after or 0) + seat.rounds)


def _write(scorebook_id: int, point: Point, steps: list[RatingStep], players: set[int], current) -> None:
    """Put the replayed steps in place of those from `point` on, and the players' current ratings."""
    RatingStep.objects.filter(Q(scorebook_id=scorebook_id) & _at_or_after(point)).delete()
    RatingStep.objects.bulk_create(steps, batch_size=2000)
    if players:
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


@transaction.atomic
def rebuild(scorebook_id: int) -> None:
    """Every step of the scorebook, from its first finished game (a pending replay included)."""
    # Its games first, then the scorebook's row: the order a request takes them (see _apply).
    rated = Game.objects.filter(scorebook_id=scorebook_id, status=Game.Status.FINISHED, deleted_at__isnull=True)
    list(rated.select_for_update(no_key=True).values_list("pk", flat=True))
    if _pending(scorebook_id, lock=True) is None:
        return
    RatingStep.objects.filter(scorebook_id=scorebook_id).delete()
    Player.objects.filter(scorebook_id=scorebook_id).update(rating_mu=None, rating_sigma=None)
    Scorebook.objects.filter(pk=scorebook_id).update(ratings_pending_at=None, ratings_pending_game=None)
    first = Game.objects.filter(scorebook_id=scorebook_id).counted().order_by("finished_at", "pk").first()
    if first is None:
        announce("ratings replayed")  # nothing rated: nothing shown changes (caches.rule)
    else:
        point = Point(first.finished_at, first.pk)
        games = list(_rated_games(scorebook_id, point))
        _write(scorebook_id, point, *_replay(scorebook_id, point, set(), games))
        _moved([game.pk for game in games])
