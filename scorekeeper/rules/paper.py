"""A paper game entered afterwards: the days it may have been played on, where its day puts it
among the games recorded at the table, and what its sheet would have made the table ask (plain
Python: the services and pages use it)."""

from collections.abc import Mapping, Sequence
from datetime import date, datetime, time, tzinfo

from .deal import Hand, surprises
from .rounds import EntryInput
from .text import Text, _

# The most rounds one paper game may bring (a target score can cycle the doubles for long; forty
# rounds is past any evening's sheet) and the oldest day it may have been played on.
MAX_PAPER_ROUNDS = 40
FIRST_DAY = date(1900, 1, 1)


def day_problem(day: date, today: date) -> Text | None:
    """What is wrong with `day` as the day a game was played, `today` being today where its
    scorebook plays: nothing, or the message."""
    if day > today:
        return _("{day} is after today ({today}): enter a game once it has been played.",
                 day=day.isoformat(), today=today.isoformat())  # fmt: skip
    if day < FIRST_DAY:
        return _("Give a day from the year 1900 on.")
    return None


def counted_at(day: date, zone: tzinfo, now: datetime) -> datetime:
    """The moment a game played on `day` (in `zone`) counts at, in the order of the scorebook's games
    (ratings, seasons, streaks, boards): today's counts now, as a game finishing at the table would;
    an earlier day's at the last second of that day, after the games recorded at the table that day."""
    if day >= now.astimezone(zone).date():
        return now
    return datetime.combine(day, time(23, 59, 59), zone)


def played_on(moment: datetime, zone: tzinfo) -> date:
    """The day a game that finished at `moment` was played on, where its scorebook plays."""
    return moment.astimezone(zone).date()


def sheet_surprises(tile_set: int, rounds: Sequence[tuple[int, Sequence[EntryInput]]], names: Mapping) -> list[Text]:
    """ "Round 2: Cy: 90 pips is more than ... A typo?": each hand of the sheet the round form would have asked about
    before saving it (deal.surprises: more pips than a deal's biggest tiles hold, "a typo?"): a
    sheet is typed fast, and 777 for 77 is as legal there as at the table."""
    found = []
    for number, (double, entries) in enumerate(rounds, start=1):
        hands = [Hand(names[e.player], e.pips, e.tiles_left, e.went_out) for e in entries if e.pips is not None]
        found += [
            _("Round {number}: {question}", number=number, question=text)
            for text in surprises(tile_set, double, hands, skipped=[], ends_game=False)
        ]
    return found
