"""Club nights of a scorebook, their tables and standings, and their live links (scorers write,
every member reads; the live link needs no account)."""

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.caches import kept
from scorekeeper.http import links
from scorekeeper.http.private import not_modified, unchanged
from scorekeeper.models import Night, NightLink
from scorekeeper.reads import nights as reads
from scorekeeper.selectors import night_for, scorebook_for
from scorekeeper.services import nights
from scorekeeper.services.common import require_scorer

from ..idempotency import idempotent
from ..serializers import LiveNightSerializer, NightDetailSerializer, NightSerializer, night_detail
from .common import (
    IDEMPOTENT,
    IF_NONE_MATCH,
    NOT_MODIFIED,
    RETRY_AFTER,
    ErrorSerializer,
    errors_for,
    etag_header,
    location_header,
    paginated,
    session_of,
)
from .live import ShareSerializer


class NightList(APIView):
    pagination_class = generics.ListAPIView.pagination_class

    @extend_schema(responses={200: NightSerializer(many=True), **errors_for(401, 404)})
    def get(self, request, pk):
        book = scorebook_for(request.user, pk)
        return paginated(self, Night.objects.filter(scorebook=book), NightSerializer)

    @extend_schema(
        request=NightSerializer,
        parameters=[*IDEMPOTENT, location_header(201)],
        responses={201: NightDetailSerializer, **errors_for(400, 401, 403, 404, 409, 422)},
        description="A new club night (scorers): its games are the tables played that evening.",
    )
    @idempotent
    def post(self, request, pk):
        book = scorebook_for(request.user, pk)
        require_scorer(book.role)
        data = NightSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        night = nights.create_night(book=book, role=book.role, **data.validated_data)
        return Response(
            night_detail(reads.read(night)),
            status=status.HTTP_201_CREATED,
            headers={"Location": f"/api/v1/nights/{night.pk}/"},
        )


class NightDetail(APIView):
    @extend_schema(
        parameters=[IF_NONE_MATCH, etag_header(200, 304)],
        responses={200: NightDetailSerializer, 304: NOT_MODIFIED, **errors_for(401, 404)},
        description="The night's tables (who leads each, the round it is on) and its standings: place points "
        "summed over its finished games, then the lower summed total; equal ones share a rank.",
    )
    def get(self, request, pk):
        # The stamps the polls' entry is written under, read before the database is asked.
        fence = kept.night_fence(night=pk, session=session_of(request))
        night = night_for(request.user, pk)
        games = reads.games_of(pk)  # the versions first: one query for a 304, or a body kept at them
        part = reads.fingerprint(night, games)
        kept.remember_night(fence, request.user.pk, tuple(game[0] for game in games), part)
        if unchanged(request, etag := reads.member_etag(pk, part)):
            return not_modified(etag)
        body, part = reads.kept_body("api", etag, part, night, night_detail)
        return Response(body, headers={"ETag": reads.member_etag(pk, part)})

    @extend_schema(
        request=NightSerializer(partial=True),
        responses={200: NightDetailSerializer, **errors_for(400, 401, 403, 404)},
        description="Rename the night or move it to another day (scorers).",
    )
    def patch(self, request, pk):
        night = night_for(request.user, pk)
        require_scorer(night.role)
        data = NightSerializer(night, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        nights.update_night(night=night, role=night.role, **data.validated_data)
        read = reads.read(night)
        return Response(night_detail(read), headers={"ETag": reads.member_etag(pk, read.part)})

    @extend_schema(
        responses={204: None, **errors_for(401, 403, 404)},
        description="The night goes (scorers); its games stay, in no night.",
    )
    def delete(self, request, pk):
        night = night_for(request.user, pk)
        nights.delete_night(night=night, role=night.role)
        return Response(status=status.HTTP_204_NO_CONTENT)


def share_body(request, link: NightLink) -> dict:
    from django.urls import reverse

    return {
        "token": link.token,
        "url": request.build_absolute_uri(reverse("night_live", kwargs={"token": link.token})),
        "api_url": request.build_absolute_uri(reverse("api:night-live", kwargs={"token": link.token})),
        "qr_svg_url": request.build_absolute_uri(reverse("night_live_qr", kwargs={"token": link.token})),
        "created_at": link.created_at,
    }


def _night_to_write(user, pk) -> Night:
    night = night_for(user, pk)
    require_scorer(night.role)
    return night


class NightShare(APIView):
    """The night's live link: read-only, no account needed to open it; one per night."""

    @extend_schema(responses={200: ShareSerializer, **errors_for(401, 404)})
    def get(self, request, pk):
        link = NightLink.objects.filter(night=night_for(request.user, pk)).first()
        if link is None:
            raise Http404(_("This night has no live link."))
        return Response(ShareSerializer(share_body(request, link)).data)

    @extend_schema(
        request=None,
        parameters=IDEMPOTENT,
        responses={201: ShareSerializer, **errors_for(401, 403, 404, 409, 422)},
        description="Make the night's live link, or replace it: the old token stops working at once.",
    )
    @idempotent
    def post(self, request, pk):
        link = nights.share(night=_night_to_write(request.user, pk), by=request.user)
        return Response(ShareSerializer(share_body(request, link)).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None, **errors_for(401, 403, 404)})
    def delete(self, request, pk):
        if not nights.revoke(night=_night_to_write(request.user, pk)):
            raise Http404(_("This night has no live link."))
        return Response(status=status.HTTP_204_NO_CONTENT)


class LiveNightView(APIView):
    """A night through its live link: no credentials; names and numbers only."""

    authentication_classes = []
    permission_classes = []

    @extend_schema(
        auth=[],
        parameters=[IF_NONE_MATCH, etag_header(200, 304), RETRY_AFTER],
        responses={
            200: LiveNightSerializer,
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
        if (opened := reads.open_link(token)) is None:
            raise Http404(_("This live link does not exist or was revoked."))
        link, part = opened
        etag = reads.link_etag(link.selector, part)
        if unchanged(request, etag):
            return not_modified(etag)
        body, part = reads.kept_body("live-json", etag, part, link.night, reads.public)
        etag = reads.link_etag(link.selector, part)
        return Response(body, headers={"ETag": etag, "Cache-Control": "no-cache", "X-Robots-Tag": "noindex"})
