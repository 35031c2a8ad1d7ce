"""Reads about accounts for views (nothing here writes)."""

from django.http import Http404

from accounts.models import User


def user_get_public(*, username: str) -> User:
    """The active account with this username (any case), or ``Http404``."""
    user = User.objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        raise Http404("No such player.")
    return user
