"""Writes that touch several rows, by feature. Each is one transaction that locks the game first;
callers use them as `services.<name>`, and turn the errors of scorekeeper.errors into answers."""

from ..errors import Conflict, Forbidden, Gone, InvalidInput, ScoreKeepingError
from .common import require_scorer
from .games import (
    create_game,
    default_game_name,
    delete_game,
    finish_game,
    next_game_number,
    purge_trash,
    rename_game,
    restore_game,
    set_casual,
)
from .imports import CheckedGame, check_import, import_game, save_imports
from .paper import enter_paper_game
from .players import delete_player, link_player, merge_player, merge_refusal, rename_player, set_archived
from .records import update_extremes
from .rounds import (
    Clash,
    Invalid,
    NeedsConfirmation,
    Saved,
    Submitted,
    correct_round,
    record_round,
    restore_round,
    submit_round,
    surprise_question,
    undo_last_round,
)
from .seats import change_seat, undo_seat_change
from .state import derive_state

__all__ = [
    "CheckedGame",
    "Clash",
    "Conflict",
    "Forbidden",
    "Gone",
    "Invalid",
    "InvalidInput",
    "NeedsConfirmation",
    "Saved",
    "ScoreKeepingError",
    "Submitted",
    "change_seat",
    "check_import",
    "correct_round",
    "create_game",
    "default_game_name",
    "delete_game",
    "delete_player",
    "derive_state",
    "enter_paper_game",
    "finish_game",
    "import_game",
    "link_player",
    "merge_player",
    "merge_refusal",
    "next_game_number",
    "purge_trash",
    "record_round",
    "rename_game",
    "rename_player",
    "require_scorer",
    "restore_game",
    "restore_round",
    "save_imports",
    "set_archived",
    "set_casual",
    "submit_round",
    "surprise_question",
    "undo_last_round",
    "undo_seat_change",
    "update_extremes",
]  # fmt: skip
