"""Towers of Arkhanos read from the rolling area: the dice drawn and rolled there become the
round's Draw and Roll outcomes in one reading; a die taken to a pillar leaves it."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

from companion.games.arkhanos.moves import Draw, Place, Roll
from companion.games.arkhanos.sight import TRAY, ArkhanosSight
from companion.games.base import CHANCE, Setup
from companion.games.sight import Seen
from companion.inference import Ambiguous, Desync, Found, infer
from tests.arkhanos_helpers import GAME, new_game
from vision.types import DieReading, Observation

SIGHT = ArkhanosSight()
REAL_DICE = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "real-dice" / "byler-dev"


def tray(*dice: tuple[str, int], unsure: bool = False) -> Seen:
    return Seen({TRAY: tuple(sorted(dice))}, frozenset({TRAY}) if unsure else frozenset())


def test_five_dice_rolled_into_the_tray_are_the_rounds_draws_and_rolls() -> None:
    """How to Play: the first player draws 5 dice from the bag and rolls them (2 players).
    The camera sees them all at once: one reading stands for the five draws and five rolls,
    offered for one tap (a colour is read with no measure of doubt)."""
    state = new_game()
    assert GAME.to_move(state) == CHANCE and state.dice_per_round == 5
    rolled = (("purple", 3), ("yellow", 6), ("pink", 1), ("purple", 5), ("green", 2))
    result = infer(GAME, SIGHT, state, tray(*rolled))
    assert isinstance(result, Ambiguous) and len(result.candidates) == 1
    (chain,) = result.candidates
    assert chain.doubts == 0 and Counter(type(m) for m in chain.moves) == {Draw: 5, Roll: 5}
    for move in chain.moves:
        state = GAME.apply(state, move)
    assert sorted((d.colour, d.number) for d in state.table) == sorted(rolled)
    assert GAME.to_move(state) == state.current  # now a player places a die


def test_a_die_of_a_colour_the_bag_no_longer_holds_is_a_desync() -> None:
    state = new_game()
    empty = tuple(0 if c == "green" else n for c, n in zip(state.colours, state.bag))
    from dataclasses import replace

    state = replace(state, bag=empty)
    result = infer(GAME, SIGHT, state, tray(("green", 4), ("pink", 1), ("pink", 2), ("blue", 3), ("blue", 3)))
    assert isinstance(result, Desync)


def test_an_unsure_die_is_asked() -> None:
    state = new_game()
    rolled = (("purple", 3), ("yellow", 6), ("pink", 1), ("purple", 5), ("green", 2))
    result = infer(GAME, SIGHT, state, tray(*rolled, unsure=True))
    assert isinstance(result, Ambiguous) and [c.doubts for c in result.candidates] == [1]


def test_a_die_taken_to_a_pillar_asks_which_pillar() -> None:
    """Phase 1: the die leaves the rolling area for a pillar. With only the rolling area in
    view (a camera over the tray alone), the phone asks which pillar and meeple (every
    placement of that die is a candidate)."""
    state = new_game()
    rolled = (("purple", 3), ("yellow", 6), ("pink", 1), ("purple", 5), ("green", 2))
    found = infer(GAME, SIGHT, state, tray(*rolled))
    assert isinstance(found, Ambiguous)
    for move in found.candidates[0].moves:
        state = GAME.apply(state, move)
    result = infer(GAME, SIGHT, state, tray(*(d for d in rolled if d != ("pink", 1))))
    assert isinstance(result, Ambiguous)
    assert result.candidates and all(
        isinstance(c.moves[-1], Place) and str(c.moves[-1].die) == "pink1" for c in result.candidates
    )


def test_the_sight_reads_the_dice_in_the_tray_only() -> None:
    state = new_game()
    observation = Observation(
        dice=(
            DieReading("d6", 4, (10.0, 10.0), 30.0, 0.9, "pink", TRAY),
            DieReading("d6", 2, (50.0, 10.0), 30.0, 0.4, "blue", TRAY),
            DieReading("d6", 6, (90.0, 10.0), 30.0, 0.9, "green", None),  # outside the tray
        )
    )
    seen = SIGHT.seen(state, observation, frozenset({TRAY}))
    assert seen.picture == {TRAY: (("blue", 2), ("pink", 4))} and seen.unsure == {TRAY}


def test_real_dice_rolled_into_the_tray_are_taken_into_the_game(tmp_path: Path) -> None:
    """A real photo of five rolled dice (byler-dev, labelled 3 3 5 4 1) laid into the rolling
    area of a rendered Arkhanos mat: the table loop takes the round's draws and rolls from
    it (one tap confirms), the numbers as labelled, each die named among the game's five
    dice colours."""
    import cv2
    import numpy as np

    from companion.store import Store
    from companion.table import Table
    from companion.table_loop import TableLoop
    from vision.profiles import load_profile
    from vision.render import Camera, Scene, render

    profile = load_profile("arkhanos")
    frame, to_frame = render(Scene(profile, Camera(tilt=0.05)), seed=2)
    photo = cv2.imread(str(REAL_DICE / "IMG_20191208_112415.jpg"))
    assert photo is not None, "../shared/fixtures/real-dice is beside the repository"
    h, w = photo.shape[:2]
    where = np.float32([[530, 25], [730, 25], [730, 225], [530, 225]]).reshape(-1, 1, 2)  # mm: the tray
    corners = cv2.perspectiveTransform(where, to_frame).reshape(-1, 2).astype(np.float32)
    laid = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), corners)
    size = (frame.shape[1], frame.shape[0])
    inside = cv2.warpPerspective(np.full((h, w), 255, np.uint8), laid, size) > 0
    frame[inside] = cv2.warpPerspective(photo, laid, size)[inside]

    store = Store(tmp_path / "db.sqlite3")
    start = new_game()
    table = Table(store)
    session = table.resume(
        store.create_game("arkhanos", {"players": 2, "options": {}}, GAME.state_to_json(start))
    )
    loop = TableLoop(table)
    for _ in range(4):
        loop.see(frame)
    assert loop.state.status == "ask", loop.state.message
    loop.choose(0, loop.state.state_id)  # the player checks the dice and taps (or NEXT)
    assert sorted(d.number for d in session.state.table) == [1, 3, 3, 4, 5]
    assert {d.colour for d in session.state.table} <= set(start.colours)
    assert GAME.to_move(session.state) == session.state.current


def test_the_camera_never_chooses_a_floor_tile() -> None:
    """Revealed floor tiles are not read: at the start, before the starting floors are
    entered, dice in the tray are not taken as the reveals and the draws."""
    state = GAME.initial_state(Setup(2, {}))
    assert state.reveals and GAME.to_move(state) == CHANCE
    result = infer(
        GAME, SIGHT, state, tray(("purple", 3), ("yellow", 6), ("pink", 1), ("purple", 5), ("green", 2))
    )
    assert not isinstance(result, Found)


def test_a_tray_no_round_could_fill_is_a_desync() -> None:
    """More dice than a round draws (a spilled bag, or specks read as dice): a desync. (The
    search follows one order of draws and at most `inference.SEARCH` states.)"""
    state = new_game()
    many = [(c, n) for c in ("purple", "yellow", "pink") for n in (1, 2, 3, 4, 5)]
    assert isinstance(infer(GAME, SIGHT, state, tray(*many)), Desync)
    six = (("purple", 3), ("yellow", 6), ("pink", 1), ("purple", 5), ("green", 2), ("blue", 4))
    assert isinstance(infer(GAME, SIGHT, state, tray(*six)), Desync)


def test_dice_are_named_among_the_games_colours_when_the_palette_knows_them(tmp_path: Path) -> None:
    """The five dice colours are in the palette: dice are named among them alone. A set whose
    colours the palette lacks (a teal die) is named among every colour instead
    of among none (`vision calibrate` adds a colour)."""
    from companion.store import Store
    from companion.table import Table
    from companion.table_loop import TableLoop

    table = Table(Store(tmp_path / "db.sqlite3"))
    session = table.new_game("arkhanos", 2, {})
    loop = TableLoop(table)
    reader = loop._reader_for(SIGHT, session.state)[0]
    assert {n for n, _ in reader.config.dice.palette.colours} == set(session.state.colours)
    odd = table.new_game("arkhanos", 2, {"dice": "purple:7,yellow:7,pink:7,blue:7,green:7,teal:5"})
    reader = loop._reader_for(SIGHT, odd.state)[0]
    from vision.colours import Palette

    assert reader.config.dice.palette == Palette()


def test_a_towers_top_floor_is_read_where_it_stands() -> None:
    """A floor stands on the pillars of the floor below (the issue's towers: 3-69 mm above the
    mat; ASSUMED 3 mm tiles, 30 mm pillars): the sight tells vision how high each tower's top
    floor's regions are, its dice and the meeples on its pillars one pillar above its tile.
    The table loop builds its reader with these heights (tests/test_vision_camera.py reads a
    piece on a raised region)."""
    from companion.games.arkhanos.sight import PILLAR_MM, TILE_MM
    from tests.arkhanos_helpers import started, with_floor

    state = started()
    heights = dict(ArkhanosSight().region_heights(state))
    assert heights["tower/A/meeple/1"] == TILE_MM  # the starting floors lie on the mat
    assert heights["tower/A/pillar/1"] == TILE_MM + PILLAR_MM
    floor = state.towers[0].top
    assert floor is not None
    higher = dict(ArkhanosSight().region_heights(with_floor(state, "A", replace(floor, level=3))))
    assert higher["tower/A/meeple/2"] == 3 * TILE_MM + 2 * PILLAR_MM == 69.0
    assert higher["tower/A/top/3"] == 69.0 + PILLAR_MM
    assert higher["tower/B/meeple/1"] == TILE_MM  # the other towers as they were
