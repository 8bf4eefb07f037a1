import re

from django.conf import settings
from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.db import models


def name_from_email(email: str) -> str:
    """A name made from an email's local part: its first word (parted by . _ - +), capitalised."""
    local = email.split("@")[0]
    word = next((part for part in re.split(r"[._+\-]+", local) if part), local)
    return word[:1].upper() + word[1:]


class UserManager(BaseUserManager):
    use_in_migrations = True

    def _create_user(self, email, password, **extra_fields):
        if not email:
            raise ValueError("An email address is required.")
        user = self.model(email=self.normalize_email(email), **extra_fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email, password=None, **extra_fields):
        extra_fields.setdefault("is_staff", False)
        extra_fields.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra_fields)

    def create_superuser(self, email, password=None, **extra_fields):
        extra_fields.update(is_staff=True, is_superuser=True)
        return self._create_user(email, password, **extra_fields)


class User(AbstractUser):
    """A person who keeps score. Signs in with an email address; there are no usernames."""

    username = None
    email = models.EmailField("email address", unique=True)
    # The language picked in the menu, applied wherever the user signs in; empty: the browser's.
    language = models.CharField(max_length=8, blank=True, default="", db_default="", choices=settings.LANGUAGES)

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS = []

    objects = UserManager()

    def __str__(self):
        return self.email

    @property
    def short_name(self) -> str:
        """What other members see beside a round they recorded, and what a personal scorebook is
        named after: the first name, or one made from the email as a name is written
        ("carmen.lopez@..." is "Carmen")."""
        return self.first_name or name_from_email(self.email)
