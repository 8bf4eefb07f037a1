"""What the shared cache keeps so that a poll is answered without the database, and how an entry
earns trust.

A poll of an unchanged game (a member's API poll, a member's followed sheet, a live link's poll)
is answered 304 from one round trip to the cache when an entry says "this session, signed in as
this account, may read this game, which is at this version". An entry is written by a full request
after the database said so, and it is only trusted while the *stamps* it was written under are
still the current ones:

- `game:<pk>` changes with every write to the game and every change of who may read it;
- `session:<digest>` goes at sign-out;
- `account:<user>` goes with a new password, an account switched off or deleted;
- `epoch` moves on when a write could not tell the cache (Redis paused, restarting, unreachable).

A full request reads the stamps *before* it asks the database (a `Fence`), making any that are
missing, and writes its entry under the stamps it read then. A write that commits meanwhile
replaces a stamp after its commit, so the entry is born stale and never trusted: the race of an
invalidation against a full request remembering access cannot let a 304 through.

The stamps are taken away by one module only, `caches.rule` (a write announces what it changed).
What says "no longer trusted" never lives only in Redis or in a process: when a write cannot reach
Redis, it leaves a durable note in the database (`CacheNote`, committed with the write), and a Redis
this app has not seen before (restarted, restored from a snapshot, a replica promoted: its run_id)
is noted too. Every entry names the epoch it was written in, and the first process to reach Redis
again moves the epoch on past every note (`trusted`), so nothing written before is trusted after,
even when the process that made the write died meanwhile. A process trusts what it reads only under
a check of Redis and the notes less than REFRESH seconds old, made with a write Redis answered at
once (a Redis holding writes back is not trusted). The kept store never falls back to the
database's cache (an entry kept there in an earlier outage could be one a sign-out took away
since): while Redis is unreachable, every poll takes the full path.

By concern: `keys` (every key and how long it lives), `store` (the calls to the cache), `trust`
(forgetting, the epoch and the checks that earn trust), `fences` (the stamps a full request reads
before the database), `entries` (what it remembers and what a poll reads back: named entries,
never read by position). Callers use the names below.
"""

from .entries import (
    KeptAnswer,
    KeptPage,
    KeptSession,
    LinkEntry,
    MemberEntry,
    claim_making,
    link_entry,
    made_by_another,
    member_entry,
    poll_keys,
    remember_link,
    remember_member,
    remember_stream,
)
from .fences import LINK_GAME_TTL, Fence, fence, link_fence
from .keys import (
    STAMPED_BY,
    TTL,
    account_key,
    answer_key,
    answers_of,
    digest,
    epoch_key,
    game_key,
    lifetime,
    link_key,
    link_opens_key,
    member_key,
    new_stamp,
    night_games_key,
    page_key,
    pages_key,
    session_key,
    session_user_key,
    space,
    stamp_key,
)
from .store import _cache, get_many, look, peek, quietly, set_many
from .trust import distrust, forget, mend, still_trusted, trusted, wait_for_mending

__all__ = [
    "LINK_GAME_TTL",
    "STAMPED_BY",
    "TTL",
    "Fence",
    "KeptAnswer",
    "KeptPage",
    "KeptSession",
    "LinkEntry",
    "MemberEntry",
    "_cache",
    "account_key",
    "answer_key",
    "answers_of",
    "claim_making",
    "digest",
    "distrust",
    "epoch_key",
    "fence",
    "forget",
    "game_key",
    "get_many",
    "lifetime",
    "link_entry",
    "link_fence",
    "link_key",
    "link_opens_key",
    "look",
    "made_by_another",
    "member_entry",
    "member_key",
    "mend",
    "new_stamp",
    "night_games_key",
    "page_key",
    "pages_key",
    "peek",
    "poll_keys",
    "quietly",
    "remember_link",
    "remember_member",
    "remember_stream",
    "session_key",
    "session_user_key",
    "set_many",
    "space",
    "stamp_key",
    "still_trusted",
    "trusted",
    "wait_for_mending",
]
