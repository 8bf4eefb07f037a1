"""Error answers for the whole site: JSON under /api/ and /_allauth/, short pages elsewhere.

A lost database is an outage, not a bug: 503 with Retry-After, rendered without touching
the database, and the next request reconnects (CONN_HEALTH_CHECKS)."""

import json
import re
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views.csrf import csrf_failure as django_csrf_failure
from health_check.views import HealthCheckView

JSON_PREFIXES = ("/api/", "/_allauth/")
RETRY_AFTER_OUTAGE = 30
MAX_JSON_DEPTH = 64
# Strings (with their escapes) hide brackets; what is left between them is structure.
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = re.compile(rb"[^\[\]{}]+")


def wants_json(request) -> bool:
    return request.path.startswith(JSON_PREFIXES)


def _answer(request, status: int, detail: str, code: str, template: str) -> HttpResponse:
    if wants_json(request):
        if request.path.startswith("/_allauth/"):  # allauth's own error shape
            body = {"status": status, "errors": [{"message": detail, "code": code}]}
        else:
            body = {"detail": detail, "code": code}
        return JsonResponse(body, status=status)
    # Rendered without the request: no context processor may touch the database.
    return HttpResponse(loader.render_to_string(template, {"detail": detail}), status=status)


def bad_request(request, exception=None):
    return _answer(request, 400, _("The request could not be read."), "bad_request", "400.html")


def permission_denied(request, exception=None):
    return _answer(request, 403, _("You are not allowed to do that."), "permission_denied", "403.html")


def not_found(request, exception=None):
    if wants_json(request):
        return _answer(request, 404, _("Not found."), "not_found", "404.html")
    return HttpResponse(loader.render_to_string("404.html", request=request), status=404)


def _database_lost(error: BaseException | None) -> bool:
    """Whether the database going away is behind this error (perhaps as the error that a
    later one, such as a session that could not load, happened during)."""
    while error is not None:
        if isinstance(error, OperationalError | InterfaceError):
            return True
        error = error.__cause__ or error.__context__
    return False


def server_error(request):
    if _database_lost(sys.exc_info()[1]):
        response = _answer(
            request,
            503,
            _("The database is not answering right now. Nothing was saved: try again in a moment."),
            "service_unavailable",
            "503.html",
        )
        response["Retry-After"] = str(RETRY_AFTER_OUTAGE)
        return response
    return _answer(
        request, 500, _("Something went wrong on our side. Nothing was half-saved."), "server_error", "500.html"
    )


def csrf_failure(request, reason=""):
    if wants_json(request):
        return _answer(request, 403, _("CSRF check failed: {reason}").format(reason=reason), "csrf_failed", "403.html")
    return django_csrf_failure(request, reason)


def json_depth(body: bytes) -> int:
    """How deeply a JSON document nests arrays and objects, without parsing it (no recursion)."""
    depth = deepest = 0
    for bracket in _NOT_BRACKET.sub(b"", _JSON_STRING.sub(b"", body)):
        if bracket in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def json_problem(body: bytes, *, object_required: bool) -> str | None:
    """Why a request body is not JSON that a view can safely read, or None when it is."""
    if json_depth(body) > MAX_JSON_DEPTH:
        return _("The JSON body nests deeper than {depth} levels.").format(depth=MAX_JSON_DEPTH)
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        return _("The body is not UTF-8 text.")
    except ValueError as error:  # malformed, or a number too long to read
        return _("The body is not valid JSON: {error}").format(error=str(error)[:120])
    if object_required and not isinstance(data, dict):
        return _("The body must be a JSON object.")
    return None


class JsonBodyMiddleware:
    """Bodies that would make a parser fail are refused before any view reads them: JSON nested
    past any real use (a RecursionError), numbers too long to convert, broken text. Our API
    (DRF) and allauth's headless views alike answer a JSON 400."""

    WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in self.WRITES:
            allauth = request.path.startswith("/_allauth/")  # allauth reads any body as JSON
            reads_json = allauth or request.content_type == "application/json"
            if reads_json and request.body and (problem := json_problem(request.body, object_required=allauth)):
                return _answer(request, 400, problem, "invalid_json", "400.html")
        return self.get_response(request)


_health = HealthCheckView.as_view(checks=["health_check.checks.Database", "health_check.checks.Cache"])


async def healthz(request):
    """django-health-check's report of the database and the cache; 503 when either fails."""
    response = await _health(request)
    if response.status_code >= 500:
        response.status_code = 503
        response["Retry-After"] = str(RETRY_AFTER_OUTAGE)
    return response
