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


class SignIn(models.Model):
    """One sign-in (a login or a registration): what the site can tell of the person behind an
    account, for "one ranked try per person" at the deal of the day (docs/learn.md).

    ``browser`` is the random id the browser keeps in its ``remi_browser`` cookie; ``address`` is
    an HMAC of the client's address (an IPv6 address by its /64 network), never the address itself
    (``accounts.signins``). Either may be empty (no cookie could be read, no address).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_ins")
    at = models.DateTimeField(auto_now_add=True)
    browser = models.CharField(max_length=64, blank=True, default="")
    address = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ("-at",)
        indexes = (
            models.Index(fields=("browser", "at"), name="signin_browser_at"),
            models.Index(fields=("address", "at"), name="signin_address_at"),
        )

    def __str__(self) -> str:
        return f"{self.user_id} at {self.at:%Y-%m-%d %H:%M}"
