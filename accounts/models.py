from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A player account.

    It adds nothing to Django's user yet. It exists from the first migration because swapping
    AUTH_USER_MODEL once tables exist is painful.
    """
