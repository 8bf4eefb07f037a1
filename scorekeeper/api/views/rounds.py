"""Rounds: record, read, correct, undo and bring back; each answer presents what the round command decided."""

from django.contrib import messages
from django.db.models import OuterRef, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper import services
from scorekeeper.http.private import not_modified, unchanged
from scorekeeper.models import Game, Round
from scorekeeper.selectors import game_to_write

from ..exceptions import PreconditionFailed
from ..idempotency import idempotent
from ..serializers import RoundCreateSerializer, RoundSerializer, RoundWriteSerializer
from .common import (
    GAME_IF_MATCH,
    IDEMPOTENT,
    IF_MATCH,
    IF_NONE_MATCH,
    NOT_MODIFIED,
    ROUND_CLASH,
    AnswersNotModified,
    RoundErrorsSerializer,
    errors_for,
    etag_header,
    expected_version,
    location_header,
    paginated,
)


def round_answer(request, submitted: services.Submitted, *, created: bool) -> Response:
    """The round command's answer as the API gives it (a page shows the same answer, views._save_round)."""
    match submitted:
        case services.Saved(round=round_):
            headers = {"ETag": round_.etag} | ({"Location": f"{request.path}{round_.number}/"} if created else {})
            return Response(RoundSerializer(round_).data, status=201 if created else 200, headers=headers)
        case services.NeedsConfirmation(surprises=surprises, key=key):
            body = {"detail": " ".join(surprises), "errors": [], "code": "confirmation_needed",
                    "surprises": list(surprises), "confirm": key}  # fmt: skip
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        case services.Clash(code="stale"):
            raise PreconditionFailed()  # only If-Match hands the command an expected version
        case services.Clash(code=code, message=message, theirs=theirs):
            body = {"detail": message, "code": code} | ({"round": RoundSerializer(theirs).data} if theirs else {})
            return Response(body, status=status.HTTP_409_CONFLICT)
        case services.Invalid():
            raise submitted.as_error()


class RoundList(APIView):
    pagination_class = generics.ListAPIView.pagination_class
    round_errors = ("POST",)  # a malformed round answers in RoundErrors' shape, like one that breaks a rule

    @extend_schema(responses={200: RoundSerializer(many=True), **errors_for(401, 404)})
    def get(self, request, pk):
        game = get_object_or_404(Game.objects.for_user(request.user), pk=pk)
        return paginated(self, game.rounds.in_order(), RoundSerializer)

    @extend_schema(
        request=RoundCreateSerializer,
        parameters=[GAME_IF_MATCH, *IDEMPOTENT, etag_header(201), location_header(201)],
        responses={
            201: RoundSerializer,
            400: RoundErrorsSerializer,
            409: ROUND_CLASH,
            **errors_for(401, 403, 404, 412, 422),
        },
        description="Record the next round. Send `number` (the round it was entered as) and `If-Match` (the "
        "game's ETag it was entered from), as the pages do: a number recorded meanwhile is a 409 `round_taken` "
        "with that round, a game changed meanwhile a 412; both optional. A retry with the same "
        "Idempotency-Key replays the first answer.",
    )
    @idempotent
    def post(self, request, pk):
        game = game_to_write(request.user, pk)
        data = RoundCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        submitted = services.submit_round(
            game=game,
            starting_double=data.validated_data["starting_double"],
            entries=data.entry_inputs(),
            confirm=data.validated_data["confirm"],
            expected_version=expected_version(request, pk),
            expected_number=data.validated_data.get("number"),
            by=request.user,
        )
        by_page = isinstance(request.successful_authenticator, SessionAuthentication)
        if isinstance(submitted, services.Saved) and by_page:
            # A page's round (its offline queue sends them here) leaves on the next page what its form would.
            messages.success(request._request, _("Recorded round {number}.").format(number=submitted.round.number))
        return round_answer(request, submitted, created=True)


def _round(user, game_pk, number, *, write=False):
    """A round of a game in the user's scorebooks (404 otherwise); for a write, 403 for a viewer.
    A write leaves its entries unread: the services lock the game, then read what they change."""
    if write:
        game = game_to_write(user, game_pk)
        round_ = get_object_or_404(game.rounds.only("pk", "game_id", "number"), number=number)
    else:
        game = get_object_or_404(Game.objects.for_user(user), pk=game_pk)
        round_ = get_object_or_404(game.rounds.in_order(), number=number)
    round_.game = game
    return round_


class RoundDetail(AnswersNotModified, APIView):
    """One round: read it (its ETag; 304 to If-None-Match), correct it (PUT), undo it (DELETE, the last one only)."""

    round_errors = ("PUT",)

    def version_of(self, pk, number, **kwargs):
        """The game's version, when the round is there and the user a member of its scorebook."""
        rounds = Round.objects.filter(game_id=pk, number=number, game__deleted_at__isnull=True)
        mine = rounds.filter(game__scorebook__memberships__user=OuterRef("pk")).order_by()
        return Subquery(mine.values("game__version")[:1])

    @extend_schema(
        parameters=[IF_NONE_MATCH, etag_header(200, 304)],
        responses={200: RoundSerializer, 304: NOT_MODIFIED, **errors_for(401, 404)},
    )
    def get(self, request, pk, number):
        if request.headers.get("If-None-Match"):
            version = self.current_version(
                request,
                lambda: Round.objects.filter(
                    game__in=Game.objects.for_user(request.user), game_id=pk, number=number
                ).values_list("game__version", flat=True),
            )
            if version is None:
                raise Http404(_("No such round in your scorebooks."))
            if unchanged(request, etag := Round.etag_of(pk, number, version)):
                return not_modified(etag)
        round_ = _round(request.user, pk, number)
        return Response(RoundSerializer(round_).data, headers={"ETag": round_.etag})

    @extend_schema(
        request=RoundWriteSerializer,
        parameters=[IF_MATCH, etag_header(200)],
        responses={
            200: RoundSerializer,
            400: RoundErrorsSerializer,
            409: ROUND_CLASH,
            **errors_for(401, 403, 404, 412),
        },
    )
    def put(self, request, pk, number):
        round_ = _round(request.user, pk, number, write=True)
        data = RoundWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        submitted = services.submit_round(
            game=round_.game,
            number=number,
            starting_double=data.validated_data["starting_double"],
            entries=data.entry_inputs(),
            confirm=data.validated_data["confirm"],
            expected_version=expected_version(request, pk, number),
            by=request.user,
        )
        return round_answer(request, submitted, created=False)

    @extend_schema(parameters=[IF_MATCH], responses={204: None, **errors_for(401, 403, 404, 409, 412)})
    def delete(self, request, pk, number):
        round_ = _round(request.user, pk, number, write=True)
        services.undo_last_round(
            game=round_.game,
            number=number,
            expected_version=expected_version(request, pk, number),
            by=request.user,
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundRestore(APIView):
    @extend_schema(
        request=None,
        parameters=[IF_MATCH, *IDEMPOTENT, etag_header(201), location_header(201)],
        responses={201: RoundSerializer, **errors_for(401, 403, 404, 409, 412, 422)},
        description="Bring back the last undone round, while no round was recorded since (otherwise 409). "
        "A retry with the same Idempotency-Key replays the first answer.",
    )
    @idempotent
    def post(self, request, pk):
        game = game_to_write(request.user, pk)
        round_ = services.restore_round(game=game, expected_version=expected_version(request, pk), by=request.user)
        location = request.path.replace("restore/", f"{round_.number}/")
        return Response(
            RoundSerializer(round_).data,
            status=status.HTTP_201_CREATED,
            headers={"ETag": round_.etag, "Location": location},
        )
