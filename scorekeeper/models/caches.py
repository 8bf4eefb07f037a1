"""What the shared cache must know that Redis cannot be trusted to keep (scorekeeper.caches.kept)."""

from django.db import models
from django.utils import timezone


class CacheNote(models.Model):
    """A durable note that the kept entries in Redis may be stale: a write that could not tell
    Redis what it changed (`redis` empty), or a Redis first seen under this `run_id` (restarted,
    restored from a snapshot, a replica promoted: what it holds may be from before writes that
    took things away). Whichever process next reaches Redis moves its epoch on past every note
    (caches.kept.trusted), so nothing kept before is trusted; a process that dies mid-outage
    loses nothing, the note is in the database, committed with the write."""

    redis = models.CharField(max_length=40, blank=True)
    made_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"cache note {self.pk}: {self.redis or 'a write Redis was not told of'}"
