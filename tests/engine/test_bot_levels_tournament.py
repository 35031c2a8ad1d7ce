"""The bot tournament behind ``make bench-bots`` (``games.engine.tools.tournament``): its counts and maths."""

from __future__ import annotations

import pytest

from games.engine.tools import tournament
from games.engine.tools.tournament import default_games, percentile, play_pairing, wilson


def test_wilson_on_known_inputs() -> None:
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson(8, 10)  # 80% of 10: Wilson's interval is not symmetric near the edge
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_percentile_is_nearest_rank() -> None:
    samples = [float(n) for n in range(1, 101)]
    assert percentile(samples, 0.99) == 99.0
    assert percentile(samples, 0.5) == 50.0
    assert percentile([7.0], 0.99) == 7.0


def test_counts_add_up() -> None:
    score = play_pairing("remik40", "normal", "easy", games=4, seed=1)
    assert score.games == 4
    assert score.wins + score.losses + score.shared == 4
    assert score.wins <= score.points <= score.wins + score.shared
    assert 0.0 <= score.rate() <= 1.0
    assert score.rounds >= 4
    assert score.timings["normal"].wall
    assert score.timings["easy"].wall
    assert len(score.timings["normal"].wall) == len(score.timings["normal"].cpu)


def test_a_tournament_replays_exactly() -> None:
    first = play_pairing("gin", "hard", "easy", games=2, seed=3)
    again = play_pairing("gin", "hard", "easy", games=2, seed=3)
    assert (first.points, first.rounds, first.wins) == (again.points, again.rounds, again.wins)
    assert len(first.timings["hard"].wall) == len(again.timings["hard"].wall)


def test_a_tournament_in_worker_processes_gives_the_same_figures() -> None:
    alone = play_pairing("gin", "hard", "easy", games=4, seed=5)
    shared = play_pairing("gin", "hard", "easy", games=4, seed=5, jobs=2)
    assert (alone.points, alone.rounds, alone.wins, alone.losses) == (
        shared.points,
        shared.rounds,
        shared.wins,
        shared.losses,
    )
    assert len(alone.timings["hard"].cpu) == len(shared.timings["hard"].cpu)


def test_default_plan_plays_both_seats() -> None:
    for name in ("gin", "remik51", "knock108"):
        for first, second in tournament.PAIRINGS:
            assert default_games(name, first, second) % 2 == 0


def test_the_command_prints_rates_and_targets(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--games", "2", "--variants", "remik40", "--pairings", "normal-easy", "--jobs", "2"]
    assert tournament.main(argv) == 0
    out = capsys.readouterr().out
    assert "normal vs easy" in out
    assert "95% CI" in out
    assert "remik40   normal beats easy >= 80%" in out
    assert "decisions: wall median" in out
