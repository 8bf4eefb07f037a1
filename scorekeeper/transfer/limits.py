"""What one request may move: the size limits of an import (a 413 before the body is read) and one transfer at a time per account."""

import contextlib

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.urls import Resolver404, resolve
from django.utils.formats import number_format
from django.utils.translation import gettext as _


class TooBig(Exception):
    """More than one request may import (settings.IMPORT_MAX_GAMES, IMPORT_MAX_BYTES): a 413.
    A bigger file goes in with `manage.py import_games`, which has no limit."""

    def __str__(self):
        return limits_message()


def limits_message() -> str:
    megabytes = settings.IMPORT_MAX_BYTES / (1024 * 1024)
    return _(
        "An import here takes at most {games} games, {scores} round scores and {size} MB, and this file is "
        "bigger. Split it into smaller files, or ask whoever runs the server to import it with "
        "manage.py import_games."
    ).format(
        games=number_format(settings.IMPORT_MAX_GAMES, force_grouping=True),
        scores=number_format(settings.IMPORT_MAX_ENTRIES, force_grouping=True),
        size=number_format(megabytes, decimal_pos=0 if megabytes.is_integer() else 1),
    )


class Busy(Exception):
    """This account has an import or export under way (on any node): one at a time, a 429."""

    retry_after = 10

    def __str__(self):
        return _("An import or export of yours is still under way: try again in a few seconds.")


@contextlib.contextmanager
def one_at_a_time(user):
    """One import or export per account at a time, across every worker and node (the shared
    cache): one account cannot take every worker with large files. The lock outlives a killed
    worker by TRANSFER_LOCK_SECONDS at most."""
    key = f"transfer-busy:{user.pk}"
    if not cache.add(key, 1, timeout=settings.TRANSFER_LOCK_SECONDS):
        raise Busy
    try:
        yield
    finally:
        cache.delete(key)


IMPORT_ROUTES = frozenset({"import_games", "api:import"})
FORM_ENVELOPE = 64 * 1024  # a page upload's multipart parts around the file itself


class ImportSizeMiddleware:
    """An import whose body is over the limit is refused from its Content-Length, before anything
    reads it (the session, the CSRF check, the parser): 413, in JSON under /api/, a page elsewhere."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "POST" and self._too_long(request):
            detail = limits_message()
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": detail, "code": "import_too_large"}, status=413)
            return HttpResponse(loader.render_to_string("413.html", {"detail": detail}), status=413)
        return self.get_response(request)

    @staticmethod
    def _too_long(request) -> bool:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return False  # Django answers a broken length itself
        if length <= settings.IMPORT_MAX_BYTES:
            return False
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return False
        envelope = FORM_ENVELOPE if match.view_name == "import_games" else 0
        return match.view_name in IMPORT_ROUTES and length > settings.IMPORT_MAX_BYTES + envelope
