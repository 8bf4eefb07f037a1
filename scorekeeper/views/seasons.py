"""Pages of seasons: a scorebook's seasons (past ones with their champions), one season's table,
and the owner's forms to add, change and delete them."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..errors import InvalidInput
from ..forms import SeasonForm
from ..models import Role
from ..reads import seasons as reads
from ..selectors import scorebook_for, season_for
from ..services import seasons
from ..services.scorebooks import require_owner


@login_required
def season_list(request, pk):
    """Current, coming and past seasons (past ones with their champions); owners add one."""
    book = scorebook_for(request.user, pk)
    form = SeasonForm(request.POST or None, initial={"starts": book.today()})
    if request.method == "POST":
        require_owner(book.role, _("add seasons"))
        if form.is_valid():
            try:
                season = seasons.create_season(book=book, role=book.role, **form.cleaned_data)
            except InvalidInput as invalid:
                form.add_service_errors(invalid.errors)
            else:
                messages.success(request, _("Added the season {name}.").format(name=season.name))
                return redirect("season", pk=season.pk)
    today = book.today()
    listed = [
        {"season": season, "ended": season.has_ended(today), "current": season.is_current(today),
         "champions": reads.champion_names(season) if season.has_ended(today) else []}
        for season in reads.seasons_of(book)
    ]  # fmt: skip
    context = {"book": book, "seasons": listed, "form": form, "is_owner": book.role == Role.OWNER}
    return render(request, "scorekeeper/seasons.html", context)


@login_required
def season(request, pk):
    """The season's table; owners change the season here."""
    chosen = season_for(request.user, pk)
    form = None
    if chosen.role == Role.OWNER or request.method == "POST":
        form = SeasonForm(request.POST or None, initial={field: getattr(chosen, field) for field in seasons.FIELDS})
    if request.method == "POST":
        require_owner(chosen.role, _("change seasons"))
        if form.is_valid():
            try:
                seasons.update_season(season=chosen, role=chosen.role, **form.cleaned_data)
            except InvalidInput as invalid:
                form.add_service_errors(invalid.errors)
            else:
                messages.success(request, _("Saved the season {name}.").format(name=chosen.name))
                return redirect("season", pk=pk)
    context = {
        "table": reads.table(chosen),
        "book": chosen.scorebook,
        "form": form,
        "is_owner": chosen.role == Role.OWNER,
    }
    return render(request, "scorekeeper/season.html", context)


@login_required
@require_POST
def delete_season(request, pk):
    chosen = season_for(request.user, pk)
    seasons.delete_season(season=chosen, role=chosen.role)
    messages.success(request, _("Deleted the season {name}.").format(name=chosen.name))
    return redirect("seasons", pk=chosen.scorebook_id)
