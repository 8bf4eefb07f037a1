"""The live wing: what a live link shows everyone who holds it, whatever it opens (a game: its sheet;
a night: its tables and standings, reads.nights), with one token, one budget (http.links), one kind
of kept entry (caches.kept) and one set of views (views.live, api.views.live). Services make and
revoke links (services.live).

A token is a selector (to find the link) and a verifier compared in constant time, so a guess
learns nothing from how long the answer takes. Whoever holds the link sees player names and
scores only: no ids of the account's other objects, no email.

What differs between the kinds is data: the link's model (`KINDS`), what its ETags are made of (a
game's version, a night's fingerprint: `tag`), what is read and how it is shown."""

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.translation import get_language

from ..caches import kept
from ..models import LIVE_SELECTOR_LENGTH, LIVE_TOKEN_LENGTH, Game, Link, LiveLink, NightLink, entry_values
from . import nights
from .sheet import Sheet, build_sheet

_TOKEN = re.compile(rf"^[A-Za-z0-9_-]{{{LIVE_TOKEN_LENGTH}}}$")
KINDS = {LiveLink.KIND: LiveLink, NightLink.KIND: NightLink}


def _links(kind: str):
    """Where a link of `kind` is looked for, with what its answer needs at once."""
    if kind == LiveLink.KIND:
        return (
            LiveLink.objects.select_related("game")
            .only("selector", "verifier", "game__version", "game__id")
            .filter(game__deleted_at__isnull=True)
        )
    return NightLink.objects.select_related("night")


def find(token: str, kind: str) -> Link | None:
    """The link of `kind` a token opens, with what it opens (one query), or None."""
    if not isinstance(token, str) or not _TOKEN.match(token):
        return None
    link = _links(kind).filter(selector=token[:LIVE_SELECTOR_LENGTH]).first()
    if link is None or not secrets.compare_digest(link.verifier, token[LIVE_SELECTOR_LENGTH:]):
        return None
    return link


def link_etag(kind: str, selector: str, tag, language: str | None = None, *, page: bool = False) -> str:
    """The ETag of a link's JSON, or (`page`) its page's body, at `tag` (a game's version, a night's
    fingerprint). A page is in the viewer's language, so its ETag names it: a viewer's If-None-Match
    never keeps a body in another language. A game's JSON holds no words; a night's holds its games'
    titles."""
    language = language or get_language()
    if kind == NightLink.KIND:
        return f'"night-{"page" if page else "live"}-{selector}-{tag}-{language}"'
    return f'"live-{selector}-v{tag}-{language}"' if page else f'"live-{selector}-v{tag}"'


@dataclass(frozen=True)
class Opened:
    """What a token opened: the link and the `tag` its ETags are made of, read with it."""

    kind: str
    link: Link
    tag: int | str

    def etag(self, *, page: bool = False, tag=None) -> str:
        return link_etag(self.kind, self.link.selector, self.tag if tag is None else tag, page=page)


def open_link(token: str, kind: str) -> Opened | None:
    """What the page, its body and the API ask once the client's budget is counted (http.links): the
    link of `kind` with what its ETags are made of (a game's version: one query; a night's
    fingerprint: one more), or None when it opens nothing. What it found is remembered for the polls
    (caches.kept), under the stamps read before the database was asked. The first time a game's link
    is seen (its game not yet known to the cache: once a day per link), the game's stamp is read
    after the database: a revocation in that moment is trusted away only when the stamp expires
    (TTL), a window left open to keep this a one-query answer. A night's link is only remembered
    from its next request (its games' stamps are never read after the database)."""
    fence = kept.link_fence(kind, token[:LIVE_SELECTOR_LENGTH]) if _TOKEN.match(token) else kept.Fence()
    link = find(token, kind)
    if link is None:
        return None
    if kind == LiveLink.KIND:
        tag, games = link.game.version, None
    else:
        found = nights.games_of(link.night_id)
        tag, games = nights.fingerprint(link.night, found), tuple(pk for pk, _version, _gone in found)
    kept.remember_link(fence, kind, link.opens_id, link.selector, link.verifier, tag, games)
    return Opened(kind, link, tag)


def sheet_of(link: LiveLink) -> Sheet:
    """The whole sheet of the link's game (rounds and entries in order)."""
    game = Game.objects.with_seats().select_related("scorebook").get(pk=link.game_id)  # its clock: the scorebook's
    return build_sheet(game, list(game.seats.all()), list(game.rounds.order_by("number").with_entries()))


def read(opened: Opened) -> Sheet | nights.NightRead:
    """What the link opens, read in full: a game's sheet, or a night's tables and standings."""
    return sheet_of(opened.link) if opened.kind == LiveLink.KIND else nights.read(opened.link.night)


def tag_of(opened: Opened, content: Sheet | nights.NightRead):
    return content.game.version if opened.kind == LiveLink.KIND else content.part


def public(opened: Opened, content: Sheet | nights.NightRead) -> dict:
    """What the link's JSON says: names and numbers only, no ids."""
    return _public_game(content) if opened.kind == LiveLink.KIND else nights.public(content)


def _public_game(sheet: Sheet) -> dict:
    """The game as GET one game shows it, less anything private: players by name only. Everything
    about its state is the sheet's (the state the write path saved)."""
    game, state = sheet.game, sheet.state
    names = {seat.player_id: seat.player.name for seat in sheet.seats}
    return {
        "name": str(game),
        "tile_set": game.tile_set,
        "rules": {key: value for key, value in game.rules.as_dict().items() if key != "tile_set"},
        "players": [{"name": seat.name} for seat in state.seats],
        "status": Game.Status.FINISHED if state.finished else Game.Status.IN_PROGRESS,
        "next_starting_double": state.next_double,
        "rounds": [
            {
                "number": row.round.number,
                "starting_double": row.round.starting_double,
                "blocked": row.round.blocked,
                "entries": [
                    {"name": names[entry.player_id], **entry_values(entry)} for entry in row.round.entries.all()
                ],
            }
            for row in sheet.rows
            if row.round is not None
        ],
        "standings": [{"name": seat.name, "total": seat.total, "rank": seat.rank} for seat in state.standings],
        "winners": [seat.name for seat in state.standings if seat.is_winner],
        "suggested_deal": {"tiles": sheet.deal.tiles, "alternative": sheet.deal.alternative},
        "created_at": game.created_at,
        "finished_at": game.finished_at,
    }


def kept_body(opened: Opened, what: str, build: Callable[[object], object]) -> tuple[object, str]:
    """What every viewer of the link at one tag (and language: the ETag names both) is sent as
    `what` ("json", or "page": its page's body), built once by `build` from a fresh read and kept in
    the shared cache under its ETag; the body and its ETag. A read that finds what the link opens
    already changed since it was opened is sent as it is (under its own ETag) and not kept: a body is
    only ever kept under the ETag it was built at. Nothing per viewer may go into it."""
    page = what != "json"
    key = f"live-{what}:{opened.etag(page=page)}"
    if (value := cache.get(key)) is not None:
        return value, opened.etag(page=page)
    content = read(opened)
    value, tag = build(content), tag_of(opened, content)
    if tag == opened.tag:
        cache.set(key, value, timeout=600)
    return value, opened.etag(page=page, tag=tag)
