"""Sharing that lands (issue 22): links that answer where the tap was, an invite that says what it
is before signing in, scorebooks named after their owners, games numbered with their day, and the
finished game's picture only where its card is shown."""

import datetime
import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from scorekeeper import selectors, services
from scorekeeper.demo import play_game
from scorekeeper.models import Game, Invite, Membership, Scorebook, numbered_title
from scorekeeper.rules.game import GameRules
from scorekeeper.services import live as links
from scorekeeper.services import scorebooks
from tests.factories import PlayerFactory, UserFactory, make_game
from tests.roles import make_club

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# Scorebooks named after their owners


def test_a_new_personal_scorebook_is_named_after_its_owners_first_name_else_a_name_from_their_email():
    assert Scorebook.personal_for(UserFactory(email="ana.p@example.com", first_name="Ana")).name == "Ana's scorebook"
    # "bea.q": a name, written as one
    assert Scorebook.personal_for(UserFactory(email="bea.q@example.com")).name == "Bea's scorebook"
    with translation.override("es"):  # signed up on a page in Spanish
        assert Scorebook.personal_for(UserFactory(email="chuy@example.com")).name == "Libreta de Chuy"
    spanish = UserFactory(email="lupe@example.com", language="es")  # the language chosen in the menu wins
    assert Scorebook.personal_for(spanish).name == "Libreta de Lupe"
    assert Scorebook.personal_for(UserFactory(email="carmen@example.com")).name == "Carmen's scorebook"


def test_a_very_long_owner_name_still_makes_a_name_that_fits():
    book = Scorebook.personal_for(UserFactory(email="x@example.com", first_name="Maria Guadalupe " * 9))
    assert len(book.name) <= 80 and book.name.endswith("'s scorebook") and book.name.startswith("Maria Guadalupe")


def test_sign_up_names_the_scorebook_in_the_language_of_the_page():
    client = Client()
    response = client.post(
        reverse("account_signup"),
        {"email": "tona@example.com", "password1": "table-talk-42", "password2": "table-talk-42"},
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert response.status_code == 302
    assert Scorebook.objects.get(personal_of__email="tona@example.com").name == "Libreta de Tona"


def test_whoever_joins_anothers_personal_scorebook_tells_the_two_apart():
    ann, bea = UserFactory(email="ann@example.com"), UserFactory(email="bea@example.com")
    code = scorebooks.invite(book=Scorebook.personal_for(ann), role="owner", by=ann, invite_role="scorer").code
    client = signed_in(bea)
    assert client.post(reverse("invite", args=[code])).status_code == 302
    page = client.get(reverse("scorebooks")).content.decode()
    assert "Ann&#x27;s scorebook" in page and "Bea&#x27;s scorebook" in page and ">Personal<" not in page


# New games numbered with their day


def test_a_game_without_a_name_is_numbered_in_its_scorebook_and_called_so_in_the_readers_language():
    game = make_game(tile_set=6)  # the scorebook's first game
    assert services.next_game_number(game.scorebook) == 2
    monday = datetime.date(2026, 11, 23)
    assert numbered_title(2, monday) == "Game 2 · Mon 23 Nov"
    with translation.override("es"):  # Spanish weekdays and months are lowercase
        assert numbered_title(2, monday) == "Partida 2 · lun 23 nov"
    assert services.next_game_number(Scorebook.personal_for(UserFactory())) == 1  # counted per scorebook


def test_two_games_of_one_night_and_a_rematch_each_get_their_own_number(client, user):
    ids = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben")]
    client.force_login(user)
    today = date_format(timezone.localdate(), "D j M")
    form = {"players": ids, "seat_order": ",".join(map(str, ids)), "tile_set": 6, "double_blank_penalty": 50,
            "end_on_double_penalty": 50, "name": ""}  # fmt: skip
    page = client.get(reverse("new_game")).content.decode()
    assert f'placeholder="Game 1 · {today}"' in page  # what an empty name becomes
    for _ in range(2):
        assert client.post(reverse("new_game"), form).status_code == 302
    first, second = Game.objects.order_by("pk")
    assert (str(first), str(second)) == (f"Game 1 · {today}", f"Game 2 · {today}")
    client.post(reverse("rematch", args=[second.pk]))
    assert str(Game.objects.order_by("pk").last()) == f"Game 3 · {today}"
    form["name"] = "Friday"
    client.post(reverse("new_game"), form)
    assert str(Game.objects.order_by("pk").last()) == "Friday"  # a name given is kept


def test_a_game_started_without_a_name_in_english_is_called_in_spanish_on_a_spanish_page(client, user):
    ids = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben")]
    client.force_login(user)
    form = {"players": ids, "seat_order": ",".join(map(str, ids)), "tile_set": 6, "double_blank_penalty": 50,
            "end_on_double_penalty": 50, "name": ""}  # fmt: skip
    assert client.post(reverse("new_game"), form, headers={"accept-language": "en"}).status_code == 302
    game = Game.objects.get()
    day = timezone.localdate(game.created_at)
    with translation.override("es"):
        spanish = f"Partida 1 · {date_format(day, 'D j b')}"
    page = client.get(reverse("game", args=[game.pk]), headers={"accept-language": "es"}).content.decode()
    assert f'<h1 id="game-title">{spanish}</h1>' in page and "Game 1" not in page
    api = client.get(f"/api/v1/games/{game.pk}/", headers={"accept-language": "es"}).json()
    assert api["name"] == spanish
    english = client.get(f"/api/v1/games/{game.pk}/", headers={"accept-language": "en"}).json()["name"]
    assert english == f"Game 1 · {date_format(day, 'D j M')}"
    client.post(reverse("rename_game", args=[game.pk]), {"name": "Viernes"})
    history = client.get(reverse("game_history", args=[game.pk]), headers={"accept-language": "es"}).content.decode()
    assert f"«{spanish}» → «Viernes»" in history  # what it was called before, in the reader's language


# Links that land where the tap was


def test_making_renewing_and_stopping_the_live_link_answer_at_the_sharing_section(client, user, game):
    client.force_login(user)
    for name in ("share_game", "share_game", "revoke_share"):
        response = client.post(reverse(name, args=[game.pk]))
        assert response["Location"] == reverse("game", args=[game.pk]) + "#live-share"


def test_the_live_section_holds_the_qr_code_the_link_copy_and_share_and_undo_sits_with_the_rounds(client, user):
    game = make_game(owner=user, tile_set=6)
    links.share(game=game, by=user)
    client.force_login(user)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    section = page[page.index('id="live-share"') : page.index("</section>", page.index('id="live-share"'))]
    for part in ('id="live-qr"', 'id="live-url"', 'data-copy="live-url"', 'data-share-url="http://testserver/live/',
                 "Stop sharing", "New link"):  # fmt: skip
        assert part in section, part
    assert 'id="game-actions"' not in section and page.index('id="game-actions"') < page.index('id="live-share"')
    assert '<summary class="disclosure">Change or delete this game</summary>' in page


def test_an_invite_answers_at_the_invite_section_with_its_link_to_copy_and_share(client, user):
    client.force_login(user)
    book = selectors.current_scorebook(user)
    response = client.post(reverse("create_invite", args=[book.pk]), {"role": "viewer"})
    assert response["Location"].endswith("#invite")
    page = client.get(response["Location"]).content.decode()
    section = page[page.index('id="invite"') : page.index("</section>", page.index('id="invite"'))]
    for part in ('id="invite-qr"', 'id="invite-url"', 'data-copy="invite-url"', 'data-share-url="http://testserver/invites/',
                 "Make another invite link"):  # fmt: skip
        assert part in section, part


# The invite, signed out


@pytest.fixture
def family():
    ann = UserFactory(email="ann@family.example")
    book = scorebooks.create(by=ann, name="Family")
    return ann, book, scorebooks.invite(book=book, role="owner", by=ann, invite_role="viewer")


def test_an_invite_opened_signed_out_names_who_invites_to_which_scorebook_as_what(client, family):
    _ann, _book, invite = family
    path = reverse("invite", args=[invite.code])
    page = client.get(path).content.decode()
    assert "<h1>Join Family</h1>" in page
    assert "ann@family.example invites you to keep score together, as <strong>Viewer</strong>" in page
    assert f'href="/accounts/signup/?next={path}"' in page and f'href="/accounts/login/?next={path}"' in page
    assert "csrfmiddlewaretoken" not in page.split("<main")[1].split("</main>")[0]  # no join button to refuse


def test_joining_signed_out_asks_to_log_in_and_changes_nothing(client, family):
    _ann, book, invite = family
    response = client.post(reverse("invite", args=[invite.code]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    assert Membership.objects.filter(scorebook=book).count() == 1
    assert Invite.objects.get(pk=invite.pk).accepted_at is None


def test_a_used_or_unknown_invite_says_nothing_signed_out_either(client, family):
    _ann, _book, invite = family
    scorebooks.accept(code=invite.code, user=UserFactory())
    assert client.get(reverse("invite", args=[invite.code])).status_code == 404
    assert client.get(reverse("invite", args=["no-such-code"])).status_code == 404


def test_sign_up_from_the_invite_joins_at_once_and_lands_home_in_its_scorebook_saying_so(client, family):
    """Sign up and join needs no second "Join" tap: the sign-up is a member when it is made."""
    _ann, book, invite = family
    path = reverse("invite", args=[invite.code])
    response = client.post(
        f"{reverse('account_signup')}?next={path}",
        {"email": "newcomer@family.example", "password1": "table-talk-42", "password2": "table-talk-42", "next": path},
    )
    assert response.status_code == 302 and response["Location"] == path
    assert Membership.objects.get(scorebook=book, user__email="newcomer@family.example").role == "viewer"
    assert Invite.objects.get(pk=invite.pk).accepted_at is not None
    response = client.get(path, follow=True)
    assert response.redirect_chain == [(reverse("home"), 302)]
    page = response.content.decode()
    assert "You joined Family." in page and 'id="current-scorebook">Family</a>' in page
    assert ">Join Family</button>" not in page
    # Back on the link later: a member already, as any member who opens it.
    assert "You are already a member of Family" in client.get(path).content.decode()


def test_sign_up_from_an_invite_used_meanwhile_joins_nothing_and_its_page_says_why(client, family):
    _ann, book, invite = family
    path = reverse("invite", args=[invite.code])
    scorebooks.accept(code=invite.code, user=UserFactory())
    response = client.post(
        f"{reverse('account_signup')}?next={path}",
        {"email": "late@family.example", "password1": "table-talk-42", "password2": "table-talk-42", "next": path},
    )
    assert response.status_code == 302
    assert not Membership.objects.filter(scorebook=book, user__email="late@family.example").exists()
    assert client.get(path).status_code == 404


def test_a_sign_up_with_any_other_next_joins_no_scorebook(client, family):
    _ann, book, _invite = family
    client.post(
        f"{reverse('account_signup')}?next=/history/",
        {
            "email": "other@family.example",
            "password1": "table-talk-42",
            "password2": "table-talk-42",
            "next": "/history/",
        },
    )
    assert not Membership.objects.filter(scorebook=book, user__email="other@family.example").exists()
    assert Membership.objects.filter(user__email="other@family.example").count() == 1  # their own scorebook


# Friction


def test_the_sole_owner_sees_no_leave_button_only_why(client):
    club = make_club()
    page = signed_in(club.users["owner"]).get(reverse("scorebook", args=[club.book.pk])).content.decode()
    assert ">Leave<" not in page and "The only owner: to leave, make someone else an owner first." in page
    assert ">Leave<" in signed_in(club.users["scorer"]).get(reverse("scorebook", args=[club.book.pk])).content.decode()
    Membership.objects.filter(scorebook=club.book, user=club.users["scorer"]).update(role="owner")
    assert ">Leave<" in signed_in(club.users["owner"]).get(reverse("scorebook", args=[club.book.pk])).content.decode()
    alone = UserFactory()
    page = signed_in(alone).get(reverse("scorebook", args=[Scorebook.personal_for(alone).pk])).content.decode()
    assert ">Leave<" not in page and "The only owner" not in page  # nobody to hand it to: nothing to say


def test_the_history_page_names_its_scorebook(client, user):
    client.force_login(user)
    page = client.get(reverse("history")).content.decode()
    name = Scorebook.personal_for(user).name.replace("'", "&#x27;")
    assert f'id="current-scorebook">{name}</a>' in page


# The finished game's picture: drawn from the card, only where the card is shown


@pytest.fixture
def finished(user):
    ids = [PlayerFactory(owner=user, name=name).pk for name in ("Ann", "Ben", "Cy")]
    rules = GameRules(tile_set=6)
    return services.import_game(by=user, players=ids, rules=rules, rounds=play_game(rules, ids, random.Random(3)))


def test_the_picture_of_a_finished_game_is_offered_to_members_and_the_live_link_only(client, user, finished):
    client.force_login(user)
    page = client.get(reverse("game", args=[finished.pk])).content.decode()
    assert "data-card-picture" in page and f'data-card-title="{finished}"' in page
    assert signed_in(UserFactory()).get(reverse("game", args=[finished.pk])).status_code == 404  # a non-member
    assert Client().get(reverse("game", args=[finished.pk])).status_code == 302  # signed out: log in first
    link = links.share(game=finished, by=user)
    assert "data-card-picture" in Client().get(reverse("live", args=[link.token])).content.decode()
    links.revoke(game=finished)
    response = Client().get(reverse("live", args=[link.token]))
    assert response.status_code == 404 and "data-card-picture" not in response.content.decode()


# In Spanish


def test_an_invite_opened_signed_out_reads_in_spanish(client, family):
    from tests.views.test_spanish import SPANISH, english_left

    _ann, _book, invite = family
    html = client.get(reverse("invite", args=[invite.code]), **SPANISH).content.decode()
    assert "te invita a anotar juntos, como <strong>Lector</strong>" in html
    assert "Crear una cuenta y unirme" in html and "Ya tengo cuenta: iniciar sesión" in html
    assert english_left(html) == []


def test_a_game_started_in_spanish_is_named_in_spanish(client, user):
    from tests.views.test_spanish import SPANISH

    ids = [PlayerFactory(owner=user, name=name).pk for name in ("Lupe", "Chuy")]
    client.force_login(user)
    form = {"players": ids, "seat_order": ",".join(map(str, ids)), "tile_set": 6, "double_blank_penalty": 50,
            "end_on_double_penalty": 50, "name": ""}  # fmt: skip
    assert client.post(reverse("new_game"), form, **SPANISH).status_code == 302
    with translation.override("es"):
        today = date_format(timezone.localdate(), "D j b")  # lowercase: "lun 23 nov"
    with translation.override("es"):
        assert str(Game.objects.get()) == f"Partida 1 · {today}" and today == today.lower()


# The TV link (issue 39): its own QR code beside the live link's, opening straight in TV mode


def qr_of(url: str) -> bytes:
    import io

    import segno

    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer, kind="svg", scale=6, border=2, xmldecl=False, svgns=True, title="Live link QR code"
    )
    return buffer.getvalue()


def test_the_share_section_holds_a_tv_link_and_its_qr_code_that_opens_in_tv_mode(client, user):
    game = make_game(owner=user, tile_set=6)
    token = links.share(game=game, by=user).token
    client.force_login(user)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    section = page[page.index('id="live-share"') : page.index("</section>", page.index('id="live-share"'))]
    assert f'src="/live/{token}/qr.svg?tv=1"' in section and f'href="http://testserver/live/{token}/?tv=1"' in section
    assert Client().get(f"/live/{token}/qr.svg?tv=1").content == qr_of(f"http://testserver/live/{token}/?tv=1")
    assert Client().get(f"/live/{token}/qr.svg").content == qr_of(f"http://testserver/live/{token}/")


def test_a_club_nights_share_section_holds_its_tv_link_and_qr_code_too():
    club = make_club()
    token = club.night_live.token
    page = signed_in(club.users["owner"]).get(reverse("night", args=[club.night.pk])).content.decode()
    assert (
        f'src="/live/nights/{token}/qr.svg?tv=1"' in page
        and f'href="http://testserver/live/nights/{token}/?tv=1"' in page
    )
    tv_qr = Client().get(f"/live/nights/{token}/qr.svg?tv=1").content
    assert tv_qr == qr_of(f"http://testserver/live/nights/{token}/?tv=1")
