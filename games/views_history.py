"""History pages: match lists with filters, round replays, game records, CSV, and /verify/.

Reads only. A viewer sees a match when its room is public, or when they sit in (or own) its
private room. Replays are built here on the server with the engine (``record_check.round_steps``)
from the match's own record; a frame carries only what the viewer may see: every hand once the
match is over, otherwise the viewer's own hand alone (spectators: none). A round's seed and its
moves appear only after that round is over; the JSON record (with the match secret) only once the
match is over. ``docs/record.md`` documents the record.
"""

from __future__ import annotations

import csv
import json
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from games import engine, protocol, ratings, selectors
from games.card_labels import card_label
from games.engine import (
    RECORD_FORMAT,
    Discard,
    Knock,
    choose_first,
    move_text,
    round_steps,
    seed_book,
    verify_record,
)
from games.models import Match, MoveRecord, RatingChange, RatingStatus, Round, ScoreLine, Seat

PAGE_SIZE = 20
#: The largest record /verify/ reads (pasted or uploaded), in bytes.
VERIFY_MAX_BYTES = 5 * 1024 * 1024
#: The most moves /verify/ replays (a long Remi evening is a few thousand).
VERIFY_MAX_MOVES = 50_000
#: How deeply a record's JSON may nest (a record's move with lay-offs is 6 levels down).
VERIFY_MAX_NESTING = 32


# --- which matches a viewer may see -------------------------------------------------------------


def _member_q(user: Any) -> Q:
    """The viewer sits in (or owns) the match's room."""
    if not user.is_authenticated:
        return Q(pk__in=[])
    seated = Seat.objects.filter(room_id=OuterRef("room_id"), user_id=user.pk)
    return Q(Exists(seated)) | Q(room__owner_id=user.pk)


def visible_matches(user: Any) -> QuerySet[Match]:
    """Every match ``user`` may see (public rooms, and private rooms they belong to)."""
    return Match.objects.filter(Q(room__join_code__isnull=True) | _member_q(user))


def _visible_match(request: HttpRequest, match_id: int) -> Match:
    match = visible_matches(request.user).select_related("room").filter(pk=match_id).order_by().first()
    if match is None:
        raise Http404("no such match")
    return match


# --- /matches/ and /matches/all/ ----------------------------------------------------------------


class HistoryFilterForm(forms.Form):
    """The filters of the match lists (a plain GET form)."""

    variant = forms.ChoiceField(label=_("Variant"), required=False)
    kind = forms.ChoiceField(
        label=_("Ranked or casual"),
        required=False,
        choices=(("", _("Any")), ("ranked", _("Ranked")), ("casual", _("Casual"))),
    )
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    opponent = forms.CharField(label=_("Opponent"), required=False, max_length=150)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        variants = [(name, gettext(engine.variant(name).title)) for name in engine.variant_names()]
        self.fields["variant"].choices = [("", _("Any")), *variants]  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", gettext("The end date is before the start date."))
        return data

    def apply(self, matches: QuerySet[Match]) -> QuerySet[Match]:
        """The matches that pass the valid filters (an invalid field filters nothing)."""
        data = self.cleaned_data if self.is_bound else {}
        if data.get("variant"):
            matches = matches.filter(room__variant=data["variant"])
        if data.get("kind") == "ranked":
            matches = matches.filter(room__ranked=True)
        elif data.get("kind") == "casual":
            matches = matches.filter(room__ranked=False)
        if data.get("date_from"):
            matches = matches.filter(started__date__gte=data["date_from"])
        if data.get("date_to"):
            matches = matches.filter(started__date__lte=data["date_to"])
        if data.get("opponent"):
            sat = Seat.objects.filter(
                room_id=OuterRef("room_id"), user__username__iexact=data["opponent"].strip()
            )
            matches = matches.filter(Exists(sat))
        return matches


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
        "history": [selectors._match_summary(match) for match in page.object_list],
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
    matches = visible_matches(request.user).select_related("room").defer("secret").order_by("-started", "-id")
    if request.user.is_authenticated:
        my_seat = Seat.objects.filter(room_id=OuterRef("room_id"), user_id=request.user.pk).values("index")[
            :1
        ]
        matches = matches.annotate(my_seat=Subquery(my_seat))
    return _list_page(request, matches, mine=False)


# --- the match page: score lines, rating changes, links ----------------------------------------


def match_history_context(request: HttpRequest, match: Match) -> dict[str, Any]:
    """What the match page adds for history: rating changes, finished rounds, export links."""
    changes = []
    for change in RatingChange.objects.filter(match=match).select_related("user").order_by("seat"):
        before = ratings.display(change.mu_before, change.sigma_before)
        after = ratings.display(change.mu_after, change.sigma_after)
        changes.append(
            {
                "name": change.user.get_username(),
                "seat": change.seat,
                "rank": change.rank,
                "won": change.won,
                "standin": change.standin,
                "before": before,
                "after": after,
                "delta": after - before,
                "uncertainty": ratings.display_uncertainty(change.sigma_after),
                "provisional": ratings.is_provisional(change.sigma_after),
            }
        )
    return {
        "rating_changes": changes,
        "rating_status": match.rating_status,
        "rating_status_label": RatingStatus(match.rating_status).label if match.rating_status else "",
        "match_over": match.status != Match.Status.PLAYING,
        "final_totals": list(match.state.get("totals", [])),
        "round_finished": Round.objects.filter(match=match, revealed_seed__isnull=False).exists(),
    }


# --- the game record -----------------------------------------------------------------------------


def match_record(match: Match, *, with_secret: bool = True) -> dict[str, Any]:
    """The match as a ``remi-record/1`` document plus its published rounds (docs/record.md).

    ``with_secret``: the match secret and every move (the server's own replays, and a match
    that is over). Without it: the finished rounds only, their revealed seeds as a seed book in
    place of the secret (``engine.seed_book``), so nothing is in it that the table has not
    shown everyone.
    """
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
    data: dict[str, Any] = {
        "seat": line.seat,
        "points": line.points,
        "hand": line.hand,
        "table": line.table,
        "bonus": line.bonus,
        "atu_bonus": line.atu_bonus,
        "multiplier": line.multiplier,
        "notes": list(line.notes),
    }
    if line.chips is not None:
        data["chips"] = line.chips
    return data


def match_export(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/matches/<id>/record.json``: the game record; while the match is played, of its finished
    rounds (no secret: their revealed seeds), once one is over."""
    match = _visible_match(request, match_id)
    over = match.status != Match.Status.PLAYING
    if not over and not Round.objects.filter(match=match, revealed_seed__isnull=False).exists():
        return HttpResponse(
            gettext("The game record is available once a round is over."),
            status=403,
            content_type="text/plain; charset=utf-8",
        )
    response = JsonResponse(match_record(match, with_secret=over), json_dumps_params={"indent": 1})
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


def round_replay(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """``/matches/<id>/rounds/<n>/replay/``: a finished round move by move (``?step=`` without JS)."""
    match = _visible_match(request, match_id)
    round_ = Round.objects.filter(match=match, number=number).first()
    if round_ is None or not round_.revealed_seed:
        raise Http404("this round is not over")
    if engine.deal_seed(match.secret_bytes, number).hex() != round_.revealed_seed:
        raise Http404("this round's revealed seed does not match the match")  # pragma: no cover
    viewer = selectors.seat_index_for(room_id=match.room_id, user=request.user)
    over = match.status != Match.Status.PLAYING
    names = list(match.state.get("names", []))
    frames = replay_frames(match_record(match), number, names=names, viewer=viewer, show_all=over)
    try:
        step = min(max(int(request.GET.get("step", "0")), 0), len(frames) - 1)
    except ValueError:
        step = 0
    last_round = Round.objects.filter(match=match, revealed_seed__isnull=False).order_by("-number").first()
    context = {
        "match": match,
        "room": match.room,
        "round": round_,
        "title": match.room.rules().title,
        "frames": frames,
        "frame": frames[step],
        "step": step,
        "last": len(frames) - 1,
        "show_all": over,
        "viewer": viewer,
        "previous_round": number - 1 if number > 1 else None,
        "next_round": number + 1 if last_round and number < last_round.number else None,
    }
    return render(request, "games/replay.html", context)


def replay_frames(
    record: dict[str, Any], number: int, *, names: list[str], viewer: int | None, show_all: bool
) -> list[dict[str, Any]]:
    """One frame per position of round ``number``: the deal, then after each move.

    A hand's cards are in a frame only when ``show_all`` (the match is over) or it is the
    viewer's; the last frame (the round's end) shows the hands left, which the table showed
    everyone when the round ended. The stock is only a count.
    """
    steps = round_steps(record, number)
    frames = []
    previous = steps[0].state
    for index, step in enumerate(steps):
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
            "discard": [_card(card) for card in table.discard],
            "melds": [
                {"owner": names[owner], "cards": [_card(card) for card in cards]} for owner, cards in melds
            ],
            "table_before_last_move": before_last,
            "atu": _card(atu) if (atu := engine.atu_of(table)) else None,
            "hands": [
                {
                    "seat": seat,
                    "name": names[seat],
                    "count": len(hand),
                    "cards": [_card(card) for card in hand] if ended or show_all or seat == viewer else None,
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
        frames.append(frame)
        previous = step.state
    return frames


def _card(card: Any) -> dict[str, Any]:
    return card_label(str(card))


# --- /verify/ -------------------------------------------------------------------------------------


class VerifyForm(forms.Form):
    record = forms.CharField(label=_("Paste a game record (JSON)"), required=False, widget=forms.Textarea)
    file = forms.FileField(label=_("or upload one"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        text = data.get("record") or ""
        if upload is not None:
            if upload.size > VERIFY_MAX_BYTES:
                raise forms.ValidationError(gettext("The file is too large."), code="too_large")
            raw = upload.read()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(gettext("The file is not UTF-8 text."), code="not_text") from None
        if not text.strip():
            raise forms.ValidationError(gettext("Paste a record or choose a file."), code="empty")
        try:
            document = protocol.read_json(text, max_chars=VERIFY_MAX_BYTES, max_nesting=VERIFY_MAX_NESTING)
        except protocol.MalformedMessageError as error:
            raise forms.ValidationError(
                # The parser's own words where there are some ("Expecting value: line 1 ...").
                gettext("This is not JSON: %(error)s") % {"error": error.__cause__ or error},
                code="not_json",
            ) from None
        if not isinstance(document, dict):
            raise forms.ValidationError(gettext("A game record is a JSON object."), code="not_record")
        moves = document.get("moves")
        if isinstance(moves, list) and len(moves) > VERIFY_MAX_MOVES:
            raise forms.ValidationError(
                gettext("This record has more than %(limit)s moves.") % {"limit": VERIFY_MAX_MOVES},
                code="too_long",
            )
        data["document"] = document
        return data


def verify(request: HttpRequest) -> HttpResponse:
    """``/verify/``: check a record (pasted, uploaded, or a finished match of this site)."""
    form = VerifyForm(request.POST or None, request.FILES or None)
    report = None
    match = None
    site_check = None
    document_text = ""
    if request.method == "POST" and form.is_valid():
        document = form.cleaned_data["document"]
        report = verify_record(document)
        site_check = _site_commitments(request, document)
        document_text = json.dumps(document, separators=(",", ":"))
    elif request.GET.get("match"):
        try:
            match = _visible_match(request, int(request.GET["match"]))
        except ValueError:
            raise Http404("no such match") from None
        over = match.status != Match.Status.PLAYING
        if over or Round.objects.filter(match=match, revealed_seed__isnull=False).exists():
            report = verify_record(match_record(match, with_secret=over))
    if report is not None:
        report = {
            **report,
            "rounds": [_round_view(entry, report.get("players", [])) for entry in report["rounds"]],
        }
    finished = (
        visible_matches(request.user)
        .exclude(status=Match.Status.PLAYING)
        .select_related("room")
        .defer("secret", "state")
        .order_by("-finished", "-id")[:30]
    )
    context = {
        "form": form,
        "report": report,
        "match": match,
        "site_check": site_check,
        "finished": finished,
        "playing": match is not None and match.status == Match.Status.PLAYING,
        # A pasted or uploaded record goes along with each "replay this round" (verify_replay).
        "document_text": document_text,
    }
    return render(request, "games/verify.html", context)


@require_POST
def verify_replay(request: HttpRequest) -> HttpResponse:
    """``POST /verify/replay/`` (``record`` and ``round``): a round of a pasted or uploaded game
    record, move by move, on the replay page: a practice game downloaded from the player's device
    (docs/practice.md) as well as a site's. The record holds its deals, so every hand is shown."""
    form = VerifyForm(request.POST, request.FILES or None)
    if not form.is_valid():
        return verify(request)
    document = form.cleaned_data["document"]
    try:
        number = int(request.POST.get("round", "1"))
        players = [str(name) for name in document.get("players") or []]
        frames = replay_frames(document, number, names=players, viewer=None, show_all=True)
        record = engine.record_from_json(document)
    except (ValueError, KeyError, TypeError, engine.IllegalMoveError) as error:
        form.add_error(None, gettext("This round cannot be replayed: %(error)s") % {"error": error})
        return render(request, "games/verify.html", {"form": form, "finished": [], "document_text": ""})
    step = 0
    context = {
        "match": None,
        "room": {"name": gettext("Game record")},
        "round": {"number": number, "revealed_seed": engine.deal_seed(record.seed, number).hex()},
        "title": record.rules.title,
        "players": players,
        "frames": frames,
        "frame": frames[step],
        "step": step,
        "last": len(frames) - 1,
        "show_all": True,
        "viewer": None,
        "previous_round": None,
        "next_round": None,
    }
    return render(request, "games/replay.html", context)


def _round_view(entry: dict[str, Any], players: list[str]) -> dict[str, Any]:
    hands = [
        {
            "name": players[seat] if seat < len(players) else f"#{seat + 1}",
            "cards": [_card(card) for card in hand],
        }
        for seat, hand in enumerate(entry["hands"])
    ]
    return {**entry, "dealt": hands, "atu_card": _card(entry["atu"]) if entry["atu"] else None}


def _site_commitments(request: HttpRequest, document: dict[str, Any]) -> dict[str, Any] | None:
    """When a pasted record names a match of this site the viewer may see: do its commitments
    equal the ones the site published for that match?"""
    meta = document.get("match")
    if not isinstance(meta, dict) or not isinstance(meta.get("id"), int):
        return None
    match = visible_matches(request.user).filter(pk=meta["id"]).first()
    if match is None:
        return None
    published = dict(Round.objects.filter(match=match).values_list("number", "commitment"))
    listed = document.get("rounds")
    rounds = listed if isinstance(listed, list) else []
    claimed = {item.get("round"): item.get("commitment") for item in rounds if isinstance(item, dict)}
    different = sorted(str(number) for number, value in published.items() if claimed.get(number) != value)
    return {"match": match, "ok": not different, "different": different}
