from django.conf import settings
from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.db import models


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
        """What other members see beside a round they recorded: the first name, or the email's local part."""
        return self.first_name or self.email.split("@")[0]
