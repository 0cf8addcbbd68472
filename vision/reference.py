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

from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from .board import BoardLocator
from .frames import as_bgr, decode
from .profiles import Profile
from .regions import Straightening, TopDown, local_background, paper_points, white_gains
from .types import BoardPose, VisionError

REFERENCE_SPAN_MM = 50.0
"""The light is matched over this span: wider than any piece, narrower than a lamp's pool."""


DICE_PX_PER_MM = 2.0
"""The dice regions of the empty board are kept at this scale: a die 32 px, a pip 5."""
CHANGED = 20.0
"""A pixel differs from the empty board when its colour (Lab, the light matched) is this far
from the board's there: several times a sensor's noise and JPEG's error (3-5), less than a
die's face is from any print under it (a die the board's own colour still shows its pips, its
edges and its shade: see `changed_share`)."""


@dataclass(frozen=True)
class EmptyBoard:
    """The empty board's token regions, straightened and white-balanced (BGR); and its dice
    regions on the board's plane, at DICE_PX_PER_MM (None when the profile has none, or for an
    empty board kept before they were)."""

    profile: str
    image: np.ndarray
    dice: np.ndarray | None = None


def token_view(frame: np.ndarray, pose_maps: Straightening, gains: np.ndarray) -> TopDown:
    """The token regions as the token reader sees them (straightened at twice the tokens'
    scale, then averaged down: see pipeline.Views)."""
    return TopDown.of(frame, pose_maps, gains).scaled(0.5)


def token_regions_seen(frame: object, profile: Profile, pose: BoardPose | None = None) -> TopDown:
    """The profile's token regions in one frame, found afresh (or where `pose` says),
    straightened and white-balanced as the token reader sees them (`BoardNotFound` without the
    markers)."""
    from .tokens import TOKEN_PX_PER_MM

    image = as_bgr(frame)
    regions = [r for r in profile.regions if r.holds == "tokens"]
    if not regions:
        raise VisionError(f"the board profile {profile.name!r} has no places for pieces")
    pose = pose or BoardLocator(profile).locate(image)
    maps = Straightening.of(pose, regions, 2 * TOKEN_PX_PER_MM)
    return token_view(image, maps, white_gains(image, paper_points(pose, profile)))


def dice_straightening(pose: BoardPose, profile: Profile) -> Straightening | None:
    """Where each pixel of the dice regions' view on the board's own plane comes from, for this
    pose (None: no dice regions). A region above the board (a tower's pillars) is in it where it
    lies on the mat, as the empty board (seen without the towers) shows it; it is not compared."""
    regions = [replace(r, height=0.0) for r in profile.regions if r.holds == "dice"]
    return Straightening.of(pose, regions, DICE_PX_PER_MM, profile.die_mm) if regions else None


ALIGN_MM = 1.0
"""How far apart the print may lie in a frame and in the empty board (each placed by its own
markers: a pixel of the frame is 1-1.5 mm of the board)."""


def capture(frame: object, profile: Profile) -> EmptyBoard:
    """The empty board from one frame of it: its token regions and its dice regions
    (`BoardNotFound` without its markers; `VisionError` for a profile with neither)."""
    image = as_bgr(frame)
    has_tokens = any(r.holds == "tokens" for r in profile.regions)
    if not has_tokens and not any(r.holds == "dice" for r in profile.regions):
        raise VisionError(f"the board profile {profile.name!r} has no places for pieces or dice")
    pose = BoardLocator(profile).locate(image)
    tokens = token_regions_seen(image, profile, pose).image if has_tokens else np.zeros((0, 0, 3), np.uint8)
    maps = dice_straightening(pose, profile)
    dice = (
        None
        if maps is None
        else TopDown.of(image, maps, white_gains(image, paper_points(pose, profile))).image
    )
    return EmptyBoard(profile.name, tokens, dice)


def changed_share(seen: TopDown, empty: np.ndarray, at_mm: tuple[float, float], die_mm: float) -> float:
    """The share of what is seen at `at_mm` (a disc half a die across: inside a die's top face
    however it is turned) that differs from the empty board there. A die hides the board under
    it: its face, pips and shading differ from it nearly everywhere; a numeral or a letter
    printed on the board (which the dice reader may take for a die's face) differs from it
    nowhere. The frame and the empty board are placed by markers found in each: their print
    may lie a pixel apart, so a pixel differs only when it differs from the empty board
    everywhere within ALIGN_MM of it. The light is matched on the ring round it (one to one and
    a half dice out: the board beside the die, its shadow mostly nearer), and what differs is
    measured against how much the ring itself does."""
    s, (ox, oy) = seen.px_per_mm, seen.origin_mm
    cx, cy = (at_mm[0] - ox) * s, (at_mm[1] - oy) * s
    reach, slack = int(np.ceil(1.5 * die_mm * s)), int(np.ceil(ALIGN_MM * s))
    h, w = seen.image.shape[:2]
    r0, c0 = max(slack, int(cy) - reach), max(slack, int(cx) - reach)
    r1, c1 = min(h - slack, int(cy) + reach + 1), min(w - slack, int(cx) + reach + 1)
    if r1 - r0 < 3 or c1 - c0 < 3 or empty.shape[:2] != seen.image.shape[:2]:
        return 1.0
    here = cv2.cvtColor(np.ascontiguousarray(seen.image[r0:r1, c0:c1]), cv2.COLOR_BGR2LAB).astype(np.float32)
    board = cv2.cvtColor(
        np.ascontiguousarray(empty[r0 - slack : r1 + slack, c0 - slack : c1 + slack]), cv2.COLOR_BGR2LAB
    ).astype(np.float32)
    ys, xs = np.mgrid[r0:r1, c0:c1]
    distance = np.hypot(xs - cx, ys - cy) / s
    ring, face = (distance > die_mm) & (distance <= 1.5 * die_mm), distance <= die_mm / 4
    if not ring.any() or not face.any():
        return 1.0
    under = board[slack:-slack, slack:-slack] if slack else board
    shift = np.median((here - under)[ring], axis=0)
    residual = np.full(here.shape[:2], np.inf, np.float32)
    for dy in range(-slack, slack + 1):
        for dx in range(-slack, slack + 1):
            near = board[slack + dy : slack + dy + here.shape[0], slack + dx : slack + dx + here.shape[1]]
            residual = np.minimum(residual, np.linalg.norm(here - near - shift, axis=-1))
    limit = max(CHANGED, 2 * float(np.median(residual[ring])))
    return float(np.mean(residual[face] > limit))


def save_empty_board(board: EmptyBoard, path: Path) -> None:
    """The token regions at `path`, the dice regions beside it (`dice_path`), each written whole
    or not at all (a power cut keeps the one before)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for image, where in ((board.image, path), (board.dice, dice_path(path))):
        if image is None or not image.size:
            where.unlink(missing_ok=True)
            continue
        ok, data = cv2.imencode(".png", image)
        if not ok:
            raise VisionError(f"could not encode the empty board for {where}")
        temporary = where.with_name(where.name + ".part")
        temporary.write_bytes(data.tobytes())
        temporary.replace(where)


def load_empty_board(path: Path, profile: Profile) -> EmptyBoard:
    """A saved empty board (`VisionError` when it cannot be read; the reader checks that it
    fits the profile's regions)."""
    images = []
    for where in (path, dice_path(path)):
        try:
            images.append(decode(where.read_bytes()) if where.is_file() else None)
        except OSError as error:
            raise VisionError(f"cannot read the empty board {where}: {error.strerror}") from error
    tokens, dice = images
    return EmptyBoard(profile.name, tokens if tokens is not None else np.zeros((0, 0, 3), np.uint8), dice)


def reference_path(data_dir: Path, profile: str) -> Path:
    """Where the empty board of a profile is kept in the data directory."""
    return data_dir / "empty-boards" / f"{profile}.png"


def dice_path(path: Path) -> Path:
    """Where the dice regions of the empty board kept at `path` are."""
    return path.with_name(f"{path.stem}-dice.png")


def kept_empty_board(data_dir: Path, profile: Profile) -> EmptyBoard | None:
    """The empty board kept in `data_dir` for this profile, if one was seen."""
    path = reference_path(data_dir, profile.name)
    return load_empty_board(path, profile) if path.is_file() or dice_path(path).is_file() else None


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
