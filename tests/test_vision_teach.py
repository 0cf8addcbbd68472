"""Teach the companion your pieces (issue 18, item 4): every piece of one colour laid on the
empty board, one photo per colour; it learns their colours under this light and their sizes,
and says loudly when two colours cannot be told apart."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.store import Store
from companion.table import Table
from companion.table_loop import TableLoop
from vision.colours import PALETTE_FILE, Palette, load_palette, load_sizes
from vision.dice import DiceConfig
from vision.pipeline import TableReader, VisionConfig
from vision.profiles import load_profile
from vision.reference import capture, reference_path, save_empty_board
from vision.render import Look, Scene, TokenSpec, render
from vision.teach import learn, load_samples, samples

BOARD = load_profile("amharb-4p")
MINE = {
    "blue": (215, 160, 110),  # a light blue (the default palette's blue is deep)
    "green": (120, 200, 90),  # a light green
    "red": (80, 110, 220),  # a coral red
    "white": (200, 215, 225),  # ivory
}
"""The players' own pieces, BGR: colours the default palette does not expect."""
CULTIST_MM = 14.0
"""Their cultists are larger than the profile's 12 mm (their shadow makes them look larger
still: sizes are learned as the camera measures them)."""


def scene_of(pieces: list[tuple[str, str, str]], seed: int) -> Scene:
    """The board with `pieces` (cell, kind, colour of MINE) under a warm lamp."""
    colours = tuple((f"my-{name}", bgr) for name, bgr in MINE.items())
    profile = replace(BOARD, colours=colours)
    tokens = tuple(
        TokenSpec(cell, kind, f"my-{colour}", size=CULTIST_MM if kind == "cultist" else 0.0)
        for cell, kind, colour in pieces
    )
    look = Look(brightness=0.85, white_balance=(0.9, 1.0, 1.1))
    return Scene(profile, look=look, tokens=tokens)


def cells(rng: np.random.Generator, n: int) -> list[str]:
    names = [r.name for r in BOARD.regions if r.holds == "tokens"]
    return [str(c) for c in rng.choice(names, size=n, replace=False)]


def photo(pieces: list[tuple[str, str, str]], seed: int) -> np.ndarray:
    return render(scene_of(pieces, seed), seed=seed)[0]


@pytest.fixture(scope="module")
def taught() -> tuple[object, list]:
    empty = capture(photo([], 1), BOARD)
    rng = np.random.default_rng(3)
    shown = []
    for n, colour in enumerate(MINE):
        laid = [(c, "priest" if i < 3 else "cultist", colour) for i, c in enumerate(cells(rng, 8))]
        shown += samples(photo(laid, 10 + n), BOARD, colour, empty)
    return empty, shown


def test_the_pieces_shown_are_found_with_their_kinds(taught) -> None:
    _, shown = taught
    for colour in MINE:
        mine = [s for s in shown if s.colour == colour]
        assert sorted(s.kind for s in mine) == ["cultist"] * 5 + ["priest"] * 3


def test_a_game_is_read_in_the_colours_and_sizes_taught(taught) -> None:
    empty, shown = taught
    lesson = learn(shown, Palette())
    assert not lesson.confusions, lesson.confusions
    assert dict(lesson.sizes)["cultist"] == pytest.approx(CULTIST_MM, abs=2.0)
    rng = np.random.default_rng(7)
    laid = [(c, str(rng.choice(["priest", "cultist"])), str(rng.choice(list(MINE)))) for c in cells(rng, 20)]
    frame = photo(laid, 77)
    profile = replace(BOARD, piece_colours=tuple(MINE))
    wanted = sorted(laid)

    def read(config: VisionConfig) -> list[tuple[str, str, str]]:
        seen = TableReader(profile, config, empty).read(frame).tokens
        return sorted((t.region, t.kind, t.color or "") for t in seen)

    before = read(VisionConfig())
    after = read(VisionConfig(dice=DiceConfig(palette=lesson.palette), sizes=lesson.sizes))
    assert before != wanted  # the default palette misnames these pieces
    assert after == wanted


def test_colours_that_cannot_be_told_apart_are_said(taught) -> None:
    empty, _ = taught
    global MINE
    saved = MINE
    MINE = {**saved, "orange": (75, 100, 205)}  # nearly the coral red
    try:
        rng = np.random.default_rng(5)
        shown = []
        for n, colour in enumerate(("red", "orange")):
            laid = [(c, "priest", colour) for c in cells(rng, 4)]
            shown += samples(photo(laid, 30 + n), BOARD, colour, empty)
    finally:
        MINE = saved
    lesson = learn(shown, Palette())
    said = " ".join(lesson.confusions)
    assert "red" in said and "orange" in said and "told apart" in said


def test_the_command_line_teaches_and_the_table_loop_reads_with_it(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    save_empty_board(capture(photo([], 1), BOARD), reference_path(data, BOARD.name))
    rng = np.random.default_rng(11)
    args = []
    for n, colour in enumerate(MINE):
        laid = [(c, "priest" if i < 2 else "cultist", colour) for i, c in enumerate(cells(rng, 5))]
        path = tmp_path / f"{colour}.png"
        cv2.imwrite(str(path), photo(laid, 50 + n))
        args.append(f"{colour}={path}")
    assert main(["vision", "teach", *args, "--profile", BOARD.name, "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "blue:" in out and "2 priest" in out and "cultist" in out
    palette_file = data / PALETTE_FILE
    assert dict(load_palette(palette_file).colours)["blue"] != dict(Palette().colours)["blue"]
    assert dict(load_sizes(palette_file))["cultist"] == pytest.approx(CULTIST_MM, abs=2.0)
    loop = TableLoop(Table(Store(tmp_path / "companion.sqlite3")), data_dir=data)
    config = loop._taught()
    assert (
        config.sizes
        and dict(config.dice.palette.colours)["blue"] == dict(load_palette(palette_file).colours)["blue"]
    )
    # The colours taught here are known to the page's teaching (one path, one record), and
    # re-measuring one colour by hand keeps the sizes taught.
    assert {s.colour for s in load_samples(data)} == set(MINE)
    assert (
        main(
            [
                "vision",
                "calibrate",
                args[0].split("=")[1],
                "--colour",
                "pink",
                "--at",
                "5,5",
                "--palette",
                str(palette_file),
            ]
        )
        == 0
    )
    assert dict(load_sizes(palette_file))["cultist"] == pytest.approx(CULTIST_MM, abs=2.0)
    # Without the empty board: one clear line, nothing written.
    assert (
        main(["vision", "teach", args[0], "--profile", BOARD.name, "--data-dir", str(tmp_path / "none")]) == 1
    )
    assert "empty board first" in capsys.readouterr().err


def test_the_page_teaches_one_colour_at_a_time(tmp_path: Path) -> None:
    from companion.service import CameraWatch, Devices
    from companion.web import create_app
    from hardware.camera import Frame

    table = Table(Store(tmp_path / "companion.sqlite3"))
    devices = Devices(CameraWatch(None), None, table, tmp_path)
    client = create_app(table.store, table, devices).test_client()
    url = "/api/teach?profile=amharb-4p"
    assert client.post(url, json={"colour": "<b>"}).status_code == 400
    devices.camera._latest = Frame(photo([], 1), 0.0)
    assert "empty board first" in client.post(url, json={"colour": "red"}).get_json()["error"]
    assert client.post("/api/empty-board?profile=amharb-4p", json={}).status_code == 200
    rng = np.random.default_rng(13)
    for n, colour in enumerate(("red", "blue")):
        laid = [(c, "priest" if i < 2 else "cultist", colour) for i, c in enumerate(cells(rng, 5))]
        devices.camera._latest = Frame(photo(laid, 60 + n), 0.0)
        answer = client.post(url, json={"colour": colour})
        assert answer.status_code == 200, answer.get_json()
    assert {s.colour for s in load_samples(tmp_path)} == {"red", "blue"}
    # A colour that looks like one taught before: refused, the red learned before kept.
    global MINE
    saved, MINE = MINE, {**MINE, "orange": (75, 100, 205)}
    try:
        laid = [(c, "priest", "orange") for c in cells(rng, 3)]
        devices.camera._latest = Frame(photo(laid, 70), 0.0)
    finally:
        MINE = saved
    refused = client.post(url, json={"colour": "orange"})
    assert refused.status_code == 409 and "told apart" in refused.get_json()["error"]
    assert {s.colour for s in load_samples(tmp_path)} == {"red", "blue"}
    assert "Learn this colour" in client.get("/calibrate?profile=amharb-4p").data.decode()


def test_pieces_of_real_height_are_taught_as_their_kinds() -> None:
    """Priests and cultists of real height (upright cylinders 24 and 16 mm tall, ASSUMED) laid
    out one colour at a time under a camera 0.8-1.2 m up, tilted up to 25 degrees
    (tests/pinhole.py `laid_out`; seeds never looked at before this figure): each is measured as
    the reader measures a piece (its shadow left out, a round piece's width across its lean,
    kinds by their silhouettes where they stand). Measured by a disc of the same area, shadow and
    lean included, a cultist was taught as a priest and a priest as a resource tile: 51 of 128
    pieces taught as their kind; now 123 of 128. The taught sizes keep the kinds apart."""
    from collections import Counter

    from tests.pinhole import laid_out
    from vision.tokens import MAX_SIZE_ERROR

    right = total = 0
    shown = []
    for seed in range(30, 34):
        for n, colour in enumerate(("pink", "blue", "green", "yellow")):
            frame, empty = laid_out(BOARD, colour, seed * 10 + n * 8)
            found = samples(frame, BOARD, colour, capture(empty, BOARD))
            kinds = Counter(s.kind for s in found)
            right += min(kinds["priest"], 3) + min(kinds["cultist"], 5)
            total += 8
            shown += found
    assert right >= 0.85 * total, (right, total)
    sizes = dict(learn(shown, Palette()).sizes)
    assert (
        abs(sizes["cultist"] - 12) / 12 <= MAX_SIZE_ERROR and abs(sizes["priest"] - 20) / 20 <= MAX_SIZE_ERROR
    )
    assert sizes["cultist"] < 0.8 * sizes["priest"]


def test_miniatures_on_bases_are_taught_on_an_illustrated_board() -> None:
    """Issue 25: Turris Scouts (a 20 mm base, every other one dark plastic, a figure 25-35 mm
    tall on it) laid out one colour at a time on the illustrated board (tests/pinhole_figures.py
    `laid_scouts`; seeds 5-7 looked at: 25 of 72 taught before, 26 mm wide; 68 of 72 now, 19.6
    mm). Here (seeds 8-10, 70 of 72, 19.4 mm): nearly all are taught as Scouts, at their size,
    and the four colours are told apart."""
    from tests.pinhole_figures import laid_scouts

    turris = load_profile("turris")
    shown = []
    for seed in range(8, 11):
        for n, colour in enumerate(("red", "blue", "green", "yellow")):
            frame, empty = laid_scouts(turris, colour, seed * 10 + n)
            shown += samples(frame, turris, colour, capture(empty, turris))
    assert sum(s.kind == "scout" for s in shown) >= 0.85 * 72, len(shown)
    lesson = learn(shown, Palette())
    assert abs(dict(lesson.sizes)["scout"] - 20) <= 3, lesson.sizes
    assert lesson.confusions == ()


def test_tower_pieces_are_taught_among_the_kinds_their_places_hold() -> None:
    """Issue 25: Tower's standing meeples (16 x 16 x 8 mm), material tokens and gems, one colour
    at a time, each in a place of its own kind on the painted mat (tests/pinhole_figures.py
    `laid_tower`). A piece is judged among the kinds its place holds, as the reader judges it
    (a stall holds materials): on seeds 5-6, 32 of 96 pieces were taught as their kind and 59 as
    another (a material as the palace's segment) before; 84 and none now. Here (seeds 7-8): 91 of
    96, none as another kind."""
    from collections import Counter

    from tests.pinhole_figures import laid_tower

    tower = load_profile("tower")
    right = wrong = total = 0
    for seed in range(7, 9):
        for n, colour in enumerate(("purple", "orange", "pink", "green", "yellow", "brown", "red", "blue")):
            frame, empty, laid = laid_tower(tower, colour, seed * 10 + n)
            kinds = Counter(s.kind for s in samples(frame, tower, colour, capture(empty, tower)))
            right += sum(min(kinds[k], laid[k]) for k in laid)
            wrong += sum(max(0, v - laid.get(k, 0)) for k, v in kinds.items())  # more than laid
            total += 6
    assert right >= 0.8 * total, (right, total)
    assert wrong == 0, wrong


def test_an_oblong_piece_is_taught_at_the_profiles_width() -> None:
    """A standing meeple is 16 x 8 mm from above (profile `depth`) and 16 mm tall: seen from a
    camera 560 mm to its side and 900 mm up its top leans 10 mm away. Side on it shows 16 mm
    across its lean, turned halfway 17, end on 8 (and 26 along it: its footprint is oblong
    itself, so it is as upright as a round piece 10 mm shorter). What shows across it is how it
    stands, not its size: teaching keeps the profile's 16 mm whichever way it was laid
    (`judged_piece`)."""
    import cv2
    import numpy as np

    from vision.camera import CameraPlace
    from vision.teach import judged_piece

    tower = load_profile("tower")
    place = CameraPlace((-500.0, 60.0), 900.0, 1000.0)
    top = place.lift(np.array([[60.0, 60.0]]), 16.0)[0]
    for turn in (0.0, 45.0, 90.0):
        foot = cv2.boxPoints(((60.0, 60.0), (16.0, 8.0), turn))
        seen = np.zeros((120, 140), np.uint8)
        outline = np.vstack([foot, foot + (top - 60.0)]).astype(np.float32)
        cv2.fillConvexPoly(seen, cv2.convexHull(outline).astype(np.int32), 1)
        rows, cols = np.nonzero(seen)
        judged = judged_piece(rows, cols, {"meeple": 16.0}, tower, 1.0, place, (60.0, 60.0))
        assert judged == ("meeple", 16.0), (turn, judged)


@pytest.mark.parametrize("side", ["yuggoth-three", "yuggoth-five"])
def test_the_watcher_is_taught_by_its_pink_base(side: str) -> None:
    """Issue 25: the Watcher (a dark figure 45-60 mm tall on a pink-painted 50 mm base) laid on the
    painted map (tests/pinhole_figures.py `laid_watcher`): its pink shows round the dark figure, so
    it is measured by the pink pixels' hull, as the reader measures a base. Before, the outline's
    area with the figure's lean and shadow was measured (46-63 mm for 50); then, its colour taken
    as the median of the piece, the dark figure's, none was found. On these seeds: 11 of 12, 43-53
    mm."""
    from tests.pinhole_figures import laid_watcher
    from vision.types import VisionError

    yuggoth = load_profile(side)
    widths = []
    for seed in range(12, 18):
        frame, empty = laid_watcher(yuggoth, seed)
        try:
            widths += [
                s.width_mm
                for s in samples(frame, yuggoth, "pink", capture(empty, yuggoth))
                if s.kind == "watcher"
            ]
        except VisionError:  # not found: said to the players, counted as missed here
            pass
    assert len(widths) >= 5, widths
    assert all(abs(w - 50) <= 8 for w in widths), widths


def test_arkhanos_meeples_are_taught_on_the_mat() -> None:
    """Issue 25: Arkhanos's masters (20 mm, 24 tall) and apprentices (14 mm, 18 tall, ASSUMED),
    laid in the meeples' spaces on the painted mat before the towers are built
    (tests/pinhole_figures.py `laid_meeples`). Seeds 0-1: 18 of 48 taught as their kind and 20 as
    the other before; 45 and 2 now. Here (seeds never looked at before this figure): 38 of 42 on
    the frames whose board is found, 4 taught as the other kind (a master's median size is what
    is learned, so a few slips do not move it). Since meeples are drawn as they are, oblong (20 x
    10 and 14 x 8 mm from above, turned any way; profile `depth`, ASSUMED): 38 of 48, 9 taught as
    the other kind (apprentices as masters: the two footprints' areas are 1.8 times apart, less
    than two round pieces', and the drawn blob's shading widens the small one), while on the
    path-traced Arkhanos tables the oblong kinds read apprentices 74 -> 88/99, masters 11 -> 16."""
    from collections import Counter

    from tests.pinhole_figures import laid_meeples
    from vision.types import BoardNotFound

    mat = load_profile("arkhanos")
    right = wrong = total = 0
    for seed in range(2, 4):
        for n, colour in enumerate(mat.piece_colours or ()):
            frame, empty, laid = laid_meeples(mat, colour, seed * 10 + n)
            try:
                kinds = Counter(s.kind for s in samples(frame, mat, colour, capture(empty, mat)))
            except BoardNotFound:  # two markers in view: the page says which are not seen
                continue
            right += sum(min(kinds[k], laid[k]) for k in laid)
            wrong += sum(max(0, v - laid.get(k, 0)) for k, v in kinds.items())
            total += 6
    assert total >= 36
    assert right >= 0.75 * total, (right, total)
    assert wrong <= 0.2 * total, wrong
