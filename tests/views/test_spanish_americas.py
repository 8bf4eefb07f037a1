"""Spanish for the Americas (issue 22): "ustedes", never "vosotros"; months in lowercase as Spanish
writes them; every chip in Spanish. The pips hint fitting its box is tested in Chromium
(tests/browser/test_axe.py)."""

import datetime
import re
from pathlib import Path

import polib
import pytest
from django.urls import reverse
from django.utils import timezone

from scorekeeper.models import Game
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db

SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es-MX,es;q=0.9"}
LOCALE = Path(__file__).resolve().parents[2] / "locale/es/LC_MESSAGES"
# Spain's second person plural (vosotros): its pronouns, possessives and verb endings.
VOSOTROS = re.compile(
    r"\b(vosotr[oa]s|vuestr[oa]s?|os|sois|podéis|tenéis|queréis|habéis|estáis|sabéis|\w+áis|\w+éis)\b", re.I
)
MONTHS = re.compile(r"\b(Ene|Feb|Mar|Abr|May|Jun|Jul|Ago|Sep|Oct|Nov|Dic)\b")


@pytest.mark.parametrize("catalogue", ["django.po", "djangojs.po"])
def test_no_translation_speaks_to_the_table_as_vosotros(catalogue):
    found = []
    for entry in polib.pofile(str(LOCALE / catalogue)):
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            found += [f"{match.group(0)} in {text!r}" for match in VOSOTROS.finditer(text)]
    assert found == []


def test_the_scanner_finds_vosotros_forms():
    for sentence in ("Podéis pasar", "los dobles que os saltáis", "vuestra partida", "¿Tenéis el doble?"):
        assert VOSOTROS.search(sentence), sentence
    assert not VOSOTROS.search("Pueden pasar: los dobles que se saltan, su partida, ¿tienen el doble?")


@pytest.fixture
def monday_game(client):
    user = UserFactory()
    game = make_game(owner=user, names=("Lupe", "Memo", "Chuy"), tile_set=6)
    monday = timezone.make_aware(datetime.datetime(2026, 11, 23, 20, 15))
    Game.objects.filter(pk=game.pk).update(created_at=monday)
    client.force_login(user)
    return client, game


def test_spanish_dates_write_the_month_and_the_weekday_in_lowercase(monday_game):
    client, game = monday_game
    home = client.get(reverse("home"), **SPANISH).content.decode()
    assert "lun 23 nov" in home
    assert not MONTHS.search(home)
    changes = client.get(reverse("game_history", args=[game.pk]), **SPANISH).content.decode()
    assert re.search(
        r"\b(lun|mar|mié|jue|vie|sáb|dom) \d+ (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic), ", changes
    )
    assert not MONTHS.search(changes)
    english = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Mon 23 Nov" in english


def test_a_spanish_round_form_has_every_chip_in_spanish(monday_game):
    client, game = monday_game
    page = client.get(reverse("record_round", args=[game.pk]), **SPANISH).content.decode()
    chips = re.findall(r'<span aria-hidden="true">([^<]+)</span>', page)
    assert {"salió", "0-0", "dob"} <= set(chips) and "dbl" not in chips and "out" not in chips
    assert 'placeholder="puntos"' in page
