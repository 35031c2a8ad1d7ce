import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client


@pytest.mark.django_db  # the home page is the lobby: it lists rooms
def test_the_home_page_names_the_site(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert "Remi" in response.content.decode()
    assert "/static/css/site.css" in response.content.decode()


def test_healthz_answers_ok(client: Client) -> None:
    response = client.get("/healthz/")

    assert response.status_code == 200
    assert response.json() == {"ok": True}


def test_the_user_model_is_the_custom_one() -> None:
    assert settings.AUTH_USER_MODEL == "accounts.User"
    assert get_user_model()._meta.label == "accounts.User"


@pytest.mark.django_db
def test_every_model_change_has_a_migration() -> None:
    # Raises SystemExit(1) if makemigrations would write anything.
    call_command("makemigrations", check=True, dry_run=True, verbosity=0)
