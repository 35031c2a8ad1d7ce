"""Puzzles (docs/learn.md, "Puzzles"): the list, the next puzzle near one's rating, the puzzle on
the table, its answer, the rack's question, and reports.

* ``GET /puzzles/``: the kinds, how many puzzles each has, the player's rating in each, the
  generator's progress while a batch runs.
* ``GET /puzzles/next/<kind>/``: redirects to the untried puzzle of that kind whose rating is
  nearest the player's (``selectors.puzzle_next``).
* ``GET /puzzles/<id>/``: the table (``static/js/table/main.js``) on a connection object of the
  page's own (``static/js/puzzles/puzzle.js``), with the frame of the puzzle's seat
  (``selectors.puzzle_frame``: the seat's view, the suggested opening taken out).
* ``POST /puzzles/<id>/answer/`` ``{"move": <move JSON>}`` (CSRF token): the engine's verdict,
  ``{"correct", "code", "message", "explanation", "answer", "answer_explanation", "rated",
  "rating", "frame"}``; ``code`` is stable (``games.learn.puzzles.RESULT_CODES`` or the engine's
  refusal code). 400 ``malformed_move``, 404 ``no_such_puzzle``.
* ``GET /puzzles/<id>/rack/?q=<json>``: ``games.play.rack.check`` on the puzzle's position.
* ``POST /puzzles/<id>/report/`` (logged in): "this puzzle is wrong", for staff in the admin.

Visitors may solve puzzles without an account; they are not rated and nothing is stored of them
but the puzzles they have seen, in their session (so "next" moves on).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import engine
from games.engine import IllegalMoveError
from games.learn import selectors
from games.learn.models import Puzzle, PuzzleKind
from games.learn.services import puzzles as puzzle_services
from games.play import protocol, rack
from games.shared.i18n_errors import translated_message

SEEN_KEY = "puzzles_seen"
SEEN_MAX = 500
#: The puzzles "Next puzzle" has given this browser session (docs/learn.md, "Fair puzzles"): only
#: these, and those one has tried rated, are checked; any other answer is refused unjudged.
GIVEN_KEY = "puzzles_given"
GIVEN_MAX = 50


def _chooser(request: HttpRequest) -> str:
    if request.user.is_authenticated:
        return f"user:{request.user.pk}"
    if request.session.session_key is None:
        request.session.save()
    return f"session:{request.session.session_key}"


def _given(request: HttpRequest, puzzle: Puzzle) -> bool:
    """May this person's answer to ``puzzle`` be judged: given to this session by "Next puzzle",
    or already tried (rated) by this account?"""
    if puzzle.pk in request.session.get(GIVEN_KEY, []):
        return True
    return bool(request.user.is_authenticated and puzzle.attempts_made.filter(user=request.user).exists())


def _refuse(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status)


def _said(error: IllegalMoveError) -> str:
    return translated_message(error.code, error.to_dict(), None)


def _kind_or_404(kind: str) -> str:
    if kind not in PuzzleKind.values:
        raise Http404("no such kind of puzzle")
    return kind


def puzzle_index(request: HttpRequest) -> HttpResponse:
    progress = selectors.puzzle_progress()
    mine = selectors.puzzle_kind_ratings(user=request.user)
    kinds = [
        {"kind": value, "label": label, "count": progress["counts"].get(value, 0), "mine": mine.get(value)}
        for value, label in PuzzleKind.choices
    ]
    history = selectors.puzzle_history(user=request.user) if request.user.is_authenticated else []
    return render(request, "games/puzzles.html", {"kinds": kinds, "progress": progress, "history": history})


@require_GET
def puzzle_next(request: HttpRequest, kind: str) -> HttpResponse:
    kind = _kind_or_404(kind)
    puzzle = selectors.puzzle_next(
        user=request.user, kind=kind, seen=request.session.get(SEEN_KEY, []), chooser=_chooser(request)
    )
    if puzzle is None:
        messages.info(request, _("You have tried every puzzle of this kind. More are on their way."))
        return HttpResponseRedirect(reverse("puzzles"))
    given = [int(i) for i in request.session.get(GIVEN_KEY, []) if int(i) != puzzle.pk]
    request.session[GIVEN_KEY] = [*given, puzzle.pk][-GIVEN_MAX:]
    return HttpResponseRedirect(reverse("puzzle", args=[puzzle.pk]))


def _puzzle_or_404(puzzle_id: int) -> Puzzle:
    puzzle = Puzzle.objects.filter(pk=puzzle_id, withdrawn=False).first()
    if puzzle is None:
        raise Http404("no such puzzle")
    return puzzle


def puzzle_detail(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    puzzle = _puzzle_or_404(puzzle_id)
    if not request.user.is_authenticated:
        seen = [int(i) for i in request.session.get(SEEN_KEY, []) if int(i) != puzzle.pk]
        request.session[SEEN_KEY] = [*seen, puzzle.pk][-SEEN_MAX:]
    frame = selectors.puzzle_frame(puzzle)
    mine = selectors.puzzle_kind_ratings(user=request.user).get(puzzle.kind)
    rules = engine.variant(puzzle.variant, **puzzle.options)
    tried = puzzle.attempts_made.filter(user=request.user).first() if request.user.is_authenticated else None
    config = {
        "puzzle": puzzle.pk,
        "kind": puzzle.kind,
        "answerUrl": reverse("puzzle_answer", args=[puzzle.pk]),
        "rackUrl": reverse("puzzle_rack", args=[puzzle.pk]),
        "nextUrl": reverse("puzzle_next", args=[puzzle.kind]),
    }
    context = {
        "puzzle": puzzle,
        "kind_label": PuzzleKind(puzzle.kind).label,
        "title": _(rules.title),
        "minimum": rules.opening_minimum,
        "frame": frame,
        "config": config,
        "mine": mine,
        "tried": tried,
        "puzzle_rating": selectors.ratings.display(puzzle.mu, puzzle.sigma),
        "given": _given(request, puzzle),
    }
    return render(request, "games/puzzle.html", context)


@require_POST
def puzzle_answer(request: HttpRequest, puzzle_id: int) -> JsonResponse:
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        return _refuse(400, "malformed_move", "the body is a JSON object with a move")
    move = body.get("move") if isinstance(body, dict) else None
    given = Puzzle.objects.filter(pk=puzzle_id).first()
    if given is not None and not _given(request, given):
        # Judging it would preview it for whoever is given it (docs/learn.md, "Fair puzzles").
        return _refuse(
            403,
            "puzzle_not_given",
            _("This puzzle was not given to you: “Next puzzle” gives you one to answer."),
        )
    try:
        result = puzzle_services.puzzle_answer(puzzle_id=puzzle_id, user=request.user, move=move)
    except puzzle_services.PuzzleNotFoundError:
        return _refuse(404, "no_such_puzzle", "no such puzzle")
    except puzzle_services.MalformedAnswerError as error:
        return _refuse(400, "malformed_move", str(error))
    except puzzle_services.UnreadableAnswerError as error:
        # Not wrong: the engine cannot tell what it decides. Said, not rated (docs/learn.md).
        said = translated_message(error.code, error.error, None)
        unrated = _("This answer is not counted: change it and send it again.")
        body = {"code": error.code, "message": f"{said} {unrated}", "rated": False}
        return JsonResponse({**body, "rule": error.error.get("rule")}, status=400)
    puzzle = Puzzle.objects.get(pk=puzzle_id)
    after = result.pop("after", None)
    out: dict[str, Any] = {**result}
    if after is not None:
        state, events = after
        out["frame"] = selectors.puzzle_frame(puzzle, state, events)
    if not result["correct"] and result["code"] not in puzzle_services.puzzles.RESULT_CODES:
        out["message"] = translated_message(result["code"], result.get("error"), None)
    else:
        out["message"] = _result_message(result["code"], puzzle.kind) or result["message"]
    return JsonResponse(out)


def _result_message(code: str, kind: str) -> str:
    if code == "wrong_choice" and kind == "discard":
        return _("The hard bot's look-ahead prefers another discard here.")
    return {
        "solved": _("Solved."),
        "not_an_opening": _("That lays no opening."),
        "no_joker_bought": _("That opens, but the joker stays on the table: buy it back in the same move."),
        "wrong_choice": _("The evaluator prefers the other choice here."),
    }.get(code, "")


@require_GET
def puzzle_rack(request: HttpRequest, puzzle_id: int) -> JsonResponse:
    puzzle = Puzzle.objects.filter(pk=puzzle_id, withdrawn=False).first()
    if puzzle is None:
        return _refuse(404, "no_such_puzzle", "no such puzzle")
    try:
        query = protocol.read_json(request.GET.get("q") or "{}")
        answer = rack.check(engine.state_from_json(puzzle.state), puzzle.seat, query, said=_said)
    except (ValueError, rack.MalformedQueryError):
        return _refuse(400, "malformed_query", "q is a JSON object with groups of card ids and a move")
    return JsonResponse({"version": 1, **answer})


@require_POST
def puzzle_report(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return HttpResponseRedirect(f"{reverse('login')}?next={reverse('puzzle', args=[puzzle_id])}")
    try:
        puzzle_services.puzzle_report(
            puzzle_id=puzzle_id, user=request.user, reason=request.POST.get("reason", "")
        )
    except puzzle_services.PuzzleNotFoundError as error:
        raise Http404("no such puzzle") from error
    except puzzle_services.ReportError as error:
        messages.error(
            request,
            _("Say what is wrong with the puzzle.")
            if error.code == "empty_reason"
            else _("You have reported this puzzle already."),
        )
    else:
        messages.success(request, _("Thank you: the staff will look at this puzzle."))
    return HttpResponseRedirect(reverse("puzzle", args=[puzzle_id]))
