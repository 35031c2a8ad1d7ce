"""Stored and wire constants never change by accident (renaming one is a protocol change)."""

import inspect

from games.engine import errors, moves, variant_names


def _codes() -> dict[str, str]:
    return {
        name: cls.code
        for name, cls in inspect.getmembers(errors, inspect.isclass)
        if issubclass(cls, errors.CodedError)
    }


def test_error_codes_are_pinned() -> None:
    assert _codes() == {
        "AceBothEndsError": "ace_both_ends",
        "AdjacentJokersError": "adjacent_jokers",
        "AtuError": "atu_not_allowed",
        "CannotLayOffError": "cannot_lay_off",
        "CannotTakeDiscardError": "cannot_take_discard",
        "CardNotInHandError": "card_not_in_hand",
        "CodedError": "error",
        "DiscardTakenCardError": "discard_taken_card",
        "ExchangedJokerNotMeldedError": "exchanged_joker_not_melded",
        "FirstTurnError": "first_turn",
        "GameOverError": "game_over",
        "IllegalMoveError": "illegal_move",
        "InvalidMeldError": "invalid_meld",
        "JokerDeclarationError": "joker_declaration",
        "JokerExchangeError": "bad_joker_exchange",
        "JokerUndeclaredError": "joker_must_be_declared",
        "KnockTooHighError": "knock_too_high",
        "MalformedCardError": "malformed_card",
        "MalformedMoveError": "malformed_move",
        "MustKeepDiscardError": "must_keep_discard",
        "NoJokersError": "no_jokers",
        "NoNaturalCardError": "no_natural_card",
        "NotAMeldError": "not_a_meld",
        "NotConsecutiveError": "not_consecutive",
        "NotOpenedError": "not_opened",
        "NotYourTurnError": "not_your_turn",
        "OpeningNeedsRunError": "opening_needs_run",
        "OpeningTooLowError": "opening_too_low",
        "RepeatedSuitError": "repeated_suit",
        "SetTooLargeError": "set_too_large",
        "TakenCardNotMeldedError": "taken_card_not_melded",
        "TooFewCardsError": "too_few_cards",
        "TooManyJokersError": "too_many_jokers",
        "UnknownMeldError": "unknown_meld",
        "WrapAroundError": "wrap_around",
        "WrongPhaseError": "wrong_phase",
    }


def test_error_codes_are_unique() -> None:
    codes = list(_codes().values())
    assert len(codes) == len(set(codes))


def test_move_kinds_are_pinned() -> None:
    assert moves.KINDS == ("draw", "take", "play", "discard", "pass", "knock")


def test_variant_names_are_pinned() -> None:
    # The seven rule sets of the seeds.
    assert variant_names() == ["gin", "knock108", "oklahoma", "remi", "remik40", "remik51", "rummy500"]
