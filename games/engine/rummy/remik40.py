"""Remik 40 (``docs/rules/remik40.md``): a first meld of 40, joker recovery, "Remik" (+25 to the
others) and a prize pool in site chips. One game (*partia*) is one round (R40-Q11).

The ace counts 11 wherever it lies (R40-5, R40-Q2); ``low_ace_value=1`` is the table option for an
ace at the low end of a run counting 1. The deal passes to the left each game (R40-Q13): a room's
next match starts with the next dealer. Beyond R40-Q15: a game nobody can ever finish (every hand of
two cards or fewer, and no card off the table fits any meld on it) ends void with the pool returned,
as when the stock cannot be rebuilt.

>>> rules = variant("remik40")
>>> rules.meld_points("7H JK 9H"), rules.hand_points("JK")                  # R40-EX2
(24, 15)
>>> rules.hand_points("7C QD AS JK")                                        # R40-DX2
43
>>> rules.meld_points("QS KS AS")                                           # R40-DX1
31
>>> split_pool(1000, winner=0, penalties=[0, 30, 45, 60], winner_share=75)  # R40-DX4
(750, 125, 125, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..cards import Card
from ..melds import MeldPolicy
from ..notes import note
from ..rules import MatchFacts, Option, register, variant
from ..scoring import RoundFacts, ScoreLine
from .rules import RummyRules

__all__ = ["Remik40", "split_pool", "variant"]

#: R40-28: what every loser adds after a Remik (going out in one go).
REMIK_PENALTY = 25
#: R40-29: losers with fewer penalty points than this share what the winner does not take.
PRIZE_THRESHOLD = 50


def split_pool(pool: int, *, winner: int, penalties: Sequence[int], winner_share: int) -> tuple[int, ...]:
    """Chips each seat receives from ``pool`` (R40-29 with R40-Q12).

    The winner takes ``winner_share`` percent (rounded up, so never less); the rest is split
    equally among the losers with fewer than 50 penalty points, the remainder of that division
    going to the winner. With no such loser the winner takes everything.
    """
    payouts = [0] * len(penalties)
    qualifying = [s for s, points in enumerate(penalties) if s != winner and points < PRIZE_THRESHOLD]
    if not qualifying:
        payouts[winner] = pool
        return tuple(payouts)
    top = -(-pool * winner_share // 100)
    share, remainder = divmod(pool - top, len(qualifying))
    payouts[winner] = top + remainder
    for seat in qualifying:
        payouts[seat] = share
    return tuple(payouts)


@register
class Remik40(RummyRules):
    name = "remik40"
    title = "Remik 40"
    summary = (
        "Polish rummy of the card rooms: two decks and 2 jokers, 2 to 4 players, 13 cards each. The "
        "first lay-down is worth at least 40 points; a card taken from the discard pile goes onto the "
        "table in the same move; a joker on the table is recovered by the card it stands for (a set "
        "of three: both missing cards; never from a set of four). Going out in one go (Remik) adds 25 "
        "to every loser's penalty. One game is one round; the winner takes most of the prize pool, "
        "the rest goes to the losers under 50 penalty points."
    )
    OPTIONS = (
        Option(
            "low_ace_value",
            11,
            "What an ace at the low end of a run (A-2-3) counts towards the 40 (R40-5, R40-Q2: 11 by "
            "default; 1 as many tables play).",
            choices=(11, 1),
        ),
        Option(
            "max_jokers_per_meld",
            1,
            "Jokers one meld may hold (R40-Q7).",
            choices=(1, 2),
        ),
        Option("stake", 100, "Chips each player puts into the prize pool.", minimum=1, maximum=1_000_000),
        Option(
            "winner_share_2",
            75,
            "Percent of the pool the winner takes at a table of two (at least 75).",
            minimum=75,
            maximum=100,
        ),
        Option(
            "winner_share_3",
            75,
            "Percent of the pool the winner takes at a table of three (at least 75).",
            minimum=75,
            maximum=100,
        ),
        Option(
            "winner_share_4",
            75,
            "Percent of the pool the winner takes at a table of four (at least 75).",
            minimum=75,
            maximum=100,
        ),
        Option("max_players", 4, "Seats at the table (2 to 4).", minimum=2, maximum=4),
    )

    opening_run = "none"  # R40-Q6: no pure run needed
    discard_take = "top"  # R40-Q5
    taken_card_layoff = True  # R40-Q5: melded or built on, in the same move
    take_before_opening_must_go_out = False
    joker_exchange = "remik"  # R40-21: the recovered joker is used in the same move
    exchanged_joker_layoff = True  # R40-21: ... in a meld or laid off onto one
    set_joker_exchange = "all_missing"  # R40-22/23
    joker_layoff = True  # R40-Q14
    first_player_draws = True  # R40-Q13: 13 cards each, everyone draws; no up-card
    deal_passes_each_match = True  # R40-Q13: the deal passes to the left each game
    stock_out = "reshuffle"  # R40-11
    end_when_stuck = True  # beyond R40-Q15: a game nobody can finish ends void, the pool returned
    lower_wins = True
    rule_ids: ClassVar[Mapping[str, str]] = {
        "take_top": "R40-Q5",
        "take_meld": "R40-13/Q5",
        "not_opened": "R40-19/Q8",
        "exchange_meld": "R40-21/Q10",
        "exchange": "R40-21/22",
        "set_locked": "R40-23/Q9",
        "keep_discard": "R40-14",
        "opening": "R40-18",
        "layoff": "R40-19",
        "reshuffle": "R40-11",
        "stuck": "R40-Q15",
    }

    def end_condition(self) -> str:
        return (
            "One game is one deal: it ends when a player goes out, by stages or all at once "
            '("Remik", +25 to the others); the winner takes at least '
            f"{self._options['winner_share_2']}% of the pool, the rest goes to players under 50 "
            "penalty points."
        )

    def check_options(self, options: Mapping[str, Any]) -> None:
        jokers = int(options["max_jokers_per_meld"])
        # R40-Q1: sets of 3-4 cards of one rank in different suits. R40-Q2: the ace low or high,
        # never K-A-2 nor at both ends. R40-Q7: at most `max_jokers_per_meld` jokers in a meld.
        self.policy = MeldPolicy(
            set_min=3,
            set_max=4,
            set_joker_limit=((3, jokers), (4, jokers)),
            run_min=3,
            run_joker_limit=jokers,
            adjacent_jokers=True,
            ace_low=True,
            ace_high=True,
            set_declaration_binding=False,
            rule_set="R40-15/Q1",
            rule_run="R40-16/Q2",
            rule_joker="R40-Q7",
        )

    @property
    def jokers(self) -> int:
        return 2  # R40-4

    @property
    def opening_minimum(self) -> int:
        return 40  # R40-18

    def winner_share(self, players: int) -> int:
        return int(self._options[f"winner_share_{players}"])

    def hand_sizes(self, players: int, first: int) -> tuple[int, ...]:
        return (13,) * players  # R40-9 / R40-Q13

    def card_value(self, represented: Card, kind: str, position: int) -> int:
        # R40-5 with R40-Q2: pips their number, J Q K 10, the ace 11 (at the low end of a run: the
        # table's low_ace_value, 11 by default); a joker counts as the card it stands for (R40-20, R40-Q3).
        if represented.rank == "A":
            return int(self._options["low_ace_value"]) if (kind == "run" and position == 1) else 11
        return _pip_value(represented.rank)

    def hand_value(self, card: Card) -> int:
        # R40-6 with R40-Q4: a joker left in hand costs 15, an ace 11.
        if card.is_joker:
            return 15
        return 11 if card.rank == "A" else _pip_value(card.rank)

    def score_round(self, facts: RoundFacts) -> tuple[ScoreLine, ...]:
        pool = int(self._options["stake"]) * facts.players
        if facts.ended != "went_out" or facts.winner is None:
            # R40-Q15: nothing left to rebuild the stock from (or nobody can ever go out): no
            # winner, the pool is returned.
            stake = int(self._options["stake"])
            no_winner = (note("r40_no_winner"),)
            return tuple(ScoreLine(seat, 0, notes=no_winner, chips=stake) for seat in range(facts.players))
        penalties: list[int] = []
        lines: list[tuple[int, int, tuple[str, ...]]] = []
        for seat in range(facts.players):
            if seat == facts.winner:
                how = note("r40_remik") if facts.one_go else note("r40_went_out")
                penalties.append(0)
                lines.append((0, 0, (how,)))
                continue
            hand = self.hand_points(facts.hands[seat])
            extra = REMIK_PENALTY if facts.one_go else 0  # R40-28
            penalties.append(hand + extra)
            lines.append((hand, extra, (note("r40_remik_penalty", points=REMIK_PENALTY),) if extra else ()))
        payouts = split_pool(
            pool, winner=facts.winner, penalties=penalties, winner_share=self.winner_share(facts.players)
        )
        out = []
        for seat, ((hand, extra, notes), chips) in enumerate(zip(lines, payouts, strict=True)):
            prize = (note("r40_prize", chips=chips, pool=pool),) if chips else ()
            out.append(
                ScoreLine(seat, penalties[seat], hand=hand, bonus=extra, notes=notes + prize, chips=chips)
            )
        return tuple(out)

    def match_over(self, totals: Sequence[int], rounds_played: int) -> bool:
        return True  # R40-Q11: one game is one round

    def table_facts(self, state: MatchFacts) -> dict[str, Any]:
        # R40-29: the table shows its payout structure; after the game, who received what.
        stake = int(self._options["stake"])
        payouts = net = None
        if state.results:
            payouts = [line.chips or 0 for line in state.results[-1].lines]
            net = [chips - stake for chips in payouts]
        return {
            "prize_pool": {
                "stake": stake,
                "pool": stake * state.players,
                "winner_share": self.winner_share(state.players),
                "threshold": PRIZE_THRESHOLD,
                "payouts": payouts,
                "net": net,
            }
        }


def _pip_value(rank: str) -> int:
    return 10 if rank in "TJQK" else int(rank)
