import hashlib
import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, transaction

from games import engine
from games.engine.records import make_record
from games.play import broadcast, selectors, services
from games.play.models import Match, MoveRecord, Room, Round, ScoreLine
from games.shared.errors import NotBotTurnError, NotSeatedError, StaleVersionError


@pytest.fixture
def players(make_user: Any) -> tuple[Any, Any]:
    return make_user("ala"), make_user("bartek")


@pytest.fixture
def match(make_room: Any, players: tuple[Any, Any]) -> Match:
    room = make_room("remik51", seats=2)
    for user in players:
        services.seat_take(room=room, user=user)
    return services.match_start(room=room)


def _user_to_move(match: Match, players: tuple[Any, Any]) -> tuple[int, Any]:
    seat = match.game_state().turn
    return seat, players[seat]


def _a_discard(match: Match) -> engine.Discard:
    state = match.game_state()
    return engine.Discard(state.hands[state.turn][0])


def _snapshot(match: Match) -> tuple[Any, ...]:
    match.refresh_from_db()
    return match.version, match.state, MoveRecord.objects.count(), ScoreLine.objects.count()


def test_a_legal_move_bumps_the_version_and_is_logged(match: Match, players: tuple[Any, Any]) -> None:
    seat, user = _user_to_move(match, players)
    move = _a_discard(match)
    expected = engine.apply_move(match.game_state(), seat, move).state

    version = services.move_submit(match_id=match.pk, user=user, move=move, expected_version=0)

    match.refresh_from_db()
    assert version == match.version == 1
    assert match.game_state() == expected
    record = MoveRecord.objects.get(match=match)
    assert (record.seq, record.seat, record.round_number, record.actor) == (1, seat, 1, "player")
    assert engine.move_from_json(record.move) == move


def test_an_illegal_move_changes_nothing(match: Match, players: tuple[Any, Any]) -> None:
    seat, user = _user_to_move(match, players)
    before = _snapshot(match)
    # The dealer holds the extra card and must not draw (R51: the first player plays without drawing).
    with pytest.raises(engine.IllegalMoveError) as caught:
        services.move_submit(match_id=match.pk, user=user, move=engine.DrawStock(), expected_version=0)
    assert caught.value.code == "wrong_phase"
    other = players[1 - seat]
    with pytest.raises(engine.IllegalMoveError) as caught:
        services.move_submit(match_id=match.pk, user=other, move=engine.DrawStock(), expected_version=0)
    assert caught.value.code == "not_your_turn"
    assert _snapshot(match) == before


def test_a_stale_version_is_refused_with_the_current_one(match: Match, players: tuple[Any, Any]) -> None:
    _seat, user = _user_to_move(match, players)
    services.move_submit(match_id=match.pk, user=user, move=_a_discard(match), expected_version=0)
    match.refresh_from_db()
    before = _snapshot(match)
    with pytest.raises(StaleVersionError) as caught:
        services.move_submit(match_id=match.pk, user=user, move=engine.DrawStock(), expected_version=0)
    assert caught.value.current == 1
    assert _snapshot(match) == before


def test_a_user_without_a_seat_cannot_move(match: Match, make_user: Any) -> None:
    before = _snapshot(match)
    with pytest.raises(NotSeatedError):
        services.move_submit(
            match_id=match.pk, user=make_user("celina"), move=_a_discard(match), expected_version=0
        )
    assert _snapshot(match) == before


def test_bot_moves_are_refused_for_a_human_seat(match: Match) -> None:
    with pytest.raises(NotBotTurnError):
        services.bot_move_play(match_id=match.pk, expected_version=0)


def test_each_seat_group_gets_only_its_own_hand(
    match: Match, players: tuple[Any, Any], django_capture_on_commit_callbacks: Any
) -> None:
    # A move's frames travel as one message to the match's group, one text per audience; each
    # process hands a socket its own audience's text only (games/play/fanout.py).
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(broadcast.match_group(match.pk), channel)
    groups = [
        broadcast.seat_group(match.pk, 0),
        broadcast.seat_group(match.pk, 1),
        broadcast.spectators_group(match.pk),
    ]
    seat, user = _user_to_move(match, players)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.move_submit(match_id=match.pk, user=user, move=_a_discard(match), expected_version=0)
    assert len(callbacks) == 1

    match.refresh_from_db()
    state = match.game_state()
    message = async_to_sync(layer.receive)(channel)
    assert message["type"] == broadcast.FRAME_MESSAGE
    texts = dict(message["frames"])
    assert list(texts) == groups
    for index, group in enumerate(groups):
        text = texts[group]
        frame = json.loads(text)
        assert (frame["type"], frame["version"]) == ("state", 1)
        assert frame["events"][0]["kind"] == "discarded"
        assert match.secret_bytes.hex() not in text
        viewer = index if index < 2 else None
        assert frame["view"]["hand"] == (
            [str(card) for card in state.hands[viewer]] if viewer is not None else None
        )
        for other in range(2):
            if other != viewer:
                assert not any(f'"{card}"' in text for card in state.hands[other])
    # The selector's frame for a player is the one that player's group received.
    assert selectors.match_frame_for(match_id=match.pk, user=players[seat])["view"]["hand"] == [
        str(card) for card in state.hands[seat]
    ]


@pytest.mark.parametrize(
    ("variant", "options", "seats"),
    [("remi", {"rounds": 2}, 3), ("remik51", {"penalty_limit": 50}, 2)],
)
def test_a_bot_match_is_played_to_the_end_with_scores_and_revealed_seeds(
    make_room: Any, variant: str, options: dict[str, Any], seats: int
) -> None:
    room = make_room(variant, options, seats=seats)
    for index in range(seats):
        services.seat_add_bot(room=room, index=index, level="normal")
    match = services.match_start(room=room)
    version = 0
    for _ in range(3000):
        if Match.objects.get(pk=match.pk).status != Match.Status.PLAYING:
            break
        version = services.bot_move_play(match_id=match.pk, expected_version=version)
    else:
        pytest.fail("the bots did not finish the match")

    match.refresh_from_db()
    room.refresh_from_db()
    state = match.game_state()
    assert state.is_over
    assert match.status == Match.Status.FINISHED
    assert match.finished is not None
    assert match.winners == list(state.winners)
    assert room.status == Room.Status.FINISHED

    records = list(match.moves.order_by("seq"))
    assert [r.seq for r in records] == list(range(1, version + 1))
    assert {r.actor for r in records} == {"bot"}
    replayed = engine.replay(
        make_record(
            room.rules(),
            state.names,
            match.secret_bytes,
            [(r.seat, engine.move_from_json(r.move)) for r in records],
        )
    )
    assert replayed == state

    rounds = list(match.rounds.order_by("number"))
    assert [r.number for r in rounds] == [result.round_no for result in state.results]
    running = [0] * seats
    for rnd, result in zip(rounds, state.results, strict=True):
        assert rnd.finished is not None
        assert hashlib.sha256(bytes.fromhex(rnd.revealed_seed)).hexdigest() == rnd.commitment
        assert rnd.commitment == engine.commitment(engine.deal_seed(match.secret_bytes, rnd.number))
        lines = list(rnd.score_lines.order_by("seat"))
        assert [line.seat for line in lines] == list(range(seats))
        for line, engine_line in zip(lines, result.lines, strict=True):
            running[line.seat] += line.points
            assert line.total == running[line.seat] == result.totals[line.seat]
            assert (line.points, line.hand, line.table, line.bonus, line.atu_bonus, line.multiplier) == (
                engine_line.points,
                engine_line.hand,
                engine_line.table,
                engine_line.bonus,
                engine_line.atu_bonus,
                engine_line.multiplier,
            )
            assert line.notes == list(engine_line.notes)
    assert running == list(state.totals)
    assert len(selectors.match_score_lines(match_id=match.pk)) == seats * len(rounds)
    assert Round.objects.filter(match=match, revealed_seed__isnull=True).count() == 0


# --- command ids: a command resent with an id already applied --------------------------------


def test_a_repeated_command_id_is_applied_once(match: Match, players: tuple[Any, Any]) -> None:
    seat, user = _user_to_move(match, players)
    move = _a_discard(match)

    first = services.move_submit(match_id=match.pk, user=user, move=move, expected_version=0, command_id="c1")
    after_first = _snapshot(match)
    # Resent as it was (version 0, now stale): recognised by its id before the version check.
    again = services.move_submit(match_id=match.pk, user=user, move=move, expected_version=0, command_id="c1")

    assert first == again == 1
    assert not isinstance(first, services.AlreadyApplied)
    assert isinstance(again, services.AlreadyApplied)
    assert _snapshot(match) == after_first
    record = MoveRecord.objects.get(match=match)
    assert (record.seq, record.seat, record.command_id) == (1, seat, "c1")


def test_without_an_id_or_with_a_new_one_the_version_is_checked(
    match: Match, players: tuple[Any, Any]
) -> None:
    _seat, user = _user_to_move(match, players)
    move = _a_discard(match)
    services.move_submit(match_id=match.pk, user=user, move=move, expected_version=0, command_id="c1")
    for command_id in (None, "c2"):
        with pytest.raises(StaleVersionError):
            services.move_submit(
                match_id=match.pk, user=user, move=move, expected_version=0, command_id=command_id
            )
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_command_ids_are_per_seat_and_unique_in_the_database(match: Match, players: tuple[Any, Any]) -> None:
    seat, user = _user_to_move(match, players)
    services.move_submit(
        match_id=match.pk, user=user, move=_a_discard(match), expected_version=0, command_id="x"
    )
    other = players[1 - seat]
    # The same id from the other seat is its own command (a draw is its legal next move).
    version = services.move_submit(
        match_id=match.pk, user=other, move=engine.DrawStock(), expected_version=1, command_id="x"
    )
    assert version == 2
    assert not isinstance(version, services.AlreadyApplied)
    # Moves without an id (bots, older callers) never collide; a repeated id for a seat does.
    MoveRecord.objects.create(match=match, seq=10, round_number=1, seat=seat, move={}, command_id=None)
    MoveRecord.objects.create(match=match, seq=11, round_number=1, seat=seat, move={}, command_id=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        MoveRecord.objects.create(match=match, seq=12, round_number=1, seat=seat, move={}, command_id="x")


def _failing_after_commit(*, match_id: int) -> None:
    raise RuntimeError(f"no channel layer for match {match_id}")


@pytest.mark.django_db(transaction=True)
def test_a_failing_after_commit_callback_is_logged_by_name_and_the_commit_stands(
    match: Match, caplog: pytest.LogCaptureFixture
) -> None:
    # Django logs a robust hook that raises under its __qualname__; a functools.partial has none,
    # and the logging itself used to raise AttributeError out of the committing code.
    from functools import partial

    with transaction.atomic():
        Match.objects.filter(pk=match.pk).update(version=7)
        services.core.on_commit(partial(_failing_after_commit, match_id=match.pk))
    assert Match.objects.get(pk=match.pk).version == 7
    logged = [record for record in caplog.records if "on_commit" in record.getMessage()]
    assert len(logged) == 1
    assert "_failing_after_commit" in logged[0].getMessage()
    assert logged[0].exc_info is not None
