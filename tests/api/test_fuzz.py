"""schemathesis over /api/schema/: generated requests for every operation, valid and invalid.

Every check Schemathesis has: no server error; every answer matches the published schema (status
code, content type, headers, body); invalid data is refused and valid data accepted; an
undocumented method is a 405 naming the allowed ones (Allow); a request without credentials is
refused. Valid data by the schema may still break a game rule the schema cannot say (a round whose
pips no deal can hold, a player of someone else's scorebook): 400 and 409 count as accepted there.
Ids name a seeded user's own objects half of the time, so requests reach past the 404. Strings are
drawn as a JSON client sends them (UTF-8, no NUL: the test below sends NULs on purpose), from
fixed seeds: the same cases every run, so a failure is reproducible and never flaky, and more than
one seed, so more cases.
"""

import os
import time
from contextlib import contextmanager

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import seed as with_seed
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS as REGISTERED_CHECKS
from schemathesis.checks import load_all_checks
from schemathesis.core.parameters import ParameterLocation

from scorekeeper.models import Game, IdempotencyKey, Invite, Membership, Player, Round, Scorebook, Season
from scorekeeper.wsgi import application
from tests.api.conftest import app_for, round_body, start_game

load_all_checks()
CHECKS = REGISTERED_CHECKS.get_all()  # every one
# Valid by the schema, refused by a game rule it cannot express (or by the state of the seeded game).
ACCEPTED = ["2xx", "3xx", "400", "401", "403", "404", "409", "412", "413", "422", "429"]
EXAMPLES_PER_OPERATION_AND_MODE = 6
# An import's document is the largest body to generate (games of rounds of entries): fewer of them.
EXAMPLES_OF = {"POST /api/v1/import/": 3}
MINIMUM_REQUESTS = 300
# Every seed by default (`make test`, on either database). CI fuzzes each database with one of them
# (FUZZ_SEEDS: 1 on SQLite, 2 on PostgreSQL, .ci/run), so every run still fuzzes both with the cases
# of both seeds between them, in half the time: these were the longest tests of the suite.
SEEDS = [int(seed) for seed in os.environ.get("FUZZ_SEEDS", "1,2").split(",")]
NUL_EXAMPLES_PER_OPERATION = 8


def real_parameters(path: str, owned: dict) -> dict:
    """Path parameters that name the user's own objects, so requests reach past the 404."""
    if path.startswith("/api/v1/players/"):
        return {"id": owned["player"]}
    if path.startswith("/api/v1/live/"):
        return {"token": owned["live"]}
    if path.startswith("/api/v1/seasons/"):
        return {"id": owned["season"]}
    if path.startswith(("/api/v1/scorebooks/", "/api/v1/invites/")):
        return {"id": owned["scorebook"], "user_pk": owned["user"], "code": owned["invite"]}
    return {"id": owned["game"], "number": 1, "player": owned["player"]}


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


def owned_objects() -> tuple[dict, dict]:
    """A user with one of everything (a game with a round, an invite, a live link); their ids and headers."""
    app = app_for("fuzz@example.com")
    game = start_game(app)
    app.post(f"/api/v1/games/{game['id']}/rounds/", round_body(game, 6, 3, 4))
    book = app.get("/api/v1/scorebooks/").json()["results"][0]["id"]
    invite = app.post(f"/api/v1/scorebooks/{book}/invites/", {"role": "viewer"}).json()["code"]
    token = app.post(f"/api/v1/games/{game['id']}/share/").json()["token"]
    season = app.post(
        f"/api/v1/scorebooks/{book}/seasons/", {"name": "Spring", "starts": "2025-03-01", "ends": "2025-05-31"}
    ).json()["id"]
    owned = {"game": game["id"], "player": game["players"][0]["id"], "scorebook": book, "user": app.user.pk,
             "invite": invite, "live": token, "season": season}  # fmt: skip
    return owned, {"X-Session-Token": app.headers["X-Session-Token"]}


def as_a_json_client_sends_them(schema):
    """Strings a JSON client can send: UTF-8 (no lone surrogates), no NUL."""
    schema.config.generation.update(codec="utf-8", allow_x00=False)
    return schema


@pytest.mark.django_db
@pytest.mark.parametrize("seed", SEEDS)
def test_generated_requests_never_break_the_server_or_the_schema(seed):
    owned, headers = owned_objects()
    with keep_test_connection():
        schema = as_a_json_client_sends_them(schemathesis.openapi.from_wsgi("/api/schema/", application))
        schema.config.checks.positive_data_acceptance.expected_statuses = ACCEPTED
        # A query parameter the API does not know is ignored, as HTTP APIs do: not invalid data.
        schema.config.generation.allow_extra_parameters = False
        operations = [result.ok() for result in schema.get_all_operations()]
        sent = 0
        took = {}
        for operation in operations:
            for mode in GenerationMode:
                started = time.monotonic()
                sent += fuzz(operation, mode, owned, headers, seed)
                took[operation.label, mode.value] = time.monotonic() - started
    slowest = sorted(took.items(), key=lambda item: -item[1])[:8]
    print(f"schemathesis sent {sent} requests over {len(operations)} operations in {sum(took.values()):.0f} s")
    print(f"slowest: {slowest}")
    assert len(operations) >= 15
    assert sent >= MINIMUM_REQUESTS


def fuzz(operation, mode, owned, headers, seed: int) -> int:
    """Run one operation's generated cases; return how many requests went out."""
    sent = 0
    negatable = any(
        len(part) for part in (operation.path_parameters, operation.query, operation.headers, operation.body)
    )
    if mode is GenerationMode.NEGATIVE and not negatable:
        return 0  # nothing in the request to make invalid

    @with_seed(seed)  # the same cases every run: a failure is reproducible, never flaky
    @settings(
        max_examples=EXAMPLES_OF.get(operation.label, EXAMPLES_PER_OPERATION_AND_MODE),
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode), aim_at_real_objects=st.booleans())
    def run(case, aim_at_real_objects):
        nonlocal sent
        # A path made invalid on purpose stays so: aimed at a real object it would be a valid request.
        path_negated = case.meta is not None and case.meta.is_negative_at(ParameterLocation.PATH)
        if aim_at_real_objects and case.path_parameters and not path_negated:
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


def snapshot() -> tuple:
    """Everything a refused request could have written."""
    return (
        list(Game.objects.order_by("pk").values_list("name", "version", "deleted_at")),
        Round.objects.count(),
        list(Player.objects.order_by("pk").values_list("name", "user_id")),
        list(Scorebook.objects.order_by("pk").values_list("name", flat=True)),
        list(Membership.objects.order_by("pk").values_list("role", "last_used_at")),
        Invite.objects.count(),
        IdempotencyKey.objects.count(),
        list(Season.objects.order_by("pk").values_list("name", "starts", "ends", "min_games", "drop_worst")),
    )


def put_nul(case, place: str) -> str:
    """Append a NUL to one value of a generated request (a path parameter, a query parameter, a
    header, a string in the JSON body), adding one where the request has none; say where."""
    if place == "path" and case.path_parameters:
        name = sorted(case.path_parameters)[0]
        case.path_parameters = {**case.path_parameters, name: f"{case.path_parameters[name]}\x00"}
        return f"path {name}"
    if place == "body" and isinstance(case.body, dict):
        strings = sorted(name for name, value in case.body.items() if isinstance(value, str))
        name = strings[0] if strings else sorted(case.body)[0] if case.body else "name"
        case.body = {**case.body, name: f"{case.body.get(name, '') if strings else ''}\x00"}
        return f"body {name}"
    if place == "header":
        case.headers = {**(case.headers or {}), "Idempotency-Key": "retry-\x00"}
        return "header Idempotency-Key"
    query = case.query or {}
    name = sorted(query)[0] if query else "page"
    case.query = {**query, name: f"{query.get(name, '')}\x00"}
    return f"query {name}"


@pytest.mark.django_db
def test_a_nul_anywhere_in_a_generated_request_is_a_json_400_that_changes_nothing():
    owned, headers = owned_objects()
    with keep_test_connection():
        schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
        operations = [result.ok() for result in schema.get_all_operations()]
        sent = sum(fuzz_nul(operation, owned, headers) for operation in operations)
    print(f"schemathesis sent {sent} requests with a NUL over {len(operations)} operations")
    assert sent >= NUL_EXAMPLES_PER_OPERATION * len(operations)


def fuzz_nul(operation, owned, headers) -> int:
    sent = 0

    @settings(
        max_examples=NUL_EXAMPLES_PER_OPERATION,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        case=operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
        place=st.sampled_from(["path", "query", "header", "body"]),
        aim_at_real_objects=st.booleans(),
    )
    def run(case, place, aim_at_real_objects):
        nonlocal sent
        # A path made invalid on purpose stays so: aimed at a real object it would be a valid request.
        path_negated = case.meta is not None and case.meta.is_negative_at(ParameterLocation.PATH)
        if aim_at_real_objects and case.path_parameters and not path_negated:
            real = real_parameters(operation.path, owned)
            case.path_parameters = {name: real[name] for name in case.path_parameters}
        where = put_nul(case, place)
        before = snapshot()
        response = case.call(headers=headers)
        assert response.status_code == 400, (operation.label, where, response.status_code, response.text[:200])
        assert response.headers["content-type"][0].startswith("application/json"), (operation.label, where)
        assert snapshot() == before, (operation.label, where)
        sent += 1

    run()
    return sent
