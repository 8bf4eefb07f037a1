"""Who may keep an answer, and conditional GETs.

A signed-in user's pages, every API answer that is not public, exports and the sign-in answers
are nobody else's: no proxy or shared cache may keep them, and the browser need not either
(`private, no-store`). A view that knows better says so with its own Cache-Control and is left
alone: the live link (`no-cache`, the same for every viewer), the service worker (`no-cache`),
the QR codes, and the static files (WhiteNoise). The service worker keeps pages for offline use
through the Cache API, which does not read Cache-Control, so no-store does not stop it; nor does
it stop a client sending If-None-Match with the ETag it saw, so 304s keep working.
"""

from django.http import HttpResponseNotModified
from django.utils.http import parse_etags

PRIVATE = "private, no-store"
# Private whoever asks: the API (its public live view sets its own), allauth's app and browser
# sign-in answers (they carry session tokens and reset keys), and invite links (a code in the URL).
PRIVATE_PREFIXES = ("/api/v1/", "/_allauth/", "/accounts/", "/invites/")
# The same for everyone, signed in or not: nothing of the user's in them.
PUBLIC_PATHS = frozenset({"/manifest.webmanifest", "/healthz/"})


class PrivateAnswersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.has_header("Cache-Control") or request.path in PUBLIC_PATHS:
            return response
        if request.path.startswith(PRIVATE_PREFIXES) or _signed_in(request):
            response["Cache-Control"] = PRIVATE
        return response


def _signed_in(request) -> bool:
    """Whether the answer was made for an account. The API's own authentication (a session token)
    has set request.user by now; a page has read it already (base.html shows the account)."""
    user = getattr(request, "user", None)
    return user is not None and user.is_authenticated


def unchanged(request, etag: str) -> bool:
    """Whether If-None-Match names the current ETag (weak or strong, or *)."""
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    tags = {tag.removeprefix("W/") for tag in parse_etags(header)}
    return "*" in tags or etag in tags


def not_modified(etag: str) -> HttpResponseNotModified:
    """The 304 of a conditional GET (a page's, the API's, a poll's before its middleware's headers)."""
    response = HttpResponseNotModified()
    response["ETag"] = etag
    return response


def asks_for(request, etag: str) -> bool:
    """Whether If-None-Match names `etag` itself (a poll's shortcut never answers "*")."""
    header = request.headers.get("If-None-Match", "")
    return etag in {tag.removeprefix("W/") for tag in parse_etags(header)}
