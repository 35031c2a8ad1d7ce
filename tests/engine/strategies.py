"""Hypothesis strategies and helpers for the rules engine's property tests.

* ``RULE_SETS`` lists the rummy family's variant/option combinations; ``ALL_RULE_SETS`` adds the gin
  family's and Knock-108's, so that every variant of ``variant_names()`` has some.
* ``hands`` draws hands from a rule set's pack; ``meldy_hands`` draws small hands rich in melds.
* ``playthroughs`` draws a *reachable* game of one variant: ``new_game`` with a random seed and seat
  count, then a random number of moves, each chosen from ``legal_moves`` (in the gin family and
  Knock-108 mixed with the normal bot's moves, so that deals end by knocks, replies and special
  hands rather than by an empty stock). A playthrough keeps every state,
  the moves, their events and the legal moves offered at each state, and its ``repr`` is the recipe
  (:class:`Recipe`) that rebuilds it, so a falsifying example can be replayed with ``play(recipe)``.
* ``garbage_moves`` draws moves that are mostly illegal (cards not in hand, random triples, takes at
  random depths, unknown meld ids, wrong seats); ``odd_moves`` the passes and knocks of the gin
  family and Knock-108 at any time, with any cards.

Kept free of Django: the engine tests need no database.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

from hypothesis import strategies as st

from games.engine import (
    Card,
    Discard,
    DrawStock,
    Exchange,
    GameState,
    InvalidMeldError,
    Knock,
    LayOff,
    Pass,
    Play,
    TakeDiscard,
    apply_move,
    free_atu,
    legal_moves,
    new_game,
    position,
    variant,
    view_for,
)
from games.engine.bots import NormalBot
from games.engine.events import Event
from games.engine.moves import Move
from games.engine.rules import Rules, family_of

# --- rule sets ---------------------------------------------------------------------------------

#: (variant, options) pairs. Small penalty limits / round counts make matches end, so "over" states
#: are reachable too.
R51_OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"jokers_per_deck": 3},
    {"jokers_per_deck": 3, "joker_penalty": 50, "penalty_limit": 50},
    {"joker_penalty": 25, "penalty_limit": 60, "lowest_tie": "extra_round"},
    {"max_players": 6},
)
REMI_OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"opening": "classic"},
    {"opening": "51"},
    {"short_game": True},
    {"short_game": True, "opening": "classic", "rounds": 2},
    {"row_visible_depth": 3},
    {"rounds": 1},
    {"opening": "classic", "target": 150},
)
R500_OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"two_decks_for_four": True},
    {"target": 100},
    {"max_players": 3, "target": 60},
)
R40_OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"low_ace_value": 1},
    {"max_jokers_per_meld": 2},
    {"stake": 250, "winner_share_2": 100, "winner_share_3": 90, "winner_share_4": 80},
    {"max_players": 2},
)
RULE_SETS: tuple[tuple[str, dict[str, Any]], ...] = tuple(
    [("remik51", o) for o in R51_OPTION_SETS]
    + [("remi", o) for o in REMI_OPTION_SETS]
    + [("rummy500", o) for o in R500_OPTION_SETS]
    + [("remik40", o) for o in R40_OPTION_SETS]
)
#: Small targets make gin matches and Oklahoma's three columns end.
GIN_OPTION_SETS: tuple[dict[str, Any], ...] = ({}, {"target": 10})
K108_OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"full_sequence": True},
    {"joker_limits": "none"},
    {"stake": 2, "special_hand_stakes": 0},
    {"max_players": 3, "full_sequence": True, "joker_limits": "none", "special_hand_stakes": 4},
)
#: Every variant's rule sets: the rummy family's, the gin family's and Knock-108's.
ALL_RULE_SETS: tuple[tuple[str, dict[str, Any]], ...] = (
    RULE_SETS
    + tuple(("gin", o) for o in GIN_OPTION_SETS)
    + tuple(("oklahoma", o) for o in GIN_OPTION_SETS)
    + tuple(("knock108", o) for o in K108_OPTION_SETS)
)


def make_rules(name: str, options: dict[str, Any]) -> Rules:
    return variant(name, **options)


def rule_sets(name: str | None = None) -> st.SearchStrategy[Rules]:
    """A rule set of ``RULE_SETS`` (only variant ``name`` if given)."""
    pairs = [pair for pair in RULE_SETS if name is None or pair[0] == name]
    return st.sampled_from(pairs).map(lambda pair: make_rules(*pair))


def max_jokers_in_hand(rules: Rules) -> int:
    return 4 if rules.name == "remik51" else 2


# --- cards and hands ---------------------------------------------------------------------------

CARD_ID_RE = re.compile(r"(?:[2-9TJQKA][SHDC]|JK)#[0-9]+")


def card_ids_in(text: str) -> set[str]:
    """Every physical card id (``7H#2``, ``JK#3``) written in ``text``."""
    return set(CARD_ID_RE.findall(text))


def ids(cards: Iterable[Card]) -> list[str]:
    return [card.id for card in cards]


@st.composite
def hands(
    draw: st.DrawFn, rules: Rules, min_size: int = 1, max_size: int = 15, max_jokers: int | None = None
) -> tuple[Card, ...]:
    """A hand of distinct physical cards of ``rules``' pack, with 0..4 (Remik 51) / 0..2 (Remi) jokers."""
    pack = rules.pack()
    naturals = [c for c in pack if not c.is_joker]
    jokers = [c for c in pack if c.is_joker]
    limit = min(len(jokers), max_jokers_in_hand(rules) if max_jokers is None else max_jokers)
    n_jokers = draw(st.integers(0, min(limit, max_size)))
    chosen_jokers = draw(st.permutations(jokers))[:n_jokers]
    n_naturals = draw(st.integers(max(0, min_size - n_jokers), max_size - n_jokers))
    chosen = draw(st.lists(st.sampled_from(naturals), min_size=n_naturals, max_size=n_naturals, unique=True))
    return tuple(draw(st.permutations([*chosen, *chosen_jokers])))


_WINDOW_RANKS = "A23456789TJQKA"


@st.composite
def meldy_hands(
    draw: st.DrawFn, rules: Rules, min_size: int = 5, max_size: int = 9, max_jokers: int = 2
) -> tuple[Card, ...]:
    """A small hand drawn from a few suits and a window of neighbouring ranks (both copies), so it
    holds sets, runs, duplicates and ace-high/low chances; sometimes from the whole pack."""
    pack = rules.pack()
    if draw(st.integers(0, 4)) == 0:
        return draw(hands(rules, min_size, max_size, max_jokers))
    width = draw(st.integers(3, 6))
    start = draw(st.integers(0, len(_WINDOW_RANKS) - width))
    ranks = set(_WINDOW_RANKS[start : start + width])
    suits = set(draw(st.lists(st.sampled_from("SHDC"), min_size=1, max_size=4, unique=True)))
    universe = [c for c in pack if not c.is_joker and c.rank in ranks and c.suit in suits]
    jokers = [c for c in pack if c.is_joker]
    n_jokers = draw(st.integers(0, min(max_jokers, len(jokers))))
    wanted = max(min_size - n_jokers, 0)
    n_naturals = draw(st.integers(min(wanted, len(universe)), min(max_size - n_jokers, len(universe))))
    chosen = draw(st.lists(st.sampled_from(universe), min_size=n_naturals, max_size=n_naturals, unique=True))
    if len(chosen) < wanted:  # the window is too small for the hand: top up from the rest of the pack
        rest = [c for c in pack if not c.is_joker and c not in chosen]
        more = wanted - len(chosen)
        chosen += draw(st.lists(st.sampled_from(rest), min_size=more, max_size=more, unique=True))
    return tuple(draw(st.permutations([*chosen, *jokers[:n_jokers]])))


# --- reachable states --------------------------------------------------------------------------


@dataclass(frozen=True)
class Recipe:
    """Everything needed to rebuild a playthrough: ``play(recipe)``."""

    variant: str
    options: tuple[tuple[str, Any], ...]
    players: int | tuple[str, ...]
    seed: int
    first: int | None
    choice_seed: int
    #: How often random play prefers a play or a take (the rummy family); None: every legal move
    #: alike (see ``pick_move``).
    prefer_play: float | None
    max_moves: int
    until_rounds: int | None = None
    #: Start from ``SCENARIOS[scenario]`` (a hand-built position) instead of a deal.
    scenario: str | None = None
    #: The share of moves the normal bot makes (the gin family and Knock-108: so deals reach the
    #: knock, the reply, gin and the special hands).
    bot_share: float = 0.0
    #: The share of the other moves that are a knock, when one is legal (gin: so knocks are made
    #: with more than the least deadwood, and undercuts happen).
    knock_share: float = 0.0

    @property
    def rules(self) -> Rules:
        return make_rules(self.variant, dict(self.options))


class Playthrough:
    """A played game. Not a dataclass, so that Hypothesis prints only the recipe."""

    def __init__(self, recipe: Recipe, rules: Rules, start: GameState) -> None:
        self.recipe = recipe
        self.rules = rules
        #: ``states[0]`` is the deal; ``states[i + 1]`` follows ``moves[i]``.
        self.states: list[GameState] = [start]
        self.moves: list[tuple[int, Move]] = []
        self.events: list[tuple[Event, ...]] = []
        #: ``options[i]`` is ``legal_moves(states[i], states[i].turn)`` (empty once the match is over).
        self.options: list[list[Move]] = []
        #: Random play stopped before a huge hand (see ``HUGE_HAND``).
        self.stopped_early = False

    def __repr__(self) -> str:
        return f"play({self.recipe!r})  # {len(self.moves)} moves"

    @property
    def final(self) -> GameState:
        return self.states[-1]

    def round_ends(self) -> list[int]:
        """Indexes ``i`` such that ``moves[i]`` ended a round."""
        return [
            i for i in range(len(self.moves)) if len(self.states[i + 1].results) > len(self.states[i].results)
        ]


def is_composite(move: Move) -> bool:
    return isinstance(move, (Play, TakeDiscard))


def choose_move(moves: Sequence[Move], rng: random.Random, prefer_play: float) -> Move:
    """A random move, a play or take with probability ``prefer_play`` when one is offered."""
    composite = [m for m in moves if is_composite(m)]
    if composite and rng.random() < prefer_play:
        return rng.choice(composite)
    simple = [m for m in moves if not is_composite(m)]
    return rng.choice(simple or list(moves))


#: A Remi deep take (RMI-31) can give a seat 50-60 cards. The exact search then hands over to its
#: bounded split (search.STATE_LIMIT; see test_random_games.py::
#: test_legal_moves_answers_in_seconds_for_a_59_card_remi_hand), which takes about a second per call,
#: so random play stops before such a state to keep the suite fast.
HUGE_HAND: int | None = 44


def too_big(state: GameState) -> bool:
    """The seat to move holds more than ``HUGE_HAND`` cards (see there)."""
    return HUGE_HAND is not None and state.phase != "over" and len(state.hands[state.turn]) > HUGE_HAND


BOT = NormalBot()


def pick_move(state: GameState, offered: Sequence[Move], rng: random.Random, recipe: Recipe) -> Move:
    """The recipe's next move: the bot's (``bot_share``), a knock (``knock_share``), else a random
    legal move (``choose_move`` when the recipe prefers plays, else any legal move alike)."""
    if recipe.bot_share and rng.random() < recipe.bot_share:
        return BOT.choose_move(view_for(state, state.turn))
    if recipe.knock_share:
        knocks = [m for m in offered if isinstance(m, Knock)]
        if knocks and rng.random() < recipe.knock_share:
            return rng.choice(knocks)
    if recipe.prefer_play is None:
        return rng.choice(offered)
    return choose_move(offered, rng, recipe.prefer_play)


def play(recipe: Recipe) -> Playthrough:
    rules = recipe.rules
    players = list(recipe.players) if isinstance(recipe.players, tuple) else recipe.players
    if recipe.scenario is not None:
        state = SCENARIOS[recipe.scenario](recipe.seed)
    else:
        state = new_game(rules, players, recipe.seed, first=recipe.first)
    rng = random.Random(recipe.choice_seed)
    pt = Playthrough(recipe, rules, state)
    while len(pt.moves) < recipe.max_moves and state.phase != "over":
        if recipe.until_rounds is not None and len(state.results) >= recipe.until_rounds:
            break
        seat = state.turn
        offered = legal_moves(state, seat)
        pt.options.append(offered)
        move = pick_move(state, offered, rng, recipe)
        transition = apply_move(state, seat, move)
        if too_big(transition.state):
            pt.stopped_early = True  # see HUGE_HAND: the playthrough ends before the huge hand
            break
        state = transition.state
        pt.moves.append((seat, move))
        pt.events.append(transition.events)
        pt.states.append(state)
    if len(pt.options) < len(pt.states):
        pt.options.append(legal_moves(state, state.turn) if state.phase != "over" else [])
    return pt


NAMES = ("Ana", "Bogdan", "Cezar", "Dana", "Emil", "Filip", "Gosia", "Henryk")


#: A number of moves, or one per variant or family name (the variant's name first).
PerVariant = int | Mapping[str, int]


def _for(value: PerVariant | None, name: str) -> int | None:
    if value is None or isinstance(value, int):
        return value
    return value.get(name, value.get(family_of(name)))


@st.composite
def recipes(
    draw: st.DrawFn,
    name: str | None = None,
    max_moves: PerVariant = 80,
    min_moves: PerVariant = 0,
    until_rounds: PerVariant | None = None,
    prefer_play: st.SearchStrategy[float] | None = None,
) -> Recipe:
    """A recipe of variant ``name`` (None: one of the rummy family's ``RULE_SETS``)."""
    pairs = [pair for pair in ALL_RULE_SETS if pair[0] == name] if name is not None else list(RULE_SETS)
    variant_name, options = draw(st.sampled_from(pairs))
    rules = make_rules(variant_name, options)
    count = draw(st.integers(rules.min_players, rules.max_players))
    players: int | tuple[str, ...] = count if draw(st.booleans()) else NAMES[:count]
    first = draw(st.none() | st.integers(0, count - 1))
    family = rules.family
    bot_share, knock_share, play_share = 0.0, 0.0, None
    if family == "rummy":
        play_share = draw(prefer_play if prefer_play is not None else st.sampled_from([0.0, 0.5, 0.9]))
    elif family == "gin":
        bot_share, knock_share = draw(st.sampled_from([0.0, 0.5, 0.8, 1.0])), 0.5
    else:
        bot_share = draw(st.sampled_from([0.0, 0.6, 0.9, 1.0]))
    most = _for(max_moves, variant_name) or 0
    least = min(_for(min_moves, variant_name) or 0, most)
    return Recipe(
        variant=variant_name,
        options=tuple(sorted(options.items())),
        players=players,
        seed=draw(st.integers(0, 2**64)),
        first=first,
        choice_seed=draw(st.integers(0, 2**32)),
        prefer_play=play_share,
        max_moves=draw(st.integers(least, most)),
        until_rounds=_for(until_rounds, variant_name),
        bot_share=bot_share,
        knock_share=knock_share,
    )


def playthroughs(
    name: str | None = None,
    max_moves: PerVariant = 80,
    min_moves: PerVariant = 0,
    until_rounds: PerVariant | None = None,
    prefer_play: st.SearchStrategy[float] | None = None,
) -> st.SearchStrategy[Playthrough]:
    """Reachable games: a deal then up to ``max_moves`` legal moves (see the module note)."""
    return recipes(name, max_moves, min_moves, until_rounds, prefer_play).map(play)


# --- positions for rules random play seldom reaches ---------------------------------------------

_FULL_RUN = "A{s} 2{s} 3{s} 4{s} 5{s} 6{s} 7{s} 8{s} 9{s} T{s} J{s} Q{s} K{s}"


def _r51_exchange(seed: int) -> GameState:
    """R51-DX7: seat 0 has opened and can exchange the joker of [4D JK(5D) 6D] into 9S 9H JK(9D)."""
    return position(
        variant("remik51"),
        hands=["5D 9S 9H 2C KD QH", "7C 8C 9C 3H", "4S 4H"],
        melds=[(1, "4D JK(5D) 6D"), (0, "9D TD JD QD")],
        turn=0,
        phase="play",
        seed=seed,
    )


def _r51_one_go(seed: int) -> GameState:
    """R51-DX5: the dealer can lay 13 cards in one go; the other seat holds R51-EX8's hand."""
    return position(
        variant("remik51"),
        hands=["9S TS JS 8H 8D 8C 2C 3C 4C 5C KS KH KD 7S", "JK AD 7C 2D 3D 4D 9H 9H 6S 6H 6D QC 2H"],
        turn=0,
        first=0,
        phase="play",
        turns_started=[1, 0],
        seed=seed,
    )


def _r51_empty_stock(seed: int) -> GameState:
    """R51-38/Q9: every natural card is on the table, the stock is empty and the pile holds one joker:
    a draw must end the round with no winner (a void round)."""
    runs = [(i % 2, _FULL_RUN.format(s=suit)) for i, suit in enumerate("SHDCSHDC")]
    return position(
        variant("remik51"),
        hands=["JK JK", "JK"],
        melds=runs,
        discard="JK",
        stock="",
        turn=0,
        phase="draw",
        seed=seed,
    )


def _r51_reshuffle(seed: int) -> GameState:
    """R51-38: the stock is empty and the pile holds several cards: a draw reshuffles it."""
    runs = [(i % 3, _FULL_RUN.format(s=suit)) for i, suit in enumerate("SHDCSHDC")]
    return position(
        variant("remik51", jokers_per_deck=3),
        hands=["JK JK", "JK", "JK"],
        melds=runs,
        discard="JK JK",
        stock="",
        turn=0,
        phase="draw",
        seed=seed,
    )


def _remi_atu(seed: int) -> GameState:
    """RMI-DX8: atu TC; seat 0 has opened and holds 8C 9C 5D: it may pull the atu into 8C 9C TC."""
    return position(
        variant("remi"),
        hands=["8C 9C 5D", "QS 5D JK 4H", "2S 2H"],
        melds=[(0, "3H 4H 5H 6H"), (1, "KS KH KD")],
        atu="TC",
        turn=0,
        phase="play",
        seed=seed,
    )


def _remi_stock_out(seed: int) -> GameState:
    """RMI-50/Q9: the stock is empty (atu AC: a doubled round); the next draw ends the round."""
    runs = [(i % 2, _FULL_RUN.format(s=suit)) for i, suit in enumerate("SHDCSHD")]
    runs.append((1, "2C 3C 4C 5C 6C 7C 8C 9C"))
    return position(
        variant("remi"),
        hands=["TC JC JK", "QC KC JK"],
        melds=runs,
        atu="AC",
        stock="",
        turn=0,
        phase="play",
        seed=seed,
    )


def _r500_deep_take(seed: int) -> GameState:
    """R500-9/Q6: a long fanned pile; seat 0 can reach the 9S with 9H 9D from its hand, and the
    cards above it (7C 8C ...) fit a run with its 5C 6C."""
    return position(
        variant("rummy500"),
        hands=["9H 9D 5C 6C 2S", "KS KH 3D", "AH 2H 4S"],
        discard="4C 9S 7C 8C 2D KC QD",
        melds=[(1, "TS JS QS")],
        turn=0,
        phase="draw",
        seed=seed,
    )


def _r500_stock_out(seed: int) -> GameState:
    """R500-Q7: the stock is empty; the pile can still be taken, else a draw ends the deal."""
    runs = [(i % 2, _FULL_RUN.format(s=suit)) for i, suit in enumerate("SHD")]
    return position(
        variant("rummy500"),
        hands=["2C 3C 9C", "5C 6C JC"],
        melds=runs,
        discard="AC 4C 7C 8C TC QC",
        stock="KC",
        turn=0,
        phase="draw",
        seed=seed,
    )


def _r40_recovery(seed: int) -> GameState:
    """R40-21/22 (EX3, DX3): seat 0 has opened and holds 3S 3D (the set's joker) and 6D (the run's)."""
    return position(
        variant("remik40"),
        hands=["3S 3D 6D 9S 9H 2C KD", "4H 5H 7C 8C", "QS QH 2D 2H"],
        melds=[(1, "3H 3C JK"), (2, "5D JK(6D) 7D"), (0, "TS JS QS")],
        turn=0,
        phase="play",
        seed=seed,
    )


def _r40_remik(seed: int) -> GameState:
    """R40-26/28 (DX2): seat 0 can lay all but one card in one turn, a Remik (+25 to the others)."""
    return position(
        variant("remik40"),
        hands=["9S TS JS 8H 8D 8C 2C 3C 4C 5C KS KH KD", "7C QD AS JK 2H 2D 5S 6S 7S 9D TD JD 3H"],
        turn=0,
        phase="draw",
        seed=seed,
    )


def _r40_reshuffle(seed: int) -> GameState:
    """R40-11/Q15: the stock is empty and the pile holds cards: a draw rebuilds the stock."""
    runs = [(i % 2, _FULL_RUN.format(s=suit)) for i, suit in enumerate("SHDCSHD")]
    runs.append((1, "2C 3C 4C 5C 6C 7C 8C"))
    return position(
        variant("remik40"),
        hands=["JK 9C", "JK TC"],
        melds=runs,
        discard="JC QC KC AC",
        stock="",
        turn=0,
        phase="draw",
        seed=seed,
    )


def _remi_buyback(seed: int) -> GameState:
    """RMI-DX4: seat 1 laid TS JK(JS) QS; seat 0 has opened and holds JS."""
    return position(
        variant("remi", opening="classic"),
        hands=["JS 7D 8D 9D 2C", "4C 4H"],
        melds=[(1, "TS JK(JS) QS"), (0, "5H 6H 7H")],
        atu="3D",
        turn=0,
        phase="play",
        seed=seed,
    )


SCENARIOS = {
    "r51_exchange": _r51_exchange,
    "r51_one_go": _r51_one_go,
    "r51_empty_stock": _r51_empty_stock,
    "r51_reshuffle": _r51_reshuffle,
    "remi_atu": _remi_atu,
    "remi_stock_out": _remi_stock_out,
    "remi_buyback": _remi_buyback,
    "r500_deep_take": _r500_deep_take,
    "r500_stock_out": _r500_stock_out,
    "r40_recovery": _r40_recovery,
    "r40_remik": _r40_remik,
    "r40_reshuffle": _r40_reshuffle,
}


@st.composite
def scenario_recipes(draw: st.DrawFn, max_moves: int = 60) -> Recipe:
    scenario = draw(st.sampled_from(sorted(SCENARIOS)))
    start = SCENARIOS[scenario](0)
    return Recipe(
        variant=start.rules.name,
        options=tuple(sorted(start.rules.options.items())),
        players=start.players,
        seed=draw(st.integers(0, 2**32)),
        first=None,
        choice_seed=draw(st.integers(0, 2**32)),
        prefer_play=draw(st.sampled_from([0.0, 0.5, 1.0])),
        max_moves=draw(st.integers(0, max_moves)),
        scenario=scenario,
    )


def scenario_playthroughs(max_moves: int = 60) -> st.SearchStrategy[Playthrough]:
    """Random legal play from the hand-built positions of ``SCENARIOS``."""
    return scenario_recipes(max_moves).map(play)


def reachable_states(name: str | None = None, max_moves: int = 80) -> st.SearchStrategy[GameState]:
    """One reachable state (the last of a playthrough)."""
    return playthroughs(name, max_moves).map(lambda pt: pt.final)


# --- invariants shared by several test files ---------------------------------------------------


def physical_cards(state: GameState) -> list[str]:
    """Ids of every card in a hand, the stock, the discard pile, a table meld, or the untaken atu."""
    out: list[str] = []
    for hand in state.hands:
        out += ids(hand)
    out += ids(state.stock)
    out += ids(state.discard)
    for table_meld in state.melds:
        out += ids(table_meld.cards)
    atu = free_atu(state)
    if atu is not None:
        out.append(atu.id)
    return out


def assert_conserved(state: GameState) -> None:
    """Every physical card of the pack is in exactly one place."""
    found = Counter(physical_cards(state))
    duplicates = sorted(card for card, n in found.items() if n > 1)
    assert not duplicates, f"cards in two places: {duplicates}"
    pack = Counter(ids(state.rules.pack_for(state.players)))
    missing = sorted(pack - found)
    extra = sorted(found - pack)
    assert not missing, f"cards lost: {missing}"
    assert not extra, f"cards not of this pack: {extra}"


# --- garbage moves -----------------------------------------------------------------------------


def _cards_like(state: GameState) -> st.SearchStrategy[Card]:
    """A card as a move may name it: from the hand, the pile, the table or anywhere in the pack, with
    a copy id (sometimes an impossible one) or without, jokers sometimes declared."""
    pack = state.rules.pack()
    seat_hand = state.hands[state.turn]
    table = [c.bare() for m in state.melds for c in m.cards]
    sources = [list(pack)]
    for extra in (list(seat_hand), list(state.discard), table):
        if extra:
            sources.append(extra)
    base = st.sampled_from(sources).flatmap(st.sampled_from)
    naturals = [c for c in pack if not c.is_joker] or list(pack)

    def dress(card: Card, copy_mode: int, declared: Card | None) -> Card:
        copy = card.copy if copy_mode == 0 else (0 if copy_mode == 1 else 9)
        stands_for = Card(declared.rank, declared.suit) if card.is_joker and declared is not None else None
        return Card(card.rank, card.suit, copy, stands_for)

    return st.builds(
        dress,
        base,
        st.sampled_from([0, 0, 0, 1, 1, 2]),
        st.none() | st.sampled_from(naturals),
    )


def _meld_ids(state: GameState) -> st.SearchStrategy[int]:
    known = [m.id for m in state.melds]
    wild = st.integers(-1, state.next_meld_id + 2)
    return st.sampled_from(known) | wild if known else wild


def _plays(state: GameState, extra_cards: Sequence[Card] = ()) -> st.SearchStrategy[Play]:
    card = _cards_like(state)
    hand = list(state.hands[state.turn]) + list(extra_cards)
    from_hand = (
        st.lists(st.sampled_from(hand), min_size=1, max_size=6) if hand else st.lists(card, max_size=4)
    )
    meld = st.one_of(st.lists(card, min_size=3, max_size=3), st.lists(card, max_size=5), from_hand).map(tuple)
    layoff = st.builds(LayOff, _meld_ids(state), st.lists(card, max_size=3).map(tuple))
    exchange = st.builds(Exchange, _meld_ids(state), card)
    return st.builds(
        Play,
        st.lists(meld, max_size=3).map(tuple),
        st.lists(layoff, max_size=2).map(tuple),
        st.lists(exchange, max_size=2).map(tuple),
    )


@st.composite
def garbage_moves(draw: st.DrawFn, state: GameState) -> tuple[int, Move]:
    """A (seat, move) that is usually illegal in ``state``."""
    seats = st.integers(-1, state.players) if draw(st.integers(0, 5)) == 0 else st.just(state.turn)
    seat = draw(seats)
    kind = draw(
        st.sampled_from(["discard", "draw", "play", "take", "take", "play", "plausible", "plausible"])
    )
    if kind == "plausible":
        return seat, draw(st.sampled_from(plausible_moves(state)))
    if kind == "discard":
        return seat, Discard(draw(_cards_like(state)))
    if kind == "draw":
        return seat, DrawStock()
    if kind == "play":
        return seat, draw(_plays(state))
    # A take at a random depth (or a card not in the pile), with a play that may use the taken cards.
    pile = list(state.discard)
    if pile and draw(st.booleans()):
        depth = draw(st.integers(1, len(pile)))
        picked: Card | None = pile[-depth]
        extra = pile[-depth:]
    else:
        picked = draw(st.none() | _cards_like(state))
        extra = pile[-1:]
    return seat, TakeDiscard(picked, draw(_plays(state, extra)))


@st.composite
def odd_moves(draw: st.DrawFn, state: GameState) -> tuple[int, Move]:
    """A (seat, move) of the kinds the gin family and Knock-108 add, mostly illegal in ``state``:
    passes and knocks at any time (with random discards and melds, one card three times), takes
    and discards of any card, plays in the wrong step, by the seat to move or another."""
    seat = draw(
        st.sampled_from([state.turn, state.turn, (state.turn + 1) % state.players, -1, state.players])
    )
    pack = state.rules.pack()
    hand = list(state.hands[state.turn]) or list(pack[:5])
    card = st.sampled_from(hand) | st.sampled_from(pack)
    meld = st.lists(card, max_size=5).map(tuple)
    kind = draw(st.sampled_from(["pass", "knock", "knock", "thrice", "play", "take", "discard"]))
    if kind == "pass":
        return seat, Pass()
    if kind == "knock":
        return seat, Knock(draw(st.none() | card), tuple(draw(st.lists(meld, max_size=3))))
    if kind == "thrice":
        one = draw(card)
        return seat, Knock(None, ((one, one, one),))
    if kind == "take":
        return seat, TakeDiscard(draw(st.none() | card), Play())
    if kind == "discard":
        return seat, Discard(draw(card))
    meld_ids = st.integers(-1, state.next_meld_id + 1)
    layoffs = st.lists(st.builds(LayOff, meld_ids, meld), max_size=2).map(tuple)
    return seat, Play(tuple(draw(st.lists(meld, max_size=2))), draw(layoffs))


def plausible_moves(state: GameState) -> list[Move]:
    """Moves built from the position that stand a fair chance of being legal, including some
    ``legal_moves`` never offers: melds holding the atu, every joker exchange, deep takes with the
    best melds of hand + taken cards, single lay-offs."""
    rules = state.rules
    hand = list(state.hands[state.turn])
    atu = [free] if (free := free_atu(state)) is not None else []
    out: list[Move] = [DrawStock()]
    melds, _ = rules.best_melds(hand + atu)
    if melds:
        out.append(Play(melds=tuple(m.cards for m in melds)))
    out += [Play(melds=(m.cards,)) for m in melds]
    for table_meld in state.melds:
        for slot, represented in zip(table_meld.cards, table_meld.meld.represented, strict=True):
            if not slot.is_joker:
                continue
            for card in hand:
                if card.is_joker or card.rank != represented.rank:
                    continue
                exchange = Exchange(table_meld.id, card)
                out.append(Play(exchanges=(exchange,)))
                rest = [c for c in hand if c != card] + [slot.bare()]
                for meld in rules.best_melds(rest)[0]:
                    if slot.bare() in meld.cards:
                        out.append(Play(melds=(meld.cards,), exchanges=(exchange,)))
                # Remik 40 (R40-21/22): the joker laid off; a set's joker for two cards at once.
                joker = slot.bare().declared(Card(represented.rank, represented.suit))
                out.append(Play(exchanges=(exchange,), layoffs=(LayOff(table_meld.id, (joker,)),)))
                for other in hand:
                    if other != card and other.rank == card.rank and not other.is_joker:
                        pair = (exchange, Exchange(table_meld.id, other))
                        rest = [c for c in hand if c not in (card, other)] + [slot.bare()]
                        for meld in rules.best_melds(rest)[0]:
                            if slot.bare() in meld.cards:
                                out.append(Play(melds=(meld.cards,), exchanges=pair))
        out += [Play(layoffs=(LayOff(table_meld.id, (card,)),)) for card in hand]
    for depth in range(1, min(3, len(state.discard)) + 1):
        taken = list(state.discard[-depth:])
        take_melds, _ = rules.best_melds(hand + taken + atu)
        if take_melds:
            out.append(TakeDiscard(taken[0], Play(melds=tuple(m.cards for m in take_melds))))
        # Rummy 500 (R500-9): the card reached for melded with hand cards only, or laid off.
        own_melds, _ = rules.best_melds([*hand, taken[0]])
        holders = [m for m in own_melds if taken[0] in m.cards]
        if holders:
            out.append(TakeDiscard(taken[0], Play(melds=(holders[0].cards,))))
        for table_meld in state.melds:
            out.append(TakeDiscard(taken[0], Play(layoffs=(LayOff(table_meld.id, (taken[0],)),))))
    return out


# --- a brute-force referee for best_melds ----------------------------------------------------------


def brute_force_points(rules: Rules, cards: Sequence[Card]) -> int:
    """The most table points disjoint melds of ``cards`` lay: every subset of 3+ cards is tried as a
    set and as runs low to high with its jokers in every gap or at either end, valued by
    ``rules.meld_points`` (so the variant's own meld rules and values decide). For small hands."""
    cards = tuple(cards)
    values: dict[frozenset[int], int] = {}
    for size in range(3, len(cards) + 1):
        for combo in combinations(range(len(cards)), size):
            for attempt in _meld_orders([cards[i] for i in combo]):
                try:
                    value = rules.meld_points(attempt)
                except InvalidMeldError:
                    continue
                key = frozenset(combo)
                values[key] = max(values.get(key, 0), value)

    @cache
    def best(free: frozenset[int]) -> int:
        return max(
            (value + best(free - group) for group, value in values.items() if group <= free), default=0
        )

    return best(frozenset(range(len(cards))))


def _meld_orders(group: list[Card]) -> list[list[Card]]:
    """The group as written (a set), and as runs low to high with the jokers in every gap or end."""
    naturals = [c for c in group if not c.is_joker]
    jokers = [c for c in group if c.is_joker]
    out = [list(group)]
    for ace in (1, 14):
        place = {id(c): (ace if c.rank == "A" else "23456789TJQK".index(c.rank) + 2) for c in naturals}
        for start in range(1, 15):
            row: list[Card] = []
            spare = list(jokers)
            for slot in range(start, start + len(group)):
                card = next((c for c in naturals if place[id(c)] == slot), None)
                if card is not None:
                    row.append(card)
                elif spare:
                    row.append(spare.pop())
                else:
                    break
            if len(row) == len(group) and all(c in row for c in naturals):
                out.append(row)
    return out
