"""Seasons of a scorebook and their tables (owners write, every member reads)."""

from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.models import Season
from scorekeeper.reads import seasons as reads
from scorekeeper.selectors import scorebook_for, season_for
from scorekeeper.services import seasons

from ..idempotency import idempotent
from ..serializers import SeasonDetailSerializer, SeasonSerializer, season_detail
from .common import IDEMPOTENT, errors_for, location_header, paginated


class SeasonList(APIView):
    pagination_class = generics.ListAPIView.pagination_class

    @extend_schema(responses={200: SeasonSerializer(many=True), **errors_for(401, 404)})
    def get(self, request, pk):
        book = scorebook_for(request.user, pk)
        return paginated(self, Season.objects.filter(scorebook=book), SeasonSerializer)

    @extend_schema(
        request=SeasonSerializer,
        parameters=[*IDEMPOTENT, location_header(201)],
        responses={201: SeasonDetailSerializer, **errors_for(400, 401, 403, 404, 409, 422)},
        description="A new season (owners). Two seasons of one scorebook never overlap (400 naming `starts`); "
        "`ends` before `starts`: 400 naming `ends`.",
    )
    @idempotent
    def post(self, request, pk):
        book = scorebook_for(request.user, pk)
        data = SeasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = seasons.create_season(book=book, role=book.role, **data.validated_data)
        return Response(
            season_detail(reads.table(season)),
            status=status.HTTP_201_CREATED,
            headers={"Location": f"/api/v1/seasons/{season.pk}/"},
        )


class SeasonDetail(APIView):
    @extend_schema(responses={200: SeasonDetailSerializer, **errors_for(401, 404)})
    def get(self, request, pk):
        return Response(season_detail(reads.table(season_for(request.user, pk))))

    @extend_schema(
        request=SeasonSerializer(partial=True),
        responses={200: SeasonDetailSerializer, **errors_for(400, 401, 403, 404)},
        description="Change any of the season's fields (owners); the same checks as a new one.",
    )
    def patch(self, request, pk):
        season = season_for(request.user, pk)
        data = SeasonSerializer(season, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        seasons.update_season(season=season, role=season.role, **data.validated_data)
        return Response(season_detail(reads.table(season)))

    @extend_schema(responses={204: None, **errors_for(401, 403, 404)})
    def delete(self, request, pk):
        season = season_for(request.user, pk)
        seasons.delete_season(season=season, role=season.role)
        return Response(status=status.HTTP_204_NO_CONTENT)
