"""A replay that rewrites later games' rating moves while one of those games is being written in
another request (PostgreSQL: two connections) never waits for it: holding the scorebook's row, it
would wait for a request that waits for that row. It leaves the replay to the task instead."""

import threading

import pytest
from django.db import connection, transaction

from scorekeeper import services
from scorekeeper.models import Game, Scorebook
from tests.roles import make_club
from tests.seasons import at, finished_game


def closing(action):
    def run():
        try:
            action()
        finally:
            connection.close()

    return run


@pytest.mark.django_db(transaction=True)
def test_trashing_an_older_game_while_a_later_one_is_locked_hands_the_replay_to_the_task(postgres_only, monkeypatch):
    club = make_club()
    ann, ben, cy, _dot = club.players
    owner = club.users["owner"]
    older = finished_game(club.book, owner, [ann, ben, cy], (3, 4), finished_at=at(2025, 1, 1))
    later = finished_game(club.book, owner, [ben, ann, cy], (3, 4), finished_at=at(2025, 1, 2))
    enqueued = []
    monkeypatch.setattr("scorekeeper.services.ratings._enqueue", enqueued.append)
    held, release = threading.Event(), threading.Event()

    def another_request_holds_the_later_game():
        with transaction.atomic():
            list(Game.objects.filter(pk=later.pk).select_for_update(no_key=True))
            held.set()
            release.wait(10)

    holder = threading.Thread(target=closing(another_request_holds_the_later_game))
    holder.start()
    assert held.wait(10)
    version = Game.objects.get(pk=later.pk).version
    try:
        services.delete_game(game=Game.objects.get(pk=older.pk), by=owner)  # returns without waiting
    finally:
        release.set()
        holder.join(10)
    book = Scorebook.objects.get(pk=club.book.pk)
    assert book.ratings_updating and enqueued == [club.book.pk]
    assert Game.objects.get(pk=later.pk).version == version  # the task moves it on with the replay
