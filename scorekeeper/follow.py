"""Members follow their games: the sheet, the round form and the home page of a signed-in member
ask every 2 s whether anything changed (an ETag, as the live view does, one loop in app.js) and
redraw what did, with a short notice of who changed what, read from the game's history.

A 304 costs two queries: the session, and the session's user read together with what the ETag
is made of (the game's version and the user's role in its scorebook; on the home page, a
fingerprint of the current scorebook's games). The user is checked as Django's authentication
checks it (backend, active, the session's hash of the password) and set on the request, so
nothing after the view reads it again: the account marker and the private-answer check use it.
Anything unusual (no session, a hash from an older secret, another kind of backend) takes
Django's own path instead, one query more.
"""

from dataclasses import dataclass

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError
from django.db.models import Count, Max, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from . import scorebooks
from .history import Change, recent_keys
from .models import Game, Membership
from .models import HistoryAction as Action
from .sheet import Sheet

# How many of the latest changes a followed page is sent, newest first: enough for what a table
# does in the seconds between two answers (a phone asleep for longer redraws without the rest).
RECENT = 5


def reader(request, *stages: dict):
    """The signed-in user with `stages` of annotations (each a dict, applied in turn), set as
    request.user; None when nobody is signed in."""
    user = from_session(request.session, stages)
    if user is not None:
        request.user = user
        return user
    if not request.user.is_authenticated:
        return None
    return _annotated(auth.get_user_model()._default_manager.filter(pk=request.user.pk), stages).get()


def _annotated(users, stages):
    for annotations in stages:
        users = users.annotate(**annotations)
    return users


def from_session(session, stages):
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
    user = _annotated(auth.get_user_model()._default_manager.filter(pk=user_id), stages).first()
    if user is None or not backend.user_can_authenticate(user):
        return None
    session_hash = session.get(auth.HASH_SESSION_KEY)
    if not session_hash or not constant_time_compare(session_hash, user.get_session_auth_hash()):
        return None
    return user


# One game's sheet and round form.


def of_game(pk: int) -> dict:
    """The game's version and the user's role in its scorebook, as annotations of the user: None
    for a game in the trash or of a scorebook the user is not in."""
    game = Game.objects.alive().filter(pk=pk, scorebook__memberships__user=OuterRef("pk")).order_by()
    return {
        "game_version": Subquery(game.values("version")[:1]),
        "game_role": Subquery(game.values("scorebook__memberships__role")[:1]),
    }


def sheet_etag(pk: int, version: int, user_pk: int, role: str) -> str:
    """What a member's followed sheet shows: the game's version, whose page it is (the notices
    leave out their own changes) with their role (it decides the controls), and the language."""
    return f'"sheet-{pk}-v{version}-u{user_pk}-{role}-{get_language()}"'


@dataclass(frozen=True)
class Follow:
    """What a page that follows a game carries: where to ask, the ETag it was drawn from, and
    the game as its script reads it (`state`)."""

    url: str
    etag: str
    state: dict


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
    return Follow(reverse("game_sheet", kwargs={"pk": game.pk}), etag, state)


def state(sheet: Sheet, user, changes: list[Change]) -> dict:
    """The game as the page scripts read it: what the round form offers, and the latest changes
    with a sentence each ("Bea changed round 4: José 30 → 36"), `mine` for the user's own; `seen`
    their keys, so a page knows which ones are new to it."""
    game = sheet.game
    return {
        "version": game.version,
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
        case _:
            return _("{name} changed the game").format(name=name)


# The home page: the games of the scorebook the pages work in.


def home_annotations() -> tuple[dict, dict]:
    """The current scorebook (as scorebooks.current picks it) and a fingerprint of its games, as
    two stages of annotations of the user: how many are alive, the sum of their versions (every
    change moves one on) and the newest; a deleted and a new game in one moment still differ."""
    current = Membership.objects.filter(user=OuterRef("pk")).order_by(*scorebooks.CURRENT_FIRST)
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
