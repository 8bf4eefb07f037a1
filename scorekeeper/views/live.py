"""The live wing's pages: a game's or a night's live link shared (members), and the read-only page
everyone at the table (or the club's TV) follows, with its swappable body and its QR code. One code
path for both kinds; the URL says which (`kind`), and what differs is data (`PAGES`)."""

from contextlib import nullcontext

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import clock
from ..http import links
from ..http.private import unchanged
from ..models import LiveLink, NightLink
from ..reads import charts, live
from ..selectors import game_to_write
from ..services import live as sharing
from .common import qr_svg, tv_aware

# Each kind's page, its swappable body, and the name of its page's URL.
PAGES = {
    LiveLink.KIND: ("scorekeeper/live.html", "scorekeeper/partials/live_body.html", "live"),
    NightLink.KIND: ("scorekeeper/night_live.html", "scorekeeper/partials/night_live_body.html", "night_live"),
}


@login_required
@require_POST
def share_game(request, pk):
    """Make the live link, or replace it (the old one stops working at once)."""
    sharing.share(game=game_to_write(request.user, pk), by=request.user)
    messages.success(request, _("Live link ready: show the QR code to the table."))
    return redirect(reverse("game", kwargs={"pk": pk}) + "#live-share")


@login_required
@require_POST
def revoke_share(request, pk):
    sharing.revoke(game=game_to_write(request.user, pk))
    messages.success(request, _("The live link is stopped."))
    return redirect(reverse("game", kwargs={"pk": pk}) + "#live-share")


def _live(request, token, kind, *, body: bool):
    """The live page or (`body`) its swappable body: no account; 304 when neither what it opens nor
    the viewer's language has changed."""
    try:
        links.spend(request, token)
    except links.Throttled as refused:
        response = HttpResponse(str(refused), status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(refused.wait)
        return response
    if (opened := live.open_link(token, kind)) is None:
        return render(request, "scorekeeper/live_gone.html", status=404)
    etag = opened.etag(page=True)  # what it opens at its tag, and the language
    page, body_template, _name = PAGES[kind]
    if body and unchanged(request, etag):
        response = HttpResponse(status=304)
    elif body:  # the same for every viewer in one language: kept once
        drawn, etag = live.kept_body(opened, "page", lambda content: _drawn(None, body_template, content, token, etag))
        response = HttpResponse(drawn)
    else:
        response = HttpResponse(_drawn(request, page, live.read(opened), token, etag))
    if body:  # the same for every viewer in one language, as the poll's 304 says
        links.body_headers(response, etag, get_language())
    else:  # the page carries the viewer's CSRF token
        response["ETag"], response["Cache-Control"] = etag, "private, no-cache"
        response["Content-Language"], response["X-Robots-Tag"] = get_language(), "noindex, nofollow"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))  # the language comes from either
    return response


def _drawn(request, template, content, token, etag) -> str:
    """The live page (or its body): a game's on the table's own clock (its scorebook's time zone)."""
    if isinstance(content, live.Sheet):
        context = {"sheet": content, "chart": charts.running_totals(content)}
        at = clock.at_table(content.game.scorebook.zone)
    else:
        context, at = {"read": content}, nullcontext()
    with at:
        return render_to_string(template, {**context, "token": token, "etag": etag}, request=request)


def live_page(request, token, kind=LiveLink.KIND):
    return _live(request, token, kind, body=False)


def live_sheet(request, token, kind=LiveLink.KIND):
    return _live(request, token, kind, body=True)


def live_qr(request, token, kind=LiveLink.KIND):
    """The live link as an SVG QR code: whoever scans it opens the live page (with ?tv=1, the TV's
    code: it opens straight in TV mode)."""
    if live.find(token, kind) is None:
        raise Http404(_("This live link does not exist or was revoked."))
    return qr_svg(tv_aware(request, reverse(PAGES[kind][2], kwargs={"token": token})), _("Live link QR code"))
