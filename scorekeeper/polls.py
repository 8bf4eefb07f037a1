"""Polls answered from the shared cache: every phone at a table asks every 2 s whether its game
changed, and almost always it has not. A conditional GET of a game (a member's, through the API,
or a viewer's, through the live link) is answered 304 here, before the session, the user or any
view is read, when the shared cache already knows three things, read in one round trip:

- the session is signed in (`session`: set when a full request authenticated it, removed at
  sign-out);
- this session may read this game (`member`: the game's stamp when a full request let it in);
- the game's current version (`game`: its version and a stamp, set by every write after commit
  and by full reads that found it missing or behind).

A live link's poll reads the link (its verifier's digest and game) and the game's version, and
still counts against the address's budget first, as the full path does.

Whatever the cache does not know, or knows differently, goes the full way, which checks everything
in the database and remembers what it found. The stamp changes whenever the game's entry is
written anew, so a member let in before the scorebook's members changed (the entry is forgotten
then) is checked again. What a stale entry could do is bounded: entries live TTL seconds, and a
304 tells nothing but "what you hold is current".
"""

import hashlib
import logging
import re
import secrets

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponseNotModified
from django.utils.http import parse_etags

logger = logging.getLogger(__name__)

# Seconds an entry stands unless something renews it. Sessions and access are renewed by the full
# path only, so a signed-out session (removed at once) or a removed member is let through by a
# 304 for at most this long if an invalidation was missed.
TTL = 60

_GAME_POLL = re.compile(r"^/api/v1/games/(\d{1,18})/$")
_LIVE_POLL = re.compile(r"^/api/v1/live/([A-Za-z0-9_-]{1,64})/$")


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:40]


def game_key(pk: int) -> str:
    return f"poll:game:{pk}"


def session_key(session: str) -> str:
    return f"poll:session:{_digest(session)}"


def member_key(session: str, pk: int) -> str:
    return f"poll:member:{_digest(session)}:{pk}"


def link_key(selector: str) -> str:
    return f"poll:live:{selector}"


def _quietly(call, *args, **kwargs):
    """A cache call whose failure costs a poll its shortcut, never a request its answer."""
    try:
        return call(*args, **kwargs)
    except Exception:  # any cache failure: the full path answers instead
        logger.warning("poll cache unavailable", exc_info=True)
        return None


# Writers: at once, and again once their transaction commits. At once, a poll holding the old
# version goes the full way (and reads the old version until the commit: a slower 304, never a
# wrong one); after the commit, in case a full read that began before it wrote the old version
# back meanwhile. A version written for a transaction that rolls back is one no client holds.


def game_changed(pk: int, version: int) -> None:
    """A game's version moved on: polls holding the old ETag get the full answer at once."""
    entry = (version, secrets.token_hex(8))
    _quietly(cache.set, game_key(pk), entry, TTL)
    transaction.on_commit(lambda: _quietly(cache.set, game_key(pk), entry, TTL))


def games_gone(pks) -> None:
    """Games left the trash, went into it, or their scorebook's members changed: forget them, so
    the next poll of each is checked in full (and a removed member's is refused)."""
    keys = [game_key(pk) for pk in pks]
    if keys:
        _quietly(cache.delete_many, keys)
        transaction.on_commit(lambda: _quietly(cache.delete_many, keys))


def on_sign_out(sender, request, **kwargs) -> None:
    """user_logged_out: the session it ends (a browser's cookie, or an app's token)."""
    sessions = {request.headers.get("X-Session-Token"), getattr(request.session, "session_key", None)}
    _quietly(cache.delete_many, [session_key(session) for session in sessions if session])


# The full path remembers what it checked.


def _current_stamp(pk: int, version: int) -> str | None:
    """The game's stamp, its entry written anew if it was missing or behind `version` (a version
    just read from the database); None if the cache cannot be reached."""
    entry = _quietly(cache.get, game_key(pk))
    if entry is None or entry[0] < version:
        entry = (version, secrets.token_hex(8))
        if not _quietly(cache.add, game_key(pk), entry, TTL):
            _quietly(cache.set, game_key(pk), entry, TTL)
    elif entry[0] > version:
        return None  # the database answered an older version than a write already left: wait
    return entry[1]


def remember_member(session: str | None, user_pk: int, pk: int, version: int) -> None:
    """A full request found `session` signed in as `user_pk`, a reader of game `pk` at `version`."""
    if not session:
        return
    stamp = _current_stamp(pk, version)
    if stamp is not None:
        _quietly(cache.set_many, {session_key(session): user_pk, member_key(session, pk): stamp}, TTL)


def remember_link(selector: str, verifier: str, pk: int, version: int) -> None:
    """A full request opened the live link `selector` of game `pk` at `version`."""
    stamp = _current_stamp(pk, version)
    if stamp is not None:
        _quietly(cache.set, link_key(selector), (_digest(verifier), pk, stamp), TTL)


# The shortcut.


def _asks_for(request, etag: str) -> bool:
    header = request.headers.get("If-None-Match", "")
    return etag in {tag.removeprefix("W/") for tag in parse_etags(header)}


def _not_modified(etag: str, account: int | None = None):
    """A 304 with the headers the full path's has. The language varies it and, for a browser (its
    session's `account`), the cookie: such an answer names its account (offline.account_marker)."""
    from .offline import ACCOUNT_HEADER, marker_of

    response = HttpResponseNotModified()
    response["ETag"], response["Vary"] = etag, "Accept-Language"
    if account is not None:
        response["Vary"], response[ACCOUNT_HEADER] = "Accept-Language, Cookie", marker_of(account)
    response["X-Frame-Options"] = getattr(settings, "X_FRAME_OPTIONS", "DENY")
    return response


def member_poll(request):
    """304 for a member's unchanged game, from the cache alone; None to take the full path."""
    match = _GAME_POLL.match(request.path_info)
    token = request.headers.get("X-Session-Token")
    session = token or request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not match or not session:
        return None
    pk = int(match[1])
    keys = [session_key(session), member_key(session, pk), game_key(pk)]
    found = _quietly(cache.get_many, keys) or {}
    user, stamp, game = (found.get(key) for key in keys)
    if user is None or game is None or stamp != game[1]:
        return None
    etag = f'"game-{pk}-v{game[0]}"'  # Game.etag_of
    if not _asks_for(request, etag):
        return None
    return _not_modified(etag, None if token else user)


def live_poll(request):
    """304 for an unchanged game seen through its live link, from the cache and within the
    address's budget; None to take the full path (which also answers 404 and 429)."""
    from . import live
    from .models import LIVE_SELECTOR_LENGTH, LiveLink

    match = _LIVE_POLL.match(request.path_info)
    if not match:
        return None
    token = match[1]
    selector, verifier = token[:LIVE_SELECTOR_LENGTH], token[LIVE_SELECTOR_LENGTH:]
    link = _quietly(cache.get, link_key(selector))
    if link is None or not secrets.compare_digest(link[0], _digest(verifier)):
        return None
    game = _quietly(cache.get, game_key(link[1]))
    if game is None or game[1] != link[2]:
        return None
    etag = LiveLink(selector=selector).etag(game[0])
    if not _asks_for(request, etag) or live.retry_after(request, token):
        return None  # spent budgets are answered (429) by the full path
    return _not_modified(etag)


class CachedPollMiddleware:
    """Answers the two polls above before the rest of the stack runs."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "GET" and "If-None-Match" in request.headers:
            response = member_poll(request) or live_poll(request)
            if response is not None:
                return response
        return self.get_response(request)
