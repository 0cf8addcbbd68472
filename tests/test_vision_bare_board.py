"""The bare board a piece is told from: its median round each pixel counts only the board
itself (`local_background`'s `inside`), and a pixel lighter than it beside a piece's colour is
no shadow (`nearer_a_colour`'s `LIGHTER`): path-traced tables, tests/test_vision_blender.py."""

from __future__ import annotations

import cv2
import numpy as np

from vision.colours import Palette
from vision.regions import local_background
from vision.tokens import LIGHTER, nearer_a_colour


def test_the_whole_surface_inside_is_as_no_mask() -> None:
    """A window whose size is no whole number of 4 mm cells: every cell wholly inside is the
    surface, and nothing is filled in."""
    rng = np.random.default_rng(3)
    lab = rng.uniform(60, 200, (521, 763, 3)).astype(np.float32)
    everywhere = np.ones(lab.shape[:2], np.uint8)
    assert np.array_equal(local_background(lab, 1.0, 50.0, everywhere), local_background(lab, 1.0, 50.0))


def test_what_lies_beyond_the_surface_does_not_darken_it() -> None:
    """A light board with the dark table beyond its edge: by the edge the median is the board's."""
    lab = np.full((200, 200, 3), 128.0, np.float32)
    lab[..., 0] = 200.0
    lab[:, 150:, 0] = 40.0  # the table
    inside = np.zeros((200, 200), np.uint8)
    inside[:, :150] = 1
    by_edge = (slice(90, 110), slice(144, 150))
    assert local_background(lab, 1.0, 60.0, inside)[by_edge][..., 0].min() >= 195
    assert local_background(lab, 1.0, 60.0)[by_edge][..., 0].min() < 195  # as it was


def test_a_light_frame_beside_a_tile_is_kept_the_light_board_away_from_it_is_not() -> None:
    """A blue tile with a pastel frame round it (its light print blurred into it: lighter than
    the board, of nearly the board's hue) keeps the frame; a light patch of board 10 px from any
    piece is still board."""
    board_bgr = np.array([110, 150, 120], np.float32)  # an olive board
    bgr = np.tile(board_bgr, (60, 90, 1))
    bgr[20:40, 20:40] = (170, 60, 30)  # the tile
    pastel = board_bgr * (LIGHTER + 0.15)
    bgr[18:20, 18:42] = bgr[40:42, 18:42] = pastel  # its frame, two rows above and below
    bgr[20:40, 18:20] = bgr[20:40, 40:42] = pastel
    bgr[25:35, 60:70] = pastel  # light board far from the tile
    image = np.clip(bgr, 0, 255).astype(np.uint8)
    background = np.tile(
        cv2.cvtColor(board_bgr.astype(np.uint8)[None, None], cv2.COLOR_BGR2LAB)[0, 0], (60, 90, 1)
    )
    mask = np.zeros((60, 90), np.uint8)
    mask[18:42, 18:42] = mask[25:35, 60:70] = 1
    _, choices = Palette().features(("blue", "white", "black"))
    named = nearer_a_colour(image, background.astype(np.float32), mask, choices, lighter_reach_px=2)
    kept = np.zeros((60, 90), bool)
    kept[named.rows, named.cols] = True
    assert kept[20:40, 20:40].all() and kept[18, 20:40].all() and kept[20:40, 41].all()
    assert not kept[25:35, 60:70].any()
    plain = nearer_a_colour(image, background.astype(np.float32), mask, choices)
    assert plain.rows.size == 400  # without the reach, the tile's colour alone
