"""Names every model shares: roles, history actions, how player names compare, the trash."""

import unicodedata
from datetime import timedelta

from django.db import models
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from ..rules.tiles import SUPPORTED_SETS

TILE_SET_CHOICES = [(n, format_lazy(_("Double-{n}"), n=n)) for n in SUPPORTED_SETS]


def name_key(name: str) -> str:
    """What makes two player names the same: Unicode compatibility forms folded (NFKC), then
    full case folding ("Straße" and "STRASSE", "ÐÇ" and "ðç" are one name). Stored beside the
    name, so the database's unique constraint, the forms and the API all compare this one value
    (SQLite's LOWER() folds ASCII only)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    SCORER = "scorer", _("Scorer")
    VIEWER = "viewer", _("Viewer")


# What each role may do: owners everything, scorers players/games/rounds, viewers read.
SCORING_ROLES = frozenset({Role.OWNER, Role.SCORER})


class HistoryAction(models.TextChoices):
    """What a version kept by django-simple-history records (its change reason); a game's history
    answers with these names (the API's `action`)."""

    GAME_CREATED = "game_created"
    GAME_RENAMED = "game_renamed"
    GAME_DELETED = "game_deleted"
    GAME_RESTORED = "game_restored"
    GAME_FINISHED = "game_finished"  # stopped early by agreement ("We stop here")
    ROUND_RECORDED = "round_recorded"
    ROUND_CORRECTED = "round_corrected"
    ROUND_UNDONE = "round_undone"
    ROUND_RESTORED = "round_restored"
    PLAYER_JOINED = "player_joined"
    PLAYER_LEFT = "player_left"
    SEAT_TAKEN_OVER = "seat_taken_over"
    PLAYER_JOINED_UNDONE = "player_joined_undone"
    PLAYER_LEFT_UNDONE = "player_left_undone"
    SEAT_TAKEN_OVER_UNDONE = "seat_taken_over_undone"
    PLAYER_RENAMED = "player_renamed"
    PLAYER_LINKED = "player_linked"
    PLAYER_UNLINKED = "player_unlinked"
    PLAYER_ARCHIVED = "player_archived"
    PLAYER_BROUGHT_BACK = "player_brought_back"
    PLAYER_MERGED = "player_merged"  # on every game whose seats moved to the player merged into
    GAME_MADE_CASUAL = "game_made_casual"
    GAME_COUNTED = "game_counted"  # a casual game made to count again
    GAME_ENTERED = "game_entered"  # a paper game entered afterwards, with all its rounds (services.paper)


INVITE_LIFETIME = timedelta(days=7)
TRASH_DAYS = 30


class ReaderRole:
    """A row read with the reader's `role` in its scorebook (a membership; or annotated by
    for_user / with_role, or set by selectors.current_scorebook)."""

    @property
    def can_score(self) -> bool:
        """Whether the reader may write: players, games and rounds."""
        return getattr(self, "role", None) in SCORING_ROLES
