"""En español: the pages, the API's errors and the rules' messages in Spanish, with no English left.

Two nets catch English on a page rendered in Spanish: every English sentence of the catalogue
(it would show if its translation were missing or not applied), and a list of common English
words (they would show if a string were never marked for translation at all). The catalogue
itself is checked in tests/test_catalogue.py."""

import random
import re
from html.parser import HTMLParser

import polib
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from scorekeeper import services
from scorekeeper.demo import play_game
from scorekeeper.models import Game, Scorebook
from scorekeeper.rules.game import GameRules
from scorekeeper.rules.rounds import EntryInput, InvalidRound, Seat, score_round
from scorekeeper.rules.text import English
from scorekeeper.services import live as links
from scorekeeper.services import scorebooks
from tests.factories import PlayerFactory, UserFactory
from tests.seasons import make_season

pytestmark = pytest.mark.django_db

SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es-MX,es;q=0.9"}
NAMES = ("Lupe", "Memo", "Chuy", "Toña")
# Words of English that no Spanish sentence of these pages uses (player names are chosen apart).
ENGLISH_WORDS = {
    "the",
    "and",
    "of",
    "with",
    "your",
    "you",
    "round",
    "rounds",
    "game",
    "games",
    "player",
    "players",
    "score",
    "sheet",
    "tile",
    "tiles",
    "pips",
    "save",
    "delete",
    "this",
    "that",
    "here",
    "new",
    "log",
    "who",
    "what",
    "went",
    "wins",
    "trash",
    "link",
    "to",
    "is",
    "are",
    "by",
    "or",
    "for",
    "from",
    "it",
    "all",
    "not",
    "on",
    "out",
    "back",
    "every",
    "first",
    "last",
    "next",
    "only",
    "scorebook",
    "scorebooks",
    "rating",
    "leaders",
    "history",
    "rules",
    "enter",
    "undo",
    "rename",
    "share",
    "join",
}
SHOWN_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder", "data-confirm")


class VisibleText(HTMLParser):
    """The words a person meets on a page: its text, and the attributes that show or are read aloud."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value:
                self.parts.append(value)
            if tag in ("button", "input") and name == "value" and value and dict(attrs).get("type") == "submit":
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return re.sub(r"\s+", " ", " ".join(parser.parts))


def english_sentences() -> list[str]:
    """The catalogue's English fragments of two words or more whose Spanish differs: the text
    between placeholders, without markup."""
    catalogue = polib.pofile(str(settings.BASE_DIR / "locale/es/LC_MESSAGES/django.po"))
    fragments = set()
    for entry in catalogue:
        for english in filter(None, (entry.msgid, entry.msgid_plural)):
            if english in (entry.msgstr, *entry.msgstr_plural.values()):
                continue
            plain = re.sub(r"<[^>]+>", " ", english)
            for fragment in re.split(r"\{\w*\}|%\(\w+\)s|[\"“”«»()]", plain):
                fragment = fragment.strip(" .,:;")
                if len(fragment.split()) >= 2:
                    fragments.add(fragment)
    return sorted(fragments, key=len, reverse=True)


def english_left(html: str) -> list[str]:
    text = visible_text(html)
    found = [sentence for sentence in english_sentences() if sentence in text]
    words = {word.lower() for word in re.findall(r"[^\W\d_]+", text)}
    return found + sorted(words & ENGLISH_WORDS)


@pytest.fixture
def night():
    """A scorebook the way a Spanish-speaking table leaves it after an evening: a finished game,
    one in progress with a correction, one in the trash, and a live link."""
    user = UserFactory(email="lupe@example.com")
    with translation.override("es"):  # she signed up in Spanish: her scorebook is "Libreta de Lupe"
        Scorebook.personal_for(user)
    ids = [PlayerFactory(owner=user, name=name).pk for name in NAMES]
    rules = GameRules(tile_set=6)
    finished = services.import_game(
        by=user, players=ids, rules=rules, rounds=play_game(rules, ids, random.Random(7)), name="Viernes"
    )
    playing = services.create_game(by=user, players=ids[:3], rules=rules, name="Sábado")
    for double in (6, 5):
        entries = [EntryInput(player=ids[0], pips=0, went_out=True), EntryInput(player=ids[1], pips=9)]
        round_ = services.record_round(
            game=playing, starting_double=double, entries=[*entries, EntryInput(player=ids[2], pips=4)], by=user
        )
    services.correct_round(round=round_, entries=[*entries, EntryInput(player=ids[2], pips=7)], by=user)
    trashed = services.create_game(by=user, players=ids[:2], rules=rules, name="Domingo")
    services.delete_game(game=trashed, by=user)
    live = links.share(game=playing, by=user)
    book = Scorebook.personal_for(user)  # a season around today: its table on the leaderboard too
    today = book.today()
    season = make_season(book=book, name="Otoño", starts=today, ends=today, min_games=2, drop_worst=1)
    return {"user": user, "finished": finished, "playing": Game.objects.get(pk=playing.pk), "live": live, "ids": ids,
            "season": season}  # fmt: skip


def pages(night):
    playing, finished = night["playing"].pk, night["finished"].pk
    book = night["user"].memberships.get().scorebook_id
    return [
        reverse("home"),
        reverse("new_game"),
        reverse("game", args=[playing]),
        reverse("record_round", args=[playing]),
        reverse("edit_round", args=[playing, 1]),
        reverse("game", args=[finished]),
        reverse("game_history", args=[playing]),
        reverse("history"),
        reverse("players"),
        reverse("player", args=[night["ids"][0]]),
        reverse("leaderboard"),
        reverse("leaderboard") + "?sort=rating",
        reverse("my_stats"),
        reverse("scorebooks"),
        reverse("scorebook", args=[book]),
        reverse("trash", args=[book]),
        reverse("seasons", args=[book]),
        reverse("season", args=[night["season"].pk]),
        reverse("delete_account"),
        reverse("rules"),
        reverse("blank_sheet"),
        reverse("live", args=[night["live"].token]),
        "/no-such-page/",
    ]


def test_every_page_of_a_game_night_reads_in_spanish_without_an_english_sentence(client, night):
    client.force_login(night["user"])
    left = {}
    for url in pages(night):
        response = client.get(url, **SPANISH)
        assert response.status_code in (200, 404), url
        html = response.content.decode()
        assert '<html lang="es">' in html, url
        left[url] = english_left(html)
    assert {url: english for url, english in left.items() if english} == {}


def test_an_invite_reads_in_spanish_to_the_one_who_opens_it(client, night):
    book = night["user"].memberships.get().scorebook
    invite = scorebooks.invite(book=book, role="owner", by=night["user"], invite_role="viewer")
    client.force_login(UserFactory(email="chuy@example.com"))
    html = client.get(reverse("invite", args=[invite.code]), **SPANISH).content.decode()
    assert "te invita a anotar juntos, como <strong>Lector</strong>" in html
    assert english_left(html) == []


def test_the_pages_before_signing_in_read_in_spanish(client):
    for name in ("home", "account_login", "account_signup", "account_reset_password", "rules", "offline"):
        url = reverse(name)
        response = client.get(url, **SPANISH)
        assert response.status_code == 200, url
        assert english_left(response.content.decode()) == [], url


def test_the_nets_catch_english_on_a_page_in_english(client, night):
    """The check above can fail: the same pages in English are full of what it looks for."""
    client.force_login(night["user"])
    html = client.get(reverse("game", args=[night["playing"].pk])).content.decode()
    assert '<html lang="en">' in html
    assert {"Score sheet", "Live view for the table"} <= set(english_left(html))


def test_a_round_with_an_error_is_explained_in_spanish_with_the_players_name(client, night):
    client.force_login(night["user"])
    playing = night["playing"]
    seats = [seat.player_id for seat in playing.seats.order_by("position")]
    data = {"starting_double": 4, "version": playing.version, f"p{seats[0]}_went_out": "on", f"p{seats[0]}_pips": 0}
    data |= {f"p{seats[1]}_pips": 500, f"p{seats[2]}_pips": 3}
    html = client.post(reverse("record_round", args=[playing.pk]), data, **SPANISH).content.decode()
    text = visible_text(html)
    assert "No se guardó nada. Hay 1 cosa que corregir:" in text
    assert (
        "Memo: 500 puntos es imposible: una mano suma de 0 a 160 puntos en un juego doble 6 con el 4-4 en la mesa."
        in (text)
    )
    assert english_left(html) == []


def test_an_impossible_round_over_the_api_is_refused_in_spanish_naming_the_player_and_the_bound(client, night):
    client.force_login(night["user"])
    playing = night["playing"]
    seats = [seat.player_id for seat in playing.seats.order_by("position")]
    body = {
        "starting_double": 4,
        "entries": [
            {"player": seats[0], "pips": 0, "went_out": True},
            {"player": seats[1], "pips": 30, "tiles_left": 1},
            {"player": seats[2], "pips": 3},
        ],
    }
    response = client.post(
        f"/api/v1/games/{playing.pk}/rounds/", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="es"
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [error["message"] for error in errors] == [
        "Memo: con 1 ficha no se pueden sumar 30 puntos en un juego doble 6 con el 4-4 en la mesa "
        "(el máximo para 1 ficha es 12)."
    ]
    assert errors[0]["code"] == "pips_unreachable"  # the codes stay the same in every language


def test_the_api_speaks_english_unless_asked(client, night):
    client.force_login(night["user"])
    assert client.get("/api/v1/no-such-thing/").json()["detail"] == "Not found."
    assert client.get("/api/v1/no-such-thing/", **SPANISH).json()["detail"] == "No encontrado."


def test_the_language_switch_is_remembered_on_the_account_for_every_phone(client, night):
    user = night["user"]
    client.force_login(user)
    response = client.post(reverse("set_language"), {"language": "es", "next": reverse("players")})
    assert response.status_code == 302 and response["Location"] == reverse("players")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    user.refresh_from_db()
    assert user.language == "es"
    # Another phone: no cookie, a browser in English; the account's choice wins once signed in.
    other = client.__class__()
    signed_in = other.post(
        reverse("account_login"), {"login": user.email, "password": "table-talk-42"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert signed_in.status_code == 302 and signed_in.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    html = other.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="es">' in html and "Jugando ahora" in html
    # And back to English from the menu.
    other.post(reverse("set_language"), {"language": "en", "next": "/"})
    user.refresh_from_db()
    assert user.language == "en"
    assert "Playing now" in other.get(reverse("home"), **SPANISH).content.decode()


def test_the_switch_works_before_signing_in_with_a_cookie(client):
    client.post(reverse("set_language"), {"language": "es", "next": "/"})
    assert "Reglas" in client.get(reverse("rules")).content.decode()


def test_the_switch_refuses_an_unknown_language_and_keeps_the_account_as_it_was(client, night):
    client.force_login(night["user"])
    response = client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert response.status_code == 302
    night["user"].refresh_from_db()
    assert night["user"].language == ""


def test_numbers_and_dates_follow_the_language(client, night):
    client.force_login(night["user"])
    player = reverse("player", args=[night["ids"][0]])
    english, spanish = client.get(player).content.decode(), client.get(player, **SPANISH).content.decode()
    average = re.search(r"Average total</dt><dd>([\d.,\u2013]+)<", english)[1]
    assert re.search(r"Total medio</dt><dd>([\d.,\u2013]+)<", spanish)[1] == average.replace(".", ",")
    history = client.get(reverse("history"), **SPANISH).content.decode()
    when = night["finished"].created_at
    with translation.override("es"):
        spanish_day = date_format(when, "D j b")  # Spanish months in lowercase: "lun 23 nov"
    with translation.override("en"):
        english_day = date_format(when, "D j M")
    assert spanish_day != english_day and spanish_day in history and english_day not in history


def test_the_rules_messages_are_made_in_the_requests_language_and_keep_their_english_twin():
    seats = [Seat("a", "Lupe"), Seat("b", "Memo")]
    entries = [EntryInput("a", pips=0, went_out=True), EntryInput("b", pips=30, tiles_left=1)]
    with translation.override("es"), pytest.raises(InvalidRound) as spanish:
        score_round(GameRules(tile_set=6), 6, seats, entries)
    error = spanish.value.errors[0]
    assert error.message == (
        "Memo: con 1 ficha no se pueden sumar 30 puntos en un juego doble 6 con el 6-6 en la mesa "
        "(el máximo para 1 ficha es 11)."
    )
    assert error.message.render(English()) == (
        "Memo: 1 tile cannot hold 30 pips in a double-6 set while 6-6 is on the table (the most 1 tile can hold is 11)."
    )
    with translation.override("en"), pytest.raises(InvalidRound) as english:
        score_round(GameRules(tile_set=6), 6, seats, entries)
    assert english.value.errors[0].message == error.message.render(English())


def test_the_password_reset_mail_is_written_in_the_language_it_was_asked_in(client, mailoutbox):
    UserFactory(email="lupe@example.com")
    client.post(reverse("account_reset_password"), {"email": "lupe@example.com"}, **SPANISH)
    (message,) = mailoutbox
    assert "restablecer contraseña" in message.subject
    assert "Haga clic en el siguiente enlace para restablecer su contraseña" in message.body


def test_a_surprising_round_asks_in_spanish_before_saving(client, night):
    client.force_login(night["user"])
    playing = night["playing"]
    seats = [seat.player_id for seat in playing.seats.order_by("position")]
    data = {"starting_double": 4, "version": playing.version, f"p{seats[0]}_went_out": "on", f"p{seats[0]}_pips": 0}
    data |= {f"p{seats[1]}_pips": 99, f"p{seats[2]}_pips": 3}  # possible, but more than a deal holds
    html = client.post(reverse("record_round", args=[playing.pk]), data, **SPANISH).content.decode()
    text = visible_text(html)
    assert "Revisa antes de guardar:" in text and "Guardar de todos modos" in text
    assert "Memo: 99 puntos es más de lo que suman las" in text
    assert english_left(html) == []


# A personal scorebook's first name, made in one language, read in the other


def home_book_line(client, user, **headers) -> str:
    client.force_login(user)
    page = client.get(reverse("leaderboard"), **headers).content.decode()
    return visible_text(re.search(r'<p class="book-line">.*?</p>', page, re.S).group(0)).strip()


def test_a_scorebook_named_in_english_reads_libreta_de_ana_on_a_spanish_page_and_back(client):
    ana = UserFactory(email="ana@example.com")
    with translation.override("en"):
        book = Scorebook.personal_for(ana)
    assert book.name == "Ana's scorebook"  # as it was made, kept
    assert home_book_line(client, ana, **SPANISH) == "Libreta de Ana"  # never "Libreta Ana's scorebook"
    assert home_book_line(client, ana) == "Ana's scorebook"  # never "Scorebook Ana's scorebook"
    beto = UserFactory(email="beto@example.com")
    with translation.override("es"):
        Scorebook.personal_for(beto)
    assert home_book_line(client, beto) == "Beto's scorebook"
    assert home_book_line(client, beto, **SPANISH) == "Libreta de Beto"


def test_a_name_its_owner_gave_reads_as_given_in_both_languages(client):
    ana = UserFactory(email="ana@example.com")
    book = Scorebook.personal_for(ana)
    Scorebook.objects.filter(pk=book.pk).update(name="Casa")
    assert home_book_line(client, ana, **SPANISH) == "Libreta Casa"
    assert home_book_line(client, ana) == "Scorebook Casa"
    club = scorebooks.create(by=ana, name="Bob's scorebook")  # not a personal one: as given
    scorebooks.switch(ana, club)
    assert home_book_line(client, ana, **SPANISH) == "Libreta Bob's scorebook"
