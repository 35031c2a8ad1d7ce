"""Search over a hand: the arrangement into melds that lays the most points.

The search is exact. It walks the natural cards in a fixed order (suit by suit, ace first); the
first card not yet decided is either left in hand or put into one meld that contains it, and every
meld is built around the first undecided card of its suit, so each arrangement is met once. Results
are memoised on the multiset of undecided cards and the jokers left. Points of a meld do not depend
on whether a place is filled by the natural card or by a joker, so jokers are placed freely.

>>> from games.engine import variant, format_cards
>>> melds, leftover = variant("remik51").best_melds("9S TS JS 8H 8D 8C 2C")
>>> [str(m) for m in melds], format_cards(leftover)
(['9S TS JS', '8H 8D 8C'], '2C')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol

from .cards import RANKS, SUITS, Card
from .melds import Meld, MeldPolicy, meld_readings, position_rank, read_meld, reading_orders


class Rules(Protocol):
    """What the search reads of a rule set (:class:`~games.engine.rules.Rules` has it): its melds,
    what a card is worth in a meld and in hand, and what an opening needs. The search knows no more
    of the rules, so ``rules`` may import it."""

    @property
    def policy(self) -> MeldPolicy: ...

    @property
    def opening_run(self) -> str: ...

    @property
    def opening_minimum(self) -> int: ...

    def card_value(self, represented: Card, kind: str, position: int) -> int: ...

    def hand_value(self, card: Card) -> int: ...

    def meld_value(self, meld: Meld) -> int: ...


#: Canonical order of natural cards: suit-major, ace last (index = suit * 13 + rank index). With the
#: ace last, when a card is the first undecided one every card below it in its suit is decided
#: except the ace, so a run grows to the left with jokers only (and the ace at position 1).
_RANK_ORDER = "23456789TJQKA"
_BITS = 2  # up to 3 copies of a card in one hand (two decks hold 2)
_MASK = (1 << _BITS) - 1


def _index(card: Card) -> int:
    return SUITS.index(card.suit) * 13 + _RANK_ORDER.index(card.rank)


def _by_points(candidate: tuple[_Choice, int, int, int, int]) -> int:
    return -candidate[3]


def _pos_index(suit: int, position: int) -> int:
    """Index of the natural card at a run position (1 and 14 are both the ace)."""
    return suit * 13 + (12 if position in (1, 14) else position - 2)


#: A run being built: (start, slots, jokers used, counts used, points, hand value used).
_Partial = tuple[int, tuple[int | None, ...], int, int, int, int]


@dataclass(frozen=True, slots=True)
class _Choice:
    kind: str  # "leftover" | "set" | "run"
    # Sets: (card indexes..., then None per joker). Runs: one entry per position, None = joker.
    slots: tuple[int | None, ...]
    start: int = 0
    rank_index: int = 0


#: The choice to leave the card of each index in the hand (the last one ``best`` tries).
_LEFTOVER = tuple((_Choice("leftover", (index,)), 1 << (index * _BITS), 0, 0, 0) for index in range(52))


@dataclass(frozen=True, slots=True)
class _Tables:
    """What a search reads of its rule set, worked out once per rule set and ``card_bonus``
    (``_tables``): building them called the rules' ``card_value`` for every card and run
    position, as long as a whole search of a 13-card hand when every search built its own. The
    candidate melds around a card depend on their key and these tables only, so every search
    with the same tables shares them too (a third of a 13-card hand's search was building them
    again). Shared between threads: a lookup that misses builds the same list again."""

    run_value: tuple[int, ...]
    set_value: tuple[int, ...]
    hand_value: tuple[int, ...]
    joker_hand_value: int
    low: int
    high: int
    run_jokers: int
    card_max: tuple[int, ...]
    joker_max: int
    #: The candidate melds of ``_Searcher._sets_with`` and ``_runs_with``, which depend on their
    #: keys and these tables only: every search with these tables shares them.
    set_cache: dict[tuple[int, tuple[int, ...], int], list[tuple[_Choice, int, int, int, int]]]
    run_cache: dict[tuple[int, int, int], list[tuple[_Choice, int, int, int, int]]]


#: Rule sets are immutable and compare by name and options; a handful are in use at a time.
_TABLES: dict[tuple[type, object, int], _Tables] = {}
_TABLES_SIZE = 256
#: Candidate lists kept per rule set (each cache is emptied when it reaches this): a few hundred
#: set keys and a few thousand run keys cover the hands of many games.
CANDIDATE_CACHE_SIZE = 8192


def _tables(rules: Rules, card_bonus: int) -> _Tables:
    key = (type(rules), rules, card_bonus)
    tables = _TABLES.get(key)
    if tables is None:
        if len(_TABLES) >= _TABLES_SIZE:
            _TABLES.clear()
        tables = _TABLES[key] = _build_tables(rules, card_bonus)
    return tables


def _build_tables(rules: Rules, card_bonus: int) -> _Tables:
    policy = rules.policy
    run_value = (0, *(rules.card_value(Card(position_rank(p), "S"), "run", p) for p in range(1, 15)))
    set_value = tuple(rules.card_value(Card(r, "S"), "set", 0) for r in _RANK_ORDER)
    # The most a card can count on the table (an ace high, in a set), for the bound.
    card_max = tuple(
        max(set_value[i], max(run_value[p] for p in range(1, 15) if position_rank(p) == r)) + card_bonus
        for _ in SUITS
        for i, r in enumerate(_RANK_ORDER)
    )
    return _Tables(
        run_value=run_value,
        set_value=set_value,
        hand_value=tuple(rules.hand_value(Card(r, s)) for s in SUITS for r in _RANK_ORDER),
        joker_hand_value=rules.hand_value(Card("JK", "")),
        low=1 if policy.ace_low else 2,
        high=14 if policy.ace_high else 13,
        # The most jokers one run may hold (R40-Q7); a large number where there is no limit.
        run_jokers=policy.run_joker_limit if policy.run_joker_limit is not None else 99,
        card_max=card_max,
        joker_max=max(card_max),
        set_cache={},
        run_cache={},
    )


class _Searcher:
    def __init__(self, rules: Rules, jokers: int, card_bonus: int = 0, state_limit: int = 10**9) -> None:
        tables = _tables(rules, card_bonus)
        self.state_limit = state_limit
        self.card_bonus = card_bonus
        self.policy = rules.policy
        self.rules = rules
        self.memo: dict[int, tuple[int, int, _Choice | None]] = {}
        self.run_value = tables.run_value
        self.set_value = tables.set_value
        self.hand_value = tables.hand_value
        self.joker_hand_value = tables.joker_hand_value
        self.low = tables.low
        self.high = tables.high
        self.total_jokers = jokers
        self.run_jokers = tables.run_jokers
        self.suit_mask = (1 << (13 * _BITS)) - 1
        self.card_max = tables.card_max
        self.joker_max = tables.joker_max
        self.bounds: dict[int, int] = {}
        self.set_cache = tables.set_cache
        self.run_cache = tables.run_cache

    # The state: counts packed into an int, _BITS bits per card index.
    def best(self, counts: int, jokers: int) -> tuple[int, int, _Choice | None]:
        key = (counts << 3) | jokers
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if len(self.memo) >= self.state_limit:
            raise _TooBigError
        if counts == 0:
            result: tuple[int, int, _Choice | None] = (0, 0, None)
            self.memo[key] = result
            return result
        first = (counts & -counts).bit_length() - 1
        index = first // _BITS
        best_points, best_used, best_choice = -1, -1, None
        candidates = self._melds_with(index, counts, jokers)
        candidates.append(_LEFTOVER[index])
        bounds = self.bounds
        joker_max = self.joker_max
        for choice, used_counts, used_jokers, points, used_value in candidates:
            rest_counts = counts - used_counts
            # Branch and bound: skip a choice whose best possible follow-up cannot reach the best
            # found so far (results stored in the memo are always exact).
            bound = bounds.get(rest_counts)
            if bound is None:
                bound = self._bound(rest_counts)
            if points + bound + (jokers - used_jokers) * joker_max < best_points:
                continue
            sub = self.best(rest_counts, jokers - used_jokers)
            total = points + sub[0]
            used = used_value + sub[1]
            if total > best_points or (total == best_points and used > best_used):
                best_points, best_used, best_choice = total, used, choice
        result = (best_points, best_used, best_choice)
        self.memo[key] = result
        return result

    def _bound(self, counts: int) -> int:
        """An upper bound on the points the naturals in ``counts`` can lay (each at its best)."""
        bound = self.bounds.get(counts)
        if bound is None:
            bound = 0
            rest = counts
            while rest:
                low_bit = (rest & -rest).bit_length() - 1
                index = low_bit // _BITS
                count = (rest >> (index * _BITS)) & _MASK
                bound += count * self.card_max[index]
                rest &= ~(_MASK << (index * _BITS))
            self.bounds[counts] = bound
        return bound

    def _count(self, counts: int, index: int) -> int:
        return (counts >> (index * _BITS)) & _MASK

    def _melds_with(self, index: int, counts: int, jokers: int) -> list[tuple[_Choice, int, int, int, int]]:
        return sorted(
            self._sets_with(index, counts, jokers) + self._runs_with(index, counts, jokers),
            key=_by_points,
        )

    def _sets_with(self, index: int, counts: int, jokers: int) -> list[tuple[_Choice, int, int, int, int]]:
        suit, rank_index = divmod(index, 13)
        others = tuple(
            s * 13 + rank_index
            for s in range(4)
            if s != suit and (counts >> ((s * 13 + rank_index) * _BITS)) & _MASK
        )
        key = (index, others, jokers)
        cached = self.set_cache.get(key)
        if cached is not None:
            return cached
        policy = self.policy
        value = self.set_value[rank_index]
        jv = self.joker_hand_value
        out: list[tuple[_Choice, int, int, int, int]] = []
        for mask in range(1 << len(others)):
            members = [index] + [others[i] for i in range(len(others)) if mask >> i & 1]
            naturals = len(members)
            for used_jokers in range(0, min(jokers, 4 - naturals) + 1):
                size = naturals + used_jokers
                if size < policy.set_min or size > policy.set_max:
                    continue
                if used_jokers > policy.jokers_allowed_in_set(size):
                    continue
                used_counts = sum(1 << (m * _BITS) for m in members)
                used_value = sum(self.hand_value[m] for m in members) + used_jokers * jv
                choice = _Choice("set", (*members, *([None] * used_jokers)), rank_index=rank_index)
                out.append((choice, used_counts, used_jokers, (value + self.card_bonus) * size, used_value))
        if len(self.set_cache) >= CANDIDATE_CACHE_SIZE:
            self.set_cache.clear()
        self.set_cache[key] = out
        return out

    def _runs_with(self, index: int, counts: int, jokers: int) -> list[tuple[_Choice, int, int, int, int]]:
        suit, rank_index = divmod(index, 13)
        # Run candidates depend only on this suit's undecided cards and the jokers left: cache them.
        suit_bits = (counts >> (suit * 13 * _BITS)) & self.suit_mask
        key = (index, suit_bits, jokers)
        cached = self.run_cache.get(key)
        if cached is not None:
            return cached
        # Runs that use the same naturals and the same number of jokers lead to the same position:
        # only the one worth the most points is kept.
        found: dict[tuple[int, int], tuple[int, int, tuple[int | None, ...], int]] = {}
        positions = [1, 14] if rank_index == 12 else [rank_index + 2]
        for pc in positions:
            if self.low <= pc <= self.high:
                self._runs_at(found, index, suit, pc, counts, jokers)
        out = [
            (_Choice("run", slots, start=start), uc, uj, pts, uv)
            for (uc, uj), (pts, uv, slots, start) in found.items()
        ]
        if len(self.run_cache) >= CANDIDATE_CACHE_SIZE:
            self.run_cache.clear()
        self.run_cache[key] = out
        return out

    def _runs_at(
        self,
        found: dict[tuple[int, int], tuple[int, int, tuple[int | None, ...], int]],
        index: int,
        suit: int,
        pc: int,
        counts: int,
        jokers: int,
    ) -> None:
        adjacent_ok = self.policy.adjacent_jokers
        jv = self.joker_hand_value
        run_value = self.run_value
        hand_value = self.hand_value
        # Left of the card: every natural below it in this suit is already decided (count 0), except
        # the ace, so this grows with jokers and at most the ace at position 1.
        first: _Partial = (pc, (index,), 0, 1 << (index * _BITS), run_value[pc], hand_value[index])
        left_options: list[_Partial] = [first]
        frontier: list[_Partial] = [first]
        low = self.low
        while frontier:
            start, slots, uj, uc, pts, uv = frontier.pop()
            p = start - 1
            if p < low:
                continue
            nat = _pos_index(suit, p)
            if (counts >> (nat * _BITS)) & _MASK and not (p == 1 and start + len(slots) - 1 == 14):
                item = (
                    p,
                    (nat, *slots),
                    uj,
                    uc + (1 << (nat * _BITS)),
                    pts + run_value[p],
                    uv + hand_value[nat],
                )
                left_options.append(item)
                frontier.append(item)
            if uj < jokers and uj < self.run_jokers and (adjacent_ok or slots[0] is not None):
                item = (p, (None, *slots), uj + 1, uc, pts + run_value[p], uv + jv)
                left_options.append(item)
                frontier.append(item)
        run_min = self.policy.run_min
        high = self.high
        bonus = self.card_bonus
        stack: list[_Partial] = list(left_options)
        while stack:
            start, slots, uj, uc, pts, uv = stack.pop()
            length = len(slots)
            if length >= run_min:
                value = pts + bonus * length
                best = found.get((uc, uj))
                if best is None or value > best[0]:
                    found[(uc, uj)] = (value, uv, slots, start)
            end = start + length  # the next position
            if end > high or (start == 1 and end == 14):
                continue
            nat = _pos_index(suit, end)
            if (counts >> (nat * _BITS)) & _MASK:
                stack.append(
                    (
                        start,
                        (*slots, nat),
                        uj,
                        uc + (1 << (nat * _BITS)),
                        pts + run_value[end],
                        uv + hand_value[nat],
                    )
                )
            if uj < jokers and uj < self.run_jokers and (adjacent_ok or slots[-1] is not None):
                stack.append((start, (*slots, None), uj + 1, uc, pts + run_value[end], uv + jv))


class _TooBigError(Exception):
    """The exact search met more positions than its budget allows."""


#: Positions the exact search may memoise before a hand counts as huge. Hands of up to 15 cards
#: with 4 jokers stay far below it (a few thousand); only a hand swollen by deep takes from the
#: Remi row (RMI-31), which can reach 50-60 cards, goes past it.
STATE_LIMIT = 20_000
#: Naturals per part when a huge hand is split.
CHUNK = 14
#: Hands of at most this many cards are always searched exactly (far below ``STATE_LIMIT``).
EXACT_CARDS = 15


#: The searchers of the block being run (None outside any): rule set and ``cover`` -> that rule
#: set and its searcher. :func:`shared_searches` gives a block a dict of its own,
#: :func:`kept_searches` the one dict ``_KEPT``.
_Searchers = dict[tuple[type[Rules], Rules, bool], tuple[Rules, _Searcher]]
_SHARED: ContextVar[_Searchers | None] = ContextVar("shared_searches", default=None)


@contextmanager
def shared_searches() -> Iterator[None]:
    """Searches made inside share their work: one memo per rule set (and ``cover``).

    A bot weighs many hands that differ by a card or two (each discard's rest, each take, each
    opening's rest), and their searches meet the same positions. A position's result in the memo
    is exact whatever search stored it (the branch and bound only skips choices that cannot win),
    so every answer is the one a search of its own gives; only hands the exact search always covers
    (at most ``EXACT_CARDS`` cards, a few thousand positions at most) share, so the ``STATE_LIMIT``
    of a huge hand is counted as before. The memo lives until the outermost block ends (a bot's
    decision: :mod:`.bots.levels`). Per thread and task (a context variable); nested blocks share
    the outer one's.
    """
    with _searching({}):
        yield


#: :func:`kept_searches`' searchers: at most ``KEPT_RULE_SETS`` rule sets, each memo emptied once
#: past ``KEPT_POSITIONS`` positions. A server process interleaves the hands of a hundred tables
#: and more: 5,000 positions were emptied every few dozen hands there, 50,000 (about 11 MB) keep
#: a third of the hint's work (docs/benchmarks.md, "The opening hint's search").
_KEPT: _Searchers = {}
KEPT_RULE_SETS = 32
KEPT_POSITIONS = 50_000


@contextmanager
def kept_searches() -> Iterator[None]:
    """Like :func:`shared_searches`, but the memo outlives the block, within bounds.

    The opening hint searches every new hand of every table a process serves (a hand changes at
    each of its seat's moves, by a card or two), and those hands meet the same positions; a memo
    kept from one hand to the next answers them. Its positions' results are exact whoever stored
    them (:func:`shared_searches`), so the answers are the ones a search of its own gives. A memo
    past ``KEPT_POSITIONS`` is emptied before a search uses it, and the searchers are dropped when
    more than ``KEPT_RULE_SETS`` rule sets are kept, so memory stays bounded. Threads may share a
    searcher: its memo and bounds are only ever filled with exact values.
    """
    with _searching(_KEPT):
        yield


@contextmanager
def _searching(searchers: _Searchers) -> Iterator[None]:
    """Run the block with ``searchers``, unless an outer block already runs with its own."""
    if _SHARED.get() is not None:
        yield
        return
    token = _SHARED.set(searchers)
    try:
        yield
    finally:
        _SHARED.reset(token)


def _shared_searcher(rules: Rules, cover: bool) -> _Searcher | None:
    shared = _SHARED.get()
    if shared is None:
        return None
    key = (type(rules), rules, cover)
    kept = shared.get(key)
    bounded = shared is _KEPT
    if kept is None:
        if bounded and len(shared) >= KEPT_RULE_SETS:
            shared.clear()
        kept = shared[key] = (rules, _Searcher(rules, 0, card_bonus=1000 if cover else 0))
    elif bounded and len(kept[1].memo) > KEPT_POSITIONS:
        kept[1].memo.clear()
        kept[1].bounds.clear()
    return kept[1]


def best_arrangement(
    rules: Rules, cards: Sequence[Card], *, cover: bool = False
) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    """See :meth:`Rules.best_melds`. Melds come out with every joker declared.

    ``cover=True`` first maximises the number of cards melded, then the points. The search is exact
    for ordinary hands; a huge hand (past ``STATE_LIMIT`` positions) is split into parts of
    ``CHUNK`` naturals in suit order, each searched exactly with the jokers still free, so the
    answer stays valid and comes in bounded time, though it may miss melds across the parts.
    Inside :func:`shared_searches`, searches of hands of at most ``EXACT_CARDS`` cards share one
    memo (the same answers, sooner).
    """
    if len(cards) <= EXACT_CARDS:
        searcher = _shared_searcher(rules, cover)
        if searcher is not None:
            return _exact(rules, cards, cover=cover, searcher=searcher)
    try:
        return _exact(rules, cards, cover=cover, state_limit=STATE_LIMIT)
    except _TooBigError:
        pass
    naturals = sorted((c for c in cards if not c.is_joker), key=_index)
    spare = [c.bare() for c in cards if c.is_joker]
    melds: list[Meld] = []
    leftover: list[Card] = []
    for start in range(0, len(naturals), CHUNK):
        part_melds, part_left = _exact(rules, [*naturals[start : start + CHUNK], *spare], cover=cover)
        melds.extend(part_melds)
        spare = [c for c in part_left if c.is_joker]
        leftover.extend(c for c in part_left if not c.is_joker)
    return tuple(melds), (*leftover, *spare)


def _exact(
    rules: Rules,
    cards: Sequence[Card],
    *,
    cover: bool,
    state_limit: int = 10**9,
    searcher: _Searcher | None = None,
) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
    naturals: dict[int, list[Card]] = {}
    jokers: list[Card] = []
    for card in cards:
        if card.is_joker:
            jokers.append(card.bare())
        else:
            naturals.setdefault(_index(card), []).append(card)
    counts = 0
    for idx, group in naturals.items():
        if len(group) > _MASK:
            raise ValueError(f"more than {_MASK} copies of {group[0].face} in one hand")
        counts += len(group) << (idx * _BITS)
    if searcher is None:
        searcher = _Searcher(rules, len(jokers), card_bonus=1000 if cover else 0, state_limit=state_limit)
    melds: list[Meld] = []
    leftover: list[Card] = []
    pool = {idx: list(group) for idx, group in naturals.items()}
    spare_jokers = list(jokers)
    state, left = counts, len(jokers)
    while state:
        _, _, choice = searcher.best(state, left)
        assert choice is not None
        if choice.kind == "leftover":
            slot = choice.slots[0]
            assert slot is not None
            leftover.append(pool[slot].pop(0))
            state -= 1 << (slot * _BITS)
            continue
        meld_cards: list[Card] = []
        if choice.kind == "set":
            rank = _RANK_ORDER[choice.rank_index]
            present = {(i // 13) for i in choice.slots if i is not None}
            free = iter(s for s in range(4) if s not in present)
            for slot in choice.slots:
                if slot is None:
                    meld_cards.append(spare_jokers.pop(0).declared(Card(rank, SUITS[next(free)])))
                    left -= 1
                else:
                    meld_cards.append(pool[slot].pop(0))
                    state -= 1 << (slot * _BITS)
            melds.append(Meld("set", tuple(meld_cards), rank=rank))
        else:
            suit_letter = next(SUITS[i // 13] for i in choice.slots if i is not None)
            for offset, slot in enumerate(choice.slots):
                if slot is None:
                    rep = Card(position_rank(choice.start + offset), suit_letter)
                    meld_cards.append(spare_jokers.pop(0).declared(rep))
                    left -= 1
                else:
                    meld_cards.append(pool[slot].pop(0))
                    state -= 1 << (slot * _BITS)
            melds.append(Meld("run", tuple(meld_cards), start=choice.start, suit=suit_letter))
    leftover.extend(spare_jokers)
    return tuple(melds), tuple(leftover)


def arrangement_value(rules: Rules, melds: Sequence[Meld]) -> int:
    return sum(rules.meld_value(m) for m in melds)


__all__ = ["RANKS", "arrangement_value", "best_arrangement", "kept_searches", "shared_searches"]


# --- openings and melds for bots, hints and legal_moves ------------------------------------------


def runs_in(rules: Rules, cards: Sequence[Card], *, pure: bool, max_len: int = 5) -> list[Meld]:
    """Runs of 3..``max_len`` cards that can be made from ``cards`` (at most one joker unless pure)."""
    by_face: dict[str, Card] = {}
    jokers = [c for c in cards if c.is_joker]
    for card in cards:
        if not card.is_joker:
            by_face.setdefault(card.face, card)
    found: list[Meld] = []
    seen: set[tuple[str, ...]] = set()
    for suit in SUITS:
        for start in range(1, 13):
            for length in range(3, max_len + 1):
                end = start + length - 1
                if end > 14 or (start == 1 and end == 14):
                    continue
                slots: list[Card] = []
                used_joker = 0
                for position in range(start, end + 1):
                    found_card = by_face.get(position_rank(position) + suit)
                    if found_card is None:
                        if pure or used_joker or not jokers:
                            break
                        used_joker += 1
                        slots.append(jokers[0].declared(Card(position_rank(position), suit)))
                    else:
                        slots.append(found_card)
                else:
                    key = tuple(str(c) for c in slots)
                    if key in seen:
                        continue
                    try:
                        readings = [m for m in meld_readings(slots, rules.policy) if m.kind == "run"]
                    except Exception:
                        continue
                    if readings:
                        seen.add(key)
                        found.append(readings[0])
    return found


def _without(cards: Sequence[Card], used: Sequence[Card]) -> list[Card]:
    rest = list(cards)
    for card in used:
        rest.remove(card.bare() if card.is_joker else card)
    return rest


def _meets(rules: Rules, melds: Sequence[Meld]) -> bool:
    if rules.opening_run == "pure" and not any(m.kind == "run" and m.is_pure for m in melds):
        return False
    if rules.opening_run == "any" and not any(m.kind == "run" for m in melds):
        return False
    return arrangement_value(rules, melds) >= rules.opening_minimum


def _trim_to_keep(rules: Rules, melds: list[Meld], cards: Sequence[Card], keep: int) -> list[Meld] | None:
    """Give back melded cards until ``keep`` cards stay in hand, still meeting the opening."""
    melds = list(melds)
    while len(cards) - sum(len(m.cards) for m in melds) < keep:
        best: list[Meld] | None = None
        best_value = -1
        for i, meld in enumerate(melds):
            options: list[list[Meld]] = [melds[:i] + melds[i + 1 :]]
            if len(meld.cards) > 3:
                for cut in (
                    (meld.cards[1:], meld.cards[:-1])
                    if meld.kind == "run"
                    else [meld.cards[:j] + meld.cards[j + 1 :] for j in range(len(meld.cards))]
                ):
                    try:
                        reading = [m for m in meld_readings(cut, rules.policy) if m.kind == meld.kind]
                    except Exception:
                        continue
                    if reading:
                        options.append([*melds[:i], reading[0], *melds[i + 1 :]])
            for option in options:
                value = arrangement_value(rules, option)
                if _meets(rules, option) and value > best_value:
                    best, best_value = option, value
        if best is None:
            return None
        melds = best
    return melds


def out_of_reach(rules: Rules, size: int, arranged_value: int, *, cover: bool = False) -> bool:
    """Whether a hand of ``size`` cards whose best arrangement is worth ``arranged_value`` holds
    no opening: an opening is melds of the hand, worth no more than that arrangement, so below
    the minimum there is none (for hands the exact search covers: up to ``EXACT_CARDS`` cards).
    :func:`find_opening` stops there; a caller that has the value already may ask first."""
    return not cover and size <= EXACT_CARDS and arranged_value < rules.opening_minimum


def find_opening(
    rules: Rules,
    cards: Sequence[Card],
    *,
    include: Card | None = None,
    keep: int = 1,
    cover: bool = False,
    arranged: Sequence[Meld] | None = None,
) -> list[Meld] | None:
    """Melds from ``cards`` that make a legal opening (most points found), leaving ``keep`` cards.

    ``include``: a card that must be in one of the melds (a taken discard). ``cover``: prefer
    melding as many cards as possible (for going out). ``arranged``: the melds of
    ``best_arrangement(rules, cards, cover=cover)`` when the caller has them already. A search for
    bots and hints: it finds an opening in every ordinary case, but is not a proof that none exists.

    Every opening it could find is a set of melds from ``cards``, so it is worth no more than the
    best arrangement; when that is below the minimum, there is none, and the search stops there
    (for hands the exact search covers: up to ``EXACT_CARDS`` cards).
    """
    cards = [c.bare() for c in cards]
    candidates: list[list[Meld]] = []
    if arranged is None:
        base, _ = best_arrangement(rules, cards, cover=cover)
    else:
        base = tuple(arranged)
    if out_of_reach(rules, len(cards), arrangement_value(rules, base), cover=cover):
        return None
    candidates.append(list(base))
    seeds = runs_in(rules, cards, pure=rules.opening_run == "pure")
    if rules.opening_run != "none" and not any(
        m.kind == "run" and (m.is_pure or rules.opening_run == "any") for m in base
    ):
        for seed in seeds:
            rest, _ = best_arrangement(rules, _without(cards, seed.cards), cover=cover)
            candidates.append([seed, *rest])
    if include is not None:
        holders = [m for m in _small_melds_with(rules, cards, include)]
        for holder in holders:
            rest_cards = _without(cards, holder.cards)
            rest, _ = best_arrangement(rules, rest_cards, cover=cover)
            candidates.append([holder, *rest])
            if rules.opening_run != "none":
                for seed in runs_in(rules, rest_cards, pure=rules.opening_run == "pure"):
                    more, _ = best_arrangement(rules, _without(rest_cards, seed.cards), cover=cover)
                    candidates.append([holder, seed, *more])
    best: list[Meld] | None = None
    best_key = (-1, -1)
    for melds in candidates:
        if include is not None and not any(include in m.cards for m in melds):
            continue
        if not _meets(rules, melds):
            continue
        trimmed = _trim_to_keep(rules, melds, cards, keep)
        if trimmed is None or (include is not None and not any(include in m.cards for m in trimmed)):
            continue
        used = sum(len(m.cards) for m in trimmed)
        key = (
            (used, arrangement_value(rules, trimmed)) if cover else (arrangement_value(rules, trimmed), used)
        )
        if key > best_key:
            best, best_key = trimmed, key
    return best


def _small_melds_with(rules: Rules, cards: Sequence[Card], card: Card) -> list[Meld]:
    """Valid 3- and 4-card melds from ``cards`` that hold ``card`` (jokers declared)."""
    from itertools import combinations

    others = [c for c in cards if c != card]
    jokers = [c for c in others if c.is_joker][:2]
    if card.is_joker:
        # A joker joins two naturals of one rank, or of one suit close enough to fill the gap.
        naturals = [c for c in others if not c.is_joker]
        combos: list[tuple[Card, ...]] = [
            (a, b)
            for a, b in combinations(naturals, 2)
            if a.rank == b.rank or (a.suit == b.suit and _close(a, b))
        ]
    else:
        same = [c for c in others if not c.is_joker and (c.rank == card.rank or c.suit == card.suit)]
        combos = [combo for size in (2, 3) for combo in combinations(same + jokers, size)]
    found: list[Meld] = []
    seen: set[tuple[str, ...]] = set()
    for combo in combos:
        group = [card, *combo]
        ordered = reading_orders(group)
        for attempt in ordered:
            key = tuple(sorted(str(c) for c in attempt))
            if key in seen:
                continue
            try:
                meld = read_meld(attempt, rules.policy)
            except Exception:
                continue
            seen.add(key)
            found.append(meld)
            break
    return found


def _close(a: Card, b: Card) -> bool:
    """Two naturals of one suit that a single joker can join into a run."""
    from .cards import RANK_NUMBER

    gaps = {abs(RANK_NUMBER[a.rank] - RANK_NUMBER[b.rank])}
    if "A" in (a.rank, b.rank):
        other = b if a.rank == "A" else a
        gaps.add(abs(RANK_NUMBER[other.rank] - 1))
    return bool(gaps & {1, 2})


def melds_with(rules: Rules, cards: Sequence[Card], card: Card) -> list[Meld]:
    """Small melds holding ``card`` that can be made from ``cards`` (which include it)."""
    return _small_melds_with(rules, [c.bare() for c in cards], card.bare())
