"""Pages of players: the list, one player's figures, adding, linking to an account, archiving and
merging, the leaderboard."""

from operator import attrgetter

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import trigger_client_event

from .. import clock, selectors, services
from ..forms import LeaderboardFilterForm, MergeForm, PlayerForm, StatsFilterForm
from ..models import Player
from ..reads import charts, seasons, stats, story
from ..rules.story import RIVAL_GAMES
from ..selectors import games_for
from ..templatetags.scorekeeper import percent
from .common import safe_next, writable_current


@login_required
@require_POST
def add_player(request):
    """From the players page, or inline from the new-game page (htmx swaps in a checkbox)."""
    book = writable_current(request.user)
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
    elif request.htmx and form.existing is not None:
        # On the new-game page a name already in the book means that player: new-game.js ticks them.
        context = {"player_form": PlayerForm(scorebook=book, prefix="player"), "ticked": form.existing}
        response = render(request, "scorekeeper/partials/player_form.html", context)
        return trigger_client_event(response, "tick-player", {"pk": form.existing.pk})
    elif request.htmx:
        return render(request, "scorekeeper/partials/player_form.html", {"player_form": form}, status=200)
    else:
        for problem in form.errors.get("name", []):
            messages.error(request, problem)
    return redirect(safe_next(request) or "players")


@login_required
def players(request):
    """The scorebook's players, the archived ones apart; a scorer archives, brings back and merges here."""
    book = selectors.current_scorebook(request.user)
    # The games the player page counts: finished, counted (not friendly, not trashed), ranked in.
    counted_seat = stats.counted("seats__game") & Q(seats__left_after__isnull=True)
    listed = list(
        Player.objects.filter(scorebook=book)
        .annotate(game_count=Count("seats", filter=counted_seat))
        .select_related("user")
    )
    active = [player for player in listed if not player.archived]
    return render(
        request,
        "scorekeeper/players.html",
        {
            "players": active,
            "archived": [player for player in listed if player.archived],
            "player_form": PlayerForm(scorebook=book, prefix="player"),
            "merge_fields": [
                ("player", MergeForm.base_fields["player"].label),
                ("into", MergeForm.base_fields["into"].label),
            ],
            "scorebook": book,
            "can_score": book.can_score,
        },
    )


@login_required
@require_POST
def archive_player(request, pk):
    """Archive (off the pickers and boards) or bring back, from the players page."""
    person = get_object_or_404(Player.objects.with_role(request.user), pk=pk)
    archived = request.POST.get("archived")
    services.require_scorer(person.role)
    if archived not in ("0", "1"):
        messages.error(request, _("Nothing was changed: reload the page and try again."))
        return redirect("players")
    services.set_archived(player=person, archived=archived == "1", role=person.role, by=request.user)
    if archived == "1":
        messages.success(
            request, _("{name} is archived: off the pickers and boards, games kept.").format(name=person.name)
        )
    else:
        messages.success(request, _("{name} is back.").format(name=person.name))
    return redirect("players")


@login_required
def merge_players(request):
    """Two names for one person made one: the question first ("Merge Bob into Robert? ..."), then
    the merge on POST; a refusal beside the field, nothing changed."""
    book = selectors.current_scorebook(request.user)
    services.require_scorer(book.role)
    form = MergeForm(request.POST if request.method == "POST" else request.GET or None, scorebook=book)
    question = None
    if form.is_bound and form.is_valid():
        player, into = form.cleaned_data["player"], form.cleaned_data["into"]
        if request.method == "POST":
            try:
                services.merge_player(player=player, into_id=into.pk, role=book.role, by=request.user)
            except services.InvalidInput as invalid:
                for field, problems in invalid.errors.items():
                    for problem in problems:
                        form.add_error(field if field in form.fields else None, problem)
            except services.Conflict as conflict:
                form.add_error("into", str(conflict))
            except services.Gone as gone:  # merged by another phone a moment ago
                form.add_error("player", str(gone))
            else:
                messages.success(request, _("{name} is now {into}.").format(name=player.name, into=into.name))
                return redirect("player", pk=into.pk)
        refusal = services.merge_refusal(player=player, into=into) if form.is_valid() else None
        if refusal is not None:
            form.add_error("into", str(refusal))  # the refusal instead of the question: no Merge button
        if form.is_valid():
            games = player.seats.count()
            question = ngettext(
                "Merge {name} into {into}? {name}'s {count} game becomes {into}'s. This cannot be undone.",
                "Merge {name} into {into}? {name}'s {count} games become {into}'s. This cannot be undone.",
                games,
            ).format(name=player.name, into=into.name, count=games)
    return render(request, "scorekeeper/merge_players.html", {"form": form, "question": question, "scorebook": book})


@login_required
def player(request, pk):
    """A player's figures, head-to-head records and chart, recent games, and rename."""
    person = get_object_or_404(Player.objects.with_role(request.user).select_related("scorebook", "user"), pk=pk)
    if request.method == "POST":
        services.require_scorer(person.role)
    form = PlayerForm(request.POST or None, instance=person, scorebook=person.scorebook)
    if request.method == "POST" and form.is_valid():
        services.rename_player(player=person, name=form.cleaned_data["name"], by=request.user)
        messages.success(request, _("Renamed to {name}.").format(name=person.name))
        return redirect("player", pk=pk)
    filters = StatsFilterForm(request.GET)
    options = filters.options()
    table = Player.objects.filter(scorebook_id=person.scorebook_id).only(*stats.TABLE_FIELDS)
    standing = stats.standings(table.annotate(rated_games=stats.rated_games()))[person.pk]
    context = {
        "player": person,
        "standing": standing,
        "standing_words": stats.STANDING_WORDS[standing],
        "form": form,
        "filters": filters,
        "figures": stats.player_figures(person, **options),
        "by_double": stats.by_starting_double(person, **options),
        "head_to_head": stats.head_to_head(person, **options),
        "story": story.player_story(person, **options),
        "rival_games": RIVAL_GAMES,
        "totals_charts": [
            (each_set, charts.game_totals(person.name, totals, each_set))
            for each_set, totals in stats.game_totals_by_set(person, tile_set=options["tile_set"]).items()
        ],
        "rating_chart": charts.ratings(person.name, stats.rating_steps(person)),
        "games": games_for(request.user, role=True).filter(seats__player=person).order_by("-created_at")[:10],
        "has_games": person.seats.exists(),
        "can_score": person.can_score,
    }
    return render(request, "scorekeeper/player.html", context)


@login_required
def leaderboard(request):
    """One card per player ranked (place, name, wins, games, average per round, the rating in words),
    sorted as asked, over the games the filters choose; the players with no such game listed apart.
    Above them, the current season's table when a season holds today and no filter is chosen."""
    book = selectors.current_scorebook(request.user)
    book_seasons = seasons.seasons_of(book)
    filters = LeaderboardFilterForm(request.GET, seasons=book_seasons)
    chosen = filters.chosen()
    sort = chosen["sort"]
    since = chosen["since"] and stats.day_begins(book, chosen["since"])
    players = Player.objects.filter(scorebook=book).active().annotate(rated_games=stats.rated_games())
    rows = stats.leaderboard(
        players, sort=sort, tile_set=chosen["tile_set"], **stats.window(season=chosen["season"], since=since)
    )
    words = stats.standings(row.player for row in rows)
    extra = SORT_EXTRAS.get((sort or "").lstrip("-"))
    cards = [
        {
            "row": row,
            "standing": words[row.pk],
            "words": stats.STANDING_WORDS[words[row.pk]],
            "extra": extra and (extra[0], extra[1](row)),
        }
        for row in rows
        if row.rank is not None
    ]
    scope = filter_words(chosen)
    current = seasons.current_among(book, book_seasons) if not scope else None
    season_table = seasons.table(current) if current else None
    context = {
        "rows": rows,
        "cards": cards,
        "apart": [row for row in rows if row.rank is None],
        "filters": filters,
        "scope": scope,
        "sort": sort or "",
        "by_rating": (sort or "").lstrip("-") == "rating",
        "places": (sort or "").lstrip("-") != "name",
        "sort_choices": SORT_CHOICES,
        "scorebook": book,
        "season_table": season_table,
        # The line above the board: who leads the season (its table comes after the board).
        "season_leaders": [row.name for row in season_table.rows if row.qualified and row.rank == 1]
        if season_table
        else [],
        "order_note": order_note(sort or ""),
    }
    return render(request, "scorekeeper/leaderboard.html", context)


def order_note(sort: str) -> str:
    """The words under the board when an order other than the default (most wins) is chosen: what
    orders it, in the words of the Order filter; "" for the default, which the page says itself."""
    if not sort:
        return ""
    if sort == "name":
        return _("Finished games only. In the order of their names, without places.")
    label = dict(SORT_CHOICES).get(sort) or _("the order chosen")
    return _(
        "Finished games only. Ordered by “{order}”; players level on it share a place, most wins first among them."
    ).format(order=label)


def filter_words(chosen: dict) -> list[str]:
    """The filters chosen, in words (the page says what its figures count): set, season, day."""
    words = []
    if chosen["tile_set"] is not None:
        words.append(_("double-{n}").format(n=chosen["tile_set"]))
    if chosen["season"] is not None:
        words.append(_("the season {name}").format(name=chosen["season"].name))
    if chosen["since"] is not None:
        words.append(_("since {day}").format(day=clock.day(chosen["since"])))
    return words


# The leaderboard's orders, in the words of its sort menu ("": the standings, most wins first).
SORT_CHOICES = [
    ("", gettext_lazy("Most wins")),
    ("rating", gettext_lazy("Best rating")),
    ("average_round_score", gettext_lazy("Lowest per round")),
    ("-games", gettext_lazy("Most games")),
    ("-win_rate", gettext_lazy("Best win rate")),
    ("-went_out", gettext_lazy("Most often out first")),
    ("-double_blank_penalties", gettext_lazy("Most caught with 0-0")),
    ("-end_on_double_penalties", gettext_lazy("Most out on a double")),
    ("name", gettext_lazy("Name")),
]
# A figure a card does not show, shown on every card while the board is sorted by it.
SORT_EXTRAS = {
    "win_rate": (gettext_lazy("Win rate"), lambda row: percent(row.win_rate) if row.game_count else "\u2013"),
    "went_out": (gettext_lazy("Went out"), attrgetter("went_out")),
    "double_blank_penalties": (gettext_lazy("Caught with 0-0"), attrgetter("double_blank_penalties")),
    "end_on_double_penalties": (gettext_lazy("Out on a double"), attrgetter("end_on_double_penalties")),
    "rounds": (gettext_lazy("Rounds"), attrgetter("rounds")),
    # The number the order compares, which the words of a rating do not show (a "new" player's too).
    "rating": (gettext_lazy("Overall rating"), lambda row: number_format(row.rating.ordinal, 1)),
}


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
