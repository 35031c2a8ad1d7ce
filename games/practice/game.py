"""A practice game in the player's browser: one person against the engine's bots, offline.

Pyodide runs this module in a Web Worker (``static/js/practice/worker.js``, docs/practice.md).
It is the local stand-in for the site's services: it applies the player's commands with the
engine, plays the bots' turns with the engine's bots (``games.engine.bots``, the levels of the
site), and answers with the frames the site would send, built by the one function the site uses
(``games.play.framing.frame_for``). The table's scripts cannot tell the difference except by their
connection object.

The game is kept as its record, ``remi-record/1`` (docs/record.md): the rules, the players, the
match secret and the moves, plus each round's commitment, revealed seed and score lines, so a
downloaded practice game verifies like a site's (``python -m games.engine verify``, ``/verify/``).
A ``practice`` entry adds what a resumed game needs (who is a bot and at which level, which seat
is the player) and what the player used (take-backs, hints).

Pure Python, standard library and the engine only.

>>> game = Practice.start("remik51", {}, levels=[None, "easy"], names=["Ana", "Bot"], secret=bytes(32))
>>> frame = game.frame()
>>> frame["view"]["seat"], frame["seats"][1]["kind"], frame["version"], game.bot_to_move()
(0, 'bot', 0, 1)
>>> game.bot_move()["frame"]["version"], game.bot_to_move()          # the bot dealt and discarded
(1, None)
>>> move = {"kind": "draw"}
>>> game.command({"type": "move", "id": "c1", "version": 1, "move": move})[0]["version"]
2
>>> game.command({"type": "move", "id": "c2", "version": 1, "move": move})[0]["code"]
'stale_version'
>>> game.take_back()["frame"]["version"], len(game.moves)          # newer frame, one move fewer
(3, 1)
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import engine
from games.engine.bots import LEVELS, candidate_moves, choose_move
from games.play import framing, protocol, rack
from games.shared import messages
from games.shared.errors import StaleVersionError

FORMAT = "remi-record/1"

#: The site name of a practice record's ``match`` entry (no id: nothing of the site to compare).
SITE = "practice"


class PracticeError(ValueError):
    """A request the practice game cannot answer (no game, a bad record, an unknown call)."""

    code = "practice_error"


@dataclass
class Practice:
    """One practice game: the rules, the seats (the player's and the bots' levels), the moves.

    ``states[i]`` is the state after ``i`` moves, so a take-back is a slice, not a replay.
    ``version`` counts every change the table was sent (moves and take-backs), so a frame after
    a take-back is newer than the one before it, as the table expects of every new frame.
    """

    rules: engine.Rules
    names: tuple[str, ...]
    secret: bytes
    levels: tuple[str | None, ...]
    moves: list[tuple[int, engine.Move]] = field(default_factory=list)
    states: list[engine.GameState] = field(default_factory=list)
    events: tuple[engine.Event, ...] = ()
    version: int = 0
    take_backs: int = 0
    hints: int = 0
    started: str = ""

    # --- starting and resuming ---------------------------------------------------------------

    @classmethod
    def start(
        cls,
        variant: str,
        options: Mapping[str, Any],
        *,
        levels: Sequence[str | None],
        names: Sequence[str],
        secret: bytes | None = None,
        started: str = "",
    ) -> Practice:
        """A new game: ``levels[i]`` is seat i's bot level, ``None`` for the player's one seat."""
        rules = engine.variant(variant, **dict(options))
        if len(levels) != len(names):
            raise PracticeError("one name per seat")
        if [level is None for level in levels].count(True) != 1:
            raise PracticeError("exactly one seat is the player's")
        for level in levels:
            if level is not None and level not in LEVELS:
                raise PracticeError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
        secret = secret if secret is not None else secrets.token_bytes(32)
        state = engine.new_game(rules, list(names), secret)
        return cls(rules, tuple(names), secret, tuple(levels), states=[state], started=started)

    @classmethod
    def resume(cls, document: Mapping[str, Any]) -> Practice:
        """The game a practice record holds, at its last move."""
        if not isinstance(document, Mapping) or document.get("format") != FORMAT:
            raise PracticeError(f"not a {FORMAT} document")
        meta = document.get("practice")
        if not isinstance(meta, Mapping):
            raise PracticeError("not a practice game (no 'practice' entry)")
        try:
            game = cls.start(
                str(document["variant"]),
                dict(document.get("options") or {}),
                levels=list(meta["levels"]),
                names=list(document["players"]),
                secret=bytes.fromhex(str(document["seed"])),
                started=str((document.get("match") or {}).get("started") or ""),
            )
            moves = [(int(item["seat"]), engine.move_from_json(item["move"])) for item in document["moves"]]
        except (KeyError, TypeError, ValueError, engine.IllegalMoveError) as error:
            raise PracticeError(f"the record cannot be read: {error}") from None
        for index, (seat, move) in enumerate(moves, start=1):
            try:
                game._push(seat, move)
            except engine.IllegalMoveError as error:
                raise PracticeError(f"move {index} (seat {seat}) is refused: {error.code}") from None
        game.events = ()
        game.take_backs = int(meta.get("take_backs", 0))
        game.hints = int(meta.get("hints", 0))
        game.version = max(int(meta.get("version", 0)), len(moves))
        return game

    # --- what the table is sent ----------------------------------------------------------------

    @property
    def state(self) -> engine.GameState:
        return self.states[-1]

    @property
    def player(self) -> int:
        return self.levels.index(None)

    def seats(self) -> list[dict[str, Any]]:
        """The frame's ``seats``: the player connected, the bots as bots (``protocol.seats``)."""
        return protocol.seats(
            (seat, level is not None, "connected", 0) for seat, level in enumerate(self.levels)
        )

    def frame(self, events: Sequence[engine.Event] = (), actor: str | None = None) -> dict[str, Any]:
        """The player's frame now, with the events of the last change (no clock: no turn timer)
        and who made it (``actor``: "player" or "bot", as the site's frames say)."""
        return framing.frame_for(
            self.state, self.player, version=self.version, events=events, seats=self.seats(), actor=actor
        )

    # --- changes ----------------------------------------------------------------------------------

    def _push(self, seat: int, move: engine.Move) -> engine.Transition:
        transition = engine.apply_move(self.state, seat, move)
        self.moves.append((seat, move))
        self.states.append(transition.state)
        self.events = transition.events
        self.version += 1
        return transition

    def command(self, data: Any) -> list[dict[str, Any]]:
        """Answer a move command of the player, as the site's socket would: the new frame, or an
        error frame (and, for a stale version, a fresh frame after it). Nothing changes on an error."""
        request_id = data.get("id") if isinstance(data, Mapping) else None
        try:
            command = protocol.decode_command(data)
            if command.version != self.version:
                raise StaleVersionError(self.version)
            transition = self._push(self.player, command.move)
        except StaleVersionError as error:
            return [protocol.error_frame(error, request_id), self.frame()]
        except (protocol.MalformedMessageError, engine.IllegalMoveError) as error:
            return [protocol.error_frame(error, request_id)]
        return [self.frame(transition.events, actor="player")]

    def bot_to_move(self) -> int | None:
        """The bot seat whose turn it is, or None (the player's turn, or the match is over)."""
        state = self.state
        if state.is_over or self.levels[state.turn] is None:
            return None
        return state.turn

    def bot_move(self) -> dict[str, Any]:
        """Play one move of the bot to move; its frame, with ``ms``: how long the bot thought."""
        seat = self.bot_to_move()
        if seat is None:
            raise PracticeError("it is not a bot's turn")
        level = self.levels[seat] or "normal"
        began = time.perf_counter()
        move, transition = bot_choice(self.state, seat, level)
        thought = (time.perf_counter() - began) * 1000
        self.moves.append((seat, move))
        self.states.append(transition.state)
        self.events = transition.events
        self.version += 1
        return {
            "frame": self.frame(transition.events, actor="bot"),
            "seat": seat,
            "level": level,
            "ms": round(thought, 2),
        }

    def take_back(self) -> dict[str, Any]:
        """Undo the player's last move and every bot move after it: the player's turn again."""
        last = next((i for i in range(len(self.moves) - 1, -1, -1) if self.moves[i][0] == self.player), None)
        if last is None:
            raise PracticeError("no move of yours to take back")
        undone = len(self.moves) - last
        del self.moves[last:]
        del self.states[last + 1 :]
        self.events = ()
        self.version += 1
        self.take_backs += 1
        return {"frame": self.frame(), "undone": undone}

    # --- help -----------------------------------------------------------------------------------

    def hint(self) -> dict[str, Any]:
        """What the hard bot would play in the player's seat, and the engine's facts about it."""
        state, seat = self.state, self.player
        if state.is_over or state.turn != seat:
            raise PracticeError("it is not your turn")
        move, transition = bot_choice(state, seat, "hard")
        self.hints += 1
        return {"move": engine.move_to_json(move), "reason": reason(state, seat, move, transition)}

    def rack(self, query: Any, catalog: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The rack's question (``games.play.rack.check``), as the site answers it over HTTP; refusals
        worded from ``catalog`` (the page's language, ``games.shared.messages``) when one is given."""

        def said(error: engine.IllegalMoveError) -> str:
            return messages.word(error.to_dict(), catalog) if catalog else str(error)

        try:
            answer = rack.check(self.state, self.player, query, said=said)
        except rack.MalformedQueryError as error:
            return {"error": {"code": error.code, "message": str(error)}}
        return {"version": self.version, **answer}

    # --- the record -------------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The game as a ``remi-record/1`` document (docs/record.md), ``rounds`` and all."""
        state = self.state
        rounds = []
        results = {result.round_no: result for result in state.results}
        for number in range(1, state.round_no + 1):
            result = results.get(number)
            seed = engine.deal_seed(self.secret, number)
            rounds.append(
                {
                    "round": number,
                    "commitment": engine.commitment(seed),
                    "seed": seed.hex() if result is not None else None,
                    "lines": [line.to_json() for line in result.lines] if result is not None else None,
                    "totals": list(result.totals) if result is not None else None,
                }
            )
        round_of = [before.round_no for before in self.states[:-1]]
        return {
            "format": FORMAT,
            "variant": self.rules.name,
            "options": dict(self.rules.options),
            "players": list(self.names),
            "seed": self.secret.hex(),
            "first": None,
            "moves": [
                {"seat": seat, "move": engine.move_to_json(move), "round": round_of[index]}
                for index, (seat, move) in enumerate(self.moves)
            ],
            "rounds": rounds,
            "match": {
                "site": SITE,
                "status": "finished" if state.is_over else "playing",
                "started": self.started,
                "totals": list(state.totals),
                "winners": list(state.winners),
            },
            "practice": {
                "levels": list(self.levels),
                "seat": self.player,
                "take_backs": self.take_backs,
                "hints": self.hints,
                "version": self.version,
            },
        }


def bot_choice(state: engine.GameState, seat: int, level: str) -> tuple[engine.Move, engine.Transition]:
    """The ``level`` bot's move for ``seat``, decided from that seat's view only (RMI-NET-2), and
    its transition; down its candidates if the engine refuses one (as the site's services do)."""
    view = engine.view_for(state, seat)
    move = choose_move(view, level=level)
    try:
        return move, engine.apply_move(state, seat, move)
    except engine.IllegalMoveError:
        pass
    for move in candidate_moves(view, level=level):
        try:
            return move, engine.apply_move(state, seat, move)
        except engine.IllegalMoveError:
            continue
    move = engine.legal_moves(state, seat)[0]
    return move, engine.apply_move(state, seat, move)


def reason(
    state: engine.GameState, seat: int, move: engine.Move, transition: engine.Transition
) -> dict[str, Any]:
    """The engine's facts about a move, for the hint's words: the points of the melds it lays
    and, while the seat has not opened, the opening it needs; the cards it adds or discards; the
    cards left in hand and, in the gin family, the deadwood after it."""
    rules, after = state.rules, transition.state
    before_view = engine.view_for(state, seat)
    data = engine.move_to_json(move)
    facts: dict[str, Any] = {"kind": data["kind"]}
    melds = list(data.get("melds") or [])
    play = data.get("play") if isinstance(data.get("play"), Mapping) else None
    if play:
        melds += list(play.get("melds") or [])
    if melds:
        points: list[int | None] = []
        for cards in melds:
            try:
                points.append(rules.meld_points(" ".join(cards)))
            except (engine.IllegalMoveError, ValueError):
                points.append(None)
        facts["melds"] = [{"cards": list(cards), "points": p} for cards, p in zip(melds, points, strict=True)]
        facts["points"] = sum(p for p in points if p is not None)
    opening = (before_view.get("you") or {}).get("opening")
    if isinstance(opening, Mapping) and not engine.opened_seats(state)[seat]:
        facts["opening"] = {
            "required_points": opening.get("required_points"),
            "required_run": opening.get("required_run"),
            "opens": engine.opened_seats(after)[seat],
        }
    for key in ("card", "layoffs", "exchanges"):
        if data.get(key):
            facts[key] = data[key]
    if after.round_no == state.round_no and not after.is_over:
        facts["hand_after"] = len(after.hands[seat])
        deadwood = (engine.view_for(after, seat).get("you") or {}).get("deadwood")
        if deadwood is not None:
            facts["deadwood_after"] = deadwood
    else:
        facts["ends_round"] = True
    return facts


# --- the worker's door -----------------------------------------------------------------------------

_game: Practice | None = None
#: The page's texts for refusals, in its language (``games.shared.messages``); empty: the engine's English.
_catalog: dict[str, str] = {}


def _require() -> Practice:
    if _game is None:
        raise PracticeError("no practice game: start one")
    return _game


def call(name: str, payload: str = "null") -> str:
    """What ``worker.js`` calls: ``name`` with JSON arguments, a JSON answer.

    ``{"ok": <result>, "record": <the game's record>, "bot": <the bot seat to move, or null>}``,
    the record for the page to keep on the device; ``{"error": {"code", "message"}}`` when the
    call cannot be answered (nothing changed then).
    """
    global _game, _catalog
    try:
        args: Any = json.loads(payload) if payload else None
        if name == "language":
            _catalog = {str(key): str(text) for key, text in dict(args or {}).items()}
            return json.dumps({"ok": {"texts": len(_catalog)}})
        if name == "frame_of_record":
            return json.dumps({"ok": frame_of_record(args)})
        if name == "warm":
            return json.dumps({"ok": warm(_game)})
        result: dict[str, Any]
        if name == "start":
            _game = Practice.start(
                str(args["variant"]),
                dict(args.get("options") or {}),
                levels=list(args["levels"]),
                names=list(args["names"]),
                started=str(args.get("started") or ""),
            )
            result = {"frame": _game.frame()}
        elif name == "resume":
            _game = Practice.resume(args)
            result = {"frame": _game.frame()}
        elif name == "frame":
            result = {"frame": _require().frame()}
        elif name == "command":
            frames = _require().command(args)
            if _catalog:
                frames = [
                    {**f, "message": messages.word(f, _catalog)} if f["type"] == "error" else f
                    for f in frames
                ]
            result = {"frames": frames}
        elif name == "bot":
            result = _require().bot_move()
        elif name == "take_back":
            result = _require().take_back()
        elif name == "hint":
            result = _require().hint()
        elif name == "rack":
            result = _require().rack(args, _catalog)
        else:
            raise PracticeError(f"unknown call {name!r}")
        game = _require()
    except (PracticeError, ValueError, KeyError, TypeError, engine.IllegalMoveError) as error:
        code = getattr(error, "code", "practice_error")
        return json.dumps({"error": {"code": code, "message": str(error)}})
    return json.dumps({"ok": result, "record": game.record(), "bot": game.bot_to_move()})


def warm(game: Practice | None) -> dict[str, Any]:
    """Import now what the first bot move and the first hint would import (each level's modules,
    the variant's own bot), so that the player does not wait for it in the middle of a turn."""
    state = game.state if game is not None else engine.new_game(engine.variant("remik51"), 2, bytes(32))
    levels = {"hard", *(level for level in (game.levels if game else LEVELS) if level is not None)}
    view = engine.view_for(state, state.turn)
    if not state.is_over:
        for level in sorted(levels):
            choose_move(view, level=level)
    return {"levels": sorted(levels)}


def _worded(frame: dict[str, Any]) -> dict[str, Any]:
    """An error frame's message in the page's language, as the site's socket words it."""
    if frame.get("type") != "error" or not _catalog:
        return frame
    return {**frame, "message": messages.word(frame, _catalog)}


def frame_of_record(args: Mapping[str, Any]) -> dict[str, Any]:
    """The frame of ``args["seat"]`` after the moves of ``args["record"]`` (a ``remi-record/1``
    document), with the last move's events and the table facts given (``version``, ``clock``,
    ``seats``, ``actor``): what the site sends for the same seat, state and facts. For tests and tools."""
    document = args["record"]
    record = engine.record_from_json(document)
    state = engine.new_game(record.rules, list(record.players), record.seed, first=record.first)
    events: tuple[engine.Event, ...] = ()
    for seat, move in record.moves:
        transition = engine.apply_move(state, seat, move)
        state, events = transition.state, transition.events
    return framing.frame_for(
        state,
        args.get("seat"),
        version=int(args.get("version", len(record.moves))),
        events=events,
        clock=args.get("clock"),
        seats=args.get("seats"),
        actor=args.get("actor"),
    )


__all__ = ["FORMAT", "Practice", "PracticeError", "bot_choice", "call", "frame_of_record", "reason", "warm"]
