"""The pages. Each view parses input, calls a service, renders; the rules live elsewhere."""

import hashlib
import io
import json
from collections import defaultdict

import segno
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Count, F, Prefetch
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from . import charts, live, offline, scorebooks, services, stats, transfer
from . import history as changes
from .api.idempotency import idempotent_page, wants_json
from .converters import parse_id
from .forms import (
    PRESETS,
    InviteForm,
    NewGameForm,
    PlayerForm,
    RenameGameForm,
    RoundForm,
    ScorebookForm,
    StatsFilterForm,
)
from .models import (
    SCORING_ROLES,
    TRASH_DAYS,
    Entry,
    Game,
    Invite,
    LiveLink,
    Membership,
    Player,
    Role,
    Round,
    Scorebook,
    Seat,
    member_of,
)
from .rules.deal import suggested_deal
from .rules.game import DEFAULT_PENALTY, MAX_PLAYERS, MIN_PLAYERS, GameRules
from .rules.scoring import RoundResult, derive
from .rules.tiles import DEFAULT_SET, SUPPORTED_SETS, hand_range, set_pips, tile_count
from .sheet import build_sheet


def _games(user):
    """Games of every scorebook the user belongs to, each with the user's `role` in it."""
    return Game.objects.with_role(user).prefetch_related(
        Prefetch("seats", Seat.objects.select_related("player").order_by("position"))
    )


def _sheet(user, pk, *, write=False):
    """A game's sheet for a member (404 for anyone else); `write`: 403 for a viewer."""
    game = get_object_or_404(_games(user), pk=pk)
    if write:
        services.require_scorer(game.role)
    rounds = list(
        game.rounds.order_by("number")
        .select_related("recorded_by", "corrected_by")
        .prefetch_related(Prefetch("entries", Entry.objects.order_by("position")))
    )
    return build_sheet(game, list(game.seats.all()), rounds)


def _game_to_write(user, pk) -> Game:
    game = get_object_or_404(Game.objects.with_role(user), pk=pk)
    services.require_scorer(game.role)
    return game


def _writable_current(user) -> Scorebook:
    """The scorebook the pages work in, when the user may write there (403 for a viewer)."""
    book = scorebooks.current(user)
    services.require_scorer(book.role)
    return book


# The front door's sample sheet: four rounds of a double-12 game, scored by the rules module.
SAMPLE_SEATS = [(1, "Ana"), (2, "Bea"), (3, "Carlos")]
SAMPLE_ROUNDS = [
    RoundResult(0, {1: 0, 2: 37, 3: 19}),
    RoundResult(1, {1: 62, 2: 0, 3: 8}),
    RoundResult(2, {1: 14, 2: 21, 3: 0}),
    RoundResult(4, {1: 0, 2: 9, 3: 55}),
]


def home(request):
    if not request.user.is_authenticated:
        rules = GameRules()
        state = derive(rules, SAMPLE_SEATS, SAMPLE_ROUNDS)
        return render(request, "scorekeeper/landing.html", {"sample": state, "rules": rules})
    book = scorebooks.current(request.user)
    games = _games(request.user).filter(scorebook=book)
    return render(
        request,
        "scorekeeper/home.html",
        {
            "in_progress": games.in_progress()[:20],
            "finished": games.finished().order_by("-finished_at")[:5],
            "scorebook": book,
        },
    )


@login_required
def new_game(request):
    """Players in the order they are tapped, the rules, a name (the day's by default).
    `?same=1` starts from the last game's table and rules."""
    book = _writable_current(request.user)
    last = Game.objects.alive().filter(scorebook=book).prefetch_related("seats").first()
    initial = {}
    if last is not None and request.GET.get("same"):
        seats = sorted(last.seats.all(), key=lambda seat: seat.position)
        initial = last.rules.as_dict() | {
            "players": [str(seat.player_id) for seat in seats],
            "seat_order": ",".join(str(seat.player_id) for seat in seats),
        }
    form = NewGameForm(request.POST or None, scorebook=book, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(
                by=request.user,
                scorebook=book,
                players=form.seated_player_ids(),
                rules=form.game_rules(),
                name=form.cleaned_data["name"] or date_format(timezone.localdate(), "l j M"),
            )
        except services.InvalidInput as invalid:
            for field, problems in invalid.errors.items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
        else:
            return redirect("game", pk=game.pk)
    presets = {key: rules.as_dict() for key, (_, rules) in PRESETS.items()}
    return render(
        request,
        "scorekeeper/new_game.html",
        {
            "form": form,
            "player_form": PlayerForm(scorebook=book, prefix="player"),
            "presets": presets,
            "last_game": last,
            "scorebook": book,
        },
    )


@login_required
@require_POST
def add_player(request):
    """From the players page, or inline from the new-game page (htmx swaps in a checkbox)."""
    book = _writable_current(request.user)
    form = PlayerForm(request.POST, scorebook=book, prefix="player")
    if form.is_valid():
        player = form.save()
        if request.htmx:
            context = {
                "player": player,
                "checked": True,
                "player_form": PlayerForm(scorebook=book, prefix="player"),
            }
            return render(request, "scorekeeper/partials/player_added.html", context)
        messages.success(request, _("Added {name}.").format(name=player.name))
    elif request.htmx:
        return render(request, "scorekeeper/partials/player_form.html", {"player_form": form}, status=200)
    else:
        for problem in form.errors.get("name", []):
            messages.error(request, problem)
    return redirect(_safe_next(request) or "players")


def _safe_next(request) -> str | None:
    """The `next` the form sent, when it stays on this site (never an open redirect)."""
    target = request.POST.get("next")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return None


@login_required
def game(request, pk):
    sheet = _sheet(request.user, pk)
    link = LiveLink.objects.filter(game=sheet.game).first()
    corrections = changes.last_corrections(changes.of_game(sheet.game))
    context = {
        "sheet": sheet,
        "corrections": [corrections[number] for number in sorted(corrections)],
        "chart": charts.running_totals(sheet),
        "live_link": link,
        "live_url": request.build_absolute_uri(reverse("live", kwargs={"token": link.token})) if link else "",
    }
    return render(request, "scorekeeper/game.html", context)


@login_required
@idempotent_page
def record_round(request, pk):
    sheet = _sheet(request.user, pk, write=True)
    if (clash := _stale_post(request, sheet)) is not None:
        return _show_clash(request, pk, clash)
    if sheet.game.is_finished:
        if wants_json(request):
            return JsonResponse({"errors": [_("This game was already over: the round was not saved.")]}, status=409)
        messages.info(request, _("This game is over."))
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
    sheet = _sheet(request.user, pk, write=True)
    round_ = next((row.round for row in sheet.rows if row.round and row.round.number == number), None)
    if round_ is None:
        raise Http404(_("No such round in this game."))
    form = RoundForm(
        request.POST or None,
        seats=sheet.seats,
        doubles=[round_.starting_double],
        initial={"starting_double": round_.starting_double, "version": sheet.game.version}
        | RoundForm.initial_for(round_),
    )
    return _save_round(request, form, sheet, round_)


def _save_round(request, form, sheet, round_):
    """Check the round; ask once about anything surprising; save; or show every problem."""
    player_errors = defaultdict(list)
    surprises, surprise_key = [], ""
    if request.method == "POST" and form.is_valid():
        data, entries = form.cleaned_data, form.entries()
        starting_double = data["starting_double"] if round_ is None else round_.starting_double
        try:
            preview = services.preview_round(
                game=sheet.game, starting_double=starting_double, entries=entries, round=round_
            )
            surprise_key = hashlib.sha256("\n".join(preview.surprises).encode()).hexdigest()[:16]
            if preview.surprises and request.POST.get("confirmed") != surprise_key:
                surprises = preview.surprises  # shown once; saving the same values again confirms them
            elif round_ is None:
                saved = services.record_round(
                    game=sheet.game,
                    starting_double=starting_double,
                    entries=entries,
                    expected_version=data["version"],
                    by=request.user,
                )
            else:
                saved = services.correct_round(
                    round=round_, entries=entries, expected_version=data["version"], by=request.user
                )
        except services.InvalidInput as invalid:
            for error in invalid.round_errors:
                if error.player is None:
                    form.add_error(None, error.message)
                else:
                    player_errors[error.player].append(error.message)
        except services.Conflict as conflict:
            clash = _saved_meanwhile(sheet.game, round_, starting_double) if conflict.code in CLASHES else None
            if clash is None:
                form.add_error(None, _conflict_message(conflict))
            else:  # the same round, saved from another phone: show theirs beside this entry
                return _show_clash(request, sheet.game.pk, clash)
        else:
            if not surprises:
                done = _("Recorded round {number}.") if round_ is None else _("Corrected round {number}.")
                messages.success(request, done.format(number=saved.number))  # on the next page shown
                if wants_json(request):
                    return JsonResponse({"number": saved.number, "starting_double": saved.starting_double}, status=201)
                return redirect("game", pk=sheet.game.pk)
    rows, errors = _round_rows(form, player_errors)
    if request.method == "POST" and wants_json(request):
        if surprises:  # sent again with "confirmed" set to this key, the same round is saved
            return JsonResponse({"errors": surprises, "confirm": surprise_key}, status=400)
        return JsonResponse({"errors": [error["message"] for error in errors]}, status=400)
    context = {"sheet": sheet, "form": form, "rows": rows, "round": round_, "errors": errors}
    return render(
        request, "scorekeeper/round_form.html", context | {"surprises": surprises, "surprise_key": surprise_key}
    )


# Conflicts that mean someone else saved first; the page then shows what they saved.
CLASHES = {"stale", "starting_double_unavailable", "round_exists"}


def _saved_meanwhile(game, round_, starting_double) -> Round | None:
    """The round another member saved while this one was being entered: the round being corrected,
    or the last round recorded with the double this form chose."""
    rounds = Round.objects.filter(game=game).select_related("recorded_by", "corrected_by")
    if round_ is not None:
        found = rounds.filter(pk=round_.pk).first()
    else:
        found = rounds.filter(starting_double=starting_double).order_by("-number").first()
    if found is not None:
        found.by_player = {e.player_id: e for e in found.entries.all()}
    return found


def _show_clash(request, game_pk, clash):
    """Theirs is kept; this phone's entry stays in the form beside it, ready to replace theirs."""
    if wants_json(request):
        who = clash.corrected_by or clash.recorded_by
        double = f"{clash.starting_double}-{clash.starting_double}"
        message = (
            _("{name}'s phone saved round {number} ({double}) first: this one was not saved.").format(
                name=who.short_name, number=clash.number, double=double
            )
            if who
            else _("Another phone saved round {number} ({double}) first: this one was not saved.").format(
                number=clash.number, double=double
            )
        )
        return JsonResponse({"errors": [message], "clash": clash.number}, status=409)
    fresh = _sheet(request.user, game_pk, write=True)
    data = request.POST.copy()
    data["version"] = str(fresh.game.version)
    data["starting_double"] = str(clash.starting_double)
    form = RoundForm(data, seats=fresh.seats, doubles=[clash.starting_double])
    form.is_valid()
    rows, _problems = _round_rows(form, {})
    for row in rows:
        row["theirs"] = clash.by_player.get(row["seat"].player_id)
    who = clash.corrected_by or clash.recorded_by
    context = {"sheet": fresh, "form": form, "rows": rows, "round": None, "errors": [], "clash": clash,
               "clash_by": who, "surprises": []}  # fmt: skip
    return render(request, "scorekeeper/round_form.html", context)  # 200: htmx swaps only 2xx pages in


def _stale_post(request, sheet) -> Round | None:
    """A round form sent from a page older than the game: the round saved meanwhile with its
    double, if there is one (its double may no longer be a choice, so this comes before the form)."""
    version, double = parse_id(request.POST.get("version", "")), parse_id(request.POST.get("starting_double", ""))
    if request.method != "POST" or double is None or version == sheet.game.version:
        return None
    if version is None and double in sheet.choosable_doubles:  # a round queued on a phone, still in time
        return None
    return _saved_meanwhile(sheet.game, None, double)


def _round_rows(form, player_errors) -> tuple[list[dict], list[dict]]:
    """The form's rows with each player's problems, and the summary of every problem (each linked
    to the field to fix). The first field to fix, or the first pips box, takes the focus."""
    summary = [{"message": message, "target": None} for message in form.non_field_errors()]
    summary += [{"message": m, "target": "id_starting_double"} for m in form["starting_double"].errors]
    rows, focus = [], None
    for row in form.rows():
        name = row["seat"].player.name
        problems = list(player_errors.get(row["seat"].player_id, []))
        for key in ("pips", "tiles_left", "tiles"):
            problems += [f"{name}: {message}" for message in row[key].errors]
        if problems and focus is None:
            focus = row["pips"]
        summary += [{"message": problem, "target": row["pips"].id_for_label} for problem in problems]
        extras = any(row[key].value() not in (None, "") or row[key].errors for key in ("tiles_left", "tiles"))
        rows.append(row | {"problems": problems, "extras_open": extras})
    if focus is None and not summary and rows and not form.is_bound:
        focus = rows[0]["pips"]
    if focus is not None:
        focus.field.widget.attrs["autofocus"] = True
    return rows, summary


def _conflict_message(conflict: services.Conflict) -> str:
    if conflict.code == "stale":
        return _(
            "Someone else changed this game while you were entering this round. Nothing was saved: reload the game to see their change."
        )
    return str(conflict)


@login_required
@require_POST
def undo_round(request, pk):
    game = _game_to_write(request.user, pk)
    number, version = parse_id(request.POST.get("number", "")), request.POST.get("version")
    expected = None if version is None else parse_id(version)
    if number is None or (version is not None and expected is None):
        messages.error(request, _("Nothing was undone: reload the game and tap Undo again."))
        return redirect("game", pk=pk)
    try:
        services.undo_last_round(game=game, number=number, expected_version=expected, by=request.user)
    except services.Conflict as conflict:
        messages.error(request, _conflict_message(conflict))
    else:
        messages.success(
            request,
            _("Undid round {number}. Bring it back with the button below until the next round is saved.").format(
                number=number
            ),
        )
    return redirect("game", pk=pk)


@login_required
@require_POST
def restore_round(request, pk):
    game = _game_to_write(request.user, pk)
    version = request.POST.get("version")
    try:
        restored = services.restore_round(
            game=game, expected_version=None if version is None else parse_id(version), by=request.user
        )
    except services.Conflict as conflict:
        messages.error(request, _conflict_message(conflict))
    else:
        messages.success(request, _("Round {number} is back.").format(number=restored.number))
    return redirect("game", pk=pk)


@login_required
@require_POST
def rename_game(request, pk):
    game = _game_to_write(request.user, pk)
    form = RenameGameForm(request.POST)
    if form.is_valid():
        services.rename_game(game=game, name=form.cleaned_data["name"], by=request.user)
    return redirect("game", pk=pk)


@login_required
@require_POST
def rematch(request, pk):
    """A new game with the same players, seats and rules."""
    old = _game_to_write(request.user, pk)
    new = services.create_game(
        by=request.user,
        scorebook=old.scorebook,
        players=[seat.player_id for seat in old.seats.all()],
        rules=old.rules,
        name=old.name,
    )
    messages.success(request, _("New game with the same table and rules."))
    return redirect("game", pk=new.pk)


@login_required
@require_POST
def delete_game(request, pk):
    game = _game_to_write(request.user, pk)
    services.delete_game(game=game, by=request.user)
    messages.success(
        request,
        _("Moved {game} to the trash: an owner can bring it back within {days} days.").format(
            game=game, days=TRASH_DAYS
        ),
    )
    return redirect("home")


@login_required
def history(request):
    games = _games(request.user).filter(scorebook=scorebooks.current(request.user)).finished().order_by("-finished_at")
    page = Paginator(games, 20).get_page(request.GET.get("page"))
    return render(request, "scorekeeper/history.html", {"page": page})


@login_required
def players(request):
    book = scorebooks.current(request.user)
    listed = Player.objects.filter(scorebook=book).annotate(game_count=Count("seats")).select_related("user")
    return render(
        request,
        "scorekeeper/players.html",
        {
            "players": listed,
            "player_form": PlayerForm(scorebook=book, prefix="player"),
            "scorebook": book,
            "can_score": book.role in SCORING_ROLES,
        },
    )


@login_required
def player(request, pk):
    """A player's figures, head-to-head records and chart, recent games, and rename."""
    person = get_object_or_404(Player.objects.with_role(request.user).select_related("scorebook", "user"), pk=pk)
    if request.method == "POST":
        services.require_scorer(person.role)
    form = PlayerForm(request.POST or None, instance=person, scorebook=person.scorebook)
    if request.method == "POST" and form.is_valid():
        form.instance._history_user, form.instance._change_reason = request.user, "player_renamed"
        form.save()
        messages.success(request, _("Renamed to {name}.").format(name=person.name))
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
        "rating_chart": charts.ratings(person.name, stats.rating_steps(person)),
        "games": _games(request.user).filter(seats__player=person).order_by("-created_at")[:10],
        "has_games": person.seats.exists(),
        "can_score": person.role in SCORING_ROLES,
    }
    return render(request, "scorekeeper/player.html", context)


@login_required
def leaderboard(request):
    filters = StatsFilterForm(request.GET)
    sort = filters.cleaned_data.get("sort") if filters.is_valid() else None
    book = scorebooks.current(request.user)
    rows = stats.leaderboard(Player.objects.filter(scorebook=book), sort=sort, **filters.options())
    context = {"rows": rows, "filters": filters, "sort": sort or "", "columns": LEADERBOARD_COLUMNS, "scorebook": book}
    return render(request, "scorekeeper/leaderboard.html", context)


LEADERBOARD_COLUMNS = [
    ("name", gettext_lazy("Player")),
    ("games", gettext_lazy("Games")),
    ("wins", gettext_lazy("Wins")),
    ("win_rate", gettext_lazy("Win %")),
    ("rating", gettext_lazy("Rating")),
    ("average_total", gettext_lazy("Avg total")),
    ("went_out", gettext_lazy("Went out")),
    ("double_blank_penalties", gettext_lazy("0-0 caught")),
    ("end_on_double_penalties", gettext_lazy("Out on double")),
]


@login_required
@require_POST
def delete_player(request, pk):
    person = get_object_or_404(Player.objects.with_role(request.user), pk=pk)
    services.require_scorer(person.role)
    try:
        services.delete_player(player=person)
    except services.Conflict as conflict:
        messages.error(request, str(conflict))
        return redirect("player", pk=pk)
    messages.success(request, _("Deleted {name}.").format(name=person.name))
    return redirect("players")


def blank_sheet(request):
    """A sheet to print before a game night: a row per starting double of one pass, a column per player."""
    tile_set = parse_id(request.GET.get("set", "")) or DEFAULT_SET
    players = parse_id(request.GET.get("players", "")) or 4
    if tile_set not in SUPPORTED_SETS:
        tile_set = DEFAULT_SET
    players = min(max(players, MIN_PLAYERS), MAX_PLAYERS)
    rules = GameRules(tile_set=tile_set)
    context = {
        "tile_set": tile_set,
        "players": range(1, players + 1),
        "player_count": players,
        "doubles": [rules.double_at(position) for position in range(len(rules.one_pass))],
        "sets": SUPPORTED_SETS,
        "counts": range(MIN_PLAYERS, MAX_PLAYERS + 1),
        "deal": suggested_deal(tile_set, players),
        "penalty": DEFAULT_PENALTY,
    }
    return render(request, "scorekeeper/blank_sheet.html", context)


def rules(request):
    """The rules page: every number on it comes from the rules module."""
    top = DEFAULT_SET
    context = {
        "sets": [
            {"highest": n, "tiles": tile_count(n), "pips": set_pips(n), "rounds": len(GameRules(tile_set=n).one_pass)}
            for n in SUPPORTED_SETS
        ],
        "default_set": top,
        "default_penalty": DEFAULT_PENALTY,
        "extended_rounds": len(GameRules(tile_set=top, extended=True).one_pass),
        "one_tile": hand_range(top, top, 1, False).high,
        "two_tiles": hand_range(top, top, 2, False).high,
        "deals": [(players, suggested_deal(top, players)) for players in (2, 4, 6, 8)],
        "min_players": MIN_PLAYERS,
        "max_players": MAX_PLAYERS,
    }
    return render(request, "scorekeeper/rules.html", context)


# Scorebooks: the pages work in the one chosen last (scorebooks.current); members and invites.


def _scorebook(user, pk) -> Scorebook:
    return get_object_or_404(Scorebook.objects.for_user(user), pk=pk)


@login_required
def scorebook_list(request):
    """Your scorebooks (switch with one tap) and a new one."""
    Scorebook.personal_for(request.user)
    form = ScorebookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        book = scorebooks.create(by=request.user, name=form.cleaned_data["name"])
        messages.success(
            request, _("Created {name}: invite the people who keep score with you.").format(name=book.name)
        )
        return redirect("scorebook", pk=book.pk)
    books = Scorebook.objects.for_user(request.user).annotate(member_count=Count("memberships", distinct=True))
    context = {"books": books.order_by(F("personal_of").desc(nulls_last=True), "name", "id"), "form": form,
               "current": scorebooks.current(request.user)}  # fmt: skip
    return render(request, "scorekeeper/scorebooks.html", context)


@login_required
def scorebook(request, pk):
    """Members and roles, invites (owners), rename, leave, delete."""
    book = _scorebook(request.user, pk)
    if request.method == "POST":
        form = ScorebookForm(request.POST)
        if form.is_valid():
            scorebooks.rename(book=book, role=book.role, name=form.cleaned_data["name"])
            messages.success(request, _("Renamed to {name}.").format(name=book.name))
            return redirect("scorebook", pk=pk)
    else:
        form = ScorebookForm(initial={"name": book.name})
    invite = None
    code = request.GET.get("invite")
    if code and book.role == "owner":
        invite = book.invites.filter(code=code, accepted_by__isnull=True, expires_at__gt=timezone.now()).first()
    context = {
        "book": book,
        "form": form,
        "members": book.memberships.select_related("user").order_by("joined_at", "id"),
        "invite_form": InviteForm(),
        "invite": invite,
        "invite_url": request.build_absolute_uri(reverse("invite", kwargs={"code": invite.code})) if invite else "",
        "is_owner": book.role == "owner",
        "roles": Role.choices,
    }
    return render(request, "scorekeeper/scorebook.html", context)


@login_required
@require_POST
def switch_scorebook(request, pk):
    book = _scorebook(request.user, pk)
    scorebooks.switch(request.user, book)
    messages.success(request, _("Now keeping score in {name}.").format(name=book.name))
    return redirect(_safe_next(request) or "home")


@login_required
@require_POST
def create_invite(request, pk):
    book = _scorebook(request.user, pk)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose scorer or viewer for the invite."))
        return redirect("scorebook", pk=pk)
    invite = scorebooks.invite(book=book, role=book.role, by=request.user, invite_role=form.cleaned_data["role"])
    return redirect(f"{reverse('scorebook', kwargs={'pk': pk})}?invite={invite.code}#invite")


@login_required
def invite_qr(request, code):
    """The invite link as an SVG QR code (segno), for the owner who made it to show at the table."""
    invite = get_object_or_404(
        Invite.objects.filter(
            scorebook__in=Membership.objects.filter(user=request.user, role="owner").values("scorebook")
        ),
        code=code,
    )
    return _qr_svg(request.build_absolute_uri(reverse("invite", kwargs={"code": invite.code})), _("Invite QR code"))


@login_required
def invite(request, code):
    """Join a scorebook from an invite link: say what it is, then one tap. Signing up on the way
    comes back here (allauth keeps `next`)."""
    found = Invite.objects.usable_by(request.user).filter(code=code).select_related("scorebook", "created_by").first()
    if found is None:
        raise Http404(_("This invite does not exist, has expired or was used by someone else."))
    if request.method == "POST":
        book = scorebooks.accept(code=code, user=request.user)
        scorebooks.switch(request.user, book)
        messages.success(request, _("You joined {name}.").format(name=book.name))
        return redirect("home")
    member = found.scorebook.memberships.filter(user=request.user).first()
    return render(request, "scorekeeper/invite.html", {"invite": found, "member": member})


@login_required
@require_POST
def remove_member(request, pk, user_pk):
    book = _scorebook(request.user, pk)
    try:
        scorebooks.remove_member(book=book, role=book.role, by=request.user, user_id=user_pk)
    except services.Conflict as conflict:
        messages.error(request, str(conflict))
        return redirect("scorebook", pk=pk)
    if user_pk == request.user.pk:
        messages.success(request, _("You left {name}.").format(name=book.name))
        return redirect("scorebooks")
    messages.success(request, _("Removed from the scorebook."))
    return redirect("scorebook", pk=pk)


@login_required
@require_POST
def member_role(request, pk, user_pk):
    book = _scorebook(request.user, pk)
    try:
        scorebooks.set_role(book=book, role=book.role, user_id=user_pk, new_role=request.POST.get("role", ""))
    except (services.Conflict, services.InvalidInput) as problem:
        messages.error(request, str(problem))
    else:
        messages.success(request, _("Role changed."))
    return redirect("scorebook", pk=pk)


@login_required
@require_POST
def delete_scorebook(request, pk):
    book = _scorebook(request.user, pk)
    try:
        scorebooks.delete(book=book, role=book.role)
    except services.Conflict as conflict:
        messages.error(request, str(conflict))
        return redirect("scorebook", pk=pk)
    messages.success(request, _("Deleted {name}.").format(name=book.name))
    return redirect("scorebooks")


@login_required
@require_POST
def link_player(request, pk):
    """ "This is me" (or "not me"): the player's figures count in My stats."""
    person = get_object_or_404(Player.objects.with_role(request.user), pk=pk)
    me = request.POST.get("me") == "1"
    try:
        services.link_player(player=person, user=request.user, role=person.role, me=me)
    except services.Conflict as conflict:
        messages.error(request, str(conflict))
    else:
        messages.success(
            request, (_("{name} is you.") if me else _("{name} is no longer linked to you.")).format(name=person.name)
        )
    return redirect("player", pk=pk)


@login_required
def my_stats(request):
    """The figures of every player linked to you, across every scorebook you belong to."""
    rows = list(stats.my_players(request.user))
    return render(request, "scorekeeper/my_stats.html", {"rows": rows, "total": stats.summed(rows)})


# The live view: a game's read-only link (scorekeeper.live), for everyone at the table.


@login_required
@require_POST
def share_game(request, pk):
    """Make the live link, or replace it (the old one stops working at once)."""
    live.share(game=_game_to_write(request.user, pk), by=request.user)
    messages.success(request, _("Live link ready: show the QR code to the table."))
    return redirect(reverse("game", kwargs={"pk": pk}) + "#live-share")


@login_required
@require_POST
def revoke_share(request, pk):
    live.revoke(game=_game_to_write(request.user, pk))
    messages.success(request, _("The live link is stopped."))
    return redirect("game", pk=pk)


def _throttled(request, token) -> HttpResponse | None:
    if wait := live.retry_after(request, token):
        response = HttpResponse(_("Too many requests: try again in {seconds} seconds.").format(seconds=wait), status=429,
                                content_type="text/plain; charset=utf-8")  # fmt: skip
        response["Retry-After"] = str(wait)
        return response
    return None


def _live(request, token, template):
    """The live page or its swappable body: no account; 304 when the game has not changed."""
    if (refused := _throttled(request, token)) is not None:
        return refused
    link = live.find(token)
    if link is None:
        return render(request, "scorekeeper/live_gone.html", status=404)
    etag = link.etag(link.game.version)
    if template == LIVE_BODY and etag in request.headers.get("If-None-Match", ""):
        response = HttpResponse(status=304)
    elif template == LIVE_BODY:
        # Every viewer of a version is sent the same body: rendered once, kept in the shared cache.
        key = f"live-body:{etag}"
        if (html := cache.get(key)) is None:
            html = render_to_string(template, _live_context(link, token, etag))  # nothing per viewer in it
            cache.set(key, html, timeout=600)
        response = HttpResponse(html)
    else:
        response = render(request, template, _live_context(link, token, etag))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


LIVE_BODY = "scorekeeper/partials/live_body.html"


def _live_context(link, token, etag) -> dict:
    sheet = live.sheet_of(link)
    return {"sheet": sheet, "chart": charts.running_totals(sheet), "token": token, "etag": etag}


def live_page(request, token):
    return _live(request, token, "scorekeeper/live.html")


def live_sheet(request, token):
    return _live(request, token, LIVE_BODY)


def live_qr(request, token):
    """The live link as an SVG QR code: whoever scans it at the table opens the live page."""
    if live.find(token) is None:
        raise Http404(_("This live link does not exist or was revoked."))
    return _qr_svg(request.build_absolute_uri(reverse("live", kwargs={"token": token})), _("Live link QR code"))


def _qr_svg(url: str, title: str) -> HttpResponse:
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=6, border=2, xmldecl=False, svgns=True, title=title)
    response = HttpResponse(buffer.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-store"
    return response


# Games out and back in (scorekeeper.transfer).


@login_required
def export(request):
    """Download games as CSV or JSON: one game (?game=), one scorebook (?scorebook=) or everything."""
    games = Game.objects.for_user(request.user).order_by("created_at", "id")
    name = "chicken-foot-games"
    if (game := parse_id(request.GET.get("game", ""))) is not None:
        games, name = games.filter(pk=game), f"game-{game}"
    if (book := parse_id(request.GET.get("scorebook", ""))) is not None:
        games, name = games.filter(scorebook=_scorebook(request.user, book)), f"scorebook-{book}"
    if ("game" in request.GET and game is None) or (game is not None and not games.exists()):
        raise Http404(_("No such game in your scorebooks."))
    games = transfer.games_with_everything(games)
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
    book = _scorebook(request.user, pk)
    services.require_scorer(book.role)
    upload = request.FILES.get("file")
    try:
        if upload is None:
            raise transfer.BadFile({"file": [_("Choose an export file (.json) to import.")]})
        try:
            data = json.loads(upload.read(MAX_IMPORT_BYTES + 1)[:MAX_IMPORT_BYTES].decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            raise transfer.BadFile({"file": [_("This file is not JSON: choose an export made by this app.")]}) from None
        result = transfer.import_games(data=data, scorebook=book, by=request.user)
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


MAX_IMPORT_BYTES = 20 * 1024 * 1024


@login_required
def game_history(request, pk):
    """Every change to a game: who, when, what it was and became."""
    game = get_object_or_404(Game.objects.for_user(request.user), pk=pk)
    return render(request, "scorekeeper/game_history.html", {"game": game, "changes": changes.of_game(game)})


@login_required
def trash(request, pk):
    """A scorebook's deleted games, for its owners to bring back within TRASH_DAYS."""
    book = _scorebook(request.user, pk)
    scorebooks.require_owner(book.role, _("open its trash"))
    games = book.games.trashed().select_related("deleted_by").order_by("-deleted_at")
    return render(request, "scorekeeper/trash.html", {"book": book, "games": games, "days": TRASH_DAYS})


@login_required
@require_POST
def restore_game(request, pk):
    game = get_object_or_404(Game.objects.trashed().filter(scorebook__in=member_of(request.user)), pk=pk)
    scorebooks.require_owner(_scorebook(request.user, game.scorebook_id).role, _("bring games back"))
    services.restore_game(game=game, by=request.user)
    messages.success(request, _("{game} is back.").format(game=game))
    return redirect("game", pk=pk)


@login_required
def delete_account(request):
    """Your data and your account: download everything, or delete the account after saying plainly
    what happens to each scorebook."""
    memberships = list(Membership.objects.filter(user=request.user).select_related("scorebook"))
    plan = []
    for membership in memberships:
        others = list(Membership.objects.filter(scorebook=membership.scorebook).exclude(user=request.user)
                      .select_related("user"))  # fmt: skip
        if not others:
            fate = _("deleted, with its games and players (nobody else uses it)")
        elif membership.role == Role.OWNER and not any(m.role == Role.OWNER for m in others):
            fate = _("handed over: {email} becomes its owner").format(email=scorebooks.hand_over(others).user.email)
        else:
            fate = _("kept by its other members; you leave it")
        plan.append((membership.scorebook, fate))
    error = ""
    if request.method == "POST":
        if request.POST.get("confirm", "").strip().lower() != request.user.email.lower():
            error = _("Type your email address exactly to confirm.")
        else:
            scorebooks.delete_account(user=request.user)
            logout(request)
            messages.success(request, _("Your account is deleted."))
            response = redirect("home")
            response["Clear-Site-Data"] = offline.CLEAR_SITE_DATA  # as logging out does
            return response
    return render(request, "scorekeeper/delete_account.html", {"plan": plan, "error": error})
