"""Idempotency-Key for POSTs: a retry with the same key and body gets the first response again.

The key is claimed (committed) before the work starts, so a retry that arrives while the
first request still runs is told so (409); the response is stored in the same transaction
as the work it describes, so a stored response always matches what was written.

A claim names the database session that made it (PostgreSQL's backend pid). A worker killed in
the middle of a request takes its connection with it, so a retry that finds the claim's session
gone takes the key over at once instead of waiting ABANDONED_AFTER (a phone retrying a round
after a worker died got 409 for two minutes). Elsewhere, and for a claim naming no session, the
time rule stands.
"""

import hashlib
import json
from datetime import timedelta
from functools import wraps

from django.db import IntegrityError, connection, transaction
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from scorekeeper.models import IdempotencyKey

from .exceptions import IdempotencyKeyReused, RequestInProgress

HEADER = "Idempotency-Key"
KEPT_FOR = timedelta(hours=24)
# A claim this old with no response belongs to a request that died: let a retry take it over.
ABANDONED_AFTER = timedelta(minutes=2)
# "Try again later" answers are not the request's outcome: the key stays free for the retry they ask for.
NOT_AN_OUTCOME = frozenset({429, 503})
REPLAYED = "Idempotent-Replayed"


def idempotent(method):
    """Decorate an APIView's post()."""

    @wraps(method)
    def wrapper(view, request, *args, **kwargs):
        key = request.headers.get(HEADER)
        if key is None:
            return method(view, request, *args, **kwargs)
        if not 1 <= len(key) <= 255:
            raise ValidationError({HEADER: [_("An Idempotency-Key has 1 to 255 characters.")]})
        fingerprint = _fingerprint(request)
        record, fresh = _claim(request.user, key, fingerprint)
        if not fresh:
            if record.request_hash != fingerprint:
                raise IdempotencyKeyReused()
            if record.status_code is None:
                raise RequestInProgress()
            return _replay(record)
        try:
            with transaction.atomic():
                try:
                    response = method(view, request, *args, **kwargs)
                except Exception as exc:
                    response = view.handle_exception(exc)
                if response.status_code not in NOT_AN_OUTCOME:
                    record.status_code = response.status_code
                    record.response_body = json.loads(JSONRenderer().render(response.data) or b"null")
                    record.location = response.get("Location", "")
                    record.etag = response.get("ETag", "")
                    record.save(update_fields=["status_code", "response_body", "location", "etag"])
        except BaseException:
            IdempotencyKey.objects.filter(pk=record.pk, status_code__isnull=True).delete()
            raise
        if record.status_code is None:
            IdempotencyKey.objects.filter(pk=record.pk, status_code__isnull=True).delete()
        return response

    return wrapper


def _fingerprint(request) -> str:
    body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    # The query is part of the request (an import's ?scorebook=): the same key elsewhere is another request.
    return hashlib.sha256(f"{request.method} {request.get_full_path()}\n{body}".encode()).hexdigest()


def _claim(user, key: str, fingerprint: str) -> tuple[IdempotencyKey, bool]:
    """Claim the key (one INSERT on the usual path); an expired key, or one whose request died, is taken over."""
    now = timezone.now()
    for _attempt in range(3):  # the other request's claim may vanish between our insert and our read
        try:
            with transaction.atomic():
                claim = IdempotencyKey(owner=user, key=key, request_hash=fingerprint, claimed_by=_session())
                claim.save()
                return claim, True
        except IntegrityError:
            record = IdempotencyKey.objects.filter(owner=user, key=key).first()
        if record is not None:
            break
    else:
        raise RequestInProgress()
    expired = record.created_at < now - KEPT_FOR
    abandoned = record.status_code is None and (record.created_at < now - ABANDONED_AFTER or _gone(record))
    if expired or abandoned:
        # Only if nobody took it over in the meantime: created_at is the claim's identity.
        taken = IdempotencyKey.objects.filter(pk=record.pk, created_at=record.created_at)
        if taken.update(
            request_hash=fingerprint,
            created_at=now,
            status_code=None,
            response_body=None,
            location="",
            etag="",
            claimed_by=_session(),
        ):
            record.request_hash, record.created_at, record.status_code = fingerprint, now, None
            return record, True
    return record, False


def _session():
    """The claiming database session, written by the database itself (PostgreSQL); "" elsewhere."""
    return RawSQL("pg_backend_pid()::text", []) if connection.vendor == "postgresql" else ""


def _gone(record: IdempotencyKey) -> bool:
    """Whether the database session that claimed `record` has ended (its worker died with it)."""
    if connection.vendor != "postgresql" or not record.claimed_by.isdigit():
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [int(record.claimed_by)])
        return cursor.fetchone() is None


def _replay(record: IdempotencyKey) -> Response:
    headers = {REPLAYED: "true"}
    if record.location:
        headers["Location"] = record.location
    if record.etag:
        headers["ETag"] = record.etag
    return Response(record.response_body, status=record.status_code, headers=headers)


def purge_expired() -> int:
    deleted, _by_model = IdempotencyKey.objects.filter(created_at__lt=timezone.now() - KEPT_FOR).delete()
    return deleted
