"""Pushed updates: what a committed write changed, told to every open stream it touches.

`caches.rule.announce` is the one place that knows what a write changed; after the commit it calls
`publish`, which turns the change into topics (`game:12`, `book:3`, `night:5`, `session:<hash>`,
`account:7`) and tells this process's hub at once and, with REDIS_URL, every other process through
one Redis pub/sub channel. A stream (http.streams) listens to the topics of what it shows and of
who reads it; a topic it hears only wakes it: it then reads its resource again through the GET's
own code (never trusting the message), which also says whether the reader still has access.

Each process holds one subscriber (a task of its event loop), fanning out to its own streams. When
Redis is away (killed, paused, frozen, restarted, failed over) the subscriber reconnects with
backoff and jitter, `live` is false meanwhile and every stream checks its resource every 2 s
instead; once it is subscribed again every stream reads its resource once more, so a change
published while nobody listened is never missed (pub/sub delivers at most once). Without REDIS_URL
(`make run`, SQLite, tests) the hub is in-process only and always live.
"""

import asyncio
import hashlib
import json
import logging
import os
import random
import threading
import uuid
from collections import defaultdict
from collections.abc import Iterable

from django.conf import settings

logger = logging.getLogger(__name__)

CHANNEL = "scorekeeper:changes"
# This process: its own messages come back through Redis and are skipped. Made again in every child
# a fork makes: gunicorn's master may import this module (http.worker does) before it forks the
# workers, and workers sharing one origin would each skip the others' news.
ORIGIN = uuid.uuid4().hex


def _new_origin() -> None:
    global ORIGIN
    ORIGIN = uuid.uuid4().hex


os.register_at_fork(after_in_child=_new_origin)
# The subscriber's reconnecting: the first wait, the longest, and the health check of a quiet link
# (a frozen Redis sends no error; a PING unanswered within SOCKET_TIMEOUT ends the link).
FIRST_BACKOFF, LONGEST_BACKOFF = 0.25, 4.0
HEALTH_CHECK, SOCKET_TIMEOUT = 2, 3


def game_topic(pk) -> str:
    return f"game:{int(pk)}"


def book_topic(pk) -> str:
    return f"book:{int(pk)}"


def night_topic(pk) -> str:
    return f"night:{int(pk)}"


def account_topic(pk) -> str:
    return f"account:{int(pk)}"


def session_topic(key: str) -> str:
    """A session's topic names a hash of its key, never the key itself (topics cross Redis)."""
    return "session:" + hashlib.sha256(key.encode()).hexdigest()[:32]


def topics_of(change) -> list[str]:
    """The topics a change (caches.rule.Change) touches: a scorebook's names every game and night
    of it without listing them (a stream knows its own scorebook)."""
    return [
        *map(game_topic, sorted(change.games)),
        *map(book_topic, sorted(change.scorebooks)),
        *map(night_topic, sorted(change.nights)),
        *map(session_topic, sorted(change.sessions)),
        *map(account_topic, sorted(change.accounts)),
    ]


class Listener:
    """One open stream's slot: woken (a flag of size 1, so changes coalesce) by a topic it holds."""

    def __init__(self, topics: Iterable[str]):
        self.topics = frozenset(topics)
        self.woken = asyncio.Event()


class Hub:
    """This process's streams by topic, fed by `publish` (here) and the Redis subscriber (others)."""

    def __init__(self):
        self.listeners: dict[str, set[Listener]] = defaultdict(set)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.redis_live = False  # subscribed to Redis now
        self.subscriber: asyncio.Task | None = None
        self.reconnects = 0
        self.closing = False  # the process is shutting down: every stream ends (close)
        # Whether this is the site's only process (runserver, one worker): without Redis, only then
        # does every write reach its streams here. http.worker says so for gunicorn's workers.
        self.alone = True

    @property
    def live(self) -> bool:
        """Whether every change reaches this process's streams now: through Redis, or, without it,
        when this process is the only one (else its streams also check every 2 s by themselves: a
        write answered by another worker wakes nobody here)."""
        return self.redis_live if settings.REDIS_URL else self.alone

    def listen(self, topics: Iterable[str]) -> Listener:
        """A new listener (from the event loop the streams run in)."""
        self.loop = asyncio.get_running_loop()
        if settings.REDIS_URL and self.subscriber is None:
            self.subscriber = self.loop.create_task(self._subscribe())
        listener = Listener(topics)
        for topic in listener.topics:
            self.listeners[topic].add(listener)
        return listener

    def move(self, listener: Listener, topics: Iterable[str]) -> Listener:
        """The listener's topics changed (a night gained a table): the same slot under the new ones."""
        self.leave(listener)
        moved = Listener(topics)
        moved.woken = listener.woken
        for topic in moved.topics:
            self.listeners[topic].add(moved)
        return moved

    def leave(self, listener: Listener) -> None:
        for topic in listener.topics:
            held = self.listeners.get(topic)
            if held is not None:
                held.discard(listener)
                if not held:
                    del self.listeners[topic]

    def close(self) -> None:
        """The process begins to shut down (a deploy, a restart): every open stream is woken to end
        now, cleanly, so its browser comes back to a new process after its `retry:` instead of
        being held until the server's graceful timeout cancels it (from the event loop)."""
        self.closing = True
        for held in self.listeners.values():
            for listener in held:
                listener.woken.set()

    def deliver(self, topics: Iterable[str]) -> None:
        """Wake the listeners of `topics`; safe from any thread (a write commits in a worker thread)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        topics = list(topics)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._wake(topics)
        else:
            loop.call_soon_threadsafe(self._wake, topics)

    def _wake(self, topics: Iterable[str]) -> None:
        for topic in topics:
            for listener in self.listeners.get(topic, ()):
                listener.woken.set()

    def _wake_all(self) -> None:
        for held in self.listeners.values():
            for listener in held:
                listener.woken.set()

    async def _subscribe(self) -> None:
        """Hold one subscription to CHANNEL for this process, reconnecting for ever with backoff."""
        import redis.asyncio as redis

        backoff = FIRST_BACKOFF
        while True:
            client = redis.Redis.from_url(
                settings.REDIS_URL,
                socket_connect_timeout=SOCKET_TIMEOUT,
                socket_timeout=SOCKET_TIMEOUT,
                health_check_interval=HEALTH_CHECK,
            )
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                await pubsub.ping()
                await asyncio.wait_for(self._until_pong(pubsub), SOCKET_TIMEOUT)
                self.redis_live, backoff = True, FIRST_BACKOFF
                logger.info("Pushed updates: subscribed to Redis (%s reconnects before)", self.reconnects)
                self._wake_all()  # what was published while nobody listened is read now
                while True:
                    message = await pubsub.get_message(timeout=HEALTH_CHECK)
                    if message is None:
                        await pubsub.ping()  # a frozen or paused Redis: no answer within SOCKET_TIMEOUT
                        continue
                    if message.get("type") == "message":
                        self._heard(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a dead, paused or restarted Redis: every stream checks by itself
                if self.redis_live:
                    logger.warning("Pushed updates: Redis subscription lost (%s); streams poll meanwhile", error)
                    self.redis_live = False
                    self._wake_all()  # each reads once now (a change may have been lost), then every 2 s
                self.reconnects += 1
            finally:
                try:
                    await asyncio.wait_for(pubsub.aclose(), 1)
                    await asyncio.wait_for(client.aclose(), 1)
                except Exception:
                    pass
            await asyncio.sleep(backoff * random.uniform(0.5, 1.5))
            backoff = min(backoff * 2, LONGEST_BACKOFF)

    async def _until_pong(self, pubsub) -> None:
        while True:
            message = await pubsub.get_message(timeout=SOCKET_TIMEOUT)
            if message is not None and message.get("type") == "pong":
                return
            if message is not None and message.get("type") == "message":
                self._heard(message["data"])

    def _heard(self, data) -> None:
        try:
            message = json.loads(data)
        except (TypeError, ValueError):
            return
        if message.get("origin") != ORIGIN:
            self._wake(message.get("topics", ()))


hub = Hub()
_publisher = threading.local()


def publish(change) -> None:
    """After a write commits: wake this process's streams of it, and tell the others through Redis.
    Never raises: a write is done whatever becomes of its news (a stream that missed it while
    Redis was away reads its resource again when the subscription comes back)."""
    topics = topics_of(change)
    if not topics:
        return
    hub.deliver(topics)
    if not settings.REDIS_URL:
        return
    message = json.dumps({"origin": ORIGIN, "topics": topics})
    for attempt in (1, 2):  # a pooled connection from before a Redis restart fails once: a new one then
        try:
            _publisher_client().publish(CHANNEL, message)
            return
        except Exception as error:
            if attempt == 2:
                logger.warning("Pushed updates: could not publish %s (%s)", topics, error)


def _publisher_client():
    """This thread's Redis client for publishing (one connection each; a second left alone)."""
    client = getattr(_publisher, "client", None)
    if client is None or getattr(_publisher, "url", None) != settings.REDIS_URL:
        import redis

        client = _publisher.client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1
        )
        _publisher.url = settings.REDIS_URL
    return client
