"""Where the board is: ArUco markers at its corners -> a homography -> board millimetres.

Detecting markers over a whole 1280x960 frame costs milliseconds; the table rarely
moves, so `BoardLocator` keeps the last pose and re-checks it cheaply: if the pixels
round each marker are still those it was found in, the marker has not moved;
otherwise it looks for the markers again in small windows where they were.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import cv2
import numpy as np

from .camera import default_focal, focal_from_homography
from .frames import as_bgr
from .profiles import MARKER_DICTIONARY, Profile
from .types import BoardNotFound, BoardPose

DICTIONARY: int = getattr(cv2.aruco, f"DICT_{MARKER_DICTIONARY}")
MAX_ERROR_PX = 4.0
"""A marker found again in its window this far (mean corner distance) from where it was is moved."""
MAX_ERROR_SHARE = 0.1
"""The markers must agree with the profile's geometry to within this share of a marker's side
(4 mm for 40 mm markers), as the mean distance between the corners found and those the fitted
board puts there. Measured on pinhole-camera renders (tests/test_vision_markers.py): boards laid
as the profile says stay under 0.06 (p95 0.036) at 3.5-7 px per cell with up to 6 px of motion
blur; markers laid 10% too close together reach 0.066, 20% 0.14, and 344 mm apart for a profile
of 580 mm 0.29 (a fixed 12 px let that through at 5 px per cell)."""
RECHECK_MARGIN = 1.0  # window = marker's bounding box grown by this many marker sides
SQUARE_REACH = 1.5
"""A square ArUco outlined but could not read may be a missing marker when within this many
marker sides of where two markers read put it (two markers place the far ones a side off;
`squares_where_expected`)..."""
SQUARE_SIZE_SHARE = 0.25
"""...and its sides are within this share of theirs."""
SAME_LEVELS = 8.0
"""A marker window whose grey levels differ from those it was found in by less than this on
average is unchanged: sensor noise moves them 2-5 levels, a marker moved by a pixel or two
moves its black-and-white edges by far more."""


def _detector() -> cv2.aruco.ArucoDetector:
    """ArUco's detector with two parameters changed for small markers (4-6 px per cell, a
    camera a metre or more above the table) and motion blur, measured on pinhole-camera renders
    at 3.5-5 px per cell with 0-6 px of motion blur (tests/test_vision_markers.py): the
    defaults found 3 or more of the 4 markers in 48 and 49 of 60 frames (two sets); reading
    each cell from 8 px of the straightened marker instead of 4 (`perspectiveRemovePixelPerCell`)
    and thresholding at every 4th window size instead of every 10th
    (`adaptiveThreshWinSizeStep`): 55 and 57 of 60, no false marker. And a marker's corners may
    come to the frame's edge (`minDistanceToBorder` 0, not 3): a marker 15 px from the top
    edge, sharp, was not found; with it one frame more of 135 and of 169 (issue 25's profiles at
    4-6 px a cell, seeds 41 and 81), as many in dim light. A larger `adaptiveThreshConstant`
    (12) found as many and faster but lost 3 of 169 dim frames."""
    params = cv2.aruco.DetectorParameters()
    params.minDistanceToBorder = 0
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.perspectiveRemovePixelPerCell = 8
    params.adaptiveThreshWinSizeStep = 4
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)


def _found(
    grey: np.ndarray, detector: cv2.aruco.ArucoDetector, offset: tuple[int, int]
) -> dict[int, np.ndarray]:
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) + np.array(offset, np.float32) for i, c in zip(ids.ravel(), corners)}


def detect_markers(
    grey: np.ndarray,
    detector: cv2.aruco.ArucoDetector,
    offset: tuple[int, int] = (0, 0),
    wanted: int = 0,
) -> dict[int, np.ndarray]:
    """The markers in `grey` (corners in frame pixels). When fewer than `wanted` are found, the
    image is sharpened (an unsharp mask undoes some of a motion or focus blur) and searched
    again for the rest: at 3.5-5 px per cell with motion blur that took frames with 3 or more
    markers from 55 and 57 of 60 to 58 and 60 (it costs a second search only then)."""
    found = _found(grey, detector, offset)
    if len(found) < wanted:
        found = {**_found(sharpened(grey), detector, offset), **found}
    return found


def sharpened(grey: np.ndarray) -> np.ndarray:
    """An unsharp mask: it undoes some of a motion or focus blur."""
    return cv2.addWeighted(grey, 2.0, cv2.GaussianBlur(grey, (0, 0), 2.0), -1.0, 0)


def mean_side(corners: np.ndarray) -> float:
    """The mean side (px) of a quadrilateral's four corners."""
    return float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean())


def paired_corners(profile: Profile, seen: dict[int, np.ndarray]) -> tuple[np.ndarray, np.ndarray, float]:
    """The corners of the profile's markers seen, on the board (mm) and in the frame (px), in the
    same order, and a marker's mean side (px)."""
    known = profile.marker_corners()
    ids = sorted(i for i in seen if i in known)
    board = np.concatenate([known[i] for i in ids]).astype(np.float64)
    frame = np.concatenate([seen[i] for i in ids]).astype(np.float64)
    return board, frame, float(np.mean([mean_side(seen[i]) for i in ids]))


def misfit(homography: np.ndarray, board: np.ndarray, frame: np.ndarray) -> float:
    """The mean distance (px) between corners seen and where `homography` puts them."""
    projected = cv2.perspectiveTransform(board.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return float(np.linalg.norm(projected - frame, axis=1).mean())


def fit_error(profile: Profile, seen: dict[int, np.ndarray]) -> tuple[np.ndarray | None, float, float]:
    """The homography board mm -> frame px through these markers (two or more of the
    profile's), the mean distance (px) between their corners seen and those it puts there, and
    a marker's mean side (px)."""
    board, frame, side = paired_corners(profile, seen)
    h, _ = cv2.findHomography(board, frame, 0)
    if h is None:
        return None, float("inf"), side
    return h, misfit(h, board, frame), side


def squares_where_expected(
    profile: Profile, grey: np.ndarray, detector: cv2.aruco.ArucoDetector, seen: dict[int, np.ndarray]
) -> dict[int, np.ndarray]:
    """The markers seen, and those whose black square ArUco outlines though it could not read
    its cells (blurred by motion at 4-6 px a cell), when exactly two are read. Two markers place
    the board roughly (a marker's side off, far from them); a square of the size a missing
    marker should have near where it should be, its corners taken in the order that fits, is
    that marker when the board through all of them fits every corner as a board through read
    markers must (`MAX_ERROR_SHARE` of a side): of the squares near each missing marker, the
    ones that fit best, as many markers as fit."""
    known = profile.marker_corners()
    ids = sorted(i for i in seen if i in known)
    if len(ids) != 2:
        return seen
    h, _, side = fit_error(profile, seen)
    if h is None:
        return seen
    _, _, rejected = detector.detectMarkers(sharpened(grey))
    squares = [np.asarray(q, np.float32).reshape(4, 2) for q in rejected]
    missing = sorted(set(known) - set(ids))
    options: list[list[np.ndarray | None]] = []
    for i in missing:
        expected = cv2.perspectiveTransform(known[i].reshape(-1, 1, 2), h).reshape(4, 2)
        near: list[tuple[float, np.ndarray]] = []
        for square in squares:
            if abs(mean_side(square) / mean_side(expected) - 1) > SQUARE_SIZE_SHARE:
                continue  # a square of another size: a marker's white border, print
            turns = [np.roll(square, k, axis=0) for k in range(4)]  # ArUco gives them clockwise
            apart = [float(np.linalg.norm(t - expected, axis=1).mean()) for t in turns]
            if min(apart) <= SQUARE_REACH * side:
                near.append((min(apart), turns[int(np.argmin(apart))]))
        options.append([None, *(t for _, t in sorted(near, key=lambda at: at[0])[:3])])
    best: tuple[int, float, dict[int, np.ndarray]] | None = None
    for chosen in itertools.product(*options):
        trial = dict(seen) | {i: q for i, q in zip(missing, chosen) if q is not None}
        if len(trial) < 3:
            continue
        _, error, trial_side = fit_error(profile, trial)
        if error <= MAX_ERROR_SHARE * trial_side and (
            best is None or (len(trial), -error) > (best[0], -best[1])
        ):
            best = (len(trial), error, trial)
    return best[2] if best is not None else seen


def fit_through_two(
    profile: Profile, seen: dict[int, np.ndarray], focal_px: float, frame_size: tuple[int, int]
) -> tuple[np.ndarray | None, float, float]:
    """As `fit_error`, through two markers and a pinhole camera of this focal length (principal
    point at the frame's centre): eight corners fix the camera's six degrees of freedom, where
    a homography's eight would rest on two small squares. On pinhole renders (markers of
    4-6 px a cell) the island lay within 1.4 mm (median; 4.4 at most) of where four markers put
    it through two diagonal markers, 2.6 mm (13 at most) through two of one side. A wrong focal
    length does not show in the corners' fit: the board lies off while the markers agree
    (vision/render.py's flat camera through the Pi Camera Module 2's focal length: 10-14 px)."""
    board, frame, side = paired_corners(profile, seen)
    w, h = frame_size
    k = np.array([[focal_px, 0, w / 2], [0, focal_px, h / 2], [0, 0, 1]])
    flat = np.column_stack([board, np.zeros(len(board))])
    ok, rvec, tvec = cv2.solvePnP(flat, frame, k, None, flags=cv2.SOLVEPNP_SQPNP)
    if not ok:
        return None, float("inf"), side
    rotation, _ = cv2.Rodrigues(rvec)
    homography = k @ np.column_stack([rotation[:, 0], rotation[:, 1], tvec.ravel()])
    homography /= homography[2, 2]
    return homography, misfit(homography, board, frame), side


def pose_from_markers(
    profile: Profile,
    seen: dict[int, np.ndarray],
    focal_px: float | None = None,
    frame_size: tuple[int, int] | None = None,
) -> BoardPose:
    """The homography board-mm -> frame-px from at least 3 of the profile's markers, or from 2
    when the camera's focal length and the frame's size are given (`fit_through_two`)."""
    known = profile.marker_corners()
    ids = sorted(i for i in seen if i in known)
    two = len(ids) == 2 and focal_px is not None and frame_size is not None
    if len(ids) < 3 and not two:
        raise BoardNotFound(
            f"{len(ids)} of the board's markers {sorted(known)} are visible; at least 3 are needed"
        )
    if two:
        assert focal_px is not None and frame_size is not None
        h, error, side_px = fit_through_two(profile, seen, focal_px, frame_size)
    else:
        h, error, side_px = fit_error(profile, seen)
    if h is None:
        raise BoardNotFound("the markers do not make a consistent board (are they placed as printed?)")
    if error > MAX_ERROR_SHARE * side_px:
        mm = error / side_px * profile.marker_size
        raise BoardNotFound(
            f"the markers disagree with the board profile by {mm:.0f} mm ({error:.1f} px): one may be "
            f"moved, or the markers are not placed as {profile.name or 'the profile'} says"
        )
    return BoardPose(
        homography=tuple(float(v) for v in h.ravel()), markers=tuple(ids), error_px=round(error, 2)
    )


def to_frame(pose: BoardPose, points_mm: np.ndarray) -> np.ndarray:
    h = np.array(pose.homography, np.float64).reshape(3, 3)
    return cv2.perspectiveTransform(np.asarray(points_mm, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


def to_board(pose: BoardPose, points_px: np.ndarray) -> np.ndarray:
    h = np.linalg.inv(np.array(pose.homography, np.float64).reshape(3, 3))
    return cv2.perspectiveTransform(np.asarray(points_px, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


def px_per_mm(pose: BoardPose, at_mm: tuple[float, float]) -> float:
    """The local scale at a board point (for sizing dice and pieces)."""
    x, y = at_mm
    pts = to_frame(pose, np.array([[x, y], [x + 10, y], [x, y + 10]]))
    return float((np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[2] - pts[0])) / 20)


def rectify(
    frame: np.ndarray, pose: BoardPose, profile: Profile, px_per_mm_out: float = 2.0, margin_mm: float = 0.0
) -> np.ndarray:
    """A top-down view of the board, `px_per_mm_out` pixels per millimetre."""
    w, h = profile.size
    s = px_per_mm_out
    shift = np.array([[s, 0, margin_mm * s], [0, s, margin_mm * s], [0, 0, 1]], np.float64)
    board_to_out = shift @ np.linalg.inv(np.array(pose.homography, np.float64).reshape(3, 3))
    size = (int((w + 2 * margin_mm) * s), int((h + 2 * margin_mm) * s))
    return cv2.warpPerspective(frame, board_to_out, size, flags=cv2.INTER_LINEAR)


class BoardLocator:
    """Finds the board once, then re-checks the cached pose cheaply on each frame."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.detector = _detector()
        self.pose: BoardPose | None = None
        self.full_detections = 0
        self.window_detections = 0
        self._read: tuple[int, ...] = ()
        """The markers of the pose that were read (not placed by their squares alone)."""
        self._seen_in: tuple[tuple[tuple[int, int, int, int], np.ndarray], ...] = ()
        """Each marker's window and its grey pixels when it was last found there."""
        self.focal_per_width: float | None = None
        """The camera's focal length in frame widths, as the last oblique enough pose from three
        or more markers said it (for a pose from two); None: the Pi Camera Module 2's."""

    def locate(self, frame: object) -> BoardPose:
        image = as_bgr(frame)
        if self.pose is not None:
            if self._unchanged(image):
                return self.pose
            grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
            self.window_detections += 1
            if self._recheck(grey, self.pose):
                return self.pose
        else:
            grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        self.full_detections += 1
        self.pose = None
        wanted = len(self.profile.markers)
        seen = detect_markers(grey, self.detector, wanted=wanted)
        size = (grey.shape[1], grey.shape[0])
        pose = pose_from_markers(
            self.profile,
            squares_where_expected(self.profile, grey, self.detector, seen),
            self.focal_per_width * size[0] if self.focal_per_width else default_focal(size[0]),
            size,
        )
        if len(pose.markers) >= 3:
            focal = focal_from_homography(np.array(pose.homography).reshape(3, 3), size)
            self.focal_per_width = focal / size[0] if focal else self.focal_per_width
        # Re-checked later: the markers read (one placed by its square alone is never read again).
        self._read = tuple(i for i in pose.markers if i in seen)
        windows = self._windows(grey, pose)  # the markers were just found there: keep their pixels
        self._seen_in = tuple((box, grey[box[1] : box[3], box[0] : box[2]].copy()) for box, _, _ in windows)
        self.pose = pose
        return pose

    def _unchanged(self, image: np.ndarray) -> bool:
        """Every marker window still shows what it did when its marker was found."""
        if not self._seen_in:
            return False
        for (x0, y0, x1, y1), before in self._seen_in:
            now = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
            if now.shape != before.shape or cv2.norm(now, before, cv2.NORM_L1) > SAME_LEVELS * now.size:
                return False
        return True

    def _windows(
        self, grey: np.ndarray, pose: BoardPose
    ) -> list[tuple[tuple[int, int, int, int], int, np.ndarray]]:
        """Where each of the pose's markers that were read should be: (window x0, y0, x1, y1
        round it, its id, its expected corners); a window cut off by the frame's edge is left
        out."""
        known = self.profile.marker_corners()
        h, w = grey.shape
        out = []
        for i in self._read:
            expected = to_frame(pose, known[i])
            pad = float(np.linalg.norm(expected[0] - expected[1])) * RECHECK_MARGIN
            x0, y0 = (expected.min(axis=0) - pad).astype(int)
            x1, y1 = (expected.max(axis=0) + pad).astype(int)
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
            if x1 - x0 >= 8 and y1 - y0 >= 8:
                out.append(((int(x0), int(y0), int(x1), int(y1)), i, expected))
        return out

    def _recheck(self, grey: np.ndarray, pose: BoardPose) -> bool:
        """Whether the markers are found again where the pose says they are (the board has not
        moved); if so their windows are kept for `_unchanged`. A marker not found in its window
        (a side round where it was) is taken as hidden, under a hand: two found in place hold a
        rigid board where it was, so long as none is found moved within its window."""
        windows = self._windows(grey, pose)
        if len(windows) < len(self._read):
            return False
        in_place = 0
        for (x0, y0, x1, y1), i, expected in windows:
            found = detect_markers(grey[y0:y1, x0:x1], self.detector, (x0, y0)).get(i)
            if found is None:
                continue
            if float(np.linalg.norm(found - expected, axis=1).mean()) > MAX_ERROR_PX:
                return False
            in_place += 1
        if in_place < min(2, len(windows)):
            return False
        self._seen_in = tuple((box, grey[box[1] : box[3], box[0] : box[2]].copy()) for box, _, _ in windows)
        return True


def draw_regions(image: np.ndarray, pose: BoardPose, profile: Profile) -> None:
    """The profile's regions outlined where the pose puts them (in place)."""
    for region in profile.regions:
        outline = to_frame(pose, np.array(region.polygon)).astype(np.int32)
        cv2.polylines(image, [outline], True, (200, 200, 0), 1)


@dataclass(frozen=True)
class BoardCheck:
    """What the camera makes of the board's markers, for the people setting it up."""

    seen: tuple[int, ...]
    missing: tuple[int, ...]
    pose: BoardPose | None
    message: str
    corners: dict[int, np.ndarray] = field(default_factory=dict, compare=False)


def check_board(frame: object, profile: Profile) -> BoardCheck:
    """Looks for every marker afresh (no cached pose) and says what is missing."""
    image = as_bgr(frame)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detector = _detector()
    found = detect_markers(grey, detector, wanted=len(profile.markers))
    known = profile.marker_corners()
    seen = tuple(sorted(i for i in found if i in known))
    missing = tuple(sorted(set(known) - set(seen)))
    strangers = sorted(set(found) - set(known))
    placed = squares_where_expected(profile, grey, detector, found)  # as the reader places the board
    outlined = sorted(set(placed) - set(found))
    pose: BoardPose | None
    try:
        pose = pose_from_markers(profile, placed)
        message = f"board found from markers {', '.join(map(str, pose.markers))} (error {pose.error_px} px)"
    except BoardNotFound as error:
        pose, message = None, str(error)
    if outlined and pose is not None:
        message += f"; {', '.join(map(str, outlined))} placed by their outlines, not read (blur? light?)"
        missing = tuple(i for i in missing if i not in outlined)
    if missing:
        message += f"; not seen: {', '.join(map(str, missing))}"
    if strangers:
        message += f"; markers of another board: {', '.join(map(str, strangers))}"
    return BoardCheck(seen, missing, pose, message, {i: c for i, c in found.items()})


def draw_board_check(frame: object, check: BoardCheck, profile: Profile) -> np.ndarray:
    """The frame with each marker found outlined and named, and the profile's regions where
    the board was found: what to adjust is visible at a glance."""
    image = as_bgr(frame).copy()
    for marker_id, corners in check.corners.items():
        ok = marker_id in check.seen
        colour = (0, 200, 0) if ok else (0, 0, 255)
        cv2.polylines(image, [corners.astype(np.int32)], True, colour, 3)
        x, y = corners.min(axis=0).astype(int)
        cv2.putText(image, f"#{marker_id}", (int(x), int(y) - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.8, colour, 2)
    if check.pose is not None:
        draw_regions(image, check.pose, profile)
    return image
