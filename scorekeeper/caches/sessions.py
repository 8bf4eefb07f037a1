"""Sessions read from Redis, written through to the database (Django's cached_db), with one change:
a copy in Redis is trusted only under the stamp of its session and the epoch it was written in
(caches.kept). Django's own would hand back a copy that outlived its row: a session signed out
while Redis was paused, or written into the database's cache during an earlier outage, came back
signed in. Here a sign-out forgets the session's stamp (caches.rule), a copy is only ever read from
Redis itself (never the database's cache), and a write that could not reach Redis moves the epoch on.
"""

from django.contrib.sessions.backends import cached_db

from . import kept


class SessionStore(cached_db.SessionStore):
    def _copy_key(self, session_key: str) -> str:
        return f"{kept.space()}:session-data:{kept.digest(session_key)}"

    def _stamps(self, session_key: str) -> tuple | None:
        """The epoch and the session's stamp (made when missing), with the copy: one round trip."""
        if not kept.trusted():
            return None
        keys = [kept.epoch_key(), kept.session_key(session_key), self._copy_key(session_key)]
        found = kept.quietly(kept.look, keys, {kept.session_key(session_key): kept.new_stamp()})
        if found is None or not kept.still_trusted():
            return None
        values = found[0]
        return (values.get(kept.epoch_key(), 0), values.get(kept.session_key(session_key))), values.get(keys[2])

    def load(self):
        session_key = self._get_or_create_session_key()
        read = self._stamps(session_key)
        if read is not None:
            stamps, copy = read
            if copy is not None and copy.stamps == stamps:
                return copy.data
        row = self._get_session_from_db()
        if row is None:
            return {}
        data = self.decode(row.session_data)
        if read is not None:  # under the stamps read before the database: a sign-out since voids it
            kept.quietly(
                kept.set_many,
                {self._copy_key(session_key): kept.KeptSession(read[0], data)},
                self.get_expiry_age(expiry=row.expire_date),
            )
        return data

    def exists(self, session_key):
        return bool(session_key) and super(cached_db.SessionStore, self).exists(session_key)

    def save(self, must_create=False):
        # The stamps before the row: a sign-out between the two would otherwise be undone here.
        read = self._stamps(self.session_key) if self.session_key else None
        super(cached_db.SessionStore, self).save(must_create)
        read = read or self._stamps(self.session_key)
        if read is not None:
            kept.quietly(
                kept.set_many,
                {self._copy_key(self.session_key): kept.KeptSession(read[0], self._session)},
                self.get_expiry_age(),
            )

    def delete(self, session_key=None):
        super(cached_db.SessionStore, self).delete(session_key)
        session_key = session_key or self.session_key
        if session_key is not None:
            kept.forget([self._copy_key(session_key), kept.session_key(session_key)])
