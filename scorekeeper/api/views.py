"""API v1: one thin view per resource; the services do the writing, the rules the checking."""

import re

from django.core.cache import cache
from django.db.models import F, Prefetch
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper import history, live, scorebooks, services, stats, transfer
from scorekeeper.models import Entry, Game, Invite, Membership, Player, Round, Scorebook, Seat

from .exceptions import PreconditionFailed
from .idempotency import idempotent
from .serializers import (
    GameCreateSerializer,
    GameListSerializer,
    GameSerializer,
    GameUpdateSerializer,
    InviteCreateSerializer,
    InviteSerializer,
    LeaderboardQuerySerializer,
    LeaderboardRowSerializer,
    MemberRoleSerializer,
    MeSerializer,
    MyStatsSerializer,
    PlayerLinkSerializer,
    PlayerSerializer,
    PlayerStatsSerializer,
    RoundSerializer,
    RoundWriteSerializer,
    ScorebookSerializer,
    StatsQuerySerializer,
    UserRefSerializer,
    user_ref,
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
        403: OpenApiResponse(ErrorSerializer, description="Your role in the scorebook does not allow this."),
        404: OpenApiResponse(ErrorSerializer, description="No such object in your scorebooks."),
        409: OpenApiResponse(ErrorSerializer, description="Conflicts with the game's state."),
        412: OpenApiResponse(ErrorSerializer, description="If-Match does not match the current ETag."),
        422: OpenApiResponse(ErrorSerializer, description="Idempotency-Key reused with a different body."),
    }
    return {code: described[code] for code in codes}


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER, description="Retry safely: same key + same body = same answer."
)
IF_MATCH = OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, description="ETag read with GET.")
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", str, OpenApiParameter.HEADER, description="ETag read before: 304 with no body if unchanged."
)
NOT_MODIFIED = OpenApiResponse(description="Not modified: the ETag sent in If-None-Match is still current.")


def unchanged(request, etag: str) -> bool:
    """Whether If-None-Match names the current ETag (weak or strong, or *)."""
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    tags = {tag.removeprefix("W/") for tag in parse_etags(header)}
    return "*" in tags or etag in tags


def not_modified(etag: str) -> Response:
    return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})


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


SCOREBOOK_FILTER = OpenApiParameter(
    "scorebook", int, description="Only this scorebook (404 unless you are a member); without it, all of yours."
)


def scorebook_for(user, pk) -> Scorebook:
    """One of the user's scorebooks, with their `role`; 404 for any other."""
    book = Scorebook.objects.for_user(user).filter(pk=pk).first() if pk is not None else None
    if book is None:
        raise Http404("No such scorebook among yours.")
    return book


def chosen_scorebook(request) -> Scorebook | None:
    """`?scorebook=` as one of the user's scorebooks (404 for any other), or None when absent."""
    raw = request.query_params.get("scorebook")
    if raw is None:
        return None
    return scorebook_for(request.user, int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 16 else None)


def writable_scorebook(request, pk) -> Scorebook:
    """The scorebook a new player or game goes into: the one named, or the personal one; only
    owners and scorers write."""
    book = scorebook_for(request.user, Scorebook.personal_for(request.user).pk if pk is None else pk)
    services.require_scorer(book.role)
    return book


def games_for(user):
    return (
        Game.objects.for_user(user)
        .order_by("-created_at", "-id")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("player").order_by("position")))
    )


def game_with_rounds(user, pk):
    entries = Prefetch("entries", Entry.objects.order_by("position"))
    rounds = Prefetch(
        "rounds",
        Round.objects.order_by("number").select_related("recorded_by", "corrected_by").prefetch_related(entries),
    )
    return get_object_or_404(games_for(user).prefetch_related(rounds), pk=pk)


def game_to_write(user, pk) -> Game:
    """A game of the user's scorebooks that they may write: 404 for a stranger, 403 for a viewer."""
    game = get_object_or_404(Game.objects.with_role(user), pk=pk)
    services.require_scorer(game.role)
    return game


class PlayerList(generics.ListCreateAPIView):
    serializer_class = PlayerSerializer

    def get_queryset(self):
        players = Player.objects.for_user(self.request.user).select_related("user")
        book = chosen_scorebook(self.request)
        return players if book is None else players.filter(scorebook=book)

    @extend_schema(parameters=[SCOREBOOK_FILTER], responses={200: PlayerSerializer(many=True), **_errors(401, 404)})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        parameters=[IDEMPOTENCY_KEY], responses={201: PlayerSerializer, **_errors(400, 401, 403, 404, 409, 422)}
    )
    @idempotent
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)

    def get_serializer_context(self):
        """On create, the scorebook the player goes into (names are unique within it)."""
        context = super().get_serializer_context()
        if self.request.method == "POST" and isinstance(self.request.data, dict):
            raw = None
            if "scorebook" in self.request.data:
                try:
                    raw = PlayerSerializer().fields["scorebook"].run_validation(self.request.data["scorebook"])
                except ValidationError:
                    return context  # the serializer says what is wrong with it
            context["scorebook_id"] = writable_scorebook(self.request, raw).pk
        return context

    def perform_create(self, serializer):
        serializer.save(scorebook_id=serializer.context["scorebook_id"])


@extend_schema(responses={200: PlayerSerializer, **_errors(400, 401, 403, 404)})
class PlayerDetail(generics.RetrieveUpdateDestroyAPIView):
    """PATCH `{"name"}` renames (owners and scorers); PATCH `{"user": "me" | null}` links the player
    to your own account or unlinks it (any member, for themselves)."""

    serializer_class = PlayerSerializer
    http_method_names = ["get", "patch", "delete", "head", "options"]

    def get_queryset(self):
        return Player.objects.with_role(self.request.user).select_related("user")

    @extend_schema(responses={204: None, **_errors(401, 403, 404, 409)})
    def delete(self, request, *args, **kwargs):
        return super().delete(request, *args, **kwargs)

    def perform_destroy(self, player):
        services.require_scorer(player.role)
        services.delete_player(player=player)

    def perform_update(self, serializer):
        player = serializer.instance
        if isinstance(self.request.data, dict) and "user" in self.request.data:
            link = PlayerLinkSerializer(data={"user": self.request.data["user"]})
            link.is_valid(raise_exception=True)
            services.link_player(
                player=player, user=self.request.user, role=player.role, me=link.validated_data["user"] == "me"
            )
        if set(serializer.validated_data) - {"scorebook_id"}:
            services.require_scorer(player.role)
            player._history_user, player._change_reason = self.request.user, "player_renamed"
            serializer.save()


class GameList(APIView):
    pagination_class = generics.ListAPIView.pagination_class

    @extend_schema(
        responses={200: GameListSerializer(many=True), **_errors(400, 401, 404)},
        parameters=[OpenApiParameter("status", str, enum=Game.Status.values), SCOREBOOK_FILTER],
    )
    def get(self, request):
        games = games_for(request.user)
        if (book := chosen_scorebook(request)) is not None:
            games = games.filter(scorebook=book)
        wanted = request.query_params.get("status")
        if wanted is not None:
            if wanted not in Game.Status.values:
                raise ValidationError(
                    {"status": [_("Choose one of: {choices}.").format(choices=", ".join(Game.Status.values))]}
                )
            games = games.filter(status=wanted)
        return paginated(self, games, GameListSerializer)

    @extend_schema(
        request=GameCreateSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: GameSerializer, **_errors(400, 401, 403, 404, 409, 422)},
    )
    @idempotent
    def post(self, request):
        data = GameCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.create_game(
            by=request.user,
            scorebook=writable_scorebook(request, data.validated_data.get("scorebook")),
            players=data.validated_data["players"],
            rules=data.game_rules(),
            name=data.validated_data["name"],
        )
        body = GameSerializer(game_with_rounds(request.user, game.pk)).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": f"{request.path}{game.pk}/"})


class GameDetail(APIView):
    @extend_schema(parameters=[IF_NONE_MATCH], responses={200: GameSerializer, 304: NOT_MODIFIED, **_errors(401, 404)})
    def get(self, request, pk):
        if request.headers.get("If-None-Match"):
            # One query beside authentication: the version of a game in one of the user's scorebooks.
            version = Game.objects.for_user(request.user).filter(pk=pk).values_list("version", flat=True).first()
            if version is None:
                raise Http404(_("No such game in your scorebooks."))
            if unchanged(request, etag := Game.etag_of(pk, version)):
                return not_modified(etag)
        game = game_with_rounds(request.user, pk)
        return Response(GameSerializer(game).data, headers={"ETag": game.etag})

    @extend_schema(
        request=GameUpdateSerializer,
        parameters=[IF_MATCH],
        responses={200: GameSerializer, **_errors(400, 401, 403, 404, 412)},
    )
    def patch(self, request, pk):
        game = game_to_write(request.user, pk)
        data = GameUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.rename_game(
            game=game, name=data.validated_data["name"], expected_version=expected_version(request, pk), by=request.user
        )
        game = game_with_rounds(request.user, pk)
        return Response(GameSerializer(game).data, headers={"ETag": game.etag})

    @extend_schema(parameters=[IF_MATCH], responses={204: None, **_errors(401, 403, 404, 412)})
    def delete(self, request, pk):
        game = game_to_write(request.user, pk)
        services.delete_game(game=game, expected_version=expected_version(request, pk), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundList(APIView):
    pagination_class = generics.ListAPIView.pagination_class

    @extend_schema(responses={200: RoundSerializer(many=True), **_errors(401, 404)})
    def get(self, request, game_pk):
        game = get_object_or_404(Game.objects.for_user(request.user), pk=game_pk)
        rounds = (
            game.rounds.order_by("number")
            .select_related("recorded_by", "corrected_by")
            .prefetch_related(Prefetch("entries", Entry.objects.order_by("position")))
        )
        return paginated(self, rounds, RoundSerializer)

    @extend_schema(
        request=RoundWriteSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: RoundSerializer, 400: RoundErrorsSerializer, **_errors(401, 403, 404, 409, 422)},
    )
    @idempotent
    def post(self, request, game_pk):
        game = game_to_write(request.user, game_pk)
        data = RoundWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = services.record_round(
            game=game,
            starting_double=data.validated_data["starting_double"],
            entries=data.entry_inputs(),
            by=request.user,
        )
        return Response(
            RoundSerializer(round_).data,
            status=status.HTTP_201_CREATED,
            headers={"ETag": round_.etag, "Location": f"{request.path}{round_.number}/"},
        )


def _round(user, game_pk, number, *, write=False):
    """A round of a game in the user's scorebooks (404 otherwise); for a write, 403 for a viewer.
    A write leaves its entries unread: the services lock the game, then read what they change."""
    if write:
        game = game_to_write(user, game_pk)
        round_ = get_object_or_404(game.rounds.only("pk", "game_id", "number"), number=number)
    else:
        game = get_object_or_404(Game.objects.for_user(user), pk=game_pk)
        rounds = game.rounds.select_related("recorded_by", "corrected_by")
        entries = Prefetch("entries", Entry.objects.order_by("position"))
        round_ = get_object_or_404(rounds.prefetch_related(entries), number=number)
    round_.game = game
    return round_


class RoundDetail(APIView):
    @extend_schema(parameters=[IF_NONE_MATCH], responses={200: RoundSerializer, 304: NOT_MODIFIED, **_errors(401, 404)})
    def get(self, request, game_pk, number):
        if request.headers.get("If-None-Match"):
            # One query beside authentication: the game's version, if the round is there and the game theirs.
            rounds = Round.objects.filter(game__in=Game.objects.for_user(request.user), game_id=game_pk, number=number)
            version = rounds.values_list("game__version", flat=True).first()
            if version is None:
                raise Http404(_("No such round in your scorebooks."))
            if unchanged(request, etag := Round.etag_of(game_pk, number, version)):
                return not_modified(etag)
        round_ = _round(request.user, game_pk, number)
        return Response(RoundSerializer(round_).data, headers={"ETag": round_.etag})

    @extend_schema(
        request=RoundWriteSerializer,
        parameters=[IF_MATCH],
        responses={200: RoundSerializer, 400: RoundErrorsSerializer, **_errors(401, 403, 404, 409, 412)},
    )
    def put(self, request, game_pk, number):
        round_ = _round(request.user, game_pk, number, write=True)
        data = RoundWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = services.correct_round(
            round=round_,
            starting_double=data.validated_data["starting_double"],
            entries=data.entry_inputs(),
            expected_version=expected_version(request, game_pk, number),
            by=request.user,
        )
        return Response(RoundSerializer(round_).data, headers={"ETag": round_.etag})

    @extend_schema(parameters=[IF_MATCH], responses={204: None, **_errors(401, 403, 404, 409, 412)})
    def delete(self, request, game_pk, number):
        round_ = _round(request.user, game_pk, number, write=True)
        services.undo_last_round(
            game=round_.game,
            number=number,
            expected_version=expected_version(request, game_pk, number),
            by=request.user,
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundRestore(APIView):
    @extend_schema(
        request=None,
        parameters=[IF_MATCH],
        responses={201: RoundSerializer, **_errors(401, 403, 404, 409, 412)},
        description="Bring back the last undone round, while no round was recorded since (otherwise 409).",
    )
    def post(self, request, game_pk):
        game = game_to_write(request.user, game_pk)
        round_ = services.restore_round(game=game, expected_version=expected_version(request, game_pk), by=request.user)
        location = request.path.replace("restore/", f"{round_.number}/")
        return Response(
            RoundSerializer(round_).data,
            status=status.HTTP_201_CREATED,
            headers={"ETag": round_.etag, "Location": location},
        )


@csrf_exempt  # nothing happens here, and the answer must be JSON whatever the method
def not_found(request, *args, **kwargs):
    """Any other path under /api/v1/ answers in JSON, as the API does, not with an HTML page."""
    return JsonResponse({"detail": _("Not found."), "code": "not_found"}, status=404)


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
        ],
        responses={200: LeaderboardRowSerializer(many=True), **_errors(400, 401, 404)},
    )
    def get(self, request):
        query = LeaderboardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        book = query.validated_data.get("scorebook")
        # The personal scorebook is reached through the players: a user without one has no players yet.
        players = Player.objects.filter(
            **{"scorebook": scorebook_for(request.user, book)} if book else {"scorebook__personal_of": request.user}
        )
        rows = stats.leaderboard(
            players,
            tile_set=query.validated_data.get("tile_set"),
            since=stats.period_start(query.validated_data["period"]),
            sort=query.validated_data.get("sort"),
        )
        # One row per player of the user: a short list, paged in memory to spare a COUNT query.
        return paginated(self, rows, LeaderboardRowSerializer)


class PlayerStats(APIView):
    @extend_schema(parameters=STATS_PARAMETERS, responses={200: PlayerStatsSerializer, **_errors(400, 401, 404)})
    def get(self, request, pk):
        player = get_object_or_404(Player.objects.for_user(request.user).only(*stats.PLAYER_FIELDS), pk=pk)
        query = StatsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        options = {
            "tile_set": query.validated_data.get("tile_set"),
            "since": stats.period_start(query.validated_data["period"]),
        }
        figures = stats.player_figures(player, **options)
        figures.by_starting_double = stats.by_starting_double(player, **options)
        figures.head_to_head = stats.head_to_head(player, **options)
        return Response(PlayerStatsSerializer(figures).data)


class Me(APIView):
    """Who the token belongs to: the cheapest authenticated call (apps use it to check a token)."""

    @extend_schema(responses={200: MeSerializer, **_errors(401)})
    def get(self, request):
        return Response({"id": request.user.pk, "email": request.user.email})


class MyStats(APIView):
    """The figures of every player linked to you ("this is me"), across all your scorebooks."""

    @extend_schema(responses={200: MyStatsSerializer, **_errors(401)})
    def get(self, request):
        rows = list(stats.my_players(request.user))
        return Response(MyStatsSerializer({"players": rows, "total": stats.summed(rows)}).data)


def scorebooks_for(user):
    return Scorebook.objects.for_user(user).prefetch_related(
        Prefetch("memberships", Membership.objects.select_related("user").order_by("joined_at", "id"))
    )


class ScorebookList(APIView):
    pagination_class = generics.ListAPIView.pagination_class

    @extend_schema(responses={200: ScorebookSerializer(many=True), **_errors(401, 404)})
    def get(self, request):
        Scorebook.personal_for(request.user)
        return paginated(
            self,
            scorebooks_for(request.user).order_by(F("personal_of").desc(nulls_last=True), "name", "id"),
            ScorebookSerializer,
        )

    @extend_schema(
        request=ScorebookSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: ScorebookSerializer, **_errors(400, 401, 422)},
    )
    @idempotent
    def post(self, request):
        data = ScorebookSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        book = scorebooks.create(by=request.user, name=data.validated_data["name"])
        body = ScorebookSerializer(scorebooks_for(request.user).get(pk=book.pk)).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": f"{request.path}{book.pk}/"})


class ScorebookDetail(APIView):
    @extend_schema(responses={200: ScorebookSerializer, **_errors(401, 404)})
    def get(self, request, pk):
        return Response(ScorebookSerializer(get_object_or_404(scorebooks_for(request.user), pk=pk)).data)

    @extend_schema(request=ScorebookSerializer, responses={200: ScorebookSerializer, **_errors(400, 401, 403, 404)})
    def patch(self, request, pk):
        book = scorebook_for(request.user, pk)
        data = ScorebookSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        scorebooks.rename(book=book, role=book.role, name=data.validated_data["name"])
        return Response(ScorebookSerializer(scorebooks_for(request.user).get(pk=pk)).data)

    @extend_schema(responses={204: None, **_errors(401, 403, 404, 409)})
    def delete(self, request, pk):
        book = scorebook_for(request.user, pk)
        scorebooks.delete(book=book, role=book.role)
        return Response(status=status.HTTP_204_NO_CONTENT)


def invite_links(request, invite: Invite) -> dict:
    from django.urls import reverse

    return {
        "code": invite.code,
        "url": request.build_absolute_uri(reverse("invite", kwargs={"code": invite.code})),
        "qr_svg_url": request.build_absolute_uri(reverse("invite_qr", kwargs={"code": invite.code})),
        "role": invite.role,
        "expires_at": invite.expires_at,
    }


class InviteCreate(APIView):
    @extend_schema(
        request=InviteCreateSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: InviteSerializer, **_errors(400, 401, 403, 404, 422)},
        description="A single-use link (and QR code) that makes whoever accepts it a member with this role; 7 days.",
    )
    @idempotent
    def post(self, request, pk):
        book = scorebook_for(request.user, pk)
        data = InviteCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        invite = scorebooks.invite(book=book, role=book.role, by=request.user, invite_role=data.validated_data["role"])
        return Response(InviteSerializer(invite_links(request, invite)).data, status=status.HTTP_201_CREATED)


class InviteAccept(APIView):
    @extend_schema(
        request=None,
        responses={200: ScorebookSerializer, **_errors(401, 404)},
        description="Join the scorebook with the invite's role. Unknown, expired or used by someone else: 404.",
    )
    def post(self, request, code):
        book = scorebooks.accept(code=code, user=request.user)
        return Response(ScorebookSerializer(scorebooks_for(request.user).get(pk=book.pk)).data)


class MemberDetail(APIView):
    @extend_schema(
        request=MemberRoleSerializer,
        responses={200: ScorebookSerializer, **_errors(400, 401, 403, 404, 409)},
        description="An owner changes a member's role (another owner included); the last owner stays one.",
    )
    def patch(self, request, pk, user_pk):
        book = scorebook_for(request.user, pk)
        data = MemberRoleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        scorebooks.set_role(book=book, role=book.role, user_id=user_pk, new_role=data.validated_data["role"])
        return Response(ScorebookSerializer(scorebooks_for(request.user).get(pk=pk)).data)

    @extend_schema(
        responses={204: None, **_errors(401, 403, 404, 409)},
        description="An owner removes a member; a member leaves with their own id. The last owner cannot leave.",
    )
    def delete(self, request, pk, user_pk):
        book = scorebook_for(request.user, pk)
        scorebooks.remove_member(book=book, role=book.role, by=request.user, user_id=user_pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ShareSerializer(serializers.Serializer):
    token = serializers.CharField()
    url = serializers.URLField()
    api_url = serializers.URLField()
    qr_svg_url = serializers.URLField()
    created_at = serializers.DateTimeField()


def share_body(request, link) -> dict:
    from django.urls import reverse

    return {
        "token": link.token,
        "url": request.build_absolute_uri(reverse("live", kwargs={"token": link.token})),
        "api_url": request.build_absolute_uri(reverse("api:live", kwargs={"token": link.token})),
        "qr_svg_url": request.build_absolute_uri(reverse("live_qr", kwargs={"token": link.token})),
        "created_at": link.created_at,
    }


class GameShare(APIView):
    """The game's live link: read-only, no account needed to open it; one per game."""

    @extend_schema(responses={200: ShareSerializer, **_errors(401, 404)})
    def get(self, request, game_pk):
        game = get_object_or_404(Game.objects.for_user(request.user).select_related("live_link"), pk=game_pk)
        link = getattr(game, "live_link", None)
        if link is None:
            raise Http404(_("This game has no live link."))
        return Response(ShareSerializer(share_body(request, link)).data)

    @extend_schema(
        request=None,
        responses={201: ShareSerializer, **_errors(401, 403, 404)},
        description="Make the live link, or replace it: the old token stops working at once.",
    )
    def post(self, request, game_pk):
        link = live.share(game=game_to_write(request.user, game_pk), by=request.user)
        return Response(ShareSerializer(share_body(request, link)).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None, **_errors(401, 403, 404)})
    def delete(self, request, game_pk):
        if not live.revoke(game=game_to_write(request.user, game_pk)):
            raise Http404(_("This game has no live link."))
        return Response(status=status.HTTP_204_NO_CONTENT)


class LiveView(APIView):
    """A game through its live link: no credentials; names and scores only."""

    authentication_classes = []
    permission_classes = []

    @extend_schema(
        auth=[],
        parameters=[IF_NONE_MATCH],
        responses={
            200: OpenApiResponse(description="The game, players by name only (as GET one game, less ids and emails)."),
            304: NOT_MODIFIED,
            404: OpenApiResponse(ErrorSerializer, description="Unknown, replaced or revoked link."),
            429: OpenApiResponse(ErrorSerializer, description="Too many requests from this address: see Retry-After."),
        },
    )
    def get(self, request, token):
        if wait := live.retry_after(request, token):
            return Response(
                {
                    "detail": _("Too many requests: try again in {seconds} seconds.").format(seconds=wait),
                    "code": "throttled",
                },
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(wait)},
            )
        link = live.find(token)  # one query: the link and its game's version
        if link is None:
            raise Http404(_("This live link does not exist or was revoked."))
        etag = link.etag(link.game.version)
        if unchanged(request, etag):
            return not_modified(etag)
        key = f"live-json:{etag}"  # every viewer of a version gets the same body: built once
        body = cache.get(key)
        if body is None:
            body = live.public(live.sheet_of(link))
            cache.set(key, body, timeout=600)
        return Response(body, headers={"ETag": etag, "Cache-Control": "no-cache", "X-Robots-Tag": "noindex"})


class FormatIsOurs(DefaultContentNegotiation):
    """On the export routes `?format=` names the file's format, not one of DRF's renderers."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


EXPORT_FORMAT = OpenApiParameter("format", str, enum=["json", "csv"], description="json (default) or csv.")
EXPORTED = OpenApiResponse(
    description='JSON: {"format": "chicken-foot-scorekeeper", "version": 1, "games": [...]} with players by name; '
    "CSV: one row per entry (game, date, tile_set, round, starting_double, player, pips, tiles, penalty, score)."
)


def exported(request, games, filename: str):
    """The games as the export format asks: a JSON body, or a CSV file."""
    chosen = request.query_params.get("format", "json")
    if chosen not in ("json", "csv"):
        raise ValidationError({"format": [_('Choose "json" or "csv".')]})
    games = transfer.games_with_everything(games)
    if chosen == "json":
        return Response(
            transfer.as_json(games), headers={"Content-Disposition": f'attachment; filename="{filename}.json"'}
        )
    response = HttpResponse(transfer.as_csv(games), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


class GameExport(APIView):
    content_negotiation_class = FormatIsOurs

    @extend_schema(parameters=[EXPORT_FORMAT], responses={200: EXPORTED, **_errors(400, 401, 404)})
    def get(self, request, game_pk):
        games = Game.objects.for_user(request.user).filter(pk=game_pk)
        if not games.exists():
            raise Http404(_("No such game in your scorebooks."))
        return exported(request, games, f"game-{game_pk}")


class Export(APIView):
    content_negotiation_class = FormatIsOurs

    @extend_schema(parameters=[EXPORT_FORMAT, SCOREBOOK_FILTER], responses={200: EXPORTED, **_errors(400, 401, 404)})
    def get(self, request):
        games = Game.objects.for_user(request.user).order_by("created_at", "id")
        if (book := chosen_scorebook(request)) is not None:
            games = games.filter(scorebook=book)
        return exported(request, games, "chicken-foot-games")


class ImportedSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    rounds = serializers.IntegerField()
    players_created = serializers.IntegerField()


class Import(APIView):
    @extend_schema(
        request=OpenApiTypes.OBJECT,
        parameters=[
            OpenApiParameter("scorebook", int, description="Into this scorebook (default: your personal one).")
        ],
        responses={201: ImportedSerializer, 200: ImportedSerializer, **_errors(400, 401, 403, 404)},
        description="An export's JSON: every round checked as if entered, all or nothing. Games already in the "
        "scorebook (same uid) are skipped: importing a file twice creates nothing the second time (200).",
    )
    def post(self, request):
        raw = request.query_params.get("scorebook")
        book = writable_scorebook(request, None if raw is None else chosen_scorebook(request).pk)
        result = transfer.import_games(data=request.data, scorebook=book, by=request.user)
        body = ImportedSerializer(result).data
        return Response(body, status=status.HTTP_201_CREATED if result.games else status.HTTP_200_OK)


class ChangeSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    by = serializers.SerializerMethodField()
    action = serializers.ChoiceField(choices=[*history.GAME_ACTIONS, *history.ROUND_ACTIONS])
    round = serializers.IntegerField(allow_null=True)
    before = serializers.JSONField(allow_null=True, help_text="The round (or name) as it was.")
    after = serializers.JSONField(allow_null=True, help_text="The round (or name) as it became.")

    def get_by(self, change) -> UserRefSerializer(allow_null=True):
        return user_ref(change.by)


class GameHistory(APIView):
    pagination_class = generics.ListAPIView.pagination_class

    @extend_schema(
        responses={200: ChangeSerializer(many=True), **_errors(401, 404)},
        description="Every change to the game, newest first: who, when, and the round (or name) before and after.",
    )
    def get(self, request, game_pk):
        game = get_object_or_404(Game.objects.for_user(request.user), pk=game_pk)
        return paginated(self, history.of_game(game), ChangeSerializer)
