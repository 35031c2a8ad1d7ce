"""Rules of play for Remik 51 and Remi: the hard parts, each case named after its rule.

Most cases are rows of one table (``CASES``, see ``rule_cases.py``): a position built with
``position(...)``, the moves played from it, the move under test, and what it must give: the
refusal's error code (with its fields and rule id), or facts of the new state. A refused move must
leave the state it was tried on unchanged and still playable. The rule id leads each case's test id
(``test_rule_case[R51-31 an opening below 51 is too low]``). What is not one move from a position
(the deal, the table options, whole rounds of draws and discards, closing a room) has tests of its
own below the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import (
    Discard,
    DrawStock,
    GameState,
    IllegalMoveError,
    Play,
    TakeDiscard,
    apply_move,
    end_match,
    legal_moves,
    new_game,
    position,
    variant,
    view_for,
)
from tests.engine.helpers import discard, play, refused, take
from tests.engine.rule_cases import Case, at, check

R51 = variant("remik51")
REMI = variant("remi")  # Remi 45
CLASSIC = variant("remi", opening="classic")


# =================================================================================================
# The table: a position, a move, what it must give
# =================================================================================================

OPENER = "9S TS JS 8H 8D 8C"  # R51-EX1: 29 + 24 = 53 with a pure run

_R51_Q4 = at(
    R51,
    hands=["QD QC 9S 9H 2C", "KC"],
    melds=[(1, "QS QH JK(QD)")],
    opened=[True, True],
    turn=0,
    phase="play",
    rest="drop",
)
_R51_39 = at(
    R51,
    hands=["3D 7D QC QD 2S 5H 9C", "KC"],
    melds=[(1, "4D 5D 6D"), (1, "QS QH QD"), (1, "QS KS AS"), (1, "5S 5D 5C 5H")],
    opened=[True, True],
    turn=0,
    phase="play",
    rest="drop",
)
_R51_EXCHANGE = at(
    R51,
    hands=["5D 9S 9H 2C 3C", "KC"],
    melds=[(1, "4D JK(5D) 6D")],
    opened=[True, True],
    turn=0,
    phase="play",
    rest="drop",
)
_R51_36 = dict(
    hands=["KS KH 7C 2C", "4C 5C"], melds=[(1, "4D 5D 6D")], opened=[True, True], turn=0, rest="drop"
)
_R51_LIMIT = variant("remik51", penalty_limit=300)
_R51_EXTRA = variant("remik51", lowestTie="extraRound")
_RMI_35 = at(
    REMI,
    hands=["2H 6H 7C 9C 3S", "5C"],
    melds=[(1, "3H 4H 5H"), (1, "7S 7H 7D"), (1, "9S 9H 9D 9C")],
    opened=[True, True],
    atu="QC",
    turn=0,
    phase="play",
    rest="drop",
)
_RMI_SET_JOKER = at(
    REMI,
    hands=["7D 7C 7D 2C", "5C"],
    melds=[(1, "7S 7H JK(7D)")],
    opened=[True, True],
    atu="QC",
    turn=0,
    phase="play",
    rest="drop",
)
_RMI_37 = at(
    REMI,
    hands=["JK 2C 3C", "5C"],
    melds=[(1, "7H 8H 9H"), (1, "QS QH QD")],
    opened=[True, True],
    atu="KC",
    turn=0,
    phase="play",
    rest="drop",
)
_RMI_Q17 = at(REMI, hands=["3H 4H 5H KS KH 5D", "4C"], atu="KD", turn=0, phase="play", rest="drop")
_RMI_TARGET = variant("remi", target=300)


def _tied_limit(tie: str) -> Callable[[], GameState]:
    """Seat 0 goes out; seat 1 catches up to 100; seat 2 passes 500: the lowest total is shared."""
    return at(
        variant("remik51", lowest_tie=tie),
        hands=["5D", "5H 5C", "KS"],
        melds=[(0, "2S 3S 4S")],
        turn=0,
        first=2,
        phase="play",
        totals=[100, 90, 495],
    )


def _extra_round(third: str) -> Callable[[], GameState]:
    return at(
        _R51_EXTRA,
        hands=["5D", third, "KS"],
        melds=[(2, "2S 3S 4S")],
        opened=[False, False, True],
        turn=2,
        first=0,
        phase="play",
        totals=[100, 100, 505],
        round_no=2,
    )


def _going_out(
    hand: str, melds: tuple[tuple[int, str], ...] = (), atu: str = "QC"
) -> Callable[[], GameState]:
    """Remi: seat 0 has opened with KS KH KD and holds ``hand``."""
    return at(
        REMI, hands=[hand, "4C"], melds=[(0, "KS KH KD"), *melds], atu=atu, turn=0, phase="play", rest="drop"
    )


def _remi_opening(opening: str, melds: list[str], code: str | None, rule: str, what: str) -> Case:
    """RMI-24/25: an opening of ``melds`` (and a 2C to discard) at the ``opening`` threshold."""
    start = at(
        variant("remi", opening=opening),
        hands=[" ".join(melds) + " 2C", "5S"],
        atu="8D",
        turn=0,
        phase="play",
        rest="drop",
    )
    expect: dict[str, Any] = {} if code else {"opened": (True, False), "hand": {0: ["2C"]}}
    return Case(rule, f"{opening}: {what}", start, play(*melds), code=code, expect=expect)


CASES: list[Case] = [
    # --- Remik 51 ---------------------------------------------------------------------------------
    Case(
        "R51-14",
        "the deal passes to the left after each round",
        at(R51, hands=["5D", "KS", "2C 3C"], melds=[(0, "2S 3S 4S")], turn=0, first=2, phase="play"),
        discard("5D"),
        expect={
            "state": {"round_no": 2, "first": 0, "turn": 0, "phase": "play"},
            "hand_sizes": [14, 13, 13],
            "result": {"first": 2},
        },
    ),
    Case(
        "R51-14",
        "round 3 is dealt by the next seat",
        at(R51, hands=["5D", "KS", "2C 3C"], melds=[(0, "2S 3S 4S")], turn=0, first=0, phase="play"),
        discard("5D"),
        expect={"state": {"first": 1, "turn": 1}, "hand_sizes": [13, 14, 13]},
    ),
    Case(
        "R51-31",
        "an opening below 51 is too low",
        at(R51, hands=["9S TS JS 7H 7D 7C 2C", "5D"], turn=0, phase="play"),
        play("9S TS JS", "7H 7D 7C"),
        code="opening_too_low",
        expect={"points": 50, "needed": 51},
        given={"opened": (False, False)},
    ),
    Case(
        "R51-30",
        "part of a first meld alone is no opening",
        at(R51, hands=["9S TS JS 7H 7D 7C 2C", "5D"], turn=0, phase="play"),
        play("9S TS JS"),
        code="opening_too_low",
    ),
    Case(
        "R51-31",
        "an opening whose runs all hold jokers needs a pure run",
        at(R51, hands=["9S JK JS 8H 8D 8C KS KH KD 2C", "5D"], turn=0, phase="play", rest="drop"),
        play("9S JK(TS) JS", "8H 8D 8C", "KS KH KD"),
        code="opening_needs_run",
    ),
    Case(
        "R51-31",
        "an opening of sets alone needs a run",
        at(R51, hands=["9S JK JS 8H 8D 8C KS KH KD 2C", "5D"], turn=0, phase="play", rest="drop"),
        play("8H 8D 8C", "KS KH KD"),
        code="opening_needs_run",
    ),
    Case(
        "R51-31",
        "an opening of exactly 51 with a pure run opens",
        at(R51, hands=["2C 3C 4C 5C 6C 7C 8H 8D 8C KD", "5D"], turn=0, phase="play"),
        play("2C 3C 4C 5C 6C 7C", "8H 8D 8C"),
        expect={"opened": (True, False), "event_points": ("opened", 51)},
    ),
    Case(
        "R51-33",
        "lay-offs in the opening turn do not count toward 51",
        at(
            R51,
            hands=["9S TS JS 5H 5D 5C 7D 8D 2C", "KC"],
            melds=[(1, "4D 5D 6D")],
            turn=0,
            phase="play",
            rest="drop",
        ),
        play("9S TS JS", "5H 5D 5C", layoffs=[(1, "7D 8D")]),
        code="opening_too_low",
        expect={"points": 44},
    ),
    Case(
        "R51-33",
        "once 51 is laid, lay-offs in the same turn are allowed",
        at(R51, hands=[f"{OPENER} 7D 2C", "KC"], melds=[(1, "4D 5D 6D")], turn=0, phase="play", rest="drop"),
        play("9S TS JS", "8H 8D 8C", layoffs=[(1, "7D")]),
        expect={"table": {1: "4D 5D 6D 7D"}, "placed_by": {1: (1, 1, 1, 0)}, "hand": {0: ["2C"]}},
    ),
    Case(
        "R51-41",
        "no lay-off before opening",
        at(R51, hands=["7D 2C 3C", "KC"], melds=[(1, "4D 5D 6D")], turn=0, phase="play", rest="drop"),
        play(layoffs=[(1, "7D")]),
        code="not_opened",
        given={"opened": (False, True)},
    ),
    Case(
        "R51-41",
        "a lay-off once opened",
        at(
            R51,
            hands=["7D 2C 3C", "KC"],
            melds=[(1, "4D 5D 6D")],
            opened=[True, True],
            turn=0,
            phase="play",
            rest="drop",
        ),
        play(layoffs=[(1, "7D")]),
        expect={"table": {1: "4D 5D 6D 7D"}},
    ),
    Case(
        "R51-27",
        "R51-28: a joker exchanged into a new meld before opening is not_opened, not an opening",
        at(R51, hands=["5D 9S 9H 2C", "KC"], melds=[(1, "4D JK(5D) 6D")], turn=0, phase="play", rest="drop"),
        play("9S 9H JK(9D)", exchanges=[(1, "5D")]),
        code="not_opened",
        expect={"rule": "R51-41"},
        given={"opened": (False, True)},
    ),
    Case(
        "R51-27",
        "an exchange alone before opening",
        at(R51, hands=["5D 9S 9H 2C", "KC"], melds=[(1, "4D JK(5D) 6D")], turn=0, phase="play", rest="drop"),
        play(exchanges=[(1, "5D")]),
        code="not_opened",
    ),
    Case(
        "R51-27",
        "an exchange with a lay-off beside the joker's meld before opening",
        at(R51, hands=["5D 9S 9H 2C", "KC"], melds=[(1, "4D JK(5D) 6D")], turn=0, phase="play", rest="drop"),
        play("9S 9H JK(9D)", exchanges=[(1, "5D")], layoffs=[(1, "2C")]),
        code="not_opened",
    ),
    Case(
        "R51-27",
        "the exchanged joker must go into a new meld in the same move",
        _R51_EXCHANGE,
        play(exchanges=[(1, "5D")]),
        code="exchanged_joker_not_melded",
    ),
    Case(
        "R51-27",
        "a new meld without the exchanged joker does not do",
        at(
            R51,
            hands=["5D 9S 9H 9D 2C", "KC"],
            melds=[(1, "4D JK(5D) 6D")],
            opened=[True, True],
            turn=0,
            phase="play",
            rest="drop",
        ),
        play("9S 9H 9D", exchanges=[(1, "5D")]),
        code="exchanged_joker_not_melded",
    ),
    Case(
        "R51-27",
        "the exchanged joker in a new meld",
        _R51_EXCHANGE,
        play("9S 9H JK(9D)", exchanges=[(1, "5D")]),
        expect={
            "table": {1: "4D 5D 6D", 2: "9S 9H JK(9D)"},
            "placed_by": {1: (1, 0, 1)},
            "hand": {0: ["2C", "3C"]},
        },
    ),
    Case(
        "R51-28",
        "the exchanged joker's meld does not count toward 51",
        at(
            R51,
            hands=["9S TS JS 5H 5D 5C 7D 9C 9H 2C", "KC"],
            melds=[(1, "6D JK(7D) 8D")],
            turn=0,
            phase="play",
            rest="drop",
        ),
        play("9S TS JS", "5H 5D 5C", "9C 9H JK(9D)", exchanges=[(1, "7D")]),
        code="opening_too_low",
        expect={"points": 44},
    ),
    Case(
        "R51-28",
        "an exchange in the opening turn",
        at(
            R51,
            hands=[f"{OPENER} 7D 9C 9H 2C", "KC"],
            melds=[(1, "6D JK(7D) 8D")],
            turn=0,
            phase="play",
            rest="drop",
        ),
        play("9S TS JS", "8H 8D 8C", "9C 9H JK(9D)", exchanges=[(1, "7D")]),
        expect={"opened": (True, True), "table": {1: "6D 7D 8D"}, "hand": {0: ["2C"]}},
    ),
    Case(
        "R51-Q14",
        "several jokers exchanged in one turn, one from the player's own meld",
        at(
            R51,
            hands=["5D 8S KH KD 2C", "QC"],
            melds=[(1, "4D JK(5D) 6D"), (0, "7S JK(8S) 9S")],
            turn=0,
            phase="play",
            rest="drop",
        ),
        play("KH KD JK(KS) JK(KC)", exchanges=[(1, "5D"), (2, "8S")]),
        expect={"table": {1: "4D 5D 6D", 2: "7S 8S 9S", 3: "KH KD JK(KS) JK(KC)"}, "hand": {0: ["2C"]}},
    ),
    Case(
        "R51-Q4",
        "the card a group's joker stands for cannot be laid off",
        _R51_Q4,
        play(layoffs=[(1, "QD")]),
        code="cannot_lay_off",
        expect={"rule": "R51-Q4"},
    ),
    Case(
        "R51-Q4",
        "the other missing suit makes a group of four",
        _R51_Q4,
        play(layoffs=[(1, "QC")]),
        expect={"table": {1: "QS QH JK(QD) QC"}},
    ),
    Case(
        "R51-Q4",
        "(a) only the declared card exchanges the joker",
        _R51_Q4,
        play("9S 9H JK(9D)", exchanges=[(1, "QC")]),
        code="bad_joker_exchange",
    ),
    Case(
        "R51-Q4",
        "(a) the declared card exchanges it",
        _R51_Q4,
        play("9S 9H JK(9D)", exchanges=[(1, "QD")]),
        expect={"table": {1: "QS QH QD"}},
    ),
    Case(
        "R51-Q6",
        "a declared joker may be laid off",
        at(
            R51,
            hands=["JK 2C 3C", "KC"],
            melds=[(1, "4D 5D 6D")],
            opened=[True, True],
            turn=0,
            phase="play",
            rest="drop",
        ),
        play(layoffs=[(1, "JK(7D)")]),
        expect={"table": {1: "4D 5D 6D JK(7D)"}, "view": {(1, "melds", 0, "points"): 22}},
    ),
    Case(
        "R51-39",
        "R51-40: lay-offs extend runs at either end and groups to four",
        _R51_39,
        play(layoffs=[(1, "3D 7D"), (2, "QC")]),
        expect={"table": {1: "3D 4D 5D 6D 7D", 2: "QS QH QD QC"}},
    ),
    Case("R51-40", "no run through the ace", _R51_39, play(layoffs=[(3, "2S")]), code="cannot_lay_off"),
    Case("R51-40", "no repeated suit in a group", _R51_39, play(layoffs=[(2, "QD")]), code="cannot_lay_off"),
    Case("R51-40", "no fifth card in a group", _R51_39, play(layoffs=[(4, "5H")]), code="cannot_lay_off"),
    Case("R51-40", "a card that extends nothing", _R51_39, play(layoffs=[(1, "9C")]), code="cannot_lay_off"),
    Case(
        "R51-40",
        "one bad lay-off refuses the good one with it",
        _R51_39,
        play(layoffs=[(1, "7D"), (3, "2S")]),
        code="cannot_lay_off",
    ),
    Case(
        "R51-Q6",
        "R51-23: a joker laid off may not end up next to another joker",
        at(
            R51,
            hands=["JK 2C 3C", "KC"],
            melds=[(1, "JK(4D) 5D 6D")],
            opened=[True, True],
            turn=0,
            phase="play",
            rest="drop",
        ),
        play(layoffs=[(1, "JK(3D)")]),
        code="cannot_lay_off",
    ),
    Case(
        "R51-Q6",
        "R51-23: a joker laid off at the other end",
        at(
            R51,
            hands=["JK 2C 3C", "KC"],
            melds=[(1, "JK(4D) 5D 6D")],
            opened=[True, True],
            turn=0,
            phase="play",
            rest="drop",
        ),
        play(layoffs=[(1, "JK(7D)")]),
        expect={"table": {1: "JK(4D) 5D 6D JK(7D)"}},
    ),
    Case(
        "R51-37",
        "the top discard before opening only when going out that turn",
        at(
            R51,
            hands=[f"{OPENER} KS KH 2C 3D", "4C 5C"],
            discard="7H KC",
            stock="6S",
            turn=0,
            first=1,
            rest="drop",
        ),
        take(None, "9S TS JS", "8H 8D 8C", "KS KH KC"),
        code="cannot_take_discard",
    ),
    Case(
        "R51-37",
        "the top discard taken by a player going out",
        at(R51, hands=[f"{OPENER} KS KH 2C", "4C 5C"], discard="7H KC", turn=0, first=1, rest="drop"),
        take(None, "9S TS JS", "8H 8D 8C", "KS KH KC"),
        expect={"discard": ["7H"], "hand": {0: ["2C"]}},
    ),
    Case(
        "R51-37",
        "R51-45: going out after taking the top discard, in one go",
        at(R51, hands=[f"{OPENER} KS KH 2C", "4C 5C"], discard="7H KC", turn=0, first=1, rest="drop"),
        discard("2C"),
        before=[(0, take(None, "9S TS JS", "8H 8D 8C", "KS KH KC"))],
        expect={"result": {"winner": 0}, "lines": {1: {"multiplier": 2, "points": 18}}},
    ),
    Case(
        "R51-Q7",
        "before opening the taken discard must be in a new meld, not the card to discard",
        at(R51, hands=[f"{OPENER} 2C", "4C 5C"], discard="7H KC", turn=0, first=1, rest="drop"),
        take(None, "9S TS JS", "8H 8D 8C"),
        code="taken_card_not_melded",
    ),
    Case(
        "R51-Q7",
        "a take with nothing laid",
        at(R51, hands=[f"{OPENER} 2C", "4C 5C"], discard="7H KC", turn=0, first=1, rest="drop"),
        take(None),
        code="taken_card_not_melded",
    ),
    Case(
        "R51-36",
        "R51-Q8: a lay-off of the taken discard does not do",
        at(R51, **_R51_36, discard="3H 7D"),
        take(None, layoffs=[(1, "7D")]),
        code="taken_card_not_melded",
    ),
    Case(
        "R51-36",
        "a take with nothing laid after opening",
        at(R51, **_R51_36, discard="3H 7D"),
        take(None),
        code="taken_card_not_melded",
    ),
    Case(
        "R51-36",
        "the taken discard in a new meld",
        at(R51, **_R51_36, discard="3H KC"),
        take(None, "KS KH KC"),
        expect={
            "discard": ["3H"],
            "table": {2: "KS KH KC"},
            "hand": {0: ["2C", "7C"]},
            "state": {"phase": "play"},
        },
    ),
    Case(
        "R51-35",
        "only the top discard may be taken",
        at(R51, hands=["KS KH 2C", "4C 5C"], opened=[True, True], discard="KC 7D", turn=0, rest="drop"),
        take("KC", "KS KH KC"),
        code="cannot_take_discard",
        expect={
            "rule": "R51-35",
            "view": {(0, "you", "takeable"): ["7D#1"], (0, "you", "moves"): ["draw", "take"]},
        },
    ),
    Case(
        "R51-43",
        "the last card must be discarded",
        at(R51, hands=["KS KH KC", "4C 5C"], opened=[True, True], turn=0, phase="play", rest="drop"),
        play("KS KH KC"),
        code="must_keep_discard",
    ),
    Case(
        "R51-43",
        "also in a one-go lay-down of all 14 cards",
        at(R51, hands=[f"{OPENER} 2C 3C 4C 5C KS KH KD", "4C"], turn=0, phase="play", rest="drop"),
        play("9S TS JS", "8H 8D 8C", "2C 3C 4C 5C", "KS KH KD"),
        code="must_keep_discard",
    ),
    Case(
        "R51-Q9",
        "with an empty stock the top discard may still be taken",
        at(
            R51,
            hands=["KS KH 2C", "4C 5C"],
            opened=[True, True],
            discard="9S 9H 9D KC",
            stock="",
            turn=0,
            rest="drop",
        ),
        take(None, "KS KH KC"),
        expect={"discard": ["9S", "9H", "9D"], "state": {"stock": ()}, "cycle": {"reshuffles": 0}},
    ),
    Case(
        "R51-Q9",
        "a degenerate void round scores nothing and the deal passes",
        at(
            R51,
            hands=["2C 3C AD", "4C 5C JK"],
            discard="KC",
            stock="",
            turn=1,
            first=0,
            totals=[10, 20],
            rest="drop",
        ),
        DrawStock(),
        seat=1,
        expect={
            "result": {"ended": "void", "winner": None},
            "points": [0, 0],
            "state": {"totals": (10, 20), "round_no": 2, "first": 1, "turn": 1, "phase": "play"},
            "hand_sizes": [13, 14],
        },
    ),
    Case(
        "R51-45",
        "going out in one go doubles every other player",
        at(
            R51,
            hands=["JK 7C", f"{OPENER} 2C 3C 4C 5C KS KH KD", "AD 9H"],
            stock="6D",
            turn=1,
            first=0,
            rest="drop",
        ),
        discard("6D"),
        seat=1,
        before=[(1, DrawStock()), (1, play("9S TS JS", "8H 8D 8C", "2C 3C 4C 5C", "KS KH KD"))],
        expect={
            "result": {"winner": 1},
            "lines": {
                0: {"hand": 37, "multiplier": 2, "points": 74},
                1: {"hand": 0, "multiplier": 1, "points": 0},
                2: {"hand": 20, "multiplier": 2, "points": 40},
            },
            "state": {"totals": (74, 0, 40)},
        },
    ),
    Case(
        "R51-45",
        "a player who laid melds in an earlier turn does not double",
        at(
            R51,
            hands=["JK 7C", "KS KH KD", "AD 9H"],
            melds=[(1, "9S TS JS")],
            stock="6D",
            turn=1,
            first=0,
            rest="drop",
        ),
        discard("6D"),
        seat=1,
        before=[(1, DrawStock()), (1, play("KS KH KD"))],
        expect={
            "lines": {
                0: {"multiplier": 1, "points": 37},
                1: {"multiplier": 1, "points": 0},
                2: {"multiplier": 1, "points": 20},
            }
        },
    ),
    Case(
        "R51-44",
        "the dealer may go out in one go in the first turn",
        at(
            R51,
            hands=[f"{OPENER} 2C 3C 4C 5C KS KH KD 6D", "JK AD 7C"],
            turn=0,
            first=0,
            phase="play",
            rest="drop",
        ),
        discard("6D"),
        before=[(0, play("9S TS JS", "8H 8D 8C", "2C 3C 4C 5C", "KS KH KD"))],
        expect={"points": [0, 96]},
    ),
    Case(
        "R51-51",
        "Q10: 300 is not over a limit of 300",
        at(
            _R51_LIMIT,
            hands=["5D", "KS", "2C"],
            melds=[(0, "2S 3S 4S")],
            turn=0,
            phase="play",
            totals=[250, 290, 120],
        ),
        discard("5D"),
        expect={"state": {"totals": (250, 300, 122), "phase": "play"}},
    ),
    Case(
        "R51-51",
        "Q10: the match ends strictly over the limit and the lowest wins",
        at(
            _R51_LIMIT,
            hands=["5D", "KS 2H", "2C"],
            melds=[(0, "2S 3S 4S")],
            turn=0,
            phase="play",
            totals=[250, 290, 120],
        ),
        discard("5D"),
        expect={
            "state": {"totals": (250, 302, 122), "phase": "over", "winners": (2,)},
            "view": {(None, "winners"): [2]},
            "refuses": [(0, DrawStock(), "game_over")],
        },
    ),
    Case(
        "R51-52",
        "a shared lowest total wins together by default",
        _tied_limit("shared"),
        discard("5D"),
        expect={"state": {"totals": (100, 100, 505), "phase": "over", "winners": (0, 1)}},
    ),
    Case(
        "R51-Q11",
        "an extra round is played while the lowest total is tied",
        _tied_limit("extra_round"),
        discard("5D"),
        expect={"state": {"totals": (100, 100, 505), "phase": "play", "round_no": 2, "winners": ()}},
    ),
    Case(
        "R51-Q11",
        "the tie persists: yet another round",
        _extra_round("5H"),
        discard("KS"),
        seat=2,
        expect={"state": {"totals": (105, 105, 505), "phase": "play", "round_no": 3}},
    ),
    Case(
        "R51-Q11",
        "the tie is broken: the single lowest total wins",
        _extra_round("7H"),
        discard("KS"),
        seat=2,
        expect={"state": {"totals": (105, 107, 505), "phase": "over", "winners": (0,)}},
    ),
    Case(
        "R51-46",
        "cards left in hand count even when they form a meld",
        at(R51, hands=["5D", "KS KH KD AS"], melds=[(0, "2S 3S 4S")], turn=0, phase="play"),
        discard("5D"),
        expect={"points": [0, 41]},
    ),
    # --- Remi -------------------------------------------------------------------------------------
    Case(
        "RMI-26",
        "no opening in the first turn, even with a valid one in hand",
        at(
            REMI,
            hands=["2C 3C", "3H 4H 5H KS KH KD 9C"],
            atu="8D",
            turn=1,
            first=0,
            phase="play",
            turns_started=[2, 1],
            rest="drop",
        ),
        play("3H 4H 5H", "KS KH KD"),
        seat=1,
        code="first_turn",
    ),
    Case(
        "RMI-26",
        "the opening in the second turn",
        at(
            REMI,
            hands=["2C 3C", "3H 4H 5H KS KH KD 9C"],
            atu="8D",
            turn=1,
            first=0,
            phase="play",
            turns_started=[2, 2],
            rest="drop",
        ),
        play("3H 4H 5H", "KS KH KD"),
        seat=1,
        expect={"opened": (False, True)},
    ),
    _remi_opening("classic", ["3H 4H 5H"], None, "RMI-25", "a lone run opens"),
    _remi_opening("classic", ["KS KH KD"], "opening_needs_run", "RMI-25", "needs a run"),
    _remi_opening("classic", ["3H JK(4H) 5H"], None, "RMI-Q5", "a joker run counts"),
    _remi_opening("45", ["3H 4H 5H", "KS KH KD"], None, "RMI-24", "exactly 45"),
    _remi_opening("45", ["3H JK(4H) 5H", "KS KH KD"], None, "RMI-Q5", "a joker run worth 45 opens"),
    _remi_opening("45", ["2H 3H 4H", "9S 9H 9D"], "opening_too_low", "RMI-24", "30 is too low"),
    _remi_opening("45", ["KS KH KD", "QS QH QD"], "opening_needs_run", "RMI-25", "60 with no run"),
    _remi_opening("51", ["3H 4H 5H 6H", "KS KH KD"], "opening_too_low", "RMI-24", "50 is too low"),
    _remi_opening("51", ["TS JS QS KS", "5H 6H 7H"], None, "RMI-24", "55 opens"),
    _remi_opening("51", ["TS JK(JS) QS KS", "5H 6H 7H"], None, "RMI-Q5", "a joker run worth 55 opens"),
    Case(
        "RMI-Q18",
        "additions in the opening turn do not count toward the threshold",
        at(
            REMI,
            hands=["3H 4H 5H 9S 9H 9D KS KH KD 7D 8D 2C", "5S"],
            melds=[(1, "4D 5D 6D")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        play("3H 4H 5H", "9S 9H 9D", layoffs=[(1, "7D 8D")]),
        code="opening_too_low",
        expect={"points": 30},
    ),
    Case(
        "RMI-Q18",
        "additions in the opening turn once it is laid",
        at(
            REMI,
            hands=["3H 4H 5H 9S 9H 9D KS KH KD 7D 8D 2C", "5S"],
            melds=[(1, "4D 5D 6D")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        play("3H 4H 5H", "KS KH KD", layoffs=[(1, "7D 8D")]),
        expect={"table": {1: "4D 5D 6D 7D 8D"}, "table_points": (55, 15)},
    ),
    Case(
        "RMI-31",
        "Q7: a deep take brings the pieces above into the hand for use",
        at(
            REMI,
            hands=["KC 2H", "5H"],
            melds=[(0, "KS KH KD")],
            discard="4S 9D 5S 6S",
            atu="QC",
            turn=0,
            rest="drop",
        ),
        take("4S", "4S 5S 6S"),
        expect={"discard": [], "table": {2: "4S 5S 6S"}, "hand": {0: ["2H", "9D", "KC"]}},
    ),
    *(
        Case(
            "RMI-33",
            what,
            at(
                REMI,
                hands=["7S KC 2H", "5H"],
                melds=[(0, "KS KH KD"), (1, "5D 6D 7D")],
                discard="4D 9D 5S 6S",
                atu="QC",
                turn=0,
                rest="drop",
            ),
            move,
            code="taken_card_not_melded",
        )
        for what, move in [
            ("Q7: a new formation without the picked piece", take("4D", "5S 6S 7S")),
            ("Q7: the picked piece added to a formation on the table", take("4D", layoffs=[(2, "4D")])),
            ("Q7: a new formation and the picked piece added", take("4D", "5S 6S 7S", layoffs=[(2, "4D")])),
        ]
    ),
    Case(
        "RMI-Q8",
        "row_visible_depth limits the deep take",
        at(
            variant("remi", row_visible_depth=2),
            hands=["4H 5H", "5C"],
            melds=[(0, "KS KH KD")],
            discard="3H 6D 7S",
            atu="QC",
            turn=0,
            rest="drop",
        ),
        take("3H", "3H 4H 5H"),
        code="cannot_take_discard",
        expect={"rule": "RMI-Q8", "view": {(0, "you", "takeable"): ["6D#1", "7S#1"]}},
    ),
    Case(
        "RMI-34",
        "classic: before opening, the head with a valid opening that uses it",
        at(CLASSIC, hands=["4H 5H 2C", "5C"], discard="9D 3H", atu="QC", turn=0, rest="drop"),
        take(None, "3H 4H 5H"),
        expect={"opened": (True, False), "discard": ["9D"]},
    ),
    Case(
        "RMI-34",
        "45: the head with an opening too low",
        at(REMI, hands=["4H 5H 2C", "5C"], discard="9D 3H", atu="QC", turn=0, rest="drop"),
        take(None, "3H 4H 5H"),
        code="opening_too_low",
    ),
    Case(
        "RMI-36",
        "pieces added to another's formation are the placer's",
        at(
            REMI,
            hands=["6H 7H 2C", "9C"],
            melds=[(0, "KS KH KD"), (1, "3H 4H 5H")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        play(layoffs=[(2, "6H 7H")]),
        expect={
            "table": {2: "3H 4H 5H 6H 7H"},
            "placed_by": {2: (1, 1, 1, 0, 0)},
            "view": {(1, "melds", 1, "owner"): 1},
        },
    ),
    Case(
        "RMI-36",
        "pieces added to another's formation score for the placer",
        at(
            REMI,
            hands=["6H 7H 2C", "9C"],
            melds=[(0, "KS KH KD"), (1, "3H 4H 5H")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        discard("2C"),
        before=[(0, play(layoffs=[(2, "6H 7H")]))],
        expect={
            "lines": {0: {"table": 40, "bonus": 50, "points": 90}, 1: {"table": 15, "hand": 5, "points": 10}}
        },
    ),
    Case(
        "RMI-35",
        "additions extend a run or bring a set of three to four",
        _RMI_35,
        play(layoffs=[(1, "2H 6H"), (2, "7C")]),
        expect={"table": {1: "2H 3H 4H 5H 6H", 2: "7S 7H 7D 7C"}, "table_points": (15, 50)},
    ),
    Case("RMI-35", "no fifth card in a set", _RMI_35, play(layoffs=[(3, "9C")]), code="cannot_lay_off"),
    Case("RMI-35", "a card that extends nothing", _RMI_35, play(layoffs=[(1, "3S")]), code="cannot_lay_off"),
    Case(
        "RMI-27",
        "no additions before opening",
        at(
            REMI,
            hands=["6H 2C 3C", "5C"],
            melds=[(1, "3H 4H 5H")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        play(layoffs=[(1, "6H")]),
        code="not_opened",
    ),
    Case(
        "RMI-27",
        "RMI-Q6: no additions before opening in classic either",
        at(
            CLASSIC,
            hands=["6H 2C 3C", "5C"],
            melds=[(1, "3H 4H 5H")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        play(layoffs=[(1, "6H")]),
        code="not_opened",
    ),
    Case(
        "RMI-27",
        "no buy-back before opening",
        at(
            REMI,
            hands=["JS 2C 3C", "5C"],
            melds=[(1, "TS JK(JS) QS")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        play(exchanges=[(1, "JS")]),
        code="not_opened",
        given={"opened": (False, True)},
    ),
    Case(
        "RMI-40",
        "Q11: a buy-back from the player's own formation; the joker may stay in hand",
        at(
            REMI,
            hands=["8S 2C 3C", "5C"],
            melds=[(0, "7S JK(8S) 9S")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        play(exchanges=[(1, "8S")]),
        expect={"table": {1: "7S 8S 9S"}, "hand": {0: ["2C", "3C", "JK"]}, "cycle": {"consumed": 1}},
    ),
    Case(
        "RMI-40",
        "Q11: the bought joker need not be used this turn (unlike Remik 51)",
        at(
            REMI,
            hands=["8S 2C 3C", "5C"],
            melds=[(0, "7S JK(8S) 9S")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        discard("2C"),
        before=[(0, play(exchanges=[(1, "8S")]))],
        expect={"state": {"turn": 1}},
    ),
    Case(
        "RMI-Q11",
        "a buy-back in the opening turn, after the opening is laid",
        at(
            REMI,
            hands=["3H 4H 5H KS KH KD JS 2C", "5C"],
            melds=[(1, "TS JK(JS) QS")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        play("3H 4H 5H", "KS KH KD", exchanges=[(1, "JS")]),
        expect={"opened": (True, True), "table": {1: "TS JS QS"}, "hand": {0: ["2C", "JK"]}},
    ),
    Case(
        "RMI-Q10",
        "a set of three's joker is bought by the club",
        _RMI_SET_JOKER,
        play(exchanges=[(1, "7C")]),
        expect={"table": {1: "7S 7H 7C"}},
    ),
    Case(
        "RMI-Q10",
        "a set of three's joker is bought by the diamond",
        _RMI_SET_JOKER,
        play(exchanges=[(1, "7D")]),
        expect={"table": {1: "7S 7H 7D"}},
    ),
    Case(
        "RMI-Q23",
        "adding the 7D fixes the joker as the 7C",
        _RMI_SET_JOKER,
        play(layoffs=[(1, "7D")]),
        expect={"table": {1: "7S 7H JK(7C) 7D"}},
    ),
    Case(
        "RMI-Q23",
        "then the 7D no longer buys it",
        _RMI_SET_JOKER,
        play(exchanges=[(1, "7D")]),
        before=[(0, play(layoffs=[(1, "7D")]))],
        code="bad_joker_exchange",
    ),
    Case(
        "RMI-Q23",
        "then only the 7C buys it",
        _RMI_SET_JOKER,
        play(exchanges=[(1, "7C")]),
        before=[(0, play(layoffs=[(1, "7D")]))],
        expect={"table": {1: "7S 7H 7C 7D"}},
    ),
    Case(
        "RMI-42",
        "a bought-back joker laid again",
        at(
            REMI,
            hands=["8S 8S 7H 9H 2C 3C", "5C"],
            melds=[(0, "7S JK(8S) 9S")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        play("7H JK 9H"),
        before=[(0, play(exchanges=[(1, "8S")]))],
        expect={"table": {2: "7H JK(8H) 9H"}},
    ),
    Case(
        "RMI-42",
        "a consumed joker cannot be bought back again, even by its buyer (no 8H in hand)",
        at(
            REMI,
            hands=["8S 8S 7H 9H 2C 3C", "5C"],
            melds=[(0, "7S JK(8S) 9S")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        play(exchanges=[(2, "8H")]),
        before=[(0, play(exchanges=[(1, "8S")])), (0, play("7H JK 9H"))],
        code="card_not_in_hand",
    ),
    Case(
        "RMI-42",
        "a consumed joker cannot be bought back again, even by its buyer",
        at(
            REMI,
            hands=["8S 8H 7H 9H 2C 3C", "5C"],
            melds=[(0, "7S JK(8S) 9S")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        play(exchanges=[(2, "8H")]),
        before=[(0, play(exchanges=[(1, "8S")])), (0, play("7H JK 9H"))],
        code="bad_joker_exchange",
        expect={"rule": "RMI-42"},
    ),
    *(
        Case(
            "RMI-37",
            f"a joker can never be added to a formation on the table: {layoff[1]}",
            _RMI_37,
            play(layoffs=[layoff]),
            code="cannot_lay_off",
            expect={"rule": "RMI-37"},
        )
        for layoff in [(1, "JK(TH)"), (1, "JK(6H)"), (1, "JK"), (2, "JK(QC)"), (2, "JK")]
    ),
    Case(
        "RMI-37",
        "a joker inside a new formation",
        at(
            REMI,
            hands=["JK 2C 3C 9D", "5C"],
            opened=[True, True],
            atu="KC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        play("2C 3C JK"),
        expect={"table": {1: "2C 3C JK(4C)"}},
    ),
    Case(
        "RMI-Q17",
        "the atu cannot be added to a formation already on the table",
        at(REMI, hands=["5D 6S", "4H"], melds=[(0, "7C 8C 9C")], atu="TC", turn=0, phase="play", rest="drop"),
        play(layoffs=[(1, "TC")]),
        code="atu_not_allowed",
        expect={"rule": "RMI-Q17"},
    ),
    Case("RMI-Q17", "an opening too low without the atu", _RMI_Q17, play("3H 4H 5H"), code="opening_too_low"),
    Case(
        "RMI-Q17",
        "the atu counts toward an opening",
        _RMI_Q17,
        play("3H 4H 5H", "KS KH KD"),
        expect={"opened": (True, False), "cycle": {"atu_taken_by": 0}},
    ),
    Case(
        "RMI-Q17",
        "the atu counts toward an opening made in the going-out turn",
        _RMI_Q17,
        discard("5D"),
        before=[(0, play("3H 4H 5H", "KS KH KD"))],
        expect={"lines": {0: {"table": 45, "bonus": 50, "points": 95}, 1: {"points": -100}}},
    ),
    Case(
        "RMI-49",
        "RMI-50, RMI-57: an empty stock ends the round on a draw, without reshuffle or bonus",
        at(
            REMI,
            hands=["KC 2D", "9C 9D", "QS"],
            melds=[(0, "3S 4S 5S"), (1, "TH JH QH")],
            discard="2S 6H 7H 8D 4C",
            stock="",
            atu="QC",
            turn=0,
            rest="drop",
        ),
        DrawStock(),
        expect={
            "result": {"ended": "stock_out", "winner": None},
            "lines": {
                0: {"table": 15, "hand": 15, "bonus": 0, "points": 0},
                1: {"table": 30, "hand": 10, "bonus": 0, "points": 20},
                2: {"table": 0, "hand": 0, "bonus": 0, "points": -100},
            },
            "no_events": ["stock_rebuilt"],
            "state": {"round_no": 2},
        },
    ),
    Case(
        "RMI-Q9",
        "with an empty stock the player may still break the row",
        at(
            REMI,
            hands=["5H 5D 2C 3C", "9C"],
            melds=[(0, "3S 4S 5S")],
            discard="2S 6H 5C",
            stock="",
            atu="QC",
            turn=0,
            rest="drop",
        ),
        take(None, "5H 5D 5C"),
        expect={"state": {"round_no": 1, "phase": "play"}},
    ),
    Case(
        "RMI-Q9",
        "and discard",
        at(
            REMI,
            hands=["5H 5D 2C 3C", "9C"],
            melds=[(0, "3S 4S 5S")],
            discard="2S 6H 5C",
            stock="",
            atu="QC",
            turn=0,
            rest="drop",
        ),
        discard("2C"),
        before=[(0, take(None, "5H 5D 5C"))],
        expect={"state": {"turn": 1, "phase": "draw"}},
    ),
    Case(
        "RMI-Q9",
        "the next draw ends the round",
        at(
            REMI,
            hands=["5H 5D 2C 3C", "9C"],
            melds=[(0, "3S 4S 5S")],
            discard="2S 6H 5C",
            stock="",
            atu="QC",
            turn=0,
            rest="drop",
        ),
        DrawStock(),
        seat=1,
        before=[(0, take(None, "5H 5D 5C")), (0, discard("2C"))],
        expect={"result": {"ended": "stock_out"}, "points": [25, -100]},
    ),
    Case(
        "RMI-55",
        "the going-out bonus is 50",
        _going_out("5D"),
        discard("5D"),
        expect={"lines": {0: {"table": 30, "hand": 0, "bonus": 50, "points": 80}}},
    ),
    Case(
        "RMI-55",
        "Q14: going out with a joker in a new formation that turn is 100",
        _going_out("7H JK 9H 5D"),
        discard("5D"),
        before=[(0, play("7H JK 9H"))],
        expect={"lines": {0: {"table": 45, "bonus": 100, "points": 145}}},
    ),
    Case(
        "RMI-55",
        "Q14: discarding a joker as the last piece is 100",
        _going_out("JK"),
        discard("JK"),
        expect={"lines": {0: {"table": 30, "hand": 0, "bonus": 100, "points": 130}}},
    ),
    Case(
        "RMI-Q14",
        "a joker laid in an earlier turn does not make it 100",
        _going_out("5D", melds=((0, "7H JK(8H) 9H"),)),
        discard("5D"),
        expect={"lines": {0: {"table": 45, "bonus": 50, "points": 95}}},
    ),
    Case(
        "RMI-Q14",
        "a joker laid in one turn, going out in the next, across real turns",
        at(
            REMI,
            hands=["7H JK 9H 5D", "4C 8C"],
            melds=[(0, "KS KH KD"), (1, "2S 3S 4S")],
            stock="TC JC KC",
            atu="QC",
            turn=0,
            rest="drop",
        ),
        discard("5D"),
        before=[
            (0, DrawStock()),
            (0, play("7H JK 9H")),
            (0, discard("TC")),
            (1, DrawStock()),
            (1, discard("JC")),
            (0, DrawStock()),
            (0, play(layoffs=[(1, "KC")])),
        ],
        expect={
            "lines": {0: {"table": 55, "bonus": 50, "points": 105}, 1: {"table": 15, "hand": 10, "points": 5}}
        },
    ),
    Case(
        "RMI-Q14",
        "a bought-back joker laid in the going-out turn makes it 100",
        _going_out("JS 7H 9H 5D", melds=((1, "TS JK(JS) QS"),)),
        discard("5D"),
        before=[(0, play("7H JK 9H", exchanges=[(2, "JS")]))],
        # 30 + 15 (7H JK 9H) + 10 (the JS placed by buying back) = 55.
        expect={"lines": {0: {"table": 55, "bonus": 100, "points": 155}, 1: {"table": 20, "points": 15}}},
    ),
    Case(
        "RMI-Q15",
        "a joker atu taken into a formation",
        _going_out("7H 9H 5D", atu="JK"),
        play("7H JK 9H"),
        expect={"cycle": {"atu_taken_by": 0}, "table": {2: "7H JK(8H) 9H"}},
    ),
    Case(
        "RMI-Q15",
        "a joker atu taken into the going-out formation is 100 and doubled",
        _going_out("7H 9H 5D", atu="JK"),
        discard("5D"),
        before=[(0, play("7H JK 9H"))],
        # Seat 1 laid nothing: -100, doubled.
        expect={
            "lines": {0: {"table": 45, "bonus": 100, "multiplier": 2, "points": 290}, 1: {"points": -200}}
        },
    ),
    Case(
        "RMI-58",
        "never laying a formation scores -100 whatever the hand",
        at(
            REMI,
            hands=["5D", "JK JK AS AH AD KS", "2C"],
            melds=[(0, "KS KH KD")],
            atu="QC",
            turn=0,
            phase="play",
            rest="drop",
        ),
        discard("5D"),
        expect={"points": [80, -100, -100]},
    ),
    Case(
        "RMI-58",
        "Q16: -100 is doubled and gets no atu pair bonus (atu AC, the other AC dealt to seat 1)",
        at(REMI, hands=["5D", "AC 9S"], melds=[(0, "KS KH KD")], atu="AC", turn=0, phase="play", rest="drop"),
        discard("5D"),
        given={"cycle": {"atu_pair_seats": (1,)}},
        expect={
            "lines": {
                0: {"multiplier": 2, "points": 160},
                1: {"atu_bonus": 0, "multiplier": 2, "points": -200},
            }
        },
    ),
    Case(
        "RMI-47",
        "the atu pair bonus is 50 for the player dealt the twin",
        at(
            REMI,
            hands=["5D", "7D 9S"],
            melds=[(0, "KS KH KD"), (1, "2H 3H 4H")],
            atu="7D",
            turn=0,
            phase="play",
            rest="drop",
        ),
        discard("5D"),
        given={"cycle": {"atu_pair_seats": (1,)}},
        # 15 on the table - 10 in hand (the twin still costs 5) + 50.
        expect={
            "lines": {
                0: {"atu_bonus": 0, "points": 80},
                1: {"table": 15, "hand": 10, "atu_bonus": 50, "points": 55},
            }
        },
    ),
    Case(
        "RMI-48",
        "Q16: a joker atu doubles the round and the other joker is its pair",
        at(
            REMI,
            hands=["5D", "JK 9S"],
            melds=[(0, "KS KH KD"), (1, "2H 3H 4H")],
            atu="JK",
            turn=0,
            phase="play",
            rest="drop",
        ),
        discard("5D"),
        given={"cycle": {"atu_pair_seats": (1,)}},
        # (15 - 55 + 50) * 2 = 20.
        expect={
            "lines": {
                0: {"multiplier": 2, "points": 160},
                1: {"hand": 55, "atu_bonus": 50, "multiplier": 2, "points": 20},
            }
        },
    ),
    Case(
        "RMI-48",
        "an ace atu doubles every round total",
        at(
            REMI,
            hands=["5D", "9S", "2C"],
            melds=[(0, "KS KH KD"), (1, "2H 3H 4H")],
            atu="AS",
            turn=0,
            phase="play",
            rest="drop",
        ),
        discard("5D"),
        expect={"points": [160, 20, -200]},
    ),
    Case(
        "RMI-62",
        "Q19: below the target the match plays on",
        at(
            _RMI_TARGET,
            hands=["5D", "9S"],
            melds=[(0, "KS KH KD")],
            atu="QC",
            turn=0,
            phase="play",
            totals=[215, 250],
            rest="drop",
        ),
        discard("5D"),
        expect={"state": {"totals": (295, 150), "phase": "play"}},
    ),
    Case(
        "RMI-62",
        "Q19: the target reached ends the match, the highest wins",
        at(
            _RMI_TARGET,
            hands=["5D", "9S"],
            melds=[(0, "KS KH KD")],
            atu="QC",
            turn=0,
            phase="play",
            totals=[220, 250],
            rest="drop",
        ),
        discard("5D"),
        expect={"state": {"totals": (300, 150), "phase": "over", "winners": (0,)}},
    ),
]


@pytest.mark.parametrize("case", [case.param() for case in CASES])
def test_rule_case(case: Case) -> None:
    check(case)


# =================================================================================================
# Remik 51: the deal, the stock, the table options
# =================================================================================================


def test_r51_13_dealer_starts_with_14_cards_and_does_not_draw() -> None:
    state = new_game(R51, 4, seed=7, first=2)
    assert [len(h) for h in state.hands] == [13, 13, 14, 13]
    assert (state.turn, state.phase, state.first) == (2, "play", 2)
    assert state.discard == ()
    assert len(state.stock) == 108 - 53
    refused(state, 2, DrawStock(), "wrong_phase")
    refused(state, 2, TakeDiscard(None, Play()), "wrong_phase")
    refused(state, 3, DrawStock(), "not_your_turn")
    state = apply_move(state, 2, Discard(state.hands[2][0])).state
    assert (state.turn, state.phase) == (3, "draw")
    assert [len(h) for h in state.hands] == [13, 13, 13, 13]
    assert len(state.discard) == 1


def test_r51_5_jokers_per_deck_3_gives_six_jokers() -> None:
    assert sum(c.is_joker for c in R51.pack()) == 4
    assert len(R51.pack()) == 108
    rules = variant("remik51", jokersPerDeck=3)
    assert sum(c.is_joker for c in rules.pack()) == 6
    assert len(rules.pack()) == 110


def test_r51_38_q9_reshuffle_keeps_the_top_discard_when_a_player_must_draw() -> None:
    state = position(R51, hands=["2C 3C", "4C 5C"], discard="9S 9H 9D KC", stock="", turn=0, rest="drop")
    result = apply_move(state, 0, DrawStock())
    new = result.state
    assert [c.face for c in new.discard] == ["KC"]
    drawn = [c for c in new.hands[0] if c.face not in ("2C", "3C")]
    assert len(drawn) == 1
    assert Counter(c.face for c in (*new.stock, *drawn)) == Counter(["9S", "9H", "9D"])
    assert len(new.stock) == 2
    assert new.cycle.reshuffles == 1
    assert result.events[0].kind == "stock_rebuilt"


def test_r51_q9_the_stock_is_rebuilt_only_when_a_player_must_draw_from_it() -> None:
    state = position(R51, hands=["2C 3C", "4C 5C"], discard="9S 9H KC", stock="6D", turn=0, rest="drop")
    state = apply_move(state, 0, DrawStock()).state
    # The last stock card is drawn: nothing is rebuilt yet.
    assert state.stock == ()
    assert [c.face for c in state.discard] == ["9S", "9H", "KC"]
    state = apply_move(state, 0, discard("2C")).state
    assert state.stock == ()
    state = apply_move(state, 1, DrawStock()).state
    assert [c.face for c in state.discard] == ["2C"]
    assert len(state.stock) == 2
    assert state.cycle.reshuffles == 1


@pytest.mark.parametrize(
    "options",
    [
        {"colour": "red"},
        {"jokers_per_deck": 4},
        {"joker_penalty": 40},
        {"penalty_limit": 49},
        {"penalty_limit": 10_001},
        {"lowest_tie": "coin_toss"},
        {"max_players": 7},
        {"max_players": 1},
        {"penalty_limit": "lots"},
    ],
    ids=lambda o: f"R51-options {o}",
)
def test_r51_table_options_unknown_or_out_of_range_raise_value_error(options: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError):  # noqa: PT011
        variant("remik51", **options)


def test_r51_table_options_defaults_and_camel_case() -> None:
    assert R51.options == {
        "jokers_per_deck": 2,
        "joker_penalty": 30,
        "penalty_limit": 500,
        "lowest_tie": "shared",
        "max_players": 5,
        "rounds": None,  # every variant's round limit (docs/engine.md), unset
    }
    rules = variant("remik51", penaltyLimit=300, jokerPenalty=25, lowestTie="extraRound")
    assert rules.options["penalty_limit"] == 300
    assert rules.options["joker_penalty"] == 25
    assert rules.options["lowest_tie"] == "extra_round"
    with pytest.raises(ValueError):  # noqa: PT011
        new_game(R51, 6, seed=1)
    assert len(new_game(variant("remik51", max_players=6), 6, seed=1).hands) == 6
    with pytest.raises(ValueError):  # noqa: PT011
        new_game(R51, 1, seed=1)


# =================================================================================================
# Remi: the deal, the row, whole rounds, the table options
# =================================================================================================


def draw_discard_to_stock_out(state: GameState) -> GameState:
    """Play the round on by drawing and discarding only, until the stock-out ends it (Remi)."""
    round_no = state.round_no
    while state.round_no == round_no and state.phase != "over":
        seat = state.turn
        if state.phase == "draw":
            state = apply_move(state, seat, DrawStock()).state
        else:
            state = apply_move(state, seat, Discard(state.hands[seat][-1])).state
    return state


def test_rmi_13_18_first_player_is_dealt_15_and_starts_with_the_discard() -> None:
    state = new_game(REMI, 3, seed=11, first=1)
    assert [len(h) for h in state.hands] == [14, 15, 14]
    assert state.cycle.atu is not None
    assert len(state.stock) == 106 - 43 - 1
    assert (state.turn, state.phase, state.discard) == (1, "play", ())
    assert {type(m).__name__ for m in legal_moves(state, 1)} == {"Discard"}
    refused(state, 1, DrawStock(), "wrong_phase")
    refused(state, 1, Play(melds=(state.hands[1][:3],)), "first_turn")
    state = apply_move(state, 1, Discard(state.hands[1][0])).state
    assert (state.turn, state.phase) == (2, "draw")


def test_rmi_19_in_the_first_turn_a_player_only_draws_and_discards() -> None:
    state = new_game(REMI, 3, seed=11, first=1)
    state = apply_move(state, 1, Discard(state.hands[1][0])).state
    assert view_for(state, 2)["you"]["first_turn"] is True
    refused(state, 2, TakeDiscard(None, Play(melds=(state.hands[2][:3],))), "first_turn")
    assert legal_moves(state, 2) == [DrawStock()]
    state = apply_move(state, 2, DrawStock()).state
    refused(state, 2, Play(melds=(state.hands[2][:3],)), "first_turn")
    assert {type(m).__name__ for m in legal_moves(state, 2)} == {"Discard"}
    state = apply_move(state, 2, Discard(state.hands[2][0])).state
    assert state.turn == 0
    assert state.turns_started == (1, 1, 1)


def test_rmi_q4_an_ace_left_in_hand_costs_25() -> None:
    assert REMI.hand_points("AS") == 25
    assert REMI.hand_points("JK AS KD 5C") == 90


def test_rmi_62_q19_fixed_rounds_end_the_match_and_equal_totals_are_co_winners() -> None:
    rules = variant("remi", rounds=2)
    state = new_game(rules, 2, seed=3, first=0)
    state = draw_discard_to_stock_out(state)
    assert (state.round_no, state.phase, state.first) == (2, "play", 1)  # RMI-Q1
    assert state.totals == (-100, -100)
    state = draw_discard_to_stock_out(state)
    assert state.phase == "over"
    assert len(state.results) == 2
    assert all(r.ended == "stock_out" for r in state.results)
    assert state.totals == (-200, -200)
    assert state.winners == (0, 1)


def test_rmi_61_q19_endless_room_plays_on_until_end_match_with_co_winners() -> None:
    state = position(
        REMI,
        hands=["5D", "9S"],
        melds=[(0, "KS KH KD")],
        atu="QC",
        turn=0,
        phase="play",
        totals=[20, 200],
        rest="drop",
    )
    state = apply_move(state, 0, discard("5D")).state
    assert state.totals == (100, 100)
    assert (state.phase, state.round_no) == ("play", 2)
    closed = end_match(state).state
    assert closed.phase == "over"
    assert closed.totals == (100, 100)
    assert closed.winners == (0, 1)
    assert len(closed.results) == 1  # the round in progress is abandoned unscored
    with pytest.raises(IllegalMoveError) as info:
        end_match(closed)
    assert info.value.code == "game_over"
    refused(closed, closed.turn, DrawStock(), "game_over")
    ahead = end_match(position(REMI, hands=["5D", "9S"], atu="QC", totals=[40, 30])).state
    assert ahead.winners == (0,)


def test_rmi_7_q3_short_game_one_deck_two_jokers_ten_and_eleven_pieces() -> None:
    rules = variant("remi", short_game=True)
    pack = rules.pack()
    assert len(pack) == 54
    assert sum(c.is_joker for c in pack) == 2
    assert set(Counter(c.face for c in pack if not c.is_joker).values()) == {1}
    state = new_game(rules, 2, seed=5, first=1)
    assert [len(h) for h in state.hands] == [10, 11]
    assert state.cycle.atu is not None
    assert len(state.stock) == 54 - 21 - 1
    with pytest.raises(ValueError):  # noqa: PT011
        new_game(rules, 3, seed=5)


def test_rmi_q3_q16_short_game_atu_pair_only_through_the_jokers() -> None:
    rules = variant("remi", short_game=True)
    natural = position(rules, hands=["7D 2C", "JK 3C"], atu="7H", turn=0, rest="drop")
    assert natural.cycle.atu_pair_seats == ()
    jokers = position(rules, hands=["7D 2C", "JK 3C"], atu="JK", turn=0, rest="drop")
    assert jokers.cycle.atu_pair_seats == (1,)


def test_rmi_6_q2_standard_game_106_pieces_up_to_four_players() -> None:
    pack = REMI.pack()
    assert len(pack) == 106
    assert sum(c.is_joker for c in pack) == 2
    state = new_game(REMI, 4, seed=9, first=0)
    assert [len(h) for h in state.hands] == [15, 14, 14, 14]
    assert len(state.stock) == 48
    with pytest.raises(ValueError):  # noqa: PT011
        new_game(REMI, 5, seed=9)


@pytest.mark.parametrize(
    "options",
    [
        {"opening": "60"},
        {"opening": 40},
        {"rounds": 0},
        {"target": 0},
        {"rounds": 3, "target": 500},
        {"short_game": "yes"},
        {"max_players": 5},
        {"row_visible_depth": 0},
        {"speed": "fast"},
    ],
    ids=lambda o: f"RMI-options {o}",
)
def test_rmi_table_options_unknown_or_out_of_range_raise_value_error(options: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError):  # noqa: PT011
        variant("remi", **options)


def test_rmi_table_options_defaults_and_synonyms() -> None:
    assert REMI.options["opening"] == "45"
    assert (REMI.options["rounds"], REMI.options["target"]) == (None, None)
    assert variant("remi", opening=0).options["opening"] == "classic"
    assert variant("remi", opening=51).options["opening"] == "51"
    assert variant("remi", rowVisibleDepth=3).options["row_visible_depth"] == 3


def test_rmi_q8_without_a_row_limit_every_piece_of_the_row_may_be_taken() -> None:
    unlimited = position(
        REMI,
        hands=["4H 5H", "5C"],
        melds=[(0, "KS KH KD")],
        discard="3H 6D 7S",
        atu="QC",
        turn=0,
        rest="drop",
    )
    assert view_for(unlimited, 0)["you"]["takeable"] == ["3H#1", "6D#1", "7S#1"]
