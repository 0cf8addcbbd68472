"""Where the camera is, from the board's markers: a pinhole model, not only a flat homography.

The homography says where each point *of the board's plane* lies in the frame. A piece has
height: the top of a stack, a meeple's head, a die's face lie above the plane, and the
camera sees them shifted away from the point straight under it (the nadir), the more the
higher they are and the farther from the nadir. Straightened by the homography, a point h mm
above the board at (x, y) appears at

    nadir + ((x, y) - nadir) * H / (H - h)

where H is the camera's height above the board. So the readers can predict where each disc's
rim, a piece's top or its side wall will be seen, from the camera's place alone.

The focal length comes from the homography itself when the view is oblique enough (two
constraints of a rotation: its columns are orthogonal and of one length; the principal point
taken at the frame's centre, square pixels), else from the Pi Camera Module 2's field of view
at the frame's width; the camera's place is then the homography's rotation and translation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PI_CAMERA_HFOV_DEG = 62.2
"""Camera Module 2's horizontal field of view (the Module 3 is 66, the HQ depends on its lens)."""
MIN_TILT_SINE = 0.15
"""Below this tilt (about 9 degrees) the homography says too little of the focal length."""


@dataclass(frozen=True)
class CameraPlace:
    """The camera's place over the board: the point on the board straight under it (mm) and
    its height above the board (mm)."""

    nadir: tuple[float, float]
    height: float
    focal_px: float

    def lift(self, at_mm: np.ndarray, height_mm: float | np.ndarray) -> np.ndarray:
        """Where points `height_mm` above the board at `at_mm` (n, 2) appear on the straightened
        board."""
        at = np.asarray(at_mm, np.float64)
        factor = self.height / (self.height - np.asarray(height_mm, np.float64))
        nadir = np.asarray(self.nadir)
        lifted: np.ndarray = nadir + (at - nadir) * np.reshape(factor, (-1, 1))
        return lifted

    def under(self, seen_mm: np.ndarray, height_mm: float) -> np.ndarray:
        """Where points seen at `seen_mm` (n, 2) on the straightened board lie, when they are
        `height_mm` above it (the inverse of `lift`)."""
        nadir = np.asarray(self.nadir)
        under: np.ndarray = nadir + (np.asarray(seen_mm, np.float64) - nadir) * (
            (self.height - height_mm) / self.height
        )
        return under

    def scale(self, height_mm: float) -> float:
        """How much larger a thing `height_mm` above the board looks on the straightened board."""
        return self.height / (self.height - height_mm)


def default_focal(width: int) -> float:
    """The focal length (px) of the Pi Camera Module 2 at a frame `width` px wide."""
    return float(width / 2 / np.tan(np.radians(PI_CAMERA_HFOV_DEG / 2)))


def focal_from_homography(h: np.ndarray, frame_size: tuple[int, int]) -> float | None:
    """The focal length (px) a homography board -> frame implies, or None when the view is
    too straight down to say (principal point at the frame's centre, square pixels)."""
    w, hh = frame_size
    shift = np.array([[1, 0, -w / 2], [0, 1, -hh / 2], [0, 0, 1]], np.float64)
    g = shift @ h
    g1, g2 = g[:, 0], g[:, 1]
    # With G = diag(f, f, 1) [r1 r2 t]: r1.r2 = 0 and |r1| = |r2| give two equations in f^2.
    rows = np.array(
        [
            [g1[0] * g2[0] + g1[1] * g2[1], g1[2] * g2[2]],
            [g1[0] ** 2 + g1[1] ** 2 - g2[0] ** 2 - g2[1] ** 2, g1[2] ** 2 - g2[2] ** 2],
        ]
    )
    # a / f^2 + b = 0 for each row: f^2 = -a / b, weighted by how much each row says (b).
    b = rows[:, 1]
    if not np.isfinite(rows).all() or float(np.abs(b).max()) == 0:
        return None
    f2 = -float((rows[:, 0] * b).sum()) / float((b * b).sum())
    if f2 <= 0:
        return None
    focal = float(np.sqrt(f2))
    # How oblique the view is: the rotation's third row, once f is known.
    sine = float(np.hypot(g1[2], g2[2]) * focal / np.linalg.norm(g1[:2]))
    if sine < MIN_TILT_SINE or not 0.3 * w < focal < 5 * w:
        return None
    return focal


def camera_place(homography: tuple[float, ...] | np.ndarray, frame_size: tuple[int, int]) -> CameraPlace:
    """The camera's place over the board from the homography board mm -> frame px."""
    h = np.asarray(homography, np.float64).reshape(3, 3)
    w, hh = frame_size
    focal = focal_from_homography(h, frame_size) or default_focal(w)
    k = np.array([[focal, 0, w / 2], [0, focal, hh / 2], [0, 0, 1]])
    m = np.linalg.solve(k, h)  # = s [r1 r2 t]
    s = (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1])) / 2
    m = m / s
    if m[2, 2] < 0:  # the board lies in front of the camera
        m = -m
    r1, r2, t = m[:, 0], m[:, 1], m[:, 2]
    r3 = np.cross(r1, r2)
    rotation = np.column_stack([r1, r2, r3])
    u, _, vt = np.linalg.svd(rotation)  # the nearest true rotation
    rotation = u @ vt
    centre = -rotation.T @ t
    return CameraPlace((float(centre[0]), float(centre[1])), float(abs(centre[2])), float(focal))
