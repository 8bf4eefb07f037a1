"""Games out of the app and back in: CSV (one row per entry) and versioned JSON (players by
name), and an import that checks every round as if it were entered, saves all or nothing, and
skips games it already holds (by the uid each game carries), so a file imported twice creates
nothing the second time.

Only the JSON export is read back: the CSV is for spreadsheets (and neutralised for them)."""

from .exports import (
    CSV_COLUMNS,
    FORMAT,
    VERSION,
    VERSIONS,
    ExportTooBig,
    GameOut,
    as_csv,
    as_json,
    bounded_export,
    games_with_everything,
    spreadsheet_text,
)
from .imports import BadFile, Imported, import_games
from .limits import Busy, ImportSizeMiddleware, TooBig, limits_message, one_at_a_time

__all__ = [
    "CSV_COLUMNS",
    "FORMAT",
    "VERSION",
    "VERSIONS",
    "BadFile",
    "Busy",
    "ExportTooBig",
    "GameOut",
    "ImportSizeMiddleware",
    "Imported",
    "TooBig",
    "as_csv",
    "as_json",
    "bounded_export",
    "games_with_everything",
    "import_games",
    "limits_message",
    "one_at_a_time",
    "spreadsheet_text",
]
