"""A game's sheet page kept whole in the shared cache (scorekeeper.caches.pages): sent again for two
queries while the game stays as it was, never to someone the database no longer lets in, always
with the request's own CSRF token, drawn again whenever anything it shows changes."""

import json
import re
from html import unescape

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.caches import pages as pagecache
from scorekeeper.models import Game, Role
from scorekeeper.reads import follow
from scorekeeper.services import live as links
from scorekeeper.services import scorebooks
from tests.roles import make_club, round_entries

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def club():
    return make_club()


def signed_in(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def _token(page: str) -> str:
    return TOKEN.search(page)[1]


def sheet(client, club):
    response = client.get(reverse("game", args=[club.game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_sheet_opened_again_is_sent_as_kept_for_two_queries(club, django_assert_num_queries):
    owner = signed_in(club.users["owner"])
    first = sheet(owner, club)
    # 1 the session, 2 the user with the game's version and their role: nothing of the game is read
    with django_assert_num_queries(2):
        again = sheet(owner, club)
    same = [re.sub(r'nonce="[^"]+"', "", TOKEN.sub("", page).replace(_token(page), "")) for page in (first, again)]
    assert same[0] == same[1] and "Ann" in again


def test_a_kept_page_carries_the_requests_own_csrf_token_and_it_works(club):
    owner = signed_in(club.users["owner"], enforce_csrf_checks=True)
    sheet(owner, club)
    page = sheet(owner, club)
    assert pagecache.hole() not in page
    tokens = set(TOKEN.findall(page))
    assert len(tokens) == 1  # every form of the page, and htmx's header, with this request's token
    assert f'"X-CSRFToken": "{tokens.pop()}"' in page
    token = TOKEN.search(page)[1]
    renamed = owner.post(reverse("rename_game", args=[club.game.pk]), {"name": "Kept", "csrfmiddlewaretoken": token})
    assert renamed.status_code == 302 and Game.objects.get(pk=club.game.pk).name == "Kept"
    assert "Kept" in sheet(owner, club)  # the rename moved the version on: drawn again


def test_another_member_is_sent_their_own_page_with_their_own_controls(club):
    owner, viewer = signed_in(club.users["owner"]), signed_in(club.users["viewer"])
    sheet(owner, club)
    owners, viewers = sheet(owner, club), sheet(viewer, club)
    assert club.users["owner"].email in owners and club.users["owner"].email not in viewers
    assert club.users["viewer"].email in viewers
    assert 'id="enter-round"' in owners and 'id="enter-round"' not in viewers


def followed_state(page: str) -> dict:
    """The game as the page's script reads it (follow-state)."""
    return json.loads(unescape(re.search(r'<script id="follow-state" type="application/json">(.*?)</script>', page)[1]))


def test_a_new_round_is_on_the_sheet_at_once(club):
    owner = signed_in(club.users["owner"])
    sheet(owner, club)
    before = followed_state(sheet(owner, club))
    game = Game.objects.get(pk=club.game.pk)
    services.record_round(
        game=game, starting_double=5, entries=round_entries(club.players[:3], (40, 41)), by=club.users["owner"]
    )
    after = followed_state(sheet(owner, club))
    assert after["version"] == before["version"] + 1 and after["next_number"] == before["next_number"] + 1


def test_a_removed_member_is_refused_though_their_page_was_kept(club):
    viewer = signed_in(club.users["viewer"])
    sheet(viewer, club)
    sheet(viewer, club)
    owner = club.users["owner"]
    scorebooks.remove_member(book=club.book, role=Role.OWNER, by=owner, user_id=club.users["viewer"].pk)
    assert viewer.get(reverse("game", args=[club.game.pk])).status_code == 404


def test_a_member_whose_role_changed_gets_the_controls_of_the_new_role(club):
    viewer = signed_in(club.users["viewer"])
    assert 'id="enter-round"' not in sheet(viewer, club)
    club.book.memberships.filter(user=club.users["viewer"]).update(role=Role.SCORER)
    assert 'id="enter-round"' in sheet(viewer, club)


def test_stopping_and_making_the_live_link_draw_the_page_again(club):
    owner = signed_in(club.users["owner"])
    assert club.live.token in sheet(owner, club)
    assert owner.post(reverse("revoke_share", args=[club.game.pk])).status_code == 302
    stopped = sheet(owner, club)
    assert club.live.token not in stopped and 'id="make-live"' in stopped
    link = links.share(game=Game.objects.get(pk=club.game.pk), by=club.users["owner"])
    assert link.token in sheet(owner, club)


def test_a_page_with_a_message_shows_it_once_and_is_not_kept(club):
    owner = signed_in(club.users["owner"])
    sheet(owner, club)
    restored = owner.post(reverse("delete_game", args=[club.game.pk]))
    assert restored.status_code == 302
    assert owner.post(reverse("restore_game", args=[club.game.pk])).status_code == 302
    with_message = sheet(owner, club)
    assert "is back." in with_message
    assert "is back." not in sheet(owner, club)


def test_pages_in_two_languages_are_kept_apart(club):
    owner = signed_in(club.users["owner"])
    english = sheet(owner, club)
    owner.cookies["language"] = "es"
    spanish = sheet(owner, club)
    assert "Score sheet" in english and "Score sheet" not in spanish and 'lang="es"' in spanish


def test_with_the_cache_failing_the_page_is_drawn_each_time(club, monkeypatch):
    owner = signed_in(club.users["owner"])

    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    for method in ("get", "get_many", "set", "add"):
        monkeypatch.setattr(cache, method, down)
    assert "Ann" in sheet(owner, club) and "Ann" in sheet(owner, club)


# The reader's query compiled once (follow.Stage): the same answers as the ORM's own query.


@pytest.mark.parametrize("who", ["owner", "viewer", "stranger"])
def test_the_compiled_readers_query_answers_as_the_orms_does(club, who):
    user = club.users[who]
    stages = [follow.of_game(club.game.pk)]
    compiled = follow._user_with(user.pk, stages)
    orm = follow._annotated(type(user)._default_manager.filter(pk=user.pk), stages).get()
    assert (compiled.pk, compiled.email, compiled.game_version, compiled.game_role) == (
        orm.pk,
        orm.email,
        orm.game_version,
        orm.game_role,
    )
    assert (compiled.game_version is None) == (who == "stranger")
    other = follow._user_with(user.pk, [follow.of_game(club.game.pk + 1000)])
    assert other.game_version is None  # another game's number: its own answer, not the first one's


def test_a_trashed_game_is_no_game_to_the_compiled_query(club):
    owner = club.users["owner"]
    services.delete_game(game=Game.objects.get(pk=club.game.pk), by=owner)
    assert follow._user_with(owner.pk, [follow.of_game(club.game.pk)]).game_version is None
    assert follow._user_with(owner.pk + 1000, [follow.of_game(club.game.pk)]) is None


def test_a_stage_whose_numbers_the_query_does_not_carry_takes_the_orms_query(club):
    from django.db.models import Value

    owner = club.users["owner"]
    stage = follow.Stage(lambda number: {"constant": Value(number * 0 + 7)}, (club.game.pk,))  # no parameter of it
    assert follow._user_with(owner.pk, [stage]).constant == 7
    assert follow._compiled[(follow.connection.vendor, (stage.build, 1, ()))] is None


def test_a_player_renamed_in_the_admin_is_renamed_on_the_kept_sheet(club):
    owner = club.users["owner"]
    owner.is_superuser = owner.is_staff = True
    owner.save()
    client = signed_in(owner)
    assert "Annabel" not in sheet(client, club)
    ann = club.players[0]
    form = {"name": "Annabel", "scorebook": club.book.pk, "user": ""}
    answer = client.post(f"/admin/scorekeeper/player/{ann.pk}/change/", form)
    assert answer.status_code == 302, answer.content[:2000]
    assert "was changed successfully" in sheet(client, club)  # the admin's message: a page drawn, not kept
    assert "Annabel" in sheet(client, club)


def test_a_kept_page_carries_the_requests_own_csp_nonce_as_its_header_does(club):
    owner = signed_in(club.users["owner"])
    nonces = []
    for _ in range(3):
        response = owner.get(reverse("game", args=[club.game.pk]))
        header = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"])
        page = response.content.decode()
        assert header is not None and f'nonce="{header[1]}"' in page and pagecache.hole("nonce") not in page
        assert len(set(re.findall(r'nonce="([^"]+)"', page))) == 1
        nonces.append(header[1])
    assert len(set(nonces)) == 3  # every request its own


def test_a_kept_page_is_one_per_host_it_shows_never_one_per_spelling_of_the_host_header(club, monkeypatch):
    from scorekeeper.caches import kept

    owner = signed_in(club.users["owner"])
    written = []
    real = kept.set_many
    monkeypatch.setattr(kept, "set_many", lambda data, timeout: written.append(list(data)) or real(data, timeout))
    hosts = [f"127.0.0.1:{port}" for port in range(10000, 10020)] + ["127.0.0.1:" + "9" * 4000, "127.0.0.1."]
    shown = set()
    for host in hosts:
        response = owner.get(reverse("game", args=[club.game.pk]), HTTP_HOST=host)
        assert response.status_code == 200, host
        shown |= set(re.findall(r"https?://[^/\"]+/live/", response.content.decode()))
    pages = {key for keys in written for key in keys if ":page:" in key}
    assert len(pages) == 1  # one page, of the one host it shows
    assert shown == {"http://127.0.0.1/live/"}
    owner.get(reverse("game", args=[club.game.pk]), HTTP_HOST="127.0.0.1:80")  # the port it is served on
    assert len({key for keys in written for key in keys if ":page:" in key}) == 2


def test_a_page_asked_under_a_host_only_a_pattern_allows_is_drawn_and_never_kept(club, monkeypatch, settings):
    from scorekeeper.caches import kept

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, ".example.com"]
    owner = signed_in(club.users["owner"])
    written = []
    real = kept.set_many
    monkeypatch.setattr(kept, "set_many", lambda data, timeout: written.append(list(data)) or real(data, timeout))
    for name in ("a", "b", "c"):
        response = owner.get(reverse("game", args=[club.game.pk]), HTTP_HOST=f"{name}.example.com")
        assert response.status_code == 200 and f"http://{name}.example.com/live/" in response.content.decode()
    assert not {key for keys in written for key in keys if ":page:" in key}
