"""Players, games, rounds and entries.

The database itself refuses what must never happen: two entries for one player in a
round, two rounds with one number, negative pips, a score that is not pips plus
penalty, a player deleted while seated in a game.
"""

from .caches import CacheNote
from .common import (
    INVITE_LIFETIME,
    SCORING_ROLES,
    TILE_SET_CHOICES,
    TRASH_DAYS,
    HistoryAction,
    ReaderRole,
    Role,
    name_key,
)
from .games import (
    ENTRY_FIELDS,
    ENTRY_GIVEN,
    JOIN_TOTAL_CHOICES,
    LIVE_SELECTOR_LENGTH,
    LIVE_TOKEN_LENGTH,
    RULE_COLUMNS,
    TIE_BREAK_CHOICES,
    Entry,
    Game,
    GameQuerySet,
    IdempotencyKey,
    Link,
    LiveLink,
    Round,
    Seat,
    SeatChange,
    entry_values,
    new_live_token,
    numbered_title,
)
from .nights import Night, NightLink, NightQuerySet
from .players import Player, PlayerQuerySet
from .records import DoubleRecord, OpponentRecord, PlayerRecord, RatingStep
from .scorebooks import (
    Invite,
    InviteQuerySet,
    Membership,
    Scorebook,
    ScorebookQuerySet,
    invite_expiry,
    member_of,
    new_invite_code,
    role_of,
)
from .seasons import Season, SeasonQuerySet, SeasonTally

__all__ = [
    "ENTRY_FIELDS",
    "ENTRY_GIVEN",
    "INVITE_LIFETIME",
    "JOIN_TOTAL_CHOICES",
    "LIVE_SELECTOR_LENGTH",
    "LIVE_TOKEN_LENGTH",
    "RULE_COLUMNS",
    "SCORING_ROLES",
    "TIE_BREAK_CHOICES",
    "TILE_SET_CHOICES",
    "TRASH_DAYS",
    "CacheNote",
    "DoubleRecord",
    "Entry",
    "Game",
    "GameQuerySet",
    "HistoryAction",
    "IdempotencyKey",
    "Invite",
    "InviteQuerySet",
    "Link",
    "LiveLink",
    "Membership",
    "Night",
    "NightLink",
    "NightQuerySet",
    "OpponentRecord",
    "Player",
    "PlayerQuerySet",
    "PlayerRecord",
    "RatingStep",
    "ReaderRole",
    "Role",
    "Round",
    "Scorebook",
    "ScorebookQuerySet",
    "Season",
    "SeasonQuerySet",
    "SeasonTally",
    "Seat",
    "SeatChange",
    "entry_values",
    "invite_expiry",
    "member_of",
    "name_key",
    "new_invite_code",
    "new_live_token",
    "numbered_title",
    "role_of",
]
