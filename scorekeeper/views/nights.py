"""Pages of club nights: a scorebook's nights (scorers add one), a night's page (its tables and
standings, following changes; scorers start a game at it, share it, change or delete it), and a game
put in a night from its page. The night's live page (no account) and its TV mode are the live
wing's (views.live)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import clock
from ..errors import InvalidInput
from ..forms import GameNightForm, NightForm
from ..http.private import unchanged
from ..models import Night, NightLink
from ..reads import nights as reads
from ..selectors import game_to_write, night_for, scorebook_for
from ..services import live as sharing
from ..services import nights
from ..services.common import require_scorer


@login_required
@require_POST
def add_night(request, pk):
    """A new night from the scorebook's page (scorers); its errors beside their fields there."""
    book = scorebook_for(request.user, pk)
    require_scorer(book.role)
    form = NightForm(request.POST)
    if form.is_valid():
        try:
            night = nights.create_night(book=book, role=book.role, **form.cleaned_data)
        except InvalidInput as invalid:
            form.add_service_errors(invalid.errors)
        else:
            messages.success(request, _("Added the night {name}.").format(name=night.name))
            return redirect("night", pk=night.pk)
    from .scorebooks import scorebook

    return scorebook(request, pk, night_form=form)


def night_form_of(book) -> NightForm:
    return NightForm(initial={"date": book.today()})


def _context(request, night: Night, read: reads.NightRead, form=None) -> dict:
    link = NightLink.objects.filter(night=night).first() if night.can_score else None
    return {
        "night": night,
        "read": read,
        "book": night.scorebook,
        "can_score": night.can_score,
        "form": form,
        "etag": reads.member_etag(night.pk, read.part),
        "live_url": request.build_absolute_uri(reverse("night_live", kwargs={"token": link.token})) if link else "",
        "link": link,
    }


@login_required
def night(request, pk):
    """The night's tables and standings, following changes; scorers rename it here."""
    chosen = night_for(request.user, pk)
    form = None
    if request.method == "POST":
        require_scorer(chosen.role)
        form = NightForm(request.POST)
        if form.is_valid():
            try:
                nights.update_night(night=chosen, role=chosen.role, **form.cleaned_data)
            except InvalidInput as invalid:
                form.add_service_errors(invalid.errors)
            else:
                messages.success(request, _("Saved the night {name}.").format(name=chosen.name))
                return redirect("night", pk=pk)
    elif chosen.can_score:
        form = NightForm(initial={"name": chosen.name, "date": chosen.date})
    with clock.at_table(chosen.scorebook.zone):
        return render(request, "scorekeeper/night.html", _context(request, chosen, reads.read(chosen), form))


@login_required
def night_body(request, pk):
    """The parts of the night's page that follow it (its tables and standings): 304 while unchanged."""
    chosen = night_for(request.user, pk)
    part = reads.fingerprint(chosen, reads.games_of(pk))
    etag = reads.member_etag(pk, part)
    if unchanged(request, etag):
        response = HttpResponse(status=304)
    else:  # the same for every member in one language (the ETag names it): kept once
        with clock.at_table(chosen.scorebook.zone):
            body, part = reads.kept_body(
                "page", etag, part, chosen, lambda read: render_to_string(NIGHT_BODY, {"read": read})
            )
        etag = reads.member_etag(pk, part)
        response = HttpResponse(body)
    response["ETag"] = etag
    return response


@login_required
@require_POST
def delete_night(request, pk):
    chosen = night_for(request.user, pk)
    nights.delete_night(night=chosen, role=chosen.role)
    messages.success(request, _("Deleted the night {name}; its games stay.").format(name=chosen.name))
    return redirect("scorebook", pk=chosen.scorebook_id)


@login_required
@require_POST
def game_night(request, pk):
    """The game's page puts it in a night of its scorebook, or in none."""
    game = game_to_write(request.user, pk)
    form = GameNightForm(request.POST, nights=Night.objects.filter(scorebook_id=game.scorebook_id))
    if not form.is_valid():
        messages.error(request, _("Choose one of the scorebook's nights."))
    else:
        nights.set_night(game=game, night=form.cleaned_data["night"])
        messages.success(request, _("Saved the game's night."))
    return redirect("game", pk=pk)


@login_required
@require_POST
def share_night(request, pk):
    chosen = night_for(request.user, pk)
    require_scorer(chosen.role)
    sharing.share(night=chosen, by=request.user)
    messages.success(request, _("Live link ready: show the QR code to the club."))
    return redirect(reverse("night", kwargs={"pk": pk}) + "#live-share")


@login_required
@require_POST
def revoke_night_share(request, pk):
    chosen = night_for(request.user, pk)
    require_scorer(chosen.role)
    sharing.revoke(night=chosen)
    messages.success(request, _("The live link is stopped."))
    return redirect(reverse("night", kwargs={"pk": pk}) + "#live-share")


NIGHT_BODY = "scorekeeper/partials/night_body.html"
