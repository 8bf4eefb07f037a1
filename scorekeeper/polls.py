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
import random
import re
import secrets

from django.conf import settings
from django.core.cache import cache
from django.core.handlers.exception import convert_exception_to_response
from django.core.handlers.wsgi import WSGIRequest
from django.db import transaction
from django.http import HttpResponse, HttpResponseNotModified
from django.utils import translation
from django.utils.http import parse_etags
from django.utils.module_loading import import_string

from . import cache as shared_cache

logger = logging.getLogger(__name__)

# Seconds an entry stands unless something renews it. Sessions and access are renewed by the full
# path only, so a signed-out session (removed at once) or a removed member is let through by a
# 304 for at most this long if an invalidation was missed.
TTL = 60


def lifetime() -> int:
    """An entry's seconds: between half of TTL and TTL, drawn anew at each write. Entries written
    together (a club's phones opening their games at 7 pm, or a server's restart) would otherwise
    expire together, every TTL seconds, and their phones would all take the full way at once: at
    1,500 phones that storm queued rounds for up to a second (docs/benchmarks.md)."""
    return random.randint(TTL // 2, TTL)


_GAME_POLL = re.compile(r"^/api/v1/games/(\d{1,18})/$")
_LIVE_POLL = re.compile(r"^/api/v1/live/([A-Za-z0-9_-]{1,64})/$")
_SHEET_POLL = re.compile(r"^/games/(\d{1,18})/sheet/$")  # a member's followed sheet or round form
_LIVE_BODY_POLL = re.compile(r"^/live/([A-Za-z0-9_-]{1,64})/sheet/$")  # the live page's body


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:40]


def _space() -> str:
    """The keys' prefix, made of the SECRET_KEY: a new secret (sessions signed with the old one are
    Django's to judge again) starts from an empty cache."""
    return "poll:" + _digest(settings.SECRET_KEY)[:8]


def game_key(pk: int | str = "") -> str:
    """A game's entry; with no `pk`, the prefix of every game's."""
    return f"{_space()}:game:{pk}"


def session_key(session: str) -> str:
    return f"{_space()}:session:{_digest(session)}"


def member_key(session: str, pk: int) -> str:
    return f"{_space()}:member:{_digest(session)}:{pk}"


def link_key(selector: str) -> str:
    return f"{_space()}:live:{selector}"


def link_game_key(selector: str) -> str:
    """The number of the game a link opens, alone: the cache follows it to the game's entry
    (cache.hit_then_follow)."""
    return f"{_space()}:live-game:{selector}"


def page_key(session: str, pk: int) -> str:
    return f"{_space()}:page:{_digest(session)}:{pk}"


def sessions_key(user_pk: int) -> str:
    return f"{_space()}:sessions-of:{user_pk}"


def quietly(call, *args, **kwargs):
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
    quietly(cache.set, game_key(pk), entry, lifetime())
    transaction.on_commit(lambda: quietly(cache.set, game_key(pk), entry, lifetime()))


def games_gone(pks) -> None:
    """Games left the trash, went into it, or their scorebook's members changed: forget them, so
    the next poll of each is checked in full (and a removed member's is refused)."""
    keys = [game_key(pk) for pk in pks]
    if keys:
        quietly(cache.delete_many, keys)
        transaction.on_commit(lambda: quietly(cache.delete_many, keys))


def on_sign_out(sender, request, **kwargs) -> None:
    """user_logged_out: the session it ends (a browser's cookie, or an app's token)."""
    sessions = {request.headers.get("X-Session-Token"), getattr(request.session, "session_key", None)}
    quietly(cache.delete_many, [session_key(session) for session in sessions if session])


def on_user_change(sender, instance, **kwargs) -> None:
    """post_save / post_delete of a user: a new password, an account switched off or deleted ends
    what the cache knows of every session of theirs (Django then judges each in full). A sign-in's
    stamp of the time (last_login) changes nothing."""
    if kwargs.get("update_fields") == frozenset({"last_login"}):
        return
    keys = quietly(cache.get, sessions_key(instance.pk)) or ()
    quietly(cache.delete_many, [*keys, sessions_key(instance.pk)])


def current_stamp(pk: int, version: int) -> str | None:
    """The stamp of game `pk`'s entry at `version` (a version just read from the database), the
    entry made anew when missing or behind; None when a write already left a later version."""
    return _stamp(pk, version, quietly(cache.get, game_key(pk)))


def _stamp(pk: int, version: int, game: tuple | None) -> str | None:
    """current_stamp, `game` the entry the cache held."""
    if game is None or game[0] < version:
        game = (version, secrets.token_hex(8))
        ttl = lifetime()
        if not quietly(cache.add, game_key(pk), game, ttl):
            quietly(cache.set, game_key(pk), game, ttl)
    elif game[0] > version:
        return None
    return game[1]


def _remember(pk: int, version: int, session: str | None, user_pk: int | None, entry, fetch=()) -> dict:
    """What a full request checked, remembered with one read of the cache (and a write of what it
    did not hold yet): the game's entry (made anew when missing or behind `version`, a version just
    read from the database), and `entry(stamp)`, a dict of keys to remember with the game's stamp,
    for `session` signed in as `user_pk` (listed among the user's sessions). Nothing is remembered
    when the database answered an older version than a write already left, or the cache cannot be
    reached. Returns the values of the `fetch` keys, read in the same round trip."""
    keys = [game_key(pk), *entry(None), *fetch]  # the entry's keys do not depend on the stamp
    if session:
        keys += [session_key(session), sessions_key(user_pk)]
    found = quietly(cache.get_many, keys)
    if found is None:
        return {}
    stamp = _stamp(pk, version, found.get(game_key(pk)))
    if stamp is None:
        return found
    wanted = entry(stamp)
    if session:
        wanted[session_key(session)] = user_pk
        listed = found.get(sessions_key(user_pk)) or frozenset()
        if session_key(session) not in listed:
            wanted[sessions_key(user_pk)] = listed | {session_key(session)}
    new = {key: value for key, value in wanted.items() if found.get(key) != value}
    if new:
        quietly(cache.set_many, new, lifetime())
    return found


def remember_member(session: str | None, user_pk: int, pk: int, version: int, fetch=()) -> dict:
    """A full request found `session` signed in as `user_pk`, a reader of game `pk` at `version`;
    the values of the `fetch` keys, read with what the cache knows of them."""
    if not session:
        return quietly(cache.get_many, list(fetch)) or {}
    return _remember(pk, version, session, user_pk, lambda stamp: {member_key(session, pk): stamp}, fetch)


def remember_page(session: str | None, user_pk: int, pk: int, version: int, role: str, language: str) -> None:
    """A full request found `session` signed in as `user_pk`, a member of game `pk`'s scorebook as
    `role`, reading its followed sheet at `version` in `language` (what its ETag is made of)."""
    if session:
        _remember(pk, version, session, user_pk, lambda stamp: {page_key(session, pk): (stamp, role, language)})


def remember_link(selector: str, verifier: str, pk: int, version: int) -> None:
    """A full request opened the live link `selector` of game `pk` at `version`."""
    _remember(
        pk,
        version,
        None,
        None,
        lambda stamp: {link_key(selector): (_digest(verifier), pk, stamp), link_game_key(selector): pk},
    )


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
    found = quietly(cache.get_many, keys) or {}
    user, stamp, game = (found.get(key) for key in keys)
    if user is None or game is None or stamp != game[1]:
        return None
    etag = f'"game-{pk}-v{game[0]}"'  # Game.etag_of
    if not _asks_for(request, etag):
        return None
    return _not_modified(etag, None if token else user)


def sheet_poll(request):
    """304 for a member's followed sheet of an unchanged game (follow.sheet_etag); None to take the
    full path."""
    match = _SHEET_POLL.match(request.path_info)
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not match or not session:
        return None
    pk = int(match[1])
    keys = [session_key(session), page_key(session, pk), game_key(pk)]
    found = quietly(cache.get_many, keys) or {}
    user, page, game = (found.get(key) for key in keys)
    if user is None or page is None or game is None or page[0] != game[1]:
        return None
    _stamp, role, language = page
    etag = f'"sheet-{pk}-v{game[0]}-u{user}-{role}-{language}"'  # follow.sheet_etag
    if not _asks_for(request, etag):
        return None
    response = _not_modified(etag, user)
    response["Cache-Control"] = "private, no-store"  # caching.PrivateAnswersMiddleware's, for a page
    return response


def live_poll(request):
    """304 for an unchanged game seen through its live link, from the cache and within the
    address's budget; None to take the full path (which also answers 404 and 429)."""
    from . import live
    from .models import LIVE_SELECTOR_LENGTH, LiveLink

    match = _LIVE_POLL.match(request.path_info) or _LIVE_BODY_POLL.match(request.path_info)
    if not match:
        return None
    page = match.re is _LIVE_BODY_POLL
    if page and settings.SESSION_COOKIE_NAME in request.COOKIES:
        return None  # a signed-in viewer's page names their account (X-Account): the full path
    token = match[1]
    selector, verifier = token[:LIVE_SELECTOR_LENGTH], token[LIVE_SELECTOR_LENGTH:]
    # One round trip: the budget counted, the link, and the game's entry the link points to.
    counter, window, _left = live.budget_key(request, token)
    found = quietly(
        shared_cache.hit_then_follow,
        cache,
        counter,
        window + 1,
        [link_key(selector)],
        link_game_key(selector),
        game_key(),
    )
    if found is None:
        return None
    request.live_count, request.live_count_key = found[0], counter  # counted: the full path counts it once
    (link,), game = found[1], found[2]
    if link is None or game is None or not secrets.compare_digest(link[0], _digest(verifier)) or game[1] != link[2]:
        return None
    if not page:
        etag = LiveLink.etag_of(selector, game[0])
    else:  # in the viewer's language, read as LocaleMiddleware reads it (its cookie, else the header)
        language = translation.get_language_from_request(request)
        etag = f'"live-{selector}-v{game[0]}-{language}"'  # live.page_etag
    if not _asks_for(request, etag) or live.retry_after(request, token):
        return None  # spent budgets are answered (429) by the full path
    if not page:
        return _not_modified(etag)
    from .offline import ACCOUNT_HEADER, SIGNED_OUT

    response = HttpResponseNotModified()  # with the headers views.live gives the body's answers
    response["ETag"], response["Cache-Control"], response["Content-Language"] = etag, "no-cache", language
    response["Content-Type"], response[ACCOUNT_HEADER] = "text/html; charset=utf-8", SIGNED_OUT
    response["Vary"], response["X-Robots-Tag"] = "Accept-Language, Cookie", "noindex, nofollow"
    response["X-Frame-Options"] = getattr(settings, "X_FRAME_OPTIONS", "DENY")
    return response


class CachedPollMiddleware:
    """Answers the two polls above before the rest of the stack runs."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "GET" and "If-None-Match" in request.headers:
            response = member_poll(request) or sheet_poll(request) or live_poll(request)
            if response is not None:
                return response
        return self.get_response(request)


class _FullWay(HttpResponse):
    """What the shortcut below hands back up its middleware when the cache cannot answer."""


class PollsFirst:
    """The WSGI application gunicorn serves (scorekeeper.wsgi): a poll CachedPollMiddleware can
    answer is answered here, before Django's handler, and everything else goes to `app` untouched.

    The poll goes through the very middleware the full stack runs first (settings.MIDDLEWARE down
    to CachedPollMiddleware, each wrapped as Django wraps it, so an exception is the same answer),
    so its 304 carries the same headers; what is left out is the handler's own work around them
    (the request signals, the URLconf, the stack of converters), about a third of a poll's CPU in
    gunicorn (docs/benchmarks.md). No database connection is touched on this path."""

    POLL = "scorekeeper.polls.CachedPollMiddleware"
    PATHS = re.compile("|".join(p.pattern for p in (_GAME_POLL, _LIVE_POLL, _SHEET_POLL, _LIVE_BODY_POLL)))

    def __init__(self, app):
        self.app = app
        self._chain = None

    def chain(self):
        if self._chain is None:
            handler = convert_exception_to_response(lambda request: _FullWay())
            for name in reversed(settings.MIDDLEWARE[: settings.MIDDLEWARE.index(self.POLL) + 1]):
                handler = convert_exception_to_response(import_string(name)(handler))
            self._chain = handler
        return self._chain

    def __call__(self, environ, start_response):
        if (
            environ.get("REQUEST_METHOD") == "GET"
            and "HTTP_IF_NONE_MATCH" in environ
            and self.PATHS.match(environ.get("PATH_INFO", ""))
        ):
            response = self.chain()(WSGIRequest(environ))
            if not isinstance(response, _FullWay):
                status = f"{response.status_code} {response.reason_phrase}"
                start_response(
                    status,
                    [*response.items(), *(("Set-Cookie", c.output(header="")) for c in response.cookies.values())],
                )
                return [response.content]  # not the response: its close() would send request_finished
        return self.app(environ, start_response)
