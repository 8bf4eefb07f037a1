"""How many tiles to deal each player: a hint shown when a round starts, never a check.

The rule texts disagree, so the tables below are the commonly played counts for the two
sets they describe; other sets scale by the number of tiles.
"""

from dataclasses import dataclass

from .game import MAX_PLAYERS, MIN_PLAYERS
from .text import Text, _
from .tiles import hand_range, tile_count

# players -> (usual, alternative or None)
_DOUBLE_9 = {2: (20, 21), 3: (14, None), 4: (11, None), 5: (8, None), 6: (7, None), 7: (6, None), 8: (5, 6)}
_DOUBLE_12 = {2: (20, 24), 3: (15, 16), 4: (12, None), 5: (10, 11), 6: (10, None), 7: (7, None), 8: (7, None)}


@dataclass(frozen=True)
class DealHint:
    tiles: int
    alternative: int | None = None

    def __str__(self) -> str:
        return (
            _("{tiles} or {other}", tiles=self.tiles, other=self.alternative) if self.alternative else str(self.tiles)
        )


def suggested_deal(tile_set: int, players: int) -> DealHint:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players")
    base_set, table = (9, _DOUBLE_9) if tile_set <= 9 else (12, _DOUBLE_12)
    counted = min(players, max(table))
    usual, alternative = table[counted]
    # Past the table's last row, keep the tiles dealt in all about the same.
    scale = tile_count(tile_set) / tile_count(base_set) * counted / players

    def scaled(value: int | None) -> int | None:
        return None if value is None else max(1, round(value * scale))

    # Never deal the whole set: the starting double is on the table and a yard stays to draw from.
    ceiling = (tile_count(tile_set) - 2) // players
    usual_tiles = min(scaled(usual), ceiling)
    other = scaled(alternative)
    other = None if other is None or min(other, ceiling) == usual_tiles else min(other, ceiling)
    return DealHint(usual_tiles, other)


@dataclass(frozen=True)
class Hand:
    """What a surprise check needs of one entry."""

    name: str
    pips: int
    tiles_left: int | None
    went_out: bool


def surprises(
    tile_set: int, starting_double: int, hands: list[Hand], *, skipped: list[int], ends_game: bool
) -> list[Text]:
    """What is legal but unusual enough in a round to ask the scorer before saving it: a hand
    beyond what the deal makes plausible, a skip of two or more doubles, the end of the game before
    the end of its sequence (`ends_game`: game.ends_early; the last double reached in order asks nothing)."""
    hint = suggested_deal(tile_set, len(hands))
    dealt = max(hint.tiles, hint.alternative or 0)
    full_hand = hand_range(tile_set, starting_double, dealt, False)
    found = []
    for hand in hands:
        if hand.went_out:
            continue
        if full_hand is not None and hand.pips > full_hand.high:
            found.append(
                _(
                    "{name}: {pips} pips is more than the {dealt} biggest tiles of a deal hold ({most}). A typo?",
                    name=hand.name,
                    pips=hand.pips,
                    dealt=dealt,
                    most=full_hand.high,
                )
            )
        elif hand.tiles_left is not None and hand.tiles_left >= dealt:
            found.append(
                _(
                    "{name}: {count} tiles left, as many as were dealt ({dealt}): no tile played?",
                    name=hand.name,
                    count=hand.tiles_left,
                    dealt=dealt,
                )
            )
    if len(skipped) >= 2:
        doubles = ", ".join(f"{d}-{d}" for d in skipped)
        found.append(
            _(
                "Starting with {double} skips {doubles}: nobody held any of them?",
                double=f"{starting_double}-{starting_double}",
                doubles=doubles,
            )
        )
    if ends_game:
        found.append(_("This round ends the game."))
    return found
