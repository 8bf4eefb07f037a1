"""Pages of games: home, a new game, the sheet and what it redraws, renaming, rematch, the trash, history."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import clock, selectors, services
from ..caches import kept
from ..caches import pages as pagecache
from ..converters import parse_id
from ..forms import PRESETS, GameNightForm, NewGameForm, PlayerForm, RenameGameForm, form_values
from ..http.private import not_modified, unchanged
from ..models import TRASH_DAYS, Game, LiveLink, Night, member_of
from ..reads import charts, follow, story
from ..reads import history as changes
from ..rules.deal import suggested_deal
from ..rules.game import DEFAULT_PENALTY, MAX_PLAYERS, MIN_PLAYERS, GameRules
from ..rules.scoring import RoundResult
from ..rules.tiles import DEFAULT_SET, SUPPORTED_SETS, hand_range, set_pips, tile_count
from ..selectors import game_to_write, games_for, night_for, scorebook_for
from ..services import scorebooks
from .common import sheet_for, writable_current

# The front door's sample sheet: four rounds of a double-12 game, scored by the rules module.
SAMPLE_SEATS = [(1, "Ana"), (2, "Bea"), (3, "Carlos")]


SAMPLE_ROUNDS = [
    RoundResult(0, {1: 0, 2: 37, 3: 19}),
    RoundResult(1, {1: 62, 2: 0, 3: 8}),
    RoundResult(2, {1: 14, 2: 21, 3: 0}),
    RoundResult(3, {1: 0, 2: 9, 3: 55}),  # in order, 12-12 down to 9-9: no double skipped unseen
]


def home(request):
    if not request.user.is_authenticated:
        rules = GameRules()
        state = services.derive_state(rules, SAMPLE_SEATS, SAMPLE_ROUNDS)
        return render(request, "scorekeeper/landing.html", {"sample": state, "rules": rules})
    book = selectors.current_scorebook(request.user)
    context = {"scorebook": book, "follow": follow.of_home(book)} | _home_games(request.user, book)
    with clock.at_table(book.zone):
        return render(request, "scorekeeper/home.html", context)


def _home_games(user, book) -> dict:
    """The home page's games (read when the page is drawn, after the ETag: never older than it)."""
    games = games_for(user, role=True).filter(scorebook=book)
    return {"in_progress": games.in_progress()[:20], "finished": games.finished().order_by("-finished_at")[:5]}


@login_required
def new_game(request):
    """Players in the order they are tapped, the rules, a name (the day's by default).
    `?same=1` starts from the last game's table and rules; `?night=id` makes it a table of that club
    night (in the night's scorebook)."""
    night = _chosen_night(request)
    book = night.scorebook if night else writable_current(request.user)
    last = Game.objects.alive().filter(scorebook=book).prefetch_related("seats").first()
    initial = {}
    if last is not None and request.GET.get("same"):
        seats = sorted(last.seats.all(), key=lambda seat: seat.position)
        initial = form_values(last.rules) | {
            "players": [str(seat.player_id) for seat in seats],
            "seat_order": ",".join(str(seat.player_id) for seat in seats),
        }
    form = NewGameForm(request.POST or None, scorebook=book, night=night.pk if night else None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(
                by=request.user,
                scorebook=book,
                players=form.seated_player_ids(),
                rules=form.game_rules(),
                name=form.cleaned_data["name"],
                number=services.next_game_number(book),  # what it is called without a name
                casual=form.cleaned_data["casual"],
                night=night.pk if night else None,
            )
        except services.InvalidInput as invalid:
            for field, problems in invalid.errors.items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
        else:
            return redirect("game", pk=game.pk)
    presets = {key: form_values(rules) for key, (_, rules) in PRESETS.items()}
    return render(
        request,
        "scorekeeper/new_game.html",
        {
            "form": form,
            "player_form": PlayerForm(scorebook=book, prefix="player"),
            "presets": presets,
            "last_game": last,
            "scorebook": book,
            "night": night,
        },
    )


def _chosen_night(request):
    """The night a new game is started at (`night` in the address or the form), with its scorebook:
    404 for a night outside the user's scorebooks, 403 for a viewer's; None without one."""
    raw = request.POST.get("night") or request.GET.get("night")
    if not raw:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise Http404(_("No such night in your scorebooks."))
    night = night_for(request.user, int(raw))
    services.require_scorer(night.role)
    night.scorebook.role = night.role
    return night


def game(request, pk):
    """A member's score sheet. Who may read it is checked with one query (the user, the game's
    version and their role, as the sheet's poll does); the page itself is drawn once per version
    and kept (pagecache), since every phone at the table opens it again and again."""

    # Everything the page shows besides the game at its version: whose, their role, the language,
    # the time zone (the host its links name is the kept page's own: pagecache.shown_host); what a
    # client adds to the address is not.
    def vary():
        return (user.pk, user.email, user.game_role, get_language(), timezone.get_current_timezone_name(),
                request.path)  # fmt: skip

    fence = kept.fence(game=pk)  # before the database is asked (caches.kept)
    user = follow.reader(request, follow.of_game(pk))
    if user is None:
        return redirect_to_login(request.get_full_path())
    if user.game_version is None:
        raise Http404(_("No such game in your scorebooks."))
    return pagecache.page(
        request,
        fence=fence,
        version=user.game_version,
        vary=vary(),
        draw=lambda token: _game_page(request, user, pk, token),
    )


def _game_page(request, user, pk, csrf_token: str):
    sheet = sheet_for(user, pk)
    link = LiveLink.objects.filter(game=sheet.game).first()
    game = sheet.game
    nights = list(Night.objects.filter(scorebook_id=game.scorebook_id)) if game.can_score else []
    context = _sheet_parts(user, sheet) | {
        "night_form": GameNightForm(initial={"night": game.night_id}, nights=nights) if nights else None,
        "night": next((night for night in nights if night.pk == game.night_id), None),
        "live_link": link,
        "live_url": request.build_absolute_uri(reverse("live", kwargs={"token": link.token})) if link else "",
        "csrf_token": csrf_token,  # over the context processor's: the page may be kept (pagecache)
    }
    with clock.at_table(game.scorebook.zone):
        return render(request, "scorekeeper/game.html", context)


def _sheet_parts(user, sheet) -> dict:
    """What the sheet page shows of the game and redraws as it changes (game_sheet)."""
    history = changes.of_game(sheet.game)
    corrections = changes.last_corrections(history)
    moves = story.card_moves(sheet.game, sheet.state)
    return {
        "sheet": sheet,
        "rating_moves": moves or {},
        "moves_later": moves is None,  # the ratings are being updated
        "corrections": [corrections[number] for number in sorted(corrections)],
        "chart": charts.running_totals(sheet),
        "follow": follow.of_sheet(sheet, user, history),
    }


def game_sheet(request, pk):
    """The sheet's changing parts and the game as the page scripts read it, for a member's sheet
    or round form (404 for anyone else)."""
    fence = kept.fence(session=request.session.session_key, game=pk)
    user = follow.reader(request, follow.of_game(pk), fence=fence)
    if user is None:
        return redirect_to_login(request.get_full_path())
    if user.game_version is None:
        raise Http404(_("No such game in your scorebooks."))
    etag = follow.sheet_etag(pk, user.game_version, user.pk, user.game_role)
    kept.remember_member(fence, user.pk, user.game_version, role=user.game_role, language=get_language())
    if unchanged(request, etag):
        return not_modified(etag)
    context = _sheet_parts(user, sheet_for(user, pk))
    with clock.at_table(context["sheet"].game.scorebook.zone):
        response = render(request, "scorekeeper/partials/game_follow.html", context)
    response["ETag"] = context["follow"].etag  # of the game as it was read
    return response


def home_games(request):
    """The home page's games (the scorebook the pages work in), for the page to redraw them."""
    user = follow.reader(request, *follow.home_annotations())
    if user is None:
        return redirect_to_login(request.get_full_path())
    etag = follow.home_etag(user.home_book, follow.figures_of(user))
    if unchanged(request, etag):
        return not_modified(etag)
    book = selectors.current_scorebook(user)
    page = follow.of_home(book)
    with clock.at_table(book.zone):
        response = render(request, "scorekeeper/partials/home_games.html", _home_games(user, book))
    response["ETag"] = page.etag
    return response


@login_required
@require_POST
def rename_game(request, pk):
    game = game_to_write(request.user, pk)
    form = RenameGameForm(request.POST)
    if form.is_valid():
        services.rename_game(game=game, name=form.cleaned_data["name"], by=request.user)
    return redirect("game", pk=pk)


@login_required
@require_POST
def casual_game(request, pk):
    """Make the game friendly (counted nowhere) or count it again: a finished one takes back or gives again."""
    game = game_to_write(request.user, pk)
    casual = request.POST.get("casual")
    if casual not in ("0", "1"):
        messages.error(request, _("Nothing was changed: reload the game and try again."))
        return redirect("game", pk=pk)
    services.set_casual(game=game, casual=casual == "1", by=request.user)
    if casual == "1":
        messages.success(request, _("A friendly game now: it counts in no leaderboard, rating, record or season."))
    else:
        messages.success(request, _("This game counts again."))
    return redirect("game", pk=pk)


@login_required
@require_POST
def finish_game(request, pk):
    """ "We stop here": the table ends the game after the round the page showed last."""
    game = game_to_write(request.user, pk)
    expected = parse_id(request.POST.get("version", ""))
    if expected is None:
        messages.error(request, _("The game was not ended: reload the game and try again."))
        return redirect("game", pk=pk)
    try:
        services.finish_game(game=game, expected_version=expected, by=request.user)
    except services.Conflict as conflict:
        stale = _("Someone else changed this game meanwhile, so it was not ended: look at the sheet, then try again.")
        messages.error(request, stale if conflict.code == "stale" else str(conflict))
    else:
        messages.success(request, _("Game over, as agreed: the players at the table are ranked as the totals stand."))
    return redirect("game", pk=pk)


@login_required
@require_POST
def rematch(request, pk):
    """A new game with the same rules and the players ticked (all of them unless the form says),
    in the same seat order: whoever went to bed is left out."""
    old = game_to_write(request.user, pk)
    seated = [seat.player_id for seat in old.seats.order_by("position")]
    ticked = request.POST.getlist("players")
    chosen = [pk for pk in seated if str(pk) in ticked] if "chosen" in request.POST else seated
    try:
        new = services.create_game(
            by=request.user,
            scorebook=old.scorebook,
            players=chosen,
            rules=old.rules,
            number=services.next_game_number(old.scorebook),  # its own number: two games of a night are told apart
            casual=old.casual,  # a friendly game's rematch is friendly too
        )
    except services.InvalidInput as invalid:
        messages.error(request, _("No rematch was started: {problem}").format(problem=invalid))
        return redirect("game", pk=pk)
    if len(chosen) == len(seated):
        messages.success(request, _("New game with the same table and rules."))
    else:
        messages.success(request, _("New game with the same rules, for the players ticked."))
    return redirect("game", pk=new.pk)


@login_required
@require_POST
def delete_game(request, pk):
    game = game_to_write(request.user, pk)
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
    book = selectors.current_scorebook(request.user)
    games = games_for(request.user, role=True).filter(scorebook=book).finished().order_by("-finished_at")
    page = Paginator(games, 20).get_page(request.GET.get("page"))
    with clock.at_table(book.zone):
        return render(request, "scorekeeper/history.html", {"page": page, "scorebook": book})


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
        "doubles": rules.one_pass,
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
        "full_rounds": len(GameRules(tile_set=top).one_pass),
        "short_first": PRESETS["short"][1].first_double,
        "short_rounds": len(PRESETS["short"][1].one_pass),
        "one_tile": hand_range(top, top, 1, False).high,
        "two_tiles": hand_range(top, top, 2, False).high,
        "deals": [(players, suggested_deal(top, players)) for players in (2, 4, 6, 8)],
        "min_players": MIN_PLAYERS,
        "max_players": MAX_PLAYERS,
    }
    return render(request, "scorekeeper/rules.html", context)


@login_required
def game_history(request, pk):
    """Every change to a game: who, when, what it was and became."""
    game = get_object_or_404(Game.objects.for_user(request.user).select_related("scorebook"), pk=pk)
    with clock.at_table(game.scorebook.zone):
        return render(request, "scorekeeper/game_history.html", {"game": game, "changes": changes.of_game(game)})


@login_required
def trash(request, pk):
    """A scorebook's deleted games, for its owners to bring back within TRASH_DAYS."""
    book = scorebook_for(request.user, pk)
    scorebooks.require_owner(book.role, _("open its trash"))
    games = book.games.trashed().select_related("deleted_by").order_by("-deleted_at")
    with clock.at_table(book.zone):
        return render(request, "scorekeeper/trash.html", {"book": book, "games": games, "days": TRASH_DAYS})


@login_required
@require_POST
def restore_game(request, pk):
    game = get_object_or_404(Game.objects.trashed().filter(scorebook__in=member_of(request.user)), pk=pk)
    scorebooks.require_owner(scorebook_for(request.user, game.scorebook_id).role, _("bring games back"))
    services.restore_game(game=game, by=request.user)
    messages.success(request, _("{game} is back.").format(game=game))
    return redirect("game", pk=pk)
