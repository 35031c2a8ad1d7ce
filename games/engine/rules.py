"""Rule sets: what every variant shares, and the options a table can choose.

A rule set is a :class:`Rules` subclass in its family's package (``rummy/remik51.py``,
``gin/rules.py``, ...; docs/engine.md, "Families, rule sets and cycles"), registered under its
variant name, that states only how it differs: a few class attributes (deck, hand sizes, meld
limits, opening) and hooks (card values, round scoring, match end). Its family's turn cycle reads
them; it never asks which variant it is playing.

>>> rules = variant("remik51", penaltyLimit=300)
>>> rules.options["penalty_limit"], rules.options["joker_penalty"]
(300, 30)
>>> variant("remik51", jokers_per_deck=4)
Traceback (most recent call last):
...
ValueError: remik51: option jokers_per_deck must be one of 2, 3 (got 4)
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from .cards import Card, build_pack, parse_cards
from .errors import InvalidMeldError
from .melds import Meld, MeldPolicy, read_meld, reading_orders, value_reading
from .search import best_arrangement

if TYPE_CHECKING:
    from .scoring import LaidMeld, RoundFacts, RoundResult, ScoreLine


class MatchFacts(Protocol):
    """What a rule set's hooks read of the match (the rummy rule sets' ``table_facts``): the public
    facts of a :class:`~games.engine.state.GameState` (which has them all), named here so that the
    rules, which the state holds, need not know the state."""

    @property
    def rules(self) -> Rules: ...

    @property
    def players(self) -> int: ...

    @property
    def phase(self) -> str: ...

    @property
    def totals(self) -> tuple[int, ...]: ...

    @property
    def results(self) -> tuple[RoundResult, ...]: ...

    @property
    def melds(self) -> Sequence[LaidMeld]: ...


@dataclass(frozen=True, slots=True)
class Option:
    """One table option: its default, what values it takes, and a sentence for the room form."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    kind: type = int
    nullable: bool = False
    #: Other spellings accepted on input (values), e.g. {"extraRound": "extra_round"}.
    synonyms: tuple[tuple[Any, Any], ...] = ()
    #: Offered on the create-room and practice forms (``Rules.option_specs``). A hidden option is
    #: still accepted by ``variant()`` and stored with the state (the deal of the day sets one).
    in_forms: bool = True

    def validate(self, variant_name: str, value: Any) -> Any:
        value = dict(self.synonyms).get(value, value)
        if value is None:
            if self.nullable:
                return None
            raise ValueError(f"{variant_name}: option {self.name} needs a value")
        if self.kind is bool:
            if not isinstance(value, bool):
                raise ValueError(f"{variant_name}: option {self.name} must be true or false (got {value!r})")
        elif self.kind is int:
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{variant_name}: option {self.name} must be a whole number (got {value!r})")
        elif not isinstance(value, self.kind):
            raise ValueError(
                f"{variant_name}: option {self.name} must be a {self.kind.__name__} (got {value!r})"
            )
        if self.choices is not None and value not in self.choices:
            shown = ", ".join(str(c) for c in self.choices)
            raise ValueError(f"{variant_name}: option {self.name} must be one of {shown} (got {value!r})")
        if self.minimum is not None and value < self.minimum:
            raise ValueError(
                f"{variant_name}: option {self.name} must be at least {self.minimum} (got {value})"
            )
        if self.maximum is not None and value > self.maximum:
            raise ValueError(
                f"{variant_name}: option {self.name} must be at most {self.maximum} (got {value})"
            )
        return value

    def describe(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "default": self.default, "help": self.help}
        if self.choices is not None:
            data["choices"] = list(self.choices)
        if self.minimum is not None:
            data["min"] = self.minimum
        if self.maximum is not None:
            data["max"] = self.maximum
        data["type"] = self.kind.__name__
        data["nullable"] = self.nullable
        return data


#: The round limit every variant honours (docs/engine.md, "Round limit"): the match ends after
#: this many rounds, the last one scored and no next one dealt. Remi offers it on its forms (RMI-61);
#: the other variants take it hidden (``Rules.__init_subclass__``), for the deal of the day's one
#: round (games/daily.py), and end the match by their own rules when these come first.
ROUNDS = Option(
    "rounds",
    None,
    "End the match after this many rounds (empty: no round limit).",
    minimum=1,
    maximum=1000,
    nullable=True,
)


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


class Rules:
    """A rule set with its table options. Immutable; compare and hash by name and options."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    #: The family the rule set belongs to (one of :data:`FAMILIES`), whose turn cycle it plays:
    #: "rummy" (draw, meld, lay off, discard), "gin" (gin and Oklahoma: knock, the defender's
    #: reply) or "knock108". Bots are chosen by it. Each family's base rule set says it.
    family: ClassVar[str] = ""

    # --- deck and deal -----------------------------------------------------------------------
    min_players: ClassVar[int] = 2
    #: Penalty variants: lower totals win. Plus variants: higher totals win.
    lower_wins: ClassVar[bool] = True

    # --- melds -------------------------------------------------------------------------------
    policy: MeldPolicy = MeldPolicy()

    # --- turn rules (read by the rummy cycle, rummy/cycle.py and rummy/play.py) -------------
    #: "pure": the opening must include a run without jokers (R51-31); "any": any run (RMI-25).
    opening_run: ClassVar[Literal["pure", "any", "none"]] = "none"
    #: Nothing reaches the table in a seat's first turn of a round (RMI-19).
    first_turn_locked: ClassVar[bool] = False
    #: "top": only the top discard may be taken; "row": any visible depth after opening (RMI-31).
    discard_take: ClassVar[Literal["top", "row"]] = "top"
    #: Who deals first: "lot" (drawn from the match secret, RMI-Q1, R500-4, R40-Q13) or
    #: "high_card" (each player draws a card, the highest deals, R51-8).
    first_dealer: ClassVar[Literal["lot", "high_card"]] = "lot"
    #: Before opening, taking the discard requires going out in the same turn (R51-37).
    take_before_opening_must_go_out: ClassVar[bool] = False
    #: "remik": an exchanged joker must go into a new meld in the same move (R51-27);
    #: "buyback": it goes to the hand and is consumed (RMI-40..42).
    joker_exchange: ClassVar[Literal["remik", "buyback"]] = "remik"
    #: A joker may be laid off onto a table meld (R51-Q6 yes; RMI-37 never).
    joker_layoff: ClassVar[bool] = True
    #: Remi's atu piece, turned up beside the stock (RMI-14).
    has_atu: ClassVar[bool] = False
    #: When the stock is empty and a player must draw: "reshuffle" the pile minus its top card
    #: (R51-38) or "end" the round (RMI-50).
    stock_out: ClassVar[Literal["reshuffle", "end"]] = "reshuffle"
    #: False: there is no opening; every seat may lay off and take deep from the start (R500-19).
    opening_required: ClassVar[bool] = True
    #: The first player is dealt no extra card and starts by drawing (R500-6, R40-Q13).
    first_player_draws: ClassVar[bool] = False
    #: The deal passes to the left each game: a room's next match starts with the seat after the
    #: last one's first player (R40-Q13); False: each match draws its first dealer.
    deal_passes_each_match: ClassVar[bool] = False
    #: After the deal the next stock card is turned up to start the discard pile (R500-6).
    up_card: ClassVar[bool] = False
    #: A card taken from the discard pile may be laid off instead of going into a new meld
    #: (R500-Q5, R40-Q5).
    taken_card_layoff: ClassVar[bool] = False
    #: The meld holding a card taken from below the top uses only cards held before the take (R500-9).
    deep_take_from_hand: ClassVar[bool] = False
    #: A play may empty the hand and end the round without a discard (R500-Q4).
    go_out_by_melding: ClassVar[bool] = False
    #: An exchanged joker may be laid off onto a table meld instead of a new meld (R40-21).
    exchanged_joker_layoff: ClassVar[bool] = False
    #: Which cards free a set's joker: "suit" (its declared card, or any missing suit where set
    #: declarations do not bind); "all_missing": a three-card set's joker only for both missing
    #: cards, a four-card set's never (R40-22/23).
    set_joker_exchange: ClassVar[Literal["suit", "all_missing"]] = "suit"
    #: End the round void when no seat can ever go out: every hand too small for a new meld and no
    #: card off the table fits a table meld (a reshuffled stock would go round for ever, R40-Q15).
    end_when_stuck: ClassVar[bool] = False
    #: Rule ids the rummy cycle cites in its messages, where they differ from Remik 51's
    #: (``rummy.play.RULE_IDS``).
    rule_ids: ClassVar[Mapping[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Every variant takes the round limit; one that does not list it gets it hidden.
        if "OPTIONS" in cls.__dict__ and all(option.name != ROUNDS.name for option in cls.OPTIONS):
            cls.OPTIONS = (*cls.OPTIONS, replace(ROUNDS, in_forms=False))

    def __init__(self, **options: Any) -> None:
        specs = {option.name: option for option in self.OPTIONS}
        values: dict[str, Any] = {}
        for raw_name, value in options.items():
            name = _snake(raw_name)
            if name not in specs:
                known = ", ".join(sorted(specs))
                raise ValueError(f"{self.name}: unknown option {raw_name!r} (options: {known})")
            if name in values:
                raise ValueError(f"{self.name}: option {name} given twice")
            values[name] = specs[name].validate(self.name, value)
        for name, spec in specs.items():
            values.setdefault(name, spec.default)
        self._options = values
        self.check_options(values)

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Cross-option checks; raise ValueError."""

    @property
    def options(self) -> Mapping[str, Any]:
        return dict(self._options)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and (self.name, self._options) == (
            other.name,
            other._options,
        )

    def __hash__(self) -> int:
        # Options never change after __init__: the hash is worked out once. Every view of a move
        # hashes the rules (the opening hint's and the searches' caches are keyed by them).
        try:
            return self._hash
        except AttributeError:
            self._hash: int = hash((self.name, tuple(sorted(self._options.items()))))
            return self._hash

    def __getstate__(self) -> dict[str, Any]:
        # A str's hash differs from process to process: a pickled copy works its own out.
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    def __repr__(self) -> str:
        changed = {k: v for k, v in self._options.items() if v != self._option(k).default}
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"variant({self.name!r}{args})"

    def _option(self, name: str) -> Option:
        return next(option for option in self.OPTIONS if option.name == name)

    def to_json(self) -> dict[str, Any]:
        """The rules as stored with a state or record: every option, but a hidden one (off the
        forms, ``Option.in_forms``) only when set, so documents that do not use it keep the form
        they had before it existed (the round limit, docs/engine.md)."""
        specs = {option.name: option for option in self.OPTIONS}
        options = {
            name: value
            for name, value in self._options.items()
            if specs[name].in_forms or value != specs[name].default
        }
        return {"variant": self.name, "options": options}

    # --- per-variant facts (override) --------------------------------------------------------
    #: The most seats where the rule set offers no ``max_players`` option (gin and Oklahoma: 2).
    default_max_players: ClassVar[int] = 4

    @property
    def max_players(self) -> int:
        """The most seats at the table: the ``max_players`` option where the rule set offers one
        (Remik 51, Remi, Rummy 500, Remik 40, Knock-108), else ``default_max_players``."""
        seats = self._options.get("max_players")
        return self.default_max_players if seats is None else int(seats)

    @property
    def decks(self) -> int:
        return 2

    @property
    def jokers(self) -> int:
        return 0

    def pack(self) -> tuple[Card, ...]:
        return build_pack(self.decks, self.jokers)

    def pack_for(self, players: int) -> tuple[Card, ...]:
        """The pack a table of ``players`` plays with (Rummy 500's deck count depends on it)."""
        return self.pack()

    def hand_sizes(self, players: int, first: int) -> tuple[int, ...]:
        """How many cards each seat is dealt when ``first`` plays first."""
        raise NotImplementedError

    @property
    def opening_minimum(self) -> int:
        return 0

    @property
    def row_depth(self) -> int | None:
        """How many of the newest discards a take may reach in a row (RMI-Q8); None: all."""
        return None

    def card_value(self, represented: Card, kind: str, position: int) -> int:
        """What a card counts on the table, standing for ``represented`` at a run ``position``."""
        raise NotImplementedError

    def hand_value(self, card: Card) -> int:
        """What a card costs when left in hand at the end of a round."""
        raise NotImplementedError

    def score_round(self, facts: RoundFacts) -> tuple[ScoreLine, ...]:
        raise NotImplementedError

    def match_over(self, totals: Sequence[int], rounds_played: int) -> bool:
        """Is the match over after a scored round, by the variant's own rule (limit, target)?"""
        raise NotImplementedError

    @property
    def round_limit(self) -> int | None:
        """The table's round limit (the ``rounds`` option); None: no limit."""
        limit = self._options.get(ROUNDS.name)
        return None if limit is None else int(limit)

    def round_limit_reached(self, rounds_played: int) -> bool:
        """Has the match played its last round by the round limit? Every family asks this when it
        closes a round, before dealing the next (docs/engine.md, "Round limit")."""
        limit = self.round_limit
        return limit is not None and rounds_played >= limit

    def end_condition(self) -> str:
        """When the match ends and who wins, in one sentence (shown before a player sits down)."""
        options = self._options
        winner = "the lowest total wins" if self.lower_wins else "the highest total wins"
        if options.get("penalty_limit") is not None:
            limit = options["penalty_limit"]
            return f"The match ends when a player's total goes over {limit} penalty points; {winner}."
        if options.get("rounds") is not None:
            rounds = int(options["rounds"])
            return f"The match ends after {rounds} round{'s' if rounds != 1 else ''}; {winner}."
        if options.get("target") is not None:
            return f"The match ends when a player's total reaches {options['target']} points; {winner}."
        if "rounds" in options or "target" in options:
            return f"No round limit or target: the match goes on until the table is closed; {winner}."
        return f"The match ends as the rules say; {winner}."

    def describe(self) -> str:
        """The rule set in words, for the room-creation form."""
        lines = [f"{self.title}: {self.summary}"]
        for option in self.OPTIONS:
            if not option.in_forms:
                continue
            lines.append(f"- {option.help} Now: {self._options[option.name]!r}.")
        return "\n".join(lines)

    @classmethod
    def option_specs(cls) -> list[dict[str, Any]]:
        """The options the create-room and practice forms offer (hidden ones left out)."""
        return [option.describe() for option in cls.OPTIONS if option.in_forms]

    # --- the public helpers of the API -----------------------------------------------
    def meld_value(self, meld: Meld) -> int:
        return sum(
            self.card_value(rep, meld.kind, pos)
            for rep, pos in zip(meld.represented, meld.positions, strict=True)
        )

    def meld_points(self, cards: Iterable[Card] | str) -> int:
        """Points ``cards`` count when laid as a meld (opening / table points).

        Raises an :class:`~games.engine.errors.InvalidMeldError` subclass (stable ``code``) when
        they are not a valid meld of this variant.
        """
        seq = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
        return self.meld_value(value_reading(seq, self.policy))

    def hand_points(self, cards: Iterable[Card] | str) -> int:
        """What ``cards`` cost when left in hand at the end of a round (never negative)."""
        seq = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
        return sum(self.hand_value(card) for card in seq)

    def meld_reading(self, cards: Iterable[Card] | str) -> Meld:
        """The meld ``cards`` make as written, else in the first plausible order that makes them
        one (a run's cards sorted, jokers declared to fill its gaps; a set's jokers given free
        suits): how a group of cards put together on a rack reads.

        Raises the :class:`~games.engine.errors.InvalidMeldError` of the cards as written.

        >>> str(variant("remik51").meld_reading("JS 9S TS")), str(variant("remik51").meld_reading("7H JK 5H"))
        ('9S TS JS', '5H JK(6H) 7H')
        """
        seq = list(parse_cards(cards) if isinstance(cards, str) else cards)
        try:
            return read_meld(seq, self.policy)
        except InvalidMeldError as error:
            first_error = error
        try:
            orders = reading_orders(seq)
        except (KeyError, IndexError, ValueError):  # not a shape that can be ordered
            orders = []
        for order in orders:
            try:
                return read_meld(order, self.policy)
            except InvalidMeldError:
                continue
        raise first_error

    def best_melds(self, cards: Iterable[Card] | str) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
        """An arrangement of ``cards`` into melds that maximises the points laid.

        Ties go to the fewest leftover points. Returns ``(melds, leftover)``.
        """
        seq = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
        return best_arrangement(self, seq)


#: The families of the engine, each a package of it (``games/engine/<family>/``) holding its rule
#: sets, its turn cycle, its state and its bots (docs/engine.md, "Families, rule sets and cycles").
FAMILIES = ("rummy", "gin", "knock108")

_REGISTRY: dict[str, type[Rules]] = {}


def _register_rule_sets() -> None:
    """Import every family's package: its ``__init__`` imports its rule sets, which register
    themselves. By name, as a family's rule sets import this module and not the other way round."""
    for family in FAMILIES:
        importlib.import_module(f"{__package__}.{family}")


def register(cls: type[Rules]) -> type[Rules]:
    _REGISTRY[cls.name] = cls
    return cls


def variant(name: str, **options: Any) -> Rules:
    """The rule set ``name`` with table ``options`` (snake_case or the rule files' camelCase).

    Unknown names, unknown options and out-of-range values raise ``ValueError``.
    """
    _register_rule_sets()

    try:
        factory = _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown variant {name!r} (known: {known})") from None
    return factory(**options)


def variant_names() -> list[str]:
    _register_rule_sets()

    return sorted(_REGISTRY)


def family_of(name: str) -> str:
    """The family of variant ``name`` (see ``Rules.family``), without building its rules.

    >>> family_of("oklahoma"), family_of("remik40")
    ('gin', 'rummy')
    """
    _register_rule_sets()

    try:
        return _REGISTRY[name].family
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown variant {name!r} (known: {known})") from None


def rules_from_json(data: Mapping[str, Any]) -> Rules:
    """The rule set a stored state or record names: ``variant(data["variant"], **options)``.

    A server reads a match's state back on every move, so the same few rule sets are read over
    and over; a rule set does not change once built, so one instance per variant and options
    serves every state that names them (kept in ``_FROM_JSON``, bounded). Besides the building,
    this spares the memory of every cache keyed by a rule set (the opening hints: one entry per
    hand) a copy of the rule set per entry.
    """
    name = str(data["variant"])
    options = dict(data.get("options") or {})
    try:  # each value with its type: 1 == True == 1.0, but validation tells them apart
        key = (name, tuple(sorted((option, type(value), value) for option, value in options.items())))
        hash(key)
    except TypeError:  # an option value that cannot be a key (not one a valid set has): build it
        return variant(name, **options)
    rules = _FROM_JSON.get(key)
    if rules is None:
        rules = variant(name, **options)  # a ValueError for a bad name or option is not kept
        if len(_FROM_JSON) >= _FROM_JSON_SIZE:
            _FROM_JSON.clear()
        _FROM_JSON[key] = rules
    return rules


#: ``rules_from_json``'s rule sets by (variant, sorted options with their values' types); emptied
#: when it reaches the size.
_FROM_JSON: dict[tuple[str, tuple[tuple[str, type, Any], ...]], Rules] = {}
_FROM_JSON_SIZE = 256
