"""What the page views share: the games and scorebooks a user may read or write, safe next links, QR codes."""

import io

import segno
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from .. import selectors, services
from ..models import Scorebook
from ..reads import stats
from ..reads.sheet import build_sheet


def sheet_for(user, pk, *, write=False, rows=True):
    """A game's sheet for a member (404 for anyone else); `write`: 403 for a viewer; `rows`: False
    for a page that shows none (the round form), which then reads the game and its seats only."""
    # Whether the scorebook's ratings are being updated, read with the game: a finished game's card
    # shows the rating moves (reads.story.card_moves).
    # Its scorebook in the same query: the page is drawn on its clock (scorekeeper.clock).
    games = selectors.games_for(user, role=True).annotate(ratings_updating=stats.ratings_updating())
    games = games.select_related("scorebook")
    game = get_object_or_404(games, pk=pk)
    if write:
        services.require_scorer(game.role)
    if not rows:
        return build_sheet(game, list(game.seats.all()))
    return build_sheet(game, list(game.seats.all()), list(game.rounds.in_order()))


def writable_current(user) -> Scorebook:
    """The scorebook the pages work in, when the user may write there (403 for a viewer)."""
    book = selectors.current_scorebook(user)
    services.require_scorer(book.role)
    return book


def safe_next(request) -> str | None:
    """The `next` the form sent, when it is a path on this site (never an open redirect).

    Only a path: `redirect()` tries any other text as a URL name first, and `-1` or `١٢` is no
    name it knows (a 500)."""
    target = request.POST.get("next", "")
    if target.startswith("/") and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return None


def conflict_message(conflict: services.Conflict) -> str:
    if conflict.code == "stale":
        return _(
            "Someone else changed this game while you were entering this round. Nothing was saved: reload the game to see their change."
        )
    return str(conflict)


def tv_aware(request, path: str) -> str:
    """A live link's full address; its TV link (?tv=1 asked of the QR code) opens straight in TV mode."""
    return request.build_absolute_uri(path + ("?tv=1" if request.GET.get("tv") == "1" else ""))


def qr_svg(url: str, title: str) -> HttpResponse:
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=6, border=2, xmldecl=False, svgns=True, title=title)
    response = HttpResponse(buffer.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-store"
    return response
