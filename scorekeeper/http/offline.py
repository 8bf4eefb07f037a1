"""The installable app: its manifest, its service worker and the page shown offline.

The service worker (templates/scorekeeper/sw.js) is rendered with the static files it keeps and
a version made from their contents, so a deploy that changes any of them installs a new worker,
which drops the caches of the old one. It is served from the site's root to control every page.

Kept pages belong to one account. Every answer made for a session carries `X-Account`, an opaque
marker of its account (an HMAC of the user's id, or "none" signed out); the worker keeps pages
under the marker they came with and drops everything it kept as soon as an answer for another
account, or for nobody, comes by. Offline it can only know the last account it saw, so a change
of account is a reason to forget, never to guess.
"""

import functools
import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import has_vary_header
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import get_language, gettext, gettext_lazy
from django.views.decorators.cache import cache_control
from statici18n.templatetags import statici18n

NAME, SHORT_NAME, THEME = gettext_lazy("Chicken Foot Scorekeeper"), gettext_lazy("Chicken Foot"), "#14532d"
# The page scripts: every ES module of the app (base.html loads app.js, which imports the others),
# each kept for offline use under the hashed name its importer asks for (staticfiles.py).
SCRIPTS = sorted(
    f"scorekeeper/{path.name}" for path in (Path(__file__).parent.parent / "static/scorekeeper").glob("*.js")
)
# Kept when the worker installs: what every page needs to draw itself without a connection.
STATIC_FILES = [
    "scorekeeper/site.css",
    "scorekeeper/charts.css",
    *SCRIPTS,
    "scorekeeper/icon.svg",
    "django_htmx/htmx-2.min.js",
    # The page scripts' words, one catalogue per language (base.html loads the page's own).
    *(statici18n.get_path(code) for code, _name in settings.LANGUAGES),
]
# Pages kept when visited (and shown offline, marked as possibly out of date): the home page,
# the sheet, the round entry and the seat changes of a game, the rules. Patterns of the service worker, in JS.
PAGE_PATTERNS = [r"^/$", r"^/games/\d+/$", r"^/games/\d+/rounds/new/$", r"^/games/\d+/seats/(join|leave|take_over)/$",
                 r"^/rules/$"]  # fmt: skip
# Answers the worker reads the account from besides pages: allauth's sign-in API (a sign-in or
# sign-out made by a script, with no page in between).
AUTH_PREFIX = "/_allauth/"
ACCOUNT_HEADER = "X-Account"
SIGNED_OUT = "none"


def manifest(request):
    icon = static("scorekeeper/icon.svg")
    return JsonResponse(
        {
            "name": str(NAME),
            "short_name": str(SHORT_NAME),
            "description": gettext("Scores, totals and winners for Chicken Foot dominoes, at the table."),
            "lang": get_language(),
            "start_url": reverse("home"),
            "scope": "/",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": THEME,
            "icons": [
                {"src": icon, "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
                {"src": icon, "sizes": "any", "type": "image/svg+xml", "purpose": "maskable"},
            ],
        },
        content_type="application/manifest+json",
    )


@functools.cache
def _config() -> dict:
    files = [static(name) for name in STATIC_FILES]
    offline = reverse("offline")
    digest = hashlib.sha256(get_template("scorekeeper/sw.js").template.source.encode())
    for name, url in zip(STATIC_FILES, files, strict=True):
        digest.update(url.encode())
        with open(finders.find(name), "rb") as file:
            digest.update(file.read())
    digest.update(render_to_string("scorekeeper/offline.html").encode())
    return {
        "version": digest.hexdigest()[:16],
        "precache": [*files, offline],
        "offline": offline,
        # The prefix of every static URL. Not static(""): the manifest storage that collectstatic
        # uses has no entry for "" and raises, which made /sw.js a 500 on every real deploy.
        "static": settings.STATIC_URL,
        "pages": PAGE_PATTERNS,
        "auth": AUTH_PREFIX,
        "header": ACCOUNT_HEADER,
        "signedOut": SIGNED_OUT,
    }


@cache_control(no_cache=True)  # the browser checks for a new worker on every visit
def service_worker(request):
    script = render_to_string("scorekeeper/sw.js", {"config": json.dumps(_config())})
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


def offline_page(request):
    """What the service worker shows for a page it has not kept; nothing of the user's on it."""
    return render(request, "scorekeeper/offline.html")


CLEAR_SITE_DATA = '"cache", "storage"'


def clears_site_data(view):
    """Logging out (or deleting the account) empties the browser's caches and storage for this
    site: the kept pages and the rounds waiting to sync go with the session (offline.js asks first)."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if request.method == "POST":
            response["Clear-Site-Data"] = CLEAR_SITE_DATA
        return response

    return wrapper


def account_marker(user) -> str:
    """Whose answer this is, for the worker and the rounds waiting on the phone: the same for one
    account on every phone and session, different between accounts, and neither its id nor its
    email (an HMAC made with the SECRET_KEY, which nobody outside can recompute)."""
    if user is None or not user.is_authenticated:
        return SIGNED_OUT
    return marker_of(user.pk)


def marker_of(user_pk: int) -> str:
    """account_marker of a signed-in user, by id."""
    return salted_hmac("scorekeeper.http.offline.account", str(user_pk), algorithm="sha256").hexdigest()[:32]


class AccountMarkerMiddleware:
    """Marks every answer that depends on the session (`Vary: Cookie`) with its account, and
    refuses a write made for one account (a round queued on the phone carries its account's
    marker) when the session is now another account's: it waits for its own account instead of
    being recorded as someone else's.

    It stands before SessionMiddleware, so that reading the user here never makes an answer
    vary by cookie that did not already: the live link and the static files stay unmarked."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.account_marker = lambda: account_marker(getattr(request, "user", None))
        response = self.get_response(request)
        if hasattr(request, "user") and has_vary_header(response, "Cookie"):
            response[ACCOUNT_HEADER] = request.account_marker()
        return response

    def process_view(self, request, view, args, kwargs):
        sent = request.headers.get(ACCOUNT_HEADER)
        if sent is None or request.method in ("GET", "HEAD", "OPTIONS"):
            return None
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None  # the view asks to log in, as it would without the header
        if constant_time_compare(sent, account_marker(user)):
            return None
        message = gettext("Saved on this phone by another account: log in as that account to send it.")
        return JsonResponse({"detail": message, "code": "other_account"}, status=409)  # the API's Error
