"""The odds of a table about to play: each chosen player's chance to win, from the current ratings."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.models import Player, Scorebook
from scorekeeper.reads import story

from ..query import one_each
from ..serializers.story import OddsQuerySerializer, OddsSerializer, odds_data
from .common import errors_for


class Odds(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("scorebook", int, required=True, description="The scorebook the players belong to."),
            OpenApiParameter("players", str, required=True, description="2 to 10 player ids, comma separated: 3,1,2."),
        ],
        responses={200: OddsSerializer, **errors_for(400, 401)},
        description="Each player's chance to win a game of them all, from their current ratings (OpenSkill's "
        "predict_win; a player not rated yet counts at the starting rating), in the order asked; the chances "
        "add up to 1. A scorebook that is not one of yours, or players not of it: 400 naming `scorebook` or "
        "`players` (a scorebook or player you cannot see is answered as one that does not exist).",
    )
    def get(self, request):
        query = OddsQuerySerializer(data=one_each(request, ["scorebook", "players"]))
        query.is_valid(raise_exception=True)
        book = Scorebook.objects.for_user(request.user).filter(pk=query.validated_data["scorebook"]).first()
        if book is None:
            raise ValidationError({"scorebook": [_("No such scorebook among yours.")]})
        wanted = query.validated_data["players"]
        found = Player.objects.filter(scorebook=book, pk__in=wanted).only("pk", "name", "rating_mu", "rating_sigma")
        players = {player.pk: player for player in found}
        if missing := [pk for pk in wanted if pk not in players]:
            raise ValidationError(
                {"players": [_("No such player in this scorebook: {ids}.").format(ids=", ".join(map(str, missing)))]}
            )
        return Response(odds_data(story.win_chances([players[pk] for pk in wanted])))
