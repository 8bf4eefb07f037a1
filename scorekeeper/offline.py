"""The installable app: its manifest, its service worker and the page shown offline.

The service worker (templates/scorekeeper/sw.js) is rendered with the static files it keeps and
a version made from their contents, so a deploy that changes any of them installs a new worker,
which drops the caches of the old one. It is served from the site's root to control every page.
"""

import functools
import hashlib
import json

from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext, gettext_lazy
from django.views.decorators.cache import cache_control

NAME, SHORT_NAME, THEME = gettext_lazy("Chicken Foot Scorekeeper"), gettext_lazy("Chicken Foot"), "#14532d"
# Kept when the worker installs: what every page needs to draw itself without a connection.
STATIC_FILES = [
    "scorekeeper/site.css",
    "scorekeeper/charts.css",
    "scorekeeper/app.js",
    "scorekeeper/offline.js",
    "scorekeeper/icon.svg",
    "django_htmx/htmx-2.min.js",
]
# Pages kept when visited (and shown offline, marked as possibly out of date): the home page,
# the sheet and the round entry of a game, the rules. Patterns of the service worker, in JS.
PAGE_PATTERNS = [r"^/$", r"^/games/\d+/$", r"^/games/\d+/rounds/new/$", r"^/rules/$"]


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
        "static": static(""),
        "pages": PAGE_PATTERNS,
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
    site: the kept pages and the rounds waiting to sync go with the session (app.js asks first)."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if request.method == "POST":
            response["Clear-Site-Data"] = CLEAR_SITE_DATA
        return response

    return wrapper
