"""Seats that change during a game: join or take over (POST), leave (DELETE), undo the last change."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper import services
from scorekeeper.models import Round
from scorekeeper.rules.seating import Change
from scorekeeper.selectors import game_to_write

from ..idempotency import idempotent
from ..serializers import GameSerializer, SeatChangeSerializer
from .common import IDEMPOTENT, IF_MATCH, errors_for, etag_header, expected_version


def _answer(game, code: int, writer) -> Response:
    """The game as the seat command left it (its seats in memory), its rounds and their entries
    read in one query (who recorded them is the writer, mostly)."""
    game.hold("rounds", Round.whole(game, known_users=[writer]))
    return Response(GameSerializer(game).data, status=code, headers={"ETag": game.etag})


class SeatList(APIView):
    @extend_schema(
        request=SeatChangeSerializer,
        parameters=[IF_MATCH, *IDEMPOTENT, etag_header(201)],
        responses={201: GameSerializer, **errors_for(400, 401, 403, 404, 409, 412, 422)},
        description="A player joins the table after the last recorded round (after the seated player `after`, "
        "default last), or with `replaces` takes over that player's seat and total. A joiner starts with what "
        "`join_total` says (highest, average or zero; default: the game's option); anything else is a 400 naming "
        "`join_total`. Before the first round, "
        "a join is an ordinary seat. A player already seated or who left this game, a finished game, an "
        "eleventh seated player or a player of another scorebook: 400 naming the field.",
    )
    @idempotent
    def post(self, request, pk):
        game = game_to_write(request.user, pk)
        data = SeatChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        replaces = data.validated_data["replaces"]
        game = services.change_seat(
            game=game,
            kind=Change.JOIN if replaces is None else Change.TAKE_OVER,
            player=data.validated_data["player"],
            replaces=replaces,
            sits_after=data.validated_data["after"],
            join_total=data.validated_data["join_total"],
            expected_version=expected_version(request, pk),
            by=request.user,
        )
        return _answer(game, status.HTTP_201_CREATED, request.user)


class SeatDetail(APIView):
    @extend_schema(
        parameters=[IF_MATCH, *IDEMPOTENT, etag_header(200)],
        responses={200: GameSerializer, **errors_for(400, 401, 403, 404, 409, 412, 422)},
        description="The player leaves after the last recorded round; their total stays and they are not ranked. "
        'Fewer than 2 players left seated: 409 ("code": "too_few_players"). With an Idempotency-Key, a retry '
        "after a lost answer gets the first answer again (a phone's queue sends it once).",
    )
    @idempotent
    def delete(self, request, pk, player):
        game = game_to_write(request.user, pk)
        game = services.change_seat(
            game=game, kind=Change.LEAVE, player=player, expected_version=expected_version(request, pk), by=request.user
        )
        return _answer(game, status.HTTP_200_OK, request.user)


class LastSeatChange(APIView):
    @extend_schema(
        parameters=[IF_MATCH, etag_header(200)],
        responses={200: GameSerializer, **errors_for(401, 403, 404, 409, 412)},
        description="Undo the last seat change while no round was recorded after it (else 409).",
    )
    def delete(self, request, pk):
        game = game_to_write(request.user, pk)
        game = services.undo_seat_change(game=game, expected_version=expected_version(request, pk), by=request.user)
        return _answer(game, status.HTTP_200_OK, request.user)
