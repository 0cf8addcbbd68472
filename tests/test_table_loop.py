"""The table loop on rendered tables: a whole game played on the camera, and the ways a
table goes wrong (a hand over it, a bad frame, a piece where no move could put it)."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.demo import make_demo
from companion.games.base import Setup
from companion.games.registry import get_game
from companion.inference import Ambiguous, forced
from companion.service import CameraWatch, Devices
from companion.session import Session, StaleState
from companion.store import Store
from companion.table import Table
from companion.table_loop import AGREE, STILL_FRAMES, TableLoop
from hardware.camera import Frame, ReplaySource
from hardware.panel import ButtonEvent
from vision.motion import StillnessConfig
from vision.render import render

GAME = get_game("amharb")
SIGHT = GAME.sight
assert SIGHT is not None
FRAMES_PER_STATE = 2 + max(STILL_FRAMES, AGREE)
"""A new table (moving), still frames until their readings agree, and one more."""


def new_table(tmp_path: Path, players: int, seed: int) -> Table:
    table = Table(Store(tmp_path / "companion.sqlite3"))
    table.new_game("amharb", players, {"seed": str(seed)})
    return table


def show(loop: TableLoop, frame: np.ndarray, times: int = FRAMES_PER_STATE) -> str:
    for _ in range(times):
        status = loop.see(frame).status
    return status


def hidden(state: Any, move: Any) -> bool:
    return SIGHT.expected(GAME.apply(state, move)) == SIGHT.expected(state)


@pytest.fixture(scope="module")
def demo4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rendered 4-player game (`companion.demo`), made once for this module (about 15 s)."""
    out = tmp_path_factory.mktemp("demo") / "amharb-4p-game"
    make_demo(out, players=4, seed=11)
    return out


def tables(recording: Path, hold: int = FRAMES_PER_STATE) -> Iterator[tuple[list[str], list[np.ndarray]]]:
    """The recording as it replays, table by table: the moves made since the last table, and
    the first `hold` frames the camera gave of it (the rest of the hold changes nothing). A
    table's frames are one picture repeated (`companion.demo`): it is decoded once."""
    import cv2

    meta = json.loads((recording / "recording.json").read_text())
    for entry in meta["frames"]:
        if "moves" in entry:
            image = cv2.imread(str(recording / entry["file"]))
            yield entry["moves"], [image] * hold


def test_a_recorded_game_replayed_as_the_camera_ends_in_the_rendered_games_scores(
    tmp_path: Path, demo4: Path
) -> None:
    """Issue 5: the replay of a recorded 4-player game ends in exactly the final scores of the
    game that was rendered, with no human input for the moves the camera can tell apart.
    People act only where the camera cannot know, and at once: a move that leaves nothing to
    see and the rules do not force (a power used or declined, a Lock tile: NEXT or the phone),
    or several moves that leave the same table (which resources paid: one tap). A move the
    rules force and nobody sees (no power affordable, 2. Power Phase) is the loop's."""
    meta = json.loads((demo4 / "recording.json").read_text())
    setup = meta["setup"]
    table = Table(Store(tmp_path / "companion.sqlite3"))
    session = table.new_game(setup["game"], setup["players"], setup["options"])
    devices = Devices(CameraWatch(None), None, table)
    loop = devices.loop
    truth: list[Any] = []
    state = session.state
    by_camera = by_next = by_phone = asked = by_rules = 0
    for moves, frames in tables(demo4):
        visible = None
        for move in (GAME.parse_move(m) for m in moves):
            if len(session.history) > len(truth):  # the loop played it: the rules forced it
                assert session.history[len(truth)] == move
                by_rules += 1
            elif not hidden(state, move):
                visible = move  # the camera's to find, below
            elif GAME.next_button(session.state) == move:
                devices.handle(ButtonEvent("next", "press", 0.0))
                by_next += 1
            else:  # a Lock tile, say: the phone
                session.play(move, session.state_id)
                by_phone += 1
            truth.append(move)
            state = GAME.apply(state, move)
        for frame in frames:
            loop.see(frame)
        if visible is not None and loop.state.status == "ask":
            question = loop.state.question
            assert isinstance(question, Ambiguous)
            exact = [c for c in question.candidates if c.doubts == 0]
            assert len(exact) >= 2, f"asked about {visible} though the camera was sure: {question}"
            index = next(i for i, c in enumerate(question.candidates) if c.moves == (visible,))
            loop.choose(index, loop.state.state_id)
            asked += 1
        elif visible is not None:
            assert loop.state.status in ("played", "ok"), f"{visible}: {loop.state.message}"
            by_camera += 1
        else:
            assert loop.state.status in ("played", "ok"), loop.state.message
        assert session.history[: len(truth)] == truth, f"after {moves}: {loop.state.message}"
        assert forced(GAME, SIGHT, state)[: len(session.history) - len(truth)] == tuple(
            session.history[len(truth) :]
        ), "ahead of the table only by moves the rules force"
    assert (
        session.state == state and GAME.score(session.state) == GAME.score(state) and GAME.score(state).final
    )
    assert by_camera + asked + by_next + by_phone + by_rules == setup["moves"]
    assert not loop.state.guesses, "every answer given at once: nothing guessed"
    # Most moves were taken from the camera alone (this game: about two thirds).
    assert by_camera > 5 * asked and by_camera > by_next + by_phone, (by_camera, asked, by_next, by_phone)


def truth_of(recording: Path) -> tuple[dict[str, Any], list[list[Any]]]:
    meta = json.loads((recording / "recording.json").read_text())
    return meta["setup"], [[GAME.parse_move(m) for m in e["moves"]] for e in meta["frames"] if "moves" in e]


HANDS_OFF_HOLD = 1 + STILL_FRAMES
"""A new table (moving), then the still frames whose readings must agree: no more."""


def follow_hands_off(tmp_path: Path, recording: Path, late: bool) -> dict[str, Any]:
    """The recorded game played to the camera by players who never wait: nobody presses NEXT,
    nobody answers a question in time. `late`: a phone then says, one table later, which way
    each choice the camera made for them really was."""
    setup, per_table = truth_of(recording)
    table = Table(Store(tmp_path / "companion.sqlite3"))
    session = table.new_game(setup["game"], setup["players"], setup["options"])
    loop = Devices(CameraWatch(None), None, table).loop
    truth: list[Any] = []
    state = session.state
    behind = told = 0
    guessed: set[tuple[int, Any]] = set()
    for moves, (_, frames) in zip(per_table, tables(recording, HANDS_OFF_HOLD), strict=True):
        for move in moves:
            truth.append(move)
            state = GAME.apply(state, move)
        for frame in frames:
            loop.see(frame)
        assert loop.state.status != "desync", f"after {len(truth)} moves: {loop.state.message}"
        if SIGHT.expected(session.state) != SIGHT.expected(state):
            assert loop.state.status == "ask", f"behind the table after {len(truth)} moves"
            behind += 1
        for guess in loop.state.guesses:
            guessed |= {(guess.at + i, m) for other in guess.others for i, m in enumerate(other)}
        if late:  # each choice made for the players, corrected a table later
            for guess in loop.state.guesses:
                ways = [other[: len(truth) - guess.at] for other in guess.others]
                if tuple(truth[guess.at : guess.at + len(guess.taken)]) in ways:
                    index = ways.index(tuple(truth[guess.at : guess.at + len(guess.taken)]))
                    loop.instead(session.game_id, guess.at, index)
                    told += 1
    told_at_the_end = 0
    if late:  # the last table: its question answered, and the moves nobody can see told
        if isinstance(question := loop.state.question, Ambiguous):
            ways = [c.moves for c in question.candidates]
            loop.choose(ways.index(tuple(truth[len(session.history) :][: len(ways[0])])), loop.state.state_id)
        for move in truth[len(session.history) :]:
            assert hidden(session.state, move), f"{move} was on the table, and not taken"
            session.play(move, session.state_id)
            told_at_the_end += 1
    return {
        "setup": setup,
        "truth": truth,
        "told_at_the_end": told_at_the_end,
        "state": state,
        "session": session,
        "loop": loop,
        "behind": behind,
        "told": told,
        "guessed": guessed,
    }


def test_players_who_never_wait_are_followed_to_the_end(tmp_path: Path, demo4: Path) -> None:
    """Issue 19: the 4-player demo with nobody tapping and no NEXT. The game keeps up with
    every table (at most one table behind, while the camera asks which way a placement was
    paid); every visible move is the one made; a move that differs is a way the table cannot
    tell apart (which resources paid, a power used or declined) and was offered to change."""
    run = follow_hands_off(tmp_path, demo4, late=False)
    session, truth = run["session"], run["truth"]
    history = session.history
    assert SIGHT.expected(session.state) == SIGHT.expected(run["state"])
    assert len(history) >= len(truth) - 2, (len(history), len(truth))
    made = GAME.initial_state(Setup(4, run["setup"]["options"]))
    for i, move in enumerate(truth[: len(history)]):  # every move shows on the table as made
        made = GAME.apply(made, move)
        assert SIGHT.expected(session.state_after(i + 1)) == SIGHT.expected(made), f"move {i}: {move}"
    assert run["guessed"], "the payments nobody saw were offered to change"
    # Measured (seed 11): 106 of 108 moves; the last two (no power, pass) were forced in the
    # game as played, not in the game with the guessed payments.


def test_answers_given_late_end_in_the_rendered_games_scores(tmp_path: Path, demo4: Path) -> None:
    """Issue 19: the same players, but someone taps, a table later, which way each choice the
    camera made was: every move of the game is in it, and the final scores are the game's."""
    run = follow_hands_off(tmp_path, demo4, late=True)
    session, truth = run["session"], run["truth"]
    assert run["told"] > 0 and run["told_at_the_end"] == 0
    assert session.history == truth and session.state == run["state"]
    assert GAME.score(session.state) == GAME.score(run["state"]) and GAME.score(session.state).final


@pytest.mark.parametrize("players, seed", [(3, 23), (2, 37)])
def test_players_who_never_wait_at_other_seeds(tmp_path: Path, players: int, seed: int) -> None:
    """Issue 19: hands-off at two other seeds and player counts, answers given late."""
    recording = tmp_path / "demo"
    make_demo(recording, players=players, seed=seed)
    run = follow_hands_off(tmp_path, recording, late=True)
    session = run["session"]
    assert session.history == run["truth"] and GAME.score(session.state).final
    assert GAME.score(session.state) == GAME.score(run["state"]) and run["told_at_the_end"] <= 2


# ---- a table going wrong ----------------------------------------------------------------


@pytest.fixture(scope="module")
def two_tables() -> dict[str, Any]:
    """A 2-player game's first table, the table after its first move, and that table with a
    piece no move could have put there; one camera over all of them."""
    from companion.games.amharb.render import TableRenderer
    from companion.games.base import Setup

    state = GAME.initial_state(Setup(2, {"seed": "5"}))
    move = GAME.legal_moves(state)[0]
    after = GAME.apply(state, move)
    renderer = TableRenderer(2, np.random.default_rng(5))
    wrong = dict(SIGHT.expected(after))
    wrong["cell/7/0"] = (("priest", after.players[1].colour),)
    frames = {
        name: render(renderer.scene(picture), seed=7)[0]
        for name, picture in (
            ("start", SIGHT.expected(state)),
            ("after", SIGHT.expected(after)),
            ("wrong", wrong),
        )
    }
    # What the loop plays on seeing the move: it, and the moves the rules then leave no choice
    # about that the camera cannot see (2. Power Phase with no power affordable: none).
    return {"move": move, "played": [move, *forced(GAME, SIGHT, after)], **frames}


def hand_over(frame: np.ndarray) -> np.ndarray:
    """A hand (a skin-coloured blob) reaching over the middle of the table."""
    import cv2

    out = frame.copy()
    cv2.ellipse(out, (640, 480), (260, 120), 30, 0, 360, (120, 160, 215), -1)
    return out


def started(tmp_path: Path, **loop_options: Any) -> tuple[Table, TableLoop]:
    table = new_table(tmp_path, 2, 5)
    return table, TableLoop(table, **loop_options)


def test_a_move_is_played_once_the_table_is_still_and_readings_agree(tmp_path: Path, two_tables: Any) -> None:
    table, loop = started(tmp_path)
    assert show(loop, two_tables["start"]) == "ok"
    statuses = [loop.see(two_tables["after"]).status for _ in range(FRAMES_PER_STATE)]
    assert statuses[: AGREE - 1] == ["reading"] * (AGREE - 1) and "played" in statuses
    assert table.session is not None and table.session.history[:1] == [two_tables["move"]]
    # Read again: the moves the rules then force are played (here: no power is affordable),
    # and nothing more, however long the table stands.
    show(loop, two_tables["after"])
    assert show(loop, two_tables["after"]) == "ok"
    assert table.session.history == two_tables["played"]


def test_a_camera_bumped_between_tables_still_follows_the_move(tmp_path: Path) -> None:
    """Issue 19: the demo's camera stays still between tables; a bump (the stand knocked: a
    pose of its own) is its own case, and the move is still read from the bumped table."""
    from companion.games.amharb.render import TableRenderer

    table, loop = started(tmp_path)
    assert table.session is not None
    state = table.session.state
    move = GAME.legal_moves(state)[0]
    renderer = TableRenderer(2, np.random.default_rng(5))
    still = render(renderer.scene(SIGHT.expected(state)), seed=1, camera_seed=5)[0]
    bumped = render(renderer.scene(SIGHT.expected(GAME.apply(state, move))), seed=2, camera_seed=6)[0]
    assert show(loop, still) == "ok"
    show(loop, bumped)
    assert table.session.history[:1] == [move]


def test_one_misread_frame_does_not_make_a_move(tmp_path: Path, two_tables: Any) -> None:
    """The stillness gate off (every frame counts as still): a single frame showing another
    table is one reading, and K readings must agree before anything happens."""
    table, loop = started(tmp_path, stillness=StillnessConfig(settle_frames=0))
    show(loop, two_tables["start"])
    loop.see(two_tables["after"])
    show(loop, two_tables["start"])
    assert table.session is not None and table.session.history == []
    assert loop.state.status == "ok"


def test_a_hand_over_the_table_keeps_the_question_open(tmp_path: Path, two_tables: Any) -> None:
    """A piece where no move could put it: the loop says what differs and waits. A hand over
    the table (moving) neither answers nor forgets that; putting the table right does."""
    table, loop = started(tmp_path)
    show(loop, two_tables["start"])
    assert show(loop, two_tables["wrong"]) == "desync"
    question = loop.state.question
    assert loop.state.needs_people
    assert table.session is not None
    said = loop.state.to_json(GAME, table.session.state)["question"]
    assert isinstance(said, dict) and said["kind"] == "desync"
    stray = next(d for d in said["differences"] if d["region"] == "cell/7/0")
    colour = table.session.state.players[1].colour
    assert (stray["name"], stray["expected"], stray["seen"]) == ("a1", "blue resource", f"{colour} priest")
    state = table.session.state
    unseen = [
        str(m)
        for m in GAME.legal_moves(state)
        if SIGHT.expected(GAME.apply(state, m)) == SIGHT.expected(state)
    ]
    assert said["untold"] == unseen[:6], "the moves the camera cannot see, offered as the reason"
    assert loop.see(hand_over(two_tables["wrong"])).status == "moving"
    assert loop.state.question == question
    assert show(loop, two_tables["wrong"]) == "desync"
    assert table.session is not None and table.session.history == []
    show(loop, two_tables["after"])  # the stray priest taken away: the move is seen
    assert table.session.history == two_tables["played"] and loop.state.question is None


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((0, 0, 3), np.uint8),
        np.zeros((480, 640, 3), np.float64),
        np.zeros((4,), np.uint8),
        "not an image",
        np.full((960, 1280, 3), 255, np.uint8),
    ],
    ids=["empty", "floats", "1-d", "text", "all white"],
)
def test_bad_frames_are_said_and_lose_nothing(tmp_path: Path, two_tables: Any, bad: Any) -> None:
    table, loop = started(tmp_path)
    show(loop, two_tables["start"])
    for _ in range(FRAMES_PER_STATE):
        state = loop.see(bad)
    assert state.status in ("unreadable", "no-board", "moving"), state
    assert table.session is not None and table.session.history == []
    assert show(loop, two_tables["after"]) in ("played", "ok")
    assert table.session.history == two_tables["played"]


def test_no_board_in_view_asks_for_attention(tmp_path: Path, two_tables: Any) -> None:
    _, loop = started(tmp_path)
    blank = np.full_like(two_tables["start"], 90)
    assert show(loop, blank) == "no-board"
    assert "markers" in loop.state.message and loop.state.needs_people


def test_an_answer_to_a_question_no_longer_open_is_refused(tmp_path: Path, two_tables: Any) -> None:
    table, loop = started(tmp_path)
    with pytest.raises(StaleState):
        loop.choose(0, 0)
    show(loop, two_tables["start"])
    assert table.session is not None
    with pytest.raises(StaleState):
        loop.choose(0, table.session.state_id)


def test_read_now_reads_the_next_frame_at_once(tmp_path: Path, two_tables: Any) -> None:
    """READ on the panel: no waiting for stillness or agreement."""
    table, loop = started(tmp_path)
    show(loop, two_tables["start"])
    devices = Devices(CameraWatch(None), None, table)
    devices.loop = loop
    devices.handle(ButtonEvent("read", "press", 0.0))
    assert loop.see(two_tables["after"]).status == "played"
    assert table.session is not None and table.session.history == [two_tables["move"]]


def test_next_goes_on_without_acting_and_answers_questions(tmp_path: Path) -> None:
    """NEXT in the Power Phase declines the power (Am'harb: 2 Power Phase is optional); in
    the Tower Phase there is nothing to decline: it plays nothing."""
    table = new_table(tmp_path, 2, 5)
    devices = Devices(CameraWatch(None), None, table)
    session = table.session
    assert session is not None
    devices.handle(ButtonEvent("next", "press", 0.0))
    assert session.history == []
    session.play(GAME.legal_moves(session.state)[0])
    devices.handle(ButtonEvent("next", "press", 0.0))
    assert [str(m) for m in session.history[1:]] == ["no power"]


def test_the_devices_follow_a_replayed_game(tmp_path: Path) -> None:
    """`make run` off a Pi: the replayed camera, the loop in its own thread, mock pins. The
    first move of the recorded game is taken from the camera and the status LED is ready."""
    from gpiozero.pins.mock import MockFactory

    from hardware.panel import Panel, load_pinmap

    recording = tmp_path / "demo"
    make_demo(recording, players=2, seed=3)
    setup = json.loads((recording / "recording.json").read_text())["setup"]
    table = Table(Store(tmp_path / "companion.sqlite3"))
    session = table.new_game("amharb", setup["players"], setup["options"])
    panel = Panel(load_pinmap(), MockFactory(), ticking=False)
    devices = Devices(CameraWatch(None), panel, table)
    devices.camera = CameraWatch(ReplaySource(recording, speed=1.0, loop=False), devices._camera_changed)
    devices.camera.start()
    devices._reading.start()
    try:
        deadline = time.monotonic() + 30
        while session.state_id < 1:
            assert time.monotonic() < deadline, devices.loop.state
            time.sleep(0.05)
        assert str(session.history[0]) == setup_first_move(recording)
        assert panel.status == "ready" and panel.phase_leds[1].value  # Power Phase: LED 2
    finally:
        devices.stop()


def setup_first_move(recording: Path) -> str:
    frames = json.loads((recording / "recording.json").read_text())["frames"]
    return next(f["moves"][0] for f in frames if f.get("moves"))


# ---- the page ----------------------------------------------------------------------------


def play_until_two_ways_to_pay(session: Session, seed: int) -> Any:
    """Random moves until a placement can be paid in two ways; returns one such placement."""
    from companion.games.amharb.state import Place

    rng = random.Random(seed)
    while True:
        places = [m for m in GAME.legal_moves(session.state) if isinstance(m, Place) and m.payment]
        two = [m for m in places if sum(o.space == m.space and o.kind == m.kind for o in places) > 1]
        if two:
            return two[0]
        session.play(rng.choice(GAME.legal_moves(session.state)))


def asked_which_way_it_was_paid(tmp_path: Path) -> tuple[Table, Devices, Any, np.ndarray]:
    """A 2-player game at a placement that can be paid in two ways, made on the table: the
    camera asks which (3. Disciple Phase). The table, its devices, the placement, and the
    table before it."""
    from companion.games.amharb.render import TableRenderer

    table = new_table(tmp_path, 2, 8)
    session = table.session
    assert session is not None
    move = play_until_two_ways_to_pay(session, 8)
    renderer = TableRenderer(2, np.random.default_rng(8))
    before = render(renderer.scene(SIGHT.expected(session.state)), seed=1)[0]
    after = render(renderer.scene(SIGHT.expected(GAME.apply(session.state, move))), seed=2)[0]
    devices = Devices(CameraWatch(None), None, table)
    show(devices.loop, before)
    assert show(devices.loop, after) == "ask"
    return table, devices, move, before


def test_the_page_asks_which_move_and_a_tap_plays_it(tmp_path: Path) -> None:
    """Two ways to pay for the same placement: the page lists both over the camera picture;
    a tap on one plays it. An answer for an older state, or a candidate that is not there,
    is refused with the reason."""
    from companion.web import create_app

    table, devices, move, before = asked_which_way_it_was_paid(tmp_path)
    session = table.session
    assert session is not None
    client = create_app(table.store, table, devices).test_client()
    page = client.get("/").data.decode()
    assert "Which move was it?" in page and 'src="/api/frame.jpg?drawn=1"' in page
    asked = client.get("/api/version").get_json()["reading"]
    candidates = [c["moves"] for c in asked["question"]["candidates"]]
    assert [GAME.move_to_json(move)] in candidates and len(candidates) >= 2
    for text in (c[0] for c in candidates):
        assert f">{text}</button>" in page
    stale = {"command": "choose", "index": 0, "state_id": asked["state_id"] - 1, "game_id": 1}
    assert client.post("/api/command", json=stale).status_code == 409
    missing = {"command": "choose", "index": 99, "state_id": asked["state_id"], "game_id": 1}
    answer = client.post("/api/command", json=missing)
    assert answer.status_code == 400 and "candidates" in answer.get_json()["error"]
    index = candidates.index([GAME.move_to_json(move)])
    other = next(c for c in candidates if c != [GAME.move_to_json(move)])
    changed = {
        "command": "choose",
        "index": index,
        "state_id": asked["state_id"],
        "moves": other,
        "game_id": 1,
    }
    answer = client.post("/api/command", json=changed)  # the page showed another question
    assert answer.status_code == 409 and "another question" in answer.get_json()["error"]
    assert f'name="moves" value="{GAME.move_to_json(move)}"' in page
    form = {
        "command": "choose",
        "index": str(index),
        "state_id": str(asked["state_id"]),
        "moves": GAME.move_to_json(move),
        "game_id": "1",
    }
    assert client.post("/command", data=form).status_code == 303
    assert session.history[-1] == move
    assert "Which move was it?" not in client.get("/").data.decode()


def test_a_choice_the_camera_made_is_changed_with_one_tap(tmp_path: Path) -> None:
    """Issue 19: a placement that could be paid in two ways, and the next player's tower move,
    both made before the camera looked (3. Disciple Phase; 1. Tower Phase). The game follows
    the table with the first way; the page lists the other, after a power cut too, and its tap
    puts it in, the tower move played again after it."""
    from companion.games.amharb.render import TableRenderer
    from companion.web import create_app

    table = new_table(tmp_path, 2, 8)
    session = table.session
    assert session is not None
    place = play_until_two_ways_to_pay(session, 8)
    after = GAME.apply(session.state, place)  # the next player's Tower Phase
    assert GAME.to_move(after) != GAME.to_move(session.state)
    tower = next(m for m in GAME.legal_moves(after) if not hidden(after, m))
    table_now = GAME.apply(after, tower)
    renderer = TableRenderer(2, np.random.default_rng(8))
    before = render(renderer.scene(SIGHT.expected(session.state)), seed=1, camera_seed=8)[0]
    ahead = render(renderer.scene(SIGHT.expected(table_now)), seed=2, camera_seed=8)[0]
    devices = Devices(CameraWatch(None), None, table)
    show(devices.loop, before)
    start = len(session.history)
    show(devices.loop, ahead)
    assert SIGHT.expected(session.state) == SIGHT.expected(table_now)
    (guess,) = devices.loop.state.guesses
    assert guess.at == start and len(guess.others) >= 1
    table.store.close()  # the power is cut: the guess is on disk with the moves
    table = Table(Store(tmp_path / "companion.sqlite3"))
    session = table.session
    assert session is not None and session.history[-1] == tower
    devices = Devices(CameraWatch(None), None, table)
    show(devices.loop, ahead)
    assert devices.loop.state.guesses == (guess,)
    client = create_app(table.store, table, devices).test_client()
    page = client.get("/").data.decode()
    assert "The camera chose for you (1)" in page
    other = guess.others[0]
    form = {
        "command": "instead",
        "at": str(guess.at),
        "index": "0",
        "game_id": str(session.game_id),
        "state_id": str(session.state_id),
    }
    assert client.post("/command", data=form).status_code == 303
    assert tuple(session.history[start : start + len(other)]) == other
    assert session.history[-1] == tower and not devices.loop.state.guesses
    assert client.post("/command", data=form).status_code == 409, "a choice already changed"


def test_switching_games_while_a_question_is_open_never_fails_a_page(tmp_path: Path) -> None:
    """Issue 19: the camera asks which way an Am'harb placement was paid; another phone starts
    a game of Arkhanos. The old game's question is not this game's: every page and the event
    stream answer (no 5xx), and the new game shows no question until its table is read."""
    from companion.web import create_app

    table, devices, move, before = asked_which_way_it_was_paid(tmp_path)
    session = table.session
    assert session is not None
    client = create_app(table.store, table, devices).test_client()
    new = {"command": "new", "game": "arkhanos", "players": 4}
    assert client.post("/api/command", json=new).status_code == 200
    for _ in range(10):
        for path in ("/", "/api/version", "/api/state"):
            assert client.get(path).status_code == 200, path
    reading = client.get("/api/version").get_json()["reading"]
    assert reading["question"] is None and reading["game_id"] == 2
    stream = client.get("/api/events", buffered=False)
    assert stream.status_code == 200 and "event: version" in next(stream.response).decode()
    stream.close()
    # The Am'harb question cannot be answered into the Arkhanos game.
    answer = {"command": "choose", "index": 0, "state_id": session.state_id, "game_id": 2}
    assert client.post("/api/command", json=answer).status_code == 409
    assert table.session is not None and table.session.history == []
    show(devices.loop, before)  # the camera still shows the Am'harb table: no Arkhanos board
    assert client.get("/").status_code == 200 and devices.loop.state.game_id == 2


def test_a_table_far_ahead_is_one_compact_card(tmp_path: Path, two_tables: Any) -> None:
    """Issue 19: a table more moves ahead than any bounded search follows is a desync, shown as
    one card with its first three differences and the rest behind a tap; the game's moves stay
    on the page."""
    from companion.games.amharb.render import TableRenderer
    from companion.web import create_app

    table, loop = started(tmp_path)
    show(loop, two_tables["start"])
    assert table.session is not None
    state, rng = table.session.state, random.Random(3)
    for _ in range(30):
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    far = render(TableRenderer(2, np.random.default_rng(5)).scene(SIGHT.expected(state)), seed=7)[0]
    assert show(loop, far) == "desync"
    question = loop.state.question
    assert question is not None and len(getattr(question, "differences", ())) > 3
    devices = Devices(CameraWatch(None), None, table)
    devices.loop = loop
    page = create_app(table.store, table, devices).test_client().get("/").data.decode()
    card = page[page.index("The table does not match the game") :]
    first = card[: card.index("</ul>")]
    assert first.count("<li>") == 3 and "more difference" in card
    assert 'aria-label="legal moves"' in page


def test_the_page_offers_the_replayed_game_and_starts_its_replay_again(tmp_path: Path) -> None:
    """`make run`: the camera replays a rendered game; one button starts that game (same
    players and seed) and rewinds the replay, so the camera shows it from its first table."""
    from companion.web import create_app

    recording = tmp_path / "demo"
    make_demo(recording, players=2, seed=3)
    table = Table(Store(tmp_path / "companion.sqlite3"))
    source = ReplaySource(recording, speed=0)
    devices = Devices(CameraWatch(source), None, table)
    for _ in range(5):
        source.read()
    client = create_app(table.store, table, devices).test_client()
    page = client.get("/").data.decode()
    assert "Start the game the camera is replaying (2 players, seed 3)" in page
    form = {"command": "new", "game": "amharb", "players": "2", "option.seed": "3", "rewind": "1"}
    assert client.post("/command", data=form).status_code == 303
    assert table.session is not None and table.session.setup == {"players": 2, "options": {"seed": "3"}}
    assert source.index == 0


def test_the_calibration_page_says_which_markers_are_missing(tmp_path: Path) -> None:
    """Setting up: the page names the markers not seen, draws the regions once the board is
    found, and reads no profile but the built-in ones."""
    from companion.web import create_app
    from tests.test_vision_board import cover_marker
    from vision.profiles import load_profile
    from vision.render import Scene

    profile = load_profile("amharb-4p")
    frame, homography = render(Scene(profile), seed=4)
    covered = cover_marker(frame, homography, dict(profile.markers)[2])
    table = Table(Store(tmp_path / "companion.sqlite3"))
    devices = Devices(CameraWatch(None), None, table)
    client = create_app(table.store, table, devices).test_client()
    assert client.get("/api/board?profile=amharb-4p").status_code == 503  # no picture yet
    devices.camera._latest = Frame(covered, 0.0)
    check = client.get("/api/board?profile=amharb-4p").get_json()
    assert check["found"] and check["seen"] == [0, 1, 3] and check["missing"] == [2]
    assert "not seen: 2" in client.get("/calibrate?profile=amharb-4p").data.decode()
    assert client.get("/api/board.jpg?profile=amharb-4p").mimetype == "image/jpeg"
    assert client.get("/api/board?profile=../../etc/passwd").status_code == 404
    assert client.get("/api/board").status_code == 404  # no game, no profile named
    table.new_game("amharb", 4, {})
    assert client.get("/api/board").get_json()["found"]


def test_the_resource_tiles_are_read_from_the_table_at_set_up(tmp_path: Path) -> None:
    """Am'harb: Game Setup 2 draws a resource tile for each normal space. Laid out on the
    real table, the camera reads them for the new-game form, and the game started with what
    it read has the table's tiles."""
    from companion.games.amharb.render import TableRenderer
    from companion.games.base import Setup
    from companion.web import create_app

    laid = GAME.initial_state(Setup(4, {"seed": "12"}))
    frame = render(TableRenderer(4, np.random.default_rng(12)).scene(SIGHT.expected(laid)), seed=3)[0]
    table = Table(Store(tmp_path / "companion.sqlite3"))
    devices = Devices(CameraWatch(None), None, table)
    client = create_app(table.store, table, devices).test_client()
    assert client.get("/api/setup-from-camera?game=amharb&players=4").status_code == 503
    devices.camera._latest = Frame(frame, 0.0)
    answer = client.get("/api/setup-from-camera?game=amharb&players=4").get_json()
    assert answer["unread"] == 0
    started = GAME.initial_state(Setup(4, {"resources": answer["options"]["resources"]}))
    assert [s.resource for s in started.spaces] == [s.resource for s in laid.spaces]
    assert client.get("/api/setup-from-camera?game=turris&players=2").status_code == 404
    assert client.get("/api/setup-from-camera?game=amharb&players=7").status_code == 400


def test_a_move_made_on_the_phone_during_a_reading_is_not_lost(tmp_path: Path) -> None:
    """Power Phase: the player places a priest and, while the camera reads that table, presses
    NEXT ("no power"). The reading began before NEXT: what it found is not applied to the
    game NEXT changed; the table is read again, and the priest is taken then."""
    from companion.games.amharb.render import TableRenderer
    from companion.games.amharb.state import Place, SkipPower

    table = new_table(tmp_path, 2, 5)
    session = table.session
    assert session is not None
    session.play(GAME.legal_moves(session.state)[0])  # the tower move: Power Phase
    after_skip = GAME.apply(session.state, SkipPower())
    place = next(m for m in GAME.legal_moves(after_skip) if isinstance(m, Place) and not m.payment)
    renderer = TableRenderer(2, np.random.default_rng(5))
    before = render(renderer.scene(SIGHT.expected(session.state)), seed=1)[0]
    placed = render(renderer.scene(SIGHT.expected(GAME.apply(after_skip, place))), seed=2)[0]
    loop = TableLoop(table)
    show(loop, before)
    reader = loop._reader_for(SIGHT, session.state)[0]
    read = reader.read
    reads = []

    def next_pressed_during_the_read(image: Any, full: Any = None) -> Any:
        """NEXT lands during the read whose result completes the agreement."""
        reads.append(image)
        if len(reads) == AGREE and session.state_id == 1:
            session.play(SkipPower())
        return read(image)

    reader.read = next_pressed_during_the_read  # type: ignore[method-assign]
    show(loop, placed)
    assert [str(m) for m in session.history[1:]] == ["no power", str(place)]


def test_the_camera_is_asked_for_its_full_resolution_still_only_while_the_table_is_still(
    tmp_path: Path,
) -> None:
    """Small dice are read from the camera's full-resolution still; copying that still costs, so
    the loop asks for it once the table is still and stops asking when a hand moves over it."""

    class Camera:
        name = "test camera"

        def __init__(self) -> None:
            self.n, self.asked = 0, []
            self.lock = threading.Lock()

        def __enter__(self) -> Camera:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def read(self, timeout: float = 2.0, full: bool = False) -> Frame:
            time.sleep(0.02)
            with self.lock:
                self.n += 1
                self.asked.append((self.n, full))
                moving = 20 <= self.n < 30  # a hand over the table
            image = np.zeros((96, 128, 3), np.uint8)
            if moving:
                image[:, : 4 * self.n % 128] = 255
            return Frame(image, self.n * 0.1, np.zeros((192, 256, 3), np.uint8) if full else None)

    table = new_table(tmp_path, 4, 1)
    devices = Devices(CameraWatch(None), None, table)
    camera = Camera()
    devices.camera = CameraWatch(camera)  # type: ignore[arg-type]
    devices.camera.start()
    devices._reading.start()
    deadline = time.monotonic() + 20
    while camera.n < 45 and time.monotonic() < deadline:
        time.sleep(0.05)
    devices.stop()
    with camera.lock:
        asked = dict(camera.asked)
    assert any(asked[n] for n in range(5, 20)), "the table was still: the still is asked for"
    assert not any(asked[n] for n in range(23, 30)), "a hand moves: no still"
    assert any(asked[n] for n in range(33, 45)), "still again: asked again"


def test_no_full_resolution_still_is_asked_for_without_a_game(tmp_path: Path) -> None:
    loop = TableLoop(Table(Store(tmp_path / "companion.sqlite3")))
    for _ in range(4):
        loop.see(np.zeros((96, 128, 3), np.uint8))
    assert loop.state.status == "off" and not loop.still
