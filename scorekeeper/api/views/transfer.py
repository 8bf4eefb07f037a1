"""Export and import."""

from django.conf import settings
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper import transfer
from scorekeeper.models import Game

from ..idempotency import idempotent
from ..query import one_value
from ..serializers.shapes import ExportSerializer
from .common import (
    IDEMPOTENT,
    RETRY_AFTER,
    SCOREBOOK_FILTER,
    chosen_scorebook,
    errors_for,
    writable_scorebook,
)


class FormatIsOurs(DefaultContentNegotiation):
    """On the export routes `?format=` names the file's format, not one of DRF's renderers."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


EXPORT_FORMAT = OpenApiParameter("format", str, enum=["json", "csv"], description="json (default) or csv.")


EXPORTED = {
    (200, "application/json"): OpenApiResponse(ExportSerializer, description="The games as a JSON document."),
    (200, "text/csv"): OpenApiResponse(
        OpenApiTypes.STR,
        description='JSON: {"format": "chicken-foot-scorekeeper", "version": 2, "games": [...]} with players by name '
        "and each game's seat changes (version 1 files, without them, still import); CSV (UTF-8 with a byte-order mark): one row per entry (game, date, tile_set, round, starting_double, player, "
        "pips, tiles, penalty, score, went_out), for the rounds each player sat in; a name that a spreadsheet would run as a formula (it begins with "
        "=, +, -, @, a tab or a carriage return) starts with a single quote.",
    ),
}
EXPORT_HEADERS = [
    RETRY_AFTER,
    OpenApiParameter(
        "Content-Disposition",
        str,
        OpenApiParameter.HEADER,
        response=[200],
        required=True,
        description="attachment, with the file's name.",
    ),
]


def busy_answer(busy: transfer.Busy) -> Response:
    return Response(
        {"detail": str(busy), "code": "transfer_busy"}, status=429, headers={"Retry-After": str(busy.retry_after)}
    )


def exported(request, games, filename: str):
    """The games as the export format asks: a JSON body, or a CSV file."""
    chosen = one_value(request, "format", "json")
    if chosen not in ("json", "csv"):
        raise ValidationError({"format": [_('Choose "json" or "csv".')]})
    try:
        with transfer.one_at_a_time(request.user):
            games = list(transfer.bounded_export(games))
    except transfer.ExportTooBig as too_big:
        return Response({"detail": str(too_big), "code": "export_too_large"}, status=413)
    except transfer.Busy as busy:
        return busy_answer(busy)
    if chosen == "json":
        return Response(
            transfer.as_json(games), headers={"Content-Disposition": f'attachment; filename="{filename}.json"'}
        )
    response = HttpResponse(transfer.as_csv(games), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


class GameExport(APIView):
    content_negotiation_class = FormatIsOurs

    @extend_schema(
        parameters=[EXPORT_FORMAT, *EXPORT_HEADERS], responses={**EXPORTED, **errors_for(400, 401, 404, 429)}
    )
    def get(self, request, pk):
        games = Game.objects.for_user(request.user).filter(pk=pk)
        if not games.exists():
            raise Http404(_("No such game in your scorebooks."))
        return exported(request, games, f"game-{pk}")


class Export(APIView):
    content_negotiation_class = FormatIsOurs

    @extend_schema(
        parameters=[EXPORT_FORMAT, SCOREBOOK_FILTER, *EXPORT_HEADERS],
        responses={**EXPORTED, **errors_for(400, 401, 404, 413, 429)},
        description="Every game you can see (or one scorebook's): at most 1,000 games a download "
        "(settings EXPORT_MAX_GAMES); more is a 413 (code export_too_large). One import or export per "
        "account at a time: 429 with Retry-After while another is under way.",
    )
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
        request=ExportSerializer,
        parameters=[
            OpenApiParameter(
                "scorebook",
                {"type": "integer", "minimum": 1, "maximum": 2**53},
                description="Into this scorebook (default: your personal one).",
            ),
            *IDEMPOTENT,
        ],
        responses={
            201: ImportedSerializer,
            200: ImportedSerializer,
            **errors_for(400, 401, 403, 404, 409, 413, 422, 429),
        },
        description="An export's JSON: every round checked as if entered, all or nothing. Games already in the "
        "scorebook (same uid) are skipped: importing a file twice creates nothing the second time (200). "
        "At most 1,000 games, 40,000 round scores and 5 MB (settings IMPORT_MAX_GAMES, IMPORT_MAX_ENTRIES, "
        "IMPORT_MAX_BYTES): more is a 413 "
        "(code import_too_large); `manage.py import_games` imports any size.",
    )
    @idempotent
    def post(self, request):
        chosen = chosen_scorebook(request)
        book = writable_scorebook(request, None if chosen is None else chosen.pk)
        try:
            with transfer.one_at_a_time(request.user):
                result = transfer.import_games(
                    data=request.data, scorebook=book, by=request.user, max_games=settings.IMPORT_MAX_GAMES
                )
        except transfer.TooBig as too_big:
            return Response({"detail": str(too_big), "code": "import_too_large"}, status=413)
        except transfer.Busy as busy:
            return busy_answer(busy)
        body = ImportedSerializer(result).data
        return Response(body, status=status.HTTP_201_CREATED if result.games else status.HTTP_200_OK)
