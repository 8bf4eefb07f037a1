"""The pages. Each view parses input, calls a service, renders; the rules live elsewhere."""

from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from . import charts, services, stats
from .forms import PRESETS, NewGameForm, PlayerForm, RenameGameForm, RoundForm, StatsFilterForm
from .models import Entry, Game, Player, Seat
from .sheet import build_sheet


def _games(user):
    return Game.objects.for_user(user).prefetch_related(
        Prefetch("seats", Seat.objects.select_related("player").order_by("position"))
    )


def _sheet(user, pk):
    game = get_object_or_404(_games(user), pk=pk)
    rounds = list(
        game.rounds.order_by("number").prefetch_related(Prefetch("entries", Entry.objects.order_by("position")))
    )
    return build_sheet(game, list(game.seats.all()), rounds)


@login_required
def home(request):
    games = _games(request.user)
    return render(
        request,
        "scorekeeper/home.html",
        {"in_progress": games.in_progress()[:20], "finished": games.finished().order_by("-finished_at")[:5]},
    )


@login_required
def new_game(request):
    form = NewGameForm(request.POST or None, owner=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(
                owner=request.user,
                players=form.seated_player_ids(),
                rules=form.game_rules(),
                name=form.cleaned_data["name"],
            )
        except services.InvalidInput as invalid:
            for field, problems in invalid.errors.items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
        else:
            return redirect("game", pk=game.pk)
    presets = {key: rules.__dict__ for key, (_, rules) in PRESETS.items()}
    return render(
        request,
        "scorekeeper/new_game.html",
        {"form": form, "player_form": PlayerForm(owner=request.user, prefix="player"), "presets": presets},
    )


@login_required
@require_POST
def add_player(request):
    """From the players page, or inline from the new-game page (htmx swaps in a checkbox)."""
    form = PlayerForm(request.POST, owner=request.user, prefix="player")
    if form.is_valid():
        player = form.save()
        if request.htmx:
            context = {
                "player": player,
                "checked": True,
                "player_form": PlayerForm(owner=request.user, prefix="player"),
            }
            return render(request, "scorekeeper/partials/player_added.html", context)
        messages.success(request, f"Added {player.name}.")
    elif request.htmx:
        return render(request, "scorekeeper/partials/player_form.html", {"player_form": form}, status=200)
    else:
        for problem in form.errors.get("name", []):
            messages.error(request, problem)
    return redirect(request.POST.get("next") or "players")


@login_required
def game(request, pk):
    sheet = _sheet(request.user, pk)
    return render(request, "scorekeeper/game.html", {"sheet": sheet, "chart": charts.running_totals(sheet)})


@login_required
def record_round(request, pk):
    sheet = _sheet(request.user, pk)
    if sheet.game.is_finished:
        messages.info(request, "This game is over.")
        return redirect("game", pk=pk)
    doubles = sheet.choosable_doubles
    form = RoundForm(
        request.POST or None,
        seats=sheet.seats,
        doubles=doubles,
        initial={"starting_double": doubles[0], "version": sheet.game.version},
    )
    return _save_round(request, form, sheet, None)


@login_required
def edit_round(request, pk, number):
    sheet = _sheet(request.user, pk)
    round_ = next((row.round for row in sheet.rows if row.round and row.round.number == number), None)
    if round_ is None:
        raise Http404("No such round in this game.")
    form = RoundForm(
        request.POST or None,
        seats=sheet.seats,
        doubles=[round_.starting_double],
        initial={"starting_double": round_.starting_double, "version": sheet.game.version}
        | RoundForm.initial_for(round_),
    )
    return _save_round(request, form, sheet, round_)


def _save_round(request, form, sheet, round_):
    player_errors = defaultdict(list)
    if request.method == "POST" and form.is_valid():
        version = form.cleaned_data["version"]
        try:
            if round_ is None:
                saved = services.record_round(
                    game=sheet.game,
                    starting_double=form.cleaned_data["starting_double"],
                    entries=form.entries(),
                    expected_version=version,
                )
            else:
                saved = services.correct_round(round=round_, entries=form.entries(), expected_version=version)
        except services.InvalidInput as invalid:
            for error in invalid.round_errors:
                if error.player is None:
                    form.add_error(None, error.message)
                else:
                    player_errors[error.player].append(error.message)
        except services.Conflict as conflict:
            form.add_error(None, _conflict_message(conflict))
        else:
            verb = "Recorded" if round_ is None else "Corrected"
            messages.success(request, f"{verb} round {saved.number}.")
            return redirect("game", pk=sheet.game.pk)
    rows = [row | {"errors": player_errors.get(row["seat"].player_id, [])} for row in form.rows()]
    return render(
        request,
        "scorekeeper/round_form.html",
        {"sheet": sheet, "form": form, "rows": rows, "round": round_},
    )


def _conflict_message(conflict: services.Conflict) -> str:
    if conflict.code == "stale":
        return "Someone else changed this game while you were entering this round. Nothing was saved: reload the game to see their change."
    return str(conflict)


@login_required
@require_POST
def undo_round(request, pk):
    game = get_object_or_404(Game.objects.for_user(request.user), pk=pk)
    try:
        services.undo_last_round(
            game=game, number=_int(request.POST.get("number")), expected_version=_int(request.POST.get("version"))
        )
    except services.Conflict as conflict:
        messages.error(request, _conflict_message(conflict))
    else:
        messages.success(request, "Undid the last round.")
    return redirect("game", pk=pk)


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@login_required
@require_POST
def rename_game(request, pk):
    game = get_object_or_404(Game.objects.for_user(request.user), pk=pk)
    form = RenameGameForm(request.POST)
    if form.is_valid():
        services.rename_game(game=game, name=form.cleaned_data["name"])
    return redirect("game", pk=pk)


@login_required
@require_POST
def rematch(request, pk):
    """A new game with the same players, seats and rules."""
    old = get_object_or_404(_games(request.user), pk=pk)
    new = services.create_game(
        owner=request.user,
        players=[seat.player_id for seat in old.seats.all()],
        rules=old.rules,
        name=old.name,
    )
    messages.success(request, "New game with the same table and rules.")
    return redirect("game", pk=new.pk)


@login_required
@require_POST
def delete_game(request, pk):
    game = get_object_or_404(Game.objects.for_user(request.user), pk=pk)
    services.delete_game(game=game)
    messages.success(request, f"Deleted {game}.")
    return redirect("home")


@login_required
def history(request):
    games = _games(request.user).finished().order_by("-finished_at")
    page = Paginator(games, 20).get_page(request.GET.get("page"))
    return render(request, "scorekeeper/history.html", {"page": page})


@login_required
def players(request):
    listed = Player.objects.for_user(request.user).annotate(game_count=Count("seats"))
    return render(
        request,
        "scorekeeper/players.html",
        {"players": listed, "player_form": PlayerForm(owner=request.user, prefix="player")},
    )


@login_required
def player(request, pk):
    """A player's figures, head-to-head records and chart, recent games, and rename."""
    person = get_object_or_404(Player.objects.for_user(request.user), pk=pk)
    form = PlayerForm(request.POST or None, instance=person, owner=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, f"Renamed to {person.name}.")
        return redirect("player", pk=pk)
    filters = StatsFilterForm(request.GET)
    options = filters.options()
    context = {
        "player": person,
        "form": form,
        "filters": filters,
        "figures": stats.player_figures(person, **options),
        "by_double": stats.by_starting_double(person, **options),
        "head_to_head": stats.head_to_head(person, **options),
        "chart": charts.game_totals(person.name, stats.game_totals(person)),
        "games": _games(request.user).filter(seats__player=person).order_by("-created_at")[:10],
        "has_games": person.seats.exists(),
    }
    return render(request, "scorekeeper/player.html", context)


@login_required
def leaderboard(request):
    filters = StatsFilterForm(request.GET)
    sort = filters.cleaned_data.get("sort") if filters.is_valid() else None
    rows = stats.leaderboard(request.user, sort=sort, **filters.options())
    context = {"rows": rows, "filters": filters, "sort": sort or "", "columns": LEADERBOARD_COLUMNS}
    return render(request, "scorekeeper/leaderboard.html", context)


LEADERBOARD_COLUMNS = [
    ("name", "Player"),
    ("games", "Games"),
    ("wins", "Wins"),
    ("win_rate", "Win %"),
    ("average_total", "Avg total"),
    ("went_out", "Went out"),
    ("double_blank_penalties", "0-0 caught"),
    ("end_on_double_penalties", "Out on double"),
]


@login_required
@require_POST
def delete_player(request, pk):
    person = get_object_or_404(Player.objects.for_user(request.user), pk=pk)
    try:
        services.delete_player(player=person)
    except services.Conflict as conflict:
        messages.error(request, str(conflict))
        return redirect("player", pk=pk)
    messages.success(request, f"Deleted {person.name}.")
    return redirect("players")


def rules(request):
    return render(request, "scorekeeper/rules.html")
