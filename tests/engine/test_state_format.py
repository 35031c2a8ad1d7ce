"""The state's JSON names its format and its family; older documents upgrade and play on.

The fixtures (``fixtures/state_v1``, made by ``make.py`` there at commit 9f16ae2) are states that
code stored before the states named their family (``remi-state/1``): one match per variant,
stopped in the middle of a round. Read now, each must be the very state that replaying its moves
gives today (not one move's outcome changed), and must play on to the end of its match.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.engine import (
    apply_move,
    move_from_json,
    new_game,
    state_from_json,
    state_to_json,
    upgrade_state_json,
    variant,
    variant_names,
    view_for,
)
from games.engine.bots import choose_move
from games.engine.deal import secret_bytes
from games.engine.rules import rules_from_json

FIXTURES = Path(__file__).parent / "fixtures" / "state_v1"
CASES = sorted(path.stem for path in FIXTURES.glob("*.json"))
#: A match of these tables ends well within this many moves (bots play it).
MOVE_CAP = 20_000


def _fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return data


def test_every_variant_has_a_stored_state_of_the_older_format() -> None:
    assert sorted(variant_names()) == CASES
    for name in CASES:
        assert _fixture(name)["state"]["format"] == "remi-state/1"


def test_the_state_names_its_format_and_its_family() -> None:
    families = {"remik51": "rummy", "remi": "rummy", "rummy500": "rummy", "remik40": "rummy"}
    families |= {"gin": "gin", "oklahoma": "gin", "knock108": "knock108"}
    for name, family in families.items():
        document = state_to_json(new_game(variant(name), 2, seed=1))
        assert (document["format"], document["family"]) == ("remi-state/2", family)
        assert "extra" not in document
        assert "opened" not in document
        assert state_to_json(state_from_json(document)) == document


@pytest.mark.parametrize("name", CASES)
def test_an_older_state_is_what_replaying_its_moves_gives_now(name: str) -> None:
    data = _fixture(name)
    record = data["record"]
    state = new_game(variant(record["variant"], **record["options"]), record["players"], record["seed"])
    for step in record["moves"]:
        state = apply_move(state, step["seat"], move_from_json(step["move"])).state
    assert upgrade_state_json(data["state"]) == state_to_json(state)
    assert state_to_json(state_from_json(data["state"])) == state_to_json(state)
    # The stored form (no secret) upgrades alike, JSON to JSON, as the data migration does.
    stored = upgrade_state_json(data["stored"])
    assert stored == {key: value for key, value in state_to_json(state).items() if key != "secret"}
    assert upgrade_state_json(stored) == stored


@pytest.mark.parametrize("name", CASES)
def test_a_match_stored_before_the_change_finishes_after_it(name: str) -> None:
    data = _fixture(name)
    secret = secret_bytes(data["record"]["seed"]).hex()
    state = state_from_json({**data["stored"], "secret": secret})
    for _ in range(MOVE_CAP):
        if state.is_over:
            break
        state = apply_move(state, state.turn, choose_move(view_for(state, state.turn))).state
    assert state.is_over
    assert state.winners


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="not a remi-state document"):
        upgrade_state_json({"format": "remi-state/0"})


def test_states_read_back_share_one_rule_set_per_variant_and_options() -> None:
    """A server reads a state back on every move: the states of one rule set share its object
    (``rules_from_json``), equal to the one ``variant`` builds; other options get their own; a
    bad name or option is refused every time, never kept."""
    state = new_game(variant("remik51"), ["Ana", "Bob"], seed=5)
    first, second = state_from_json(state_to_json(state)), state_from_json(state_to_json(state))
    assert first.rules is second.rules
    assert first.rules == variant("remik51")
    other = state_from_json(state_to_json(new_game(variant("remik51", joker_penalty=25), ["A", "B"], seed=5)))
    assert other.rules is not first.rules
    assert other.rules.options["joker_penalty"] == 25
    stored = dict(state_to_json(other)["rules"])
    with pytest.raises(ValueError, match="whole number"):  # 25.0 == 25, but it is not a valid value
        rules_from_json({**stored, "options": {**stored["options"], "joker_penalty": 25.0}})
    for _ in range(2):
        with pytest.raises(ValueError, match="unknown option"):
            rules_from_json({"variant": "remik51", "options": {"no_such_option": 1}})
    assert rules_from_json({"variant": "remik51", "options": {}}) == first.rules
