"""Gin deadwood on bitmasks: exact, and fast enough for the knock check on every move.

A hand of the gin family (``gin.md``) is a 52-bit ``int``: card ``rank`` of ``suit`` is bit
``13 * suit + rank``, suits in ``SHDC`` order and ranks ace low, ``A 2 … T J Q K`` → 0 … 12
(GIN-3: the ace is the lowest card, K-A-2 is not a run). A card left out of every meld counts its
pips, faces 10 and the ace 1 (GIN-13, GIN-Q1).

How it is exact and fast:

* **Runs** live inside one suit, so a precomputed table ``RUNS_ONLY[m]`` gives, for each of the
  8,192 13-bit suit masks, the least deadwood that suit leaves using runs alone (a dynamic
  programme: the lowest card of the mask is either loose or starts a run).
* **Sets** are the only melds crossing suits. A rank held in three or four suits may form a set
  (the three suits, or all four, or any three of the four) or leave its cards to the runs. Every
  way of choosing the sets is tried (at most three such ranks in 11 cards, so at most 6³ leaves),
  and for each the suits are finished by table look-ups. Nothing else can happen, so the minimum
  over the leaves is the exact minimum over every arrangement.
* **After a discard** (the knock check of an 11-card hand, GIN-15): a second table
  ``DROP_GAIN[m]`` holds ``min over cards c of m (RUNS_ONLY[m - c]) - RUNS_ONLY[m]``, the best
  change one discard makes to a suit. A leaf's best discard is then one more look-up per suit.
  The minimum is over *every* discard (not over the discards of one optimal 11-card arrangement,
  the classic bug): each leaf leaves its non-set cards to the suits, and a discard taken from a set
  is the leaf where that set is the smaller one or absent.

>>> hand = mask_of("AD 2D 3D 6C 7C 8C 9C KS KH 5H")
>>> deadwood(hand)                        # melds AD-2D-3D and 6C-9C; KS KH 5H loose: 10 + 10 + 5
25
>>> deadwood_after_discard(hand | mask_of("KD"))   # KD makes KS KH KD: discard 5H, gin
0
>>> [format_mask(meld) for meld in arrangement(hand)[1]]
['AD 2D 3D', '6C 7C 8C 9C']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import Card, parse_cards

__all__ = [
    "DROP_GAIN",
    "RANK_ORDER",
    "RUNS_ONLY",
    "SUIT_ORDER",
    "VALUES",
    "arrangement",
    "bit_of",
    "card_of",
    "cards_of",
    "deadwood",
    "deadwood_after_discard",
    "discard_deadwoods",
    "format_mask",
    "index_of",
    "mask_of",
    "may_knock",
    "meld_masks",
    "points_of",
    "with_layoffs",
]

#: Rank order of the gin family, ace low (GIN-3).
RANK_ORDER = "A23456789TJQK"
#: Suit order of the bits (the same as :data:`games.engine.cards.SUITS`).
SUIT_ORDER = "SHDC"
_RANK_INDEX = {rank: i for i, rank in enumerate(RANK_ORDER)}
_SUIT_OFFSET = {suit: 13 * i for i, suit in enumerate(SUIT_ORDER)}
#: Loose value of each rank index (GIN-13 with GIN-Q1: ace 1, pips, faces 10).
VALUES = tuple(min(i + 1, 10) for i in range(13))

_SUIT = (1 << 13) - 1
_BIG = 1 << 20


# --- cards <-> bits ------------------------------------------------------------------------------


def index_of(card: Card) -> int:
    """The bit index (0..51) of a natural card."""
    return _SUIT_OFFSET[card.suit] + _RANK_INDEX[card.rank]


def bit_of(card: Card) -> int:
    return 1 << (_SUIT_OFFSET[card.suit] + _RANK_INDEX[card.rank])


def mask_of(cards: Iterable[Card] | str) -> int:
    """The mask of some natural cards (card notation accepted)."""
    seq = parse_cards(cards) if isinstance(cards, str) else cards
    mask = 0
    for card in seq:
        mask |= 1 << (_SUIT_OFFSET[card.suit] + _RANK_INDEX[card.rank])
    return mask


def card_of(index: int) -> Card:
    """The card (without copy id) of a bit index."""
    return Card(RANK_ORDER[index % 13], SUIT_ORDER[index // 13])


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, suit by suit, low to high (a run comes out in meld order)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(card_of(low.bit_length() - 1))
        mask ^= low
    return out


def format_mask(mask: int) -> str:
    return " ".join(card.face for card in cards_of(mask))


def points_of(mask: int) -> int:
    """The loose value of every card of the mask."""
    total = 0
    for shift in (0, 13, 26, 39):
        suit = (mask >> shift) & _SUIT
        while suit:
            low = suit & -suit
            total += VALUES[low.bit_length() - 1]
            suit ^= low
    return total


# --- the per-suit tables -------------------------------------------------------------------------


def _runs_only_table() -> list[int]:
    table = [0] * (1 << 13)
    for mask in range(1, 1 << 13):
        low = mask & -mask
        index = low.bit_length() - 1
        best = VALUES[index] + table[mask ^ low]  # the lowest card is loose ...
        run = low | (low << 1) | (low << 2)  # ... or starts a run of 3, 4, ... cards
        end = index + 3
        while end <= 13 and mask & run == run:
            rest = table[mask ^ run]
            if rest < best:
                best = rest
            run |= 1 << end
            end += 1
        table[mask] = best
    return table


def _drop_gain_table(runs_only: Sequence[int]) -> list[int]:
    table = [_BIG] * (1 << 13)
    for mask in range(1, 1 << 13):
        best = _BIG
        rest = mask
        while rest:
            low = rest & -rest
            value = runs_only[mask ^ low]
            if value < best:
                best = value
            rest ^= low
        table[mask] = best - runs_only[mask]
    return table


#: ``RUNS_ONLY[m]``: least deadwood of the 13-bit suit mask ``m`` with runs only.
RUNS_ONLY: tuple[int, ...] = tuple(_runs_only_table())
#: ``DROP_GAIN[m]``: the best change of ``RUNS_ONLY`` by discarding one card of ``m`` (huge for 0).
DROP_GAIN: tuple[int, ...] = tuple(_drop_gain_table(RUNS_ONLY))


def _points_table() -> list[int]:
    table = [0] * (1 << 13)
    for mask in range(1, 1 << 13):
        low = mask & -mask
        table[mask] = table[mask ^ low] + VALUES[low.bit_length() - 1]
    return table


#: The loose points of each 13-bit suit mask, and of its highest card (0 for none; the values
#: grow with the rank): :func:`may_knock`'s lower bound.
_POINTS: tuple[int, ...] = tuple(_points_table())
_TOP: tuple[int, ...] = (0, *(VALUES[mask.bit_length() - 1] for mask in range(1, 1 << 13)))


def _isolated(mask: int) -> int:
    starts = mask & (mask >> 1) & (mask >> 2)  # three in a row from here (no wrap: 13 bits, GIN-3)
    return mask & ~(starts | starts << 1 | starts << 2)


#: The cards of each suit mask in no three of a row of it: loose unless a set takes them.
_ISOLATED: tuple[int, ...] = tuple(map(_isolated, range(1 << 13)))


# --- deadwood ------------------------------------------------------------------------------------


def deadwood(mask: int) -> int:
    """The least deadwood of a hand over every arrangement into melds (GIN-12..14)."""
    t = RUNS_ONLY
    a = mask & _SUIT
    b = (mask >> 13) & _SUIT
    c = (mask >> 26) & _SUIT
    d = (mask >> 39) & _SUIT
    sets = (a & b & (c | d)) | ((a | b) & c & d)
    if not sets:
        return t[a] + t[b] + t[c] + t[d]
    return _with_sets(a, b, c, d, sets)


def _with_sets(a: int, b: int, c: int, d: int, sets: int) -> int:
    low = sets & -sets
    rest = sets ^ low
    t = RUNS_ONLY
    # No set of this rank: its cards stay with their suits.
    best = _with_sets(a, b, c, d, rest) if rest else t[a] + t[b] + t[c] + t[d]
    keep = ~low
    na, nb, nc, nd = a & keep, b & keep, c & keep, d & keep
    options: tuple[tuple[int, int, int, int], ...]
    if a & b & c & d & low:
        options = ((na, nb, nc, nd), (na, nb, nc, d), (na, nb, c, nd), (na, b, nc, nd), (a, nb, nc, nd))
    else:
        options = ((na, nb, nc, nd),)
    for oa, ob, oc, od in options:
        value = _with_sets(oa, ob, oc, od, rest) if rest else t[oa] + t[ob] + t[oc] + t[od]
        if value < best:
            best = value
    return best


def deadwood_after_discard(mask: int) -> int:
    """The least deadwood left after discarding one card, minimised over every discard.

    This is the knock check (GIN-15): an 11-card hand may knock if this is within the limit.
    """
    t = RUNS_ONLY
    g = DROP_GAIN
    a = mask & _SUIT
    b = (mask >> 13) & _SUIT
    c = (mask >> 26) & _SUIT
    d = (mask >> 39) & _SUIT
    sets = (a & b & (c | d)) | ((a | b) & c & d)
    if not sets:
        return t[a] + t[b] + t[c] + t[d] + min(g[a], g[b], g[c], g[d])
    return _after_discard_sets(a, b, c, d, sets)


def may_knock(mask: int, limit: int) -> bool:
    """``deadwood_after_discard(mask) <= limit``: may this 11-card hand knock (GIN-15)?

    The same answer, sooner where the hand holds a rank three or four times (a third of random
    hands): the search over the sets is made only if the cards no meld can hold leave a chance.
    A card in no three of a row of its suit whose rank is not held three times is loose in
    every arrangement of every ten of the eleven cards, so their points, less the highest of
    them (the discard may be one), are a lower bound of the deadwood after any discard. Random
    gin play asks this of every eleven-card hand
    (docs/benchmarks.md, "The gin hot path, choice by choice").
    """
    a = mask & _SUIT
    b = (mask >> 13) & _SUIT
    c = (mask >> 26) & _SUIT
    d = (mask >> 39) & _SUIT
    sets = (a & b & (c | d)) | ((a | b) & c & d)
    if sets:
        keep = ~sets
        iso = _ISOLATED
        la, lb, lc, ld = iso[a] & keep, iso[b] & keep, iso[c] & keep, iso[d] & keep
        p = _POINTS
        top = _TOP
        if p[la] + p[lb] + p[lc] + p[ld] - max(top[la], top[lb], top[lc], top[ld]) > limit:
            return False
    return deadwood_after_discard(mask) <= limit


def _after_discard_sets(a: int, b: int, c: int, d: int, sets: int) -> int:
    low = sets & -sets
    rest = sets ^ low
    t = RUNS_ONLY
    g = DROP_GAIN
    if rest:
        best = _after_discard_sets(a, b, c, d, rest)
    else:
        best = t[a] + t[b] + t[c] + t[d] + min(g[a], g[b], g[c], g[d])
    keep = ~low
    na, nb, nc, nd = a & keep, b & keep, c & keep, d & keep
    options: tuple[tuple[int, int, int, int], ...]
    if a & b & c & d & low:
        options = ((na, nb, nc, nd), (na, nb, nc, d), (na, nb, c, nd), (na, b, nc, nd), (a, nb, nc, nd))
    else:
        options = ((na, nb, nc, nd),)
    for oa, ob, oc, od in options:
        if rest:
            value = _after_discard_sets(oa, ob, oc, od, rest)
        else:
            value = t[oa] + t[ob] + t[oc] + t[od] + min(g[oa], g[ob], g[oc], g[od])
        if value < best:
            best = value
    return best


def discard_deadwoods(mask: int) -> dict[int, int]:
    """For every card of the hand (its bit index): the least deadwood left after discarding it."""
    out = {}
    rest = mask
    while rest:
        low = rest & -rest
        out[low.bit_length() - 1] = deadwood(mask ^ low)
        rest ^= low
    return out


# --- arrangements --------------------------------------------------------------------------------


def _suit_runs(suit_mask: int) -> list[int]:
    """The runs (13-bit masks) of an optimal runs-only reading of one suit."""
    t = RUNS_ONLY
    runs = []
    mask = suit_mask
    while mask:
        low = mask & -mask
        index = low.bit_length() - 1
        if t[mask] == VALUES[index] + t[mask ^ low]:
            mask ^= low  # loose
            continue
        run = low | (low << 1) | (low << 2)
        end = index + 3
        while end <= 13 and mask & run == run:
            if t[mask] == t[mask ^ run]:
                break
            run |= 1 << end
            end += 1
        else:  # pragma: no cover - the table says one of the choices is optimal
            raise AssertionError("inconsistent runs table")
        runs.append(run)
        mask ^= run
    return runs


def _set_choices(
    a: int, b: int, c: int, d: int, sets: int, chosen: tuple[int, ...]
) -> Iterable[tuple[int, int, int, int, tuple[int, ...]]]:
    """Every way of choosing the sets: (suit masks left, the sets chosen as 52-bit masks)."""
    if not sets:
        yield a, b, c, d, chosen
        return
    low = sets & -sets
    rest = sets ^ low
    yield from _set_choices(a, b, c, d, rest, chosen)
    keep = ~low
    suits = (a, b, c, d)
    present = [i for i in range(4) if suits[i] & low]
    groups = [present] if len(present) == 3 else [present, *[[s for s in present if s != o] for o in present]]
    for group in groups:
        left = list(suits)
        meld = 0
        for i in group:
            left[i] &= keep
            meld |= low << (13 * i)
        yield from _set_choices(left[0], left[1], left[2], left[3], rest, (*chosen, meld))


def arrangement(mask: int) -> tuple[int, list[int]]:
    """A deadwood-minimal arrangement: ``(deadwood, melds)``, melds as masks (runs then sets).

    Among equally good arrangements the first found is kept: the one using the fewest sets, then
    the lowest ranks' sets.
    """
    a = mask & _SUIT
    b = (mask >> 13) & _SUIT
    c = (mask >> 26) & _SUIT
    d = (mask >> 39) & _SUIT
    sets = (a & b & (c | d)) | ((a | b) & c & d)
    t = RUNS_ONLY
    best: tuple[int, int, int, int, int, tuple[int, ...]] | None = None
    for oa, ob, oc, od, chosen in _set_choices(a, b, c, d, sets, ()):
        value = t[oa] + t[ob] + t[oc] + t[od]
        if best is None or value < best[0]:
            best = (value, oa, ob, oc, od, chosen)
    assert best is not None
    value, *suits, chosen = best
    melds: list[int] = []
    for i, suit_mask in enumerate(suits):
        melds += [run << (13 * i) for run in _suit_runs(int(suit_mask))]
    melds += list(chosen)
    return int(value), melds


def meld_masks(mask: int) -> list[int]:
    """Every meld the cards of ``mask`` can form: all runs of 3+ cards and all sets of 3 or 4."""
    out = []
    for i in range(4):
        suit = (mask >> (13 * i)) & _SUIT
        for start in range(13):
            run = 0
            for end in range(start, 13):
                if not suit >> end & 1:
                    break
                run |= 1 << end
                if end - start >= 2:
                    out.append(run << (13 * i))
    for rank in range(13):
        present = [i for i in range(4) if mask >> (13 * i + rank) & 1]
        if len(present) >= 3:
            bits = [1 << (13 * i + rank) for i in present]
            if len(bits) == 4:
                out.append(sum(bits))
                out += [sum(bits) - bit for bit in bits]
            else:
                out.append(sum(bits))
    return out


# --- the defender's lay-offs ---------------------------------------------------------------------


def _extensions(meld: int, mask: int) -> list[int]:
    """The ways ``mask``'s cards can be laid off onto ``meld`` (as masks of the cards laid)."""
    suits = [i for i in range(4) if (meld >> (13 * i)) & _SUIT]
    if len(suits) > 1:  # a set: its missing suit(s), at most up to four cards (GIN-10)
        if len(suits) >= 4:
            return [0]
        rank = ((meld >> (13 * suits[0])) & _SUIT).bit_length() - 1
        out = [0]
        for i in range(4):
            if i not in suits and mask >> (13 * i + rank) & 1:
                out.append(1 << (13 * i + rank))
        return out  # a 3-set takes one more card: one of these
    shift = 13 * suits[0]
    run = (meld >> shift) & _SUIT
    hand = (mask >> shift) & _SUIT
    lowest = (run & -run).bit_length() - 1
    highest = run.bit_length() - 1
    below = [0]
    laid = 0
    for rank in range(lowest - 1, -1, -1):  # 6S then 7S onto 3S-4S-5S (GIN-16): contiguous only
        if not hand >> rank & 1:
            break
        laid |= 1 << rank
        below.append(laid)
    above = [0]
    laid = 0
    for rank in range(highest + 1, 13):
        if not hand >> rank & 1:
            break
        laid |= 1 << rank
        above.append(laid)
    return [(lo | hi) << shift for lo in below for hi in above]


def with_layoffs(mask: int, targets: Sequence[int]) -> tuple[int, list[int], list[int]]:
    """The least deadwood of ``mask`` when its cards may also be laid off onto ``targets``.

    Returns ``(deadwood, laid, melds)``: ``laid[i]`` is the mask laid off onto ``targets[i]``,
    ``melds`` the hand's own melds of the rest. Lay-offs go only onto the melds (GIN-16/17); a run
    takes cards at either end, one after another. Among equal results the fewest lay-offs win.
    """
    options = [_extensions(meld, mask) for meld in targets]
    best: tuple[int, int, tuple[int, ...]] | None = None

    def walk(i: int, used: int, laid: tuple[int, ...]) -> None:
        nonlocal best
        if i == len(options):
            value = deadwood(mask & ~used)
            count = bin(used).count("1")
            if best is None or (value, count) < (best[0], best[1]):
                best = (value, count, laid)
            return
        for option in options[i]:
            if option & used:
                continue  # two runs of one suit reaching for the same card
            walk(i + 1, used | option, (*laid, option))

    walk(0, 0, ())
    assert best is not None
    laid = list(best[2])
    used = 0
    for option in laid:
        used |= option
    value, melds = arrangement(mask & ~used)
    return value, laid, melds
