"""Error messages in the player's language, chosen by the error's stable ``code``.

The engine (``games.engine.errors``) and the application (``games.shared.errors``) give every refusal a
stable ``code`` and a plain English message for logs. What a player reads is built here, on the
site's side, from the code and the error's structured fields (``card``, ``cards``, ``points``,
``needed``, ``phase``, ``rule``, ...), in the language of the socket or page that asked:

>>> translated_message("opening_too_low", {"points": 29, "needed": 51, "rule": "R51-31"}, "pl")
'Twoje wyłożenie jest warte 29 pkt; potrzeba co najmniej 51.'
>>> translated_message("not_your_turn", {}, "ro")
'Nu este rândul tău.'

English keeps the server's own message (the most precise: it names the numbers). For another
language, a message of the services that the catalog knows word for word is used as it is; else
a more precise text is looked up first: ``code:rule`` (``cannot_lay_off:RMI-37``), then
``code:phase`` (``wrong_phase:draw``), then the code with its fields filled in, then the code
alone. A code not listed here (a newer one) keeps the English ``message`` it came with.
"""

from __future__ import annotations

from collections.abc import Mapping
from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_noop, trans_real

from games.shared import messages

#: code (or code:rule, code:phase) -> English text; %(name)s placeholders come from the fields.
MESSAGES: dict[str, str] = {
    # --- the engine: reading the move ---
    "illegal_move": gettext_noop("This move is not allowed."),
    "malformed_move": gettext_noop("The move could not be read."),
    "malformed_card": gettext_noop("That is not a card."),
    "malformed_card+card": gettext_noop("“%(card)s” is not a card."),
    "malformed_message": gettext_noop("The message could not be read."),
    # --- turn order and phases ---
    "game_over": gettext_noop("The match is over: no more moves."),
    "not_your_turn": gettext_noop("It is not your turn."),
    "wrong_phase": gettext_noop("This cannot be done at this point of your turn."),
    "wrong_phase:draw": gettext_noop("Draw a card first."),
    "wrong_phase:play": gettext_noop("You have already drawn: lay down, or discard to end your turn."),
    "wrong_phase:GIN-9": gettext_noop("Discard or knock to end your turn."),
    "wrong_phase:K108-Q12": gettext_noop("The stock is empty: take the top discard or pass."),
    "first_turn": gettext_noop("Nothing of yours may reach the table in your first turn."),
    "card_not_in_hand": gettext_noop("That card is not in your hand."),
    "card_not_in_hand+card": gettext_noop("%(card)s is not in your hand."),
    "not_opened": gettext_noop("Lay down your opening before adding to melds or exchanging jokers."),
    "must_keep_discard": gettext_noop(
        "Keep one card to discard: a turn may not empty your hand by laying down."
    ),
    "cannot_take_discard": gettext_noop("The discard pile cannot be taken this way."),
    "taken_card_not_melded": gettext_noop(
        "The card taken from the discard pile must go into a new meld laid in the same move."
    ),
    "discard_taken_card": gettext_noop("You have just taken that card from the pile: discard another one."),
    "discard_taken_card+card": gettext_noop("%(card)s was just taken from the pile: discard another card."),
    # --- melds ---
    "invalid_meld": gettext_noop("That is not a valid meld."),
    "invalid_meld+cards": gettext_noop("%(cards)s is not a valid meld."),
    "too_few_cards+cards": gettext_noop("%(cards)s: too few cards; a set or a run needs at least three."),
    "set_too_large+cards": gettext_noop(
        "%(cards)s: a set holds at most four cards, each of a different suit."
    ),
    "repeated_suit+cards": gettext_noop("%(cards)s: a set may not hold two cards of the same suit."),
    "not_a_meld+cards": gettext_noop("%(cards)s: the cards are neither of one rank nor a run of one suit."),
    "not_consecutive+cards": gettext_noop("%(cards)s: the cards of a run must follow one another."),
    "wrap_around+cards": gettext_noop("%(cards)s: a run may not go round the ace (king, ace, two)."),
    "ace_both_ends+cards": gettext_noop("%(cards)s: a run may not have an ace at both ends."),
    "too_many_jokers+cards": gettext_noop("%(cards)s: too many jokers in one meld."),
    "adjacent_jokers+cards": gettext_noop("%(cards)s: two jokers may not lie side by side in a run."),
    "no_natural_card+cards": gettext_noop("%(cards)s: a meld needs at least one natural card."),
    "joker_declaration+cards": gettext_noop("%(cards)s: the joker cannot stand for that card here."),
    "joker_must_be_declared+cards": gettext_noop("%(cards)s: say which card the joker stands for."),
    "too_few_cards": gettext_noop("Too few cards: a set or a run needs at least three."),
    "set_too_large": gettext_noop("A set holds at most four cards, each of a different suit."),
    "repeated_suit": gettext_noop("A set may not hold two cards of the same suit."),
    "not_a_meld": gettext_noop("The cards are neither of one rank nor a run of one suit."),
    "not_consecutive": gettext_noop("The cards of a run must follow one another."),
    "wrap_around": gettext_noop("A run may not go round the ace (king, ace, two)."),
    "ace_both_ends": gettext_noop("A run may not have an ace at both ends."),
    "too_many_jokers": gettext_noop("Too many jokers in one meld."),
    "adjacent_jokers": gettext_noop("Two jokers may not lie side by side in a run."),
    "no_natural_card": gettext_noop("A meld needs at least one natural card."),
    "joker_declaration": gettext_noop("The joker cannot stand for that card here."),
    "no_jokers": gettext_noop("This game is played without jokers."),
    "joker_must_be_declared": gettext_noop("Say which card the joker stands for."),
    # --- opening, lay-offs, jokers, atu ---
    "opening_too_low": gettext_noop("Your opening is worth too few points."),
    "opening_too_low+points+needed": gettext_noop(
        "Your opening is worth %(points)s points; it needs at least %(needed)s."
    ),
    "opening_needs_run": gettext_noop("Your opening must include a run."),
    "opening_needs_run:R51-31": gettext_noop("Your opening must include a pure run (a run without jokers)."),
    "unknown_meld": gettext_noop("There is no such meld on the table."),
    "cannot_lay_off": gettext_noop("That card does not fit this meld."),
    "cannot_lay_off:RMI-37": gettext_noop(
        "A joker can never be added to a meld on the table; it reaches the table only inside a new meld."
    ),
    "cannot_lay_off:R51-Q4": gettext_noop(
        "That is the card a joker of this set stands for: exchange the joker instead."
    ),
    "bad_joker_exchange": gettext_noop("This joker exchange is not allowed."),
    "bad_joker_exchange:RMI-42": gettext_noop("A bought-back joker cannot be bought back again."),
    "bad_joker_exchange:GIN-2": gettext_noop("There are no jokers in gin."),
    "exchanged_joker_not_melded": gettext_noop(
        "A joker taken from the table must go into a new meld laid in the same move."
    ),
    "atu_not_allowed": gettext_noop("The atu can be taken only into a new meld, in the turn you go out."),
    "knock_too_high": gettext_noop("Too many loose points to knock."),
    "knock_too_high+points+limit": gettext_noop("%(points)s loose points: a knock keeps at most %(limit)s."),
    "knock_too_high:OKL-2": gettext_noop("The first up-card was an ace: this deal ends only with gin."),
    # --- the site: rooms, seats, matches ---
    "game_error": gettext_noop("This cannot be done here."),
    "not_seated": gettext_noop("You have no seat at this table."),
    "stale_version": gettext_noop("The table has moved on; here it is as it stands now."),
    "room_full": gettext_noop("Every seat is taken."),
    "seat_taken": gettext_noop("That seat is taken or does not exist."),
    "already_seated": gettext_noop("You already have a seat at this table."),
    "not_owner": gettext_noop("Only the room's owner may do this."),
    "room_not_open": gettext_noop("The room is not open for seating or a new match."),
    "room_not_ready": gettext_noop("Every seat needs a player or a bot before the match starts."),
    "ranked_no_bots": gettext_noop("A ranked room seats only people: no bot may sit down."),
    "not_bot_turn": gettext_noop("The seat to move is not a bot."),
    "round_pause": gettext_noop("The next round has not started yet."),
    "match_over": gettext_noop("The match is over."),
    "room_not_found": gettext_noop("No such room."),
    "match_not_found": gettext_noop("No such match."),
    "bad_options": gettext_noop("These table options are not allowed."),
    "bad_options+detail": gettext_noop("These table options are not allowed: %(detail)s"),
    "rate_limited": gettext_noop("Too many messages at once: wait a moment and try again."),
    "server_error": gettext_noop("Something went wrong on the server; the table has been reloaded."),
    # --- deal of the day ---
    "daily_already_played": gettext_noop("You have already played this deal of the day: one try per day."),
    "daily_no_such_deal": gettext_noop("There is no deal of the day for this variant."),
    "daily_analysis_sealed": gettext_noop(
        "The analysis of a deal of the day opens when the day is over (UTC), with its seed and replay."
    ),
    "daily_sealed": gettext_noop(
        "The deal of the day is sealed until the day is over (UTC): its record, replay and seed come then."
    ),
    # --- chat and rematch ---
    "chat_empty": gettext_noop("Write something first."),
    "chat_too_long": gettext_noop("A chat message is too long."),
    "chat_too_long+limit": gettext_noop("A chat message holds at most %(limit)s characters."),
    "chat_too_many_marks": gettext_noop("Too many accents on one letter."),
    "chat_rate_limited": gettext_noop("You are writing too fast: wait a moment."),
    "chat_silenced": gettext_noop("Staff have muted you in chat."),
    "chat_message_not_found": gettext_noop("That message is no longer there."),
    "mute_target": gettext_noop("There is no other player of that name to mute."),
    "not_staff": gettext_noop("Only staff may do this."),
    "rematch_unavailable": gettext_noop("There is no finished match here to play again."),
    "round_in_play": gettext_noop("This round is still being played: it can be analysed once it is over."),
    "round_not_found": gettext_noop("There is no such round."),
    "analysis_rate_limited": gettext_noop("You have asked for enough analyses this hour: try again later."),
    "analysis_rate_limited+limit+minutes": gettext_noop(
        "You have asked for %(limit)s analyses in the last hour: try again in %(minutes)s min."
    ),
    "analysis_queue_full": gettext_noop("Many analyses are waiting: try again in a few minutes."),
    "replay_rate_limited": gettext_noop("Too many replays from your address: wait a moment."),
    "replay_rate_limited+seconds": gettext_noop(
        "Too many replays from your address: try again in %(seconds)s s."
    ),
    "replay_rate_limited+minutes": gettext_noop(
        "Too many replays from your address: try again in %(minutes)s min."
    ),
    "replay_busy": gettext_noop("Another replay is being prepared: wait a moment and try again."),
    "replay_too_long": gettext_noop("This round has too many moves to be replayed here."),
    "replay_too_long+limit": gettext_noop(
        "This round has more than %(limit)s moves: it is not replayed here."
    ),
}

#: Messages of the services translated word for word (their code's text is more general).
SERVICE_MESSAGES = [
    gettext_noop("the match has started: you can no longer leave your seat"),
]

# The wording itself (which text fits a code and its fields, cards as people read them) is pure
# Python in games/shared/messages.py, which practice also runs in the browser.
card_label = messages.card_label


def translated_message(code: str, fields: Mapping[str, Any] | None, language: str | None) -> str:
    """The message of error ``code`` in ``language`` ("pl", "ro", "en"; None: the active one).

    ``fields`` are the error's structured fields (an error frame itself will do: its ``message``
    is the English fallback for a code this module does not know; its ``rule`` is not put in the
    sentence: pages and the table show it beside it, as a tag).
    """
    fields = fields or {}
    message = str(fields.get("message") or "")
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    if message and language.split("-")[0] == "en":
        return message  # the server's own English, the most precise (it names the numbers)
    with translation.override(language):
        exact = translation.gettext(message) if message else ""
    if exact and exact != message:
        return exact  # a message of the site's services that the catalog knows word for word
    key = messages.template_key(code, fields, MESSAGES)
    if key is None:
        return message
    with translation.override(language):
        text = messages.fill(translation.gettext(MESSAGES[key]), fields)
        if text is None:  # a translation naming a field not given
            text = translation.gettext(MESSAGES[code]) if code in MESSAGES else message
    return text  # the rule id is shown apart, as a tag beside the sentence (docs/i18n.md)


def localize_error_frame(frame: Mapping[str, Any], language: str | None) -> dict[str, Any]:
    """An error frame with its ``message`` in ``language`` (code and fields unchanged)."""
    localized = dict(frame)
    localized["message"] = translated_message(str(frame.get("code", "")), frame, language) or frame.get(
        "message", ""
    )
    return localized


def language_for_scope(scope: Mapping[str, Any]) -> str:
    """The language of a WebSocket's user, like a page's (accounts.middleware): the logged-in
    user's stored preference, then the language cookie, then Accept-Language, then the default."""
    from accounts.middleware import offered, user_language

    language = user_language(scope.get("user"))
    if language:
        return language
    headers = {
        key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", [])
    }
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get("cookie", ""))
    except Exception:  # a malformed cookie header: ignore it
        cookie = SimpleCookie()
    morsel = cookie.get(settings.LANGUAGE_COOKIE_NAME)
    if morsel is not None and offered(morsel.value):
        return offered(morsel.value) or settings.LANGUAGE_CODE
    for accepted, _quality in trans_real.parse_accept_lang_header(headers.get("accept-language", "")):
        if offered(accepted):
            return offered(accepted) or settings.LANGUAGE_CODE
    return offered(settings.LANGUAGE_CODE) or "en"


__all__ = ["MESSAGES", "card_label", "language_for_scope", "localize_error_frame", "translated_message"]
