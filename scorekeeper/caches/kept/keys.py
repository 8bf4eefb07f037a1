"""Every key of the kept entries and their stamps, and how long each lives."""

import functools
import hashlib
import random
import secrets

from django.conf import settings

# Seconds an entry or a stamp stands unless something renews it: the bound on how long a missed
# invalidation could matter if every other safeguard failed.
TTL = 60


def lifetime() -> int:
    """An entry's seconds: between half of TTL and TTL, drawn anew at each write. Entries written
    together (a club's phones opening their games at 7 pm, or a server's restart) would otherwise
    expire together, every TTL seconds, and their phones would all take the full way at once: at
    1,500 phones that storm queued rounds for up to a second (docs/benchmarks.md)."""
    return random.randint(TTL // 2, TTL)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:40]


def new_stamp() -> str:
    return secrets.token_hex(8)


# Keys. Their prefix is made of the SECRET_KEY: a new secret (sessions signed with the old one are
# Django's to judge again) starts from an empty cache. And of the entries' FORMAT: a release that
# changes what an entry holds never reads one an older release wrote.
FORMAT = 2


def space() -> str:
    return _space_of(settings.SECRET_KEY)


@functools.lru_cache(maxsize=4)
def _space_of(secret: str) -> str:
    """Remembered per secret: every key starts with it, and hashing the secret anew for each was
    most of what making a key cost."""
    return f"kept{FORMAT}:" + digest(secret)[:8]


def epoch_key() -> str:
    return f"{space()}:epoch"


def stamp_key(kind: str, pk: int | str = "") -> str:
    """The stamp of a game or a night (`kind` "game" or "night"); with no `pk`, the prefix of every one's."""
    return f"{space()}:{kind}:{pk}"


def game_key(pk: int | str = "") -> str:
    """A game's stamp; with no `pk`, the prefix of every game's."""
    return stamp_key("game", pk)


def session_key(session: str) -> str:
    return f"{space()}:session:{digest(session)}"


def session_user_key(session: str) -> str:
    """The account a session is signed in as (an int: the cache follows it to the account's stamp)."""
    return f"{space()}:session-user:{digest(session)}"


def account_key(user_pk: int | str = "") -> str:
    return f"{space()}:account:{user_pk}"


# What a member's entry of each kind is written for: a game (its API answer, its followed sheet) or a night.
STAMPED_BY = {"member": "game", "sheet": "game", "stream": "game", "night-member": "night"}


def member_key(session: str, pk: int, kind: str = "member") -> str:
    """A session's entry for game or night `pk`, of `kind` (STAMPED_BY)."""
    return f"{space()}:{kind}:{digest(session)}:{pk}"


def link_key(selector: str) -> str:
    """A live link's entry, whatever it opens."""
    return f"{space()}:live:{selector}"


def link_opens_key(kind: str, selector: str) -> str:
    """The number of the game or night (`kind`) a link opens, alone: the cache follows it to its stamp."""
    return f"{space()}:live-{kind}:{selector}"


def answer_key(pk: int, language: str) -> str:
    """The API's answer for game `pk` in `language`, the same for every member (a KeptAnswer)."""
    return f"{space()}:answer:{pk}:{language}"


def pages_key(pk: int) -> str:
    """The list of game `pk`'s kept pages (caches.pages), so they go with the game's stamp."""
    return f"{space()}:pages-of:{pk}"


def page_key(pk: int, vary: str) -> str:
    return f"{space()}:page:{pk}:{vary}"


def answers_of(pk: int) -> list[str]:
    return [answer_key(pk, code) for code, _name in settings.LANGUAGES]


def night_games_key(pk: int) -> str:
    """The night's games as the last full request found them (sorted ids): the fence's guess."""
    return f"{space()}:night-games:{pk}"
