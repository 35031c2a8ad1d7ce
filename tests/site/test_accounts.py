"""Accounts: register, log in/out, login rate limiting, passwords, profile and preferences."""

import re

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.core import mail
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import AsyncClient, Client
from pytest_django.asserts import assertContains, assertNotContains, assertRedirects
from pytest_django.fixtures import Settings

from accounts.models import Language, User, default_language
from accounts.services import user_register
from remi_site.settings import email_settings

pytestmark = pytest.mark.django_db

PASSWORD = "green-felt-51"
GOOD = {
    "username": "Ala",
    "email": "ala@example.com",
    "password1": PASSWORD,
    "password2": PASSWORD,
}


@pytest.fixture
def ala() -> User:
    return user_register(username="Ala", email="ala@example.com", password=PASSWORD)


def logged_in_username(client: Client) -> str | None:
    user = client.get("/").wsgi_request.user
    return user.get_username() if user.is_authenticated else None


# --- Register ---------------------------------------------------------------------------------


def test_registering_creates_the_account_logs_in_and_shows_the_profile(client: Client) -> None:
    response = client.post("/accounts/register/", GOOD)

    assertRedirects(response, "/u/Ala/")
    user = User.objects.get(username="Ala")
    assert user.email == "ala@example.com"
    assert user.check_password(PASSWORD)
    assert user.password != PASSWORD
    assert logged_in_username(client) == "Ala"


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"username": "ALA"}, "username", "A user with that username already exists."),
        ({"email": "ALA@Example.com"}, "email", "An account with this e-mail address already exists."),
        ({"password2": "green-felt-40"}, "password2", "The two passwords do not match."),
        ({"password1": "short", "password2": "short"}, "password1", "This password is too short."),
        ({"password1": "password123", "password2": "password123"}, "password1", "too common"),
        ({"password1": "4815162342", "password2": "4815162342"}, "password1", "entirely numeric"),
        ({"password1": "bartek-nowak", "password2": "bartek-nowak"}, "password1", "too similar"),
        ({"username": "no spaces!"}, "username", "Enter a valid username."),
        ({"email": "not-an-address"}, "email", "Enter a valid email address."),
        ({"username": ""}, "username", "This field is required."),
    ],
)
def test_registration_is_refused_with_the_reason(
    client: Client, ala: User, changes: dict[str, str], field: str, message: str
) -> None:
    data = {**GOOD, "username": "bartek-nowak", "email": "bartek@example.com", **changes}

    response = client.post("/accounts/register/", data)

    assert response.status_code == 200
    errors = response.context["form"].errors
    assert any(message in error for error in errors[field]), errors
    assert User.objects.count() == 1
    assert logged_in_username(client) is None


def test_the_service_refuses_a_username_differing_only_in_case(ala: User) -> None:
    with pytest.raises(ValidationError) as caught:
        user_register(username="aLA", email="other@example.com", password=PASSWORD)

    assert set(caught.value.message_dict) == {"username"}


def test_the_database_refuses_case_insensitive_duplicates_too(ala: User) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="ALA", email="x@example.com", password=PASSWORD)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="Other", email="ALA@EXAMPLE.COM", password=PASSWORD)


# --- Log in and out ---------------------------------------------------------------------------


def test_the_nav_offers_login_and_register_to_visitors(client: Client) -> None:
    response = client.get("/")

    assertContains(response, 'href="/accounts/login/"')
    assertContains(response, 'href="/accounts/register/"')
    assertNotContains(response, "Log out")


def test_logging_in_redirects_home_and_the_nav_shows_the_username(client: Client, ala: User) -> None:
    response = client.post("/accounts/login/", {"username": "Ala", "password": PASSWORD})

    assertRedirects(response, "/")
    home = client.get("/")
    assertContains(home, 'href="/u/Ala/"')
    assertContains(home, "Log out")
    assertNotContains(home, 'href="/accounts/register/"')


def test_the_username_is_not_case_sensitive_at_login(client: Client, ala: User) -> None:
    client.post("/accounts/login/", {"username": "ala", "password": PASSWORD})

    assert logged_in_username(client) == "Ala"


def test_a_wrong_password_is_refused(client: Client, ala: User) -> None:
    response = client.post("/accounts/login/", {"username": "Ala", "password": "wrong"})

    assertContains(response, "Please enter a correct username and password")
    assert logged_in_username(client) is None


def test_logging_out_takes_a_post(client: Client, ala: User) -> None:
    client.force_login(ala)

    assert client.get("/accounts/logout/").status_code == 405
    assert logged_in_username(client) == "Ala"
    assertRedirects(client.post("/accounts/logout/"), "/")
    assert logged_in_username(client) is None


# --- Login rate limiting ----------------------------------------------------------------------


def fail_login(client: Client, username: str = "Ala", times: int = 1):  # type: ignore[no-untyped-def]
    response = None
    for _ in range(times):
        response = client.post("/accounts/login/", {"username": username, "password": "wrong"})
    return response


def test_logins_are_blocked_after_the_failure_limit_and_the_page_says_why(client: Client, ala: User) -> None:
    limit = settings.AXES_FAILURE_LIMIT
    minutes = round(settings.AXES_COOLOFF_TIME.total_seconds() / 60)

    before = fail_login(client, times=limit - 1)
    assert before.status_code == 200
    assertContains(before, "Please enter a correct username and password")

    blocked = fail_login(client)
    assert blocked.status_code == 429
    assertContains(blocked, "Too many failed logins", status_code=429)
    assertContains(blocked, f"blocked after {limit} failed attempts", status_code=429)
    assertContains(blocked, f"Try again in {minutes} minutes.", status_code=429)

    # While blocked, even the right password does not get in.
    right = client.post("/accounts/login/", {"username": "ala", "password": PASSWORD})
    assert right.status_code == 429
    assert logged_in_username(client) is None


def test_the_lockout_is_per_username_so_other_players_can_still_log_in(client: Client, ala: User) -> None:
    user_register(username="Bartek", email="bartek@example.com", password=PASSWORD)
    fail_login(client, times=settings.AXES_FAILURE_LIMIT)

    response = client.post("/accounts/login/", {"username": "Bartek", "password": PASSWORD})

    assertRedirects(response, "/")


def test_a_successful_login_clears_the_failure_count(client: Client, ala: User) -> None:
    fail_login(client, times=settings.AXES_FAILURE_LIMIT - 1)
    client.post("/accounts/login/", {"username": "Ala", "password": PASSWORD})
    client.post("/accounts/logout/")

    assert fail_login(client, times=settings.AXES_FAILURE_LIMIT - 1).status_code == 200


def test_the_lockout_page_is_served_under_asgi_too(ala: User) -> None:
    # daphne runs Django's ASGI handler, where axes' middleware takes its async path.
    client = AsyncClient()
    responses = [
        async_to_sync(client.post)("/accounts/login/", {"username": "Ala", "password": "wrong"})
        for _ in range(settings.AXES_FAILURE_LIMIT)
    ]

    assert [r.status_code for r in responses[:-1]] == [200] * (settings.AXES_FAILURE_LIMIT - 1)
    assertContains(responses[-1], "Too many failed logins", status_code=429)


def test_the_test_clients_login_still_works_without_a_request(client: Client, ala: User) -> None:
    assert client.login(username="Ala", password=PASSWORD)


# --- Passwords --------------------------------------------------------------------------------


def test_changing_the_password(client: Client, ala: User) -> None:
    client.force_login(ala)
    new = "red-joker-40"

    wrong = client.post(
        "/accounts/password/change/",
        {"old_password": "nope", "new_password1": new, "new_password2": new},
    )
    assertContains(wrong, "Your old password was entered incorrectly")

    response = client.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )

    assertRedirects(response, "/accounts/password/change/done/")
    ala.refresh_from_db()
    assert ala.check_password(new)
    assert logged_in_username(client) == "Ala"


def test_the_password_change_page_needs_a_login(client: Client) -> None:
    assertRedirects(
        client.get("/accounts/password/change/"),
        "/accounts/login/?next=/accounts/password/change/",
    )


def test_password_reset_mails_a_link_that_sets_a_new_password(client: Client, ala: User) -> None:
    response = client.post("/accounts/password/reset/", {"email": "ALA@example.com"})

    assertRedirects(response, "/accounts/password/reset/sent/")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ala@example.com"]
    assert message.subject == "Reset your Remi password"
    link = re.search(r"https?://testserver(/accounts/password/reset/\S+/)", message.body)
    assert link, message.body

    form_page = client.get(link.group(1), follow=True)
    assertContains(form_page, "Choose a new password")
    new = "red-joker-40"
    done = client.post(form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})

    assertRedirects(done, "/accounts/password/reset/complete/")
    ala.refresh_from_db()
    assert ala.check_password(new)
    # The link works once.
    assertContains(client.get(link.group(1), follow=True), "This link does not work")


def test_password_reset_for_an_unknown_address_sends_nothing_and_reveals_nothing(client: Client) -> None:
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})

    assertRedirects(response, "/accounts/password/reset/sent/")
    assert mail.outbox == []


# --- Profile and preferences ------------------------------------------------------------------


def test_the_profile_page_shows_the_player_and_no_invented_matches(client: Client, ala: User) -> None:
    response = client.get("/u/Ala/")

    assertContains(response, "<h1>Ala</h1>", html=True)
    assertContains(response, f"Joined {ala.date_joined:%-d %B %Y}")
    assertContains(response, "Recent matches")
    assertContains(response, "No matches played yet.")


def test_the_profile_page_finds_the_player_in_any_case(client: Client, ala: User) -> None:
    assert client.get("/u/ala/").status_code == 200


@pytest.mark.parametrize("username", ["nobody", "Ala"])
def test_the_profile_page_is_404_for_unknown_or_deactivated_players(
    client: Client, ala: User, username: str
) -> None:
    ala.is_active = False
    ala.save()

    assert client.get(f"/u/{username}/").status_code == 404


def test_a_new_player_gets_the_sites_language(ala: User, settings: Settings) -> None:
    assert ala.language == Language.EN
    settings.LANGUAGE_CODE = "ro"
    assert default_language() == "ro"
    settings.LANGUAGE_CODE = "de"
    assert default_language() == "en"


def test_preferences_save_the_language(client: Client, ala: User) -> None:
    client.force_login(ala)
    assertContains(client.get("/accounts/preferences/"), '<option value="en" selected>English</option>')

    response = client.post("/accounts/preferences/", {"language": "pl"}, follow=True)

    assertRedirects(response, "/accounts/preferences/")
    assertContains(response, "Ustawienia zostały zapisane.")  # said in the language just chosen
    assertContains(response, '<html lang="pl">')
    ala.refresh_from_db()
    assert ala.language == Language.PL


def test_preferences_refuse_an_unknown_language(client: Client, ala: User) -> None:
    client.force_login(ala)

    response = client.post("/accounts/preferences/", {"language": "de"})

    assert response.status_code == 200
    assert "language" in response.context["form"].errors
    ala.refresh_from_db()
    assert ala.language == Language.EN


def test_preferences_need_a_login(client: Client) -> None:
    assertRedirects(client.get("/accounts/preferences/"), "/accounts/login/?next=/accounts/preferences/")


# --- E-mail configuration ---------------------------------------------------------------------


def test_without_configuration_mail_goes_to_the_console() -> None:
    assert email_settings({})["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"


def test_email_url_configures_smtp() -> None:
    config = email_settings({"EMAIL_URL": "smtp://remi%40example.com:s%3Acret@mail.example.com:587?tls=1"})

    assert config == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "mail.example.com",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "remi@example.com",
        "EMAIL_HOST_PASSWORD": "s:cret",
        "EMAIL_USE_SSL": False,
        "EMAIL_USE_TLS": True,
    }
    assert email_settings({"EMAIL_URL": "smtps://mail.example.com"})["EMAIL_PORT"] == 465


def test_email_host_configures_smtp() -> None:
    config = email_settings({"EMAIL_HOST": "mail.example.com", "EMAIL_PORT": "2525", "EMAIL_USE_TLS": "1"})

    assert config["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert config["EMAIL_HOST"] == "mail.example.com"
    assert config["EMAIL_PORT"] == 2525
    assert config["EMAIL_USE_TLS"] is True


def test_one_address_guessing_many_usernames_is_locked_out(
    client: Client, ala: User, settings: Settings
) -> None:
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 8
    # Four usernames, two failures each: no (username, address) pair reaches its own limit of 5.
    for username in ("zofia", "jan", "ola", "piotr"):
        assert fail_login(client, username=username, times=2).status_code == 200

    blocked = fail_login(client, username="ewa")
    assert blocked.status_code == 429
    assertContains(blocked, "blocked after 8 failed attempts", status_code=429)
    assertNotContains(blocked, "Logging in as", status_code=429)  # every username is blocked
    # Even the right password of a real account, from that address.
    assert client.post("/accounts/login/", {"username": "ala", "password": PASSWORD}).status_code == 429
    # Another address still logs in.
    other = Client(REMOTE_ADDR="198.51.100.4")
    assertRedirects(other.post("/accounts/login/", {"username": "ala", "password": PASSWORD}), "/")


def _register(client: Client, number: int):  # type: ignore[no-untyped-def]
    return client.post(
        "/accounts/register/",
        {
            "username": f"player{number}",
            "email": f"player{number}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def test_one_address_registers_at_most_so_many_accounts_an_hour(settings: Settings) -> None:
    settings.REGISTRATIONS_PER_ADDRESS_PER_HOUR = 3
    for number in range(3):
        client = Client(REMOTE_ADDR="203.0.113.20")
        assert _register(client, number).status_code == 302
    refused = _register(Client(REMOTE_ADDR="203.0.113.20"), 3)
    assert refused.status_code == 429
    assertContains(refused, "Too many accounts were made from your address", status_code=429)
    assert not User.objects.filter(username="player3").exists()
    assert _register(Client(REMOTE_ADDR="203.0.113.21"), 3).status_code == 302


# --- A new account keeps the visitor's language (docs/i18n.md: which language) --------------


def test_registering_from_a_polish_browser_gives_a_polish_account(client: Client) -> None:
    client.post("/accounts/register/", GOOD, HTTP_ACCEPT_LANGUAGE="pl-PL,pl;q=0.9,en;q=0.5")
    assert User.objects.get(username="Ala").language == Language.PL


def test_registering_after_choosing_romanian_gives_a_romanian_account(client: Client) -> None:
    client.post("/i18n/setlang/", {"language": "ro", "next": "/"}, HTTP_ACCEPT_LANGUAGE="pl")
    response = client.post("/accounts/register/", GOOD, HTTP_ACCEPT_LANGUAGE="pl", follow=True)
    assert User.objects.get(username="Ala").language == Language.RO
    # and the pages after registering stay Romanian
    assert response.content.decode().count('lang="ro"') >= 1


def test_registering_from_an_english_browser_gives_an_english_account(client: Client) -> None:
    client.post("/accounts/register/", GOOD, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    assert User.objects.get(username="Ala").language == Language.EN
