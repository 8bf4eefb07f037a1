"""Errors a write can raise, whatever asked for it: callers turn InvalidInput into a 400 (or a form
error), Conflict into a 409, Gone into a 404 and Forbidden into a 403."""

from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied

from .rules.rounds import RoundError


class ScoreKeepingError(Exception):
    pass


@dataclass
class InvalidInput(ScoreKeepingError):
    """The request is wrong whatever the game's state: `errors` maps a field to messages."""

    errors: dict[str, list[str]] = field(default_factory=dict)
    round_errors: list[RoundError] = field(default_factory=list)

    def __str__(self):
        return "; ".join(message for messages in self.errors.values() for message in messages)


@dataclass
class Conflict(ScoreKeepingError):
    """The request clashes with the game as it is now (finished, already recorded, changed)."""

    message: str
    code: str = "conflict"

    def __str__(self):
        return self.message


@dataclass
class Gone(ScoreKeepingError):
    """What the request names was there when it came and is gone now (merged or deleted meanwhile
    by a request that held it first): a 404, as if it had never been there."""

    message: str
    code: str = "not_found"

    def __str__(self):
        return self.message


@dataclass
class Forbidden(ScoreKeepingError, PermissionDenied):
    """The user is a member, but their role does not allow this (a viewer writing, say): a 403."""

    message: str
    code: str = "forbidden"

    def __str__(self):
        return self.message
