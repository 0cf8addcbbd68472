"""The empty board as the reference: what every token region looks like with nothing on it.

A printed board is not a plain surface: altar numerals, a tile's emblem, an illustrated
place, a fire's glow or a dark circle differ from the board round them just as a piece does.
Seen once with nothing on it, the board's own print is known, and a piece is what differs
from *that*. The reference is kept straightened (board millimetres, the tokens' scale) and
white-balanced by the markers' paper, so it holds whatever the camera's place or the light:
the light of each later frame is matched to it region by region (`relit`), so that a lamp
moved or a cloud passing does not make the whole board a piece.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .board import BoardLocator
from .frames import as_bgr, decode
from .profiles import Profile
from .regions import Straightening, TopDown, local_background, paper_points, white_gains
from .types import VisionError

REFERENCE_SPAN_MM = 50.0
"""The light is matched over this span: wider than any piece, narrower than a lamp's pool."""


@dataclass(frozen=True)
class EmptyBoard:
    """The empty board's token regions, straightened and white-balanced (BGR)."""

    profile: str
    image: np.ndarray


def token_view(frame: np.ndarray, pose_maps: Straightening, gains: np.ndarray) -> TopDown:
    """The token regions as the token reader sees them (straightened at twice the tokens'
    scale, then averaged down: see pipeline.Views)."""
    return TopDown.of(frame, pose_maps, gains).scaled(0.5)


def token_regions_seen(frame: object, profile: Profile) -> TopDown:
    """The profile's token regions in one frame, found afresh, straightened and white-balanced
    as the token reader sees them (`BoardNotFound` without the markers)."""
    from .tokens import TOKEN_PX_PER_MM

    image = as_bgr(frame)
    regions = [r for r in profile.regions if r.holds == "tokens"]
    if not regions:
        raise VisionError(f"the board profile {profile.name!r} has no places for pieces")
    pose = BoardLocator(profile).locate(image)
    maps = Straightening.of(pose, regions, 2 * TOKEN_PX_PER_MM)
    return token_view(image, maps, white_gains(image, paper_points(pose, profile)))


def capture(frame: object, profile: Profile) -> EmptyBoard:
    """The empty board from one frame of it (`BoardNotFound` without its markers)."""
    return EmptyBoard(profile.name, token_regions_seen(frame, profile).image)


def save_empty_board(board: EmptyBoard, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    ok, data = cv2.imencode(".png", board.image)
    if not ok:
        raise VisionError(f"could not encode the empty board for {path}")
    path.write_bytes(data.tobytes())


def load_empty_board(path: Path, profile: Profile) -> EmptyBoard:
    """A saved empty board (`VisionError` when it cannot be read; the reader checks that it
    fits the profile's regions)."""
    try:
        image = decode(path.read_bytes())
    except OSError as error:
        raise VisionError(f"cannot read the empty board {path}: {error.strerror}") from error
    return EmptyBoard(profile.name, image)


def reference_path(data_dir: Path, profile: str) -> Path:
    """Where the empty board of a profile is kept in the data directory."""
    return data_dir / "empty-boards" / f"{profile}.png"


def kept_empty_board(data_dir: Path, profile: Profile) -> EmptyBoard | None:
    """The empty board kept in `data_dir` for this profile, if one was seen."""
    path = reference_path(data_dir, profile.name)
    return load_empty_board(path, profile) if path.is_file() else None


def relit(
    reference_lab: np.ndarray, pixels_lab: np.ndarray, px_per_mm: float, span_mm: float = REFERENCE_SPAN_MM
) -> np.ndarray:
    """The empty board under this frame's light: the reference plus the smooth difference
    between the frame and it (a median over `span_mm`, wide enough that the pieces in it cover
    less than half of it, so that pieces do not move it and lamps, shadows and the light's colour
    do)."""
    shift = local_background(pixels_lab - reference_lab + 128.0, px_per_mm, span_mm) - 128.0
    out: np.ndarray = reference_lab + shift
    return out
