"""A season's table, read from its tallies (SeasonTally, kept by services.seasons as games finish,
change and go): one query of a few rows per player, whatever the number of games in the season; the
rules (rules.seasons) count the points, order the players' lines and name the champions."""

from dataclasses import dataclass

from ..models import Scorebook, Season, SeasonTally
from ..rules.seasons import SeasonRow, champions, counted_from_tally, season_table


def rows_of(season: Season) -> list[SeasonRow]:
    """Each player's line of the season, unordered: one query over its tallies (a few rows per
    player, whatever the number of games), summed here; the counted points leave out the lowest
    place points first (rules.seasons.counted_from_tally)."""
    tallies = (
        SeasonTally.objects.filter(season=season, games__gt=0, player__archived=False)
        .order_by("player_id")
        .values_list("player_id", "player__name", "place_points", "games", "wins", "total_sum", "place_sum")
    )
    lines: dict[int, list] = {}
    for player, name, points, games, wins, total_sum, place_sum in tallies:
        line = lines.setdefault(player, [name, 0, 0, 0, 0, []])
        line[1:5] = [line[1] + games, line[2] + wins, line[3] + total_sum, line[4] + place_sum]
        line[5].append((points, games))
    return [
        SeasonRow(player, name, games, wins, sum(points * count for points, count in tally),
                  counted_from_tally(tally, season.drop_worst), total_sum, place_sum)
        for player, (name, games, wins, total_sum, place_sum, tally) in lines.items()
    ]  # fmt: skip


@dataclass(frozen=True)
class SeasonTable:
    """What a season shows: its lines in order, and its champions (player ids) once it has ended."""

    season: Season
    rows: list[SeasonRow]
    champions: list[int]
    ended: bool
    current: bool


def table(season: Season) -> SeasonTable:
    """The season's table (season.scorebook read with it: its time zone says which days are its)."""
    today = season.scorebook.today()
    rows = season_table(rows_of(season), season.min_games)
    ended = season.has_ended(today)
    return SeasonTable(season, rows, champions(rows, ended=ended), ended, season.is_current(today))


def current_season(book: Scorebook) -> Season | None:
    """The season holding today, where the scorebook's members play: at most one (seasons never overlap)."""
    season = Season.objects.filter(scorebook=book).holding(book.today()).first()
    if season is not None:
        season.scorebook = book
    return season


def current_among(book: Scorebook, seasons: list[Season]) -> Season | None:
    """Of the scorebook's seasons already read (seasons_of), the one holding today, if any."""
    today = book.today()
    return next((season for season in seasons if season.is_current(today)), None)


def seasons_of(book: Scorebook) -> list[Season]:
    """The scorebook's seasons, newest first, each knowing its scorebook (no query more for it)."""
    seasons = list(Season.objects.filter(scorebook=book))
    for season in seasons:
        season.scorebook = book
    return seasons


def champion_names(season: Season) -> list[str]:
    """The names of an ended season's champions (its table read once)."""
    read = table(season)
    return [row.name for row in read.rows if row.player in read.champions]
