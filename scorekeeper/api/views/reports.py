"""Reports: the leaderboard, a player's figures, the account and its own figures."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.models import Player, Scorebook, Season
from scorekeeper.reads import stats, story
from scorekeeper.selectors import scorebook_for

from ..query import one_each
from ..serializers import (
    LeaderboardQuerySerializer,
    LeaderboardRowSerializer,
    MeSerializer,
    MyStatsSerializer,
    PlayerStatsSerializer,
    StatsQuerySerializer,
)
from .common import (
    SCOREBOOK_FILTER,
    errors_for,
    paginated,
)

STATS_PARAMETERS = [
    SCOREBOOK_FILTER,
    OpenApiParameter("tile_set", int, enum=[6, 9, 12, 15, 18], description="Only games with this set."),
    OpenApiParameter("period", str, enum=["month", "year", "all"], description="Games finished this month/year."),
]


class Leaderboard(APIView):
    pagination_class = generics.ListAPIView.pagination_class

    @extend_schema(
        parameters=[
            *STATS_PARAMETERS,
            OpenApiParameter("sort", str, enum=["rating"], description="rating: the highest rating first."),
            OpenApiParameter(
                "season", int, description="Only games of this season; the board is its scorebook's (400 otherwise)."
            ),
            OpenApiParameter(
                "since",
                str,
                description="Only games finished on or after this day (YYYY-MM-DD, the scorebook's time zone).",
            ),
        ],
        responses={200: LeaderboardRowSerializer(many=True), **errors_for(400, 401, 404)},
        description="Every player of the scorebook with their figures over the games the filters choose, ranked "
        "(`rank`, shared when level); a player with no such game follows with `rank` null. The rating is over "
        "all games whatever the filters (`rating_over`).",
    )
    def get(self, request):
        query = LeaderboardQuerySerializer(data=one_each(request, LeaderboardQuerySerializer().fields))
        query.is_valid(raise_exception=True)
        asked = query.validated_data
        season = _season_of(request.user, asked.get("season"), asked.get("scorebook"))
        book = (
            season.scorebook if season else asked.get("scorebook") and scorebook_for(request.user, asked["scorebook"])
        )
        # The personal scorebook is reached through the players: a user without one has no players yet.
        players = Player.objects.filter(
            **{"scorebook": book} if book else {"scorebook__personal_of": request.user}
        ).active()
        since = stats.period_start(asked["period"])
        if "since" in asked:
            book = book or Scorebook.objects.filter(personal_of=request.user).only("time_zone").first()
            since = max(filter(None, [since, book and stats.day_begins(book, asked["since"])]), default=None)
        rows = stats.leaderboard(
            players,
            tile_set=asked.get("tile_set"),
            **stats.window(season=season, since=since),
            sort=asked.get("sort"),
        )
        # One row per player of the user: a short list, paged in memory to spare a COUNT query.
        return paginated(self, rows, LeaderboardRowSerializer)


def _season_of(user, pk: int | None, book: int | None) -> Season | None:
    """The season asked for, of a scorebook of the user's (and of the scorebook asked for, if one
    was): else a 400 naming `season`."""
    if pk is None:
        return None
    season = Season.objects.with_role(user).filter(pk=pk).first()
    if season is None:
        raise ValidationError({"season": [_("No such season in your scorebooks.")]})
    if book is not None and season.scorebook_id != book:
        raise ValidationError({"season": [_("This season is of another scorebook.")]})
    return season


class PlayerStats(APIView):
    @extend_schema(parameters=STATS_PARAMETERS, responses={200: PlayerStatsSerializer, **errors_for(400, 401, 404)})
    def get(self, request, pk):
        players = Player.objects.for_user(request.user).only(*stats.PLAYER_FIELDS)
        player = get_object_or_404(players.annotate(ratings_updating=stats.ratings_updating()), pk=pk)
        query = StatsQuerySerializer(data=one_each(request, StatsQuerySerializer().fields))
        query.is_valid(raise_exception=True)
        options = {
            "tile_set": query.validated_data.get("tile_set"),
            "since": stats.period_start(query.validated_data["period"]),
        }
        figures = stats.player_figures(player, **options)
        figures.by_starting_double = stats.by_starting_double(player, **options)
        figures.head_to_head = stats.head_to_head(player, **options)
        for key, value in story.player_story(player, **options).items():
            setattr(figures, key, value)
        figures.ratings_updating = player.ratings_updating
        return Response(PlayerStatsSerializer(figures).data)


class Me(APIView):
    """Who the token belongs to: the cheapest authenticated call (apps use it to check a token)."""

    @extend_schema(responses={200: MeSerializer, **errors_for(401)})
    def get(self, request):
        return Response({"id": request.user.pk, "email": request.user.email})


class MyStats(APIView):
    """The figures of every player linked to you ("this is me"), across all your scorebooks."""

    @extend_schema(responses={200: MyStatsSerializer, **errors_for(401)})
    def get(self, request):
        rows = list(stats.my_players(request.user))
        return Response(MyStatsSerializer({"players": rows, "total": stats.summed(rows)}).data)
