"""Page forms, by feature as the pages are (views/). They parse input; the services and the rules
module decide what is allowed. Everything is importable from `scorekeeper.forms` as before."""

from .common import NUMERIC
from .games import PRESETS, NewGameForm, PlayerChoiceField, RenameGameForm, form_values
from .nights import GameNightForm, NightForm
from .paper import PaperGridForm, PaperSetupForm
from .players import MENU_NAME, LeaderboardFilterForm, MergeForm, PlayerForm, StatsFilterForm
from .rounds import MAX_PIPS, PIPS_BOX, TOGGLES, PipsField, RoundForm
from .scorebooks import InviteForm, ScorebookForm, TimeZoneForm
from .seasons import SeasonForm
from .seats import SeatChangeForm

__all__ = [
    "MAX_PIPS",
    "MENU_NAME",
    "NUMERIC",
    "PIPS_BOX",
    "PRESETS",
    "TOGGLES",
    "GameNightForm",
    "InviteForm",
    "LeaderboardFilterForm",
    "MergeForm",
    "NewGameForm",
    "NightForm",
    "PaperGridForm",
    "PaperSetupForm",
    "PipsField",
    "PlayerChoiceField",
    "PlayerForm",
    "RenameGameForm",
    "RoundForm",
    "ScorebookForm",
    "SeasonForm",
    "SeatChangeForm",
    "StatsFilterForm",
    "TimeZoneForm",
    "form_values",
]
