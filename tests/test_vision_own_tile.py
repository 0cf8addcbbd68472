"""A disciple standing on a resource tile of its own colour (a blue priest on a blue tile): the
rulebook leaves it there when its stack is higher than the cost ("Disciple Phase", 3.3), and
the companion reads both, by the shape of what shows beyond the tile's square
(vision/own_tile.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.pinhole import TILE_HEIGHT_MM
from vision.camera import CameraPlace
from vision.own_tile import piece_on_own_tile, silhouette, square_kernel
from vision.profiles import load_profile

PRIEST, CULTIST = (20.0, 24.0), (12.0, 16.0)
KINDS = {"priest": PRIEST, "cultist": CULTIST}
# 1 px/mm; the point under the camera 400 mm west of the tile, 900 mm up: a priest's top is seen
# 11 mm east of its foot, a cultist's 7 mm.
PLACE = CameraPlace((-360.0, 40.0), 900.0, 1000.0)
CENTRE = (40.0, 40.0)


def scene(
    piece: tuple[float, float] | None,
    foot: tuple[float, float],
    turn: float = 12.0,
    place: CameraPlace | None = PLACE,
) -> np.ndarray:
    """A 25 mm tile turned `turn` degrees round (40, 40) and a piece (width, height) of its colour
    with its foot at `foot`, seen from `place` (straight down on it when None), as one mask
    (1 px/mm), blurred a little and thresholded as the reader's pixels are (its edges a pixel
    wider or narrower)."""
    canvas = np.zeros((80, 80), np.uint8)
    square = square_kernel(25.0, turn)
    reach = square.shape[0] // 2
    canvas[40 - reach : 40 + reach + 1, 40 - reach : 40 + reach + 1] |= square
    if piece is not None:
        width, height = piece
        lean, base, top = (0.0, 0.0), width, width
        if place is not None:
            at = np.array([foot])
            lean = tuple((place.lift(at, TILE_HEIGHT_MM + height) - place.lift(at, TILE_HEIGHT_MM))[0])
            base, top = width * place.scale(TILE_HEIGHT_MM), width * place.scale(TILE_HEIGHT_MM + height)
        shape, (ax, ay) = silhouette(base, top, lean)
        x0, y0 = int(round(foot[0])) - ax, int(round(foot[1])) - ay
        canvas[y0 : y0 + shape.shape[0], x0 : x0 + shape.shape[1]] |= shape
    blurred = cv2.GaussianBlur(canvas.astype(np.float32), (0, 0), 0.8)
    return (blurred > 0.5).astype(np.uint8)


def found(mask: np.ndarray, place: CameraPlace | None = PLACE) -> tuple[str, tuple[float, float]] | None:
    rows, cols = np.nonzero(mask)
    on = piece_on_own_tile(rows, cols, 25.0, KINDS, TILE_HEIGHT_MM, CENTRE, place, 1.0)
    return None if on is None else (on.kind, on.foot)


@pytest.mark.parametrize(("piece", "kind"), [(PRIEST, "priest"), (CULTIST, "cultist")])
def test_a_piece_leaning_beyond_its_own_colours_tile_is_that_piece(piece: tuple, kind: str) -> None:
    """Its foot near the tile's east edge: its top leans out past it."""
    seen = found(scene(piece, (50.0, 38.0)))
    assert seen is not None and seen[0] == kind
    assert np.hypot(seen[1][0] - 50.0, seen[1][1] - 38.0) <= 3.0  # where its foot is


def test_a_tile_alone_is_no_piece_whatever_its_emblem() -> None:
    """A tile, its edges blurred; and tiles seen a little larger than their side (a blur or its
    own shaded edge named its colour), which are looked at closely, with a printed emblem (a
    hole in its colour's pixels) or a glint at an edge: no piece."""
    assert found(scene(None, (0.0, 0.0))) is None
    for turn in (0.0, 20.0, 40.0):
        larger = cv2.dilate(scene(None, (0.0, 0.0), turn=turn), np.ones((5, 5), np.uint8))
        assert larger.sum() >= 25**2 + 0.6 * np.pi * 6**2  # past the first look: its square is sought
        cv2.circle(larger, (40, 40), 6, 0, -1)
        larger[39:42, 12:15] = 1
        assert found(larger) is None


def test_a_piece_inside_its_tiles_square_is_not_claimed() -> None:
    """Its foot on the tile's west half: the whole piece lies inside the square (its shaded wall
    alone would tell it, a pixel or two wide: not claimed)."""
    assert found(scene(CULTIST, (33.0, 40.0))) is None


def test_a_sliver_beyond_the_square_is_too_little_to_tell_the_kind() -> None:
    """A priest whose top shows a millimetre or two beyond the tile: as much a priest's edge as
    a cultist's, so neither is claimed rather than the wrong one."""
    assert found(scene(PRIEST, (37.0, 40.0))) is None


def test_where_the_camera_is_not_known_a_piece_is_taken_upright() -> None:
    """Without the camera's place a piece is judged without its lean (its foot and top one)."""
    seen = found(scene(PRIEST, (50.0, 40.0), place=None), None)
    assert seen is not None and seen[0] == "priest"


def test_blue_and_yellow_disciples_on_their_own_colours_tiles_are_read_with_them() -> None:
    """A pinhole table (tests/pinhole.py): a blue priest on a blue tile and a yellow one on a
    yellow tile, each standing off the tile's middle towards where its top leans (away from the
    point under the camera, south-east of the board), so that it leans beyond the tile, under a
    light from the north-east: both priests and both tiles are read in their spaces."""
    from tests.pinhole import Piece, Shot, board_plane, draw_pieces, photograph
    from vision.colours import DEFAULT_COLOURS
    from vision.pipeline import TableReader

    profile = load_profile("amharb-4p")
    rng = np.random.default_rng(7)
    picture, to_mm = board_plane(profile, rng)
    shot = Shot(height_mm=950.0, tilt_deg=20.0, turn_deg=15.0, focus_blur=0.5)
    blue, yellow = (tuple(float(v) for v in DEFAULT_COLOURS[c]) for c in ("blue", "yellow"))
    pieces = []
    for space, colour, (width, height), off in (
        ("cell/1/6", blue, PRIEST, (5.0, -4.0)),
        ("cell/6/1", yellow, PRIEST, (-5.0, -5.0)),
    ):
        cx, cy = profile.region(space).centre()
        pieces.append(
            Piece(
                (cx, cy),
                colour,
                25.0,
                TILE_HEIGHT_MM,
                square=True,
                turn_deg=8.0,
                emblem=(230.0, 230.0, 225.0),
            )
        )
        pieces.append(Piece((cx + off[0], cy + off[1]), colour, width, height, lift=TILE_HEIGHT_MM))

    def draw(image: np.ndarray, cam: object) -> None:
        draw_pieces(image, cam, tuple(pieces), (-0.3, 0.3))

    frame = photograph(picture, to_mm, shot, (180.0, 180.0), rng, draw)
    seen = sorted((t.region, t.kind, t.color) for t in TableReader(profile).read(frame).tokens)
    assert seen == [
        ("cell/1/6", "priest", "blue"),
        ("cell/1/6", "resource", "blue"),
        ("cell/6/1", "priest", "yellow"),
        ("cell/6/1", "resource", "yellow"),
    ]
