"""Turns domain errors into the status codes of the API contract (400, 409, 412, 422)."""

from django.db.models import ProtectedError, RestrictedError
from django.utils.translation import gettext, gettext_lazy
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import exception_handler

from scorekeeper.errors import Conflict, Forbidden, InvalidInput
from scorekeeper.rules.game import RULE_FIELDS

OPTION_FIELDS = set(RULE_FIELDS) - {"tile_set"}  # sent inside "rules"


class PreconditionFailed(APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = gettext_lazy(
        "The resource changed since you read it (If-Match does not match its ETag): read it again."
    )
    default_code = "precondition_failed"


class IdempotencyKeyReused(APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = gettext_lazy("This Idempotency-Key was already used with a different request body.")
    default_code = "idempotency_key_reused"


class RequestInProgress(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = gettext_lazy("A request with this Idempotency-Key is still being processed: retry in a moment.")
    default_code = "request_in_progress"


def handle(exc, context):
    if isinstance(exc, InvalidInput):
        return Response(_invalid_body(exc, context), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Forbidden):
        return Response({"detail": exc.message, "code": exc.code}, status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, Conflict):
        if exc.code != "stale":
            return Response({"detail": exc.message, "code": exc.code}, status=status.HTTP_409_CONFLICT)
        exc = PreconditionFailed()  # only If-Match hands the services an expected version
    if isinstance(exc, ProtectedError | RestrictedError):
        return Response(
            {"detail": gettext("It is still in use by a game."), "code": "in_use"}, status=status.HTTP_409_CONFLICT
        )
    response = exception_handler(exc, context)
    if response is not None and isinstance(exc, APIException) and isinstance(response.data, dict):
        codes = exc.get_codes()
        if "detail" in response.data and isinstance(codes, str):
            response.data["code"] = codes
    return response


def _invalid_body(exc: InvalidInput, context) -> dict:
    """Field errors in DRF's shape, plus for a round a list naming entry, player and rule."""
    if not exc.round_errors:
        body: dict = {}
        for field, messages in exc.errors.items():
            target = body.setdefault("rules", {}) if field in OPTION_FIELDS else body
            target[field] = messages
        return body
    request = context.get("request")
    sent = request.data.get("entries") if request is not None and hasattr(request.data, "get") else None
    sent = sent if isinstance(sent, list) else []
    index_of = {item.get("player"): i for i, item in enumerate(sent) if isinstance(item, dict)}
    body = {"detail": str(exc), "errors": []}
    per_entry: list[dict] = [{} for _ in sent]
    for error in exc.round_errors:
        entry = index_of.get(error.player) if error.player is not None else None
        if entry is not None:
            field = f"entries[{entry}].{error.field or 'player'}"
            per_entry[entry].setdefault(error.field or "player", []).append(error.message)
        elif error.field == "starting_double":
            field = "starting_double"
            body.setdefault("starting_double", []).append(error.message)
        else:
            field = "entries"
            body.setdefault("non_field_errors", []).append(error.message)
        body["errors"].append(
            {
                "field": field,
                "entry": entry,
                "player": error.player,
                "rule": error.rule,
                "code": error.code,
                "message": error.message,
            }
        )
    if any(per_entry):
        body["entries"] = per_entry
    return body
