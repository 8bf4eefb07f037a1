"""Export and import pages."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from .. import services, transfer
from ..converters import parse_id
from ..models import Game
from ..selectors import scorebook_for


@login_required
def export(request):
    """Download games as CSV or JSON: one game (?game=), one scorebook (?scorebook=) or everything."""
    games = Game.objects.for_user(request.user).order_by("created_at", "id")
    name = "chicken-foot-games"
    if (game := parse_id(request.GET.get("game", ""))) is not None:
        games, name = games.filter(pk=game), f"game-{game}"
    if (book := parse_id(request.GET.get("scorebook", ""))) is not None:
        games, name = games.filter(scorebook=scorebook_for(request.user, book)), f"scorebook-{book}"
    if ("game" in request.GET and game is None) or (game is not None and not games.exists()):
        raise Http404(_("No such game in your scorebooks."))
    if "scorebook" in request.GET and book is None:  # as the API: a malformed scorebook is none of yours
        raise Http404(_("No such scorebook among yours."))
    try:
        with transfer.one_at_a_time(request.user):
            games = list(transfer.bounded_export(games))
    except (transfer.ExportTooBig, transfer.Busy) as refused:
        status = 429 if isinstance(refused, transfer.Busy) else 413
        title = _("Try again in a few seconds") if status == 429 else _("This download is too large")
        page = render_to_string("413.html", {"detail": str(refused), "title": title}, request=request)
        response = HttpResponse(page, status=status)
        if status == 429:
            response["Retry-After"] = str(refused.retry_after)
        return response
    if request.GET.get("format") == "csv":
        response = HttpResponse(transfer.as_csv(games), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    else:
        response = JsonResponse(transfer.as_json(games), json_dumps_params={"ensure_ascii": False, "indent": 1})
        response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


@login_required
@require_POST
def import_games(request, pk):
    """An export file into this scorebook: all or nothing, games it holds already are skipped."""
    book = scorebook_for(request.user, pk)
    services.require_scorer(book.role)
    upload = request.FILES.get("file")
    if upload is not None and upload.size > settings.IMPORT_MAX_BYTES:  # as transfer.ImportSizeMiddleware answers
        page = render_to_string("413.html", {"detail": transfer.limits_message()}, request=request)
        return HttpResponse(page, status=413)
    try:
        if upload is None:
            raise transfer.BadFile({"file": [_("Choose an export file (.json) to import.")]})
        try:
            data = json.loads(upload.read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            raise transfer.BadFile({"file": [_("This file is not JSON: choose an export made by this app.")]}) from None
        with transfer.one_at_a_time(request.user):
            result = transfer.import_games(
                data=data, scorebook=book, by=request.user, max_games=settings.IMPORT_MAX_GAMES
            )
    except (transfer.TooBig, transfer.Busy) as refused:
        messages.error(request, str(refused))
    except transfer.BadFile as bad:
        for message in bad.errors.get("file", []) or [str(bad)]:
            messages.error(request, message)
    else:
        messages.success(
            request,
            _("Imported {games} ({rounds}, {players}){skipped}.").format(
                games=ngettext("{count} game", "{count} games", result.games).format(count=result.games),
                rounds=ngettext("{count} round", "{count} rounds", result.rounds).format(count=result.rounds),
                players=ngettext("{count} new player", "{count} new players", result.players_created).format(
                    count=result.players_created
                ),
                skipped=_("; {count} already here").format(count=result.skipped) if result.skipped else "",
            ),
        )
    return redirect("scorebook", pk=pk)
