"""What vision reports: frozen values, in frame pixels unless a name says otherwise."""

from __future__ import annotations

from dataclasses import dataclass, field

RECORDING_FORMAT = "table-recording/1"
"""The recorded-camera format (../shared/design/recording-format.md): written by `companion
record`, replayed by hardware/camera.py, scored by vision/evaluate.py."""


class VisionError(ValueError):
    """A frame vision cannot read at all (wrong type, empty, corrupt)."""


class BoardNotFound(VisionError):
    """Too few board markers are visible to place the board."""


@dataclass(frozen=True)
class DieReading:
    kind: str
    """d4, d6 or d12."""
    value: int
    center: tuple[float, float]
    size: float
    """Side of the die in pixels, as seen."""
    confidence: float
    """0..1: the detector's belief that a die is here, times its belief in the value."""
    color: str | None = None
    region: str | None = None


@dataclass(frozen=True)
class BoardPose:
    """Where the board lies in the frame."""

    homography: tuple[float, ...]
    """Row-major 3x3 matrix mapping board millimetres to frame pixels."""
    markers: tuple[int, ...]
    """Marker ids that were seen."""
    error_px: float
    """Mean reprojection error of the marker corners."""


@dataclass(frozen=True)
class DiscStack:
    region: str
    color: str | None
    discs: tuple[int, ...]
    """Disc sizes bottom to top (4 = largest)."""
    confidence: float


@dataclass(frozen=True)
class TokenSighting:
    region: str
    kind: str
    color: str | None
    center: tuple[float, float]
    confidence: float


@dataclass(frozen=True)
class Observation:
    dice: tuple[DieReading, ...] = ()
    stacks: tuple[DiscStack, ...] = ()
    tokens: tuple[TokenSighting, ...] = ()
    pose: BoardPose | None = None
    settled: bool = True
    timings_ms: dict[str, float] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Route:
    """A way across the board to draw on the camera picture (a Beast's plotted path, the
    places it moved through): region names in order, with a label at the start."""

    label: str
    regions: tuple[str, ...]
    planned: bool = False
    """A plan (a thin line) rather than a move to make on the table (arrows)."""
