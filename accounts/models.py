from typing import ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.db import models
from django.db.models.functions import Lower


class Language(models.TextChoices):
    """The languages a player can choose. Stored values never change (they are in the database)."""

    PL = "pl", "Polski"
    RO = "ro", "Română"
    EN = "en", "English"


def default_language() -> str:
    """The site's LANGUAGE_CODE (``en-us`` -> ``en``) when it is one we offer, else English."""
    code = settings.LANGUAGE_CODE.split("-")[0].lower()
    return code if code in Language.values else Language.EN


class UserManager(DjangoUserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> "User":
        # Usernames are unique regardless of case (see the constraint below), so "ala" logs in "Ala".
        return self.get(username__iexact=username)


class User(AbstractUser):
    """A player account.

    Usernames and non-empty e-mail addresses are unique regardless of case: the database enforces
    it, so two concurrent registrations of "Ala" and "ala" cannot both succeed.
    """

    language = models.CharField("language", max_length=8, choices=Language.choices, default=default_language)
    # How the table draws cards for this player (docs/table.md: large cards, four-colour deck).
    cards_large = models.BooleanField("large cards", default=False)
    cards_four_colour = models.BooleanField("four-colour deck", default=False)

    objects: ClassVar[UserManager] = UserManager()

    class Meta(AbstractUser.Meta):  # type: ignore[name-defined]  # django-stubs declares no Meta
        constraints = (
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="accounts_user_email_ci_unique",
            ),
        )
