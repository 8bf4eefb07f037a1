"""The live link: sharing a game and the read-only page everyone at the table follows."""

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
from ..reads import charts, live
from ..selectors import game_to_write
from ..services import live as sharing
from .common import qr_svg, tv_aware


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


def _live(request, token, template):
    """The live page or its swappable body: no account; 304 when neither the game nor the
    viewer's language has changed."""
    try:
        links.spend(request, token)
    except links.Throttled as refused:
        response = HttpResponse(str(refused), status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(refused.wait)
        return response
    if (link := live.open_link(token)) is None:
        return render(request, "scorekeeper/live_gone.html", status=404)
    etag = live.page_etag(link)  # the game's version and the language
    if template == LIVE_BODY and unchanged(request, etag):
        response = HttpResponse(status=304)
    elif template == LIVE_BODY:
        response = HttpResponse(live.shared("body", etag, lambda: _drawn(None, template, link, token, etag)))
    else:
        response = HttpResponse(_drawn(request, template, link, token, etag))
    if template == LIVE_BODY:  # the same for every viewer in one language, as the poll's 304 says
        links.body_headers(response, etag, get_language())
    else:  # the page carries the viewer's CSRF token
        response["ETag"], response["Cache-Control"] = etag, "private, no-cache"
        response["Content-Language"], response["X-Robots-Tag"] = get_language(), "noindex, nofollow"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))  # the language comes from either
    return response


LIVE_BODY = "scorekeeper/partials/live_body.html"


def _drawn(request, template, link, token, etag) -> str:
    """The live page (or its body) on the table's own clock: its scorebook's time zone."""
    sheet = live.sheet_of(link)
    context = {"sheet": sheet, "chart": charts.running_totals(sheet), "token": token, "etag": etag}
    with clock.at_table(sheet.game.scorebook.zone):
        return render_to_string(template, context, request=request)


def live_page(request, token):
    return _live(request, token, "scorekeeper/live.html")


def live_sheet(request, token):
    return _live(request, token, LIVE_BODY)


def live_qr(request, token):
    """The live link as an SVG QR code: whoever scans it at the table opens the live page
    (with ?tv=1, the TV's code: it opens straight in TV mode)."""
    if live.find(token) is None:
        raise Http404(_("This live link does not exist or was revoked."))
    return qr_svg(tv_aware(request, reverse("live", kwargs={"token": token})), _("Live link QR code"))
