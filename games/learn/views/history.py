"""History pages: match lists with filters, round replays, game records, CSV, and /verify/.

Reads only. A viewer sees a match when its room is public, or when they sit in (or own) its
private room (``selectors.visible_matches``). Replays are built on the server with the engine
(``games.learn.records.replay_frames``) from the match's own record; a frame carries only what the
viewer may see: every hand once the match is over, otherwise the viewer's own hand alone
(spectators: none). A round's seed and its moves appear only after that round is over; the JSON
record (with the match secret) only once the match is over. ``docs/record.md`` documents the record.
"""

from __future__ import annotations

import csv
import hashlib
import json
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from games import engine
from games.engine import analysis as engine_analysis
from games.engine import verify_record
from games.learn import records
from games.learn.analysis_text import decision_words
from games.learn.forms import HistoryFilterForm, VerifyForm
from games.learn.models import RoundAnalysis
from games.learn.services import analysis as analysis_services
from games.play import limits, offload, selectors
from games.play.models import Match
from games.play.views.common import error_text
from games.shared.errors import (
    AnalysisQueueFullError,
    AnalysisRateLimitedError,
    DailyAnalysisSealedError,
    DailySealedError,
    GameError,
    NotSeatedError,
    ReplayBusyError,
    ReplayTooLongError,
    RoundInPlayError,
)

PAGE_SIZE = 20


def _visible_match(request: HttpRequest, match_id: int) -> Match:
    match = selectors.match_visible(match_id=match_id, user=request.user)
    if match is None:
        raise Http404("no such match")
    return match


# --- /matches/ and /matches/all/ ----------------------------------------------------------------


def _list_page(request: HttpRequest, matches: QuerySet[Match], *, mine: bool) -> HttpResponse:
    form = HistoryFilterForm(request.GET or None)
    if form.is_bound:
        form.is_valid()  # the valid fields filter; the others show their error
    matches = form.apply(matches)
    page = Paginator(matches, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    filtered = any(value for key, value in request.GET.items() if key != "page")
    context = {
        "form": form,
        "mine": mine,
        "page": page,
        "history": [selectors.match_summary(match) for match in page.object_list],
        "query": query.urlencode(),
        "filtered": filtered,
    }
    return render(request, "games/history_list.html", context)


@login_required
def match_list_mine(request: HttpRequest) -> HttpResponse:
    """``/matches/``: the user's matches (private rooms included), newest first, filtered."""
    user_id = request.user.pk
    assert user_id is not None  # login_required
    return _list_page(request, selectors.match_list_played(user_id=user_id), mine=True)


def match_list_all(request: HttpRequest) -> HttpResponse:
    """``/matches/all/``: every match the viewer may see, newest first, filtered."""
    return _list_page(request, selectors.match_list_visible(user=request.user), mine=False)


# --- the game record -----------------------------------------------------------------------------


def match_export(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/matches/<id>/record.json``: the game record; while the match is played, of its finished
    rounds (no secret: their revealed seeds), once one is over."""
    match = _visible_match(request, match_id)
    over = match.status != Match.Status.PLAYING
    if match.room.daily_sealed:
        return HttpResponse(
            error_text(DailySealedError()), status=403, content_type="text/plain; charset=utf-8"
        )
    if not over and not selectors.match_has_finished_round(match_id=match.pk):
        return HttpResponse(
            gettext("The game record is available once a round is over."),
            status=403,
            content_type="text/plain; charset=utf-8",
        )
    response = JsonResponse(records.match_record(match, with_secret=over), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="remi-match-{match.pk}.json"'
    return response


CSV_COLUMNS = (
    "round",
    "seat",
    "player",
    "hand",
    "table",
    "bonus",
    "atu_bonus",
    "multiplier",
    "chips",
    "points",
    "total",
    "notes",
)


def match_scores_csv(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/matches/<id>/scores.csv``: one row per seat and finished round."""
    match = _visible_match(request, match_id)
    names = list(match.state.get("names", []))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="remi-match-{match.pk}-scores.csv"'
    writer = csv.writer(response)
    writer.writerow(CSV_COLUMNS)
    for line in selectors.match_score_lines(match_id=match.pk):
        writer.writerow(
            (
                line.round.number,
                line.seat + 1,
                names[line.seat] if line.seat < len(names) else "",
                line.hand,
                line.table,
                line.bonus,
                line.atu_bonus,
                line.multiplier,
                "" if line.chips is None else line.chips,
                line.points,
                line.total,
                "; ".join(line.notes),
            )
        )
    return response


# --- replay of a finished round -------------------------------------------------------------------


def _client(request: HttpRequest) -> dict[str, Any]:
    """Whom the replay limits count: the address, and the account when signed in."""
    user = request.user
    return {
        "address": str(request.META.get("REMOTE_ADDR") or "?"),
        "account": user.pk if user.is_authenticated else None,
    }


def _refused(request: HttpRequest, error: GameError, *, json_wanted: bool = False) -> HttpResponse:
    """A replay or a check refused by its limits: JSON for the replay's script, a page else."""
    # replay_busy and the rate limits: 429, with Retry-After (a 5xx would be logged as a server error).
    status = 413 if isinstance(error, ReplayTooLongError) else 429
    body = {**error.to_dict(), "message": error_text(error)}
    if json_wanted:
        response: HttpResponse = JsonResponse(body, status=status)
    else:
        response = render(request, "games/refused.html", {"error": body}, status=status)
    if retry := error.fields.get("retry_after", 1 if isinstance(error, ReplayBusyError) else None):
        response["Retry-After"] = str(retry)
    return response


def _step(request: HttpRequest) -> int:
    try:
        return int(request.GET.get("step", "0"))
    except ValueError:
        return 0


def _match_replay_page(request: HttpRequest, match_id: int, number: int) -> tuple[Match, Any, dict[str, Any]]:
    """The match, its round and the page of its replay holding ``?step=`` (``records.replay_page``,
    built in the replay child: ``games.play.offload``). Counted by the replay limits."""
    match = _visible_match(request, match_id)
    round_ = selectors.match_round(match_id=match.pk, number=number)
    if round_ is None or not round_.revealed_seed:
        raise Http404("this round is not over")
    if engine.deal_seed(match.secret_bytes, number).hex() != round_.revealed_seed:
        raise Http404("this round's revealed seed does not match the match")  # pragma: no cover
    viewer = selectors.seat_index_for(room_id=match.room_id, user=request.user)
    over = match.status != Match.Status.PLAYING
    page = _replay_page(
        request,
        lambda: records.match_record(match),
        number,
        names=list(match.state.get("names", [])),
        viewer=viewer,
        show_all=over,
    )
    return match, round_, {**page, "viewer": viewer, "over": over}


def round_replay_frames(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """``/matches/<id>/rounds/<n>/replay/frames/?step=N``: the page of frames holding step N
    (JSON: ``first``, ``frames``, ``last``), which the replay's script asks for as it steps."""
    try:
        _match, _round, page = _match_replay_page(request, match_id, number)
    except GameError as error:
        return _refused(request, error, json_wanted=True)
    return JsonResponse({key: page[key] for key in ("first", "frames", "last", "step")})


def round_replay(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """``/matches/<id>/rounds/<n>/replay/``: a finished round move by move (``?step=`` without JS).

    The page holds the frames of one page (``records.REPLAY_PAGE_FRAMES``) around the step; the
    script fetches the others from ``round_replay_frames`` (docs/record.md, "Replays")."""
    try:
        match, round_, page = _match_replay_page(request, match_id, number)
    except GameError as error:
        return _refused(request, error)
    step, viewer, over = page["step"], page["viewer"], page["over"]
    frame = page["frames"][step - page["first"]]
    last_round = selectors.match_last_finished_round(match_id=match.pk)
    analyses = analyses_shown(round_.pk, viewer=viewer, over=over)
    context = {
        "match": match,
        "room": match.room,
        "round": round_,
        "title": match.room.rules().title,
        "frames": page["frames"],
        "first": page["first"],
        "frames_url": reverse("round_replay_frames", args=(match.pk, number)),
        "frame": frame,
        "step": step,
        "last": page["last"],
        "show_all": over,
        "viewer": viewer,
        "previous_round": number - 1 if number > 1 else None,
        "next_round": number + 1 if last_round and number < last_round else None,
        "analyses": analyses,
        "marks_here": [
            {**decision, "name": analysis["name"]}
            for analysis in analyses
            for decision in analysis["decisions"]
            if decision["step"] == step
        ],
        "analysis_data": {
            "url": reverse("round_analysis", args=(match.pk, number)),
            "can_ask": viewer is not None and not any(a["seat"] == viewer for a in analyses),
            "analyses": analyses,
            "questionable": int(engine_analysis.QUESTIONABLE),
            "mistake": int(engine_analysis.MISTAKE),
        },
    }
    return render(request, "games/replay.html", context)


# --- the analysis of a round (docs/learn.md) -------------------------------------------------------


def analyses_shown(round_id: int, *, viewer: int | None, over: bool) -> list[dict[str, Any]]:
    """The round's analyses this viewer may read, in their language: their own seat's always,
    every seat's once the match is over (every hand is shown then, and an analysis tells no more
    than the hands and the seed do)."""
    rows = RoundAnalysis.objects.filter(round_id=round_id).select_related("round__match").order_by("seat")
    shown = []
    for analysis in rows:
        if not over and analysis.seat != viewer:
            continue
        names = list(analysis.round.match.state.get("names", []))
        report = analysis.report or {}
        decisions = [decision_words(d) for d in report.get("decisions", [])]
        marked = sum(1 for d in decisions if d["mark"])
        if analysis.status == RoundAnalysis.Status.DONE:
            status_text = ngettext(
                "%(marked)s decision marked of %(count)s analysed",
                "%(marked)s decisions marked of %(count)s analysed",
                marked,
            ) % {"marked": marked, "count": len(decisions)}
        elif analysis.status == RoundAnalysis.Status.FAILED:
            status_text = gettext("The analysis failed.")
        else:
            status_text = gettext("Analysing… %(done)s of %(total)s moves") % {
                "done": analysis.done,
                "total": analysis.total or "?",
            }
        shown.append(
            {
                "seat": analysis.seat,
                "name": names[analysis.seat] if analysis.seat < len(names) else "",
                "status": analysis.status,
                "done": analysis.done,
                "total": analysis.total,
                "cpu_seconds": analysis.cpu_seconds,
                "status_text": status_text,
                "decisions": decisions,
                "marked": marked,
                "unanalysed": len(report.get("unanalysed", [])),
                "samples": report.get("samples"),
            }
        )
    return shown


def round_analysis(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """``/matches/<id>/rounds/<n>/analysis/``: GET, the analyses this viewer may read (JSON, polled
    by the replay while one runs); POST, "Analyse my round" (a player of the match, a finished
    round): queues it and answers with the same JSON, or goes back to the replay without scripts.
    Refusals carry the error's code: ``round_in_play`` (409), ``not_seated`` and
    ``daily_analysis_sealed`` (403: a deal of the day's try before its day is over),
    ``analysis_rate_limited`` and ``analysis_queue_full`` (429), 404 else."""
    match = _visible_match(request, match_id)
    wants_json = "application/json" in request.headers.get("Accept", "")
    if request.method == "POST":
        try:
            analysis_services.analysis_request(match_id=match.pk, number=number, user=request.user)
        except GameError as error:
            status = 404
            if isinstance(error, RoundInPlayError):
                status = 409
            elif isinstance(error, NotSeatedError | DailyAnalysisSealedError):
                status = 403
            elif isinstance(error, AnalysisRateLimitedError | AnalysisQueueFullError):
                status = 429
            body = {**error.to_dict(), "message": error_text(error)}
            return JsonResponse(body, status=status)
        if not wants_json:
            return redirect(reverse("round_replay", args=(match.pk, number)))
    elif request.method != "GET":
        return HttpResponse(status=405)
    if match.room.daily_sealed:
        sealed = DailyAnalysisSealedError()
        return JsonResponse({**sealed.to_dict(), "message": error_text(sealed)}, status=403)
    round_ = selectors.match_round(match_id=match.pk, number=number)
    if round_ is None or not round_.revealed_seed:
        refusal = RoundInPlayError(round=number)
        return JsonResponse({**refusal.to_dict(), "message": error_text(refusal)}, status=409)
    viewer = selectors.seat_index_for(room_id=match.room_id, user=request.user)
    over = match.status != Match.Status.PLAYING
    analyses = analyses_shown(round_.pk, viewer=viewer, over=over)
    return JsonResponse(
        {
            "analyses": analyses,
            "can_ask": viewer is not None and not any(a["seat"] == viewer for a in analyses),
        }
    )


# --- /verify/ -------------------------------------------------------------------------------------


def _kept_record_key(token: str) -> str:
    return f"replay:record:{token}"


def _keep_record(document: dict[str, Any]) -> str:
    """Keep a sent record for its replay's pages (``REPLAY_KEEP_SECONDS``); its token (the
    SHA-256 of its text: the same record sent twice is kept once)."""
    text = json.dumps(document, separators=(",", ":"), sort_keys=True)
    token = hashlib.sha256(text.encode()).hexdigest()[:32]
    cache.set(_kept_record_key(token), document, settings.REPLAY_KEEP_SECONDS)
    return token


def verify(request: HttpRequest) -> HttpResponse:
    """``/verify/``: check a record (pasted, uploaded, or a finished match of this site).

    A sent record counts against the address's (and account's) budget, one at a time, and is
    checked in the replay child (``games.play.offload``; docs/record.md, "Limits")."""
    form = VerifyForm(request.POST or None, request.FILES or None)
    report = None
    match = None
    sealed = ""
    site_check = None
    token = ""
    if request.method == "POST":
        client = _client(request)
        try:
            limits.replay_budget("upload", **client)
        except GameError as error:
            return _refused(request, error)
        if form.is_valid():
            document = form.cleaned_data["document"]
            try:
                with limits.replay_slot(**client):
                    report = offload.replay(verify_record, document)
            except GameError as error:
                return _refused(request, error)
            site_check = records.site_commitments(document, user=request.user)
            token = _keep_record(document)
    elif request.GET.get("match"):
        try:
            match = _visible_match(request, int(request.GET["match"]))
        except ValueError:
            raise Http404("no such match") from None
        over = match.status != Match.Status.PLAYING
        if match.room.daily_sealed:
            sealed = error_text(DailySealedError())
        elif over or selectors.match_has_finished_round(match_id=match.pk):
            report = verify_record(records.match_record(match, with_secret=over))
    if report is not None:
        players = report.get("players", [])
        report = {**report, "rounds": [records.verified_round(entry, players) for entry in report["rounds"]]}
    context = {
        "form": form,
        "report": report,
        "match": match,
        "site_check": site_check,
        "finished": selectors.match_list_finished_visible(user=request.user),
        "playing": match is not None and match.status == Match.Status.PLAYING,
        "sealed": sealed,
        # A pasted or uploaded record is kept for a while: each "replay this round" names it.
        "token": token,
    }
    return render(request, "games/verify.html", context)


@require_POST
def verify_replay(request: HttpRequest) -> HttpResponse:
    """``POST /verify/replay/`` (``record`` and ``round``): keep the record (counted as a record
    sent) and go to its round's replay (``verify_replay_page``)."""
    client = _client(request)
    try:
        limits.replay_budget("upload", **client)
    except GameError as error:
        return _refused(request, error)
    form = VerifyForm(request.POST, request.FILES or None)
    if not form.is_valid():
        return render(request, "games/verify.html", {"form": form, "finished": []}, status=400)
    try:
        number = int(request.POST.get("round", "1"))
    except ValueError:
        number = 1
    token = _keep_record(form.cleaned_data["document"])
    return redirect(reverse("verify_replay_page", args=(token, max(number, 1))))


def _kept_replay_page(request: HttpRequest, token: str, number: int) -> dict[str, Any]:
    document = cache.get(_kept_record_key(token))
    if document is None:
        raise Http404("this record is no longer kept: send it again")
    players = [str(name) for name in document.get("players") or []]
    page = _replay_page(
        request,
        lambda: document,
        number,
        names=players,
        viewer=None,
        show_all=True,
        max_moves=settings.REPLAY_MAX_ROUND_MOVES,
    )
    return {**page, "document": document, "players": players}


def _replay_page(request: HttpRequest, record: Any, number: int, **options: Any) -> dict[str, Any]:
    """One page of a round's replay for this request: counted in the address's and account's
    budget, one at a time, built in the replay child (docs/record.md, "Replays" and "Limits").
    ``record`` is called only once the budget allows the page."""
    client = _client(request)
    limits.replay_budget("page", **client)
    with limits.replay_slot(**client):
        return offload.replay(records.replay_page, record(), number, step=_step(request), **options)


def verify_replay_frames(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """``/verify/replay/<token>/<n>/frames/?step=N``: a page of a kept record's replay (JSON)."""
    try:
        page = _kept_replay_page(request, token, number)
    except GameError as error:
        return _refused(request, error, json_wanted=True)
    except (ValueError, KeyError, TypeError, engine.IllegalMoveError) as error:
        return JsonResponse({"code": "malformed_record", "message": str(error)}, status=400)
    return JsonResponse({key: page[key] for key in ("first", "frames", "last", "step")})


def verify_replay_page(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """``/verify/replay/<token>/<n>/``: round ``n`` of a record sent to /verify/, move by move, on
    the replay page: a practice game downloaded from the player's device (docs/practice.md) as
    well as a site's. The record holds its deals, so every hand is shown."""
    try:
        page = _kept_replay_page(request, token, number)
        record = engine.record_from_json(page["document"])
    except GameError as error:
        return _refused(request, error)
    except (ValueError, KeyError, TypeError, engine.IllegalMoveError) as error:
        message = gettext("This round cannot be replayed: %(error)s") % {"error": error}
        refusal = {"error": {"code": "malformed_record", "message": message}, "title": gettext("Game record")}
        return render(request, "games/refused.html", refusal, status=400)
    step = page["step"]
    context: dict[str, Any] = {
        "match": None,
        "room": {"name": gettext("Game record")},
        "round": {"number": number, "revealed_seed": engine.deal_seed(record.seed, number).hex()},
        "title": record.rules.title,
        "players": page["players"],
        "frames": page["frames"],
        "first": page["first"],
        "frames_url": reverse("verify_replay_frames", args=(token, number)),
        "frame": page["frames"][step - page["first"]],
        "step": step,
        "last": page["last"],
        "show_all": True,
        "viewer": None,
        "previous_round": None,
        "next_round": None,
    }
    return render(request, "games/replay.html", context)
