"""Small dice read from the camera's full-resolution still (issue 18, item 5): a camera high
above a whole table sees a 16 mm die as 10-14 px; the reader reads dice at 24 px, so the frame
has to be enlarged, which makes up no detail. Once the table is still, the camera takes the same
view at full resolution, and the dice are read from its real pixels.

The scene: real photos of real dice (byler-dev, frames the networks were not trained on) laid
in a 30 cm tray at their true size, photographed by the pinhole camera of tests/pinhole.py at
1280x960 and, from the same place, at 2560x1920."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.pinhole import PLANE_PX_PER_MM, Shot, camera, paste_markers, photograph
from tests.test_vision_recordings import HELD_OUT, REAL_DICE
from vision.evaluate import die_correct, match_dice
from vision.pipeline import TableReader
from vision.profiles import Profile, parse_profile

PHOTO_DIE_PX = 40.0
"""How wide a die is in the byler-dev photos (640x640)."""


TRAY_TOML = """format = "board-profile/1"
name = "square-tray"
size = [280.0, 280.0]
die_mm = 16

[markers]
dictionary = "4X4_50"
size = 40

[markers.positions]
0 = [-30.0, -30.0]
1 = [310.0, -30.0]
2 = [310.0, 310.0]
3 = [-30.0, 310.0]

[[regions]]
name = "tray"
holds = "dice"
polygon = [[0.0, 0.0], [280.0, 0.0], [280.0, 280.0], [0.0, 280.0]]
"""


def tray() -> Profile:
    """A square rolling area the photos fit in whole, with the marker sheet at its corners."""
    return parse_profile(tomllib.loads(TRAY_TOML))


def dice_table(
    photo_file: str, truth: list[dict], die_frame_px: float, seed: int
) -> tuple[np.ndarray, np.ndarray, list[dict]]:
    """The frame, the full-resolution still of the same moment, and the truth with centres in
    the frame's pixels. The camera is as high as makes a die `die_frame_px` wide at 1280x960."""
    profile = tray()
    rng = np.random.default_rng(seed)
    s = PLANE_PX_PER_MM
    x0, y0 = -100.0, -100.0
    width = height = int((280 + 200) * s)
    picture = np.full((height, width, 3), rng.uniform(70, 160, 3), np.float32)
    picture += cv2.resize(rng.normal(0, 10, (60, 60, 1)).astype(np.float32), (width, height))[..., None]
    photo = cv2.imread(str(REAL_DICE / "byler-dev" / photo_file))
    k = profile.die_mm * s / PHOTO_DIE_PX  # the photo at the dice's true size
    laid = cv2.resize(photo, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    at = (int((10 - x0) * s), int((10 - y0) * s))
    picture[at[1] : at[1] + laid.shape[0], at[0] : at[0] + laid.shape[1]] = laid
    picture, to_mm = paste_markers(picture, profile, [(i, xy) for i, xy in profile.markers], (x0, y0))
    focal = 1280 / 2 / np.tan(np.radians(62.2 / 2))
    shot = Shot(height_mm=focal * profile.die_mm / die_frame_px, tilt_deg=float(rng.uniform(-8, 8)))
    aim = (140.0, 140.0)
    frame = photograph(picture, to_mm, shot, aim, rng)
    still = photograph(picture, to_mm, Shot(**{**shot.__dict__, "size": (2560, 1920)}), aim, rng)
    cam = camera(shot, aim)
    seen = []
    for die in truth:
        px = np.array([die["center"][0] * k + at[0], die["center"][1] * k + at[1], 1.0])
        mm = to_mm @ px
        centre = cam.project(np.array([[mm[0], mm[1], 0.0]]))[0]
        seen.append({**die, "center": [float(centre[0]), float(centre[1])]})
    return frame, still, seen


def scores(die_frame_px: tuple[float, float], frames: int = 10) -> dict[str, float]:
    """Read held-out dice with and without the still: accuracy and false positives each way."""
    reader = TableReader(tray())
    meta = json.loads((REAL_DICE / "byler-dev" / "recording.json").read_text())
    labelled = [f for f in meta["frames"] if f.get("truth")][::HELD_OUT][:frames]
    counts = {"truth": 0, "frame": 0, "still": 0, "frame_false": 0, "still_false": 0}
    rng = np.random.default_rng(11)
    for n, f in enumerate(labelled):
        frame, still, truth = dice_table(f["file"], f["truth"]["dice"], float(rng.uniform(*die_frame_px)), n)
        counts["truth"] += len(truth)
        for way, full in (("frame", None), ("still", still)):
            pairs, _, extra = match_dice(truth, list(reader.read(frame, full=full).dice))
            counts[way] += sum(die_correct(t, r) for t, r in pairs)
            counts[f"{way}_false"] += len(extra)
    return {k: v / counts["truth"] for k, v in counts.items() if k != "truth"}


def test_small_dice_are_read_from_the_full_resolution_still() -> None:
    got = scores((10.0, 14.0))
    print(got)
    # 113/119 (0.950) with the networks trained with cube dice (2026-11-26, fourth session): 0.958
    # with the face reader before them, 0.975 before that; the frame alone 0.773 (was 0.849).
    assert got["still"] >= 0.94
    assert got["still"] > got["frame"]
    assert got["still_false"] <= 0.01


def test_a_recording_keeps_the_still_and_vision_eval_reads_the_dice_from_it(tmp_path: Path) -> None:
    """The recording format's `full` (docs/vision.md): `vision eval` reads a frame's dice from
    its still where the frame has one; truth stays in the frame's pixels."""
    from vision.evaluate import evaluate, table_reader

    meta = json.loads((REAL_DICE / "byler-dev" / "recording.json").read_text())
    labelled = [f for f in meta["frames"] if f.get("truth")][::HELD_OUT][:4]
    (tmp_path / "tray.toml").write_text(TRAY_TOML)  # the tray of tray(), as a recording names it
    scored = {}
    for with_still in (False, True):
        out = tmp_path / ("still" if with_still else "plain")
        out.mkdir()
        frames = []
        for n, f in enumerate(labelled):
            frame, still, truth = dice_table(f["file"], f["truth"]["dice"], 11.0, n)
            cv2.imwrite(str(out / f"{n}.png"), frame)
            entry = {"file": f"{n}.png", "t": float(n), "truth": {"dice": truth}}
            if with_still:
                cv2.imwrite(str(out / f"{n}-full.png"), still)
                entry["full"] = f"{n}-full.png"
            frames.append(entry)
        recording = {"format": "table-recording/1", "profile": str(tmp_path / "tray.toml"), "frames": frames}
        (out / "recording.json").write_text(json.dumps(recording))
        result, _ = evaluate(out, table_reader())
        scored[with_still] = result["dice"]["correct"] / result["dice"]["truth"]
    assert scored[True] > scored[False], scored
    assert scored[True] >= 0.9, scored


def test_a_still_of_another_shape_is_not_used_and_said_once(caplog: pytest.LogCaptureFixture) -> None:
    """A still of other proportions (a camera set wrong) would put the dice in the wrong place:
    it is ignored, the dice read from the frame, and the log says so once, not every frame."""
    meta = json.loads((REAL_DICE / "byler-dev" / "recording.json").read_text())
    f = [f for f in meta["frames"] if f.get("truth")][::HELD_OUT][0]
    frame, still, _ = dice_table(f["file"], f["truth"]["dice"], 20.0, 0)
    wrong = cv2.resize(still, (2560, 1440))
    reader = TableReader(tray())
    plain = reader.read(frame).dice
    for _ in range(3):
        assert reader.read(frame, full=wrong).dice == plain
    assert caplog.text.count("do not show what the frames show") == 1
