"""Gin rummy (``docs/rules/gin.md``): the classic two-player game, knock at 10, game to 100; and
the rule set of its family, :class:`GinRules`, which Oklahoma (``gin/oklahoma.py``) builds on.

The family's turn cycle (the up-card offer, draw and discard, the knock, the defender's reply, void
deals) is :mod:`games.engine.gin.cycle`; what a hand is worth (deadwood, GIN-14, on bitmasks:
:mod:`games.engine.gin.deadwood`) and how a game is settled (GIN-24, OKL-Q4) are here.

>>> rules = variant("gin")
>>> rules.hand_points("AD 2D 3D 6C 7C 8C 9C KS KH 5H")   # GIN-EX1's melds; K K 5 loose
25
>>> melds, loose = rules.best_melds("7S 8S 9S 9H 9D 2C")   # the set leaves 17, the run 20
>>> [str(meld) for meld in melds], [str(card) for card in loose]
(['9S 9H 9D'], ['7S', '8S', '2C'])
>>> rules.meld_points("AD 2D 3D"), rules.meld_points("KS KH KD")
(6, 30)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from ..cards import Card, build_pack, parse_cards
from ..melds import Meld, MeldPolicy, read_meld
from ..notes import note
from ..rules import Option, Rules, register, variant
from .deadwood import VALUES, arrangement, bit_of, deadwood, mask_of
from .state import GinColumn

__all__ = [
    "BOX_BONUS",
    "GAME_BONUS",
    "GIN_BONUS",
    "PACK",
    "UNDERCUT_BONUS",
    "Gin",
    "GinRules",
    "arrange",
    "column_result",
    "enter_columns",
    "loose_value",
    "settle",
    "variant",
]

GIN_BONUS = 25  # GIN-20
UNDERCUT_BONUS = 25  # GIN-19, GIN-Q2
GAME_BONUS = 100  # GIN-24
BOX_BONUS = 25  # GIN-24 with GIN-Q3

#: The one pack every deal of the family is shuffled from (cards are immutable, so it is shared).
PACK = build_pack(1, 0)
_RANK_INDEX = {rank: i for i, rank in enumerate("A23456789TJQK")}


def loose_value(card: Card) -> int:
    """What a natural card counts loose (GIN-13: pips, faces 10, the ace 1)."""
    return VALUES[_RANK_INDEX[card.rank]]


def arrange(rules: Rules, cards: Sequence[Card]) -> tuple[list[Meld], list[Card]]:
    """A deadwood-minimal arrangement of ``cards`` (GIN-12, GIN-Q8): its melds (of these very
    cards) and the cards left loose."""
    by_bit = {bit_of(card): card for card in cards}
    _, masks = arrangement(mask_of(cards))
    melds = []
    used = 0
    for mask in masks:
        used |= mask
        meld_cards = []
        while mask:
            low = mask & -mask
            meld_cards.append(by_bit[low])
            mask ^= low
        melds.append(read_meld(meld_cards, rules.policy))
    return melds, [card for card in cards if not bit_of(card) & used]


class GinRules(Rules):
    """What gin and its relatives share: 2 players, one deck, 10 cards, ace low, knock and gin."""

    policy = MeldPolicy(
        set_min=3,
        set_max=4,
        set_joker_limit=((3, 0), (4, 0)),
        run_min=3,
        ace_low=True,
        ace_high=False,  # GIN-3, GIN-11: A-K-Q and K-A-2 are not runs
        jokers=False,  # GIN-2
        rule_set="GIN-10",
        rule_run="GIN-11",
        rule_joker="GIN-2",
    )
    lower_wins = False
    family = "gin"
    default_max_players = 2  # GIN-1
    first_dealer = "lot"
    #: Three parallel score columns (Oklahoma, OKL-5..9).
    hollywood: ClassVar[bool] = False

    def end_condition(self) -> str:
        return (
            f"The game ends when a player's score reaches {self._options['target']} (GIN-23); the "
            f"winner adds a {GAME_BONUS}-point game bonus and {BOX_BONUS} for each deal won more "
            "than the opponent, minus the opponent's score (GIN-24)."
        )

    @property
    def decks(self) -> int:
        return 1

    @property
    def jokers(self) -> int:
        return 0

    def pack(self) -> tuple[Card, ...]:
        return PACK

    @property
    def target(self) -> int:
        return int(self._options["target"])

    def hand_sizes(self, players: int, first: int) -> tuple[int, ...]:
        return (10,) * players  # GIN-6

    def knock_limit(self, upcard: Card) -> int:
        """Most loose points a knock may keep in a deal with this first up-card (0: gin only)."""
        return 10  # GIN-15

    def deal_factor(self, upcard: Card) -> int:
        """What the deal's score is multiplied by."""
        return 1

    def card_value(self, represented: Card, kind: str, position: int) -> int:
        return loose_value(represented)  # GIN-13: a meld's cards counted at their loose values

    def hand_value(self, card: Card) -> int:
        return loose_value(card)

    def hand_points(self, cards: Iterable[Card] | str) -> int:
        """The hand's deadwood after its best arrangement (GIN-14)."""
        seq = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
        return deadwood(mask_of(seq))

    def best_melds(self, cards: Iterable[Card] | str) -> tuple[tuple[Meld, ...], tuple[Card, ...]]:
        """A deadwood-minimal arrangement: ``(melds, loose cards)`` (GIN-12, GIN-Q8)."""
        seq = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
        melds, loose = arrange(self, list(seq))
        return tuple(melds), tuple(loose)

    def match_over(self, totals: Sequence[int], rounds_played: int) -> bool:
        return max(totals) >= self.target  # GIN-23

    def game_over(self, totals: Sequence[int], columns: Sequence[GinColumn] | None) -> bool:
        """After a deal with a winner: the game is over (GIN-23; Oklahoma: every column, OKL-8)."""
        if self.hollywood:
            return all(column.winner is not None for column in columns or ())
        return self.match_over(totals, 0)


def enter_columns(
    columns: Sequence[GinColumn], winner: int, wins: int, points: int, target: int
) -> tuple[tuple[GinColumn, ...], list[int]]:
    """OKL-6 with OKL-Q2/Q3: the k-th win goes into columns 1..min(k, 3) that are still open."""
    out: list[GinColumn] = []
    entered = []
    for index, column in enumerate(columns):
        if index < min(wins, 3) and column.winner is None:
            scores = list(column.scores)
            deals = list(column.deals)
            scores[winner] += points
            deals[winner] += 1
            entered.append(index)
            finished = winner if scores[winner] >= target else None  # OKL-7 with OKL-Q6
            column = GinColumn(tuple(scores), tuple(deals), finished)
        out.append(column)
    return tuple(out), entered


def _settle_one(scores: Sequence[int], deals: Sequence[int], winner: int) -> tuple[int, dict[str, int]]:
    """The settlement of one game (GIN-24 with GIN-Q3): what the winner wins, and its parts."""
    loser = 1 - winner
    box = BOX_BONUS * (deals[winner] - deals[loser])
    result = scores[winner] + GAME_BONUS + box - scores[loser]
    parts = {
        "points": scores[winner],
        "game_bonus": GAME_BONUS,
        "box": box,
        "box_bonus": BOX_BONUS,
        "won": deals[winner],
        "lost": deals[loser],
        "opponent": scores[loser],
        "result": result,
    }
    return result, parts


def column_result(column: GinColumn) -> dict[str, Any] | None:
    """A finished Oklahoma column settled as a gin game (OKL-Q4): ``{"winner", "points"}``."""
    if column.winner is None:
        return None
    return {"winner": column.winner, "points": _settle_one(column.scores, column.deals, column.winner)[0]}


def settle(
    rules: GinRules,
    totals: Sequence[int],
    won: Sequence[int],
    columns: Sequence[GinColumn] | None,
    winner: int,
    names: Sequence[str] = ("P1", "P2"),
) -> dict[str, Any]:
    """The final settlement (GIN-24 with GIN-Q3; Oklahoma: each column so, then summed, OKL-Q4).

    ``winner`` is the seat whose total reached the target (gin). Returns ``{"winners", "net": [per
    seat], "points": what the winner wins, "columns", "notes"}``.
    """
    if not rules.hollywood or columns is None:
        result, parts = _settle_one(totals, won, winner)
        net = [result if seat == winner else -result for seat in range(2)]
        notes = [note("gin_game_won", name=names[winner], **parts)]
        return {"winners": [winner], "net": net, "points": result, "columns": None, "notes": notes}
    net0 = 0
    settled = []
    notes = []
    for index, column in enumerate(columns):
        assert column.winner is not None
        result, parts = _settle_one(column.scores, column.deals, column.winner)
        net0 += result if column.winner == 0 else -result
        settled.append({"winner": column.winner, "points": result})
        notes.append(note("okl_column_won", column=index + 1, name=names[column.winner], **parts))
    winners = [0] if net0 > 0 else [1] if net0 < 0 else [0, 1]
    notes.append(note("okl_net", name=names[0], net=f"{net0:+d}", name2=names[1], net2=f"{-net0:+d}"))
    return {"winners": winners, "net": [net0, -net0], "points": abs(net0), "columns": settled, "notes": notes}


@register
class Gin(GinRules):
    name = "gin"
    title = "Gin rummy"
    summary = (
        "Two players, one deck, ten cards each; the 21st card is offered face up. Melds stay in the "
        "hand: knock with at most 10 loose points, or go gin with none. The opponent lays off onto "
        "a knocker's melds; an undercut and gin earn 25. The game goes to 100, with a 100 game "
        "bonus and 25 for each deal won more than the opponent."
    )
    OPTIONS = (
        Option(
            "target",
            100,
            "The game ends when a player's score reaches this many points (GIN-23).",
            minimum=10,
            maximum=10_000,
        ),
    )
