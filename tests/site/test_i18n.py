"""Polish, Romanian and English: pages, the switcher, the stored preference, the JavaScript catalog,
error messages by code (pages and sockets), and the committed catalogs (complete, compiled)."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from pytest_django.asserts import assertContains, assertNotContains
from pytest_django.fixtures import Settings

from accounts.models import Language
from games.play import services
from games.shared import i18n_rules
from games.shared.i18n_errors import MESSAGES, card_label, language_for_scope, translated_message
from tests.site.site_helpers import client_for, make_room

LOCALE = Path(django_settings.BASE_DIR) / "locale"
LANGUAGES = ("pl", "ro")
DOMAINS = ("django", "djangojs")


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    # Starting a match publishes after commit; keep it away from a shared Redis.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def speaking(language: str) -> Client:
    """An anonymous client whose browser asks for ``language``."""
    return Client(HTTP_ACCEPT_LANGUAGE=language)


def user_speaking(user: Any, language: str) -> Client:
    user.language = language
    user.save(update_fields=["language"])
    return client_for(user)


# --- pages -------------------------------------------------------------------------------------

#: (path, words a Polish page shows, words a Romanian page shows), for anonymous visitors.
ANONYMOUS_PAGES = [
    ("/", ["Otwarte pokoje", "Utwórz pokój", "Zaloguj się"], ["Camere deschise", "Creează o cameră"]),
    ("/accounts/login/", ["Nie pamiętasz hasła?", "Nazwa użytkownika", "Hasło"], ["Ți-ai uitat parola?"]),
    ("/accounts/register/", ["Załóż konto", "Powtórz hasło"], ["Creează un cont", "Confirmarea parolei"]),
    (
        "/accounts/password/reset/",
        ["Ustaw nowe hasło", "Wyślij link"],
        ["Resetează-ți parola", "Trimite linkul"],
    ),
    (
        "/leaderboard/",
        ["Klasyfikacja", "Pokaż", "Remi (wyłożenie 45)"],
        ["Clasament", "Arată", "Remi (deschidere 45)"],
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "polish", "romanian"), ANONYMOUS_PAGES)
def test_anonymous_pages_speak_the_browsers_language(
    path: str, polish: list[str], romanian: list[str]
) -> None:
    for language, words in (("pl", polish), ("ro", romanian)):
        response = speaking(language).get(path)
        assert response.status_code == 200
        assertContains(response, f'<html lang="{language}">')
        for word in words:
            assertContains(response, word)
        assert response["Content-Language"] == language


@pytest.mark.django_db
def test_english_is_the_default(client: Client) -> None:
    response = client.get("/")

    assertContains(response, '<html lang="en">')
    assertContains(response, "Open rooms")


@pytest.mark.django_db
def test_room_pages_are_translated_with_the_rules_of_the_table(ala: Any, bob: Any) -> None:
    room = make_room(ala, "remik51")
    services.seat_take(room=room, user=ala, index=0)

    polish = user_speaking(ala, "pl").get(f"/rooms/{room.pk}/")
    assertContains(polish, "Miejsce 1:")
    assertContains(polish, "Dodaj bota")
    assertContains(polish, "Zasady stołu: Remik 51")
    assertContains(polish, "Polski remik na dwie talie z jokerami")  # the engine's summary, translated
    assertContains(polish, "<strong>60 sekund</strong> na ruch", html=False)
    assertContains(polish, "Przy tym stole: 500")

    romanian = user_speaking(bob, "ro").get(f"/rooms/{room.pk}/")
    assertContains(romanian, "Ia acest loc")
    assertContains(romanian, "Regulile mesei: Remik 51")
    assertContains(romanian, "Remi polonez cu două pachete și jokeri")
    assertContains(romanian, "<strong>60 de secunde</strong> pe rând", html=False)


@pytest.mark.django_db
def test_the_create_room_form_is_translated(ala: Any) -> None:
    polish = user_speaking(ala, "pl").get("/rooms/new/?variant=remi")
    assertContains(polish, "Utwórz pokój")
    assertContains(polish, "Sekundy na ruch")
    assertContains(polish, "Krótka gra dla dwóch graczy")  # an option's help from the engine
    assertContains(polish, "Rumuński remik na 106 kart")

    romanian = user_speaking(ala, "ro").get("/rooms/new/?variant=remi")
    assertContains(romanian, "Creează camera")
    assertContains(romanian, "Jocul scurt în doi")


@pytest.mark.django_db
def test_the_match_page_and_the_lists_are_translated(ala: Any, bob: Any) -> None:
    room = make_room(ala, "remik51")
    services.seat_take(room=room, user=ala, index=0)
    services.seat_take(room=room, user=bob, index=1)
    match = services.match_start(room=room)

    polish = user_speaking(ala, "pl")
    page = polish.get(f"/matches/{match.pk}/")
    assert page.status_code == 200
    assertContains(page, '<html lang="pl">')
    assertContains(page, "Partie")  # the header
    assertContains(polish.get("/accounts/preferences/"), "Ustawienia")
    assertContains(polish.get(f"/u/{ala.username}/"), "Rankingi")

    romanian = user_speaking(bob, "ro")
    page = romanian.get(f"/matches/{match.pk}/")
    assertContains(page, '<html lang="ro">')
    assertContains(page, "Meciuri")
    assertContains(romanian.get("/"), "Camerele tale")


@pytest.mark.django_db
def test_page_messages_of_the_services_are_in_the_players_language(ala: Any, bob: Any) -> None:
    room = make_room(ala)
    services.seat_take(room=room, user=ala, index=0)
    services.seat_take(room=room, user=bob, index=1)
    services.match_start(room=room)

    polish = user_speaking(bob, "pl").post(f"/rooms/{room.pk}/leave/", follow=True)
    assertContains(polish, "partia już się zaczęła: nie możesz już zwolnić miejsca")

    romanian = user_speaking(bob, "ro").post(f"/rooms/{room.pk}/seats/take/", {"index": 0}, follow=True)
    assertContains(romanian, "Camera nu mai primește jucători și nici un meci nou.")


# --- choosing the language ---------------------------------------------------------------------


@pytest.mark.django_db
def test_the_switcher_sets_the_language_cookie_and_returns_to_the_page() -> None:
    client = Client()
    home = client.get("/")
    assertContains(home, 'action="/i18n/setlang/"')
    assertContains(home, '<option value="ro" lang="ro">Română</option>', html=True)

    response = client.post("/i18n/setlang/", {"language": "ro", "next": "/leaderboard/"})

    assert response.status_code == 302
    assert response["Location"] == "/leaderboard/"
    assert client.cookies[django_settings.LANGUAGE_COOKIE_NAME].value == "ro"
    page = client.get("/leaderboard/")
    assertContains(page, "Clasament")
    assertContains(page, '<option value="ro" lang="ro" selected>Română</option>', html=True)
    assertContains(page, '<option value="pl" lang="pl">Polski</option>', html=True)  # its own name
    assertContains(page, '<option value="en" lang="en">English</option>', html=True)


@pytest.mark.django_db
def test_the_cookie_of_the_switcher_wins_over_the_browsers_language() -> None:
    client = speaking("pl")
    client.post("/i18n/setlang/", {"language": "ro", "next": "/"})

    assertContains(client.get("/"), "Camere deschise")


@pytest.mark.django_db
def test_a_logged_in_players_preference_wins_over_cookie_and_browser(ala: Any) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="ro")
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    ala.language = Language.PL
    ala.save()
    client.force_login(ala)

    response = client.get("/")

    assertContains(response, '<html lang="pl">')
    assertContains(response, "Otwarte pokoje")
    assertNotContains(response, "Camere deschise")


@pytest.mark.django_db
def test_the_switcher_stores_a_logged_in_players_choice(ala: Any) -> None:
    client = user_speaking(ala, "pl")

    client.post("/i18n/setlang/", {"language": "ro", "next": "/"})

    ala.refresh_from_db()
    assert ala.language == Language.RO
    assertContains(client.get("/"), "Camere deschise")


@pytest.mark.django_db
def test_saving_preferences_speaks_the_new_language_at_once(ala: Any) -> None:
    client = user_speaking(ala, "en")

    response = client.post("/accounts/preferences/", {"language": "ro"}, follow=True)

    assertContains(response, "Preferințele tale au fost salvate.")
    assert client.cookies[django_settings.LANGUAGE_COOKIE_NAME].value == "ro"


@pytest.mark.django_db
def test_an_unknown_language_is_ignored_by_the_switcher(ala: Any) -> None:
    client = user_speaking(ala, "pl")

    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})

    ala.refresh_from_db()
    assert ala.language == Language.PL


# --- the JavaScript catalog --------------------------------------------------------------------


@pytest.mark.django_db
def test_every_page_loads_the_javascript_catalog_before_its_modules(client: Client) -> None:
    html = client.get("/").content.decode()

    assert '<script src="/jsi18n/"></script>' in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [("pl", ["siódemka", "kier", "walet", "joker jako %(card)s"]), ("ro", ["șapte", "inimă roșie", "popă"])],
)
def test_the_javascript_catalog_serves_card_names(language: str, words: list[str]) -> None:
    response = speaking(language).get("/jsi18n/")

    assert response.status_code == 200
    assert "javascript" in response["Content-Type"]
    body = response.content.decode().encode("ascii").decode("unicode_escape")  # JSON escapes
    assert "django.pgettext" in body
    for word in words:
        assert word in body
    assert "April" not in body  # the admin's messages stay out


# --- error messages by code --------------------------------------------------------------------


def test_an_error_is_translated_by_its_code_with_its_fields() -> None:
    fields = {"points": 29, "needed": 51, "rule": "R51-31", "message": "the opening is worth 29 ..."}

    assert translated_message("opening_too_low", fields, "pl") == (
        "Twoje wyłożenie jest warte 29 pkt; potrzeba co najmniej 51."
    )
    assert translated_message("opening_too_low", fields, "ro") == (
        "Deschiderea ta valorează 29 pct.; trebuie cel puțin 51."
    )


def test_a_rule_or_a_phase_picks_the_more_precise_text() -> None:
    assert translated_message("cannot_lay_off", {"rule": "RMI-37"}, "pl").startswith(
        "Jokera nigdy nie dokłada się"
    )
    assert translated_message("wrong_phase", {"phase": "draw"}, "ro") == "Mai întâi trage o carte."
    assert translated_message("too_few_cards", {"cards": "9S TS"}, "pl") == (
        "9♠ 10♠: za mało kart; grupa i sekwens mają co najmniej trzy."
    )


def test_english_keeps_the_servers_own_message_and_an_unknown_code_its_english() -> None:
    message = "the opening is worth 29 points; it needs at least 51 (R51-31)"

    assert translated_message("opening_too_low", {"message": message}, "en") == message
    assert translated_message("some_new_code", {"message": "plain English"}, "pl") == "plain English"


def test_every_code_the_engine_and_the_site_raise_has_a_text() -> None:
    from games.engine import errors as engine_errors
    from games.shared import errors as site_errors

    codes = {
        cls.code
        for module in (engine_errors, site_errors)
        for cls in vars(module).values()
        if isinstance(cls, type)
        and isinstance(getattr(cls, "code", None), str)
        and cls is not engine_errors.CodedError  # the shape's base, never raised itself
    }
    known = {key.split("+")[0].split(":")[0] for key in MESSAGES}

    assert codes - known == set()


def test_cards_in_messages_are_written_for_people() -> None:
    assert card_label("TH#2") == "10♥"
    assert card_label("JK#1(5D)") == "★(5♦)"
    assert card_label("nonsense") == "nonsense"


def test_a_sockets_language_follows_the_same_order_as_a_page() -> None:
    def scope(user: Any = None, **headers: str) -> dict[str, Any]:
        return {"user": user, "headers": [(k.encode(), v.encode()) for k, v in headers.items()]}

    class Player:
        is_authenticated = True
        language = "ro"

    assert (
        language_for_scope(scope(Player(), cookie="django_language=pl", **{"accept-language": "pl"})) == "ro"
    )
    assert language_for_scope(scope(cookie="django_language=pl", **{"accept-language": "ro"})) == "pl"
    assert language_for_scope(scope(**{"accept-language": "de-DE,ro;q=0.8"})) == "ro"
    assert language_for_scope(scope()) == "en"


# --- the catalogs ------------------------------------------------------------------------------


def read_po(path: Path) -> list[dict[str, Any]]:
    """The entries of a .po file (the makemessages format): context, ids, translations, flags."""
    entries: list[dict[str, Any]] = []
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8").strip()):
        entry: dict[str, Any] = {"msgctxt": None, "msgid_plural": None, "msgstr": {}, "flags": set()}
        key: Any = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                value = ast.literal_eval(line)
                if isinstance(key, int):
                    entry["msgstr"][key] += value
                else:
                    entry[key] += value
            else:
                match = re.match(r'(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(".*")$', line)
                assert match, f"{path}: cannot read {line!r}"
                keyword, index, value = match.groups()
                if keyword == "msgstr":
                    key = int(index or 0)
                    entry["msgstr"][key] = ast.literal_eval(value)
                else:
                    key = keyword
                    entry[keyword] = ast.literal_eval(value)
        entries.append(entry)
    return entries


def expected_catalog(entries: list[dict[str, Any]]) -> dict[Any, str]:
    """What gettext should find in the compiled file: every translated, non-fuzzy entry."""
    catalog: dict[Any, str] = {}
    for entry in entries:
        if entry["msgid"] == "" or "fuzzy" in entry["flags"]:
            continue
        msgid = entry["msgid"] if entry["msgctxt"] is None else f"{entry['msgctxt']}\x04{entry['msgid']}"
        if entry["msgid_plural"] is None:
            if entry["msgstr"][0]:
                catalog[msgid] = entry["msgstr"][0]
        elif all(entry["msgstr"].values()):
            for index, text in entry["msgstr"].items():
                catalog[(msgid, index)] = text
    return catalog


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogs_match_their_po_files(language: str, domain: str) -> None:
    """The .mo files are committed (`make run` needs no gettext tools): recompile after editing a .po
    (``python manage.py compilemessages``, docs/i18n.md)."""
    folder = LOCALE / language / "LC_MESSAGES"
    entries = read_po(folder / f"{domain}.po")
    with (folder / f"{domain}.mo").open("rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
    found = {key: value for key, value in catalog.items() if key != ""}

    assert found == expected_catalog(entries)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_translated(language: str, domain: str) -> None:
    entries = read_po(LOCALE / language / "LC_MESSAGES" / f"{domain}.po")
    header = entries[0]

    assert "fuzzy" not in header["flags"]
    assert f"Language: {language}\\n" in repr(header["msgstr"][0]).replace("\\\\", "\\")
    untranslated = [
        entry["msgid"]
        for entry in entries[1:]
        if "fuzzy" in entry["flags"] or not all(entry["msgstr"].values())
    ]
    assert untranslated == []


def test_the_rules_texts_in_the_catalog_are_the_engines_current_ones() -> None:
    """games/shared/i18n_rules.py lists what the engine says; regenerate it when the engine's texts change."""
    assert i18n_rules.current_texts() == i18n_rules.TEXTS


@pytest.mark.parametrize(
    ("variant", "options", "polish"),
    [
        (
            "remik51",
            {"penalty_limit": 300},
            "Partia kończy się, gdy suma gracza przekroczy 300 punktów karnych",
        ),
        ("remi", {"rounds": 1}, "Partia kończy się po 1 rundzie; wygrywa najwyższa suma."),
        ("remi", {"rounds": 5}, "Partia kończy się po 5 rundach; wygrywa najwyższa suma."),
        ("remi", {"target": 2000}, "Partia kończy się, gdy suma gracza osiągnie 2000 punktów"),
        ("rummy500", {"target": 300}, "gdy po rozdaniu suma gracza przekroczy 300 punktów"),
        ("gin", {"target": 250}, "Gra kończy się, gdy wynik gracza osiągnie 250 (GIN-23)"),
        ("remik40", {"winner_share_2": 80}, "zwycięzca bierze co najmniej 80% puli"),
        ("knock108", {}, "Gracz, którego punkty ujemne przekroczą 100, odpada"),
    ],
)
def test_the_end_of_a_match_is_said_with_the_tables_own_numbers(
    variant: str, options: dict[str, Any], polish: str
) -> None:
    from django.utils import translation

    from games import engine

    rules = engine.variant(variant, **options)
    with translation.override("en"):
        assert i18n_rules.end_condition(rules) == rules.end_condition()  # English is the engine's own
    with translation.override("pl"):
        assert polish in i18n_rules.end_condition(rules)


def _js_function(path: Path, name: str) -> str:
    """The source of one top-level function of a script (up to the next top-level declaration)."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"function {name}(")
    end = re.search(r"\n(?:export |/\*\*|function )", text[start + 1 :])
    return text[start : start + 1 + end.start()] if end else text[start:]


def test_the_players_own_event_lines_are_whole_sentences() -> None:
    """A player's own moves are not "%(who)s …" with who = "ty" / "tu": each has its own sentence
    ("you drew from the stock"), so that Polish and Romanian conjugate the verb (docs/i18n.md)."""
    scripts = Path(django_settings.BASE_DIR) / "static" / "js"
    for path, name in (
        (scripts / "table" / "events.js", "describeEvents"),
        (scripts / "table" / "families" / "index.js", "describeFamilyEvent"),
    ):
        body = _js_function(path, name)
        assert 't("you")' not in body, name
        assert "who(view" not in body, name
        named = set(re.findall(r't[n]?\("%\(who\)s ([^"]+)"', body))
        own = set(re.findall(r't[n]?\("you ([^"]+)"', body))
        assert named, name
        # every named sentence has the player's own twin (the verb may change: "is" / "are")
        assert len(own) >= len(named), (name, sorted(named), sorted(own))

    for language, pronoun in (("pl", "ty"), ("ro", "tu")):
        entries = read_po(LOCALE / language / "LC_MESSAGES" / "djangojs.po")
        own = [entry for entry in entries if entry["msgid"].startswith("you ")]
        assert len(own) >= 15
        for entry in own:
            for text in entry["msgstr"].values():
                assert "%(who)s" not in text, (language, text)
                assert not text.lower().startswith(f"{pronoun} "), (language, text)
