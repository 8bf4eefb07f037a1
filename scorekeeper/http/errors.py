"""Error answers for the whole site: JSON under /api/ and /_allauth/, short pages elsewhere.

A lost database is an outage, not a bug: 503 with Retry-After, rendered without touching
the database, and the next request reconnects (CONN_HEALTH_CHECKS)."""

import json
import re
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.views.csrf import csrf_failure as django_csrf_failure

JSON_PREFIXES = ("/api/", "/_allauth/")
RETRY_AFTER_OUTAGE = 30
MAX_JSON_DEPTH = 64
# Strings (with their escapes) hide brackets; what is left between them is structure.
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = re.compile(rb"[^\[\]{}]+")
# Text no database column can store: NUL (PostgreSQL refuses it in text and JSON) and lone
# halves of surrogate pairs (no encoder writes them). JSON spells both only as \u escapes.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
_UNSTORABLE_ESCAPE = re.compile(rb"\\u(?:0000|[dD][89a-fA-F])")


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


def read_json(body: bytes, *, object_required: bool) -> tuple[str | None, object]:
    """Why a request body is not JSON that a view can safely read (None when it is), and what it holds."""
    if json_depth(body) > MAX_JSON_DEPTH:
        return _("The JSON body nests deeper than {depth} levels.").format(depth=MAX_JSON_DEPTH), None
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        return _("The body is not UTF-8 text."), None
    except ValueError as error:  # malformed, or a number too long to read
        return _("The body is not valid JSON: {error}").format(error=str(error)[:120]), None
    if object_required and not isinstance(data, dict):
        return _("The body must be a JSON object."), None
    return None, data


def unstorable_in_json(data) -> str | None:
    """Where in a parsed JSON document a key or a string holds text no column can store
    (`entries[0].name`), or None. Walked without recursion; the depth is bounded anyway."""
    stack = [(data, "")]
    while stack:
        value, at = stack.pop()
        if isinstance(value, str):
            if _UNSTORABLE.search(value):
                return at or "body"
        elif isinstance(value, dict):
            for key, item in value.items():
                name = f"{at}.{key}" if at else key
                if _UNSTORABLE.search(key):
                    return _printable(name)
                stack.append((item, name))
        elif isinstance(value, list):
            stack.extend((item, f"{at}[{index}]") for index, item in enumerate(value))
    return None


def _printable(name: str) -> str:
    return _UNSTORABLE.sub(lambda found: f"\\u{ord(found[0]):04x}", name)


def _unstorable_in_form(form) -> str | None:
    for name, values in form.lists():
        if _UNSTORABLE.search(name) or any(_UNSTORABLE.search(value) for value in values):
            return _printable(name)
    return None


def _unstorable_in_path(request) -> str:
    """The URL's own name for the part that holds the NUL (an invite's `code`), else `path`."""
    try:
        kwargs = resolve(request.path_info).kwargs
    except Resolver404:
        return "path"
    return next((name for name, value in kwargs.items() if _UNSTORABLE.search(str(value))), "path")


def unstorable_field(request) -> str | None:
    """The first part of a request that holds text no column can store: a NUL (PostgreSQL refuses
    it in text and JSON, so a lookup or an idempotency record would fail with a 500) or half of a
    surrogate pair (which no encoder writes). Each look on the usual path is one substring search
    of text already in memory; parsing happens only to name the culprit."""
    if "\x00" in request.path:
        return _unstorable_in_path(request)
    query = request.META.get("QUERY_STRING", "")
    if "%00" in query or "\x00" in query:
        return _unstorable_in_form(request.GET) or "query"
    for key, value in request.META.items():
        if key.startswith("HTTP_") and "\x00" in value:
            return key[5:].replace("_", "-").title()  # HTTP_IDEMPOTENCY_KEY: Idempotency-Key
    return None


def _unstorable_in_body(request, data) -> str | None:
    if request.content_type == "application/x-www-form-urlencoded":
        if b"%00" in request.body or b"\x00" in request.body:
            return _unstorable_in_form(request.POST) or "body"
    elif request.content_type == "multipart/form-data":
        # The page forms' uploads (the import); Django's CSRF check reads request.POST before any
        # view in any case. An uploaded file's contents are its view's to judge.
        return _unstorable_in_form(request.POST)
    elif data is not None and _UNSTORABLE_ESCAPE.search(request.body):
        return unstorable_in_json(data)
    return None


def _refuse_unstorable(request, field: str) -> HttpResponse:
    message = _("“{field}” holds a NUL character or half of a Unicode surrogate pair; neither is allowed.").format(
        field=field
    )
    if request.path.startswith("/_allauth/"):
        body = {"status": 400, "errors": [{"message": message, "code": "invalid", "param": field}]}
        return JsonResponse(body, status=400)
    if wants_json(request):
        return JsonResponse({field: [message]}, status=400)
    return HttpResponse(loader.render_to_string("400.html", {"detail": message}), status=400)


def document_refused_input(result, generator, request, public):
    """drf-spectacular hook: any operation may answer the middleware's 400 (a NUL in a query
    parameter or header it does not even read), so every operation lists it."""
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if isinstance(operation, dict) and "responses" in operation:
                operation["responses"].setdefault(
                    "400", {"description": "The request holds text no field may hold (a NUL); the answer names where."}
                )
    return result


class JsonBodyMiddleware:
    """Input that would make a parser or a database fail is refused before any view reads it:
    JSON nested past any real use (a RecursionError), numbers too long to convert, broken text,
    and NUL characters anywhere (path, query, headers, form fields, JSON strings and keys).
    Our API (DRF) and allauth's headless views alike answer a JSON 400 naming the field; pages
    answer a short 400 page."""

    WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if field := unstorable_field(request):
            return _refuse_unstorable(request, field)
        if request.method in self.WRITES:
            allauth = request.path.startswith("/_allauth/")  # allauth reads any body as JSON
            reads_json = allauth or request.content_type == "application/json"
            data = None
            if reads_json and request.body:
                problem, data = read_json(request.body, object_required=allauth)
                if problem:
                    return _answer(request, 400, problem, "invalid_json", "400.html")
            if field := _unstorable_in_body(request, data):
                return _refuse_unstorable(request, field)
        return self.get_response(request)
