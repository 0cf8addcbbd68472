"""The camera's place from the markers (vision/camera.py), and the disc stacks read with it
on tables drawn by a pinhole camera with discs of real thickness, side walls and shadows
(tests/pinhole.py), unlike the renderer the readers were built on (issue 18, item 1)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.pinhole import Shot, camera, stacked_table, stacks_read, tokens_read
from vision.board import BoardLocator
from vision.camera import camera_place
from vision.profiles import load_profile

PROFILE = load_profile("amharb-4p")


@pytest.mark.parametrize(
    ("hfov", "tilt", "height"), [(62.2, 20.0, 900.0), (50.0, 28.0, 1200.0), (75.0, 14.0, 800.0)]
)
def test_the_camera_is_placed_from_a_tilted_view(hfov: float, tilt: float, height: float) -> None:
    """Any lens: the focal length comes from the homography itself."""
    shot = Shot(hfov_deg=hfov, tilt_deg=tilt, height_mm=height, turn_deg=35.0)
    cam = camera(shot, (180.0, 180.0))
    homography = cam.k @ np.column_stack([cam.r[:, 0], cam.r[:, 1], cam.t]) * 0.37
    place = camera_place(homography, shot.size)
    assert place.height == pytest.approx(-cam.position[2], rel=1e-3)
    assert place.nadir == pytest.approx(tuple(cam.position[:2]), abs=1.0)
    # A point 24 mm up (three discs) is seen where the camera's ray through it meets the board.
    top = np.array([100.0, 50.0, -24.0])
    seen = cam.project(top[None])[0]
    on_board = np.linalg.solve(homography, np.array([*seen, 1.0]))
    assert place.lift(top[None, :2], 24.0)[0] == pytest.approx(on_board[:2] / on_board[2], abs=0.05)


def test_looking_straight_down_the_pi_cameras_lens_is_assumed() -> None:
    shot = Shot(hfov_deg=62.2, tilt_deg=2.0, height_mm=1000.0)
    cam = camera(shot, (180.0, 180.0))
    place = camera_place(cam.k @ np.column_stack([cam.r[:, 0], cam.r[:, 1], cam.t]), shot.size)
    assert place.height == pytest.approx(1000.0, rel=0.01)


def test_stacks_with_real_thickness_seen_by_a_pinhole_camera() -> None:
    """Seeds never used while building the reader (it was built on seeds 0-19 of a sketch of
    this generator, then on 100-119, and its misses were looked at). Here 87% (191/219; 98% of
    the stacks on frames whose board is found: the other two show only two markers) where the
    reader without the camera model read 69%, and without the bottom disc's edge 80%. The
    figure is a floor against going back."""
    right, total, _, false = stacks_read(PROFILE, range(300, 320))
    assert right >= 0.87 * total  # 191 of 219 (24 of them on frames whose markers are out of view)
    assert false == 0


def test_the_board_is_found_in_these_frames() -> None:
    frame, _ = stacked_table(PROFILE, 301)
    assert BoardLocator(PROFILE).locate(frame).markers


def test_pieces_of_real_height_seen_by_a_pinhole_camera() -> None:
    """Priests and cultists as upright cylinders 24 and 16 mm tall (assumed), resource tiles
    with printed emblems, some pieces standing on tiles, colours a little off the palette's
    (tests/pinhole.py `token_table`, seeds never tuned on). A standing piece leans away from
    the point under the camera and shows its side wall: its width is taken across that
    direction, on its own colour's pixels, and its area against the foot, top and wall its
    height predicts there; a tile's by its area and its narrowest width (a tile with a piece on
    it by what lies under its outline's hull); the board in a shadow is board; a kind that comes
    in the piece's colour first; print's colours are no piece. 57% (200/349, 66 false) before,
    85% (297/349, 8 false) with a piece inside its kind's silhouette where it stands, 90.5%
    (316/349, 4 false) with a tile mostly hidden under a priest read as the square its band and
    the priest fill, and a round piece standing on a tile no tile itself, 91.4% (319/349, 4
    false) with a disciple on a tile of its own colour read where its top leans beyond the tile
    (vision/own_tile.py): short of issue 18's 97%; the figure is a floor against going back."""
    right, total, false = tokens_read(PROFILE, range(200, 210))
    assert right >= 0.9 * total, (right, total)
    assert false <= 0.03 * total, (false, total)


def raised_table(height_mm: float) -> np.ndarray:
    """A grey platform `height_mm` tall filling cell/1/1's corner of the island, and a pink
    priest standing on it in the middle of cell/1/1, seen from 900 mm up and tilted 22 degrees:
    the priest's foot is seen shifted away from the point under the camera by a third of a cell
    and more."""
    from tests.pinhole import Piece, board_plane, draw_pieces, photograph
    from vision.colours import DEFAULT_COLOURS

    rng = np.random.default_rng(3)
    picture, to_mm = board_plane(PROFILE, rng)
    shot = Shot(height_mm=900.0, tilt_deg=22.0, turn_deg=10.0, focus_blur=0.5)
    centre = PROFILE.region("cell/1/1").centre()
    pieces = (
        Piece((centre[0] - 10, centre[1] - 10), (120.0, 120.0, 125.0), 110.0, height_mm, square=True),
        Piece(centre, tuple(float(v) for v in DEFAULT_COLOURS["pink"]), 20.0, 24.0, lift=height_mm),
    )

    def draw(image: np.ndarray, cam: object) -> None:
        draw_pieces(image, cam, pieces, (0.2, 0.3))

    return photograph(picture, to_mm, shot, (180.0, 180.0), rng, draw)


def test_a_region_above_the_board_is_read_where_it_stands() -> None:
    """A tower's floor stands above the mat (Arkhanos: 3-69 mm): a region given its height
    (`Region.height`, from the game's state) is straightened on its own plane through the
    camera's place, so the piece on it is read in it; read as if it lay on the board, the
    piece is seen a third of a cell and more away (here in cell/0/1)."""
    from dataclasses import replace

    from vision.pipeline import TableReader

    frame = raised_table(60.0)
    flat = [(t.region, t.kind, t.color) for t in TableReader(PROFILE).read(frame).tokens]
    raised = replace(
        PROFILE,
        regions=tuple(replace(r, height=60.0) if r.name == "cell/1/1" else r for r in PROFILE.regions),
    )
    seen = [(t.region, t.kind, t.color) for t in TableReader(raised).read(frame).tokens]
    assert seen == [("cell/1/1", "priest", "pink")]  # once: not also on the board under it
    assert ("cell/1/1", "priest", "pink") not in flat
    reader = TableReader(PROFILE)  # as the table loop does when a tower grows: the same reader
    reader.read(frame)
    reader.raise_regions({"cell/1/1": 60.0})
    assert [(t.region, t.kind, t.color) for t in reader.read(frame).tokens] == seen
