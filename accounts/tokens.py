"""The app's session tokens (X-Session-Token): allauth's session strategy, its lookup in one read."""

from allauth.headless.internal import sessionkit
from allauth.headless.tokens.strategies.sessions import SessionTokenStrategy


class OneReadSessionTokens(SessionTokenStrategy):
    """allauth's own strategy asks the session store whether the token's session exists, then
    loads it: two reads of Redis on every app request (cached_db), or two queries. allauth's
    sessionkit loads it once (a missing or expired session clears its key: None, a 401)."""

    def lookup_session(self, session_token):
        return sessionkit.lookup_session(session_token)
