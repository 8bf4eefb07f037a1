"""API v1: one thin view per resource; the services do the writing, the rules the checking."""

import re

from django.db.models import Max, Prefetch
from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.http import parse_etags
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper import services, stats
from scorekeeper.models import Entry, Game, Player, Round, Seat

from .exceptions import PreconditionFailed
from .idempotency import idempotent
from .serializers import (
    GameCreateSerializer,
    GameListSerializer,
    GameSerializer,
    GameUpdateSerializer,
    LeaderboardRowSerializer,
    MeSerializer,
    PlayerSerializer,
    PlayerStatsSerializer,
    RoundSerializer,
    RoundWriteSerializer,
    StatsQuerySerializer,
)

_ETAG = re.compile(r'^(?:W/)?"game-(\d+)(?:-round-(\d+))?-v(\d+)"$')


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField(required=False)


class RoundErrorItemSerializer(serializers.Serializer):
    field = serializers.CharField()
    entry = serializers.IntegerField(allow_null=True)
    player = serializers.IntegerField(allow_null=True)
    rule = serializers.IntegerField()
    code = serializers.CharField()
    message = serializers.CharField()


class RoundErrorsSerializer(serializers.Serializer):
    """A round that breaks a rule; malformed fields come back in DRF's {field: [messages]} shape instead."""

    detail = serializers.CharField(required=False)
    errors = RoundErrorItemSerializer(many=True, required=False)


def _errors(*codes: int) -> dict:
    described = {
        400: OpenApiResponse(description="The body breaks a rule; the answer names the field (and entry)."),
        401: OpenApiResponse(ErrorSerializer, description="No or bad credentials."),
        404: OpenApiResponse(ErrorSerializer, description="No such object among yours."),
        409: OpenApiResponse(ErrorSerializer, description="Conflicts with the game's state."),
        412: OpenApiResponse(ErrorSerializer, description="If-Match does not match the current ETag."),
        422: OpenApiResponse(ErrorSerializer, description="Idempotency-Key reused with a different body."),
    }
    return {code: described[code] for code in codes}


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER, description="Retry safely: same key + same body = same answer."
)
IF_MATCH = OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, description="ETag read with GET.")


def expected_version(request, game_id: int, round_number: int | None = None) -> int | None:
    """The game version an If-Match header asks for; None without one (or with *)."""
    header = request.headers.get("If-Match")
    if header is None:
        return None
    tags = parse_etags(header)
    if "*" in tags:
        return None
    for tag in tags:
        match = _ETAG.match(tag)
        if match and int(match[1]) == game_id and (int(match[2]) if match[2] else None) == round_number:
            return int(match[3])
    raise PreconditionFailed()


def paginated(view, items, serializer_class) -> Response:
    paginator = view.pagination_class()
    page = paginator.paginate_queryset(items, view.request, view=view)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


def games_for(user):
    return (
        Game.objects.for_user(user)
        .annotate(last_position=Max("rounds__position"))
        .order_by("-created_at", "-id")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("player").order_by("position")))
    )


def game_with_rounds(user, pk):
    entries = Prefetch("entries", Entry.objects.order_by("position"))
    rounds = Prefetch("rounds", Round.objects.order_by("number").prefetch_related(entries))
    return get_object_or_404(games_for(user).prefetch_related(rounds), pk=pk)


class PlayerList(generics.ListCreateAPIView):
    serializer_class = PlayerSerializer

    def get_queryset(self):
        return Player.objects.for_user(self.request.user)

    @extend_schema(responses={200: PlayerSerializer(many=True), **_errors(401, 404)})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(parameters=[IDEMPOTENCY_KEY], responses={201: PlayerSerializer, **_errors(400, 401, 409, 422)})
    @idempotent
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)

    def perform_create(self, serializer):
        serializer.save(owner=self.request.user)


@extend_schema(responses={200: PlayerSerializer, **_errors(400, 401, 404)})
class PlayerDetail(generics.RetrieveUpdateDestroyAPIView):
    serializer_class = PlayerSerializer
    http_method_names = ["get", "patch", "delete", "head", "options"]

    def get_queryset(self):
        return Player.objects.for_user(self.request.user)

    @extend_schema(responses={204: None, **_errors(401, 404, 409)})
    def delete(self, request, *args, **kwargs):
        return super().delete(request, *args, **kwargs)

    def perform_destroy(self, player):
        services.delete_player(player=player)


class GameList(APIView):
    pagination_class = generics.ListAPIView.pagination_class

    @extend_schema(
        responses={200: GameListSerializer(many=True), **_errors(400, 401, 404)},
        parameters=[OpenApiParameter("status", str, enum=Game.Status.values)],
    )
    def get(self, request):
        games = games_for(request.user)
        wanted = request.query_params.get("status")
        if wanted is not None:
            if wanted not in Game.Status.values:
                raise ValidationError({"status": [f"Choose one of: {', '.join(Game.Status.values)}."]})
            games = games.filter(status=wanted)
        return paginated(self, games, GameListSerializer)

    @extend_schema(
        request=GameCreateSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: GameSerializer, **_errors(400, 401, 409, 422)},
    )
    @idempotent
    def post(self, request):
        data = GameCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.create_game(
            owner=request.user,
            players=data.validated_data["players"],
            rules=data.game_rules(),
            name=data.validated_data["name"],
        )
        body = GameSerializer(game_with_rounds(request.user, game.pk)).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": f"{request.path}{game.pk}/"})


class GameDetail(APIView):
    @extend_schema(responses={200: GameSerializer, **_errors(401, 404)})
    def get(self, request, pk):
        game = game_with_rounds(request.user, pk)
        return Response(GameSerializer(game).data, headers={"ETag": game.etag})

    @extend_schema(
        request=GameUpdateSerializer,
        parameters=[IF_MATCH],
        responses={200: GameSerializer, **_errors(400, 401, 404, 412)},
    )
    def patch(self, request, pk):
        game = get_object_or_404(Game.objects.for_user(request.user), pk=pk)
        data = GameUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.rename_game(
            game=game, name=data.validated_data["name"], expected_version=expected_version(request, pk)
        )
        game = game_with_rounds(request.user, pk)
        return Response(GameSerializer(game).data, headers={"ETag": game.etag})

    @extend_schema(parameters=[IF_MATCH], responses={204: None, **_errors(401, 404, 412)})
    def delete(self, request, pk):
        game = get_object_or_404(Game.objects.for_user(request.user), pk=pk)
        services.delete_game(game=game, expected_version=expected_version(request, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundList(APIView):
    pagination_class = generics.ListAPIView.pagination_class

    @extend_schema(responses={200: RoundSerializer(many=True), **_errors(401, 404)})
    def get(self, request, game_pk):
        game = get_object_or_404(Game.objects.for_user(request.user), pk=game_pk)
        rounds = game.rounds.order_by("number").prefetch_related(
            Prefetch("entries", Entry.objects.order_by("position"))
        )
        return paginated(self, rounds, RoundSerializer)

    @extend_schema(
        request=RoundWriteSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: RoundSerializer, 400: RoundErrorsSerializer, **_errors(401, 404, 409, 422)},
    )
    @idempotent
    def post(self, request, game_pk):
        game = get_object_or_404(Game.objects.for_user(request.user), pk=game_pk)
        data = RoundWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = services.record_round(
            game=game, starting_double=data.validated_data["starting_double"], entries=data.entry_inputs()
        )
        round_ = _round(request.user, game_pk, round_.number)
        return Response(
            RoundSerializer(round_).data,
            status=status.HTTP_201_CREATED,
            headers={"ETag": round_.etag, "Location": f"{request.path}{round_.number}/"},
        )


def _round(user, game_pk, number):
    rounds = Round.objects.filter(game__owner=user, game_id=game_pk).select_related("game")
    return get_object_or_404(
        rounds.prefetch_related(Prefetch("entries", Entry.objects.order_by("position"))), number=number
    )


class RoundDetail(APIView):
    @extend_schema(responses={200: RoundSerializer, **_errors(401, 404)})
    def get(self, request, game_pk, number):
        round_ = _round(request.user, game_pk, number)
        return Response(RoundSerializer(round_).data, headers={"ETag": round_.etag})

    @extend_schema(
        request=RoundWriteSerializer,
        parameters=[IF_MATCH],
        responses={200: RoundSerializer, 400: RoundErrorsSerializer, **_errors(401, 404, 409, 412)},
    )
    def put(self, request, game_pk, number):
        round_ = _round(request.user, game_pk, number)
        data = RoundWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.correct_round(
            round=round_,
            starting_double=data.validated_data["starting_double"],
            entries=data.entry_inputs(),
            expected_version=expected_version(request, game_pk, number),
        )
        round_ = _round(request.user, game_pk, number)
        return Response(RoundSerializer(round_).data, headers={"ETag": round_.etag})

    @extend_schema(parameters=[IF_MATCH], responses={204: None, **_errors(401, 404, 409, 412)})
    def delete(self, request, game_pk, number):
        round_ = _round(request.user, game_pk, number)
        services.undo_last_round(
            game=round_.game, number=number, expected_version=expected_version(request, game_pk, number)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


@csrf_exempt  # nothing happens here, and the answer must be JSON whatever the method
def not_found(request, *args, **kwargs):
    """Any other path under /api/v1/ answers in JSON, as the API does, not with an HTML page."""
    return JsonResponse({"detail": "Not found.", "code": "not_found"}, status=404)


STATS_PARAMETERS = [
    OpenApiParameter("tile_set", int, enum=[6, 9, 12, 15, 18], description="Only games with this set."),
    OpenApiParameter("period", str, enum=["month", "year", "all"], description="Games finished this month/year."),
]


class Leaderboard(APIView):
    pagination_class = generics.ListAPIView.pagination_class

    @extend_schema(
        parameters=STATS_PARAMETERS, responses={200: LeaderboardRowSerializer(many=True), **_errors(400, 401, 404)}
    )
    def get(self, request):
        query = StatsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = stats.leaderboard(
            request.user,
            tile_set=query.validated_data.get("tile_set"),
            since=stats.period_start(query.validated_data["period"]),
        )
        # One row per player of the user: a short list, paged in memory to spare a COUNT query.
        return paginated(self, list(rows), LeaderboardRowSerializer)


class PlayerStats(APIView):
    @extend_schema(parameters=STATS_PARAMETERS, responses={200: PlayerStatsSerializer, **_errors(400, 401, 404)})
    def get(self, request, pk):
        player = get_object_or_404(Player.objects.for_user(request.user), pk=pk)
        query = StatsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        options = {
            "tile_set": query.validated_data.get("tile_set"),
            "since": stats.period_start(query.validated_data["period"]),
        }
        figures = stats.player_figures(player, **options)
        figures.by_starting_double = list(stats.by_starting_double(player, **options))
        figures.head_to_head = list(stats.head_to_head(player, **options))
        return Response(PlayerStatsSerializer(figures).data)


class Me(APIView):
    """Who the token belongs to: the cheapest authenticated call (apps use it to check a token)."""

    @extend_schema(responses={200: MeSerializer, **_errors(401)})
    def get(self, request):
        return Response({"id": request.user.pk, "email": request.user.email})
