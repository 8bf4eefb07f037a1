"""Polls answered from the shared cache: every phone at a table asks every 2 s whether its game
changed, and almost always it has not. A conditional GET of a game (a member's, through the API,
a member's followed sheet, or a viewer's, through the live link's JSON or page body) is answered
304 here, before the session, the user or any view is read, when caches.kept trusts an entry a
full request wrote for this session (or link) and this game (caches.kept says when it does).

The paths are the URLconf's own (resolved here as the handler resolves them), the ETags are built
by the functions the full path's views use, and the headers are the full path's (the 304 goes
through the same middleware first; tests/api/test_cached_polls.py compares the two answers for
every path). Whatever the cache does not know, or knows differently, goes the full way, which
checks everything in the database and remembers what it found.
"""

import functools
import re
import secrets

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.exception import convert_exception_to_response
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.module_loading import import_string

from scorekeeper.caches import backends, kept

from . import private
from .private import PRIVATE, asks_for

# The views whose conditional GETs a poll may answer, by the URLconf's names: a member's game or
# night through the API, a member's followed sheet, and a live link's JSON and page body, with what
# each opens (and, for a link, whether it is the page's body).
SHEET_POLL = "game_sheet"
MEMBER_POLLS = {"api:game-detail": "game", "api:night-detail": "night"}
LIVE_POLLS = {
    "api:live": ("game", False),
    "live_sheet": ("game", True),
    "api:night-live": ("night", False),
    "night_live_sheet": ("night", True),
}
# A stream's start (http.streams asks it with the ETag it last had): a member's game, or a live link.
STREAM_POLLS = {"api:game-events": None, "api:live-events": "game", "api:night-live-events": "night"}
POLLED = frozenset({SHEET_POLL, *MEMBER_POLLS, *LIVE_POLLS, *STREAM_POLLS})


@functools.lru_cache(maxsize=8192)
def polled_view(path: str) -> tuple[str, dict] | None:
    """The URLconf's view name and arguments for `path` when it is one a poll may answer, else None.
    Remembered per path (the URLconf does not change while the process runs): the phones of a club
    ask for a few thousand paths, again and again, and resolving one cost a tenth of a poll."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return (match.view_name, dict(match.kwargs)) if match.view_name in POLLED else None


def not_modified(etag: str, account: int | None = None) -> HttpResponse:
    """A 304 with the headers the full path's has. The language varies it and, for a browser (its
    session's `account`), the cookie: such an answer names its account (offline.account_marker)."""
    from scorekeeper.http.offline import ACCOUNT_HEADER, marker_of

    response = private.not_modified(etag)
    response["Vary"] = "Accept-Language"
    if account is not None:
        response["Vary"], response[ACCOUNT_HEADER] = "Accept-Language, Cookie", marker_of(account)
    response["X-Frame-Options"] = getattr(settings, "X_FRAME_OPTIONS", "DENY")
    return response


def member_poll(request, pk: int, kind: str):
    """304 for a member's unchanged game or night (`kind`; none of a night's games changed either:
    two round trips), from the cache alone; None to take the full path."""
    from scorekeeper.models import Game
    from scorekeeper.reads.nights import member_etag

    token = request.headers.get("X-Session-Token")
    session = token or request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    entries = {"game": "member", "night": "night-member"}
    if not session or (entry := kept.member_entry(session, pk, entries[kind])) is None:
        return None
    if kind == "game":
        etag = Game.etag_of(pk, entry.tag)
    else:  # its games' titles are in it: the language too
        etag = member_etag(pk, entry.tag, translation.get_language_from_request(request))
    if not asks_for(request, etag):
        return None
    return not_modified(etag, None if token else entry.user)


def sheet_poll(request, pk: int):
    """304 for a member's followed sheet of an unchanged game; None to take the full path."""
    from scorekeeper.reads.follow import sheet_etag

    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not session or (entry := kept.member_entry(session, pk, "sheet")) is None:
        return None
    if entry.language != translation.get_language_from_request(request):
        return None  # asked in another language than the page was drawn in: the full path says
    etag = sheet_etag(pk, entry.tag, entry.user, entry.role, entry.language)
    if not asks_for(request, etag):
        return None
    response = not_modified(etag, entry.user)
    response["Cache-Control"] = PRIVATE  # http.private.PrivateAnswersMiddleware's, for a page
    return response


def live_poll(request, token: str, kind: str, page: bool):
    """304 for an unchanged game or night (`kind`) seen through its live link (its JSON, or its
    page's body), from the cache and within the address's budget; None to take the full path (which
    also answers 404 and 429)."""
    from . import links

    if page and settings.SESSION_COOKIE_NAME in request.COOKIES:
        return None  # a signed-in viewer's page names their account (X-Account): the full path
    found = unchanged_link(request, token, kind, page)
    if found is None:
        return None
    _entry, etag, language = found
    if not page:
        return not_modified(etag)
    return links.body_headers(HttpResponseNotModified(), etag, language, signed_out=True)


def unchanged_link(request, token: str, kind: str, page: bool = False):
    """The trusted entry of live link `token` opening a game or night (`kind`), the ETag of its JSON
    (or page body) and the viewer's language, when that ETag is the one asked for and the address is
    within its budget (counted); else None."""
    from scorekeeper.models import LIVE_SELECTOR_LENGTH
    from scorekeeper.reads.live import link_etag

    from . import links

    selector, verifier = token[:LIVE_SELECTOR_LENGTH], token[LIVE_SELECTOR_LENGTH:]
    # One round trip: the budget counted, the epoch and the link, and the stamp of what it opens
    # (a night's games' stamps: a second).
    counter, window, _left = links.budget_key(request, token)
    if not kept.trusted():  # before the read (caches.kept): the full path counts the budget
        return None
    found = kept.quietly(
        backends.hit_then_follow,
        kept._cache(),
        counter,
        window + 1,
        [kept.epoch_key(), kept.link_key(selector)],
        kept.link_opens_key(kind, selector),
        kept.stamp_key(kind),
    )
    if found is None:
        return None
    request.live_count, request.live_count_key = found[0], counter  # counted: the full path counts it once
    entry = kept.link_entry(kind, found[1], found[2])
    if entry is None or not secrets.compare_digest(entry.verifier, kept.digest(verifier)):
        return None
    # in the viewer's language, read as LocaleMiddleware reads it (its cookie, else the header)
    language = translation.get_language_from_request(request)
    etag = link_etag(kind, selector, entry.tag, language, page=page)
    if not asks_for(request, etag) or links.retry_after(request, token):
        return None  # spent budgets are answered (429) by the full path
    return entry, etag, language


def stream_poll(request, name: str, kwargs: dict):
    """A stream's start for http.streams when the client has the current state already (its
    Last-Event-ID, sent on as If-None-Match): a comment, the stream's topics and its reader, from
    the cache alone (a phone's reconnect, a restart's thousands of them: docs/benchmarks.md); None
    to take the full path. Only the requests http.streams makes are answered here."""
    from scorekeeper.api.views import events
    from scorekeeper.models import Game

    if events.INTERNAL not in request.META or not request.accepts(events.MEDIA_TYPE):
        return None
    if STREAM_POLLS[name] is None:  # a member's game
        pk, token = kwargs["pk"], request.headers.get("X-Session-Token")
        session = token or request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        if not session or (entry := kept.member_entry(session, pk, "stream")) is None:
            return None
        etag = Game.etag_of(pk, entry.tag)
        if not asks_for(request, etag):
            return None
        topics = events.game_follows(pk, entry.book, events.reader_topics(session, entry.user))
        return _as_full(events.start(request, etag, None, (topics, entry.role or "")), None if token else entry.user)
    found = unchanged_link(request, kwargs["token"], STREAM_POLLS[name])
    if found is None:
        return None
    entry, etag, _language = found
    return _as_full(events.start(request, etag, None, (events.link_topics(entry.kind, entry.opens, entry.games), "")))


def _as_full(response, account: int | None = None):
    """A stream's start with the headers the full path's has (those of the middleware after this one)."""
    from scorekeeper.http.offline import ACCOUNT_HEADER, marker_of

    response["Vary"], response["Content-Language"] = "Accept-Language", translation.get_language()
    if account is not None:
        response["Vary"], response[ACCOUNT_HEADER] = "Accept-Language, Cookie", marker_of(account)
    response["X-Frame-Options"] = getattr(settings, "X_FRAME_OPTIONS", "DENY")
    return response


def answer(request):
    """The poll's 304, or None to take the full path."""
    try:
        request.get_host()  # a Host outside ALLOWED_HOSTS: the full path's 400
    except DisallowedHost:
        return None
    match = polled_view(request.path_info)
    if match is None:
        return None
    name, kwargs = match
    if name == SHEET_POLL:
        return sheet_poll(request, kwargs["pk"])
    if name in MEMBER_POLLS:
        return member_poll(request, kwargs["pk"], MEMBER_POLLS[name])
    if name in STREAM_POLLS:
        return stream_poll(request, name, kwargs)
    return live_poll(request, kwargs["token"], *LIVE_POLLS[name])


class CachedPollMiddleware:
    """Answers the polls above before the rest of the stack runs."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "GET" and "If-None-Match" in request.headers:
            response = answer(request)
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
    (the request signals, the stack of converters), about a third of a poll's CPU in gunicorn
    (docs/benchmarks.md). No database connection is touched on this path."""

    POLL = "scorekeeper.http.polls.CachedPollMiddleware"
    # A sieve before the URLconf is asked (the paths of POLLED, their converters' characters only):
    # anything else, a path no URL names or one a WSGI server could not have sent, goes to `app`.
    PATHS = re.compile(
        r"^/(?:api/v1/games/[0-9]{1,18}|games/[0-9]{1,18}/sheet|api/v1/live/[A-Za-z0-9_-]{1,64}"
        r"|live/[A-Za-z0-9_-]{1,64}/sheet|api/v1/nights/[0-9]{1,18}|api/v1/live/nights/[A-Za-z0-9_-]{1,64}"
        r"|live/nights/[A-Za-z0-9_-]{1,64}/tables|api/v1/games/[0-9]{1,18}/events"
        r"|api/v1/live/(?:nights/)?[A-Za-z0-9_-]{1,64}/events)/$"
    )

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
