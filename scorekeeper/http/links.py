"""What every request to a live link goes through before it is read, whatever the link opens (a game
or a night): the client's budget per address and link, and the headers of the live page's body.

A leaked link hammered from one address is refused with 429 and Retry-After; a table's phones and a
TV poll every 2 s (30 a minute each), so the default (settings.LIVE_REQUESTS_PER_MINUTE) lets ten
share one home connection. The counts live in the shared cache, so every worker sees the same ones."""

import re
import time

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from ..caches import backends as shared_cache
from ..models import LIVE_SELECTOR_LENGTH, LIVE_TOKEN_LENGTH
from .offline import ACCOUNT_HEADER, SIGNED_OUT
from .proxies import client_address

TOKEN = re.compile(rf"^[A-Za-z0-9_-]{{{LIVE_TOKEN_LENGTH}}}$")
WINDOW = 60  # seconds of a budget's window


class Throttled(Exception):
    """Too many requests from this address for this link: try again in `wait` seconds."""

    def __init__(self, wait: int):
        self.wait = wait
        super().__init__(_("Too many requests: try again in {seconds} seconds.").format(seconds=wait))


def budget_key(request, token: str) -> tuple[str, int, int]:
    """The key the client's count for this link lives under in the shared cache, the window's
    length, and the seconds left in it."""
    window = WINDOW
    now = int(time.time())
    start = now - now % window
    address = client_address(request)
    selector = token[:LIVE_SELECTOR_LENGTH] if isinstance(token, str) and TOKEN.match(token) else "malformed"
    return f"live-rate:{selector}:{address}:{start}", window, start + window - now or 1


def retry_after(request, token: str) -> int:
    """0 when this request may go on; otherwise the seconds until the client's window ends. A request
    the cached poll already counted (http.polls, which passed it on) is not counted twice."""
    key, window, left = budget_key(request, token)
    count = getattr(request, "live_count", None)
    if count is None or getattr(request, "live_count_key", None) != key:
        count = shared_cache.hit(cache, key, window + 1)
    return 0 if count <= settings.LIVE_REQUESTS_PER_MINUTE else left


def spend(request, token: str) -> None:
    """Count this request against the client's budget: Throttled when it is spent."""
    if wait := retry_after(request, token):
        raise Throttled(wait)


def body_headers(response, etag: str, language: str, *, signed_out: bool = False):
    """The headers of the live page's body (a 200 or a 304, the view's or the poll's): the same
    for every viewer in one language, so `no-cache`, never private."""
    response["ETag"], response["Cache-Control"], response["Content-Language"] = etag, "no-cache", language
    if signed_out:  # the poll's 304, before the middleware that says so on the full path
        response["Content-Type"], response[ACCOUNT_HEADER] = "text/html; charset=utf-8", SIGNED_OUT
        response["Vary"], response["X-Frame-Options"] = "Accept-Language, Cookie", "DENY"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
