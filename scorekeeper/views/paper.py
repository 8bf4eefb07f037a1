"""Enter a paper game: the day, the players and the set, then the sheet's grid typed as on paper,
every round checked on save (services.enter_paper_game), all or nothing."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from .. import services
from ..forms import PaperGridForm, PaperSetupForm
from ..rules.game import GameRules
from .common import writable_current


@login_required
def paper_game(request):
    """GET without a day and players: the first step. With them (GET from the first step, or the
    grid's POST, which sends them again): the grid; saved on a POST that every round passes."""
    book = writable_current(request.user)
    sent = request.POST if request.method == "POST" else request.GET
    setup = PaperSetupForm(sent if "played_on" in sent else None, scorebook=book)
    if not setup.is_bound or "change" in sent or not setup.is_valid():
        return render(request, "scorekeeper/paper_game.html", {"setup": setup, "grid": None, "scorebook": book})
    players = setup.seated()
    rules = GameRules(tile_set=setup.cleaned_data["tile_set"])
    grid = PaperGridForm(request.POST if request.method == "POST" else None, players=players, rules=rules)
    context = {"setup": setup, "grid": grid, "scorebook": book}
    if request.method == "POST" and grid.is_valid():
        try:
            game = services.enter_paper_game(
                by=request.user,
                scorebook=book,
                players=[player.pk for player in players],
                rules=rules,
                played_on=setup.cleaned_data["played_on"],
                rounds=grid.rounds(),
                name=setup.cleaned_data["name"],
                number=services.next_game_number(book),
                finish=True,  # a sheet is typed in once its evening is over: the rows left empty were not played
                confirm=request.POST.get("confirmed", ""),  # the round form's question, asked of the sheet
                sheet=grid.cleaned_data["sheet"],
            )
        except services.InvalidInput as invalid:
            grid.refused(invalid.errors, invalid.round_errors)
        else:
            if isinstance(game, services.NeedsConfirmation):  # nothing saved: asked first, as typed
                surprises = {"surprises": game.surprises, "surprise_key": game.key}
                return render(request, "scorekeeper/paper_game.html", context | surprises)
            if getattr(game, "seen_before", False):
                messages.info(request, _("This sheet was saved already: here is its game."))
            else:
                messages.success(request, _("Saved the paper game: every round checked."))
            return redirect("game", pk=game.pk)
    return render(request, "scorekeeper/paper_game.html", context)
