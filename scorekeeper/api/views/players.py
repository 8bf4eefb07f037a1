"""Players: list, create, read, rename, link to an account, archive, merge, delete."""

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper import services
from scorekeeper.models import Player

from ..idempotency import idempotent
from ..query import one_value
from ..serializers import PlayerLinkSerializer, PlayerSerializer
from ..serializers.players import PlayerArchivedSerializer, PlayerMergeSerializer, PlayerPatchSerializer
from .common import (
    IDEMPOTENT,
    SCOREBOOK_FILTER,
    ErrorSerializer,
    chosen_scorebook,
    errors_for,
    writable_scorebook,
)

LINK_REFUSED = OpenApiResponse(
    ErrorSerializer,
    description='`user`: "me" for a player linked to another account (`player_linked`), or while you are linked '
    "to another player of this scorebook (`already_linked`).",
)


ARCHIVED_FILTER = OpenApiParameter(
    "archived", bool, description="true: the archived players too (left out by default)."
)


class PlayerList(generics.ListCreateAPIView):
    serializer_class = PlayerSerializer

    def get_queryset(self):
        players = Player.objects.for_user(self.request.user).select_related("user")
        book = chosen_scorebook(self.request)
        players = players if book is None else players.filter(scorebook=book)
        if self.request.method == "GET" and not self._with_archived():
            players = players.active()
        return players

    def _with_archived(self) -> bool:
        value = one_value(self.request, "archived", "false")
        if value not in ("true", "false"):
            raise ValidationError({"archived": [_("Give true or false.")]})
        return value == "true"

    @extend_schema(
        parameters=[SCOREBOOK_FILTER, ARCHIVED_FILTER],
        responses={200: PlayerSerializer(many=True), **errors_for(400, 401, 404)},
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(parameters=IDEMPOTENT, responses={201: PlayerSerializer, **errors_for(400, 401, 403, 404, 409, 422)})
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


@extend_schema(responses={200: PlayerSerializer, **errors_for(400, 401, 403, 404)})
class PlayerDetail(generics.RetrieveUpdateDestroyAPIView):
    """PATCH `{"name"}` renames (owners and scorers); PATCH `{"user": "me" | null}` links the player
    to your own account or unlinks it (any member, for themselves)."""

    serializer_class = PlayerSerializer
    http_method_names = ["get", "patch", "delete", "head", "options"]

    def get_queryset(self):
        return Player.objects.with_role(self.request.user).select_related("user")

    @extend_schema(
        request=PlayerPatchSerializer,
        responses={200: PlayerSerializer, **errors_for(400, 401, 403, 404), 409: LINK_REFUSED},
    )
    def patch(self, request, *args, **kwargs):
        return super().patch(request, *args, **kwargs)

    @extend_schema(responses={204: None, **errors_for(401, 403, 404, 409)})
    def delete(self, request, *args, **kwargs):
        return super().delete(request, *args, **kwargs)

    def perform_destroy(self, player):
        services.require_scorer(player.role)
        services.delete_player(player=player)

    @transaction.atomic
    def perform_update(self, serializer):
        """Every check before any write: a viewer who links themselves and renames in one PATCH is
        refused (403) with the player left as it was."""
        player = serializer.instance
        renames = bool(set(serializer.validated_data) - {"scorebook_id"})
        archive = None
        if isinstance(self.request.data, dict) and "archived" in self.request.data:
            archive = PlayerArchivedSerializer(data={"archived": self.request.data["archived"]})
            archive.is_valid(raise_exception=True)
        if renames or archive is not None:
            services.require_scorer(player.role)
        if isinstance(self.request.data, dict) and "user" in self.request.data:
            link = PlayerLinkSerializer(data={"user": self.request.data["user"]})
            link.is_valid(raise_exception=True)
            services.link_player(
                player=player, user=self.request.user, role=player.role, me=link.validated_data["user"] == "me"
            )
        if renames:
            services.rename_player(player=player, name=serializer.validated_data["name"], by=self.request.user)
        if archive is not None:
            services.set_archived(
                player=player, archived=archive.validated_data["archived"], role=player.role, by=self.request.user
            )


class PlayerMerge(APIView):
    @extend_schema(
        request=PlayerMergeSerializer,
        parameters=IDEMPOTENT,
        responses={
            200: PlayerSerializer,
            **errors_for(400, 401, 403, 404, 422),
            409: OpenApiResponse(
                ErrorSerializer,
                description="Both sat in one game (`played_together`), or `into` was merged or deleted "
                "meanwhile (`player_gone`).",
            ),
        },
        description="Two names for one person made one: every seat, record and rating of the player moves to "
        "`into` (a player of the same scorebook), then the player is deleted; history notes it on every game "
        "moved. Answers with the player merged into. Two merges of the same players at once: one is made, the "
        "other answers 404 (the player is gone) or 409 (`player_gone`: the one to merge into is gone).",
    )
    @idempotent
    def post(self, request, pk):
        player = get_object_or_404(Player.objects.with_role(request.user), pk=pk)
        services.require_scorer(player.role)
        data = PlayerMergeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        into = services.merge_player(
            player=player, into_id=data.validated_data["into"], role=player.role, by=request.user
        )
        return Response(PlayerSerializer(Player.objects.select_related("user").get(pk=into.pk)).data)
