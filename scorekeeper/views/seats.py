"""The page that seats a player who arrives, lets one go, or hands a seat over, between two rounds:
it presents what the seat command (services.change_seat) answers."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from .. import services
from ..converters import parse_id
from ..forms import SeatChangeForm
from ..models import Player
from ..rules.seating import Change
from ..selectors import game_to_write
from .common import conflict_message, sheet_for

DONE = {
    Change.JOIN: gettext_lazy("{name} joined the table."),
    Change.LEAVE: gettext_lazy("{name} left the table."),
    Change.TAKE_OVER: gettext_lazy("{name} took over the seat."),
}


@login_required
def seat_change(request, pk, kind):
    if kind not in Change.CHOICES:
        raise Http404(_("No such seat change."))
    sheet = sheet_for(request.user, pk, write=True, rows=False)
    game = sheet.game
    if sheet.state.finished:
        messages.info(request, _("This game is over."))
        return redirect("game", pk=pk)
    if kind == Change.JOIN and sheet.full:  # an old link or a second phone: the game's page says why
        messages.info(request, _("The table is full: a newcomer takes over a seat, or joins once someone leaves."))
        return redirect("game", pk=pk)
    others = (
        Player.objects.filter(scorebook_id=game.scorebook_id)
        .active()
        .exclude(pk__in=[s.player_id for s in sheet.seats])
    )
    openings = sheet.joiner_openings if kind == Change.JOIN and sheet.state.rounds else None
    form = SeatChangeForm(
        request.POST or None,
        kind=kind,
        seated=sheet.seated,
        others=list(others),
        openings=openings,
        initial={"version": game.version, "join_total": game.join_total},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.change_seat(
                game=game,
                kind=kind,
                player=data.get("player"),
                name=data.get("name", ""),
                replaces=data.get("replaces"),
                sits_after=data.get("after"),
                join_total=data.get("join_total") or None,
                expected_version=data["version"],
                by=request.user,
            )
        except services.InvalidInput as invalid:
            for field, problems in invalid.errors.items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
        except services.Conflict as conflict:
            form.add_error(None, conflict.message)
        else:
            chosen = data.get("player")
            name = dict(form.fields["player"].choices).get(chosen) or data.get("name", "").strip()
            messages.success(request, str(DONE[kind]).format(name=name))
            return redirect("game", pk=pk)
    return render(request, "scorekeeper/seat_change.html", {"sheet": sheet, "form": form, "kind": kind})


@login_required
@require_POST
def undo_seat_change(request, pk):
    """Takes away the last seat change, while no round was recorded after it."""
    game = game_to_write(request.user, pk)
    version = parse_id(request.POST.get("version", ""))
    try:
        services.undo_seat_change(game=game, expected_version=version, by=request.user)
    except services.Conflict as conflict:
        messages.error(request, conflict_message(conflict))
    else:
        messages.success(request, _("Undid the last change at the table."))
    return redirect("game", pk=pk)
