"""The story of the ratings and of a player's games: a finished game's rating moves, the chances of
a new table, a player's nemesis and victim, winning streaks and best comeback. Each is one query over
saved values (rules.story says what counts and how ties go), never a walk through the games."""

from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import formats

from ..models import Game, Player, RatingStep, Scorebook, Seat
from ..rules import story
from ..rules.rating import Rating
from ..rules.scoring import OUTCOMES
from .stats import counted


def rating_changes(game: Game, state) -> list[dict] | None:
    """Each rated player's rating before and after the finished `game` (`state`: its saved state), in
    standings order: read from the rating steps the replay wrote. Empty for a game not finished or not
    rated; None while a task is replaying the scorebook's ratings (Scorebook.ratings_updating; `game`
    may carry it as `ratings_updating`, read with it)."""
    if not state.finished:
        return []
    updating = getattr(game, "ratings_updating", None)
    if updating is None:
        updating = Scorebook.objects.filter(pk=game.scorebook_id, ratings_pending_game__isnull=False).exists()
    if updating:
        return None
    steps = RatingStep.objects.filter(game_id=game.pk).values_list(
        "player_id", "mu", "sigma", "mu_before", "sigma_before"
    )
    rows = {row[0]: row for row in steps}
    return [
        {"player": seat.player, "before": _rating(*rows[seat.player][3:5]), "after": _rating(*rows[seat.player][1:3])}
        for seat in state.standings
        if seat.player in rows
    ]


@dataclass(frozen=True)
class Move:
    """A player's rating move as the game-over card says it: "Rating 24.1 → 26.7, +2.6" (in the
    page's language): where the game found and left the rating, which is the rating now only until
    the player's next game (so the card never says "now": a kept card of an older game would be wrong)."""

    move: str
    after: str
    before: str = ""


def card_moves(game: Game, state) -> dict | None:
    """The finished game's rating moves by player, for the game-over card (rating_changes, the
    ordinals written in the page's language); None while the ratings are being updated."""
    changes = rating_changes(game, state)
    if changes is None:
        return None
    moves = {}
    for change in changes:
        moved = story.rating_move(change["before"]["ordinal"], change["after"]["ordinal"])
        moves[change["player"]] = Move(
            story.sign(moved) + formats.number_format(abs(moved), 1),
            formats.number_format(round(change["after"]["ordinal"], 1), 1),
            formats.number_format(round(change["before"]["ordinal"], 1), 1),
        )
    return moves


def _rating(mu: float, sigma: float) -> dict:
    return {"mu": mu, "sigma": sigma, "ordinal": Rating(mu, sigma).ordinal}


@dataclass(frozen=True)
class Chance:
    player: Player
    win_chance: float


def win_chances(players: list[Player]) -> list[Chance]:
    """Each of `players` (in the order given) with their chance to win a game of them all, from their
    current ratings (rules.story.win_chances)."""
    chances = story.win_chances(
        {player.pk: player.rating if player.rating_mu is not None else None for player in players}
    )
    return [Chance(player, chances[player.pk]) for player in players]


def _ranked_seats(player, *, tile_set=None, since=None):
    """The player's seats in finished games they were ranked in (a player who left is not)."""
    return Seat.objects.filter(counted("game", tile_set, since), player=player, left_after__isnull=True)


def rivals(player, *, tile_set=None, since=None) -> list[story.Rival]:
    """Every opponent the player met at least rules.story.RIVAL_GAMES times, both ranked, with how
    often each finished ahead and behind: one grouped self-join of the player's ranked seats to the
    other ranked seats of the same games."""
    rows = (
        _ranked_seats(player, tile_set=tile_set, since=since)
        .alias(opponent_left=F("game__seats__left_after"))
        .filter(opponent_left__isnull=True)
        .values(opponent=F("game__seats__player"), opponent_name=F("game__seats__player__name"))
        .exclude(opponent=player.pk)
        .annotate(
            games=Count("pk"),
            # The opponent finished ahead: my rank is behind theirs (OUTCOMES' "behind" from my side).
            ahead=Count("pk", filter=Q(**{f"rank__{OUTCOMES['behind']}": F("game__seats__rank")})),
            behind=Count("pk", filter=Q(**{f"rank__{OUTCOMES['ahead']}": F("game__seats__rank")})),
        )
        .filter(games__gte=story.RIVAL_GAMES)
        .order_by()
    )
    return [
        story.Rival(row["opponent"], row["opponent_name"], row["games"], row["ahead"], row["behind"]) for row in rows
    ]


def rival_of(rival: story.Rival | None, count: str) -> dict | None:
    """A nemesis or victim as the API and the page give it; `count` the rival's figure shown as behind
    (the nemesis: how often the player finished behind them; the victim: how often they did)."""
    if rival is None:
        return None
    return {"player": rival.player, "name": rival.name, "games": rival.games, "behind": getattr(rival, count)}


def nemesis_and_victim(player, *, tile_set=None, since=None) -> tuple[dict | None, dict | None]:
    met = rivals(player, tile_set=tile_set, since=since)
    return rival_of(story.nemesis(met), "ahead"), rival_of(story.victim(met), "behind")


def streak(player, *, tile_set=None, since=None) -> dict:
    """The player's winning streaks over their ranked finished games in the order they finished
    (finished_at, then id; a shared win is a win): the current one and the longest. Gaps and islands,
    in one query: numbered among all their games and among their wins, consecutive wins share the
    difference of the two numbers."""
    order = [F("game__finished_at").asc(), F("game_id").asc()]
    numbered = (
        _ranked_seats(player, tile_set=tile_set, since=since)
        .annotate(
            n=Window(RowNumber(), order_by=order), k=Window(RowNumber(), partition_by=[F("is_winner")], order_by=order)
        )
        .values("is_winner", "n", "k")
        .order_by()
    )
    inner, params = numbered.query.sql_with_params()
    won = connection.ops.quote_name("is_winner")
    sql = (
        f"WITH played AS ({inner}), "
        f"islands AS (SELECT COUNT(*) AS length, MAX(n) AS last FROM played WHERE {won} GROUP BY n - k) "
        "SELECT COALESCE(MAX(length), 0), "
        "COALESCE(MAX(CASE WHEN last = (SELECT MAX(n) FROM played) THEN length END), 0) FROM islands"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        longest, current = cursor.fetchone()
    return {"current": current, "longest": longest}


def comeback(player, *, tile_set=None, since=None) -> dict | None:
    """The player's win from furthest behind the leader after a round (Seat.deficit, saved with the
    seat); equal deficits: the later in its game (the fewer rounds left), then the latest game. None
    before a win from behind."""
    best = (
        _ranked_seats(player, tile_set=tile_set, since=since)
        .filter(is_winner=True, deficit__gt=0)
        .order_by("-deficit", "-deficit_after", "-game__finished_at", "-game_id")
        .values("game_id", "deficit", "deficit_after")
        .first()
    )
    if best is None:
        return None
    return {"game": best["game_id"], "behind": best["deficit"], "after_round": best["deficit_after"]}


def player_story(player, *, tile_set=None, since=None) -> dict:
    """Everything above for the player page and the API's player stats: three queries."""
    nemesis, victim = nemesis_and_victim(player, tile_set=tile_set, since=since)
    return {
        "nemesis": nemesis,
        "victim": victim,
        "streak": streak(player, tile_set=tile_set, since=since),
        "comeback": comeback(player, tile_set=tile_set, since=since),
    }
