"""The board's markers hold at 4-6 px per cell, in oblique views and with motion blur, and a
board laid out unlike its profile is refused (issue 18, item 2). The frames come from a
pinhole-camera renderer (tests/pinhole.py) at seeds never used while choosing the detector's
parameters (those were chosen on seeds 1 and 3 of the same renderer)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.pinhole import Shot, camera, height_for, photograph, plane, random_shot
from vision.board import BoardLocator, check_board, to_frame
from vision.profiles import Profile, load_profile
from vision.types import BoardNotFound

PROFILE = load_profile("amharb-4p")


def frames(seed: int, count: int, cells: tuple[float, float], motion: float) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        picture, to_mm = plane(PROFILE, rng)
        shot = random_shot(rng, PROFILE, cells, motion)
        out.append(photograph(picture, to_mm, shot, (180.0, 180.0), rng))
    return out


@pytest.mark.parametrize("seed", [11, 12])
def test_the_board_is_found_at_four_to_six_px_per_cell_with_motion_blur(seed: int) -> None:
    found = 0
    shots = frames(seed, 15, (4.0, 6.0), 6.0)
    for image in shots:
        try:
            BoardLocator(PROFILE).locate(image)
            found += 1
        except BoardNotFound:
            pass
    assert found == len(shots)


def test_markers_laid_closer_than_the_profile_says_are_refused() -> None:
    """344 mm between marker centres for a profile of 580 mm: each marker's own size then
    disagrees with the distances between them."""
    rng = np.random.default_rng(21)
    picture, to_mm = plane(PROFILE, rng, spacing=344 / 580)
    image = photograph(picture, to_mm, Shot(height_mm=900.0, tilt_deg=10.0), (180.0, 180.0), rng)
    check = check_board(image, PROFILE)
    assert check.seen == (0, 1, 2, 3) and check.pose is None
    assert "disagree with the board profile" in check.message
    with pytest.raises(BoardNotFound, match="mm"):
        BoardLocator(PROFILE).locate(image)


def test_markers_laid_as_the_profile_says_are_accepted_when_oblique() -> None:
    rng = np.random.default_rng(22)
    picture, to_mm = plane(PROFILE, rng)
    image = photograph(
        picture, to_mm, Shot(height_mm=1100.0, tilt_deg=28.0, turn_deg=40.0), (180.0, 180.0), rng
    )
    pose = BoardLocator(PROFILE).locate(image)
    assert pose.markers == (0, 1, 2, 3)


def smudged(
    picture: np.ndarray, to_mm: np.ndarray, ids: tuple[int, ...], profile: Profile = PROFILE
) -> np.ndarray:
    """The plane with these markers' inner cells smeared grey (as a motion blur longer than a
    cell leaves them): their black squares stay, their cells cannot be read."""
    out = picture.copy()
    to_px = np.linalg.inv(to_mm)
    inner = profile.marker_size * 4 / 6 / 2
    for i, (x, y) in profile.markers:
        if i in ids:
            (c0, r0, _), (c1, r1, _) = to_px @ [x - inner, y - inner, 1], to_px @ [x + inner, y + inner, 1]
            out[int(r0) : int(r1), int(c0) : int(c1)] = 110
    return out


def test_markers_whose_cells_cannot_be_read_are_placed_by_their_squares() -> None:
    """Two markers read place the board roughly; the other two's black squares, outlined where
    they should be and of the size they should have, complete it (`squares_where_expected`),
    and the board through all four fits as read markers must."""
    from vision.board import _detector, detect_markers

    rng = np.random.default_rng(23)
    picture, to_mm = plane(PROFILE, rng)
    shot = Shot(height_mm=height_for(5.0, PROFILE, Shot()), tilt_deg=20.0, turn_deg=25.0)
    image = photograph(smudged(picture, to_mm, (0, 3)), to_mm, shot, (180.0, 180.0), rng)
    grey = image.mean(axis=2).astype(np.uint8)
    assert sorted(detect_markers(grey, _detector(), wanted=4)) == [1, 2]
    locator = BoardLocator(PROFILE)
    pose = locator.locate(image)
    assert pose.markers == (0, 1, 2, 3)
    assert pose.error_px < 1.5
    check = check_board(image, PROFILE)  # the set-up page places the board as the reader does
    assert check.pose is not None and check.pose.markers == (0, 1, 2, 3)
    assert "0, 3 placed by their outlines" in check.message
    # The next frame, the light a little brighter: the two markers read are found again where
    # they were (the two placed by their squares cannot be read again, and are not asked to be).
    brighter = np.clip(image.astype(np.int16) + 15, 0, 255).astype(np.uint8)
    assert locator.locate(brighter) is pose
    assert (locator.full_detections, locator.window_detections) == (1, 1)


def test_a_square_of_another_size_is_no_marker() -> None:
    """Where a marker should be lies a black square larger than it (a box, a dark tile): with
    two markers read, the board is not placed on it (its size, and the board through it, do
    not fit), but through the two read and the camera's focal length."""
    rng = np.random.default_rng(24)
    picture, to_mm = plane(PROFILE, rng)
    picture = smudged(picture, to_mm, (0, 3))
    to_px = np.linalg.inv(to_mm)
    for i, (x, y) in PROFILE.markers:
        if i in (0, 3):  # the marker gone, a larger black square on white in its place
            (c0, r0, _), (c1, r1, _) = to_px @ [x - 45, y - 45, 1], to_px @ [x + 45, y + 45, 1]
            picture[int(r0) : int(r1), int(c0) : int(c1)] = 240
            (c0, r0, _), (c1, r1, _) = to_px @ [x - 35, y - 35, 1], to_px @ [x + 35, y + 35, 1]
            picture[int(r0) : int(r1), int(c0) : int(c1)] = 20
    shot = Shot(height_mm=height_for(5.0, PROFILE, Shot()), tilt_deg=20.0, turn_deg=25.0)
    image = photograph(picture, to_mm, shot, (180.0, 180.0), rng)
    pose = BoardLocator(PROFILE).locate(image)
    assert pose.markers == (1, 2)
    corners = np.array([[0, 0, 0], [360, 0, 0], [360, 360, 0], [0, 360, 0]], float)
    truth = camera(shot, (180.0, 180.0)).project(corners)
    assert np.abs(to_frame(pose, corners[:, :2]) - truth).max() < 8.0  # 5.6 px: 4 mm, far from 1 and 2


@pytest.mark.parametrize("name", ["turris", "yuggoth-three", "yuggoth-five", "tower", "arkhanos"])
def test_every_profiles_board_is_found_at_four_to_six_px_per_cell_with_motion_blur(name: str) -> None:
    """Issue 25: the board found in every frame with three markers or more in view at 4-6 px a
    cell, motion blur up to 6 px, tilted up to 30 degrees (seeds never looked at; `make bench`
    measures 10 frames a profile)."""
    from tests.pinhole_figures import boards_found

    assert boards_found(load_profile(name), np.random.default_rng(101), 8) == 8
