"""Game records: rules + options + seed + moves. A record replays to the identical state.

>>> from games.engine import variant, new_game, legal_moves, apply_move, state_to_json
>>> rules = variant("remi", opening="classic")
>>> state = new_game(rules, ["Ana", "Bogdan"], seed=7)
>>> moves = []
>>> for _ in range(6):
...     move = legal_moves(state, state.turn)[0]
...     moves.append((state.turn, move))
...     state = apply_move(state, state.turn, move).state
>>> record = make_record(rules, ["Ana", "Bogdan"], 7, moves)
>>> state_to_json(replay(record_from_json(record_to_json(record)))) == state_to_json(state)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .deal import commitment, deal_cards, deal_seed, secret_bytes
from .game import apply_move, new_game
from .moves import Move, move_from_json, move_to_json
from .rules import Rules, rules_from_json
from .state import GameState

FORMAT = "remi-record/1"


@dataclass(frozen=True, slots=True)
class GameRecord:
    rules: Rules
    players: tuple[str, ...]
    seed: bytes
    moves: tuple[tuple[int, Move], ...]
    first: int | None = None


def make_record(
    rules: Rules,
    players: int | Sequence[str],
    seed: int | str | bytes,
    moves: Sequence[tuple[int, Move]],
    *,
    first: int | None = None,
) -> GameRecord:
    names = tuple(players) if not isinstance(players, int) else tuple(f"P{i + 1}" for i in range(players))
    return GameRecord(rules, names, secret_bytes(seed), tuple(moves), first)


def record_to_json(record: GameRecord) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "variant": record.rules.name,
        "options": dict(record.rules.options),
        "players": list(record.players),
        "seed": record.seed.hex(),
        "first": record.first,
        "moves": [{"seat": seat, "move": move_to_json(move)} for seat, move in record.moves],
    }


def record_from_json(data: Mapping[str, Any]) -> GameRecord:
    if data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} document")
    return GameRecord(
        rules=rules_from_json({"variant": data["variant"], "options": data.get("options") or {}}),
        players=tuple(data["players"]),
        seed=bytes.fromhex(data["seed"]),
        moves=tuple((int(item["seat"]), move_from_json(item["move"])) for item in data["moves"]),
        first=data.get("first"),
    )


def replay(record: GameRecord | Mapping[str, Any]) -> GameState:
    """Play the record's moves from its deal; raises IllegalMoveError if one is refused."""
    if not isinstance(record, GameRecord):
        record = record_from_json(record)
    state = new_game(record.rules, list(record.players), record.seed, first=record.first)
    for seat, move in record.moves:
        state = apply_move(state, seat, move).state
    return state


def verify_deal(
    rules: Rules,
    players: int,
    round_seed: bytes | str,
    first: int,
    *,
    expected_commitment: str | None = None,
    hands: Sequence[Sequence[Card]] | None = None,
    atu: Card | None = None,
) -> dict[str, Any]:
    """Recompute a round's deal from its revealed seed and compare it with what was published.

    Returns ``{"ok": bool, "commitment_ok": bool | None, "hands_ok": bool | None, ...}`` with the
    recomputed hands and atu.
    """
    seed = bytes.fromhex(round_seed) if isinstance(round_seed, str) else round_seed
    dealt, dealt_atu, stock = deal_cards(rules, players, seed, first)
    commitment_ok = None if expected_commitment is None else commitment(seed) == expected_commitment
    hands_ok = None
    if hands is not None:
        hands_ok = [sorted(map(str, h)) for h in hands] == [sorted(map(str, h)) for h in dealt]
    atu_ok = None if atu is None else (dealt_atu is not None and atu == dealt_atu)
    checks = [c for c in (commitment_ok, hands_ok, atu_ok) if c is not None]
    return {
        "ok": all(checks),
        "commitment_ok": commitment_ok,
        "hands_ok": hands_ok,
        "atu_ok": atu_ok,
        "hands": [[str(c) for c in h] for h in dealt],
        "atu": str(dealt_atu) if dealt_atu else None,
        "stock_size": len(stock),
    }


def round_seeds(record: GameRecord, rounds: int) -> list[str]:
    """The seeds of rounds 1..rounds (what a site reveals after each round)."""
    return [deal_seed(record.seed, k).hex() for k in range(1, rounds + 1)]
