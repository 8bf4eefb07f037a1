"""The one caching rule (scorekeeper.caches.rule): every write of services/ announces what it changed,
found by reading the code, not listed by hand, so a new write that does not fails here; and what a
write takes away (a demotion, a removal, a sign-out, a round) is never answered from the cache after."""

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

import scorekeeper
from scorekeeper import services
from scorekeeper.caches import rule
from scorekeeper.models import Role
from scorekeeper.services import scorebooks
from tests.roles import make_club, round_entries

ROOT = Path(scorekeeper.__file__).parent
# Calls that write rows: a function making one writes.
WRITES = {
    "save", "delete", "update", "create", "bulk_create", "bulk_update", "update_or_create", "get_or_create",
    "execute", "save_with_history", "_insert", "upsert_adding", "enqueue",
}  # fmt: skip


def _functions():
    """Every top-level function of every module of services/, by name, with its AST and module."""
    found = {}
    for info in pkgutil.iter_modules(services.__path__):
        module = importlib.import_module(f"scorekeeper.services.{info.name}")
        tree = ast.parse(inspect.getsource(module))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                found[node.name] = (node, info.name)
    return found


def _called(node) -> set[str]:
    names = set()
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            target = call.func
            names.add(target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", ""))
    return names


def _closure(functions, start: str, hit) -> bool:
    """Whether `start`, or a services function it calls (at any depth), satisfies `hit`."""
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name in seen or name not in functions:
            continue
        seen.add(name)
        calls = _called(functions[name][0])
        if hit(calls):
            return True
        todo += [call for call in calls if call in functions]
    return False


def _callers_outside_services(name: str) -> list[str]:
    """Modules outside services/ that call `name`."""
    callers = []
    for path in ROOT.rglob("*.py"):
        if "services" in path.parts or "migrations" in path.parts:
            continue
        if name in _called(ast.parse(path.read_text())):
            callers.append(str(path.relative_to(ROOT)))
    return callers


def test_every_write_of_the_services_announces_what_it_changed():
    functions = _functions()
    writers = [
        name
        for name in functions
        if not name.startswith("_") and _closure(functions, name, lambda calls: bool(calls & WRITES))
    ]
    assert {"submit_round", "set_role", "remove_member", "rename_player", "share", "delete_game"} <= set(writers)
    silent = []
    for name in writers:
        if _closure(functions, name, lambda calls: "announce" in calls):
            continue
        # A part of other writes (records, ratings' marks): used by services only, each caller announcing.
        callers = [other for other in functions if name in _called(functions[other][0]) and other != name]
        if callers and not _callers_outside_services(name):
            continue
        silent.append(f"services.{functions[name][1]}.{name}")
    assert silent == [], f"writes that change what someone sees must call caches.rule.announce: {silent}"


def test_the_rules_table_names_every_kind_of_write_it_is_told():
    heard = {change.what for change in rule.heard}
    table = rule.__doc__
    # Every announcement made while this suite ran so far fits a row of the table (by its words).
    for what in heard:
        assert any(word in table for word in what.split()), what


# What a write takes away stays away.


@pytest.fixture
def club(db):
    return make_club()


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_scorer_demoted_to_viewer_is_no_longer_answered_from_the_cache_as_a_scorer(club):
    scorer = signed_in(club.users["scorer"])
    sheet = reverse("game_sheet", args=[club.game.pk])
    etag = scorer.get(sheet)["ETag"]
    assert "-scorer-" in etag and scorer.get(sheet, headers={"If-None-Match": etag}).status_code == 304
    owner = club.users["owner"]
    scorebooks.set_role(book=club.book, role=Role.OWNER, user_id=club.users["scorer"].pk, new_role=Role.VIEWER)
    assert rule.heard[-1].what == "role changed" and rule.heard[-1].scorebooks == {club.book.pk}
    now = scorer.get(sheet, headers={"If-None-Match": etag})
    assert now.status_code == 200 and "-viewer-" in now["ETag"]
    assert 'id="enter-round"' not in scorer.get(reverse("game", args=[club.game.pk])).content.decode()
    assert 'id="enter-round"' in signed_in(owner).get(reverse("game", args=[club.game.pk])).content.decode()


def test_a_round_announces_its_game_once_for_every_write_that_makes_it(club):
    rule.heard.clear()
    services.record_round(
        game=club.game, starting_double=5, entries=round_entries(club.players[:3], (2, 6)), by=club.users["owner"]
    )
    changes = list(rule.heard)
    assert [change.what for change in changes] == ["game changed"] and changes[0].games == {club.game.pk}


def test_a_sheet_asked_in_another_language_than_it_was_kept_in_is_not_answered_304(club):
    owner = signed_in(club.users["owner"])
    sheet = reverse("game_sheet", args=[club.game.pk])
    english = owner.get(sheet)["ETag"]
    asked = owner.get(sheet, headers={"If-None-Match": english, "Accept-Language": "es"})
    assert asked.status_code != 304 or asked["ETag"] != english


def test_a_kept_page_is_keyed_by_what_it_shows_not_by_the_query_string(club, monkeypatch):
    from scorekeeper.caches import kept

    owner = signed_in(club.users["owner"])
    written = []
    real = kept.set_many
    monkeypatch.setattr(kept, "set_many", lambda data, timeout: written.append(list(data)) or real(data, timeout))
    for number in range(5):
        assert owner.get(reverse("game", args=[club.game.pk]) + f"?x={number}").status_code == 200
    pages = {key for keys in written for key in keys if ":page:" in key}
    assert pages == set()  # asked with a query string: drawn, never kept


def test_a_poll_with_a_host_outside_the_allowed_hosts_gets_the_full_paths_400(club):
    owner = signed_in(club.users["owner"])
    sheet = reverse("game_sheet", args=[club.game.pk])
    etag = owner.get(sheet)["ETag"]
    assert owner.get(sheet, headers={"If-None-Match": etag}).status_code == 304
    assert owner.get(sheet, headers={"If-None-Match": etag}, HTTP_HOST="evil.example").status_code == 400
