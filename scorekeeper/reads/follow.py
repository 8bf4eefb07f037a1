"""Members follow their games: the sheet, the round form and the home page of a signed-in member
ask every 2 s whether anything changed (an ETag, as the live view does, one loop in following.js) and
redraw what did, with a short notice of who changed what, read from the game's history.

A 304 costs two queries: the session, and the session's user read together with what the ETag
is made of (the game's version and the user's role in its scorebook; on the home page, a
fingerprint of the current scorebook's games). The user is checked as Django's authentication
checks it (backend, active, the session's hash of the password) and set on the request, so
nothing after the view reads it again: the account marker and the private-answer check use it.
Anything unusual (no session, a hash from an older secret, another kind of backend) takes
Django's own path instead, one query more.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Count, Max, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from .. import selectors
from ..models import Game, Membership
from ..models import HistoryAction as Action
from .history import Change, recent_keys
from .sheet import Sheet

# How many of the latest changes a followed page is sent, newest first: enough for what a table
# does in the seconds between two answers (a phone asleep for longer redraws without the rest).
RECENT = 5


def reader(request, *stages, fence=None):
    """The signed-in user with `stages` of annotations (each a dict or a Stage, applied in turn),
    set as request.user; None when nobody is signed in. `fence` (caches.kept.Fence) learns whose
    session it is before the account is checked."""
    user = from_session(request.session, stages, fence)
    if user is not None:
        request.user = user
        return user
    if not request.user.is_authenticated:
        return None
    return _annotated(auth.get_user_model()._default_manager.filter(pk=request.user.pk), stages).get()


@dataclass(frozen=True)
class Stage:
    """Annotations of the user made by `build(*numbers, *options)`, where `numbers` are the ints
    the query is asked with (a game's id) and `options` shape it. A reader's query made of Stages
    only is compiled once per process and database with stand-ins for the numbers, and sent as raw
    SQL with the real ones: building and compiling the subqueries cost more than running them
    (1.2 ms of 2.1 for a sheet's reader, bench/capacity.py)."""

    build: Callable[..., dict]
    numbers: tuple[int, ...] = ()
    options: tuple = ()

    def annotations(self, numbers=None) -> dict:
        return self.build(*(self.numbers if numbers is None else numbers), *self.options)


def _annotated(users, stages):
    for annotations in stages:
        users = users.annotate(**(annotations.annotations() if isinstance(annotations, Stage) else annotations))
    return users


# Stand-ins for the numbers a compiled query is asked with: no id is ever this far below zero.
_STAND_IN = -(2**62)
_compiled: dict[tuple, tuple[str, tuple] | None] = {}


def _user_with(user_id, stages):
    """The user `user_id` with `stages` of annotations, in one query (None when there is none)."""
    users = auth.get_user_model()._default_manager
    if not all(isinstance(stage, Stage) for stage in stages):
        return _annotated(users.filter(pk=user_id), stages).first()
    shape = (connection.vendor, *((stage.build, len(stage.numbers), stage.options) for stage in stages))
    if shape not in _compiled:
        _compiled[shape] = _compile(users, stages)
    if _compiled[shape] is None:  # a query whose numbers could not all be found among its parameters
        return _annotated(users.filter(pk=user_id), stages).first()
    sql, params = _compiled[shape]
    numbers = {_STAND_IN: user_id}
    for index, number in enumerate(number for stage in stages for number in stage.numbers):
        numbers[_STAND_IN + 1 + index] = number
    return next(iter(users.raw(sql, [numbers.get(p, p) if type(p) is int else p for p in params])), None)


def _compile(users, stages) -> tuple[str, tuple] | None:
    stand_ins, count = [], 1
    for stage in stages:
        stand_ins.append(tuple(range(_STAND_IN + count, _STAND_IN + count + len(stage.numbers))))
        count += len(stage.numbers)
    query = users.filter(pk=_STAND_IN)
    for stage, numbers in zip(stages, stand_ins, strict=True):
        query = query.annotate(**stage.annotations(numbers))
    sql, params = query.order_by("pk")[:1].query.sql_with_params()
    if not set(range(_STAND_IN, _STAND_IN + count)) <= {p for p in params if type(p) is int}:
        return None
    return sql, tuple(params)


def from_session(session, stages, fence=None):
    """django.contrib.auth.get_user's checks, on the user of `session` (a page's, or an app's
    session token's) read with the annotations: None whenever one of them is not plainly met, and
    Django's own path decides."""
    try:
        user_id = auth.get_user_model()._meta.pk.to_python(session[auth.SESSION_KEY])
        backend_path = session[auth.BACKEND_SESSION_KEY]
    except (KeyError, ValidationError):
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    backend = auth.load_backend(backend_path)
    if not isinstance(backend, ModelBackend) or type(backend).get_user is not ModelBackend.get_user:
        return None
    if fence is not None:
        fence.learn_account(user_id)
    user = _user_with(user_id, stages)
    if user is None or not backend.user_can_authenticate(user):
        return None
    session_hash = session.get(auth.HASH_SESSION_KEY)
    if not session_hash or not constant_time_compare(session_hash, user.get_session_auth_hash()):
        return None
    return user


# One game's sheet and round form.


def of_game(pk: int, *, role: bool = True, version: str = "game_version", book: bool = False) -> Stage:
    """The game's version (as `version`), unless `role` is False the user's role in its scorebook
    (as `game_role`), and with `book` the scorebook's id (as `game_book`), as annotations of the
    user: None for a game in the trash or of a scorebook the user is not in."""
    return Stage(_game_annotations, (pk,), (role, version, book))


def _game_annotations(pk: int, role: bool, version: str, book: bool = False) -> dict:
    game = Game.objects.alive().filter(pk=pk, scorebook__memberships__user=OuterRef("pk")).order_by()
    annotations = {version: Subquery(game.values("version")[:1])}
    if role:
        annotations["game_role"] = Subquery(game.values("scorebook__memberships__role")[:1])
    if book:
        annotations["game_book"] = Subquery(game.values("scorebook_id")[:1])
    return annotations


def sheet_etag(pk: int, version: int, user_pk: int, role: str, language: str | None = None) -> str:
    """What a member's followed sheet shows: the game's version, whose page it is (the notices
    leave out their own changes) with their role (it decides the controls), and the language."""
    return f'"sheet-{pk}-v{version}-u{user_pk}-{role}-{language or get_language()}"'


@dataclass(frozen=True)
class Follow:
    """What a page that follows a game carries: where to ask, the ETag it was drawn from, and
    the game as its script reads it (`state`)."""

    url: str
    etag: str
    state: dict
    events: str = ""  # its stream of pushed updates (api.views.events), if it has one


def of_sheet(sheet: Sheet, user, changes: list[Change]) -> Follow:
    """`sheet` as `user` (a member) sees it; `changes` the game's history, newest first."""
    return _of_game(sheet, user, state(sheet, user, changes))


def of_round_form(sheet: Sheet, user) -> Follow:
    """A new round's form: it shows no change, it only needs to know which ones it has seen (one
    query for their keys)."""
    return _of_game(sheet, user, state(sheet, user, []) | {"seen": recent_keys(sheet.game, RECENT)})


def _of_game(sheet: Sheet, user, state: dict) -> Follow:
    game = sheet.game
    etag = sheet_etag(game.pk, game.version, user.pk, game.role)
    events = reverse("api:game-events", kwargs={"pk": game.pk})
    return Follow(reverse("game_sheet", kwargs={"pk": game.pk}), etag, state, events)


def state(sheet: Sheet, user, changes: list[Change]) -> dict:
    """The game as the page scripts read it: what the round form offers, and the latest changes
    with a sentence each ("Bea changed round 4: José 30 → 36"), `mine` for the user's own; `seen`
    their keys, so a page knows which ones are new to it."""
    game = sheet.game
    return {
        "version": game.version,
        "role": getattr(game, "role", None),  # the controls outside the redrawn parts follow it
        "finished": game.is_finished,
        "next_number": sheet.next_number,
        "doubles": [[double, f"{double}-{double}"] for double in sheet.choosable_doubles],
        "changes": [
            {
                "key": change.key,
                "mine": change.by is not None and change.by.pk == user.pk,
                "by": change.by.short_name if change.by else None,
                "action": change.action,
                "round": change.round,
                "double": (change.after or change.before or {}).get("starting_double"),
                "text": describe(change),
            }
            for change in changes[:RECENT]
        ],
        "seen": [change.key for change in changes[:RECENT]],
    }


def describe(change: Change) -> str:
    """One change as a notice says it."""
    name = change.by.short_name if change.by else _("Someone")
    number = change.round
    match change.action:
        case Action.ROUND_RECORDED:
            double = change.after["starting_double"]
            return _("{name} recorded round {number} ({double}-{double})").format(
                name=name, number=number, double=double
            )
        case Action.ROUND_CORRECTED if change.differences:
            return _("{name} changed round {number}: {changes}").format(
                name=name, number=number, changes=", ".join(change.differences)
            )
        case Action.ROUND_CORRECTED:
            return _("{name} changed round {number}").format(name=name, number=number)
        case Action.ROUND_UNDONE:
            return _("{name} undid round {number}").format(name=name, number=number)
        case Action.ROUND_RESTORED:
            return _("{name} brought back round {number}").format(name=name, number=number)
        case Action.GAME_RENAMED:
            return _("{name} renamed the game “{before}” → “{after}”").format(
                name=name, before=change.before["name"], after=change.after["name"]
            )
        case Action.GAME_RESTORED:
            return _("{name} brought the game back from the trash").format(name=name)
        case Action.PLAYER_JOINED:
            return _("{name} seated {player} after round {number}").format(
                name=name, player=change.after["player"], number=change.after["after_round"]
            )
        case Action.PLAYER_LEFT:
            return _("{player} left after round {number}").format(
                player=change.after["player"], number=change.after["after_round"]
            )
        case Action.SEAT_TAKEN_OVER:
            return _("{player} took over from {other} after round {number}").format(
                player=change.after["player"], other=change.after["replaces"], number=change.after["after_round"]
            )
        case Action.PLAYER_JOINED_UNDONE | Action.PLAYER_LEFT_UNDONE | Action.SEAT_TAKEN_OVER_UNDONE:
            return _("{name} undid a change at the table ({player})").format(name=name, player=change.before["player"])
        case Action.GAME_FINISHED:
            return _("{name} ended the game after round {number}, as agreed").format(name=name, number=number)
        case Action.GAME_MADE_CASUAL:
            return _("{name} made it a friendly game").format(name=name)
        case Action.GAME_COUNTED:
            return _("{name} made the game count again").format(name=name)
        case Action.PLAYER_MERGED:
            return _("{name} merged two players into one").format(name=name)
        case Action.GAME_ENTERED:
            return _("{name} entered the game afterwards, from a paper sheet").format(name=name)
        case _:
            return _("{name} changed the game").format(name=name)


# The home page: the games of the scorebook the pages work in.


def home_annotations() -> tuple[dict, dict]:
    """The current scorebook (as selectors.current_scorebook picks it) and a fingerprint of its games, as
    two stages of annotations of the user: how many are alive, the sum of their versions (every
    change moves one on) and the newest; a deleted and a new game in one moment still differ."""
    current = Membership.objects.filter(user=OuterRef("pk")).order_by(*selectors.CURRENT_FIRST)
    games = Game.objects.alive().filter(scorebook_id=OuterRef("home_book")).order_by().values("scorebook_id")
    figures = {name: games.annotate(figure=aggregate).values("figure") for name, aggregate in _FIGURES.items()}
    return (
        {"home_book": Subquery(current.values("scorebook_id")[:1])},
        {name: Coalesce(Subquery(figure), Value(0)) for name, figure in figures.items()},
    )


_FIGURES = {"home_games": Count("pk"), "home_versions": Sum("version"), "home_newest": Max("pk")}


def of_home(book) -> Follow:
    """The home page of `book` (the current scorebook), its fingerprint read now (one query)."""
    return Follow(reverse("home_games"), home_etag(book.pk, _home_figures(book)), {})


def _home_figures(book) -> dict:
    return (
        Game.objects.alive()
        .filter(scorebook=book)
        .aggregate(**{name: Coalesce(aggregate, Value(0)) for name, aggregate in _FIGURES.items()})
    )


def figures_of(user) -> dict:
    """The fingerprint a user was read with (of_home)."""
    return {name: getattr(user, name) for name in _FIGURES}


def home_etag(book_pk: int, figures: dict) -> str:
    fingerprint = "-".join(str(figures[name]) for name in _FIGURES)
    return f'"home-{book_pk}-{fingerprint}-{get_language()}"'
