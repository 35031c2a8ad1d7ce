"""Play the rules engine in a terminal, replay game records, and check deals.

``python -m games.engine play remik51 --seats 4 --bots 3`` seats one human and three bots (the
humans take the first seats; with several humans they share the terminal, hot seat). Type ``help``
at the prompt for the command language. The commands read standard input line by line, so a game
can be scripted by piping commands in.

``python -m games.engine replay FILE`` replays a JSON game record (``records.record_to_json``) and
prints every round's score lines, the totals and the winners.

``python -m games.engine record-demo remik51 --seed 7 --out game.json`` writes the record of a
bot-only match; ``python -m games.engine verify game.json 1`` re-derives round 1's deal from the
record's seed and checks it against the commitment and the hands dealt.

Exit codes: 0 done, 2 bad usage, unreadable input, or a failed check.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .. import errors
from ..cards import Card, parse_card, parse_cards, sort_key
from ..deal import deal_seed
from ..events import Event
from ..game import apply_move, end_match, legal_moves, new_game
from ..knock108.deal import KIND_NAME
from ..moves import (
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
    cards_text,
    move_text,
)
from ..perspective import view_for
from ..record_check import verify_record
from ..records import make_record, record_from_json, record_to_json
from ..records import verify_deal as _verify_deal
from ..rules import Rules, variant, variant_names
from ..rummy.bots.normal import NormalBot
from ..rummy.state import RummyState
from ..scoring import RoundResult
from ..state import GameState, Transition, atu_of

EXIT_OK = 0
EXIT_USAGE = 2

HELP = """\
Commands (cards in notation: 7H, TS, AC, JK; a joker in a meld may say what it stands for: JK(8H)):

  draw                        draw the top card of the stock                       (alias: d)
  take [CARD] meld ...        take CARD from the discard pile (default: the top card) and,
                              in the same command, lay the new meld(s) that use it:
                                take 3H meld 3H 4H 5H
  meld CARDS[, CARDS ...]     lay new melds; a comma separates melds:              (alias: m)
                                meld 9S TS JS, 8H 8D 8C
  add ID CARDS[, ID CARDS]    lay off cards onto the table meld with that id:     (alias: a)
                                add 3 TH
  swap ID CARD                put CARD in place of the joker in table meld ID, taking the
                              joker (Remik: meld it in the same command):
                                swap 2 5D meld 9S 9H JK(9D)
  discard CARD                discard a card, ending your turn                     (alias: x)
  pass                        decline: the up-card offer, a reply or an extra exchange (alias: p)
  knock [CARD] [meld ...]     knock-family games (gin, oklahoma, knock108): discard CARD and
                              end the deal; without melds the engine lays your best ones:
                                knock 9C

  meld / add / swap may be combined in one line; the whole line is one move, done all at once
  or not at all (an opening, or a joker exchange and its meld, must be one line).

  hint      what the engine and the bot suggest       hand    your hand
  table     the whole table                           scores  the score sheet
  rules     the rules of this table                   bot     let the bot make this move for you
  help      this text                                 quit    leave the game
"""


# --- showing cards and moves -------------------------------------------------------------------


def hand_text(cards: Sequence[Card | str]) -> str:
    """A hand sorted by suit then rank, suits apart, jokers last."""
    parsed = sorted((parse_card(c) if isinstance(c, str) else c for c in cards), key=sort_key)
    groups: list[list[str]] = []
    last = None
    for card in parsed:
        if card.suit != last:
            groups.append([])
            last = card.suit
        groups[-1].append(card_text(card))
    return "   ".join(" ".join(group) for group in groups) or "(empty)"


def command_for(move: Move) -> str:
    """A move written in the command language (what a player would type)."""
    match move:
        case DrawStock():
            return "draw"
        case Discard(card=card):
            return f"discard {card_text(card)}"
        case TakeDiscard(card=card, play=play):
            taken = f" {card_text(card)}" if card is not None else ""
            return f"take{taken} {command_for(play)}".rstrip()
        case Play(melds=melds, layoffs=layoffs, exchanges=exchanges):
            parts: list[str] = []
            if exchanges:
                parts.append("swap " + ", ".join(f"{ex.meld} {card_text(ex.card)}" for ex in exchanges))
            if melds:
                parts.append("meld " + ", ".join(cards_text(meld) for meld in melds))
            if layoffs:
                parts.append("add " + ", ".join(f"{lo.meld} {cards_text(lo.cards)}" for lo in layoffs))
            return " ".join(parts)
        case Pass():
            return "pass"
        case Knock(card=card, melds=melds):
            text = "knock" + (f" {card_text(card)}" if card is not None else "")
            return text + (" meld " + ", ".join(cards_text(meld) for meld in melds) if melds else "")
    return repr(move)


def _table(rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> list[str]:
    """Rows as aligned columns (column indexes in ``right`` are right-aligned)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


# --- the command language ----------------------------------------------------------------------

_KEYWORDS = {"meld": "meld", "m": "meld", "add": "add", "a": "add", "swap": "swap", "exchange": "swap"}


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed input line: an info command (``name``) or a move."""

    name: str
    move: Move | None = None


def _play_from_tokens(tokens: list[str]) -> Play:
    if not tokens:
        raise errors.MalformedMoveError("say what to lay: meld ..., add ID CARDS, swap ID CARD")
    clauses: list[tuple[str, list[str]]] = []
    for token in tokens:
        keyword = _KEYWORDS.get(token.lower())
        if keyword is not None:
            clauses.append((keyword, []))
        elif not clauses:
            raise errors.MalformedMoveError(f"expected meld, add or swap before {token!r}")
        else:
            clauses[-1][1].append(token)
    melds: list[tuple[Card, ...]] = []
    layoffs: list[LayOff] = []
    exchanges: list[Exchange] = []
    for keyword, words in clauses:
        groups = [group.split() for group in " ".join(words).split(",")]
        groups = [group for group in groups if group]
        if not groups:
            raise errors.MalformedMoveError(f"{keyword} needs cards (see help)")
        for group in groups:
            if keyword == "meld":
                melds.append(parse_cards(group))
                continue
            if not group[0].isdigit():
                raise errors.MalformedMoveError(
                    f"{keyword} starts with a table meld id (a number), not {group[0]!r}"
                )
            meld_id, cards = int(group[0]), parse_cards(group[1:])
            if keyword == "add":
                if not cards:
                    raise errors.MalformedMoveError("add ID CARDS: which cards?")
                layoffs.append(LayOff(meld_id, cards))
            else:
                if len(cards) != 1:
                    raise errors.MalformedMoveError("swap ID CARD: exactly one card per joker")
                exchanges.append(Exchange(meld_id, cards[0]))
    return Play(tuple(melds), tuple(layoffs), tuple(exchanges))


def parse_command(line: str) -> Command:
    """Read one input line. Raises MalformedMoveError (or MalformedCardError) on bad input."""
    tokens = line.replace(",", " , ").split()
    if not tokens:
        return Command("")
    head, rest = tokens[0].lower(), tokens[1:]
    if head in ("help", "?", "h"):
        return Command("help")
    if head in ("hand", "table", "scores", "hint", "quit", "exit", "rules", "bot", "t", "s", "q"):
        short = {"t": "table", "s": "scores", "q": "quit", "exit": "quit"}
        if rest:
            raise errors.MalformedMoveError(f"{head} takes no arguments")
        return Command(short.get(head, head))
    if head in ("draw", "d"):
        if rest:
            raise errors.MalformedMoveError("draw takes no arguments (to take a discard: take CARD meld ...)")
        return Command("move", DrawStock())
    if head in ("discard", "x"):
        if len(rest) != 1:
            raise errors.MalformedMoveError("discard CARD: one card")
        return Command("move", Discard(parse_card(rest[0])))
    if head == "take":
        card = None
        if rest and rest[0].lower() not in _KEYWORDS:
            card = parse_card(rest[0])
            rest = rest[1:]
        # Remik and Remi meld a taken card at once (take 3H meld 3H 4H 5H); gin just takes it.
        return Command("move", TakeDiscard(card, _play_from_tokens(rest) if rest else Play()))
    if head in ("pass", "p"):
        if rest:
            raise errors.MalformedMoveError("pass takes no arguments")
        return Command("move", Pass())
    if head == "knock":
        card = None
        if rest and rest[0].lower() not in _KEYWORDS:
            card = parse_card(rest[0])
            rest = rest[1:]
        melds = _play_from_tokens(rest).melds if rest else ()
        return Command("move", Knock(card, melds))
    if head in _KEYWORDS:
        return Command("move", _play_from_tokens(tokens))
    raise errors.MalformedMoveError(f"unknown command {tokens[0]!r} (type help)")


def settle_exchanged_jokers(state: GameState, move: Move) -> Move:
    """Write the exchanged joker's id into a play's melds where the player wrote a bare ``JK``.

    The engine resolves a bare ``JK`` to the first joker available, which may be one already in
    the hand; the player means the joker they are taking from the table (R51-27).
    """
    play = move.play if isinstance(move, TakeDiscard) else move
    if not isinstance(play, Play) or not play.exchanges or not play.melds:
        return move
    freed: list[Card] = []
    consumed = state.cycle.consumed if isinstance(state.cycle, RummyState) else ()
    policy = state.rules.policy
    for exchange in play.exchanges:
        table_meld = state.meld_by_id(exchange.meld)
        if table_meld is None:
            continue
        meld = table_meld.meld
        # The joker the engine will hand over: as in rummy.play._exchange (R51-27; RMI-40, RMI-Q10).
        candidates: list[Card] = []
        present = {c.suit for c in meld.cards if not c.is_joker}
        for slot, rep in zip(meld.cards, meld.represented, strict=True):
            if not slot.is_joker or slot.bare() in consumed or slot.bare() in freed:
                continue
            if meld.kind == "run" or policy.set_declaration_binding:
                if rep.same_face(exchange.card):
                    candidates.append(slot.bare())
            elif exchange.card.rank == meld.rank and exchange.card.suit not in present:
                if rep.same_face(exchange.card):
                    candidates.insert(0, slot.bare())
                else:
                    candidates.append(slot.bare())
        if candidates:
            freed.append(candidates[0])
    if not freed or any(c.is_joker and c.copy for meld in play.melds for c in meld):
        return move
    melds: list[tuple[Card, ...]] = []
    for written in play.melds:
        cards: list[Card] = []
        for card in written:
            if card.is_joker and not card.copy and freed:
                joker = freed.pop(0)
                card = joker.declared(card.stands_for) if card.stands_for is not None else joker
            cards.append(card)
        melds.append(tuple(cards))
    settled = Play(tuple(melds), play.layoffs, play.exchanges)
    return TakeDiscard(move.card, settled) if isinstance(move, TakeDiscard) else settled


# --- rendering the table -----------------------------------------------------------------------


def _plays_first(name: str) -> str:
    return "You play first." if name == "You" else f"{name} plays first."


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _name(view: Mapping[str, Any], seat: int) -> str:
    return str(view["names"][seat])


def render_scores(view: Mapping[str, Any]) -> list[str]:
    rules = variant(view["variant"], **view["options"])
    names = view["names"]
    rounds = view["scores"]["rounds"]
    header = ["round", *names]
    rows = [header]
    for result in rounds:
        rows.append([str(result["round"]), *(str(line["points"]) for line in result["lines"])])
    rows.append(["total", *(str(t) for t in view["scores"]["totals"])])
    lines = [f"Score sheet ({'lowest' if rules.lower_wins else 'highest'} total wins):"]
    lines += _table(rows, right=range(1, len(header)))
    return lines


def render_table(view: Mapping[str, Any]) -> list[str]:
    """The table as ``seat`` sees it: scores, piles, melds, the other hands' sizes, the own hand."""
    rules = variant(view["variant"], **view["options"])
    seat = view["seat"]
    turn = view["turn"]
    lines = [
        f"=== {rules.title} · round {view['round']} · {_name(view, turn)} to play ({view['phase']}) ===",
    ]
    totals = view["scores"]["totals"]
    score_bits = [f"{_name(view, s)} {totals[s]}" for s in range(view["players"])]
    goal = "lowest wins" if rules.lower_wins else "highest wins"
    limit = view["options"].get("penalty_limit")
    if limit is not None:
        goal += f", limit {limit}"
    lines.append(f"Scores : {' | '.join(score_bits)}   ({goal})")
    discard = view["discard"]
    if rules.discard_take == "row":
        row = cards_text(discard) if discard else "(empty)"
        lines.append(f"Stock  : {_count(view['stock_size'], 'card')}   Discard row (oldest -> newest): {row}")
    else:
        pile = "Discard pile: empty"
        if discard:
            pile = f"Discard pile: {_count(len(discard), 'card')}, top {card_text(discard[-1])}"
        lines.append(f"Stock  : {_count(view['stock_size'], 'card')}   {pile}")
    if view.get("atu"):
        taken = view.get("atu_taken_by")
        note = f" (taken by {_name(view, taken)})" if taken is not None else ""
        lines.append(f"Atu    : {card_text(view['atu'])}{note}")
    if view["melds"]:
        lines.append("Table  :")
        rows = []
        for meld in view["melds"]:
            rows.append(
                [
                    f"[{meld['id']}]",
                    _name(view, meld["owner"]),
                    meld["kind"],
                    cards_text(meld["cards"]),
                    f"{meld['points']} pts",
                ]
            )
        lines += [" " + line for line in _table(rows, right=(0, 4))]
    else:
        lines.append("Table  : no melds yet")
    others = [
        f"{_name(view, s)} {view['hand_sizes'][s]}{' (opened)' if view['opened'][s] else ''}"
        for s in range(view["players"])
        if s != seat
    ]
    lines.append(f"Hands  : {', '.join(others)}")
    # A family may describe what only it has (an offer, a knock, a ledger).
    family_lines = FAMILY_LINES.get(rules.family)
    if family_lines is not None:
        lines += family_lines(view)
    if seat is not None and view.get("hand") is not None:
        lines.append(
            f"You    : {_name(view, seat)}, {_count(len(view['hand']), 'card')}: {hand_text(view['hand'])}"
        )
        you = view.get("you") or {}
        opening = you.get("opening")
        if opening:
            run = {"pure": " incl. a pure run", "any": " incl. a run"}.get(opening["required_run"], "")
            missing = ", ".join(opening["missing"]) or "nothing: you can open"
            lines.append(
                f"Opening: needs {opening['required_points']} pts{run}; best found "
                f"{opening['best_points']} pts (missing: {missing})"
            )
        if you.get("my_turn") and you.get("first_turn") and rules.first_turn_locked:
            lines.append("First turn: nothing of yours may reach the table yet (RMI-19).")
    return lines


def gin_lines(view: Mapping[str, Any]) -> list[str]:
    """The gin family's lines of the table: the deal, the offer, the knock, the deals won."""
    block = view.get("gin") or {}
    names = view["names"]
    lines = []
    upcard = (block.get("upcard") or "").split("#")[0]
    limit = block.get("knock_limit")
    limit_text = "gin only" if limit == 0 else f"knock with up to {limit}"
    factor = block.get("factor") or 1
    lines.append(
        f"Deal   : up-card {upcard}, {limit_text}{', score doubled' if factor > 1 else ''}; "
        f"dealer {names[(view['first'] + 1) % 2]}"
    )
    step = block.get("step")
    if step == "offer":
        lines.append(f"Offer  : the up-card goes to {names[view['turn']]}: take or pass (GIN-8)")
    elif block.get("stock_only") and view["phase"] == "draw":
        lines.append("Offer  : both declined the up-card: draw from the stock (GIN-Q4)")
    knock = block.get("knock")
    if knock is not None:
        what = "went gin" if knock["gin"] else f"knocked with {knock['points']}"
        loose = " ".join(card.split("#")[0] for card in knock["deadwood"]) or "none"
        lines.append(f"Knock  : {names[knock['seat']]} {what}; loose cards: {loose}")
        if step == "reply":
            lines.append("Reply  : lay melds and lay-offs (meld ..., add ID CARDS), then pass to be counted")
    won = block.get("deals_won") or []
    lines.append(
        "Deals  : "
        + ", ".join(f"{names[s]} won {n}" for s, n in enumerate(won))
        + f"; game to {block.get('target')}"
    )
    for i, column in enumerate(block.get("columns") or []):
        scores = column["scores"]
        done = f" finished, won by {names[column['winner']]}" if column["winner"] is not None else ""
        lines.append(f"Column {i + 1}: {names[0]} {scores[0]} - {names[1]} {scores[1]}{done}")
    settlement = block.get("settlement")
    if settlement is not None:
        lines += [f"Result : {note}" for note in settlement["notes"]]
    if view.get("you", {}).get("my_turn"):
        you = view["you"]
        hints = {
            "offer": "take (the up-card) or pass",
            "draw": "draw, or take (the top face-up card)" if "take" in you["moves"] else "draw",
            "play": "discard CARD, or knock CARD [meld CARDS, CARDS ...] (the engine lays your best "
            "melds if you name none)",
        }
        hint = hints["offer"] if step == "offer" else hints.get(view["phase"]) if step == "turn" else None
        if hint:
            lines.append(f"Moves  : {hint}")
        lines.append(f"Deadwood: {you['deadwood']} (best melds laid)")
        if you.get("knock_discards"):
            cards = " ".join(c.split("#")[0] for c in you["knock_discards"])
            lines.append(f"Knock  : you may knock discarding {cards} (knock CARD)")
    return lines


def knock108_lines(view: Mapping[str, Any]) -> list[str]:
    """Lines for the terminal's table: who is in, the pool and chips, a knock, a buy-back."""
    names = view["names"]
    stakes = view["stakes"]
    lines = []
    status = []
    for seat, name in enumerate(names):
        state = "in" if view["in_game"][seat] else "OUT"
        status.append(f"{name} {view['scores']['totals'][seat]} ({state}, chips {stakes['chips'][seat]:+d})")
    lines.append(f"Records: {' | '.join(status)}   (over {view['limit']} is out)")
    lines.append(f"Pool   : {stakes['pool']} chips (stake {stakes['stake']})")
    knock = view.get("knock")
    if knock is not None:
        loose = " ".join(knock["loose"]) or "nothing"
        lines.append(
            f"Knock  : {names[knock['seat']]} knocked with {knock['points']} (loose: {loose}); "
            "extra exchange: draw or take, then discard; or pass"
        )
    offer = view.get("buy_back")
    if offer is not None:
        lines.append(
            f"Buy-back: {', '.join(names[s] for s in offer['to_decide'])} may come back for "
            f"{offer['cost']} chips with a record of {offer['record']}: knock = buy back, pass = stay out"
        )
    you = view.get("you") or {}
    if you.get("my_turn") and you.get("stage") != "buy_back" and view.get("hand"):
        text = f"Loose  : {you['loose_points']} points in your hand as it is"
        hint = you.get("knock")
        if hint is not None:
            kind = hint["kind"]
            what = f"a knock with {hint['points']}" if kind == "knock" else KIND_NAME[kind]
            text += f"; you can end the deal: knock {hint['card'].split('#')[0]} ({what})"
        lines.append(text)
    last = view.get("last_deal")
    if last and last.get("seats"):
        parts = []
        for item in last["seats"]:
            laid = " ".join(f"[{' '.join(m)}]" for m in item["melds"])
            what = KIND_NAME[item["special"]] if item["special"] else laid or "-"
            loose = " ".join(item["loose"])
            parts.append(f"{names[item['seat']]}: {what}{' loose ' + loose if loose else ''}")
        lines.append(f"Deal {last['round']}: " + "; ".join(parts))
    return lines


#: The lines each family other than the rummy cycle adds to the table.
FAMILY_LINES: dict[str, Callable[[Mapping[str, Any]], list[str]]] = {
    "gin": gin_lines,
    "knock108": knock108_lines,
}


def render_result(state: GameState, result: RoundResult) -> list[str]:
    """One finished round: how it ended and every seat's score line with its breakdown."""
    names = state.names
    if result.ended == "went_out" and result.winner is not None and state.rules.family != "rummy":
        how = f"{names[result.winner]} won the deal (the notes say how)"  # a knock, gin, a special hand
    elif result.ended == "went_out" and result.winner is not None:
        how = f"{names[result.winner]} went out"
    elif result.ended == "stock_out":
        how = "the stock ran out"
    else:
        how = "void round (nobody could go on)"
    lines = [f"--- Round {result.round_no} over: {how} ---"]
    rows = [["player", "hand", "table", "bonus", "atu", "x", "points", "total", "notes"]]
    for line in result.lines:
        rows.append(
            [
                names[line.seat],
                str(line.hand),
                str(line.table),
                str(line.bonus),
                str(line.atu_bonus),
                str(line.multiplier),
                str(line.points),
                str(result.totals[line.seat]),
                "; ".join(line.notes),
            ]
        )
    lines += _table(rows, right=range(1, 8))
    for seat, hand in enumerate(result.hands):
        if hand:
            lines.append(f"  {names[seat]} held: {hand_text(hand)}")
    return lines


def render_final(state: GameState) -> list[str]:
    names = state.names
    lines = ["Totals: " + ", ".join(f"{names[s]} {state.totals[s]}" for s in range(state.players))]
    if state.phase == "over":
        winners = " and ".join(names[s] for s in state.winners)
        lines.append(f"Match over after {len(state.results)} round(s). Winner: {winners}.")
    else:
        lines.append(
            f"Match in progress: round {state.round_no}, {names[state.turn]} to play ({state.phase})."
        )
    return lines


# --- driving bots (the bot itself only ever sees a view) ---------------------------------------


def bot_turn_move(bot: NormalBot, state: GameState, seat: int) -> tuple[Move, Transition]:
    """The bot's move for ``seat`` and its transition; falls back down the bot's candidates.

    The bot checks its moves itself, so a refusal here would be an engine inconsistency; it is
    recorded in ``bot.anomalies`` and the next candidate is tried.
    """
    for move in bot.candidate_moves(view_for(state, seat)):
        try:
            return move, apply_move(state, seat, move)
        except errors.IllegalMoveError as error:
            bot.anomalies.append(f"refused {move!r}: {error.code}: {error}")
    move = legal_moves(state, seat)[0]
    return move, apply_move(state, seat, move)


# --- the terminal game ---------------------------------------------------------------------------


@dataclass
class TerminalGame:
    state: GameState
    humans: frozenset[int]
    out: TextIO
    inp: TextIO
    echo: bool = False
    max_rounds: int | None = None
    quiet_bots: bool = False
    bot: NormalBot = field(default_factory=NormalBot)
    moves: list[tuple[int, Move]] = field(default_factory=list)
    _shown: tuple[int, int, int] | None = None

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def run(self) -> int:
        names = self.state.names
        self.say(f"{self.state.rules.title}: {', '.join(names)}. Type help for the commands.")
        self.say(f"Round 1: {_plays_first(names[self.state.first])}")
        while self.state.phase != "over":
            seat = self.state.turn
            if seat in self.humans:
                if not self._human_step(seat):
                    self.say("You left the game.", *render_final(self.state))
                    return EXIT_OK
            else:
                move, transition = bot_turn_move(self.bot, self.state, seat)
                if not self.quiet_bots:
                    self.say(f"  {names[seat]} {move_text(move)}")
                self._advance(seat, move, transition)
            if self._round_limit_reached():
                self.state = end_match(self.state).state
                self.say(f"Stopping after {self.max_rounds} round(s).")
        self.say(*render_final(self.state))
        return EXIT_OK

    def _round_limit_reached(self) -> bool:
        limit = self.max_rounds
        return limit is not None and self.state.phase != "over" and len(self.state.results) >= limit

    def _advance(self, seat: int, move: Move, transition: Transition) -> None:
        before = len(self.state.results)
        self.state = transition.state
        self.moves.append((seat, move))
        self._report(transition.events, seat)
        for result in self.state.results[before:]:
            self.say(*render_result(self.state, result))
            if self.state.phase != "over" and not self._round_limit_reached():
                first = _plays_first(self.state.names[self.state.first])
                self.say(f"Round {self.state.round_no}: {first}")

    def _report(self, events: Sequence[Event], seat: int) -> None:
        for event in events:
            if event.kind == "drew_card" and event.to == seat and seat in self.humans:
                self.say(f"  You drew {card_text(event.data['card'])}.")
            elif event.kind == "stock_rebuilt":
                self.say(
                    f"  The discard pile was shuffled into a new stock ({event.data['stock_size']} cards)."
                )

    def _prompt(self, seat: int) -> str | None:
        name = self.state.names[seat]
        self.out.write(f"{name}> ")
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say("")
            return None
        line = line.strip()
        if self.echo:
            self.say(line)
        return line

    def _human_step(self, seat: int) -> bool:
        """Read commands until one move is accepted. False when the player quits."""
        state = self.state
        marker = (state.round_no, state.turns_started[seat], seat)
        if self._shown != marker:
            self._shown = marker
            if len(self.humans) > 1:
                self.say(f"*** {state.names[seat]}'s turn ***")
            self.say(*render_table(view_for(state, seat)))
        while True:
            line = self._prompt(seat)
            if line is None:
                return False
            try:
                command = parse_command(line)
            except errors.IllegalMoveError as error:
                self.say(f"  ! [{error.code}] {error}")
                continue
            if command.name == "quit":
                return False
            if command.name == "bot":
                move, transition = bot_turn_move(self.bot, state, seat)
                self.say(f"  The bot {move_text(move)} for you.")
            elif command.name != "move":
                self._info(command.name, seat)
                continue
            else:
                assert command.move is not None
                move = settle_exchanged_jokers(state, command.move)
                try:
                    transition = apply_move(state, seat, move)
                except errors.IllegalMoveError as error:
                    self.say(f"  ! illegal move [{error.code}]: {error}")
                    continue
            self._advance(seat, move, transition)
            if (
                self.state.phase != "over"
                and self.state.turn == seat
                and isinstance(move, (Play, TakeDiscard))
            ):
                self.say(*render_table(view_for(self.state, seat)))
            elif self.state.phase != "over" and self.state.turn == seat:
                self.say(f"  Your hand: {hand_text(self.state.hands[seat])}")
            return True

    def _info(self, name: str, seat: int) -> None:
        view = view_for(self.state, seat)
        if name == "help":
            self.say(HELP)
        elif name == "hand":
            self.say(f"  {hand_text(view['hand'])}")
        elif name == "table":
            self.say(*render_table(view))
        elif name == "scores":
            self.say(*render_scores(view))
        elif name == "rules":
            self.say(self.state.rules.describe())
        elif name == "hint":
            self.say(*self._hints(seat))

    def _hints(self, seat: int) -> list[str]:
        state = self.state
        view = view_for(state, seat)
        lines = []
        opening = (view.get("you") or {}).get("opening")
        if opening and opening["melds"]:
            label = "your opening" if opening["ready"] else "your best melds so far"
            lines.append(f"  {label}: " + ", ".join(f"[{cards_text(m)}]" for m in opening["melds"]))
        composite = [m for m in legal_moves(state, seat) if isinstance(m, (Play, TakeDiscard))]
        if composite:
            lines.append("  the engine finds:")
            lines += [f"    {command_for(m)}" for m in composite[:12]]
            if len(composite) > 12:
                lines.append(f"    ... and {len(composite) - 12} more")
        elif state.phase == "draw":
            lines.append("  nothing to take: draw")
        suggestion = next(iter(self.bot.candidate_moves(view)), None)
        if suggestion is not None:
            lines.append(f"  the bot would play: {command_for(suggestion)}")
        return lines


# --- commands -------------------------------------------------------------------------------------


def _option_value(text: str) -> Any:
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("none", "null", ""):
        return None
    if re.fullmatch(r"-?\d+", text.strip()):
        return int(text)
    return text.strip()


def _rules_from_args(name: str, options: Sequence[str]) -> Rules:
    values: dict[str, Any] = {}
    for item in options:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"an option is key=value, not {item!r}")
        values[key.strip()] = _option_value(value)
    return variant(name, **values)


def _endless(rules: Rules) -> bool:
    options = rules.options
    return rules.name == "remi" and options.get("rounds") is None and options.get("target") is None


def _seed(value: int | None, out: TextIO) -> int:
    if value is not None:
        return value
    seed = secrets.randbelow(10**9)
    print(f"(seed {seed})", file=out)
    return seed


def _names(seats: int, bots: int) -> list[str]:
    humans = seats - bots
    names = ["You"] if humans == 1 else [f"Human{i + 1}" for i in range(humans)]
    return names + [f"Bot{i + 1}" for i in range(bots)]


def cmd_play(args: argparse.Namespace, inp: TextIO, out: TextIO) -> int:
    rules = _rules_from_args(args.variant, args.option)
    if args.bots is None:
        args.bots = args.seats - 1
    if not 0 <= args.bots <= args.seats:
        raise ValueError(f"--bots must be between 0 and --seats ({args.seats})")
    seed = _seed(args.seed, out)
    names = _names(args.seats, args.bots)
    state = new_game(rules, names, seed)
    max_rounds = args.max_rounds
    if max_rounds is None and args.bots == args.seats and _endless(rules):
        max_rounds = 5
        print("(an endless Remi table with bots only: stopping after 5 rounds)", file=out)
    game = TerminalGame(
        state=state,
        humans=frozenset(range(args.seats - args.bots)),
        out=out,
        inp=inp,
        echo=not inp.isatty(),
        max_rounds=max_rounds,
        quiet_bots=args.quiet,
    )
    code = game.run()
    if args.save:
        record = make_record(rules, names, seed, game.moves)
        Path(args.save).write_text(json.dumps(record_to_json(record), indent=1) + "\n")
        print(f"Record written to {args.save}.", file=out)
    return code


def cmd_record_demo(args: argparse.Namespace, out: TextIO) -> int:
    rules = _rules_from_args(args.variant, args.option)
    seed = args.seed if args.seed is not None else 1
    names = [f"Bot{i + 1}" for i in range(args.seats)]
    state = new_game(rules, names, seed)
    max_rounds = args.max_rounds
    if max_rounds is None and _endless(rules):
        max_rounds = 3
    bot = NormalBot()
    moves: list[tuple[int, Move]] = []
    while state.phase != "over" and len(moves) < args.max_moves:
        if max_rounds is not None and len(state.results) >= max_rounds:
            break
        seat = state.turn
        move, transition = bot_turn_move(bot, state, seat)
        moves.append((seat, move))
        state = transition.state
    record = record_to_json(make_record(rules, names, seed, moves))
    text = json.dumps(record, indent=1) + "\n"
    if args.out == "-":
        out.write(text)
        return EXIT_OK
    Path(args.out).write_text(text)
    print(f"Wrote {args.out}: {rules.title}, {len(moves)} moves, {len(state.results)} round(s).", file=out)
    print(*render_final(state), sep="\n", file=out)
    return EXIT_OK


def _load_record(path: str) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text())
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror or error}") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path} is not a game record")
    return data


def _replay_states(data: Mapping[str, Any], on_state: Callable[[GameState], None] | None = None) -> GameState:
    record = record_from_json(data)
    state = new_game(record.rules, list(record.players), record.seed, first=record.first)
    if on_state is not None:
        on_state(state)
    for index, (seat, move) in enumerate(record.moves, start=1):
        try:
            state = apply_move(state, seat, move).state
        except errors.IllegalMoveError as error:
            raise ValueError(
                f"move {index} ({command_for(move)} by seat {seat}) is refused: {error.code}: {error}"
            ) from None
        if on_state is not None:
            on_state(state)
    return state


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    data = _load_record(args.file)
    state = _replay_states(data)
    rules = state.rules
    options = ", ".join(f"{k}={v}" for k, v in rules.options.items())
    lines = [
        f"{rules.title} ({options})",
        f"Players: {', '.join(state.names)}; {len(data.get('moves', []))} moves.",
    ]
    for result in state.results:
        lines += render_result(state, result)
    if data.get("partial"):
        # The finished rounds of a match still being played: the deal after them is no real one.
        totals = ", ".join(f"{state.names[s]} {state.results[-1].totals[s]}" for s in range(state.players))
        lines += [
            f"Totals: {totals}" if state.results else "No round finished.",
            f"The record holds the finished rounds of a match still being played ({len(state.results)}).",
        ]
    else:
        lines += render_final(state)
    print(*lines, sep="\n", file=out)
    return EXIT_OK


def cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    data = _load_record(args.file)
    if args.round is None:
        return _verify_all(data, out)
    wanted = args.round
    dealt: dict[str, Any] = {}

    def capture(state: GameState) -> None:
        if state.round_no == wanted and "hands" not in dealt:
            dealt.update(
                hands=state.hands,
                first=state.first,
                atu=atu_of(state),
                commitment=view_for(state, None)["commitment"],
                rules=state.rules,
                players=state.players,
            )

    final = _replay_states(data, capture)
    if not dealt:
        raise ValueError(f"the record never reaches round {wanted} (it has {final.round_no})")
    record = record_from_json(data)
    seed = deal_seed(record.seed, wanted)
    report = _verify_deal(
        dealt["rules"],
        dealt["players"],
        seed,
        dealt["first"],
        expected_commitment=dealt["commitment"],
        hands=dealt["hands"],
        atu=dealt["atu"],
    )
    finished = any(r.round_no == wanted for r in final.results)
    print(
        f"Round {wanted}: seed {seed.hex()}{'' if finished else ' (round not finished in the record)'}",
        file=out,
    )
    print(f"  commitment {dealt['commitment']}: {'ok' if report['commitment_ok'] else 'MISMATCH'}", file=out)
    print(f"  hands dealt: {'ok' if report['hands_ok'] else 'MISMATCH'}", file=out)
    if report["atu_ok"] is not None:
        print(f"  atu {report['atu']}: {'ok' if report['atu_ok'] else 'MISMATCH'}", file=out)
    print("Deal verified." if report["ok"] else "Deal does NOT verify.", file=out)
    return EXIT_OK if report["ok"] else EXIT_USAGE


def _verify_all(data: Mapping[str, Any], out: TextIO) -> int:
    """Every round of the record: commitment, seed, deal and score lines (``record_check``)."""
    report = verify_record(data)

    def mark(value: bool | None) -> str:
        return "-" if value is None else ("ok" if value else "MISMATCH")

    if "variant" in report:
        print(f"{report['variant']}: {', '.join(report['players'])}; {report['moves']} moves.", file=out)
    for entry in report["rounds"]:
        state = "finished" if entry["finished"] else "not finished in the record"
        print(f"Round {entry['round']} ({state}, {entry['moves']} moves): seed {entry['seed']}", file=out)
        print(f"  commitment {entry['commitment']}: {mark(entry['commitment_ok'])}", file=out)
        print(f"  seed from the match secret: {mark(entry['seed_ok'])}", file=out)
        print(f"  deal recomputed from the seed: {mark(entry['deal_ok'])}", file=out)
        print(f"  score lines: {mark(entry['lines_ok'])}", file=out)
    for problem in report["problems"]:
        print(f"problem: {problem}", file=out)
    print("Record verified." if report["ok"] else "Record does NOT verify.", file=out)
    return EXIT_OK if report["ok"] else EXIT_USAGE


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine",
        description="Play the Remi rules engine in a terminal, replay records, check deals.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    variants = variant_names()

    play = sub.add_parser("play", help="play a match in the terminal (bots and hot-seat humans)")
    play.add_argument("variant", choices=variants)
    play.add_argument("--seats", type=int, default=2, help="players at the table (default 2)")
    play.add_argument(
        "--bots", type=int, default=None, help="how many seats bots play (default: all but one)"
    )
    play.add_argument("--seed", type=int, default=None, help="match seed (default: random, printed)")
    play.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a table option, e.g. penalty_limit=300 or opening=classic (repeatable)",
    )
    play.add_argument("--max-rounds", type=int, default=None, help="stop the match after this many rounds")
    play.add_argument("--save", metavar="FILE", help="write the game record (JSON) here at the end")
    play.add_argument("--quiet", action="store_true", help="do not print every bot move")

    replay = sub.add_parser("replay", help="replay a JSON game record and print the scores")
    replay.add_argument("file")

    demo = sub.add_parser("record-demo", help="write the record of a bot-only match")
    demo.add_argument("variant", choices=variants)
    demo.add_argument("--seats", type=int, default=3)
    demo.add_argument("--seed", type=int, default=None, help="match seed (default 1)")
    demo.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE")
    demo.add_argument("--out", default="-", help="file to write (default: standard output)")
    demo.add_argument(
        "--bots-only", action="store_true", help="(the only kind of demo: accepted for clarity)"
    )
    demo.add_argument(
        "--max-rounds",
        type=int,
        default=None,
        help="stop after this many rounds (default 3 for an endless Remi table)",
    )
    demo.add_argument("--max-moves", type=int, default=100_000)

    verify = sub.add_parser(
        "verify",
        help="re-check a record: each round's seed, commitment, deal and score lines (or one round's deal)",
    )
    verify.add_argument("file")
    verify.add_argument("round", type=int, nargs="?", default=None, help="only this round's deal")
    return parser


def main(
    argv: Sequence[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        if args.command == "play":
            return cmd_play(args, inp, out)
        if args.command == "record-demo":
            return cmd_record_demo(args, out)
        if args.command == "replay":
            return cmd_replay(args, out)
        return cmd_verify(args, out)
    except (ValueError, errors.IllegalMoveError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\ninterrupted", file=out)
        return EXIT_OK


__all__ = [
    "Command",
    "TerminalGame",
    "bot_turn_move",
    "build_parser",
    "card_text",
    "command_for",
    "hand_text",
    "main",
    "parse_command",
    "render_table",
]
