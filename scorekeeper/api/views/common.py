"""What the API's views share: error bodies for the schema, conditional-request headers, pagination, and the objects a user may read or write."""

import re
from importlib import import_module

from allauth.headless import app_settings as headless_settings
from allauth.headless.tokens.strategies.sessions import SessionTokenStrategy
from django.conf import settings
from django.contrib import auth
from django.db.models import Prefetch
from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from scorekeeper import selectors, services
from scorekeeper.models import Round, Scorebook
from scorekeeper.reads import follow, stats
from scorekeeper.selectors import scorebook_for

from ..exceptions import PreconditionFailed
from ..query import one_value
from ..serializers import (
    RoundSerializer,
)

ETAG = re.compile(r'^(?:W/)?"game-([0-9]+)(?:-round-([0-9]+))?-v([0-9]+)"$')  # ASCII digits only


class ErrorSerializer(serializers.Serializer):
    """Why the request was refused, in words for a person (`detail`) and for a program (`code`)."""

    detail = serializers.CharField()
    code = serializers.CharField(help_text="not_found, not_authenticated, precondition_failed, ...")

    class Meta:
        ref_name = "Error"


class RoundErrorItemSerializer(serializers.Serializer):
    field = serializers.CharField()
    entry = serializers.IntegerField(allow_null=True)
    player = serializers.IntegerField(allow_null=True)
    rule = serializers.IntegerField(
        allow_null=True, help_text="The check's number on the rules page (/rules/); null for a malformed field."
    )
    code = serializers.CharField()
    message = serializers.CharField()


class RoundErrorsSerializer(serializers.Serializer):
    """A round that breaks a rule or is malformed: `detail` says all of it, `errors` each thing
    (field, entry, player, rule), and `starting_double`, `entries` (one object per entry sent, its
    fields' messages) and `non_field_errors` say it field by field where they apply. A legal but
    unusual round sent with `"confirm": false` comes back unsaved with `code` confirmation_needed,
    its `surprises` and the `confirm` key that saves it as it is (and no `errors`)."""

    detail = serializers.CharField()
    errors = RoundErrorItemSerializer(many=True)
    code = serializers.CharField(required=False, help_text="confirmation_needed: see `surprises`.")
    surprises = serializers.ListField(child=serializers.CharField(), required=False)
    confirm = serializers.CharField(required=False, help_text="Send the round again with this as `confirm`.")
    starting_double = serializers.ListField(child=serializers.CharField(), required=False)
    number = serializers.ListField(child=serializers.CharField(), required=False)
    entries = serializers.ListField(
        child=serializers.DictField(child=serializers.ListField(child=serializers.CharField())), required=False
    )
    non_field_errors = serializers.ListField(child=serializers.CharField(), required=False)

    class Meta:
        ref_name = "RoundErrors"


class RoundClashSerializer(ErrorSerializer):
    """The round clashes with the game as it is now; `round`: the round that holds its double or
    its `number` (saved meanwhile by another phone: `round_taken`), or the round being corrected as
    it is now."""

    round = RoundSerializer(required=False)

    class Meta:
        ref_name = "RoundClash"


ROUND_CLASH = OpenApiResponse(RoundClashSerializer, description="Conflicts with the game's state.")


def errors_for(*codes: int) -> dict:
    described = {
        400: OpenApiResponse(description="The request is wrong; the answer names the field (typed by a hook)."),
        401: OpenApiResponse(ErrorSerializer, description="No or bad credentials."),
        403: OpenApiResponse(ErrorSerializer, description="Your role in the scorebook does not allow this."),
        404: OpenApiResponse(ErrorSerializer, description="No such object in your scorebooks."),
        409: OpenApiResponse(ErrorSerializer, description="Conflicts with the game's state."),
        412: OpenApiResponse(ErrorSerializer, description="If-Match does not match the current ETag."),
        422: OpenApiResponse(ErrorSerializer, description="Idempotency-Key reused with a different body."),
        413: OpenApiResponse(
            ErrorSerializer, description="Over the import's or export's limits; the answer says them."
        ),
        429: OpenApiResponse(
            ErrorSerializer, description="Another import or export of yours is under way: try again after Retry-After."
        ),
    }
    return {code: described[code] for code in codes}


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": 255},
    OpenApiParameter.HEADER,
    description="Retry safely: the same key with the same body, within 24 hours, answers the first answer again "
    "(Idempotent-Replayed: true); with another body, 422. Empty or over 255 characters: 400.",
)


IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    description="The ETag read before: nothing changes (412) unless it is still current. An empty one matches "
    'nothing (412); "*" matches anything.',
)


GAME_IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    description="The game's ETag the round was entered from (optional): 412 and nothing saved when the game "
    'changed since. An empty or malformed one matches nothing (412); "*" matches anything.',
)


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", str, OpenApiParameter.HEADER, description="ETag read before: 304 with no body if unchanged."
)


def etag_header(*codes: int) -> OpenApiParameter:
    return OpenApiParameter(
        "ETag",
        str,
        OpenApiParameter.HEADER,
        response=list(codes),
        required=True,
        description="The version of what the answer shows: send it back as If-Match or If-None-Match.",
    )


def location_header(*codes: int) -> OpenApiParameter:
    return OpenApiParameter(
        "Location",
        str,
        OpenApiParameter.HEADER,
        response=list(codes),
        required=True,
        description="The path of what was made.",
    )


REPLAYED = OpenApiParameter(
    "Idempotent-Replayed",
    {"type": "string", "enum": ["true"]},
    OpenApiParameter.HEADER,
    response=True,
    description="Sent (true) when this is the first answer to this Idempotency-Key, given again.",
)


RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    {"type": "integer", "minimum": 0},
    OpenApiParameter.HEADER,
    response=[429],
    required=True,
    description="Seconds to wait before trying again.",
)


IDEMPOTENT = [IDEMPOTENCY_KEY, REPLAYED]  # the headers of a POST that honours Idempotency-Key


NOT_MODIFIED = OpenApiResponse(description="Not modified: the ETag sent in If-None-Match is still current.")


class AnswersNotModified:
    """For an APIView whose GET answers 304 to its current ETag (and, the game, its body from the
    cache): at most two queries, the session (a browser's, or an app's session token's; none when
    sessions are in Redis) and its user read together with the version the ETag is made of (`version_of`, an annotation of the user; None when the user may not read it).
    Anything unusual (no session, an old password hash, another backend) takes DRF's own
    authentication, and the view reads the version with one query more."""

    def version_of(self, **kwargs):
        """The version as an annotation of the user: a follow.Stage annotating `etag_version` (its
        query compiled once), or an expression."""
        raise NotImplementedError

    def fence_of(self, session_key: str | None, **kwargs):
        """What the view will remember for the polls (caches.kept.Fence), read before the database
        is asked; None for a view whose answers no poll takes from the cache."""
        return None

    def initial(self, request, *args, **kwargs):
        if request.method == "GET":
            token = request.headers.get("X-Session-Token")
            cookie = request._request.COOKIES.get(settings.SESSION_COOKIE_NAME)
            # Also on Django's request: a stream's start remembers its own entry under it (api.views.events).
            request.fence = request._request.fence = self.fence_of(token or cookie, **kwargs)
            session = token_session(token) if token else request._request.session
            version = self.version_of(**kwargs)  # a follow.Stage annotating etag_version, or the expression
            stage = version if isinstance(version, follow.Stage) else {"etag_version": version}
            user = session and follow.from_session(session, [stage], request.fence)
            if user:
                request.user, request.auth = user, session if token else None  # DRF authenticates no more
        super().initial(request, *args, **kwargs)

    def current_version(self, request, versions) -> int | None:
        """The version read with the user, or else the first of `versions()` (a queryset of it,
        made only when it is needed: making one costs more than the query)."""
        if hasattr(request.user, "etag_version"):
            return request.user.etag_version
        return versions().first()


def session_of(request) -> str | None:
    """The key of the session a request is signed in with: an app's token, or a browser's cookie."""
    return request.headers.get("X-Session-Token") or request._request.session.session_key


def token_session(token: str):
    """The session an app's token names (allauth's session strategy: the token is the session key),
    loaded with one query; None when there is none, or it expired. Its strategy's own lookup asks
    whether the session exists first, a query more."""
    if not isinstance(headless_settings.TOKEN_STRATEGY, SessionTokenStrategy):
        return headless_settings.TOKEN_STRATEGY.lookup_session(token)
    session = import_module(settings.SESSION_ENGINE).SessionStore(token)
    session.get(auth.SESSION_KEY)  # loads it: a missing or expired session forgets its key
    return session if session.session_key else None


def expected_version(request, game_id: int, round_number: int | None = None) -> int | None:
    """The game version an If-Match header asks for; None without one (or with *)."""
    header = request.headers.get("If-Match")
    if header is None:
        return None
    tags = parse_etags(header)
    if "*" in tags:
        return None
    for tag in tags:
        match = ETAG.match(tag)
        if match and int(match[1]) == game_id and (int(match[2]) if match[2] else None) == round_number:
            return int(match[3])
    raise PreconditionFailed()


def paginated(view, items, serializer_class) -> Response:
    paginator = view.pagination_class()
    page = paginator.paginate_queryset(items, view.request, view=view)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


SCOREBOOK_FILTER = OpenApiParameter(
    "scorebook",
    {"type": "integer", "minimum": 1, "maximum": 2**53},
    description="Only this scorebook (404 unless you are a member); without it, all of yours.",
)


def chosen_scorebook(request) -> Scorebook | None:
    """`?scorebook=` as one of the user's scorebooks (404 for any other), or None when absent; not an
    id as the schema has it (a whole number from 1 to 2**53), or sent twice: 400 naming it."""
    raw = one_value(request, "scorebook")
    if raw is None:
        return None
    try:
        pk = serializers.IntegerField(min_value=1, max_value=2**53).run_validation(raw)
    except ValidationError as error:
        raise ValidationError({"scorebook": error.detail}) from None
    return scorebook_for(request.user, pk)


def writable_scorebook(request, pk) -> Scorebook:
    """The scorebook a new player or game goes into: the one named, or the personal one; only
    owners and scorers write."""
    book = scorebook_for(request.user, Scorebook.personal_for(request.user).pk if pk is None else pk)
    services.require_scorer(book.role)
    return book


def games_for(user):
    """The API's order of a user's games: newest first."""
    return selectors.games_for(user).order_by("-created_at", "-id")


def game_with_rounds(user, pk):
    """One game as its answer shows it: rounds prefetched, whether its ratings are updating read with it."""
    rounds = Prefetch("rounds", Round.objects.in_order())
    games = games_for(user).prefetch_related(rounds).annotate(ratings_updating=stats.ratings_updating())
    return get_object_or_404(games, pk=pk)


@csrf_exempt  # nothing happens here, and the answer must be JSON whatever the method
def not_found(request, *args, **kwargs):
    """Any other path under /api/v1/ answers in JSON, as the API does, not with an HTML page."""
    return JsonResponse({"detail": _("Not found."), "code": "not_found"}, status=404)
