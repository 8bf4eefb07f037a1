"""Proof from outside: a client generated from the published schema plays a whole game.

openapi-python-client generates a client from `manage.py spectacular`'s output (no warning
allowed) and another from allauth's own document (/_allauth/openapi.json); a phone's evening is
played with them alone (no hand-written request), touching every operation of /api/schema/, and
every answer is checked against its document (Schemathesis's response checks: status, headers,
content type, body), allauth's answers against allauth's.
"""

import importlib
import io
import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
import schemathesis
from django.core.management import call_command
from django.test import Client as DjangoClient
from django.utils import timezone
from PIL import Image

from scorekeeper.wsgi import application
from tests.api.test_fuzz import keep_test_connection

pytestmark = pytest.mark.django_db

GENERATOR = Path(sys.executable).parent / "openapi-python-client"
BASE = "http://testserver"


def generate(tmp_path: Path, name: str, document: dict):
    """Generate a client package from an OpenAPI document and import it."""
    source = tmp_path / f"{name}.json"
    source.write_text(json.dumps(document))
    config = tmp_path / "generator.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run: the generated code is used, not read
    command = [GENERATOR, "generate", "--path", source, "--meta", "none", "--output-path", tmp_path / name]
    done = subprocess.run([*command, "--config", config], capture_output=True, text=True, timeout=300, check=False)
    said = done.stdout + done.stderr
    assert done.returncode == 0 and "warning" not in said.lower() and "error" not in said.lower(), said
    return importlib.import_module(name)


@pytest.fixture
def generated(tmp_path, monkeypatch):
    schema_file = tmp_path / "schema.json"
    call_command("spectacular", file=str(schema_file), format="openapi-json", validate=True, fail_on_warn=True)
    ours = json.loads(schema_file.read_text())
    theirs = DjangoClient().get("/_allauth/openapi.json").json()
    monkeypatch.syspath_prepend(str(tmp_path))
    clients = generate(tmp_path, "scorekeeper_client", ours), generate(tmp_path, "allauth_client", theirs)
    yield ours, theirs, *clients
    for name in list(sys.modules):
        if name.startswith(("scorekeeper_client", "allauth_client")):
            del sys.modules[name]


class Recorder:
    """Every answer the generated clients got, read in full, to check against the schema."""

    def __init__(self):
        self.responses: list[httpx.Response] = []

    def __call__(self, response: httpx.Response):
        response.read()
        self.responses.append(response)


def test_a_client_generated_from_the_schema_plays_a_whole_game_with_nothing_written_by_hand(generated):
    schema_document, allauth_document, sk, auth = generated
    recorder = Recorder()
    transport = {"transport": httpx.WSGITransport(app=application), "event_hooks": {"response": [recorder]}}
    with keep_test_connection():
        evening(sk, auth, transport)
    schema = schemathesis.openapi.from_dict(schema_document)
    allauth = schemathesis.openapi.from_dict(allauth_document)
    touched = set()
    for response in recorder.responses:
        ours = response.request.url.path.startswith("/api/v1/")
        operation = (schema if ours else allauth).find_operation_by_path(
            response.request.method, response.request.url.path
        )
        assert operation is not None, response.request.url
        operation.validate_response(response)
        if ours:
            touched.add(operation.label)
    every = {result.ok().label for result in schema.get_all_operations()}
    assert every - touched == set()
    print(f"{len(recorder.responses)} answers checked, {len(touched)} operations of {len(every)} touched")


def evening(sk, auth, transport):
    from allauth_client import Client as AuthClient
    from allauth_client.api.authentication_account import post_allauth_client_v1_auth_signup as signup
    from allauth_client.api.authentication_current_session import delete_allauth_client_v1_auth_session as logout
    from allauth_client.models import Signup
    from scorekeeper_client import AuthenticatedClient, Client
    from scorekeeper_client import models as m
    from scorekeeper_client.api.v1 import (
        v1_export_retrieve,
        v1_games_create,
        v1_games_destroy,
        v1_games_events_retrieve,
        v1_games_export_retrieve,
        v1_games_finish_create,
        v1_games_history_list,
        v1_games_list,
        v1_games_partial_update,
        v1_games_retrieve,
        v1_games_rounds_create,
        v1_games_rounds_destroy,
        v1_games_rounds_list,
        v1_games_rounds_restore_create,
        v1_games_rounds_retrieve,
        v1_games_rounds_update,
        v1_games_seats_changes_last_destroy,
        v1_games_seats_create,
        v1_games_seats_destroy,
        v1_games_share_create,
        v1_games_share_destroy,
        v1_games_share_retrieve,
        v1_hands_count_create,
        v1_import_create,
        v1_invites_accept_create,
        v1_leaderboard_list,
        v1_live_events_retrieve,
        v1_live_nights_events_retrieve,
        v1_live_nights_retrieve,
        v1_live_retrieve,
        v1_me_retrieve,
        v1_me_stats_retrieve,
        v1_nights_destroy,
        v1_nights_events_retrieve,
        v1_nights_partial_update,
        v1_nights_retrieve,
        v1_nights_share_create,
        v1_nights_share_destroy,
        v1_nights_share_retrieve,
        v1_odds_retrieve,
        v1_players_create,
        v1_players_destroy,
        v1_players_list,
        v1_players_merge_create,
        v1_players_partial_update,
        v1_players_retrieve,
        v1_players_stats_retrieve,
        v1_scorebooks_create,
        v1_scorebooks_destroy,
        v1_scorebooks_invites_create,
        v1_scorebooks_list,
        v1_scorebooks_members_destroy,
        v1_scorebooks_members_partial_update,
        v1_scorebooks_nights_create,
        v1_scorebooks_nights_list,
        v1_scorebooks_partial_update,
        v1_scorebooks_retrieve,
        v1_scorebooks_seasons_create,
        v1_scorebooks_seasons_list,
        v1_seasons_destroy,
        v1_seasons_partial_update,
        v1_seasons_retrieve,
    )

    def sign_up(email: str) -> tuple[AuthenticatedClient, str]:
        anonymous = AuthClient(base_url=BASE, httpx_args=transport)
        answer = signup.sync_detailed("app", client=anonymous, body=Signup(email=email, password="domino-night-77"))
        assert answer.status_code == 200, answer.content
        token = answer.parsed.meta.session_token
        return AuthenticatedClient(
            base_url=BASE, token=token, prefix="", auth_header_name="X-Session-Token", httpx_args=transport
        ), token

    ann, ann_token = sign_up("ann@example.com")
    bea, bea_token = sign_up("bea@example.com")
    me = v1_me_retrieve.sync(client=ann)
    assert me.email == "ann@example.com"

    # Players, one of them linked to Ann's account.
    ids = []
    for name in ("Ann", "Ben", "Cy"):
        answer = v1_players_create.sync_detailed(client=ann, body=m.PlayerRequest(name=name), idempotency_key=name)
        assert answer.status_code == 201, answer.content
        ids.append(answer.parsed.id)
    again = v1_players_create.sync_detailed(client=ann, body=m.PlayerRequest(name="Ann"), idempotency_key="Ann")
    assert again.status_code == 201 and again.parsed.id == ids[0] and again.headers["Idempotent-Replayed"] == "true"
    refused = v1_players_create.sync_detailed(client=ann, body=m.PlayerRequest(name="ann"))
    assert refused.status_code == 400 and refused.parsed["name"]
    assert v1_players_list.sync(client=ann).count == 3
    linked = v1_players_partial_update.sync(ids[0], client=ann, body=m.PatchedPlayerPatchRequest(user=m.UserEnum.ME))
    assert linked.user.email == "ann@example.com"
    assert v1_players_retrieve.sync(ids[1], client=ann).name == "Ben"
    spare = v1_players_create.sync(client=ann, body=m.PlayerRequest(name="Spare"))
    assert v1_players_destroy.sync_detailed(spare.id, client=ann).status_code == 204
    # A guest archived and brought back; a duplicate merged into the one who stays.
    guest = v1_players_create.sync(client=ann, body=m.PlayerRequest(name="Guest"))
    archived = v1_players_partial_update.sync(guest.id, client=ann, body=m.PatchedPlayerPatchRequest(archived=True))
    assert archived.archived and v1_players_list.sync(client=ann).count == 3
    assert v1_players_list.sync(client=ann, archived=True).count == 4
    merged = v1_players_merge_create.sync(guest.id, client=ann, body=m.PlayerMergeRequest(into=ids[2]))
    assert merged.id == ids[2] and v1_players_list.sync(client=ann, archived=True).count == 3

    # A game of double-6: seven rounds, tiles in some, a correction, an undo and its restore.
    created = v1_games_create.sync_detailed(
        client=ann,
        body=m.GameCreateRequest(name="Friday", tile_set=m.TileSetEnum.VALUE_6, players=ids),
        idempotency_key="friday",
    )
    assert created.status_code == 201 and created.headers["ETag"]
    game = created.parsed
    renamed = v1_games_partial_update.sync_detailed(
        game.id, client=ann, body=m.PatchedGameUpdateRequest(name="Friday night"), if_match=created.headers["ETag"]
    )
    assert renamed.status_code == 200 and renamed.parsed.name == "Friday night"
    unchanged = v1_games_retrieve.sync_detailed(game.id, client=ann, if_none_match=renamed.headers["ETag"])
    assert unchanged.status_code == 304

    def entries(double: int) -> list:
        return [
            m.EntryWriteRequest(player=ids[0], pips=0, went_out=True),
            m.EntryWriteRequest(player=ids[1], pips=double + 3),
            m.EntryWriteRequest(player=ids[2], tiles=["5-4", "3-1"] if double != 5 else ["4-2"]),
        ]

    # Each round says which round it is and the game's ETag it was entered from, as the pages do.
    etag = renamed.headers["ETag"]
    for number, double in enumerate(range(6, -1, -1), start=1):
        answer = v1_games_rounds_create.sync_detailed(
            game.id,
            client=ann,
            body=m.RoundCreateRequest(starting_double=double, entries=entries(double), number=number),
            if_match=etag,
        )
        assert answer.status_code == 201, answer.content
        assert answer.parsed.number == number and answer.headers["ETag"] and answer.headers["Location"]
        etag = v1_games_retrieve.sync_detailed(game.id, client=ann).headers["ETag"]
    taken = v1_games_rounds_create.sync_detailed(
        game.id, client=ann, body=m.RoundCreateRequest(starting_double=0, entries=entries(0), number=7)
    )
    assert taken.status_code == 409 and isinstance(taken.parsed, m.RoundClash)
    assert taken.parsed.code == "round_taken" and taken.parsed.round_.number == 7
    stale = v1_games_rounds_create.sync_detailed(
        game.id,
        client=ann,
        body=m.RoundCreateRequest(starting_double=0, entries=entries(0)),
        if_match=created.headers["ETag"],
    )
    assert stale.status_code == 412 and stale.parsed.code == "precondition_failed"
    empty = v1_games_rounds_create.sync_detailed(
        game.id, client=ann, body=m.RoundCreateRequest(starting_double=0, entries=[])
    )
    assert empty.status_code == 400 and isinstance(empty.parsed, m.RoundErrors) and empty.parsed.errors
    assert v1_games_rounds_list.sync(game.id, client=ann).count == 7
    first = v1_games_rounds_retrieve.sync_detailed(game.id, 1, client=ann)
    fixed = entries(6)
    fixed[1].pips = 20
    corrected = v1_games_rounds_update.sync_detailed(
        game.id,
        1,
        client=ann,
        body=m.RoundWriteRequest(starting_double=6, entries=fixed),
        if_match=first.headers["ETag"],
    )
    assert corrected.status_code == 200 and corrected.parsed.entries[1].score == 20
    assert corrected.parsed.corrected_by.email == "ann@example.com"
    assert v1_games_rounds_destroy.sync_detailed(game.id, 7, client=ann).status_code == 204
    restored = v1_games_rounds_restore_create.sync_detailed(game.id, client=ann, idempotency_key="restore")
    again = v1_games_rounds_restore_create.sync_detailed(game.id, client=ann, idempotency_key="restore")
    assert restored.status_code == again.status_code == 201 and again.parsed.number == restored.parsed.number == 7
    finished = v1_games_retrieve.sync(game.id, client=ann)
    assert finished.status == m.StatusEnum.FINISHED and finished.winners == [ids[0]]
    assert finished.rating_changes[0].player == ids[0] and finished.rating_changes[0].before.mu == 25
    assert v1_games_list.sync(client=ann).results[0].standings[0].player == ids[0]
    history = v1_games_history_list.sync(game.id, client=ann)
    assert history.results[0].action == m.ActionEnum.ROUND_RESTORED

    # The live link, read without an account.
    share = v1_games_share_create.sync_detailed(game.id, client=ann, idempotency_key="share")
    assert v1_games_share_create.sync(game.id, client=ann, idempotency_key="share").token == share.parsed.token
    assert v1_games_share_retrieve.sync(game.id, client=ann).token == share.parsed.token
    live = v1_live_retrieve.sync(share.parsed.token, client=Client(base_url=BASE, httpx_args=transport))
    assert [player.name for player in live.players] == ["Ann", "Ben", "Cy"] and live.winners == ["Ann"]
    # Pushed updates: under WSGI a stream is its first event (the ASGI server holds it open).
    public = Client(base_url=BASE, httpx_args=transport)
    for stream in (
        v1_live_events_retrieve.sync_detailed(share.parsed.token, client=public),
        v1_games_events_retrieve.sync_detailed(game.id, client=ann),
    ):
        assert stream.status_code == 200 and b"\nevent: state\ndata: {" in stream.content
    assert v1_games_share_destroy.sync_detailed(game.id, client=ann).status_code == 204

    # A scorebook shared with Bea, who joins, scores, then leaves.
    club = v1_scorebooks_create.sync(client=ann, body=m.ScorebookRequest(name="Club"), idempotency_key="club")
    assert v1_scorebooks_list.sync(client=ann).count == 2
    v1_scorebooks_partial_update.sync(club.id, client=ann, body=m.PatchedScorebookPatchRequest(name="The club"))
    invite = v1_scorebooks_invites_create.sync(
        club.id, client=ann, body=m.InviteCreateRequest(role=m.InviteRoleEnum.VIEWER)
    )
    joined = v1_invites_accept_create.sync(invite.code, client=bea, idempotency_key="join")
    assert joined.role == m.RoleEnum.VIEWER
    bea_id = next(member.user for member in joined.members if member.email == "bea@example.com")
    promoted = v1_scorebooks_members_partial_update.sync(
        club.id, bea_id, client=ann, body=m.PatchedMemberRoleRequest(role=m.RoleEnum.SCORER)
    )
    assert {member.email: member.role for member in promoted.members}["bea@example.com"] == m.RoleEnum.SCORER
    assert v1_scorebooks_retrieve.sync(club.id, client=bea).name == "The club"

    # Export, and the export imported into the club; reports.
    document = v1_games_export_retrieve.sync(game.id, client=ann, format_=m.V1GamesExportRetrieveFormat.JSON)
    assert document.games[0].players == ["Ann", "Ben", "Cy"]
    everything = v1_export_retrieve.sync(client=ann)
    imported = v1_import_create.sync_detailed(
        client=bea, body=m.ExportDocumentRequest.from_dict(everything.to_dict()), scorebook=club.id
    )
    assert imported.status_code == 201 and imported.parsed.games == 1 and imported.parsed.rounds == 7
    board = v1_leaderboard_list.sync(client=ann)
    assert board.results[0].player.name == "Ann" and board.results[0].wins == 1
    stats = v1_players_stats_retrieve.sync(ids[0], client=ann)
    assert stats.games == 1 and stats.rating.mu > 25
    assert stats.streak.current == 1 and stats.nemesis is None and stats.comeback is None
    assert v1_me_stats_retrieve.sync(client=ann).total.wins == 1

    # A season of Ann's own scorebook around today: the Friday game is in its table.
    mine = v1_scorebooks_list.sync(client=ann).results[0].id
    odds = v1_odds_retrieve.sync(client=ann, players=",".join(map(str, ids)), scorebook=mine)
    assert [row.player for row in odds.players] == ids and odds.players[0].win_chance > 1 / 3
    today = timezone.localdate()
    week = m.SeasonRequest(name="This week", starts=today - timedelta(days=3), ends=today + timedelta(days=3))
    season = v1_scorebooks_seasons_create.sync_detailed(mine, client=ann, body=week, idempotency_key="week")
    assert season.status_code == 201 and season.parsed.table[0].name == "Ann" and season.parsed.champion == []
    clash = v1_scorebooks_seasons_create.sync_detailed(
        mine, client=ann, body=m.SeasonRequest(name="Today", starts=today, ends=today)
    )
    assert clash.status_code == 400 and clash.parsed["starts"]
    assert v1_scorebooks_seasons_list.sync(mine, client=ann).count == 1
    stricter = v1_seasons_partial_update.sync(season.parsed.id, client=ann, body=m.PatchedSeasonRequest(min_games=2))
    assert [row.qualified for row in stricter.table] == [False, False, False]
    assert v1_seasons_retrieve.sync(season.parsed.id, client=ann).min_games == 2
    assert v1_seasons_destroy.sync_detailed(season.parsed.id, client=ann).status_code == 204

    # A club night of Ann's own scorebook: the Friday game is a table of it, and its live link shows it.
    friday = v1_scorebooks_nights_create.sync_detailed(
        mine, client=ann, body=m.NightRequest(name="Friday club", date=today), idempotency_key="the-friday-night"
    )
    assert friday.status_code == 201 and friday.parsed.games == [] and friday.parsed.standings == []
    moved = v1_games_partial_update.sync(game.id, client=ann, body=m.PatchedGameUpdateRequest(night=friday.parsed.id))
    assert moved.night == friday.parsed.id
    night = v1_nights_retrieve.sync(friday.parsed.id, client=ann)
    assert [table.id for table in night.games] == [game.id] and night.standings[0].name == "Ann"
    assert v1_scorebooks_nights_list.sync(mine, client=ann).count == 1
    renamed_night = v1_nights_partial_update.sync(
        friday.parsed.id, client=ann, body=m.PatchedNightRequest(name="Friday")
    )
    assert renamed_night.name == "Friday"
    night_link = v1_nights_share_create.sync(friday.parsed.id, client=ann, idempotency_key="night-share")
    assert v1_nights_share_retrieve.sync(friday.parsed.id, client=ann).token == night_link.token
    shown = v1_live_nights_retrieve.sync(night_link.token, client=Client(base_url=BASE, httpx_args=transport))
    assert shown.name == "Friday" and shown.tables[0].players[0]["name"] == "Ann"
    for stream in (
        v1_live_nights_events_retrieve.sync_detailed(night_link.token, client=public),
        v1_nights_events_retrieve.sync_detailed(friday.parsed.id, client=ann),
    ):
        assert stream.status_code == 200 and b"\nevent: state\ndata: {" in stream.content
    assert v1_nights_share_destroy.sync_detailed(friday.parsed.id, client=ann).status_code == 204
    assert v1_nights_destroy.sync_detailed(friday.parsed.id, client=ann).status_code == 204

    # Bea leaves; the club's imported game goes, then the club; the game itself goes.
    assert v1_scorebooks_members_destroy.sync_detailed(club.id, bea_id, client=bea).status_code == 204
    club_game = v1_games_list.sync(client=ann, scorebook=club.id).results[0]
    assert v1_games_destroy.sync_detailed(club_game.id, client=ann).status_code == 204
    assert v1_scorebooks_destroy.sync_detailed(club.id, client=ann).status_code == 204
    assert v1_games_destroy.sync_detailed(game.id, client=ann).status_code == 204

    # A short game the table stops after its first round ("We stop here").
    short = v1_games_create.sync(
        client=ann, body=m.GameCreateRequest(name="Short", tile_set=m.TileSetEnum.VALUE_6, players=ids)
    )
    too_soon = v1_games_finish_create.sync_detailed(short.id, client=ann)
    assert too_soon.status_code == 409 and too_soon.parsed.code == "no_rounds"
    v1_games_rounds_create.sync(short.id, client=ann, body=m.RoundCreateRequest(starting_double=6, entries=entries(6)))
    # Dee arrives after round 1 and is undone; Cy goes to bed.
    dee = v1_players_create.sync(client=ann, body=m.PlayerRequest(name="Dee"))
    joined = v1_games_seats_create.sync_detailed(short.id, client=ann, body=m.SeatChangeRequest(player=dee.id))
    assert joined.status_code == 201 and joined.parsed.players[-1].joined_after == 1
    assert joined.parsed.players[-1].opening_total == max(row.total for row in joined.parsed.standings if row.rank)
    undone = v1_games_seats_changes_last_destroy.sync_detailed(short.id, client=ann)
    assert undone.status_code == 200 and [p.id for p in undone.parsed.players] == ids
    left = v1_games_seats_destroy.sync_detailed(short.id, ids[2], client=ann)
    assert left.status_code == 200 and left.parsed.players[2].left_after == 1 and left.parsed.standings[-1].rank is None
    stopped = v1_games_finish_create.sync_detailed(short.id, client=ann, idempotency_key="stop")
    assert stopped.status_code == 200 and stopped.parsed.status == m.StatusEnum.FINISHED
    assert stopped.parsed.ended_because == m.EndedBecauseEnum.AGREED and stopped.parsed.winners == [ids[0]]
    assert v1_games_destroy.sync_detailed(short.id, client=ann).status_code == 204

    # A hand counted from a photo (a plain table: no tile on it), and a file that is no photo.
    from scorekeeper_client.types import File

    table = io.BytesIO()
    Image.new("RGB", (64, 48), (120, 80, 40)).save(table, format="PNG")
    photo = File(payload=io.BytesIO(table.getvalue()), file_name="hand.png", mime_type="image/png")
    counted = v1_hands_count_create.sync_detailed(client=ann, body=m.HandPhotoRequest(image=photo, tile_set=12))
    assert counted.status_code == 200 and counted.parsed.pips >= 0
    text = File(payload=io.BytesIO(b"no photo"), file_name="hand.png", mime_type="image/png")
    refused = v1_hands_count_create.sync_detailed(client=ann, body=m.HandPhotoRequest(image=text, tile_set=12))
    assert refused.status_code == 400 and refused.parsed["image"]

    for token in (ann_token, bea_token):
        session = logout.sync_detailed(
            "app", client=AuthClient(base_url=BASE, headers={"X-Session-Token": token}, httpx_args=transport)
        )
        assert session.status_code == 401  # allauth's answer to a logout: no session any more
    assert v1_me_retrieve.sync_detailed(client=ann).status_code == 401
