"""Game records and replays built from a match's rows (docs/record.md). Reads only.

``match_record`` writes a match as a ``remi-record/1`` document; ``replay_frames`` plays one of
its rounds again with the engine (``round_steps``) into frames a page shows move by move, each
carrying only what its viewer may see; ``verified_round`` and ``site_commitments`` dress up what
``engine.verify_record`` says of a pasted record.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from games import engine
from games.engine import (
    RECORD_FORMAT,
    Discard,
    Knock,
    choose_first,
    iter_round_steps,
    move_text,
    seed_book,
)
from games.play import selectors
from games.play.models import Match, MoveRecord, Round, ScoreLine
from games.shared.card_labels import card_label
from games.shared.errors import DailySealedError, ReplayTooLongError


def match_record(match: Match, *, with_secret: bool = True) -> dict[str, Any]:
    """The match as a ``remi-record/1`` document plus its published rounds (docs/record.md).

    ``with_secret``: the match secret and every move (the server's own replays, and a match
    that is over). Without it: the finished rounds only, their revealed seeds as a seed book in
    place of the secret (``engine.seed_book``), so nothing is in it that the table has not
    shown everyone.

    A deal of the day has no record before its day is over and revealed (DailySealedError).
    """
    if match.room.daily_sealed:
        raise DailySealedError()
    rules = match.room.rules()
    names = list(match.state.get("names", []))
    rounds = []
    for round_ in Round.objects.filter(match=match).order_by("number").prefetch_related("score_lines"):
        if not with_secret and not round_.revealed_seed:
            break
        lines = sorted(round_.score_lines.all(), key=lambda line: line.seat)
        rounds.append(
            {
                "round": round_.number,
                "commitment": round_.commitment,
                "seed": round_.revealed_seed,
                "lines": [_line_json(line) for line in lines] if round_.revealed_seed else None,
                "totals": [line.total for line in lines] if round_.revealed_seed else None,
            }
        )
    moves = MoveRecord.objects.filter(match=match).order_by("seq")
    if with_secret:
        seed, first = match.secret_bytes.hex(), None
    else:
        moves = moves.filter(round_number__lte=len(rounds))
        seed = seed_book(bytes.fromhex(str(entry["seed"])) for entry in rounds).hex()
        # Who dealt round 1 (drawn from the secret's round 0, which stays secret): everyone saw it.
        first = choose_first(rules, len(names), match.secret_bytes)
    document: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "variant": rules.name,
        "options": dict(rules.options),
        "players": names,
        "seed": seed,
        "first": first,
        "partial": not with_secret,
        "moves": [
            {"seat": seat, "move": move, "round": number}
            for seat, move, number in moves.values_list("seat", "move", "round_number")
        ],
        "rounds": rounds,
        "match": {
            "site": "remi",
            "id": match.pk,
            "room": match.room.name,
            "number": match.number,
            "ranked": match.room.ranked,
            "status": match.status,
            "started": match.started.isoformat(),
            "finished": match.finished.isoformat() if match.finished else None,
            "totals": list(match.state.get("totals", []))
            if with_secret
            else (rounds[-1]["totals"] if rounds else []),
            "winners": list(match.winners),
        },
    }
    return document


def _line_json(line: ScoreLine) -> dict[str, Any]:
    """A stored score line as the engine writes one (``engine.ScoreLine.to_json``, the one JSON of
    a score line: a record's lines are the engine's own)."""
    return engine.ScoreLine(
        seat=line.seat,
        points=line.points,
        hand=line.hand,
        table=line.table,
        bonus=line.bonus,
        atu_bonus=line.atu_bonus,
        multiplier=line.multiplier,
        notes=tuple(line.notes),
        chips=line.chips,
    ).to_json()


#: Frames in a page of a replay (docs/record.md, "Replays"): a page is what one request builds and
#: sends, whatever the round's length (a Remik round can be made thousands of moves long).
REPLAY_PAGE_FRAMES = 40


def replay_frames(
    record: dict[str, Any],
    number: int,
    *,
    names: list[str],
    viewer: int | None,
    show_all: bool,
    start: int = 0,
    stop: int | None = None,
) -> list[dict[str, Any]]:
    """One frame per position of round ``number``: the deal, then after each move (frames
    ``start`` to ``stop`` only, when given: the round is replayed as far as ``stop``).

    A hand's cards are in a frame only when ``show_all`` (the match is over) or it is the
    viewer's; the last frame (the round's end) shows the hands left, which the table showed
    everyone when the round ended. The stock is only a count. Raises ``ValueError`` if the
    record never deals that round.
    """
    frames = []
    previous = None
    dealt = False
    for index, step in enumerate(iter_round_steps(record, number)):
        dealt = True
        if stop is not None and index >= stop:
            break
        if index >= start:
            frames.append(
                _frame(
                    step, index, number, step.state if previous is None else previous, names, viewer, show_all
                )
            )
        previous = step.state
    if not dealt:
        raise ValueError(f"the record never deals round {number}")
    return frames


def replay_page(
    record: dict[str, Any],
    number: int,
    *,
    step: int,
    names: list[str],
    viewer: int | None,
    show_all: bool,
    max_moves: int | None = None,
) -> dict[str, Any]:
    """The page of round ``number``'s replay that holds frame ``step`` (clamped to the round):
    ``{"first": index of its first frame, "frames": up to REPLAY_PAGE_FRAMES frames, "step",
    "last": the round's last frame}``. The round is replayed once, to its end (to know
    ``last``); only the page's frames are built. ``max_moves``: a round with more moves is
    refused (``ReplayTooLongError``) as soon as the replay reaches one more.
    """
    size = REPLAY_PAGE_FRAMES
    first = max(step, 0) // size * size
    frames: list[dict[str, Any]] = []
    previous = None
    last = -1
    for index, one in enumerate(iter_round_steps(record, number)):
        if max_moves is not None and index > max_moves:
            raise ReplayTooLongError(
                f"this round has more than {max_moves} moves: it is not replayed here", limit=max_moves
            )
        if first <= index < first + size:
            frames.append(
                _frame(
                    one, index, number, one.state if previous is None else previous, names, viewer, show_all
                )
            )
        previous = one.state
        last = index
    if last < 0:
        raise ValueError(f"the record never deals round {number}")
    if not frames:  # past the round's end: its last page
        first = last // size * size
        frames = replay_frames(
            record, number, names=names, viewer=viewer, show_all=show_all, start=first, stop=last + 1
        )
    return {"first": first, "frames": frames, "step": min(max(step, 0), last), "last": last}


def _frame(
    step: Any,  # the engine's record_check.Step
    index: int,
    number: int,
    previous: Any,
    names: list[str],
    viewer: int | None,
    show_all: bool,
) -> dict[str, Any]:
    ended = step.result is not None
    # The move that ends a round already deals the next: the table is the one before it.
    table = previous if ended else step.state
    hands: list[tuple[Any, ...]] = list(step.result.hands) if step.result else list(table.hands)
    melds = [(meld.owner, meld.cards) for meld in table.melds]
    before_last = False
    if ended:
        final = next((e.data for e in step.events if e.kind == "round_over" and "melds" in e.data), None)
        if final is not None:  # the gin family: the deal's final table, with the knock's melds
            melds = [(meld["owner"], tuple(meld["cards"])) for meld in final["melds"]]
        else:  # the shared cycle: the table before the move that ended the round
            before_last = step.move is not None and not isinstance(step.move, Discard | Knock)
    frame: dict[str, Any] = {
        "index": index,
        "round": number,
        "move": None,
        "turn": None if ended else table.turn,
        "turn_name": "" if ended else names[table.turn],
        "stock": len(table.stock),
        "discard": [card(c) for c in table.discard],
        "melds": [{"owner": names[owner], "cards": [card(c) for c in cards]} for owner, cards in melds],
        "table_before_last_move": before_last,
        "atu": card(atu) if (atu := engine.atu_of(table)) else None,
        "hands": [
            {
                "seat": seat,
                "name": names[seat],
                "count": len(hand),
                "cards": [card(c) for c in hand] if ended or show_all or seat == viewer else None,
                "you": seat == viewer,
            }
            for seat, hand in enumerate(hands)
        ],
        "totals": list(step.result.totals) if step.result else list(table.totals),
        "over": ended,
        "lines": [],
    }
    if step.move is not None and step.seat is not None:
        frame["move"] = {"seat": step.seat, "name": names[step.seat], "text": move_text(step.move)}
    if step.result is not None:
        frame["lines"] = [
            {"name": names[line.seat], **line.to_json(), "total": step.result.totals[line.seat]}
            for line in step.result.lines
        ]
    return frame


def card(value: Any) -> dict[str, Any]:
    """A card (an engine ``Card`` or its id) as the pages label it."""
    return card_label(str(value))


def verified_round(entry: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """A round of ``engine.verify_record``'s report with its deal labelled for the page."""
    hands = [
        {
            "name": players[seat] if seat < len(players) else f"#{seat + 1}",
            "cards": [card(c) for c in hand],
        }
        for seat, hand in enumerate(entry["hands"])
    ]
    return {**entry, "dealt": hands, "atu_card": card(entry["atu"]) if entry["atu"] else None}


def site_commitments(
    document: dict[str, Any], *, user: AbstractBaseUser | AnonymousUser | None
) -> dict[str, Any] | None:
    """When a pasted record names a match of this site ``user`` may see: do its commitments
    equal the ones the site published for that match?"""
    meta = document.get("match")
    if not isinstance(meta, dict) or not isinstance(meta.get("id"), int):
        return None
    match = selectors.match_visible(match_id=meta["id"], user=user)
    if match is None:
        return None
    published = selectors.match_commitments(match_id=match.pk)
    listed = document.get("rounds")
    rounds = listed if isinstance(listed, list) else []
    claimed = {item.get("round"): item.get("commitment") for item in rounds if isinstance(item, dict)}
    different = sorted(str(number) for number, value in published.items() if claimed.get(number) != value)
    return {"match": match, "ok": not different, "different": different}
