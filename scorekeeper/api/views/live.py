"""The live wing's API: a game's or a night's live link made, read back, revoked (members), and what
it opens read without an account. One code path for both kinds; what differs is data (`KINDS`)."""

from dataclasses import dataclass

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.http import links
from scorekeeper.http.private import not_modified, unchanged
from scorekeeper.models import Game, LiveLink, NightLink
from scorekeeper.reads import live
from scorekeeper.selectors import game_to_write, night_for
from scorekeeper.services import live as sharing
from scorekeeper.services.common import require_scorer

from ..idempotency import idempotent
from ..serializers import LiveNightSerializer
from ..serializers.shapes import LiveGameSerializer
from .common import IDEMPOTENT, IF_NONE_MATCH, NOT_MODIFIED, RETRY_AFTER, ErrorSerializer, errors_for, etag_header


class ShareSerializer(serializers.Serializer):
    token = serializers.CharField()
    url = serializers.URLField()
    api_url = serializers.URLField()
    qr_svg_url = serializers.URLField()
    created_at = serializers.DateTimeField()


@dataclass(frozen=True)
class Kind:
    """What a kind of link opens, as its API needs it: the URLs it shares and the word for none."""

    page: str
    api: str
    qr: str
    none: str


KINDS = {
    LiveLink.KIND: Kind("live", "api:live", "live_qr", gettext_lazy("This game has no live link.")),
    NightLink.KIND: Kind("night_live", "api:night-live", "night_live_qr", gettext_lazy("This night has no live link.")),
}


def share_body(request, link) -> dict:
    kind, token = KINDS[link.KIND], {"token": link.token}
    return {
        "token": link.token,
        "url": request.build_absolute_uri(reverse(kind.page, kwargs=token)),
        "api_url": request.build_absolute_uri(reverse(kind.api, kwargs=token)),
        "qr_svg_url": request.build_absolute_uri(reverse(kind.qr, kwargs=token)),
        "created_at": link.created_at,
    }


def _opened(kind: str, user, pk, *, write: bool):
    """The game or night `pk` of `kind`, as `user` may read it or (`write`) change its link: by the
    same checks as the rest of the API (404 for another scorebook's, 403 for a viewer's write)."""
    if kind == LiveLink.KIND:
        return game_to_write(user, pk) if write else get_object_or_404(Game.objects.for_user(user), pk=pk)
    night = night_for(user, pk)
    if write:
        require_scorer(night.role)
    return night


class Share(APIView):
    """A game's or a night's (`kind`) live link: read-only, no account needed to open it; one each."""

    kind = LiveLink.KIND

    @extend_schema(responses={200: ShareSerializer, **errors_for(401, 404)})
    def get(self, request, pk):
        opened = _opened(self.kind, request.user, pk, write=False)
        link = live.KINDS[self.kind].objects.filter(**{self.kind: opened}).first()
        if link is None:
            raise Http404(KINDS[self.kind].none)
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
        opened = _opened(self.kind, request.user, pk, write=True)
        link = sharing.share(**{self.kind: opened}, by=request.user)
        return Response(ShareSerializer(share_body(request, link)).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None, **errors_for(401, 403, 404)})
    def delete(self, request, pk):
        if not sharing.revoke(**{self.kind: _opened(self.kind, request.user, pk, write=True)}):
            raise Http404(KINDS[self.kind].none)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameShare(Share):
    kind = LiveLink.KIND


class NightShare(Share):
    kind = NightLink.KIND


class LiveView(APIView):
    """What a live link opens (`kind`), through its token: no credentials; names and numbers only."""

    authentication_classes = []
    permission_classes = []
    kind = LiveLink.KIND

    def get(self, request, token):
        try:
            links.spend(request, token)
        except links.Throttled as refused:
            return Response(
                {"detail": str(refused), "code": "throttled"},
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(refused.wait)},
            )
        if (opened := live.open_link(token, self.kind)) is None:
            raise Http404(_("This live link does not exist or was revoked."))
        if unchanged(request, etag := opened.etag()):
            return not_modified(etag)
        body, etag = live.kept_body(opened, "json", lambda content: live.public(opened, content))
        return Response(body, headers={"ETag": etag, "Cache-Control": "no-cache", "X-Robots-Tag": "noindex"})


def _live_schema(body, description: str):
    return extend_schema_view(
        get=extend_schema(
            auth=[],
            parameters=[IF_NONE_MATCH, etag_header(200, 304), RETRY_AFTER],
            responses={
                200: OpenApiResponse(body, description=description),
                304: NOT_MODIFIED,
                404: OpenApiResponse(ErrorSerializer, description="Unknown, replaced or revoked link."),
                429: OpenApiResponse(
                    ErrorSerializer, description="Too many requests from this address: see Retry-After."
                ),
            },
        )
    )


@_live_schema(LiveGameSerializer, "The game, players by name only (as GET one game, less ids and emails).")
class LiveGameView(LiveView):
    kind = LiveLink.KIND


@_live_schema(LiveNightSerializer, "The night's tables and standings, names and numbers only.")
class LiveNightView(LiveView):
    kind = NightLink.KIND
