"""A game's page kept whole in the shared cache: drawn once for a member at one version of the game,
then sent as it was drawn, with this request's CSRF token and CSP nonce put in.

The page is the same for every request that shares its `vary` (the reader, their role, language,
time zone, and the host its links and QR codes name: what the page shows, never what a client adds
to the address or how it spells the Host header: `shown_host`) while the game
keeps the stamp the request read before the database (caches.kept.Fence): every write to the game
or to who may read it forgets that stamp and the game's pages with it (caches.rule), so a page
drawn before any of those is never sent again, and none outlives its game's facts. Who may read the
game is still checked in the database on every request, by the view, before anything here is read.

What is never kept: a page with messages to show (they are shown once), a page asked for with a
query string (anyone could make a new one with each request), an answer other than a 200, and
anything drawn while the cache cannot be reached, and a page asked for under a host that only a
pattern of ALLOWED_HOSTS lets in (the page is simply drawn each time).
"""

import hashlib
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.http.request import split_domain_port
from django.middleware.csp import get_nonce
from django.middleware.csrf import get_token

from . import kept

TTL = 120  # seconds a page is kept once drawn: 27 KB a member and game (docs/scaling.md)


def hole(kind: str = "csrf") -> str:
    """What a kept page holds where the request's CSRF token (or CSP nonce) goes: made of the
    SECRET_KEY, so no text a player types can be taken for it."""
    return f"{kind}-hole-" + hashlib.sha256(f"pagecache:{kind}:{settings.SECRET_KEY}".encode()).hexdigest()[:32]


def _filled(request, html: str) -> str:
    """A kept page with this request's CSRF token, and its CSP nonce where the page had one (read
    here, the nonce goes into this answer's Content-Security-Policy too)."""
    html = html.replace(hole(), get_token(request))
    if (nonce_hole := hole("nonce")) in html and (nonce := get_nonce(request)) is not None:
        html = html.replace(nonce_hole, str(nonce))
    return html


def _vary(vary: tuple) -> str:
    return hashlib.sha256(repr(vary).encode()).hexdigest()[:40]


def shown_host(request) -> str | None:
    """The host a kept page shows (its links, its QR codes): the request's host as ALLOWED_HOSTS
    names it (lower case, no trailing dot), with its port only when that is the port the request was
    served on; None when no entry names it as such (a pattern such as `.example.com` lets in any
    subdomain: such a page is drawn, never kept). So `Host: 127.0.0.1:10000` to `:10149`, or a port
    of 4,000 digits, all show and keep the one page of `127.0.0.1`."""
    domain, port = split_domain_port(request.get_host())
    if domain not in {host.lower().removesuffix(".") for host in settings.ALLOWED_HOSTS}:
        return None
    return f"{domain}:{port}" if port and port == str(request.get_port()) else domain


def _show(request, host: str) -> None:
    """The request names `host` from now on (build_absolute_uri, get_host): the page drawn for it
    shows what it is kept under."""
    request.META["HTTP_HOST"] = host
    request.__dict__.pop("_current_scheme_host", None)  # a cached_property of HttpRequest


def page(request, *, fence: kept.Fence, version: int, vary: tuple, draw: Callable[[str], HttpResponse]) -> HttpResponse:
    """Game `fence.game`'s page at `version` for this request: kept, or `draw(token)` (the page drawn
    with `token` for its CSRF token) drawn and kept."""
    host = shown_host(request)
    if len(messages.get_messages(request)) or request.META.get("QUERY_STRING") or host is None:  # never kept
        return draw(get_token(request))
    _show(request, host)
    game, key, token = fence.game, kept.page_key(fence.game, _vary((*vary, host))), hole()
    found = (kept.quietly(kept.get_many, [key]) or {}).get(key) if fence.usable else None
    if found is not None and (found.signature, found.version) == (fence.signature(), version):
        return HttpResponse(_filled(request, found.html))
    response = draw(token)
    html = response.content.decode()
    if (nonce := get_nonce(request)) is not None and nonce:  # a nonce the page used: this request's only
        html = html.replace(str(nonce), hole("nonce"))
    if fence.usable and response.status_code == 200:
        listed = kept.quietly(kept.get_many, [kept.pages_key(game)]) or {}
        pages = set(listed.get(kept.pages_key(game), ())) | {key}
        kept.quietly(
            kept.set_many, {key: kept.KeptPage(fence.signature(), version, html), kept.pages_key(game): pages}, TTL
        )
    response.content = _filled(request, html)
    return response
