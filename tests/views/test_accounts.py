import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_a_visitor_signs_up_with_email_and_password_and_lands_signed_in(client):
    response = client.post(
        reverse("account_signup"),
        {"email": "ann@example.com", "password1": "domino-night-77", "password2": "domino-night-77"},
    )
    assert response.status_code == 302
    user = User.objects.get(email="ann@example.com")
    assert client.get(reverse("home")).context["user"] == user


def test_a_user_logs_in_with_email_and_logs_out(client, user):
    response = client.post(reverse("account_login"), {"login": user.email, "password": "table-talk-42"})
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"] == user
    client.post(reverse("account_logout"))
    assert client.get(reverse("history"))["Location"].startswith(reverse("account_login"))
    assert client.get(reverse("home")).templates[0].name == "scorekeeper/landing.html"


def test_a_wrong_password_shows_a_form_error(client, user):
    response = client.post(reverse("account_login"), {"login": user.email, "password": "nope"})
    assert response.status_code == 200
    assert response.context["form"].errors


def test_a_password_reset_sends_an_email_with_a_link(client, user):
    response = client.post(reverse("account_reset_password"), {"email": user.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and user.email in mail.outbox[0].to
    assert "/accounts/password/reset/key/" in mail.outbox[0].body
    assert mail.outbox[0].body.startswith("Hello from Chicken Foot Scorekeeper!")  # the app, not the host's name


def test_the_account_pages_use_the_site_layout(client):
    response = client.get(reverse("account_login"))
    assert response.status_code == 200
    assert re.search(rb"/static/scorekeeper/site\.[0-9a-f]{12}\.css", response.content)  # the manifest's name


def test_the_email_page_needs_a_login(client):
    response = client.get(reverse("account_email"))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]


def test_email_addresses_page_lists_the_users_address(client, user):
    client.force_login(user)
    response = client.get(reverse("account_email"))
    assert response.status_code == 200 and user.email.encode() in response.content


def test_users_are_created_without_a_username():
    user = User.objects.create_user("Bo@Example.com", "pw-123456789")
    assert user.email == "Bo@example.com"
    assert user.username is None  # the field is removed from the model


@pytest.mark.parametrize(
    ("language", "words"), [("en", "This page was out of date"), ("es", "Esta página estaba desactualizada")]
)
def test_a_form_sent_with_an_out_of_date_csrf_token_says_nothing_was_saved_and_what_to_do(user, language, words):
    """A sign-in form opened before the phone's cookies changed: not Django's page for developers."""
    from django.test import Client

    phone = Client(enforce_csrf_checks=True, headers={"Accept-Language": language})
    phone.get(reverse("account_login"))  # the cookie the form's token was made for
    phone.cookies["csrftoken"] = "x" * 32  # then another cookie, as a second tab or a cleared store leaves
    response = phone.post(
        reverse("account_login"), {"login": user.email, "password": "table-talk-42", "csrfmiddlewaretoken": "y" * 32}
    )
    assert response.status_code == 403
    page = response.content.decode()
    assert words in page and "DEBUG" not in page and f'lang="{language}"' in page
    assert "_auth_user_id" not in phone.session  # nothing done
