"""The live view: what a game's read-only link shows everyone at the table (services.live makes
and revokes links).

A token is a selector (to find the link) and a verifier compared in constant time, so a guess
learns nothing from how long the answer takes. Whoever holds the link sees player names and
scores only: no ids of the account's other objects, no email."""

import re
import secrets
from collections.abc import Callable

from django.core.cache import cache
from django.utils.translation import get_language

from ..caches import kept
from ..models import LIVE_SELECTOR_LENGTH, LIVE_TOKEN_LENGTH, Game, LiveLink, entry_values
from .sheet import Sheet, build_sheet

_TOKEN = re.compile(rf"^[A-Za-z0-9_-]{{{LIVE_TOKEN_LENGTH}}}$")


def find(token: str) -> LiveLink | None:
    """The link a token opens, with its game's version (one query), or None."""
    if not isinstance(token, str) or not _TOKEN.match(token):
        return None
    link = (
        LiveLink.objects.select_related("game")
        .only("selector", "verifier", "game__version", "game__id")
        .filter(selector=token[:LIVE_SELECTOR_LENGTH], game__deleted_at__isnull=True)
        .first()
    )
    if link is None or not secrets.compare_digest(link.verifier, token[LIVE_SELECTOR_LENGTH:]):
        return None
    return link


def page_etag(link: LiveLink) -> str:
    """The live page's ETag: the game's version (a change in the game or a rename of one of its
    players moves it on) and the language the page is written in, so a viewer's If-None-Match
    never keeps a body in another language. The JSON holds no words, so its ETag has none."""
    return page_etag_of(link.selector, link.game.version, get_language())


def page_etag_of(selector: str, version: int, language: str) -> str:
    return f'"live-{selector}-v{version}-{language}"'


def sheet_of(link: LiveLink) -> Sheet:
    """The whole sheet of the link's game (rounds and entries in order)."""
    game = Game.objects.with_seats().select_related("scorebook").get(pk=link.game_id)  # its clock: the scorebook's
    return build_sheet(game, list(game.seats.all()), list(game.rounds.order_by("number").with_entries()))


def public(sheet: Sheet) -> dict:
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
                    {
                        "name": names[entry.player_id],
                        **entry_values(entry),
                    }
                    for entry in row.round.entries.all()
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


def open_link(token: str) -> LiveLink | None:
    """What the page, its body and the API ask once the client's budget is counted (http.links): the
    link with its game's version (one query), or None when it opens nothing. What it found
    is remembered for the polls (caches.kept), under the stamps read before the database was asked.
    The first time a link is seen (its game not yet known to the cache: once a day per link), the
    game's stamp is read after the database: a revocation in that moment is trusted away only when
    the stamp expires (TTL), a window left open to keep this a one-query answer."""
    fence = kept.link_fence(token[:LIVE_SELECTOR_LENGTH]) if _TOKEN.match(token) else kept.Fence()
    link = find(token)
    if link is not None and fence.usable:
        if fence.game is None:
            fence.learn_game(link.game_id)
        if fence.game == link.game_id:
            kept.remember_link(fence, link.selector, link.verifier, link.game.version)
    return link


def shared(kind: str, etag: str, build: Callable[[], object]):
    """What every viewer of one version (and language: the ETag names it) is sent, built once and
    kept in the shared cache under its ETag. Nothing per viewer may go into it."""
    key = f"live-{kind}:{etag}"
    if (value := cache.get(key)) is None:
        value = build()
        cache.set(key, value, timeout=600)
    return value
