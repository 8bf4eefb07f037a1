"""A game's page kept whole in the shared cache: drawn once for a member at one version of the game,
then sent as it was drawn, with this request's CSRF token and CSP nonce put in.

The page is the same for every request that shares its `vary` (the reader, their role, language,
time zone, the address asked for ...) while the game stays at its version and its poll entry
(polls.game_key) keeps its stamp: that stamp changes when the game goes to or leaves the trash,
its scorebook loses a member or its live link is made, replaced or revoked (polls.games_gone), so a
page drawn before any of those is drawn again. Who may read the game is still checked in the
database on every request, by the view, before anything here is read.

What is never kept: a page with messages to show (they are shown once), an answer other than a
200, and anything drawn while the cache cannot be reached (the page is simply drawn each time).
"""

import hashlib
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csp import get_nonce
from django.middleware.csrf import get_token

from . import polls

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


def _key(game: int, vary: tuple) -> str:
    return f"{polls.game_key(game)}:page:{hashlib.sha256(repr(vary).encode()).hexdigest()[:40]}"


def page(request, *, game: int, version: int, vary: tuple, draw: Callable[[str], HttpResponse]) -> HttpResponse:
    """Game `game`'s page at `version` for this request: kept, or `draw(token)` (the page drawn
    with `token` for its CSRF token) drawn and kept."""
    if len(messages.get_messages(request)):  # shown once: never kept, never sent from the cache
        return draw(get_token(request))
    key, token = _key(game, vary), hole()
    found = polls.quietly(cache.get_many, [polls.game_key(game), key]) or {}
    entry, kept = found.get(polls.game_key(game)), found.get(key)
    if entry is not None and entry[0] == version and kept is not None and kept[0] == entry[1]:
        return HttpResponse(_filled(request, kept[1]))
    stamp = polls.current_stamp(game, version)
    response = draw(token)
    html = response.content.decode()
    if (nonce := get_nonce(request)) is not None and nonce:  # a nonce the page used: this request's only
        html = html.replace(str(nonce), hole("nonce"))
    if stamp is not None and response.status_code == 200:
        polls.quietly(cache.set, key, (stamp, html), TTL)
    response.content = _filled(request, html)
    return response
