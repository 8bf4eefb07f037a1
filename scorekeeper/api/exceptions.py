"""Turns domain errors into the status codes of the API contract (400, 404, 409, 412, 422)."""

from django.db.models import ProtectedError, RestrictedError
from django.utils.translation import gettext, gettext_lazy
from rest_framework import status
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler

from scorekeeper.errors import Conflict, Forbidden, Gone, InvalidInput
from scorekeeper.rules.game import RULE_FIELDS

OPTION_FIELDS = set(RULE_FIELDS) - {"tile_set"}  # sent inside "rules"
CODE_OF_STATUS = {403: "permission_denied", 404: "not_found"}


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
    if isinstance(exc, Gone):
        return Response({"detail": exc.message, "code": exc.code}, status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, Conflict):
        if exc.code != "stale":
            return Response({"detail": exc.message, "code": exc.code}, status=status.HTTP_409_CONFLICT)
        exc = PreconditionFailed()  # only If-Match hands the services an expected version
    if isinstance(exc, ProtectedError | RestrictedError):
        return Response(
            {"detail": gettext("It is still in use by a game."), "code": "in_use"}, status=status.HTTP_409_CONFLICT
        )
    response = exception_handler(exc, context)
    view, request = context.get("view"), context.get("request")
    if isinstance(exc, ValidationError) and request is not None and request.method in getattr(view, "round_errors", ()):
        response.data = round_errors_of(response.data, context)  # a round's 400 has one shape, whatever broke
    elif response is not None and isinstance(response.data, dict) and "detail" in response.data:
        # Every Error body carries its code (the schema requires it), Django's Http404 and PermissionDenied too.
        codes = exc.get_codes() if isinstance(exc, APIException) else None
        response.data["code"] = codes if isinstance(codes, str) else CODE_OF_STATUS.get(response.status_code, "error")
    return response


def _invalid_body(exc: InvalidInput, context) -> dict:
    """Field errors in DRF's shape, plus for a round a list naming entry, player and rule."""
    if not exc.round_errors:
        view, request = context.get("view"), context.get("request")
        if request is not None and request.method in getattr(view, "round_errors", ()):
            return round_errors_of(exc.errors, context)  # a round's 400 has one shape (`number` ahead, say)
        body: dict = {}
        sent = request.data if request is not None and isinstance(getattr(request, "data", None), dict) else {}
        for field, messages in exc.errors.items():
            # An option is named inside "rules", unless the body sent it at its top (a seat's join_total).
            target = body.setdefault("rules", {}) if field in OPTION_FIELDS and field not in sent else body
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


def _messages(detail) -> list:
    """Every message in a piece of DRF's error tree, with its code, in order."""
    if isinstance(detail, dict):
        return [item for value in detail.values() for item in _messages(value)]
    if isinstance(detail, list):
        return [item for value in detail for item in _messages(value)]
    return [(str(detail), getattr(detail, "code", "invalid"))]


def round_errors_of(detail, context) -> dict:
    """A round's malformed body (DRF's {field: [messages]}) in the shape of a round that breaks a
    rule: `detail`, `errors` naming field, entry and player (no rule), and the per-field keys
    `starting_double`, `number`, `entries` (one object per entry sent) and `non_field_errors`."""
    request = context.get("request")
    sent = request.data.get("entries") if request is not None and hasattr(request.data, "get") else None
    sent = sent if isinstance(sent, list) else []
    body: dict = {"detail": "", "errors": []}

    def note(field, entry, message, code):
        player = sent[entry].get("player") if entry is not None and isinstance(sent[entry], dict) else None
        player = player if isinstance(player, int) and not isinstance(player, bool) else None
        body["errors"].append(
            {"field": field, "entry": entry, "player": player, "rule": None, "code": code, "message": message}
        )

    for field, value in detail.items() if isinstance(detail, dict) else [("non_field_errors", detail)]:
        by_entry = _by_entry(value, len(sent)) if field == "entries" else None
        if by_entry is not None:
            per_entry: list[dict] = [{} for _ in sent]
            for index, errors in by_entry.items():
                for name, messages in errors.items():
                    for message, code in _messages(messages):
                        per_entry[index].setdefault(name, []).append(message)
                        note(f"entries[{index}].{name}", index, message, code)
            body["entries"] = per_entry
            continue
        key = field if field in ("starting_double", "number") else "non_field_errors"
        for message, code in _messages(value):
            body.setdefault(key, []).append(message)
            note(field if field != "non_field_errors" else "body", None, message, code)
    body["detail"] = " ".join(error["message"] for error in body["errors"])
    return body


def _by_entry(value, count: int) -> dict | None:
    """DRF's errors of a list of entries as {index: {field: messages}} (it gives a list with one
    item per entry, or a dict by index), or None when they concern the list as a whole."""
    if isinstance(value, list) and len(value) == count and all(isinstance(item, dict) for item in value):
        return dict(enumerate(value))
    if isinstance(value, dict) and value and all(isinstance(key, int) and 0 <= key < count for key in value):
        return {key: item if isinstance(item, dict) else {"non_field_errors": item} for key, item in value.items()}
    return None
