"""Romanian writes the months in lower case: "7 decembrie 2026", never "7 Decembrie" (issue 33,
item 10). Django's own Romanian catalog capitalises them; the site's catalog (locale/ro, first in
LOCALE_PATHS) gives them as Romanian writes them, in every form a date filter uses."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import formats, translation


@pytest.mark.parametrize("month", range(1, 13))
def test_romanian_month_names_are_lower_case(month: int) -> None:
    day = datetime.date(2026, month, 7)
    with translation.override("ro"):
        # ("M" is title-cased by Django whatever the language: the site's dates use N instead.)
        for pattern in ("j F Y", "j E Y", "j N Y", "j b Y"):
            text = formats.date_format(day, pattern)
            assert text == text.lower(), (pattern, text)


def test_the_profile_says_joined_7_decembrie(db: None) -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username="ala", password=None, language="ro")
    user.date_joined = datetime.datetime(2026, 12, 7, 12, 0, tzinfo=datetime.UTC)
    user.save(update_fields=["date_joined"])
    client = Client()
    client.force_login(user)
    page = client.get("/u/ala/").content.decode()
    assert "7 decembrie 2026" in page
    assert "Decembrie" not in page
