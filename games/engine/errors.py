"""Every error a player (or a caller) can cause, each with a stable ``code``.

The engine raises; it never returns a sentinel. A raised error means the state the caller holds is
unchanged (states are immutable). ``code`` values are part of the wire protocol: a test pins them,
and ``docs/protocol.md`` lists them. Messages are plain English for logs and name the rule
(``rule`` holds its id when there is one).

Every error leaves in one shape, :class:`CodedError`: the engine's ``IllegalMoveError`` family
here, and the site's application errors (``games.errors``) and unreadable messages
(``games.protocol``) built on it, so one ``to_dict()`` is what a socket frame or an HTTP answer
carries, fields (the points of a refused opening, a card) included.

>>> error = OpeningTooLowError("the opening is worth 29 points", rule="R51-31", points=29, needed=51)
>>> error.to_dict()  # doctest: +NORMALIZE_WHITESPACE
{'code': 'opening_too_low', 'message': 'the opening is worth 29 points (R51-31)', 'rule': 'R51-31',
 'points': 29, 'needed': 51}
"""

from __future__ import annotations

from typing import Any, ClassVar


class CodedError(Exception):
    """A refusal: a stable ``code``, a plain English ``message``, the ``rule`` id where a rule says
    so, and structured ``fields`` (JSON values) for a client to build its own text from."""

    code: ClassVar[str] = "error"

    def __init__(self, message: str = "", *, rule: str | None = None, **fields: Any) -> None:
        text = message or (self.__doc__ or self.code).strip().splitlines()[0]
        if rule:
            text = f"{text} ({rule})"
        super().__init__(text)
        self.message = text
        self.rule = rule
        self.fields = fields

    def to_dict(self) -> dict[str, Any]:
        """The JSON form sent to whoever caused it: code, message, rule (if any) and fields."""
        data: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.rule:
            data["rule"] = self.rule
        data.update({key: value for key, value in self.fields.items() if _is_plain(value)})
        return data


def _is_plain(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool, type(None))) or (
        isinstance(value, (list, tuple)) and all(isinstance(v, (str, int)) for v in value)
    )


class IllegalMoveError(CodedError):
    """The rules (or the move's form) do not allow this move in the current state."""

    code: ClassVar[str] = "illegal_move"


# --- malformed input -------------------------------------------------------------------------


class MalformedMoveError(IllegalMoveError, ValueError):
    """The move could not be read."""

    code = "malformed_move"


class MalformedCardError(MalformedMoveError):
    """Not a card in the notation."""

    code = "malformed_card"

    def __init__(self, text: str, why: str = "") -> None:
        super().__init__(f"{text!r} is not a card{': ' + why if why else ''}", card=text)


# --- turn order and phases -------------------------------------------------------------------


class GameOverError(IllegalMoveError):
    """The match is over: no more moves."""

    code = "game_over"


class NotYourTurnError(IllegalMoveError):
    """It is not this seat's turn."""

    code = "not_your_turn"


class WrongPhaseError(IllegalMoveError):
    """This kind of move is not allowed at this point of the turn."""

    code = "wrong_phase"


class FirstTurnError(IllegalMoveError):
    """Nothing may reach the table in a player's first turn."""

    code = "first_turn"


class CardNotInHandError(IllegalMoveError):
    """The card is not in the player's hand."""

    code = "card_not_in_hand"


class NotOpenedError(IllegalMoveError):
    """Only a player who has opened may do this."""

    code = "not_opened"


class MustKeepDiscardError(IllegalMoveError):
    """The last card must be discarded: a turn may not empty the hand by melding."""

    code = "must_keep_discard"


class CannotTakeDiscardError(IllegalMoveError):
    """The discard pile cannot be taken this way."""

    code = "cannot_take_discard"


class TakenCardNotMeldedError(IllegalMoveError):
    """The card taken from the discard pile must be used in a new meld laid in the same move."""

    code = "taken_card_not_melded"


class InvalidMeldError(IllegalMoveError):
    """Not a valid meld of this variant. Subclasses give the precise reason."""

    code = "invalid_meld"

    def __init__(self, cards: str, reason: str, *, rule: str | None = None) -> None:
        super().__init__(f"{cards} is not a valid meld: {reason}", rule=rule, cards=cards)
        self.cards = cards
        self.reason = reason


class TooFewCardsError(InvalidMeldError):
    code = "too_few_cards"


class SetTooLargeError(InvalidMeldError):
    code = "set_too_large"


class RepeatedSuitError(InvalidMeldError):
    code = "repeated_suit"


class NotAMeldError(InvalidMeldError):
    code = "not_a_meld"


class NotConsecutiveError(InvalidMeldError):
    code = "not_consecutive"


class WrapAroundError(InvalidMeldError):
    code = "wrap_around"


class AceBothEndsError(InvalidMeldError):
    code = "ace_both_ends"


class TooManyJokersError(InvalidMeldError):
    code = "too_many_jokers"


class AdjacentJokersError(InvalidMeldError):
    code = "adjacent_jokers"


class NoNaturalCardError(InvalidMeldError):
    code = "no_natural_card"


class JokerDeclarationError(InvalidMeldError):
    code = "joker_declaration"


class JokerUndeclaredError(InvalidMeldError):
    code = "joker_must_be_declared"


class NoJokersError(InvalidMeldError):
    """The variant is played without jokers (GIN-2, R500-2)."""

    code = "no_jokers"

    def __init__(
        self, cards: str, reason: str = "this game is played without jokers", *, rule: str | None = None
    ) -> None:
        IllegalMoveError.__init__(self, f"{cards}: {reason}", rule=rule, cards=cards)
        self.cards = cards
        self.reason = reason


class OpeningTooLowError(IllegalMoveError):
    """The first meld is worth less than the minimum."""

    code = "opening_too_low"


class OpeningNeedsRunError(IllegalMoveError):
    """The first meld must include a run (a pure run where the variant says so)."""

    code = "opening_needs_run"


class UnknownMeldError(IllegalMoveError):
    """There is no such meld on the table."""

    code = "unknown_meld"


class CannotLayOffError(IllegalMoveError):
    """The card does not fit that table meld."""

    code = "cannot_lay_off"


class JokerExchangeError(IllegalMoveError):
    """This joker exchange is not allowed."""

    code = "bad_joker_exchange"


class ExchangedJokerNotMeldedError(IllegalMoveError):
    """A joker taken from the table must go into a new meld laid in the same move."""

    code = "exchanged_joker_not_melded"


class AtuError(IllegalMoveError):
    """The atu can be taken only into a new formation in the going-out turn."""

    code = "atu_not_allowed"


# --- the knock family (gin, Oklahoma, Knock-108) -----------------------------------------------


class KnockTooHighError(IllegalMoveError):
    """Too many loose points to knock in this deal."""

    code = "knock_too_high"


class DiscardTakenCardError(IllegalMoveError):
    """The card just taken from the face-up pile cannot be discarded in the same turn."""

    code = "discard_taken_card"
