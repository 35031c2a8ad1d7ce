"""Seeds, commitments, shuffles and deals: every deal can be committed to before and checked after.

The site keeps a secret per match. Each round's deal comes from ``deal_seed(secret, round_no)``
(HMAC-SHA256), and the table can publish ``commitment(seed)`` (SHA-256) before the round; once the
round is over the seed is revealed and anyone can re-run :func:`shuffle` to check the deal.

The shuffle is a Fisher-Yates driven by SHA-256 in counter mode (not Python's ``random``), so it is
fully specified here and stable across Python versions:

>>> seed = deal_seed(b"table secret", 1)
>>> commitment(seed) == commitment(deal_seed(b"table secret", 1))
True
>>> shuffle(range(5), seed) == shuffle(range(5), seed)
True
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from .cards import Card
    from .rules import Rules

T = TypeVar("T")


def secret_bytes(seed: int | str | bytes) -> bytes:
    """A match secret from an int (big-endian), a str (UTF-8) or bytes."""
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, str):
        return seed.encode()
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError("a seed is a non-negative int, a str or bytes")
    return seed.to_bytes(max(8, (seed.bit_length() + 7) // 8), "big")


def deal_seed(secret: int | str | bytes, round_no: int) -> bytes:
    """The seed of round ``round_no`` (round 0 chooses the first dealer): HMAC-SHA256.

    A :func:`seed_book` gives its own seeds instead (see there).
    """
    key = secret_bytes(secret)
    if key.startswith(SEED_BOOK):
        return _book_seed(key, round_no)
    return hmac.digest(key, f"remi-deal:{round_no}".encode(), "sha256")


#: The start of a :func:`seed_book`.
SEED_BOOK = b"remi-seed-book/1\x00"


def seed_book(seeds: Iterable[bytes]) -> bytes:
    """A stand-in for a match secret: the revealed seeds of rounds 1, 2, ... (32 bytes each).

    The record of a match still being played carries its finished rounds' seeds, never the
    secret (records.py); replayed with this as the secret, each round is dealt from its revealed
    seed. A round past the book is dealt from a seed nobody has seen (the SHA-256 of the book and
    the round number), so a replay can end where the book ends.

    >>> book = seed_book([deal_seed(b"s", 1), deal_seed(b"s", 2)])
    >>> deal_seed(book, 2) == deal_seed(b"s", 2), deal_seed(book, 3) == deal_seed(b"s", 3)
    (True, False)
    """
    items = list(seeds)
    if any(len(seed) != 32 for seed in items):
        raise ValueError("a round seed is 32 bytes")
    return SEED_BOOK + b"".join(items)


def _book_seed(book: bytes, round_no: int) -> bytes:
    seeds = book[len(SEED_BOOK) :]
    start = (round_no - 1) * 32
    if round_no >= 1 and start + 32 <= len(seeds):
        return seeds[start : start + 32]
    return hashlib.sha256(book + f"remi-deal:{round_no}".encode()).digest()


def sub_seed(seed: bytes, label: str) -> bytes:
    """A seed for a later random step of the same round (e.g. a reshuffle of the discard pile)."""
    return hmac.new(seed, label.encode(), hashlib.sha256).digest()


def commitment(seed: bytes) -> str:
    """What the table publishes before the round: SHA-256 of the round's seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


def _words(seed: bytes) -> Iterator[int]:
    """The stream's 64-bit words: SHA-256(seed || counter) for counter 0, 1, ..., each digest read
    as four big-endian words in order."""
    sha256 = hashlib.sha256
    unpack = _FOUR_WORDS.unpack
    counter = 0
    while True:
        yield from unpack(sha256(seed + counter.to_bytes(8, "big")).digest())
        counter += 1


_FOUR_WORDS = struct.Struct(">4Q")
_WORD = 1 << 64
#: Rejection limits of ``below(n)`` for the small ``n`` a shuffle asks for (up to a pack of 200 cards).
_LIMITS = tuple(_WORD - (_WORD % n) if n else 0 for n in range(201))


class Stream:
    """Uniform integers from SHA-256(seed || counter)."""

    def __init__(self, seed: bytes) -> None:
        self._words = _words(seed)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _WORD - (_WORD % n)
        for value in self._words:
            if value < limit:
                return value % n
        raise AssertionError("the stream is endless")  # pragma: no cover


def shuffle(items: Iterable[T], seed: bytes) -> tuple[T, ...]:
    """The items in the order the seed gives (Fisher-Yates, from the end): ``Stream(seed).below``
    for i + 1 = n, n - 1, ..., 2, written out (a deal is a shuffle; ``make bench-peers``).

    ``below(n)`` rejects a word only from ``2**64 - 2**64 % n`` up, which is above ``2**64 - n``:
    when no word of the first block read is that high (all but once in about 2**50 shuffles of a
    pack), each word is taken as it comes and the swaps are made from the block; otherwise the
    words are read one ``below`` at a time.

    >>> shuffle(range(10), b"seed") == _shuffle_with_stream(range(10), b"seed")
    True
    >>> cards = list(range(300))  # the one-at-a-time way, for a pack too large for the block
    >>> shuffle(cards, b"seed") == _shuffle_with_stream(cards, b"seed")
    True
    """
    out = list(items)
    count = len(out)
    if count < 2:
        return tuple(out)
    sha256, unpack = hashlib.sha256, _FOUR_WORDS.unpack
    block: list[int] = []
    for counter in range((count + 2) // 4):  # count - 1 words, four a digest
        block += unpack(sha256(seed + counter.to_bytes(8, "big")).digest())
    if count <= _BLOCK_MAX and max(block[: count - 1]) < _WORD - _BLOCK_MAX:
        for i, value in zip(range(count - 1, 0, -1), block, strict=False):
            j = value % (i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)
    return _shuffle_with_stream(out, seed)


#: The largest pack :func:`shuffle` swaps from one block of words.
_BLOCK_MAX = 256


def _shuffle_with_stream(items: Iterable[T], seed: bytes) -> tuple[T, ...]:
    """:func:`shuffle` as it reads, one ``Stream.below`` a card (the reference the doctest checks)."""
    out = list(items)
    stream = Stream(seed)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def deal_cards(
    rules: Rules, players: int, seed: bytes, first: int
) -> tuple[tuple[tuple[Card, ...], ...], Card | None, tuple[Card, ...]]:
    """The deal of one round from its seed: (hands, atu, stock top first).

    One card at a time clockwise, starting left of ``first``; ``first`` gets the extra card last
    (R51-10, R51-Q15; RMI-13). Then the atu is turned (Remi), and the rest is the stock.
    """
    pack = list(shuffle(rules.pack_for(players), seed))
    sizes = rules.hand_sizes(players, first)
    hands: list[list[Card]] = [[] for _ in range(players)]
    order = [(first + 1 + i) % players for i in range(players)]
    position = 0
    while any(len(hands[s]) < sizes[s] for s in range(players)):
        for seat in order:
            if len(hands[seat]) < sizes[seat]:
                hands[seat].append(pack[position])
                position += 1
    atu = None
    if rules.has_atu:
        atu = pack[position]
        position += 1
    return tuple(tuple(h) for h in hands), atu, tuple(pack[position:])
