"""Board localisation on rendered frames with known truth, and board profiles."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.board import BoardLocator, to_board, to_frame
from vision.profiles import ProfileError, builtin_profiles, load_profile, parse_profile
from vision.render import Camera, Look, Scene, render
from vision.types import BoardNotFound

BOARD_CORNERS = np.array([[0, 0], [360, 0], [360, 360], [0, 360]], float)


def true_corners(homography: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(BOARD_CORNERS.reshape(-1, 1, 2), homography).reshape(-1, 2)


@pytest.mark.parametrize(
    ("seed", "camera", "look"),
    [
        (1, Camera(), Look()),
        (2, Camera(tilt=0.15, rotation=12), Look(shadow=0.4, blur=1.0, noise=5, jpeg_quality=60)),
        (
            3,
            Camera(width=1920, height=1080, rotation=-7),
            Look(brightness=0.45, white_balance=(1.2, 1.0, 0.8)),
        ),
        (4, Camera(width=1280, height=960, tilt=0.2, rotation=90), Look(vignette=0.5)),
    ],
)
def test_board_found_to_a_pixel(seed: int, camera: Camera, look: Look) -> None:
    profile = load_profile("amharb-4p")
    frame, homography = render(Scene(profile, camera, look), seed)
    pose = BoardLocator(profile).locate(frame)
    assert pose.markers == (0, 1, 2, 3)
    assert np.abs(to_frame(pose, BOARD_CORNERS) - true_corners(homography)).max() < 1.5
    back = to_board(pose, to_frame(pose, BOARD_CORNERS))
    assert np.abs(back - BOARD_CORNERS).max() < 1e-6


def cover_marker(frame: np.ndarray, homography: np.ndarray, centre_mm: tuple[float, float]) -> np.ndarray:
    x, y = cv2.perspectiveTransform(np.array([[centre_mm]], float), homography)[0, 0]
    covered = frame.copy()
    cv2.circle(covered, (int(x), int(y)), 45, (60, 80, 100), -1)  # a hand over the marker
    return covered


def test_three_markers_are_enough_two_with_the_cameras_focal_length_one_is_not() -> None:
    """Two markers place the board through a pinhole camera whose focal length this camera's
    oblique frames with more markers said (vision/render.py's camera is no Pi Camera Module 2:
    through that one's focal length the board would lie 10-14 px off)."""
    profile = load_profile("amharb-3p")
    frame, homography = render(Scene(profile, Camera(rotation=40)), 5)
    markers = dict(profile.markers)
    one_gone = cover_marker(frame, homography, markers[2])
    locator = BoardLocator(profile)
    pose = locator.locate(one_gone)
    assert pose.markers == (0, 1, 3)
    assert np.abs(to_frame(pose, BOARD_CORNERS) - true_corners(homography)).max() < 2.0
    assert locator.focal_per_width is not None
    two_gone = cover_marker(one_gone, homography, markers[0])
    locator.pose = None  # as on a new read of the whole frame
    pose = locator.locate(two_gone)
    assert pose.markers == (1, 3)
    assert np.abs(to_frame(pose, BOARD_CORNERS) - true_corners(homography)).max() < 3.0
    with pytest.raises(BoardNotFound, match="1 of the board's markers"):
        BoardLocator(profile).locate(cover_marker(two_gone, homography, markers[1]))


def test_a_hand_over_two_markers_leaves_the_board_where_it_was() -> None:
    """The pose is kept while two of its markers are found where they were and none elsewhere."""
    profile = load_profile("amharb-4p")
    frame, homography = render(Scene(profile), 6)
    locator = BoardLocator(profile)
    first = locator.locate(frame)
    markers = dict(profile.markers)
    covered = cover_marker(cover_marker(frame, homography, markers[0]), homography, markers[2])
    assert locator.locate(covered) == first
    assert locator.full_detections == 1
    three = cover_marker(covered, homography, markers[1])
    with pytest.raises(BoardNotFound):
        locator.locate(three)


def test_a_board_moved_under_a_hand_over_two_markers_is_found_again() -> None:
    """Two markers hidden do not hold the pose when the two in view have moved: the board is
    looked for afresh, and placed where it now is."""
    profile = load_profile("amharb-4p")
    locator = BoardLocator(profile)
    first = locator.locate(render(Scene(profile), 6)[0])
    moved, homography = render(Scene(profile, Camera(rotation=40)), 7)
    markers = dict(profile.markers)
    covered = cover_marker(cover_marker(moved, homography, markers[0]), homography, markers[2])
    pose = locator.locate(covered)
    assert pose != first and locator.full_detections == 2
    assert pose.markers == (1, 3)
    assert np.abs(to_frame(pose, BOARD_CORNERS) - true_corners(homography)).max() < 20.0


def test_pose_is_cached_and_rechecked_until_the_board_moves() -> None:
    profile = load_profile("amharb-4p")
    locator = BoardLocator(profile)
    frame, _ = render(Scene(profile), 6)
    first = locator.locate(frame)
    for _ in range(5):
        assert locator.locate(frame) == first
    assert locator.full_detections == 1
    moved, homography = render(Scene(profile, Camera(rotation=20)), 7)
    pose = locator.locate(moved)
    assert locator.full_detections == 2
    assert np.abs(to_frame(pose, BOARD_CORNERS) - true_corners(homography)).max() < 1.5


def test_unchanged_marker_windows_skip_detection_and_a_small_shift_does_not() -> None:
    """The cheap re-check compares the pixels round each marker: fresh sensor noise keeps the
    pose without looking for markers; the board moved by 6 px is looked for again and found
    where it now is."""
    profile = load_profile("amharb-4p")
    locator = BoardLocator(profile)
    frame, homography = render(Scene(profile), 6)
    first = locator.locate(frame)
    noisy = np.clip(
        frame.astype(np.int16) + np.random.default_rng(1).normal(0, 4, frame.shape).astype(np.int16), 0, 255
    ).astype(np.uint8)
    assert locator.locate(noisy) is first
    assert (locator.full_detections, locator.window_detections) == (1, 0)
    shifted = np.roll(frame, 6, axis=1)
    pose = locator.locate(shifted)
    assert locator.window_detections == 1
    expected = true_corners(homography) + np.array([6.0, 0.0])
    assert np.abs(to_frame(pose, BOARD_CORNERS) - expected).max() < 1.5


def test_no_board_is_a_typed_error() -> None:
    blank = np.full((480, 640, 3), 128, np.uint8)
    with pytest.raises(BoardNotFound):
        BoardLocator(load_profile("amharb-2p")).locate(blank)


def test_builtin_profiles_load_with_every_region() -> None:
    assert {"amharb-2p", "amharb-3p", "amharb-4p"} <= set(builtin_profiles())
    counts = {n: len(load_profile(f"amharb-{n}p").regions) for n in (2, 3, 4)}
    # Island spaces (48/56/64) plus four tower-disc locations per seat.
    assert counts == {2: 48 + 8, 3: 56 + 12, 4: 64 + 16}
    p = load_profile("amharb-4p")
    assert p.region("cell/3/4").contains((4 * 45 + 20, 3 * 45 + 20))
    assert not p.region("cell/3/4").contains((10, 10))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('name = "x"', "format"),
        ('format = "board-profile/1"\nsize = [1]', "size"),
        ('format = "board-profile/1"\nsize = [10, 10]\n[markers.positions]\n0 = [0, 0]', "at least 3"),
        (
            'format = "board-profile/1"\nsize = [10, 10]\n'
            "[markers.positions]\n0 = [0,0]\n1 = [1,0]\n2 = [0,1]\n"
            '[[regions]]\nname = "a"\nholds = "cards"\npolygon = [[0,0],[1,0],[1,1]]',
            "holds",
        ),
        (
            'format = "board-profile/1"\nsize = [10, 10]\n[markers]\ndictionary = "6X6_250"\n'
            "[markers.positions]\n0 = [0,0]\n1 = [1,0]\n2 = [0,1]\n",
            "dictionary is '4X4_50'",
        ),
        (
            'format = "board-profile/1"\nsize = [10, 10]\n'
            "[markers.positions]\n0 = [0,0]\n1 = [1,0]\n77 = [0,1]\n",
            "marker ids are 0 to 49",
        ),
        (
            'format = "board-profile/1"\nsize = [10, 10]\n'
            "[markers.positions]\n0 = [0,0]\n1 = [1,0]\n2 = [0,1]\n"
            '[[regions]]\nname = "a"\nholds = "tokens"\npolygon = [[0,0],[1,0],[1,1]]\nheight = -5',
            "height is millimetres above the board",
        ),
    ],
)
def test_bad_profiles_are_explained(text: str, message: str, tmp_path: Path) -> None:
    import tomllib

    with pytest.raises(ProfileError, match=message):
        parse_profile(tomllib.loads(text))
    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(ProfileError):
        load_profile(path)


def test_unknown_profile_name() -> None:
    with pytest.raises(ProfileError, match="no profile"):
        load_profile("monopoly")


def test_marker_sheet_markers_decode_as_their_ids() -> None:
    from vision.board import _detector, detect_markers
    from vision.markers import marker_bits, sheet_layout, to_svg

    for marker_id in range(4):
        bits = np.array(marker_bits(marker_id), np.uint8)
        image = np.kron(1 - bits, np.ones((20, 20), np.uint8)) * 255
        image = cv2.copyMakeBorder(image, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
        assert list(detect_markers(image, _detector())) == [marker_id]
    sheet = to_svg(sheet_layout())
    assert sheet.startswith("<svg") and 'width="210mm"' in sheet and sheet.count(">marker ") == 4
