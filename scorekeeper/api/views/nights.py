"""Club nights of a scorebook, their tables and standings (scorers write, every member reads; a
night's live link is the live wing's: api.views.live)."""

from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.caches import kept
from scorekeeper.http.private import not_modified, unchanged
from scorekeeper.models import Night
from scorekeeper.reads import nights as reads
from scorekeeper.selectors import night_for, scorebook_for
from scorekeeper.services import nights
from scorekeeper.services.common import require_scorer

from ..idempotency import idempotent
from ..serializers import NightDetailSerializer, NightSerializer, night_detail
from .common import (
    IDEMPOTENT,
    IF_NONE_MATCH,
    NOT_MODIFIED,
    errors_for,
    etag_header,
    location_header,
    paginated,
    session_of,
)


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
        fence = kept.fence(night=pk, session=session_of(request))
        night = night_for(request.user, pk)
        games = reads.games_of(pk)  # the versions first: one query for a 304, or a body kept at them
        part = reads.fingerprint(night, games)
        kept.remember_member(fence, request.user.pk, part, games=tuple(game[0] for game in games))
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
