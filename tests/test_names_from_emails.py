"""A name made from an email when the account has no first name: written as a name is."""

import pytest
from django.utils import translation

from accounts.models import name_from_email
from scorekeeper.models import Scorebook
from tests.factories import UserFactory


@pytest.mark.parametrize(("email", "name"), [
    ("carmen@example.com", "Carmen"),
    ("carmen.lopez@example.com", "Carmen"),
    ("j_doe+chicken@example.com", "J"),
    ("ÁNGEL@example.com", "ÁNGEL"),
    ("élodie@example.com", "Élodie"),
    (".@example.com", "."),
])  # fmt: skip
def test_a_name_from_an_email_is_its_first_word_capitalised(email, name):
    assert name_from_email(email) == name


@pytest.mark.django_db
def test_a_personal_scorebook_from_an_email_has_a_capitalised_name_in_each_language():
    assert Scorebook.personal_for(UserFactory(email="carmen@example.com")).name == "Carmen's scorebook"
    with translation.override("es"):
        assert Scorebook.personal_for(UserFactory(email="carmen.ruiz@example.es")).name == "Libreta de Carmen"
    assert UserFactory(email="lupe@example.com").short_name == "Lupe"  # beside a round she corrected
