"""A round as entered and as scored, the errors that name what to change, and the hand each entry describes."""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from ..game import GameRules
from ..scoring import penalty
from ..text import Text, _, listing, ngettext
from ..tiles import (
    Tile,
)


@dataclass(frozen=True)
class Seat:
    player: Hashable
    name: str


@dataclass(frozen=True)
class EntryInput:
    """One player's round as entered. None means "not given"."""

    player: Hashable
    pips: int | None = None
    tiles_left: int | None = None
    tiles: Sequence[str] | None = None
    double_blank: bool | None = None
    went_out: bool = False
    ended_on_double: bool = False


@dataclass(frozen=True)
class ScoredEntry:
    player: Hashable
    pips: int
    tiles_left: int | None
    tiles: tuple[str, ...]
    double_blank: bool
    went_out: bool
    ended_on_double: bool
    penalty: int
    score: int


@dataclass(frozen=True)
class ScoredRound:
    starting_double: int
    blocked: bool
    entries: tuple[ScoredEntry, ...]  # seat order


@dataclass(frozen=True)
class RoundError:
    """One broken rule: `rule` is the number of the check in the rules page."""

    code: str
    message: Text  # a string, with its template and parameters for other languages
    rule: int
    player: Hashable | None = None
    field: str | None = None


@dataclass
class InvalidRound(Exception):
    errors: list[RoundError] = field(default_factory=list)

    def __str__(self) -> str:
        return "; ".join(error.message for error in self.errors)


@dataclass(frozen=True)
class _Hand:
    """An entry with what it holds worked out: from its tile list or from its numbers."""

    entry: EntryInput
    name: str
    pips: int
    tiles_left: int | None
    tiles: tuple[Tile, ...] | None
    double_blank: bool


def _tiles(count: int) -> Text:
    return ngettext("{count} tile", "{count} tiles", count, count=count)


@dataclass(frozen=True)
class _Table:
    """The set in play and the double on the table: what every bound depends on."""

    highest: int
    starting_double: int

    @property
    def where(self) -> Text:
        d = self.starting_double
        return _("in a double-{highest} set while {double} is on the table", highest=self.highest, double=f"{d}-{d}")


def _names(hands: Sequence[_Hand]) -> Text | str:
    return listing([hand.name for hand in hands])


def _about(name, problem: Text) -> Text:
    """A message about one player (or a few): their name first."""
    return _("{name}: {problem}", name=name, problem=problem)


def _hand_error(hand: _Hand, code: str, message: Text, field: str, rule: int) -> RoundError:
    return RoundError(code, _about(hand.name, message), rule=rule, player=hand.entry.player, field=field)


def _only_one(hands: list[_Hand], code: str, rule: int, field: str, message: Text) -> list[RoundError]:
    """An error for each hand past the first one marked with something only one hand can have."""
    return [
        RoundError(code, _about(hand.name, message), rule=rule, player=hand.entry.player, field=field)
        for hand in hands[1:]
    ]


def _score(rules: GameRules, hand: _Hand) -> ScoredEntry:
    entry = hand.entry
    tiles_left = 0 if entry.went_out else hand.tiles_left
    points = penalty(rules, double_blank=hand.double_blank, ended_on_double=entry.ended_on_double)
    return ScoredEntry(
        player=entry.player,
        pips=hand.pips,
        tiles_left=tiles_left,
        tiles=tuple(str(tile) for tile in sorted(hand.tiles, reverse=True)) if hand.tiles else (),
        double_blank=hand.double_blank,
        went_out=entry.went_out,
        ended_on_double=entry.ended_on_double,
        penalty=points,
        score=hand.pips + points,
    )
