"""Verdicts that know their error (issue 37; docs/engine.md, "Verdicts that know their error";
docs/learn.md, "Analysis of a round"): positions whose right answer is known, checked every run,
through the same path the site's analysis takes (``analyse_round``)."""

from __future__ import annotations

from games.engine import (
    Discard,
    GameState,
    Knock,
    Move,
    apply_move,
    parse_card,
    position,
    variant,
)
from games.engine.analysis import Decision, analyse_round, critical_value, interval, verdict
from games.engine.positions import gin_position


def judged(state: GameState, seat: int, played: Move, seed: str = "known") -> Decision:
    """The site's analysis of one decision: ``played`` at ``state``."""
    after = apply_move(state, seat, played).state
    report = analyse_round([(state, None, None), (after, seat, played)], seat, seed=seed)
    assert len(report.decisions) == 1, report
    return report.decisions[0]


def joker_endgame(name: str) -> GameState:
    """Both seats opened, seat 0 to discard from JK 9C 2D (the opponent holds two cards): the joker
    lays off on seat 0's own 4S 5S 6S 7S (Remik 51) or melds with the atu pair (Remi)."""
    return position(
        variant(name),
        hands=["JK 9C 2D", "3C 8H"],
        melds=[(0, "4S 5S 6S 7S"), (1, "QD QH QC")],
        turn=0,
        phase="play",
    )


def test_a_joker_thrown_away_in_remik51_is_never_labelled_good() -> None:
    decision = judged(joker_endgame("remik51"), 0, Discard(parse_card("JK")))
    assert decision.verdict != "good", decision
    assert decision.verdict in ("mistake", "questionable", "unclear")


def test_a_joker_thrown_away_in_remi_is_a_mistake() -> None:
    decision = judged(joker_endgame("remi"), 0, Discard(parse_card("JK")))
    assert decision.verdict == "mistake", decision
    assert decision.loss - decision.error >= 5


def test_knocking_with_gin_in_hand_is_good_and_drawing_on_instead_is_marked() -> None:
    # GIN-Q: discarding 5H leaves AD 2D 3D, 6C 7C 8C 9C, KS KH KD: gin (deadwood 0).
    state = gin_position(
        variant("gin"),
        hands=["AD 2D 3D 6C 7C 8C 9C KS KH KD 5H", "2S 3S 4H 8D TD JS QH 7S 9D 4C"],
        discard="QC",
        turn=0,
        phase="play",
    )
    gin = Knock(parse_card("5H"))
    assert judged(state, 0, gin).verdict == "good"
    drawing_on = judged(state, 0, Discard(parse_card("5H")))
    assert drawing_on.verdict in ("questionable", "mistake"), drawing_on
    assert drawing_on.loss - drawing_on.error > 0
    assert isinstance(drawing_on.best, Knock)
    assert drawing_on.missed == "missed_knock"


def test_a_discard_that_lets_the_opponent_go_out_on_its_known_meld_is_a_mistake() -> None:
    # Rummy 500: the opponent holds one card and has 7H 8H 9H on the table. Discarding TH lets it
    # take the ten, lay it off (R500-9) and go out at once; every sample agrees, so the verdict is
    # reached on the first batch.
    state = position(
        variant("rummy500"),
        hands=["TH 3S 4D KD QC 9C 5S", "2C"],
        melds=[(1, "7H 8H 9H")],
        discard="6C",
        turn=0,
        phase="play",
    )
    decision = judged(state, 0, Discard(parse_card("TH")))
    assert decision.verdict == "mistake", decision
    assert decision.loss - decision.error >= 15


def test_the_same_view_and_seed_give_the_same_verdict() -> None:
    state = gin_position(
        variant("gin"),
        hands=["AD 2D 3D 6C 7C 8C 9C KS KH QD 5H", "2S 3S 4H 8D TD JS QH 7S 9D 4C"],
        discard="QC",
        turn=0,
        phase="play",
    )
    move = Discard(parse_card("QD"))
    assert judged(state, 0, move, seed="s") == judged(state, 0, move, seed="s")


def test_a_large_loss_is_not_a_mistake_until_the_samples_agree() -> None:
    # 44 points lost on average, but six samples that disagree (the case of issue 37): unclear.
    diffs = [150.0, -40.0, 90.0, -30.0, 60.0, 34.0]
    loss, half = interval(diffs)
    assert loss == 44.0
    assert half > loss
    assert verdict(loss, half) == "unclear"
    # The same mean on samples that agree is a mistake; a small sure loss is good.
    assert verdict(*interval([40.0, 45.0, 44.0, 48.0, 42.0, 45.0])) == "mistake"
    assert verdict(*interval([1.0, 0.0, 2.0, 0.5, 1.0, 0.0])) == "good"


def test_the_interval_widens_with_every_look_at_the_samples() -> None:
    # Bonferroni over the looks: four looks at 95% each look at 98.75%.
    assert critical_value(12, looks=4) > critical_value(12, looks=1)
    assert critical_value(120, looks=1) < critical_value(12, looks=1)
