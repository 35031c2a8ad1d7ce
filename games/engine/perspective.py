"""What one seat may know: the only place hidden information is removed.

``view_for(state, seat)`` gives a JSON-able dict: the seat's own hand; the others' card counts; the
table melds with who placed each card; the discard pile/row; the stock *size*; the atu; the scores;
whose turn it is and the phase; and what this seat may do now. Never another hand, the stock order,
or the seed of a round still being played. ``seat=None`` is a spectator.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .cards import card_texts
from .deal import commitment, deal_seed
from .registry import cycle_of
from .state import GameState, TableMeld


def _meld_view(state: GameState, table_meld: TableMeld, consumed: set[str]) -> dict[str, Any]:
    meld = table_meld.meld
    return {
        "id": table_meld.id,
        "owner": table_meld.owner,
        "kind": meld.kind,
        "cards": card_texts(meld.cards),
        "placed_by": list(table_meld.placed_by),
        "points": state.rules.meld_value(meld),
        "consumed": [str(c.bare()) for c in meld.cards if c.is_joker and str(c.bare()) in consumed],
    }


@lru_cache(maxsize=1024)
def _round_commitment(secret: bytes, round_no: int) -> str:
    """The round's published commitment (``commitment(deal_seed(...))``: an HMAC and a SHA-256).

    Every move's frames are built for each seat and the spectators, all of the same round, so a
    move asked for it five times; a few hundred tables' rounds fit
    (docs/benchmarks.md, "What each server choice is worth").
    """
    return commitment(deal_seed(secret, round_no))


def view_for(state: GameState, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` may know (``None``: a spectator), as JSON-able data."""
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.players):
        raise ValueError(f"no seat {seat!r} at this table")
    rules = state.rules
    over = state.phase == "over"
    cycle = cycle_of(rules)
    own = cycle.view_extra(state, seat)
    consumed = own.pop("consumed_jokers")
    view: dict[str, Any] = {
        "variant": rules.name,
        "options": dict(rules.options),
        "players": state.players,
        "names": list(state.names),
        "seat": seat,
        "round": state.round_no,
        "first": state.first,
        "turn": state.turn,
        "phase": state.phase,
        "version": state.moves_played,
        "hand": card_texts(state.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(hand) for hand in state.hands],
        "stock_size": len(state.stock),
        "discard": card_texts(state.discard),
        "melds": [_meld_view(state, m, set(consumed)) for m in state.melds],
        "opened": own.pop("opened"),
        "atu": own.pop("atu"),
        "atu_taken_by": own.pop("atu_taken_by"),
        "turns_started": list(state.turns_started),
        "consumed_jokers": consumed,
        "commitment": _round_commitment(state.secret, state.round_no),
        "scores": {
            "rounds": [result.to_json() for result in state.results],
            "totals": list(state.totals),
        },
        "winners": list(state.winners) if over else None,
        "lower_wins": rules.lower_wins,
    }
    if over:
        # The last round is over too: its seed may be revealed.
        view["revealed_seed"] = deal_seed(state.secret, state.round_no).hex()
    # What only this family has (gin's block, Knock-108's stakes, Rummy 500's running tally, Remik
    # 40's prize pool): public facts, from its cycle's one hook.
    view.update(own)
    if seat is not None:
        view["you"] = cycle.seat_options(state, seat)
    return view
