"""The empty board as the reference (issue 18, item 3): seen once with nothing on it, the
board's print (numerals, emblems, printed rings, dark circles) is background, and a piece is
what differs from it, under the light of each frame."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from companion.service import CameraWatch, Devices
from companion.store import Store
from companion.table import Table
from hardware.camera import Frame
from vision.make_recordings import random_scene, truth
from vision.pipeline import TableReader
from vision.reference import EmptyBoard, capture, kept_empty_board, reference_path
from vision.render import Look, Scene, printed_art, render
from vision.types import VisionError

SEEDS = (201, 202, 203)
"""Tables never used while building the reference reader (that was seeds 100-105)."""


def printed_table(seed: int) -> tuple[Scene, np.ndarray, np.ndarray]:
    """A 4-player Am'harb table on a board with printed art, and the same board empty, seen
    by the camera at another moment (another jitter of its pose) under neutral light."""
    rng = np.random.default_rng(seed)
    scene = random_scene(4, rng, (1280, 960))
    scene = replace(scene, art=printed_art(scene.profile, rng))
    frame, _ = render(scene, seed=seed)
    empty, _ = render(replace(scene, stacks=(), tokens=(), look=Look()), seed=seed + 1000)
    return scene, frame, empty


def score(scene: Scene, reader: TableReader, frame: np.ndarray) -> tuple[int, int, int]:
    """(pieces, read right, read where there is none)."""
    seen = [(t.region, t.kind, t.color) for t in reader.read(frame).tokens]
    wanted = [(t["region"], t["kind"], t["color"]) for t in truth(scene)["tokens"]]  # type: ignore[union-attr]
    right = 0
    for piece in wanted:
        if piece in seen:
            seen.remove(piece)
            right += 1
    return len(wanted), right, len(seen)


def test_printed_art_is_background_once_the_empty_board_is_seen() -> None:
    totals = {"alone": np.zeros(3, int), "empty board": np.zeros(3, int)}
    for seed in SEEDS:
        scene, frame, empty = printed_table(seed)
        totals["alone"] += score(scene, TableReader(scene.profile), frame)
        reference = capture(empty, scene.profile)
        totals["empty board"] += score(scene, TableReader(scene.profile, empty=reference), frame)
    pieces, right, false = totals["empty board"]
    assert right >= 0.97 * pieces
    assert false <= 0.01 * pieces
    # Without it the print is read as pieces: the test shows what the reference is for.
    assert totals["alone"][2] >= 10 * max(1, false)


def test_a_change_of_light_after_the_empty_board_was_seen() -> None:
    """The empty board seen in daylight; the game under a dim, warm lamp with a shadow."""
    scene, _, empty = printed_table(SEEDS[0])
    evening = replace(scene, look=Look(brightness=0.65, white_balance=(0.8, 1.0, 1.2), shadow=0.35, noise=4))
    frame, _ = render(evening, seed=7)
    pieces, right, false = score(
        scene, TableReader(scene.profile, empty=capture(empty, scene.profile)), frame
    )
    assert right >= 0.97 * pieces and false <= 1


def test_an_empty_board_of_another_board_is_refused() -> None:
    scene, frame, empty = printed_table(SEEDS[0])
    reference = capture(empty, scene.profile)
    with pytest.raises(VisionError, match="not of this board"):
        TableReader(replace(scene.profile, name="amharb-3p"), empty=reference)
    wrong_size = EmptyBoard(scene.profile.name, reference.image[:-5])
    with pytest.raises(VisionError, match="see it again"):
        TableReader(scene.profile, empty=wrong_size).read(frame)


def test_the_command_line_keeps_it_and_reads_with_it(tmp_path: Path, capsys) -> None:
    import cv2

    scene, frame, empty = printed_table(SEEDS[1])
    cv2.imwrite(str(tmp_path / "empty.png"), empty)
    cv2.imwrite(str(tmp_path / "game.png"), frame)
    data = tmp_path / "data"
    assert (
        main(
            [
                "vision",
                "empty",
                str(tmp_path / "empty.png"),
                "--profile",
                "amharb-4p",
                "--data-dir",
                str(data),
            ]
        )
        == 0
    )
    assert reference_path(data, "amharb-4p").is_file()
    capsys.readouterr()
    main(["vision", "read", str(tmp_path / "game.png"), "--profile", "amharb-4p"])
    alone = capsys.readouterr().out.count("\ntoken ")
    main(["vision", "read", str(tmp_path / "game.png"), "--profile", "amharb-4p", "--data-dir", str(data)])
    with_empty = capsys.readouterr().out.count("\ntoken ")
    assert with_empty < alone  # the print's false pieces are gone
    # A frame without the board is one line on stderr, not a traceback.
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    assert main(["vision", "empty", str(blank), "--profile", "amharb-4p", "--data-dir", str(data)]) == 1
    assert "markers" in capsys.readouterr().err


def test_the_page_keeps_the_empty_board_for_the_table_loop(tmp_path: Path) -> None:
    from companion.web import create_app

    scene, _, empty = printed_table(SEEDS[2])
    table = Table(Store(tmp_path / "companion.sqlite3"))
    devices = Devices(CameraWatch(None), None, table, tmp_path)
    client = create_app(table.store, table, devices).test_client()
    assert client.post("/api/empty-board?profile=amharb-4p", json={}).status_code == 503  # no picture yet
    devices.camera._latest = Frame(np.full((960, 1280, 3), 128, np.uint8), 0.0)
    refused = client.post("/api/empty-board?profile=amharb-4p", json={})
    assert refused.status_code == 409 and "not found" in refused.get_json()["error"]
    devices.camera._latest = Frame(empty, 0.0)
    kept = client.post("/api/empty-board?profile=amharb-4p", json={})
    assert kept.status_code == 200, kept.get_json()
    assert kept_empty_board(tmp_path, scene.profile) is not None
    table.new_game("amharb", 4, {})
    reader, _ = devices.loop._reader_for(table.session.game.sight, table.session.state)  # type: ignore[union-attr]
    assert reader.empty is not None
    assert "This is the empty board" in client.get("/calibrate?profile=amharb-4p").data.decode()


def test_numerals_printed_in_a_rolling_area_are_not_dice_once_the_empty_board_is_seen() -> None:
    """A printed numeral or letter in a rolling area or the mana pool looks like a die's face to
    the dice networks (tests/pinhole_figures.py `dice_table`: Arkhanos's mat painted, place
    names printed, no dice on it, seeds never looked at). What the empty board shows there too
    is print, not a die: 22 false dice without it on seeds 310-317 when first measured."""
    from tests.pinhole_figures import arkhanos_profile, dice_table
    from vision.profiles import load_profile

    profile = load_profile("arkhanos")
    with_empty = without = 0
    for seed in range(320, 328):
        frame, empty, truth = dice_table(profile, seed, with_dice=False)
        assert truth == []
        raised = arkhanos_profile(profile, seed)
        on_mat = [r.name for r in raised.regions if r.holds == "dice" and not r.height]
        with_empty += sum(
            d.region in on_mat for d in TableReader(raised, empty=capture(empty, raised)).read(frame).dice
        )
        without += sum(d.region in on_mat for d in TableReader(raised).read(frame).dice)
    assert without > 0  # the print is taken for dice without the empty board
    assert with_empty == 0


def test_the_dice_regions_of_the_empty_board_are_kept_whole(tmp_path: Path) -> None:
    """The empty board keeps its dice regions beside its token regions; each file is written whole
    or not at all (a power cut while writing leaves the one before); a profile with dice regions
    only (a dice tray) has an empty board too; a damaged file is a clear error."""
    from tests.pinhole_figures import dice_table
    from vision.profiles import load_profile
    from vision.reference import dice_path, load_empty_board, save_empty_board

    profile = load_profile("yuggoth-three")
    _, empty, _ = dice_table(profile, 5, with_dice=False)
    board = capture(empty, profile)
    assert board.dice is not None and board.image.size
    path = reference_path(tmp_path, profile.name)
    save_empty_board(board, path)
    kept = kept_empty_board(tmp_path, profile)
    assert kept is not None and kept.dice is not None
    assert np.array_equal(kept.dice, board.dice) and np.array_equal(kept.image, board.image)

    def cut(*_: object) -> None:
        raise OSError("power cut")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Path, "replace", cut)
        with pytest.raises(OSError):
            save_empty_board(replace(board, dice=np.zeros_like(board.dice)), path)
    again = kept_empty_board(tmp_path, profile)
    assert again is not None and again.dice is not None and np.array_equal(again.dice, board.dice)

    tray = load_profile("dice-tray")
    from tests.pinhole import Shot, photograph, plane

    rng = np.random.default_rng(3)
    picture, to_mm = plane(tray, rng)
    middle = (tray.size[0] / 2, tray.size[1] / 2)
    alone = capture(photograph(picture, to_mm, Shot(height_mm=700.0), middle, rng), tray)
    assert alone.dice is not None and not alone.image.size
    save_empty_board(alone, reference_path(tmp_path, tray.name))
    assert not reference_path(tmp_path, tray.name).exists()
    assert kept_empty_board(tmp_path, tray) is not None

    dice_path(path).write_bytes(b"not a png")
    with pytest.raises(VisionError):
        load_empty_board(path, profile)
