"""Games: list, create, read (conditional), rename, delete; every change to a game."""

from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper import services
from scorekeeper.caches import kept
from scorekeeper.http.private import not_modified, unchanged
from scorekeeper.http.streams import INTERNAL_KEY as STREAM_KEY
from scorekeeper.models import Game
from scorekeeper.reads import follow, history
from scorekeeper.selectors import game_to_write
from scorekeeper.services import nights

from ..idempotency import idempotent
from ..query import one_value
from ..serializers import (
    GameCreateSerializer,
    GameListSerializer,
    GameSerializer,
    GameUpdateSerializer,
    UserRefSerializer,
    user_ref,
)
from .common import (
    IDEMPOTENT,
    IF_MATCH,
    IF_NONE_MATCH,
    NOT_MODIFIED,
    SCOREBOOK_FILTER,
    AnswersNotModified,
    chosen_scorebook,
    errors_for,
    etag_header,
    expected_version,
    game_with_rounds,
    games_for,
    location_header,
    paginated,
    session_of,
    writable_scorebook,
)


class GameList(APIView):
    pagination_class = generics.ListAPIView.pagination_class

    @extend_schema(
        responses={200: GameListSerializer(many=True), **errors_for(400, 401, 404)},
        parameters=[OpenApiParameter("status", str, enum=Game.Status.values), SCOREBOOK_FILTER],
    )
    def get(self, request):
        games = games_for(request.user)
        if (book := chosen_scorebook(request)) is not None:
            games = games.filter(scorebook=book)
        wanted = one_value(request, "status")
        if wanted is not None:
            if wanted not in Game.Status.values:
                raise ValidationError(
                    {"status": [_("Choose one of: {choices}.").format(choices=", ".join(Game.Status.values))]}
                )
            games = games.filter(status=wanted)
        return paginated(self, games, GameListSerializer)

    @extend_schema(
        request=GameCreateSerializer,
        parameters=[*IDEMPOTENT, etag_header(201), location_header(201)],
        responses={201: GameSerializer, **errors_for(400, 401, 403, 404, 409, 422)},
    )
    @idempotent
    def post(self, request):
        data = GameCreateSerializer(data=request.data)
        if not data.is_valid():
            raise ValidationError(paper_errors(data.errors))
        book = writable_scorebook(request, data.validated_data.get("scorebook"))
        common = {
            "by": request.user,
            "scorebook": book,
            "players": data.validated_data["players"],
            "rules": data.game_rules(),
            "name": data.validated_data["name"],
            "casual": data.validated_data["casual"],
            "night": data.validated_data.get("night"),
        }
        if data.is_paper:
            try:
                game = services.enter_paper_game(
                    **common,
                    played_on=data.validated_data["played_on"],
                    rounds=data.paper_rounds(),
                    changes=data.paper_changes(),
                    stopped_after=data.validated_data.get("stopped_after"),
                )
            except services.InvalidInput as invalid:
                if not invalid.round_errors:
                    raise  # fields (players, played_on, rules, ...) as every 400 names them
                raise ValidationError(refused_round(invalid, data.validated_data)) from None
        else:
            game = services.create_game(**common)
        game = game_with_rounds(request.user, game.pk)
        headers = {"Location": f"{request.path}{game.pk}/", "ETag": game.etag}
        return Response(GameSerializer(game).data, status=status.HTTP_201_CREATED, headers=headers)


def paper_errors(errors: dict) -> dict:
    """A create's 400 with the errors of a paper game's rounds and seat changes named by their path
    ("rounds[2].entries[1].pips"), not nested in lists of mostly empty objects."""
    flat = {}

    def walk(path: str, value) -> None:
        if isinstance(value, dict):  # an object's fields, or a list's items by index (DRF's ListField)
            for key, inner in value.items():
                index = isinstance(key, int) or str(key).isdigit()
                walk(path if key == "non_field_errors" else f"{path}[{key}]" if index else f"{path}.{key}", inner)
        elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            for index, inner in enumerate(value):
                walk(f"{path}[{index}]", inner)
        elif value:
            flat.setdefault(path, []).extend(value if isinstance(value, list) else [value])

    for field, value in errors.items():
        if field in ("rounds", "seat_changes"):
            walk(field, value)
        else:
            flat[field] = value
    return flat


def refused_round(invalid, data: dict) -> dict:
    """What the rules refused in a paper game: its fields as the service names them (`rounds[2]`:
    the round's messages, each naming the player), and for a round's entries the entry's own path
    (`rounds[2].entries[1].pips`) as a round's 400 names it."""
    body = dict(invalid.errors)
    round_keys = [key for key in invalid.errors if key.startswith("rounds[")]
    if round_keys:
        key = round_keys[0]
        entries = data["rounds"][int(key[7:-1])]["entries"]
        index_of = {item["player"]: index for index, item in enumerate(entries)}
        for error in invalid.round_errors:
            if error.player in index_of:
                path = f"{key}.entries[{index_of[error.player]}].{error.field or 'player'}"
                body.setdefault(path, []).append(str(error.message))
    return body


class GameDetail(AnswersNotModified, APIView):
    """One game: read it (its ETag; 304 to If-None-Match), rename it, delete it (If-Match on writes)."""

    def version_of(self, pk, **kwargs):
        """The game's version, for a member of its scorebook (the trash left out); for a stream's
        start (api.views.events) also the scorebook and the reader's role, in the same query."""
        stream = STREAM_KEY in self.request.META
        return follow.of_game(pk, role=stream, version="etag_version", book=stream)

    @staticmethod
    def stream_of(request) -> tuple[int | None, str] | None:
        """For a stream's start, what its entry keeps beside the game (remembered with the GET's):
        the scorebook and the role read with the version; None for any other request."""
        user = request.user
        if STREAM_KEY not in request.META or not hasattr(user, "game_book"):
            return None
        return user.game_book, user.game_role or ""

    def fence_of(self, session_key, pk, **kwargs):
        # The answer is the same for every member at one version: built once, kept in the shared
        # cache as the bytes sent, read in the round trip that reads the stamps.
        return kept.fence(session=session_key, game=pk, fetch=[kept.answer_key(pk, get_language())])

    @extend_schema(
        parameters=[IF_NONE_MATCH, etag_header(200, 304)],
        responses={200: GameSerializer, 304: NOT_MODIFIED, **errors_for(401, 404)},
    )
    def get(self, request, pk):
        version = self.current_version(
            request, lambda: Game.objects.for_user(request.user).filter(pk=pk).values_list("version", flat=True)
        )
        if version is None:
            raise Http404(_("No such game in your scorebooks."))
        fence = getattr(request, "fence", None) or kept.fence(session=session_of(request), game=pk)
        key = kept.answer_key(pk, get_language())
        answer = fence.found.get(key) or kept.KeptAnswer(None, None)
        stream = self.stream_of(request)
        if unchanged(request, etag := Game.etag_of(pk, version)):
            kept.remember_member(fence, request.user.pk, version, stream=stream)
            return not_modified(etag)
        body = answer.body
        if answer.version != version and fence.usable and not kept.claim_making(key, version):
            answer = kept.made_by_another(key, version) or answer  # another reader is making it
            body = answer.body
        if answer.version != version:
            game = game_with_rounds(request.user, pk)
            body, etag = JSONRenderer().render(GameSerializer(game).data), game.etag
            kept.remember_member(
                fence,
                request.user.pk,
                version,
                extra={key: kept.KeptAnswer(version, body)} if game.version == version else {},
                stream=stream if game.version == version else None,
            )
        else:
            kept.remember_member(fence, request.user.pk, version, stream=stream)
        return HttpResponse(body, content_type=JSONRenderer.media_type, headers={"ETag": etag})

    @extend_schema(
        request=GameUpdateSerializer,
        parameters=[IF_MATCH, etag_header(200)],
        responses={200: GameSerializer, **errors_for(400, 401, 403, 404, 412)},
    )
    @transaction.atomic
    def patch(self, request, pk):
        """A new name and whether it is casual, each a write of its own (If-Match: the version before both)."""
        game = game_to_write(request.user, pk)
        data = GameUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        expected = expected_version(request, pk)
        if "name" in data.validated_data:
            game = services.rename_game(
                game=game, name=data.validated_data["name"], expected_version=expected, by=request.user
            )
            expected = None  # checked
        if "night" in data.validated_data:
            game = nights.set_night(game=game, night=data.validated_data["night"], expected_version=expected)
            expected = None
        if "casual" in data.validated_data:
            services.set_casual(
                game=game, casual=data.validated_data["casual"], expected_version=expected, by=request.user
            )
        game = game_with_rounds(request.user, pk)
        return Response(GameSerializer(game).data, headers={"ETag": game.etag})

    @extend_schema(parameters=[IF_MATCH], responses={204: None, **errors_for(401, 403, 404, 412)})
    def delete(self, request, pk):
        game = game_to_write(request.user, pk)
        services.delete_game(game=game, expected_version=expected_version(request, pk), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameFinish(APIView):
    @extend_schema(
        request=None,
        parameters=[IF_MATCH, *IDEMPOTENT, etag_header(200)],
        responses={200: GameSerializer, **errors_for(401, 403, 404, 409, 412, 422)},
        description="The table stops early by agreement after the last recorded round: the game is over, ranked as "
        'it stands, and its `ended_because` is "agreed". A finished game (`"code": "game_finished"`) or one '
        'without rounds (`"code": "no_rounds"`): 409. Undoing its last round reopens it. A retry with the same '
        "Idempotency-Key replays the first answer.",
    )
    @idempotent
    def post(self, request, pk):
        game = game_to_write(request.user, pk)
        services.finish_game(game=game, expected_version=expected_version(request, pk), by=request.user)
        game = game_with_rounds(request.user, pk)
        return Response(GameSerializer(game).data, headers={"ETag": game.etag})


class ChangeSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    by = serializers.SerializerMethodField()
    action = serializers.ChoiceField(choices=[*history.GAME_ACTIONS, *history.ROUND_ACTIONS, *history.SEAT_ACTIONS])
    round = serializers.IntegerField(allow_null=True)
    before = serializers.JSONField(allow_null=True, help_text="The round (or name, or seat change undone) as it was.")
    after = serializers.JSONField(
        allow_null=True, help_text="The round (or name) as it became; for a seat change: player, replaces, after_round."
    )

    def get_by(self, change) -> UserRefSerializer(allow_null=True):
        return user_ref(change.by)


class GameHistory(APIView):
    pagination_class = generics.ListAPIView.pagination_class

    @extend_schema(
        responses={200: ChangeSerializer(many=True), **errors_for(401, 404)},
        description="Every change to the game, newest first: who, when, and the round (or name) before and after.",
    )
    def get(self, request, pk):
        game = get_object_or_404(Game.objects.for_user(request.user), pk=pk)
        return paginated(self, history.of_game(game), ChangeSerializer)
