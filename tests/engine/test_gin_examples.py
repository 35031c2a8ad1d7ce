"""Gin worked examples (``docs/rules/gin.md``, worked examples): one test per GIN-EXn and GIN-DXn.

Deals are played through ``apply_move``: a position is set up with :func:`gin_position` (for a
whole game, on top of the match state the engine carries from deal to deal: totals, dealer, deals
won), then the knocker knocks and the defender replies. The hands of GIN-EX4 are built so that the
knocker and the defender hold exactly the example's loose points (``deal_hands``).
"""

from __future__ import annotations

import itertools

import pytest

from games.engine import (
    GameState,
    IllegalMoveError,
    InvalidMeldError,
    Knock,
    LayOff,
    Pass,
    Play,
    apply_move,
    new_game,
    parse_card,
    parse_cards,
    variant,
    view_for,
)
from games.engine.melds import read_meld
from games.engine.positions import gin_position
from tests.engine.helpers import faces, refused

GIN = variant("gin")
A, B = 0, 1
RANKS = "A23456789TJQK"


# --- building deals ------------------------------------------------------------------------------


def loose_cards(suit: str, total: int, count: int, avoid: set[str]) -> list[str] | None:
    """``count`` cards of ``suit`` worth ``total`` (GIN-13) with no three in a row (no meld)."""
    for ranks in itertools.combinations(range(13), count):
        if sum(min(r + 1, 10) for r in ranks) != total:
            continue
        if any(r + 1 in ranks and r + 2 in ranks for r in ranks):
            continue
        cards = [RANKS[r] + suit for r in ranks]
        if not set(cards) & avoid:
            return cards
    return None


def one_hand(run_suit: str, loose_suit: str, total: int, avoid: set[str]) -> list[str]:
    """Ten cards: a run of ``run_suit`` (as low as it can start) and loose cards of ``loose_suit``
    worth ``total`` (all ten in the run when ``total`` is 0)."""
    for count in range(8):
        for start in range(13 - (10 - count) + 1):
            run = [RANKS[r] + run_suit for r in range(start, start + 10 - count)]
            if set(run) & avoid:
                continue
            if count == 0:
                loose: list[str] | None = [] if total == 0 else None
            else:
                loose = loose_cards(loose_suit, total, count, avoid | set(run))
            if loose is not None:
                return run + loose
    raise AssertionError(f"no hand worth {total} in {loose_suit}")


def deal_hands(knock: int, defend: int, upcard: str) -> tuple[list[str], str, list[str]]:
    """(knocker's ten, the knocker's discard, defender's ten) with ``knock`` and ``defend`` loose
    points. The knocker's run is hearts, the defender's spades; the knocker's loose cards are clubs,
    the defender's diamonds (the suits trade places to keep the up-card out): the defender holds
    nothing that lays off onto the knocker's run."""
    avoid = {upcard}
    # The up-card's suit is never a run suit (a long run could not leave it out).
    k_run, k_loose = ("C", "H") if upcard[1] == "H" else ("H", "C")
    d_run, d_loose = ("D", "S") if upcard[1] == "S" else ("S", "D")
    knocker = one_hand(k_run, k_loose, knock, avoid)
    defender = one_hand(d_run, d_loose, defend, avoid | set(knocker))
    used = avoid | set(knocker) | set(defender)
    discard = next(c for c in ("KC", "QC", "KD", "QD", "JD") if c not in used)
    return knocker, discard, defender


def knock_deal(
    state: GameState,
    knocker: int,
    knock: int,
    defend: int,
    upcard: str = "KS",
    *,
    base: bool = True,
) -> GameState:
    """Set up a deal on ``state`` where ``knocker`` (11 cards, after a draw) knocks with ``knock``
    loose points and the defender holds ``defend``; play the knock and the reply (pass)."""
    ten, discard, other = deal_hands(knock, defend, upcard)
    hands = [[*ten, discard], other] if knocker == 0 else [other, [*ten, discard]]
    position = gin_position(
        state.rules, hands=hands, discard=upcard, turn=knocker, phase="play", base=state if base else None
    )
    assert position.rules.hand_points(" ".join(ten)) == knock
    assert position.rules.hand_points(" ".join(other)) == defend
    knocked = apply_move(position, knocker, Knock(parse_card(discard))).state
    assert knocked.cycle.knock.gin == (knock == 0)
    return apply_move(knocked, 1 - knocker, Pass()).state


def points(state: GameState) -> list[int]:
    return [line.points for line in state.results[-1].lines]


# --- examples from the source (EX) --------------------------------------------------------------------


def test_gin_ex1_ace_two_three_and_six_to_nine_are_runs_but_not_queen_king_ace_or_king_ace_two() -> None:
    for text, kind in (("AD 2D 3D", "run"), ("6C 7C 8C 9C", "run")):
        assert read_meld(parse_cards(text), GIN.policy).kind == kind
        assert GIN.hand_points(text) == 0
    for text in ("QH KH AH", "KH AH 2H"):
        with pytest.raises(InvalidMeldError) as info:
            read_meld(parse_cards(text), GIN.policy)
        assert info.value.code == "wrap_around"
    assert GIN.hand_points("QH KH AH") == 21  # all loose: the ace counts 1 (GIN-Q1)
    # A knock laying Q-K-A as a meld is refused; the state is unchanged.
    state = gin_position(
        GIN, hands=["QH KH AH 6C 7C 8C 9C 2S 3S 4S 5D", "TD JD"], discard="8D", turn=0, phase="play"
    )
    refused(state, 0, Knock(parse_card("5D"), (parse_cards("QH KH AH"),)), "wrap_around")
    # Laid as loose cards it is a knock with 21: too many.
    refused(state, 0, Knock(parse_card("5D")), "knock_too_high")


EX2_HANDS = ["JS JH JD 3S 4S 5S AH 2C AD 3C 9C", "JC 6S 7S 9D 9H KD 4H 2D 5C 8C"]


def test_gin_ex2_the_defender_lays_off_a_fourth_jack_and_six_seven_of_spades() -> None:
    state = gin_position(GIN, hands=EX2_HANDS, discard="KS", turn=A, phase="play")
    knocked = apply_move(state, A, Knock(parse_card("9C"))).state
    assert knocked.cycle.knock.points == 7  # AH 2C AD 3C
    view = view_for(knocked, B)
    melds = {m["cards"][0][:2]: m["id"] for m in view["melds"]}
    layoffs = (LayOff(melds["JS"], parse_cards("JC")), LayOff(melds["3S"], parse_cards("7S 6S")))
    after = apply_move(knocked, B, Play(layoffs=layoffs)).state
    assert after.cycle.step == "reply"  # cards are left: the reply goes on until a pass
    by_id = {m.id: m for m in after.melds}
    assert faces(by_id[melds["JS"]].cards) == faces(parse_cards("JS JH JD JC"))
    assert [c.face for c in by_id[melds["3S"]].cards] == ["3S", "4S", "5S", "6S", "7S"]
    assert by_id[melds["3S"]].placed_by == (A, A, A, B, B)
    assert faces(after.hands[B]) == faces(parse_cards("9D 9H KD 4H 2D 5C 8C"))
    done = apply_move(after, B, Pass()).state
    assert [line.hand for line in done.results[-1].lines] == [7, 47]
    assert points(done) == [40, 0]


def test_gin_ex2_the_engine_lays_those_cards_off_when_the_defender_just_passes() -> None:
    state = gin_position(GIN, hands=EX2_HANDS, discard="KS", turn=A, phase="play")
    knocked = apply_move(state, A, Knock(parse_card("9C"))).state
    transition = apply_move(knocked, B, Pass())
    done = transition.state
    laid = [(e.data["cards"], e.data["meld"]) for e in transition.events if e.kind == "laid_off"]
    assert sorted(card for cards, _ in laid for card in cards) == ["6S#1", "7S#1", "JC#1"]
    # 9D 9H KD 4H 2D 5C 8C: 9 + 9 + 10 + 4 + 2 + 5 + 8 = 47.
    assert faces(done.results[-1].hands[B]) == faces(parse_cards("9D 9H KD 4H 2D 5C 8C"))
    assert [line.hand for line in done.results[-1].lines] == [7, 47]
    assert points(done) == [40, 0]


def test_gin_ex3_nothing_is_laid_off_onto_the_knockers_loose_two_of_hearts() -> None:
    state = gin_position(
        GIN,
        hands=["4S 5S 6S 7D 8D 9D TC JC QC 2H KH", "AH 3H 5C 6C 7C 8S 8H 8C KD QD"],
        discard="9S",
        turn=0,
        phase="play",
    )
    knocked = apply_move(state, 0, Knock(parse_card("KH"))).state
    assert knocked.cycle.knock.points == 2  # the loose 2H
    view = view_for(knocked, 1)
    assert view["gin"]["knock"]["deadwood"] == ["2H#1"]
    # The 2H is not a meld: there is nothing to lay AH or 3H onto (GIN-17).
    for meld in view["melds"]:
        refused(knocked, 1, Play(layoffs=(LayOff(meld["id"], parse_cards("AH")),)), "cannot_lay_off")
        refused(knocked, 1, Play(layoffs=(LayOff(meld["id"], parse_cards("3H")),)), "cannot_lay_off")
    refused(knocked, 1, Play(layoffs=(LayOff(99, parse_cards("AH 3H")),)), "unknown_meld")
    done = apply_move(knocked, 1, Pass()).state
    # B: 5C 6C 7C and 8S 8H 8C melded; AH 3H KD QD loose: 1 + 3 + 10 + 10 = 24, of which AH 3H = 4.
    assert [line.hand for line in done.results[-1].lines] == [2, 24]
    assert faces(done.results[-1].hands[1]) == faces(parse_cards("AH 3H KD QD"))
    assert points(done) == [22, 0]


EX4_DEALS = [
    # (knocker, knocker's loose points, defender's loose points, expected A +, B +, totals)
    (A, 6, 19, (13, 0), (13, 0)),
    (B, 0, 24, (0, 49), (13, 49)),
    (B, 8, 9, (0, 1), (13, 50)),
    (A, 10, 27, (17, 0), (30, 50)),
    (B, 4, 4, (25, 0), (55, 50)),
    (A, 7, 39, (32, 0), (87, 50)),
    (A, 0, 6, (31, 0), (118, 50)),
]


def play_ex4() -> list[GameState]:
    """GIN-EX4's seven deals; B deals the first (the example does not say who does)."""
    state = new_game(GIN, ["A", "B"], seed="gin-ex4", first=A)
    states = [state]
    for knocker, knock, defend, _, _ in EX4_DEALS:
        state = knock_deal(state, knocker, knock, defend)
        states.append(state)
    return states


def test_gin_ex4_full_game_settlement_is_243() -> None:
    states = play_ex4()
    for deal, (after, (_, _, _, scored, totals)) in enumerate(zip(states[1:], EX4_DEALS, strict=True), 1):
        assert tuple(points(after)) == scored, f"deal {deal}"
        assert after.totals == totals, f"deal {deal}"
        assert after.results[-1].winner == (A if scored[0] else B)
    final = states[-1]
    assert final.phase == "over"
    assert final.winners == (A,)
    settlement = final.cycle.settlement
    assert final.cycle.won == (5, 2)  # A won deals 1, 4, 5, 6, 7; B deals 2, 3
    assert settlement["points"] == 243  # 118 + 100 + 3 x 25 - 50
    assert settlement["net"] == [243, -243]
    assert view_for(final, None)["gin"]["settlement"] == settlement
    note = final.results[-1].lines[A].notes[-1]
    assert "118 + 100 game bonus + 75 for deals won (25 x (5 - 2)) - 50 = 243" in note


def test_gin_ex4_deal_by_deal_breakdown() -> None:
    states = play_ex4()
    gin_deals = [2, 7]
    for deal, after in enumerate(states[1:], 1):
        knocker, knock, defend, scored, _ = EX4_DEALS[deal - 1]
        lines = after.results[-1].lines
        assert [line.hand for line in lines] == ([knock, defend] if knocker == A else [defend, knock])
        winner = A if scored[0] else B
        bonus = 25 if deal in gin_deals or deal == 5 else 0
        assert lines[winner].bonus == bonus
        if deal == 5:  # B knocks with 4, A also has 4: A scores the undercut bonus alone
            assert any("undercut" in note for note in lines[A].notes)


# --- derived examples (DX) ------------------------------------------------------------------------


def test_gin_dx1_the_winner_of_each_deal_deals_the_next() -> None:
    states = play_ex4()
    final = states[-1]
    dealers = [(result.first + 1) % 2 for result in final.results]
    assert dealers[1:] == [A, B, B, A, A, A]
    assert dealers[0] == B


def test_gin_dx2_knock_with_ten_against_ten_after_lay_offs_gives_the_defender_25() -> None:
    # A: 7H 8H 9H and KS KD KC, loose AC 2D 3S 4C (10). B: 6H lays off onto A's run; then
    # TD JD QD, 4D 4H 4S and loose 2H 3C 5D (10).
    state = gin_position(
        GIN,
        hands=["7H 8H 9H KS KD KC AC 2D 3S 4C QH", "6H TD JD QD 4D 4H 4S 2H 3C 5D"],
        discard="9S",
        turn=A,
        phase="play",
    )
    assert GIN.hand_points("6H TD JD QD 4D 4H 4S 2H 3C 5D") == 16  # 6H loose before laying off
    knocked = apply_move(state, A, Knock(parse_card("QH"))).state
    assert knocked.cycle.knock.points == 10
    transition = apply_move(knocked, B, Pass())
    done = transition.state
    lines = done.results[-1].lines
    assert [line.hand for line in lines] == [10, 10]
    assert points(done) == [0, 25]
    # The deal's final table is in its round_over event (the next deal is already dealt).
    over = next(e for e in transition.events if e.kind == "round_over")
    run = next(m for m in over.data["melds"] if m["owner"] == A and m["cards"][0].startswith("6H"))
    assert run == {"owner": A, "cards": ["6H#1", "7H#1", "8H#1", "9H#1"], "placed_by": [B, A, A, A]}


def test_gin_dx3_knock_with_three_against_one_gives_the_defender_27() -> None:
    state = knock_deal(new_game(GIN, ["A", "B"], seed=3, first=A), A, 3, 1)
    assert points(state) == [0, 27]
    assert state.results[-1].winner == B
    assert state.results[-1].lines[B].bonus == 25


def test_gin_dx4_a_knock_with_eleven_loose_points_is_refused() -> None:
    ten, discard, other = deal_hands(11, 30, "KS")
    state = gin_position(GIN, hands=[[*ten, discard], other], discard="KS", turn=A, phase="play")
    error = refused(state, A, Knock(parse_card(discard)), "knock_too_high")
    assert error.rule == "GIN-15"
    assert error.fields == {"points": 11, "limit": 10}
    # And ten is fine.
    ten, discard, other = deal_hands(10, 30, "KS")
    state = gin_position(GIN, hands=[[*ten, discard], other], discard="KS", turn=A, phase="play")
    assert apply_move(state, A, Knock(parse_card(discard))).state.cycle.step == "reply"


def test_a_refused_move_is_an_illegal_move_error() -> None:
    ten, discard, other = deal_hands(11, 30, "KS")
    state = gin_position(GIN, hands=[[*ten, discard], other], discard="KS", turn=A, phase="play")
    with pytest.raises(IllegalMoveError):
        apply_move(state, A, Knock(parse_card(discard)))
