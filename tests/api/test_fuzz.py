"""schemathesis over /api/schema/: generated requests for every operation, valid and invalid.

No response may be a server error, and every response must match the published schema
(status code, content type, headers, body).
"""

from contextlib import contextmanager

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from scorekeeper.wsgi import application
from tests.api.conftest import app_for, round_body, start_game

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
EXAMPLES_PER_OPERATION_AND_MODE = 20
MINIMUM_REQUESTS = 500


def real_parameters(path: str, owned: dict) -> dict:
    """Path parameters that name the user's own objects, so requests reach past the 404."""
    if path.startswith("/api/v1/players/"):
        return {"id": owned["player"]}
    if path.startswith("/api/v1/live/"):
        return {"token": owned["live"]}
    if path.startswith(("/api/v1/scorebooks/", "/api/v1/invites/")):
        return {"id": owned["scorebook"], "user_pk": owned["user"], "code": owned["invite"]}
    return {"id": owned["game"], "game_pk": owned["game"], "number": 1}


@contextmanager
def keep_test_connection():
    """As Django's test client does: requests through the WSGI app must not close the test's connection.

    (The test client connects the handler again after each of its own requests, so this wraps only
    the part of the test that goes through schemathesis.)
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.mark.django_db
def test_generated_requests_never_break_the_server_or_the_schema():
    app = app_for("fuzz@example.com")
    game = start_game(app)
    app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    book = app.get("/api/v1/scorebooks/").json()["results"][0]["id"]
    invite = app.post(f"/api/v1/scorebooks/{book}/invites/", {"role": "viewer"}).json()["code"]
    token = app.post(f"/api/v1/games/{game['id']}/share/").json()["token"]
    owned = {"game": game["id"], "player": game["players"][0]["id"], "scorebook": book, "user": app.user.pk,
             "invite": invite, "live": token}  # fmt: skip
    headers = {"X-Session-Token": app.headers["X-Session-Token"]}
    with keep_test_connection():
        schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
        operations = [result.ok() for result in schema.get_all_operations()]
        sent = sum(fuzz(operation, mode, owned, headers) for operation in operations for mode in GenerationMode)
    print(f"schemathesis sent {sent} requests over {len(operations)} operations")
    assert len(operations) >= 15
    assert sent >= MINIMUM_REQUESTS


def fuzz(operation, mode, owned, headers) -> int:
    """Run one operation's generated cases; return how many requests went out."""
    sent = 0

    @settings(
        max_examples=EXAMPLES_PER_OPERATION_AND_MODE,
        deadline=None,
        database=None,
        derandomize=True,  # the same cases every run: a failure is reproducible, never flaky
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode), aim_at_real_objects=st.booleans())
    def run(case, aim_at_real_objects):
        nonlocal sent
        if aim_at_real_objects and case.path_parameters:
            real = real_parameters(operation.path, owned)
            case.path_parameters = {name: real[name] for name in case.path_parameters}
        case.call_and_validate(headers=headers, checks=CHECKS)
        sent += 1

    try:
        run()
    except Unsatisfiable:
        # An operation with no parameters and no body has no invalid request to make.
        if mode is not GenerationMode.NEGATIVE:
            raise
    return sent
