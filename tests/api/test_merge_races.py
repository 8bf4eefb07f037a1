"""Two merges of the same players at once (API.md, "A round says which round it is"): one is made,
the other answers 404 (the player is gone) or 409 (`player_gone`: the one to merge into is gone),
never a 500 and never half a merge. On PostgreSQL with two threads, each its own connection; the
answers to a merge sent after another went through are checked on SQLite too."""

import pytest
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Player, Role, Seat
from scorekeeper.services import scorebooks
from tests.factories import UserFactory
from tests.races import at_once, first_holds_second_waits
from tests.seasons import finished_game


def two_names_for_one():
    """Bob (linked to an account) and Ben are one person: each played a game, never together."""
    owner, linked = UserFactory(), UserFactory()
    book = scorebooks.create(by=owner, name="Club")
    ann, bob, ben, cy = (Player.objects.create(scorebook=book, name=name) for name in ("Ann", "Bob", "Ben", "Cy"))
    Player.objects.filter(pk=bob.pk).update(user=linked)
    finished_game(book, owner, [bob, ann], (4,))
    finished_game(book, owner, [ben, cy], (7,))
    return owner, linked, bob, ben


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def merge(user, player, into):
    return signed_in(user).post(
        f"/api/v1/players/{player.pk}/merge/", {"into": into.pk}, content_type="application/json"
    )


def merged_once(bob, ben, linked):
    """Bob's game is Ben's, Bob is gone, and his account is linked to Ben."""
    assert not Player.objects.filter(pk=bob.pk).exists()
    assert Seat.objects.filter(player=ben).count() == 2
    assert Player.objects.get(pk=ben.pk).user_id == linked.pk


@pytest.mark.django_db(transaction=True)
def test_the_same_merge_sent_while_the_first_holds_the_players_answers_404(postgres_only):
    owner, linked, bob, ben = two_names_for_one()
    first, second, waited = first_holds_second_waits(
        lambda: services.merge_player(player=bob, into_id=ben.pk, role=Role.OWNER, by=owner),
        lambda: merge(owner, bob, ben),
    )
    assert waited, "the second merge never waited for the first one's locks"
    assert isinstance(first, Player) and first.pk == ben.pk
    assert second.status_code == 404 and second.json()["code"] == "not_found", second.content
    merged_once(bob, ben, linked)


@pytest.mark.django_db(transaction=True)
def test_a_into_b_sent_while_b_into_a_holds_the_players_answers_409_player_gone(postgres_only):
    owner, linked, bob, ben = two_names_for_one()
    first, second, waited = first_holds_second_waits(
        lambda: services.merge_player(player=bob, into_id=ben.pk, role=Role.OWNER, by=owner),
        lambda: merge(owner, ben, bob),
    )
    assert waited, "the second merge never waited for the first one's locks"
    assert isinstance(first, Player) and first.pk == ben.pk
    assert second.status_code == 409 and second.json()["code"] == "player_gone", second.content
    merged_once(bob, ben, linked)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("other_way", [False, True])
def test_two_merges_of_the_same_players_at_once_give_one_200_and_one_404_or_409(postgres_only, other_way):
    owner, _linked, bob, ben = two_names_for_one()
    sent = [(bob, ben), (ben, bob) if other_way else (bob, ben)]  # each thread takes one
    statuses = sorted(at_once(2, lambda: merge(owner, *sent.pop()).status_code))
    assert statuses in ([200, 404], [200, 409]), statuses
    assert Player.objects.filter(pk__in=[bob.pk, ben.pk]).count() == 1
    assert Seat.objects.filter(player__in=[bob.pk, ben.pk]).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_merge_page_sent_while_the_same_merge_holds_the_players_says_so_beside_the_field(postgres_only):
    owner, linked, bob, ben = two_names_for_one()
    first, second, waited = first_holds_second_waits(
        lambda: services.merge_player(player=bob, into_id=ben.pk, role=Role.OWNER, by=owner),
        lambda: signed_in(owner).post("/players/merge/", {"player": bob.pk, "into": ben.pk}),
    )
    assert waited, "the page's merge never waited for the first one's locks"
    assert isinstance(first, Player)
    assert second.status_code == 200
    assert "Bob is no longer in this scorebook (merged or deleted meanwhile)." in second.content.decode()
    merged_once(bob, ben, linked)


@pytest.mark.django_db
def test_a_merge_sent_again_after_it_went_through_is_a_404_and_changes_nothing():
    owner, linked, bob, ben = two_names_for_one()
    assert merge(owner, bob, ben).status_code == 200
    again = merge(owner, bob, ben)
    assert again.status_code == 404 and again.json()["code"] == "not_found"
    merged_once(bob, ben, linked)


@pytest.mark.django_db
def test_a_merge_into_a_player_merged_away_is_a_409_naming_them_and_changes_nothing():
    owner, linked, bob, ben = two_names_for_one()
    assert merge(owner, bob, ben).status_code == 200
    back = merge(owner, ben, bob)
    assert back.status_code == 409 and back.json() == {
        "detail": "Bob was merged or deleted meanwhile: choose another player.",
        "code": "player_gone",
    }
    merged_once(bob, ben, linked)
