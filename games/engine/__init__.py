"""Remi's rules engine: pure Python, standard library only, deterministic given a seed.

>>> from games.engine import variant, new_game, legal_moves, apply_move, view_for
>>> rules = variant("remik51")
>>> state = new_game(rules, players=3, seed=2026)
>>> view = view_for(state, state.turn)
>>> len(view["hand"]), view["phase"]          # the dealer holds 14 and plays without drawing
(14, 'play')
>>> move = next(m for m in legal_moves(state, state.turn) if m.__class__.__name__ == "Discard")
>>> state = apply_move(state, state.turn, move).state
>>> view_for(state, None)["hand"] is None     # spectators see no hand
True
"""

from .cards import Card, format_cards, parse_card, parse_cards
from .deal import commitment, deal_seed, seed_book, sub_seed
from .errors import CodedError, IllegalMoveError, InvalidMeldError, MalformedMoveError
from .events import Event, events_for
from .game import apply_move, choose_first, end_match, legal_moves, new_game, next_match_first
from .melds import Meld, MeldPolicy, read_meld
from .moves import (
    Discard,
    DrawStock,
    Exchange,
    Knock,
    LayOff,
    Move,
    Pass,
    Play,
    TakeDiscard,
    card_text,
    move_from_json,
    move_text,
    move_to_json,
)
from .notes import NOTE_KINDS, read_note
from .notes import TEXT_FIELDS as NOTE_TEXT_FIELDS
from .notes import rules_of as note_rules
from .perspective import view_for
from .positions import gin_position, position
from .record_check import iter_round_steps, round_steps, verify_record
from .records import FORMAT as RECORD_FORMAT
from .records import record_from_json, record_to_json, replay, verify_deal
from .rules import Rules, variant, variant_names
from .scoring import ScoreLine
from .state import (
    GameState,
    TableMeld,
    Transition,
    atu_of,
    free_atu,
    opened_seats,
    state_from_json,
    state_to_json,
    upgrade_state_json,
)

__all__ = [
    "NOTE_KINDS",
    "NOTE_TEXT_FIELDS",
    "RECORD_FORMAT",
    "Card",
    "CodedError",
    "Discard",
    "DrawStock",
    "Event",
    "Exchange",
    "GameState",
    "IllegalMoveError",
    "InvalidMeldError",
    "Knock",
    "LayOff",
    "MalformedMoveError",
    "Meld",
    "MeldPolicy",
    "Move",
    "Pass",
    "Play",
    "Rules",
    "ScoreLine",
    "TableMeld",
    "TakeDiscard",
    "Transition",
    "apply_move",
    "atu_of",
    "card_text",
    "choose_first",
    "commitment",
    "deal_seed",
    "end_match",
    "events_for",
    "format_cards",
    "free_atu",
    "gin_position",
    "iter_round_steps",
    "legal_moves",
    "move_from_json",
    "move_text",
    "move_to_json",
    "new_game",
    "next_match_first",
    "note_rules",
    "opened_seats",
    "parse_card",
    "parse_cards",
    "position",
    "read_meld",
    "read_note",
    "record_from_json",
    "record_to_json",
    "replay",
    "round_steps",
    "seed_book",
    "state_from_json",
    "state_to_json",
    "sub_seed",
    "upgrade_state_json",
    "variant",
    "variant_names",
    "verify_deal",
    "verify_record",
    "view_for",
]
