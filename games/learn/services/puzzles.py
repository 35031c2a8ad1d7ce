"""Puzzles: generating and storing them, answering them, rating players and puzzles, reports.

* **Generating** (``puzzle_batch_create``, ``puzzle_batch_step``): a batch names a seed and a
  number of puzzles to store; each step plays :data:`GAMES_PER_STEP` bot games of the seed
  (``games.learn.puzzles.game_puzzles``, deterministic) and stores their new positions, then the Celery
  task (``games.tasks.puzzles_step``) queues the next step. Short steps leave the worker free for
  the bots' moves between them. A step names the number of games the batch has played (like a
  match's version): a duplicate or late step finds another number and does nothing.
* **Answering** (``puzzle_answer``): the engine checks the answer (``games.learn.puzzles.check``, which
  reads it as the table's rack reads a block); an answer it cannot read (``UNREADABLE``: a joker
  whose place does not say what it stands for, ...) raises ``UnreadableAnswerError``: explained,
  never rated. A
  logged-in player's **first** answer to a puzzle is rated: openskill's Plackett-Luce
  (``games.ranked.ratings.MODEL``), the player and the puzzle a two-player match, the one who "wins"
  first; both ratings move (the player's in the puzzle's kind, ``PuzzleRating``). Later answers
  to the same puzzle are checked and explained but not rated. Visitors are never rated. The
  engine's own answer comes only with a rated try and after it, to that player; never to a
  visitor. Which answers are judged at all (the puzzle given by "Next puzzle", or tried) is the
  view's (``games.learn.views.puzzles``).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games import engine
from games.learn import puzzles
from games.learn.models import Puzzle, PuzzleAttempt, PuzzleBatch, PuzzleRating, PuzzleReport
from games.ranked.ratings import MODEL, display

#: Bot games played by one step of a batch (a rummy game a fraction of a second of CPU, a gin game
#: that looks for discard puzzles up to several seconds: short steps on the background queue).
GAMES_PER_STEP = 1
#: Puzzles a fresh site seeds itself with (``manage.py puzzles_seed``, run by ``make run``).
STARTUP_TARGET = 500
STARTUP_SEED = "startup"


class PuzzleNotFoundError(LookupError):
    code = "no_such_puzzle"


class MalformedAnswerError(ValueError):
    code = puzzles.MALFORMED


class UnreadableAnswerError(ValueError):
    """The engine cannot read what the answer decides (``games.learn.puzzles.UNREADABLE``): it is
    explained and not rated, and nothing of the puzzle's answer is shown."""

    def __init__(self, code: str, error: dict[str, Any]) -> None:
        super().__init__(error.get("message", code))
        self.code = code
        self.error = error


class ReportError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# --- generating -----------------------------------------------------------------------------------


def puzzle_store(puzzle: puzzles.Puzzle) -> Puzzle | None:
    """Store ``puzzle`` unless its position is there already; the new row, or None."""
    if Puzzle.objects.filter(key=puzzle.key).exists():
        return None
    state = engine.state_to_json(puzzle.state)
    try:
        with transaction.atomic():
            return Puzzle.objects.create(
                kind=puzzle.kind,
                variant=puzzle.variant,
                options=dict(puzzle.state.rules.options),
                state=state,
                seat=puzzle.seat,
                answer=puzzle.answer,
                explanation=puzzle.explanation,
                source=puzzle.source,
                key=puzzle.key,
            )
    except IntegrityError:  # stored meanwhile by another step
        return None


def puzzle_batch_create(*, seed: str, target: int) -> PuzzleBatch:
    return PuzzleBatch.objects.create(seed=seed, target=max(0, target))


def puzzle_batch_step(*, batch_id: int, games: int, count: int = GAMES_PER_STEP) -> bool:
    """Play ``count`` more games of the batch if it has played exactly ``games`` (else: stale, or
    finished); store their puzzles. Returns whether another step is due."""
    batch = PuzzleBatch.objects.filter(pk=batch_id).first()
    if batch is None or batch.finished is not None or batch.games != games:
        return False
    made = 0
    for game_no in range(games, games + count):
        for puzzle in puzzles.game_puzzles(batch.seed, game_no):
            if batch.made + made >= batch.target:
                break
            if puzzle_store(puzzle) is not None:
                made += 1
    done = batch.made + made >= batch.target
    updated = PuzzleBatch.objects.filter(pk=batch_id, games=games, finished__isnull=True).update(
        games=games + count, made=F("made") + made, finished=timezone.now() if done else None
    )
    return bool(updated) and not done


def puzzle_batch_run(*, batch_id: int, on_step: Any = None) -> PuzzleBatch:
    """Run a batch to its end in this process (the management command's foreground mode)."""
    while True:
        batch = PuzzleBatch.objects.get(pk=batch_id)
        if not puzzle_batch_step(batch_id=batch_id, games=batch.games):
            break
        if on_step is not None:
            on_step(PuzzleBatch.objects.get(pk=batch_id))
    return PuzzleBatch.objects.get(pk=batch_id)


def puzzle_seed_startup(*, target: int = STARTUP_TARGET) -> PuzzleBatch | None:
    """The start-up seed's batch: created when the site has fewer than ``target`` puzzles and no
    start-up batch is under way; the workers run it (``games.tasks.puzzles_resume``)."""
    with transaction.atomic():
        running = PuzzleBatch.objects.filter(seed=STARTUP_SEED, finished__isnull=True).first()
        if running is not None:
            return running
        have = Puzzle.objects.count()
        if have >= target:
            return None
        done = PuzzleBatch.objects.filter(seed=STARTUP_SEED).order_by("-games").first()
        batch = PuzzleBatch.objects.create(seed=STARTUP_SEED, target=target - have)
        if done is not None:  # go on where the last start-up batch stopped (its positions are stored)
            batch.games = done.games
            batch.save(update_fields=["games"])
        return batch


def puzzles_from_matches(*, limit: int = 50) -> int:
    """Store the puzzles of the last ``limit`` finished matches of public rooms (no private room,
    no deal of the day: their cards are for their players, or sealed until the day ends), each
    replayed from its record (``games.learn.puzzles.record_puzzles``). Returns how many were stored."""
    from games.learn.records import match_record
    from games.play.models import Match

    matches = Match.objects.filter(
        status=Match.Status.FINISHED, room__join_code__isnull=True, room__daily_day__isnull=True
    ).order_by("-id")[:limit]
    stored = 0
    for match in matches.select_related("room"):
        record = match_record(match, with_secret=True)
        for puzzle in puzzles.record_puzzles(record, {"match": match.pk}):
            stored += puzzle_store(puzzle) is not None
    return stored


def puzzle_batches_unfinished() -> list[tuple[int, int]]:
    return list(PuzzleBatch.objects.filter(finished__isnull=True).values_list("pk", "games"))


# --- answering -----------------------------------------------------------------------------------


def _rating_view(mu: float, sigma: float) -> int:
    return display(mu, sigma)


def puzzle_answer(*, puzzle_id: int, user: Any, move: Any) -> dict[str, Any]:
    """Check ``move`` (the wire's move JSON) against the puzzle; rate a logged-in player's first
    answer. Raises ``PuzzleNotFoundError``, ``MalformedAnswerError``."""
    puzzle = Puzzle.objects.filter(pk=puzzle_id, withdrawn=False).first()
    if puzzle is None:
        raise PuzzleNotFoundError(puzzle_id)
    state = engine.state_from_json(puzzle.state)
    result = puzzles.check(state, puzzle.seat, puzzle.kind, move, puzzle.answer)
    if result["correct"] and result["explanation"] is None:
        result["explanation"] = puzzle.explanation  # the evaluator's figures (the knock kind)
    if result["code"] == puzzles.MALFORMED:
        raise MalformedAnswerError(result["message"])
    if result.get("unreadable"):
        raise UnreadableAnswerError(result["code"], result.get("error") or {})
    # The engine's own answer goes only with a rated try, to whoever made it (then and after):
    # never to a visitor, so a private window previews nothing (docs/learn.md, "Fair puzzles").
    solution = {"answer": puzzle.answer, "answer_explanation": puzzle.explanation}
    out: dict[str, Any] = {
        **result,
        "puzzle": puzzle.pk,
        "kind": puzzle.kind,
        "answer": None,
        "answer_explanation": None,
        "rated": False,
        "rating": None,
    }
    if result["correct"]:
        after = engine.apply_move(state, puzzle.seat, engine.move_from_json(result["move"]))
        out["after"] = (after.state, after.events)
    if user is None or not user.is_authenticated:
        return out
    with transaction.atomic():
        locked = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
        rating, _ = PuzzleRating.objects.select_for_update().get_or_create(user=user, kind=puzzle.kind)
        if PuzzleAttempt.objects.filter(user=user, puzzle=locked).exists():
            out["rating"] = _rating_view(rating.mu, rating.sigma)
            return {**out, **solution}
        before = _rating_view(rating.mu, rating.sigma)
        player = MODEL.rating(mu=rating.mu, sigma=rating.sigma)
        problem = MODEL.rating(mu=locked.mu, sigma=locked.sigma)
        ranks: list[float] = [1.0, 2.0] if result["correct"] else [2.0, 1.0]
        [[player_after], [problem_after]] = MODEL.rate([[player], [problem]], ranks=ranks)
        rating.mu, rating.sigma = float(player_after.mu), float(player_after.sigma)
        if result["correct"]:
            rating.solved += 1
        else:
            rating.failed += 1
        rating.save()
        locked.mu, locked.sigma = float(problem_after.mu), float(problem_after.sigma)
        locked.attempts += 1
        locked.solved += int(result["correct"])
        locked.save(update_fields=["mu", "sigma", "attempts", "solved"])
        after_rating = _rating_view(rating.mu, rating.sigma)
        PuzzleAttempt.objects.create(
            user=user,
            puzzle=locked,
            solved=result["correct"],
            code=result["code"],
            answer=move,
            rating_before=before,
            rating_after=after_rating,
        )
    out.update(rated=True, rating=after_rating, rating_change=after_rating - before, **solution)
    return out


def puzzle_report(*, puzzle_id: int, user: Any, reason: str) -> PuzzleReport:
    """A logged-in player reports a puzzle as wrong (once per puzzle)."""
    reason = (reason or "").strip()[:500]
    if not reason:
        raise ReportError("empty_reason", "say what is wrong with the puzzle")
    puzzle = Puzzle.objects.filter(pk=puzzle_id).first()
    if puzzle is None:
        raise PuzzleNotFoundError(puzzle_id)
    try:
        with transaction.atomic():
            return PuzzleReport.objects.create(puzzle=puzzle, reporter=user, reason=reason)
    except IntegrityError:
        raise ReportError("already_reported", "you have reported this puzzle already") from None


def puzzle_withdraw(*, puzzle_id: int) -> None:
    """Staff: the puzzle is never offered again; its reports are resolved."""
    with transaction.atomic():
        Puzzle.objects.filter(pk=puzzle_id).update(withdrawn=True)
        PuzzleReport.objects.filter(puzzle_id=puzzle_id).update(resolved=True)
