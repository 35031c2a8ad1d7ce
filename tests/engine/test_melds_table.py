"""Table-driven meld tests for Remik 51 and Remi: what is a meld, what it is worth, and why not.

Each case id starts with the rule it checks. Valid melds are read with ``read_meld`` (the reading a
lay-down uses) and valued with ``meld_points``; invalid melds must raise the exact error ``code``.
Every case whose cards exist in the variant's pack is also laid through ``apply_move`` by a seat
that has opened, so the table gives the same verdict as the helpers.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from games.engine import (
    GameState,
    IllegalMoveError,
    InvalidMeldError,
    Play,
    apply_move,
    parse_cards,
    position,
    state_to_json,
    variant,
    view_for,
)
from games.engine.melds import read_meld

RULES = {"remik51": variant("remik51"), "remi": variant("remi")}

# A ranked list of filler cards: the first one whose face is not in a case is kept back to discard.
FILLERS = ("2D", "3D", "4D", "6C")


@dataclass(frozen=True)
class Valid:
    variant: str
    cards: str
    kind: str
    points: int
    #: What each place stands for (jokers resolved), when it matters.
    reads_as: str | None = None


@dataclass(frozen=True)
class Invalid:
    variant: str
    cards: str
    code: str
    #: False when the variant's pack does not hold these cards (Remi has only two jokers).
    playable: bool = True


FULL_RUN_LOW = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
FULL_RUN_HIGH = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
ACE_BOTH_ENDS = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"

VALID = [
    # --- Remik 51 ---------------------------------------------------------------------------------
    pytest.param(Valid("remik51", "7H 8H 9H", "run", 24), id="R51-18 run 7H 8H 9H = 24 (EX2)"),
    pytest.param(Valid("remik51", "9S TS JS", "run", 29), id="R51-6 run 9S TS JS = 29 (EX1)"),
    pytest.param(Valid("remik51", "8H 8D 8C", "set", 24), id="R51-6 set of eights = 24 (EX1)"),
    pytest.param(Valid("remik51", "QS QH QC", "set", 30), id="R51-19 group QS QH QC = 30 (EX3)"),
    pytest.param(Valid("remik51", "QS QH QD QC", "set", 40), id="R51-19 group of four = 40"),
    pytest.param(Valid("remik51", "AS 2S 3S", "run", 6), id="R51-20 ace low counts 1 (EX6)"),
    pytest.param(Valid("remik51", "QS KS AS", "run", 31), id="R51-20 ace high counts 11 (EX7)"),
    pytest.param(Valid("remik51", "AS AH AD", "set", 33), id="R51-32 aces in a group 11 each"),
    pytest.param(Valid("remik51", FULL_RUN_LOW, "run", 85), id="R51-20 longest run A..K = 85"),
    pytest.param(Valid("remik51", FULL_RUN_HIGH, "run", 95), id="R51-20 longest run 2..A = 95"),
    pytest.param(Valid("remik51", "QS QH JK(QD)", "set", 30, "QS QH QD"), id="R51-22 group of 3, 1 joker"),
    pytest.param(
        Valid("remik51", "QS QH QD JK", "set", 40, "QS QH QD QC"),
        id="R51-22 group of 4, one suit missing: joker needs no declaration",
    ),
    pytest.param(
        Valid("remik51", "QS QH JK(QD) JK(QC)", "set", 40, "QS QH QD QC"),
        id="R51-22 group of 4, 2 jokers",
    ),
    pytest.param(
        Valid("remik51", "5H JK(6H) 7H JK(8H)", "run", 26, "5H 6H 7H 8H"),
        id="R51-23 run with two non-adjacent jokers (DX3)",
    ),
    pytest.param(Valid("remik51", "JK QS JK", "run", 30, "JS QS KS"), id="R51-Q5 JK QS JK is J-Q-K (DX3)"),
    pytest.param(Valid("remik51", "JK 5H JK", "run", 15, "4H 5H 6H"), id="R51-Q5 JK 5H JK is 4H-5H-6H"),
    pytest.param(Valid("remik51", "JK 2S 3S", "run", 6, "AS 2S 3S"), id="R51-32 joker as a low ace counts 1"),
    pytest.param(
        Valid("remik51", "QS KS JK", "run", 31, "QS KS AS"),
        id="R51-32 joker as a high ace counts 11",
    ),
    pytest.param(Valid("remik51", "5H JK(6H) 7H", "run", 18, "5H 6H 7H"), id="R51-6 joker counts its card"),
    # --- Remi -------------------------------------------------------------------------------------
    pytest.param(Valid("remi", "AS AH AD", "set", 75), id="RMI-11 set of aces = 75 (DX1)"),
    pytest.param(Valid("remi", "AH 2H 3H", "run", 15), id="RMI-11 ace low = 5 (DX1)"),
    pytest.param(Valid("remi", "QH KH AH", "run", 30), id="RMI-11 ace high = 10 (DX1)"),
    pytest.param(Valid("remi", "7S 8S 9S", "run", 15), id="RMI-10 pips 5 each (DX1)"),
    pytest.param(Valid("remi", "TS JS QS", "run", 30), id="RMI-10 T J Q 10 each (DX1)"),
    pytest.param(Valid("remi", "KS KH KD", "set", 30), id="RMI-20 set of three kings"),
    pytest.param(Valid("remi", "QS QH QD QC", "set", 40), id="RMI-20 set of four"),
    pytest.param(Valid("remi", FULL_RUN_LOW, "run", 85), id="RMI-21 run A..K = 85"),
    pytest.param(Valid("remi", FULL_RUN_HIGH, "run", 90), id="RMI-21 run 2..A = 90"),
    pytest.param(Valid("remi", "7H JK(8H) 9H", "run", 15, "7H 8H 9H"), id="RMI-12 joker as 8H = 5 (DX1)"),
    pytest.param(Valid("remi", "AS AH JK(AD)", "set", 75, "AS AH AD"), id="RMI-12 joker as an ace = 25"),
    pytest.param(
        Valid("remi", "7S 7H JK", "set", 15),
        id="RMI-Q10 set joker needs no declaration",
    ),
    pytest.param(
        Valid("remi", "KS KH JK", "set", 30, "KS KH KD"),
        id="RMI-12 undeclared set joker is worth a king",
    ),
    pytest.param(
        Valid("remi", "AS AH JK", "set", 75, "AS AH AD"),
        id="RMI-12 undeclared set joker is worth an ace (25)",
    ),
    pytest.param(
        Valid("remi", "7S 7H JK JK", "set", 20, "7S 7H 7D 7C"),
        id="RMI-Q12 a set may hold both jokers",
    ),
    pytest.param(
        Valid("remi", "5H JK JK 8H", "run", 20, "5H 6H 7H 8H"),
        id="RMI-Q12 adjacent jokers allowed in a run",
    ),
    pytest.param(Valid("remi", "JK 5H JK", "run", 15, "4H 5H 6H"), id="RMI-Q12 JK 5H JK is 4H-5H-6H"),
    pytest.param(Valid("remi", "QS KS JK", "run", 30, "QS KS AS"), id="RMI-12 joker as a high ace = 10"),
]

INVALID = [
    # --- Remik 51 ---------------------------------------------------------------------------------
    pytest.param(Invalid("remik51", "7H 8H", "too_few_cards"), id="R51-18 two cards"),
    pytest.param(Invalid("remik51", "QS QH QD QC JK", "set_too_large"), id="R51-19 group of five"),
    pytest.param(Invalid("remik51", "9H 9H 9S", "repeated_suit"), id="R51-19 repeated suit 9H 9H 9S (EX4)"),
    pytest.param(Invalid("remik51", "QS QH QH", "repeated_suit"), id="R51-19 repeated suit QS QH QH"),
    pytest.param(Invalid("remik51", "KS AS 2S", "wrap_around"), id="R51-20 K-A-2 (EX5)"),
    pytest.param(Invalid("remik51", "QS KS AS 2S", "wrap_around"), id="R51-20 Q-K-A-2"),
    pytest.param(Invalid("remik51", "JK AS 2S", "wrap_around"), id="R51-20 joker before a low ace"),
    pytest.param(Invalid("remik51", "QS KS AS JK", "wrap_around"), id="R51-20 joker after a high ace"),
    pytest.param(Invalid("remik51", ACE_BOTH_ENDS, "ace_both_ends"), id="R51-20 ace at both ends (DX1)"),
    pytest.param(Invalid("remik51", "7H 9H 8H", "not_consecutive"), id="R51-18 run out of order"),
    pytest.param(Invalid("remik51", "AS KS QS", "not_consecutive"), id="R51-18 run written high to low"),
    pytest.param(Invalid("remik51", "5H 6D 7H", "not_a_meld"), id="R51-18 mixed suits"),
    pytest.param(
        Invalid("remik51", "QS JK(QD) JK(QC)", "too_many_jokers"),
        id="R51-22 group of three with two jokers",
    ),
    pytest.param(
        Invalid("remik51", "7S JK(7H) JK(7D) JK(7C)", "too_many_jokers"),
        id="R51-22 group of four with three jokers",
    ),
    pytest.param(Invalid("remik51", "5H JK JK 8H", "adjacent_jokers"), id="R51-23 adjacent jokers (DX3)"),
    pytest.param(Invalid("remik51", "JK JK 5H", "adjacent_jokers"), id="R51-23 adjacent jokers at the start"),
    pytest.param(Invalid("remik51", "JK JK JK", "no_natural_card"), id="R51-21 jokers only"),
    pytest.param(
        Invalid("remik51", "7H JK(9H) 9H", "joker_declaration"),
        id="R51-21 run joker declared as the wrong card",
    ),
    pytest.param(
        Invalid("remik51", "QS QH JK(QS)", "joker_declaration"),
        id="R51-22 group joker declared as a suit already present",
    ),
    pytest.param(
        Invalid("remik51", "QS QH JK(KD)", "joker_declaration"),
        id="R51-22 group joker declared as another rank",
    ),
    pytest.param(
        Invalid("remik51", "QS QH JK", "joker_must_be_declared"),
        id="R51-Q4 group joker with two suits missing must be declared",
    ),
    # --- Remi -------------------------------------------------------------------------------------
    pytest.param(Invalid("remi", "7H 8H", "too_few_cards"), id="RMI-21 two pieces"),
    pytest.param(Invalid("remi", "QS QH QD QC JK", "set_too_large"), id="RMI-20 set of five"),
    pytest.param(Invalid("remi", "9H 9H 9S", "repeated_suit"), id="RMI-20 repeated suit"),
    pytest.param(Invalid("remi", "KS AS 2S", "wrap_around"), id="RMI-Q13 K-A-2"),
    pytest.param(Invalid("remi", ACE_BOTH_ENDS, "ace_both_ends"), id="RMI-Q13 ace at both ends"),
    pytest.param(Invalid("remi", "7H 9H 8H", "not_consecutive"), id="RMI-21 run out of order"),
    pytest.param(Invalid("remi", "5H 6D 7H", "not_a_meld"), id="RMI-21 mixed suits"),
    pytest.param(Invalid("remi", "JK JK JK", "no_natural_card", playable=False), id="RMI-22 jokers only"),
    pytest.param(
        Invalid("remi", "7H JK(9H) 9H", "joker_declaration"),
        id="RMI-Q12 run joker declared as the wrong piece",
    ),
    pytest.param(
        Invalid("remi", "QS QH JK(QS)", "joker_declaration"),
        id="RMI-Q12 set joker declared as a suit already present",
    ),
]


def _filler(cards: str) -> str:
    faces = {c.face for c in parse_cards(cards)}
    return next(f for f in FILLERS if f not in faces)


def _table(variant_name: str, cards: str) -> GameState:
    """A seat that has opened, holding ``cards`` plus one card to discard, about to lay them."""
    rules = RULES[variant_name]
    kwargs = {"atu": "KC"} if rules.has_atu else {}
    return position(
        rules,
        hands=[f"{cards} {_filler(cards)}", "5C"],
        opened=[True, False],
        turn=0,
        phase="play",
        rest="drop",
        **kwargs,
    )


@pytest.mark.parametrize("case", VALID)
def test_valid_meld_reads_and_scores(case: Valid) -> None:
    rules = RULES[case.variant]
    meld = read_meld(parse_cards(case.cards), rules.policy)
    assert meld.kind == case.kind
    assert rules.meld_value(meld) == case.points
    assert rules.meld_points(case.cards) == case.points
    assert all(c.stands_for is not None for c in meld.cards if c.is_joker)
    if case.reads_as is not None:
        assert " ".join(c.face for c in meld.represented) == case.reads_as


@pytest.mark.parametrize("case", VALID)
def test_valid_meld_is_laid_on_the_table(case: Valid) -> None:
    state = _table(case.variant, case.cards)
    new = apply_move(state, 0, Play(melds=(parse_cards(case.cards),))).state
    (laid,) = view_for(new, 1)["melds"]
    assert (laid["kind"], laid["points"]) == (case.kind, case.points)
    assert [c.face for c in new.hands[0]] == [_filler(case.cards)]


@pytest.mark.parametrize("case", INVALID)
def test_invalid_meld_is_refused_with_its_code(case: Invalid) -> None:
    rules = RULES[case.variant]
    with pytest.raises(InvalidMeldError) as info:
        read_meld(parse_cards(case.cards), rules.policy)
    assert info.value.code == case.code


PLAYABLE = [p for p in INVALID if p.values[0].playable]  # type: ignore[union-attr]


@pytest.mark.parametrize("case", PLAYABLE)
def test_invalid_meld_is_refused_on_the_table_and_nothing_changes(case: Invalid) -> None:
    state = _table(case.variant, case.cards)
    before = state_to_json(state)
    with pytest.raises(IllegalMoveError) as info:
        apply_move(state, 0, Play(melds=(parse_cards(case.cards),)))
    assert info.value.code == case.code
    assert state_to_json(state) == before
    assert state.melds == ()
