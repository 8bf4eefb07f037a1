"""`manage.py seed_demo`: an account to try the app with, its games real deals."""

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from scorekeeper.models import Game, Scorebook


@pytest.mark.django_db
def test_seed_demo_makes_an_account_that_signs_in_with_finished_games_of_its_players():
    out = StringIO()
    call_command("seed_demo", "--email", "demo@example.com", "--games", "3", "--players", "4", "--seed", "7",
                 verbosity=0, stdout=out)  # fmt: skip
    user = authenticate(email="demo@example.com", password="table-talk-42")
    assert user is not None
    book = Scorebook.personal_for(user)
    assert book.players.count() == 4
    assert Game.objects.filter(scorebook=book, status=Game.Status.FINISHED).count() == 3
    assert "demo@example.com: 3 games, 4 players" in out.getvalue()
    assert "Sign in with the email above and the password table-talk-42" in out.getvalue()  # not only in --help


@pytest.mark.django_db
def test_seeding_the_same_account_again_adds_games_and_keeps_its_players():
    for _ in range(2):
        call_command("seed_demo", "--email", "demo@example.com", "--games", "1", "--players", "3", "--seed", "7",
                     verbosity=0, stdout=StringIO())  # fmt: skip
    book = Scorebook.objects.get(personal_of__email="demo@example.com")
    assert book.players.count() == 3 and book.games.count() == 2
