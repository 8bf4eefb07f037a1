"""One definition of "the same name": NFKC + full case folding, in the database, forms and API."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from scorekeeper.models import Player, Scorebook, name_key
from tests.factories import UserFactory

SAME = [("ÐÇ", "ðç"), ("Straße", "STRASSE"), ("Ｂｏｂ", "bob"), ("Émile", "E\u0301MILE")]  # noqa: RUF001


def test_the_key_folds_case_and_compatibility_forms():
    for first, second in SAME:
        assert name_key(first) == name_key(second), (first, second)
    assert name_key("Ann") != name_key("Anne")


@pytest.mark.django_db
@pytest.mark.parametrize(("first", "second"), SAME)
def test_the_database_refuses_the_same_name_twice_in_one_scorebook(user, first, second):
    book = Scorebook.personal_for(user)
    Player.objects.create(scorebook=book, name=first)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(scorebook=book, name=second)
    Player.objects.create(scorebook=Scorebook.personal_for(UserFactory()), name=second)  # another scorebook may


@pytest.mark.django_db
@pytest.mark.parametrize(("first", "second"), SAME)
def test_the_page_and_the_api_refuse_it_with_a_clear_message(client, user, first, second):
    Player.objects.create(scorebook=Scorebook.personal_for(user), name=first)
    client.force_login(user)
    page = client.post(reverse("add_player"), {"player-name": second}, follow=True)
    assert "already has a player named" in page.content.decode()
    response = client.post("/api/v1/players/", {"name": second}, content_type="application/json")
    assert response.status_code == 400 and "already has a player named" in response.json()["name"][0]
    assert Player.objects.filter(scorebook__personal_of=user).count() == 1


@pytest.mark.django_db
def test_renaming_keeps_the_key_in_step(client, user):
    player = Player.objects.create(scorebook=Scorebook.personal_for(user), name="Ann")
    client.force_login(user)
    client.patch(f"/api/v1/players/{player.pk}/", {"name": "STRASSE"}, content_type="application/json")
    player.refresh_from_db()
    assert (player.name, player.name_key) == ("STRASSE", "strasse")


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_keys_and_separates_names_that_are_now_the_same():
    executor = MigrationExecutor(connection)
    executor.migrate([("scorekeeper", "0001_initial")])
    old = executor.loader.project_state([("scorekeeper", "0001_initial")]).apps
    owner = old.get_model("accounts", "User").objects.create(email="old@example.com")
    OldPlayer = old.get_model("scorekeeper", "Player")
    for name in ("Straße", "STRASSE", "Ann", "ÐÇ"):  # the old LOWER() told the first two apart
        OldPlayer.objects.create(owner_id=owner.pk, name=name)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    players = {p.name: p.name_key for p in Player.objects.filter(scorebook__personal_of_id=owner.pk)}
    assert players == {"Straße": "strasse", "STRASSE (2)": "strasse (2)", "Ann": "ann", "ÐÇ": "ðç"}
