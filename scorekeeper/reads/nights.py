"""What a club night shows: its tables (each game: who leads, which round it is on, finished or
not, each player's score in the round played last, read from the state each game saved) and its
standings (one grouped query over the seats the night counts, Night.counted_seats; rules.nights
orders them). And its ETag, made of the night's version and its games' versions, read in one query."""

import hashlib
from dataclasses import dataclass

from django.db.models import Count, Sum
from django.utils.translation import get_language

from ..models import Game, Night, Scorebook
from ..rules.nights import NightRow, night_standings
from ..selectors import game_state


def fingerprint(night: Night, games) -> str:
    """What every ETag of a night is made of: its version and each of its games' (id, version,
    trashed), games in id order; short, the same for every reader. A round at any table, a rename
    of a player or game (their versions), a game coming, going or trashed changes it. The moment the
    night was made is in it too: a night made with the number of one deleted (SQLite reuses the
    highest) never answers with the other's ETag, nor its kept body."""
    text = f"{night.created_at.timestamp()}:{night.version}:" + ",".join(
        f"{pk}.{version}.{int(gone)}" for pk, version, gone in games
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def games_of(night_pk: int) -> list[tuple[int, int, bool]]:
    """The night's games as (id, version, trashed), in id order: one query."""
    rows = Game.objects.filter(night_id=night_pk).order_by("pk").values_list("pk", "version", "deleted_at")
    return [(pk, version, deleted is not None) for pk, version, deleted in rows]


def member_etag(pk: int, part: str, language: str | None = None) -> str:
    """The ETag of GET /api/v1/nights/{pk}/: the fingerprint and the language (games' titles are in it)."""
    return f'"night-{pk}-{part}-{language or get_language()}"'


@dataclass(frozen=True)
class Table:
    """One game of the night as its tables list shows it."""

    game: Game
    title: str
    players: list[dict]  # in standings order: player, name, total, rank, seated, leads
    leaders: list[str]
    rounds_played: int
    finished: bool
    casual: bool = False  # a friendly game: counts nowhere
    last_round: int | None = None  # the number of the round played last (each player's score in it: `last`)

    @property
    def round(self) -> int | None:
        """The round the table is on (None once the game is over)."""
        return None if self.finished else self.rounds_played + 1


@dataclass(frozen=True)
class NightRead:
    night: Night
    tables: list[Table]
    standings: list[NightRow]
    games: list[tuple[int, int, bool]]

    @property
    def part(self) -> str:
        return fingerprint(self.night, self.games)

    @property
    def game_ids(self) -> tuple[int, ...]:
        return tuple(pk for pk, _version, _gone in self.games)


def _table(game: Game) -> Table:
    state = game_state(game).state
    ranked = [seat for seat in state.standings if seat.rank is not None]
    leading = {seat.player for seat in ranked if seat.rank == 1} if state.rounds or state.finished else set()
    last = state.rounds[-1] if state.rounds else None
    players = [
        {"player": seat.player, "name": seat.name, "total": seat.total, "rank": seat.rank,
         "seated": seat.seated, "leads": seat.player in leading,
         "last": last.scores[seat.seat] if last else None}  # None: not at the table for that round
        for seat in state.standings
    ]  # fmt: skip
    return Table(game, game.title, players, [p["name"] for p in players if p["leads"]], len(state.rounds),
                 state.finished, game.casual, last.number if last else None)  # fmt: skip


def standings(night: Night) -> list[NightRow]:
    """The night's standings: one grouped query over its counted seats, ordered by the rules."""
    grouped = (
        night.counted_seats()
        .order_by()
        .values_list("player_id", "player__name")
        .annotate(games=Count("id"), points=Sum("place_points"), total=Sum("total"))
    )
    return night_standings(
        [NightRow(player, name, games, points, total) for player, name, games, points, total in grouped]
    )


def read(night: Night) -> NightRead:
    """The night as its pages and the API show it: three queries (its games with their seats and
    players, and the standings), whatever the number of games."""
    games = list(Game.objects.filter(night_id=night.pk).order_by("pk").with_seats())
    alive = [game for game in games if game.deleted_at is None]
    return NightRead(
        night,
        [_table(game) for game in alive],
        standings(night),
        [(game.pk, game.version, game.deleted_at is not None) for game in games],
    )


def kept_body(kind: str, etag: str, part: str, night: Night, build) -> tuple[object, str]:
    """What every reader of the night at one fingerprint (and language: `etag` names both) is sent,
    built once from a fresh read and kept in the shared cache under its ETag; the body and the part
    it was built from. A read that finds the night already changed since `part` was read is sent
    as it is (its own part) and not kept: a body is only ever kept under the ETag it was built at."""
    from django.core.cache import cache

    key = f"night-{kind}:{etag}"
    if (value := cache.get(key)) is not None:
        return value, part
    fresh = read(night)
    value = build(fresh)
    if fresh.part == part:
        cache.set(key, value, timeout=600)
    return value, fresh.part


def nights_of(book: Scorebook) -> list[Night]:
    """The scorebook's nights, newest first."""
    return list(Night.objects.filter(scorebook=book))


def public(read: NightRead) -> dict:
    """The night as its live link shows it: names and numbers only, no ids."""
    return {
        "name": read.night.name,
        "date": read.night.date.isoformat(),
        "tables": [
            {
                "name": table.title,
                "round": table.round,
                "rounds_played": table.rounds_played,
                "finished": table.finished,
                "casual": table.casual,
                "players": [
                    {key: p[key] for key in ("name", "total", "rank", "seated", "leads", "last")} for p in table.players
                ],
            }
            for table in read.tables
        ],
        "standings": [
            {"name": row.name, "games": row.games, "points": row.points / 10, "total": row.total, "rank": row.rank}
            for row in read.standings
        ],
    }
