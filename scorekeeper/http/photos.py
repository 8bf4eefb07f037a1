"""What a photo to count (POST /api/v1/hands/count/) may take of a worker: its bytes, its place
and its share of the account's minutes.

- **Bytes.** An upload whose Content-Length is over the photo limit (plus the form's envelope) is
  refused before anything reads it (the session, the CSRF check, the parser): 400 naming `image`.
  One within it is read into memory by `InMemoryPhotoHandler`, never into a temporary file (Django
  spools an upload over FILE_UPLOAD_MAX_MEMORY_SIZE to disk): the photo is never stored.
- **Place.** At most `AT_ONCE` photos are decoded and counted at once in a worker process
  (`counting_slot`): the others are answered at once (503, Retry-After), so photos never hold
  every thread while rounds wait. The page tries again after Retry-After.
- **Minutes.** Each account counts at most settings.HAND_COUNTS_PER_MINUTE photos a minute, counted
  in the shared cache like the live link's budget (every worker and node sees the same count): more
  is a 429 with Retry-After.
"""

import contextlib
import threading
import time
from functools import cache as once

from django.conf import settings
from django.core.cache import cache
from django.core.files.uploadhandler import MemoryFileUploadHandler
from django.http import JsonResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from ..caches import backends as shared_cache
from ..vision.image import MAX_BYTES

ENVELOPE = 64 * 1024  # the multipart parts around the photo: its headers and the tile_set field
AT_ONCE = 2
WINDOW = 60
_slots = threading.BoundedSemaphore(AT_ONCE)


@once
def count_path() -> str:
    return reverse("api:hand-count")


def too_large_message() -> str:
    return _("The photo is larger than {size} MB.").format(size=MAX_BYTES // (1024 * 1024))


class InMemoryPhotoHandler(MemoryFileUploadHandler):
    """Django's in-memory upload handler, used whatever the upload's size: the body is already
    known to be no longer than the limit (PhotoUploadMiddleware)."""

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        self.activated = True


class PhotoUploadMiddleware:
    """Before anything reads the body of a photo to count: refuse one too long, and keep the rest
    in memory."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "POST" and request.path_info == count_path():
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0  # Django answers a broken length itself
            if length > MAX_BYTES + ENVELOPE:
                with translation.override(translation.get_language_from_request(request)):
                    return JsonResponse({"image": [too_large_message()]}, status=400)
            request.upload_handlers = [InMemoryPhotoHandler(request)]
        return self.get_response(request)


@contextlib.contextmanager
def counting_slot():
    """True inside while this request holds one of the worker's AT_ONCE places to count a photo;
    False (at once, no wait) when they are all taken."""
    taken = _slots.acquire(blocking=False)
    try:
        yield taken
    finally:
        if taken:
            _slots.release()


def retry_after(user) -> int:
    """0 when this account may count one more photo now (the count is kept); otherwise the
    seconds until its minute ends."""
    now = int(time.time())
    start = now - now % WINDOW
    count = shared_cache.hit(cache, f"hand-count-rate:{user.pk}:{start}", WINDOW + 1)
    return 0 if count <= settings.HAND_COUNTS_PER_MINUTE else start + WINDOW - now or 1
