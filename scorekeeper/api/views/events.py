"""Pushed updates (API.md, "Pushed updates"): a game, a night, or either through its live link, as
a stream of Server-Sent Events.

This view answers what a stream starts with: the GET's own answer, through the GET's own view
(its access checks, its budget, its ETag, its body: never a second rendering). An error is sent as
the GET sent it (401, 403, 404, 429 with Retry-After); a 200 becomes the stream's first event, `id:`
its ETag and `data:` its JSON on one line, or a comment when `Last-Event-ID` is that ETag already.

Served under WSGI (`make run`, gthread) that is the whole answer: the stream ends after its first
event and the browser comes back after `retry:` (2 s), a poll in the stream's clothes. Under
the Procfile's ASGI server, http.streams holds the connection: it asks this view again (with the
ETag it sent as Last-Event-ID) whenever a write touching the stream's topics commits
(caches.push), and sends what changed, or `event: gone` when the GET no longer answers 200. The
topics come back to it in an internal header only it can ask for (`INTERNAL`).
"""

import random

from django.db.models import OuterRef, Subquery
from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.caches import kept, push
from scorekeeper.models import LIVE_SELECTOR_LENGTH, Game, LiveLink, Membership, Night, NightLink
from scorekeeper.reads.live import KINDS

from .common import ErrorSerializer, errors_for
from .games import GameDetail
from .live import LiveGameView, LiveNightView
from .nights import NightDetail

MEDIA_TYPE = "text/event-stream"
# The WSGI environ key http.streams sets on the requests it makes itself ("connect" or "reread"),
# which a client cannot set (headers become HTTP_* keys); and the headers it alone is answered.
INTERNAL = "scorekeeper.stream"
TOPICS_HEADER, ETAG_HEADER, READER_HEADER = "X-Stream-Topics", "X-Stream-ETag", "X-Stream-Reader"
RETRY_MS = (2000, 6000)  # each connection's own, so a restart's reconnects spread out

LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    str,
    OpenApiParameter.HEADER,
    description="The ETag of the last state received (browsers send it when they reconnect): when it is still "
    "the current one, the stream starts with a comment instead of the state.",
)
STREAM = OpenApiResponse(
    OpenApiTypes.ANY,  # each event: fields, not a JSON document
    description="text/event-stream: first `id: <ETag>`, `event: state`, `data: <the GET's JSON>`; then one `state` "
    "per change (coalesced), a comment at least every 15 s, and `event: gone` (an empty `data:`, then the end) when access is taken "
    "away. `retry:` is 2000-6000 ms.",
)


class AnyAccept(BaseContentNegotiation):
    """The answer is a stream or a JSON error whatever Accept says; the view checks Accept itself."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class Events(APIView):
    """The stream of one resource: `read` is its GET view, `topics` what a stream of it listens to."""

    authentication_classes = []  # the GET's own view authenticates (once)
    permission_classes = []
    renderer_classes = [JSONRenderer]
    content_negotiation_class = AnyAccept
    read = None

    def perform_authentication(self, request):
        pass  # request.user stays the session's (AuthenticationMiddleware), for the GET's view to read

    def http_method_not_allowed(self, request, *args, **kwargs):
        # A stream is only read. Another method is refused as on every other route: credentials first
        # (an anonymous caller hears 401, as the GET's view would say), then 405.
        request.authenticators = self._read_authenticators()
        if request.authenticators and not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        return super().http_method_not_allowed(request, *args, **kwargs)

    def get_authenticate_header(self, request):
        authenticators = self._read_authenticators()
        return authenticators[0].authenticate_header(request) if authenticators else None

    def _read_authenticators(self):
        return [auth() for auth in type(self).read.view_class.authentication_classes]

    def get(self, request, **kwargs):
        django_request = request._request
        if not django_request.accepts(MEDIA_TYPE):
            return Response(
                {"detail": _("This is a stream of events: accept text/event-stream."), "code": "not_acceptable"},
                status=status.HTTP_406_NOT_ACCEPTABLE,
            )
        last = django_request.headers.get("Last-Event-ID", "")
        meta = django_request.META
        meta.pop("HTTP_IF_NONE_MATCH", None)
        if last and "*" not in last and "," not in last:
            meta["HTTP_IF_NONE_MATCH"] = last  # a 304 then: nothing new since the client's last state
        meta["HTTP_ACCEPT"] = "application/json"
        for parsed in ("headers", "accepted_types"):  # read from META before it changed
            django_request.__dict__.pop(parsed, None)
        answer = type(self).read(django_request, **kwargs)
        if hasattr(answer, "render"):
            answer.render()
        if answer.status_code not in (200, 304):
            return answer  # the GET's error, as the GET answers it
        internal = django_request.META.get(INTERNAL)
        follows = self.follows(django_request, **kwargs) if internal else None
        return start(django_request, answer["ETag"], answer.content if answer.status_code == 200 else None, follows)

    def follows(self, request, **kwargs) -> tuple[list[str], str]:
        """The topics a stream of the resource listens to, and what its reader may do with it beside
        reading it: a page drawn for a scorer offers controls a viewer's does not, so a new role is
        sent as a state again (the same ETag: the resource did not change) and the page asks for
        itself. A link's reader is no one (""). None for a game (read by the GET's own query, with
        the version; one when the GET's session needed DRF), two for a night (re-read by every
        stream of a table after each round)."""
        raise NotImplementedError


def start(request, etag: str, state: bytes | None, follows: tuple[list[str], str] | None) -> HttpResponse:
    """A stream's first bytes: the state (the GET's JSON), or a comment when it is the one the client
    has (None); for http.streams (`follows`: its topics and reader), in internal headers too. Made
    here for the full path and for the cache's (http.polls.stream_poll), so both answer alike."""
    internal = request.META.get(INTERNAL)
    # Held open (ASGI): a random retry, so a restart's reconnects spread out. Served whole (WSGI):
    # the stream ends here and its browser comes back after the shortest, as a 2 s poll would.
    retry = random.randint(*RETRY_MS) if internal else RETRY_MS[0]
    parts = [] if internal == "reread" else [f"retry: {retry}\n\n".encode()]
    if state is None:
        parts.append(b": unchanged\n\n")
    else:  # JSON has no line break inside a value: any there is whitespace between tokens
        data = state.replace(b"\r", b"").replace(b"\n", b"")
        parts.append(b"id: %s\nevent: state\ndata: %s\n\n" % (etag.encode(), data))
    stream = HttpResponse(b"".join(parts), content_type=MEDIA_TYPE)
    stream["Cache-Control"], stream["X-Accel-Buffering"] = "no-cache", "no"
    if follows is not None:
        topics, reader = follows
        stream[ETAG_HEADER], stream[TOPICS_HEADER], stream[READER_HEADER] = etag, " ".join(topics), reader
    return stream


def reader_topics(session: str | None, user: int) -> list[str]:
    """A member's stream ends with their session or account: a sign-out, a new password, a deletion."""
    topics = [push.account_topic(user)]
    return [*topics, push.session_topic(session)] if session else topics


def link_topics(kind: str, opens, games=None) -> list[str]:
    """What a stream through a live link listens to: its game, or its night and each of the night's
    games (`games`: their ids, read from the database when None)."""
    if kind == NightLink.KIND:
        return _night_topics(opens, games)
    return [push.game_topic(opens)]


def _reader_topics(request) -> list[str]:
    return reader_topics(request.headers.get("X-Session-Token") or request.session.session_key, request.user.pk)


def _night_topics(night_id, games=None) -> list[str]:
    """A night changes with any of its tables: a round at one announces only that game."""
    if games is None:
        games = Game.objects.filter(night_id=night_id).values_list("pk", flat=True)
    return [push.night_topic(night_id), *map(push.game_topic, games)]


def _book_and_role(request, model, pk) -> tuple[int | None, str]:
    """The scorebook of a member's game or night, and their role in it ("" when none): one query."""
    role = Membership.objects.filter(scorebook_id=OuterRef("scorebook_id"), user_id=request.user.pk).values("role")
    book, reader = model.objects.filter(pk=pk).values_list("scorebook_id", Subquery(role[:1])).first() or (None, None)
    return book, reader or ""


def game_follows(pk: int, book: int | None, readers: list[str]) -> list[str]:
    """The topics of a member's stream of game `pk` (its scorebook `book`, the reader's topics)."""
    return [push.game_topic(pk), *([push.book_topic(book)] if book is not None else []), *readers]


def _selector(token: str) -> str:
    return token[:LIVE_SELECTOR_LENGTH]


SCHEMA = {
    "parameters": [LAST_EVENT_ID],
    "responses": {
        (200, MEDIA_TYPE): STREAM,
        **errors_for(401, 404),
        406: OpenApiResponse(ErrorSerializer, description="Accept excludes text/event-stream."),
    },
}
LIVE_SCHEMA = {
    "auth": [],
    "parameters": [LAST_EVENT_ID],
    "responses": {
        (200, MEDIA_TYPE): STREAM,
        404: OpenApiResponse(ErrorSerializer, description="Unknown, replaced or revoked link."),
        406: OpenApiResponse(ErrorSerializer, description="Accept excludes text/event-stream."),
        429: OpenApiResponse(ErrorSerializer, description="Too many requests from this address: see Retry-After."),
    },
}


class GameEvents(Events):
    read = GameDetail.as_view()

    @extend_schema(description="A member's game as it changes.", **SCHEMA)
    def get(self, request, pk):
        return super().get(request, pk=pk)

    def follows(self, request, pk):
        read = GameDetail.stream_of(request)
        if read is not None:  # read with the version, its entry kept with the GET's: no query, no write
            book, role = read
        else:  # a session the GET's one query does not serve (DRF authenticated it)
            book, role = _book_and_role(request, Game, pk)
            fence, user = getattr(request, "fence", None), request.user
            if fence is not None and getattr(user, "etag_version", None) is not None:  # read after the fence
                kept.remember_stream(fence, user.pk, user.etag_version, book, role)
        return game_follows(pk, book, _reader_topics(request)), role


class NightEvents(Events):
    read = NightDetail.as_view()

    @extend_schema(description="A member's club night as it changes.", **SCHEMA)
    def get(self, request, pk):
        return super().get(request, pk=pk)

    def follows(self, request, pk):
        book, role = _book_and_role(request, Night, pk)
        return [
            *_night_topics(pk),
            *([push.book_topic(book)] if book is not None else []),
            *_reader_topics(request),
        ], role


class LiveEvents(Events):
    """What a live link opens (`kind`: a game, or a night and each of its tables), as it changes."""

    read = LiveGameView.as_view()
    kind = LiveLink.KIND

    @extend_schema(description="A game through its live link, as it changes.", **LIVE_SCHEMA)
    def get(self, request, token):
        return super().get(request, token=token)

    def follows(self, request, token):
        model = KINDS[self.kind]
        opened = model.objects.filter(selector=_selector(token)).values_list(f"{model.KIND}_id", flat=True)
        return [topic for pk in opened for topic in link_topics(self.kind, pk)], ""


class LiveNightEvents(LiveEvents):
    read = LiveNightView.as_view()
    kind = NightLink.KIND

    @extend_schema(description="A night through its live link, as it changes.", **LIVE_SCHEMA)
    def get(self, request, token):
        return super().get(request, token=token)
