"""The live link: sharing a game and reading it without an account."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.http import links
from scorekeeper.http.private import not_modified, unchanged
from scorekeeper.models import Game
from scorekeeper.reads import live
from scorekeeper.selectors import game_to_write
from scorekeeper.services import live as sharing

from ..idempotency import idempotent
from ..serializers.shapes import LiveGameSerializer
from .common import (
    IDEMPOTENT,
    IF_NONE_MATCH,
    NOT_MODIFIED,
    RETRY_AFTER,
    ErrorSerializer,
    errors_for,
    etag_header,
)


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

    @extend_schema(responses={200: ShareSerializer, **errors_for(401, 404)})
    def get(self, request, pk):
        game = get_object_or_404(Game.objects.for_user(request.user).select_related("live_link"), pk=pk)
        link = getattr(game, "live_link", None)
        if link is None:
            raise Http404(_("This game has no live link."))
        return Response(ShareSerializer(share_body(request, link)).data)

    @extend_schema(
        request=None,
        parameters=IDEMPOTENT,
        responses={201: ShareSerializer, **errors_for(401, 403, 404, 409, 422)},
        description="Make the live link, or replace it: the old token stops working at once. A retry with the "
        "same Idempotency-Key answers the same token again (it does not replace it).",
    )
    @idempotent
    def post(self, request, pk):
        link = sharing.share(game=game_to_write(request.user, pk), by=request.user)
        return Response(ShareSerializer(share_body(request, link)).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None, **errors_for(401, 403, 404)})
    def delete(self, request, pk):
        if not sharing.revoke(game=game_to_write(request.user, pk)):
            raise Http404(_("This game has no live link."))
        return Response(status=status.HTTP_204_NO_CONTENT)


class LiveView(APIView):
    """A game through its live link: no credentials; names and scores only."""

    authentication_classes = []
    permission_classes = []

    @extend_schema(
        auth=[],
        parameters=[IF_NONE_MATCH, etag_header(200, 304), RETRY_AFTER],
        responses={
            200: OpenApiResponse(
                LiveGameSerializer, description="The game, players by name only (as GET one game, less ids and emails)."
            ),
            304: NOT_MODIFIED,
            404: OpenApiResponse(ErrorSerializer, description="Unknown, replaced or revoked link."),
            429: OpenApiResponse(ErrorSerializer, description="Too many requests from this address: see Retry-After."),
        },
    )
    def get(self, request, token):
        try:
            links.spend(request, token)
        except links.Throttled as refused:
            return Response(
                {"detail": str(refused), "code": "throttled"},
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(refused.wait)},
            )
        if (link := live.open_link(token)) is None:
            raise Http404(_("This live link does not exist or was revoked."))
        etag = link.etag(link.game.version)
        if unchanged(request, etag):
            return not_modified(etag)
        body = live.shared("json", etag, lambda: live.public(live.sheet_of(link)))
        return Response(body, headers={"ETag": etag, "Cache-Control": "no-cache", "X-Robots-Tag": "noindex"})
