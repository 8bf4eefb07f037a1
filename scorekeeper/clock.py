"""The table's own clock: every moment a page shows is shown where its scorebook plays (the
scorebook's time zone, Scorebook.zone), in one format per language: a moment as "Sat 28 Nov, 08:21"
("sáb 28 nov, 08:21"), a day as "Sat 28 Nov" (with its year when it is not this one: "Fri 20 Nov 2025").

A view draws a scorebook's page inside `at_table(book)` (Django's current time zone, so every date
the templates write is the scorebook's); the templates write moments with the `moment` and `day`
filters (templatetags/scorekeeper.py); the page scripts read the zone from #app-status's data-zone (base.html) and
write the same format (i18n.js `moment`)."""

import zoneinfo
from datetime import date, datetime

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

# Translators: a moment a page shows, as Django's date format ("Sat 28 Nov, 08:21"; Spanish months are lowercase: "D j b, H:i").
MOMENT = _("D j M, H:i")
# Translators: a day a page shows, as Django's date format ("Sat 28 Nov"; Spanish months are lowercase: "D j b").
DAY = _("D j M")
# Translators: a day of another year a page shows (a paper game entered afterwards), as Django's date format ("Fri 20 Nov 2025"; Spanish: "D j b Y").
DAY_OF_YEAR = _("D j M Y")


def at_table(zone: zoneinfo.ZoneInfo):
    """Draw a page on this clock: `with clock.at_table(book.zone): return render(...)`."""
    return timezone.override(zone)


def moment(when: datetime | None) -> str:
    """A moment on the current clock ("Sat 28 Nov, 08:21"); "" for none."""
    return date_format(timezone.localtime(when), str(MOMENT)) if when else ""


def day(when: datetime | date | str | None) -> str:
    """The day of a moment on the current clock, or a day ("Sat 28 Nov"; "Fri 20 Nov 2025" for a day of
    another year: a paper game can be years old), or a day as history keeps it ("2025-11-20"); "" for none."""
    if not when:
        return ""
    if isinstance(when, str):
        when = date.fromisoformat(when)
    shown = timezone.localtime(when) if isinstance(when, datetime) else when
    return date_format(shown, str(DAY if shown.year == timezone.localdate().year else DAY_OF_YEAR))


def local_day(when: datetime, zone: zoneinfo.ZoneInfo) -> date:
    """The day a moment fell on in `zone` (a scorebook's)."""
    return timezone.localdate(when, zone)
