"""The companion's settings: embedded defaults, overridden by an optional TOML file.

`make run` needs no file at all: a replayed recording as the camera and mock pins. On a Pi,
`firmware/install.sh` leaves the defaults too: `auto` finds the Pi camera and the Pi's pins.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from companion.access import AccessError, check_pin
from companion.games.codec import CodecError, from_json
from hardware.panel import PinMapError, load_pinmap

REPO = Path(__file__).resolve().parents[1]
DEMO_REPLAY = REPO / "data" / "demo-amharb-4p"
"""A whole rendered game (`python -m companion.demo`; `make run` makes it on first use)."""
TEST_REPLAY = REPO / "tests" / "recordings" / "amharb-4p"


def default_replay() -> str:
    """The demo game when it has been made, else the committed recording of random tables."""
    return str(DEMO_REPLAY if (DEMO_REPLAY / "recording.json").exists() else TEST_REPLAY)


BACKENDS = ("auto", "picamera", "opencv", "replay", "none")
PIN_FACTORIES = ("auto", "mock", "native")


class SettingsError(ValueError):
    """A settings file that cannot be used: the message names the key."""


@dataclass(frozen=True)
class CameraSettings:
    backend: str = "auto"
    """auto: the Pi camera if there is one, else the replayed recording; none: no camera."""
    device: int | str = 0
    """opencv: the webcam's index or device path."""
    width: int = 1280
    height: int = 960
    full_width: int = 2560
    full_height: int = 1920
    """picamera: the still taken once the table is still, to read small dice from (the same
    view as width x height, more pixels; 0: none)."""
    fps: float = 10.0
    timeout_s: float = 2.0
    focus_m: float = 0.0
    """picamera with autofocus (Camera Module 3): fixed focus at this distance; 0: autofocus."""
    replay: str = field(default_factory=default_replay)
    """replay: a table-recording/1 folder."""
    replay_speed: float = 1.0
    loop: bool = True


@dataclass(frozen=True)
class PanelSettings:
    pins: str = "auto"
    """auto: the Pi's pins on a Raspberry Pi, mock pins elsewhere; mock; native."""
    pinmap: dict[str, Any] = field(default_factory=dict)
    """Overrides of hardware/pinmap.toml, same keys."""


@dataclass(frozen=True)
class AccessSettings:
    pin: str = ""
    """The table PIN (4 to 8 digits) that pairs a phone without the panel; empty: one is made
    up on first start, kept in DATA_DIR/access.json and printed when the companion starts."""


@dataclass(frozen=True)
class Settings:
    camera: CameraSettings = CameraSettings()
    panel: PanelSettings = PanelSettings()
    access: AccessSettings = AccessSettings()


def _section(kind: type[Any], data: Any, name: str) -> Any:
    """One [section] decoded by the settings' own type hints (the games' JSON codec)."""
    if not isinstance(data, dict):
        raise SettingsError(f"[{name}] must be a table")
    known = {f.name: str(f.type) for f in fields(kind)}
    for key, value in data.items():
        if key not in known:
            raise SettingsError(f"[{name}] has no setting {key!r}; known: {', '.join(known)}")
        try:
            from_json(kind, {key: value})
        except CodecError as error:
            raise SettingsError(f"[{name}] {key} = {value!r}: expected {known[key]}") from error
    return from_json(kind, data)


def load_settings(path: Path | None, required: bool = False) -> Settings:
    """The settings in `path` (none, or a missing file: the defaults, unless the user named the
    file and so `required` it: a mistyped path must not quietly mean "defaults")."""
    if path is None or not path.exists():
        if required:
            raise SettingsError(f"no settings file {path}")
        return Settings()
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise SettingsError(f"cannot read the settings {path}: {error}") from error
    unknown = set(data) - {"camera", "panel", "pinmap", "access"}
    if unknown:
        raise SettingsError(f"{path}: unknown section(s) {', '.join(sorted(unknown))}")
    camera = _section(CameraSettings, data.get("camera", {}), "camera")
    access = _section(AccessSettings, data.get("access", {}), "access")
    if access.pin:
        try:
            check_pin(access.pin)
        except AccessError as error:
            raise SettingsError(f"[access] pin: {error}, not {access.pin!r}") from error
    if isinstance(data.get("panel"), dict) and "pinmap" in data["panel"]:
        raise SettingsError("pin overrides go in their own [pinmap] section, not in [panel]")
    panel = _section(PanelSettings, data.get("panel", {}), "panel")
    if "pinmap" in data:
        if not isinstance(data["pinmap"], dict):
            raise SettingsError("[pinmap] must be a table of pin overrides")
        panel = PanelSettings(pins=panel.pins, pinmap=data["pinmap"])
    if camera.backend not in BACKENDS:
        raise SettingsError(f"[camera] backend is one of {', '.join(BACKENDS)}, not {camera.backend!r}")
    if panel.pins not in PIN_FACTORIES:
        raise SettingsError(f"[panel] pins is one of {', '.join(PIN_FACTORIES)}, not {panel.pins!r}")
    for key in ("width", "height", "fps", "timeout_s"):
        if getattr(camera, key) <= 0:
            raise SettingsError(f"[camera] {key} must be more than 0, not {getattr(camera, key)!r}")
    if camera.full_width or camera.full_height:
        if (
            camera.full_width <= camera.width
            or abs(camera.full_height / max(camera.full_width, 1) - camera.height / camera.width) > 0.01
        ):
            raise SettingsError(
                f"[camera] full_width x full_height ({camera.full_width}x{camera.full_height}) is a larger "
                f"picture of the same shape as width x height ({camera.width}x{camera.height}), or 0 x 0"
            )
    for key in ("replay_speed", "focus_m"):
        if getattr(camera, key) < 0:
            raise SettingsError(f"[camera] {key} must be 0 or more, not {getattr(camera, key)!r}")
    try:
        load_pinmap(override=panel.pinmap)  # a typo in [pinmap] is found now, not at the table
    except PinMapError as error:
        raise SettingsError(f"[pinmap]: {error}") from error
    return Settings(camera, panel, access)
