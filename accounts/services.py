"""Every write to an account goes through these functions (views and forms only call them)."""

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import Language, User


def user_register(*, username: str, email: str, password: str, language: str | None = None) -> User:
    """Create an active account.

    ``language``: the language the visitor was reading the site in (docs/i18n.md), kept as the
    account's preference so that registering never switches the site to another language; one
    the site does not offer (or None) gives the default.

    Raises ``ValidationError`` (keyed by field) when the username or e-mail is taken, in any
    case, or when the password fails ``AUTH_PASSWORD_VALIDATORS``. Nothing is written then.
    """
    username = username.strip()
    email = User.objects.normalize_email(email.strip())
    errors: dict[str, list[str]] = {}
    if User.objects.filter(username__iexact=username).exists():
        errors["username"] = [_("A user with that username already exists.")]
    if User.objects.filter(email__iexact=email).exists():
        errors["email"] = [_("An account with this e-mail address already exists.")]
    user = User(username=username, email=email)
    if language in Language.values:
        user.language = language
    try:
        password_validation.validate_password(password, user=user)
    except ValidationError as error:
        errors["password"] = list(error.messages)
    if errors:
        raise ValidationError(errors)

    user.set_password(password)
    user.full_clean(exclude=["password"], validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as error:
        # Someone registered the same name or address between our check and the insert.
        raise ValidationError(
            {"username": [_("A user with that username or e-mail already exists.")]}
        ) from error
    return user


def user_set_language(*, user: User, language: str) -> User:
    """Store the player's language preference."""
    if language not in Language.values:
        raise ValidationError({"language": [_("Unknown language “%(code)s”.") % {"code": language}]})
    user.language = language
    user.save(update_fields=["language"])
    return user


def user_set_card_display(*, user: User, large: bool | None = None, four_colour: bool | None = None) -> User:
    """Store how the table draws cards for the player (large cards, four-colour deck)."""
    fields = []
    if large is not None:
        user.cards_large = bool(large)
        fields.append("cards_large")
    if four_colour is not None:
        user.cards_four_colour = bool(four_colour)
        fields.append("cards_four_colour")
    if fields:
        user.save(update_fields=fields)
    return user


def user_block(*, user_ids: list[int], keep: int | None = None) -> list[User]:
    """Block accounts: ``is_active`` False, so they can no longer log in (their sessions stop
    authenticating) and leave the public pages and leaderboards. Returns the accounts blocked now
    (active ones only; ``keep``, the staff member acting, is never blocked)."""
    with transaction.atomic():
        users = list(
            User.objects.select_for_update().filter(pk__in=user_ids, is_active=True).exclude(pk=keep or 0)
        )
        for user in users:
            user.is_active = False
            user.save(update_fields=["is_active"])
    return users
