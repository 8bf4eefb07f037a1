"""A paper game entered afterwards: the days it may have been played on, and where its day puts it
among the games recorded at the table (plain Python: the services and pages use it)."""

from datetime import date, datetime, time, tzinfo

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
