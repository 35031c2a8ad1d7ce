"""The game record (JSON) and the score lines (CSV) of a match, the engine's ``replay`` and
``verify`` commands on an exported record, and the /verify/ page: a real finished match verifies,
a tampered record fails with a message that says where."""

from __future__ import annotations

import copy
import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pytest_django.asserts import assertContains, assertNotContains
from pytest_django.fixtures import Settings

from games import engine
from games.engine.record_check import verify_record
from games.engine.tools.cli import main as engine_cli
from games.learn.views.history import CSV_COLUMNS
from games.play import services
from games.play.models import Match, ScoreLine
from tests.site.site_helpers import client_for
from tests.site.test_history_pages import bot_match, two_people_match

pytestmark = pytest.mark.django_db

LINE_FIELDS = ("seat", "points", "hand", "table", "bonus", "atu_bonus", "multiplier", "chips")


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def finished(ala: Any) -> Match:
    match = bot_match(ala, options={"rounds": 2}, name="Two rounds")
    assert match.status == Match.Status.FINISHED
    return match


def exported(match: Match) -> dict[str, Any]:
    response = Client().get(f"/matches/{match.pk}/record.json")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="remi-match-{match.pk}.json"'
    return dict(json.loads(response.content))


def stored_lines(match: Match) -> list[list[tuple[Any, ...]]]:
    by_round: dict[int, list[tuple[Any, ...]]] = {}
    for line in (
        ScoreLine.objects.filter(round__match=match).select_related("round").order_by("round__number", "seat")
    ):
        by_round.setdefault(line.round.number, []).append(tuple(getattr(line, name) for name in LINE_FIELDS))
    return [by_round[number] for number in sorted(by_round)]


def run_cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    code = engine_cli(list(args), stdout=out)
    return code, out.getvalue()


# --- export ----------------------------------------------------------------------------------------


def test_the_record_replays_in_the_engine_to_the_stored_score_lines(finished: Match, tmp_path: Path) -> None:
    document = exported(finished)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document))

    state = engine.replay(json.loads(path.read_text()))
    replayed = [
        [tuple(line.to_json().get(name) for name in LINE_FIELDS) for line in result.lines]
        for result in state.results
    ]
    assert replayed == stored_lines(finished)
    assert list(state.totals) == finished.state["totals"]
    assert list(state.winners) == finished.winners
    code, out = run_cli("replay", str(path))
    assert code == 0
    for number in range(1, len(stored_lines(finished)) + 1):
        assert f"--- Round {number} over" in out
    names = finished.state["names"]
    totals = ", ".join(f"{name} {total}" for name, total in zip(names, finished.state["totals"], strict=True))
    assert f"Totals: {totals}" in out


def test_the_record_holds_rules_options_seeds_and_moves(finished: Match) -> None:
    document = exported(finished)

    assert document["format"] == "remi-record/1"
    assert document["variant"] == "remi"
    assert document["options"] == dict(finished.room.rules().options)
    assert document["players"] == finished.state["names"]
    assert document["seed"] == finished.secret_bytes.hex()
    assert len(document["moves"]) == finished.version
    assert [r["round"] for r in document["rounds"]] == [1, 2]
    for entry in document["rounds"]:
        assert entry["seed"] == engine.deal_seed(finished.secret_bytes, entry["round"]).hex()
        assert entry["commitment"] == engine.commitment(bytes.fromhex(entry["seed"]))
    assert document["match"]["id"] == finished.pk


def test_no_record_before_a_round_is_over(ala: Any) -> None:
    match = bot_match(ala, finish=False)

    response = client_for(ala).get(f"/matches/{match.pk}/record.json")

    assert response.status_code == 403
    assert "once a round is over" in response.content.decode()
    assert match.secret_bytes.hex() not in response.content.decode()


def in_round_three(state: Any) -> bool:
    return state.round_no == 3


def test_a_match_being_played_exports_its_finished_rounds_without_its_secret(
    ala: Any, tmp_path: Path
) -> None:
    match = bot_match(ala, options={"rounds": 4}, finish=False, until=in_round_three)
    assert match.status == Match.Status.PLAYING

    document = exported(match)

    text = json.dumps(document)
    assert match.secret_bytes.hex() not in text
    for number in (0, 3, 4):
        assert engine.deal_seed(match.secret_bytes, number).hex() not in text
    assert document["partial"] is True
    assert [entry["round"] for entry in document["rounds"]] == [1, 2]
    assert {item["round"] for item in document["moves"]} == {1, 2}
    state = engine.replay(document)
    replayed = [
        [tuple(line.to_json().get(name) for name in LINE_FIELDS) for line in result.lines]
        for result in state.results
    ]
    assert replayed == stored_lines(match)
    report = verify_record(document)
    assert report["ok"], report["problems"]
    assert [
        (r["round"], r["commitment_ok"], r["seed_ok"], r["deal_ok"], r["lines_ok"]) for r in report["rounds"]
    ] == [
        (1, True, None, True, True),
        (2, True, None, True, True),
    ]
    path = tmp_path / "partial.json"
    path.write_text(text)
    code, out = run_cli("replay", str(path))
    assert code == 0
    assert "The record holds the finished rounds of a match still being played (2)." in out
    totals = ", ".join(
        f"{name} {total}" for name, total in zip(match.state["names"], match.state["totals"], strict=True)
    )
    assert f"Totals: {totals}" in out
    assert run_cli("verify", str(path))[0] == 0
    # A seed changed in the book is caught by its commitment.
    document["rounds"][1]["seed"] = "11" * 32
    book = bytes.fromhex(document["seed"])
    document["seed"] = (book[:-32] + bytes.fromhex("11" * 32)).hex()
    tampered = verify_record(document)
    assert tampered["ok"] is False
    # (the moves of round 2, played from the real deal, are refused by the new one too)
    assert any(
        problem.startswith("round 2: SHA-256 of the revealed seed is") for problem in tampered["problems"]
    )


def test_an_abandoned_match_exports_and_its_finished_rounds_replay(ala: Any) -> None:
    match = bot_match(ala, options={"rounds": 3}, finish=False, until=lambda state: state.round_no == 2)
    services.room_close(room_ids=[match.room_id])
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED

    document = exported(match)
    state = engine.replay(document)

    assert [
        tuple(line.to_json().get(n) for n in LINE_FIELDS) for line in state.results[0].lines
    ] == stored_lines(match)[0]
    assert verify_record(document)["ok"] is True


# --- CSV -------------------------------------------------------------------------------------------


def test_the_csv_has_one_row_per_seat_and_round(finished: Match) -> None:
    response = Client().get(f"/matches/{finished.pk}/scores.csv")

    assert response["Content-Type"].startswith("text/csv")
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert tuple(table[0]) == CSV_COLUMNS
    names = finished.state["names"]
    expected = [
        [
            str(line.round.number),
            str(line.seat + 1),
            names[line.seat],
            str(line.hand),
            str(line.table),
            str(line.bonus),
            str(line.atu_bonus),
            str(line.multiplier),
            "" if line.chips is None else str(line.chips),
            str(line.points),
            str(line.total),
            "; ".join(line.notes),
        ]
        for line in ScoreLine.objects.filter(round__match=finished).order_by("round__number", "seat")
    ]
    assert table[1:] == expected
    assert len(expected) == 4


def test_the_csv_of_a_match_being_played_has_its_finished_rounds_only(ala: Any) -> None:
    match = bot_match(ala, options={"rounds": 2}, finish=False, until=lambda state: state.round_no == 2)

    table = list(
        csv.reader(io.StringIO(client_for(ala).get(f"/matches/{match.pk}/scores.csv").content.decode()))
    )

    assert [row[0] for row in table[1:]] == ["1", "1"]


# --- verify on the command line ------------------------------------------------------------------


def test_the_engine_verifies_every_round_of_a_real_match(finished: Match, tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(exported(finished)))

    code, out = run_cli("verify", str(path))

    assert code == 0, out
    assert "Record verified." in out
    for number in (1, 2):
        assert f"Round {number} (finished" in out
    assert out.count(": ok") == 8  # commitment, seed, deal, lines for each round
    one_round_code, one_round = run_cli("verify", str(path), "2")
    assert one_round_code == 0
    assert "Deal verified." in one_round


def test_a_tampered_seed_fails_with_a_clear_message(finished: Match, tmp_path: Path) -> None:
    document = exported(finished)
    seed = bytearray(bytes.fromhex(document["rounds"][1]["seed"]))
    seed[0] ^= 1
    document["rounds"][1]["seed"] = seed.hex()
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(document))

    code, out = run_cli("verify", str(path))

    assert code == 2
    assert "Record does NOT verify." in out
    assert "problem: round 2: the revealed seed is not the one the match secret gives" in out
    assert f"not the commitment {document['rounds'][1]['commitment']} published before the deal" in out


def test_a_tampered_move_fails_with_the_move_named(finished: Match) -> None:
    document = exported(finished)
    moved = copy.deepcopy(document)
    index = next(i for i, item in enumerate(moved["moves"]) if item["move"]["kind"] == "discard")
    moved["moves"][index]["seat"] = 1 - moved["moves"][index]["seat"]

    report = verify_record(moved)

    assert report["ok"] is False
    assert report["problems"][0].startswith(
        f"move {index + 1} (seat {moved['moves'][index]['seat']}) is refused"
    )


def test_tampered_score_lines_fail(finished: Match) -> None:
    document = exported(finished)
    document["rounds"][0]["lines"][0]["points"] += 10

    report = verify_record(document)

    assert report["problems"] == ["round 1: the replayed score lines differ from the published ones"]


# --- /verify/ ------------------------------------------------------------------------------------


def test_the_verify_page_checks_a_finished_match_of_the_site(finished: Match) -> None:
    response = Client().get(f"/verify/?match={finished.pk}")

    assertContains(response, "The record verifies.")
    html = response.content.decode()
    for number in (1, 2):
        assert f'id="verify-round-{number}"' in html
    for round_ in finished.rounds.all():
        assert round_.commitment in html
        assert round_.revealed_seed in html
    assertContains(response, f'<option value="{finished.pk}" selected>')


def test_the_verify_page_checks_a_pasted_record_and_an_uploaded_one(finished: Match) -> None:
    text = json.dumps(exported(finished))

    pasted = Client().post("/verify/", {"record": text})
    uploaded = Client().post("/verify/", {"file": SimpleUploadedFile("m.json", text.encode())})

    for response in (pasted, uploaded):
        assertContains(response, "The record verifies.")
        assertContains(
            response, f"The commitments are the ones this site published for match #{finished.pk}."
        )


def test_the_verify_page_says_what_is_wrong_with_a_tampered_record(finished: Match) -> None:
    document = exported(finished)
    document["rounds"][0]["commitment"] = "0" * 64

    response = Client().post("/verify/", {"record": json.dumps(document)})

    assertContains(response, "The record does NOT verify.")
    assertContains(response, "round 1: SHA-256 of the revealed seed is")
    assertContains(response, "are NOT the ones this site published")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"record": ""}, "Paste a record or choose a file."),
        ({"record": "{not json"}, "This is not JSON"),
        ({"record": "[1, 2]"}, "A game record is a JSON object."),
        ({"record": '{"format": "something else"}'}, "not a readable game record"),
        ({"record": json.dumps({"moves": [{}] * 20_001})}, "more than 20000 moves"),
    ],
)
def test_the_verify_page_refuses_what_is_not_a_record(data: dict[str, str], message: str) -> None:
    response = Client().post("/verify/", data)

    assert response.status_code == 200
    assertContains(response, message)
    assertNotContains(response, "The record verifies.")


def test_the_verify_page_checks_the_finished_rounds_of_a_match_being_played(ala: Any) -> None:
    fresh = bot_match(ala, finish=False)
    midway = bot_match(ala, options={"rounds": 4}, finish=False, until=in_round_three)

    waiting = client_for(ala).get(f"/verify/?match={fresh.pk}")
    checked = client_for(ala).get(f"/verify/?match={midway.pk}")

    assertContains(waiting, "no round of it is over yet")
    assertNotContains(waiting, 'id="verify-report"')
    assertContains(checked, "its finished rounds are checked")
    assertContains(checked, "The record verifies.")
    html = checked.content.decode()
    assert 'id="verify-round-2"' in html
    assert 'id="verify-round-3"' not in html


def test_a_ranked_match_between_two_people_verifies(ala: Any, bob: Any) -> None:
    match = two_people_match(ala, bob, ranked=True)
    report = verify_record(exported(match))
    assert report["ok"], report["problems"]


def test_the_verify_page_names_a_move_the_table_cannot_take(finished: Match) -> None:
    document = exported(finished)
    document["moves"][4]["move"] = {"kind": "discard", "card": "JK#9"}

    response = Client().post("/verify/", {"record": json.dumps(document)})

    assertContains(response, "The record does NOT verify.")
    assertContains(response, "move 5 (seat")
