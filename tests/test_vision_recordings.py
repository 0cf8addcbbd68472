"""Vision scored the way `companion vision eval` scores it: on the rendered Am'harb
recordings committed under tests/recordings (made by `vision.make_recordings` with seeds
never used while tuning) and on the real dice photos of ../shared (only the frames the
dice networks were not trained on: every 5th labelled frame)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dice import DiceReader
from vision.evaluate import die_correct, evaluate, match_dice, table_reader

RECORDINGS = Path(__file__).resolve().parent / "recordings"
REAL_DICE = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "real-dice"
HELD_OUT = 5
"""vision/training holds out every 5th labelled frame of each real recording."""


@pytest.fixture(scope="module")
def rendered() -> dict:
    result, _ = evaluate(RECORDINGS, table_reader())
    return result


def test_every_rendered_frame_finds_its_board(rendered: dict) -> None:
    assert rendered["frames"] == rendered["frames_scored"] == 30
    assert len(rendered["recordings"]) == 4


def test_disc_stacks_on_rendered_tables(rendered: dict) -> None:
    stacks = rendered["stacks"]
    assert stacks["truth"] > 250
    assert stacks["accuracy"] >= 0.995  # the target


def test_tokens_on_rendered_tables(rendered: dict) -> None:
    tokens = rendered["tokens"]
    assert tokens["truth"] > 400
    assert tokens["accuracy"] >= 0.995
    assert tokens["false_positives"] <= 0.005 * tokens["truth"]


@pytest.mark.parametrize(("recording", "accuracy"), [("byler-dev", 0.97), ("webcam-dev", 0.97)])
def test_real_dice_never_trained_on(recording: str, accuracy: float) -> None:
    """The held-out frames of the development sets. Byler: 296/304 with the networks trained with
    dice drawn as cubes (2026-11-26, fourth session: 3-D dice where they lie on the pinhole
    tables 55 -> 102/109 on Arkhanos, pxl-trays held out 172 -> 217/249, a set never trained on
    148/150 either way); 300/304 with the face reader before them, 302/304 before that (which
    read a dice set it never saw at 76%: test_vision_teach_dice.py)."""
    result, misses = evaluate(REAL_DICE / recording, table_reader(), every=HELD_OUT)
    dice = result["dice"]
    assert result["frames_scored"] >= 13
    assert dice["correct"] / dice["truth"] >= accuracy, [m.what for m in misses]
    assert dice["false_positives"] <= 0.01 * dice["truth"] + 1


@pytest.mark.parametrize("zoom", [0.6, 2.5])
def test_dice_of_any_size_in_the_frame(zoom: float) -> None:
    """The same held-out photos shrunk or enlarged (dice of about 22 or 95 px): the reader
    measures the dice first and reads them at the size it knows."""
    reader = DiceReader()
    folder = REAL_DICE / "byler-dev"
    frames = [f for f in json.loads((folder / "recording.json").read_text())["frames"] if f.get("truth")]
    right = total = 0
    for frame in frames[::HELD_OUT][:8]:
        image = cv2.imread(str(folder / frame["file"]))
        image = cv2.resize(image, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_AREA)
        truth = sorted(d["value"] for d in frame["truth"]["dice"])
        read = sorted(d.value for d in reader.read(image))
        total += len(truth)
        right += sum(min(truth.count(v), read.count(v)) for v in set(truth))
    assert right / total >= 0.95


def whole_table(
    image: np.ndarray, die_px: float, rng: np.random.Generator
) -> tuple[np.ndarray, float, tuple]:
    """The photo shrunk so that its dice are 20-34 px and laid on a 1280x960 table (a camera a
    metre above a whole table): the image, the shrink factor and where the photo's corner lies."""
    k = rng.uniform(20, 34) / die_px
    small = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    table = np.full((960, 1280, 3), rng.uniform(60, 160, 3), np.float32)
    table += cv2.resize(rng.normal(0, 12, (60, 80, 1)).astype(np.float32), (1280, 960))[..., None]
    h, w = small.shape[:2]
    x0, y0 = int(rng.uniform(0, 1280 - w)), int(rng.uniform(0, 960 - h))
    table[y0 : y0 + h, x0 : x0 + w] = small
    return np.clip(table, 0, 255).astype(np.uint8), k, (x0, y0)


def test_small_dice_in_a_whole_table_frame() -> None:
    """Held-out photos with their dice at 20-34 px in a 1280x960 frame: the first look (at 512
    px) shrinks them below what the networks know, so the reader looks finer (issue 18: 29% of
    such dice were read before)."""
    reader = DiceReader()
    folder = REAL_DICE / "byler-dev"
    rng = np.random.default_rng(5)
    frames = [f for f in json.loads((folder / "recording.json").read_text())["frames"] if f.get("truth")]
    truth_count = right = false = 0
    for frame in frames[::HELD_OUT][:16]:
        table, k, (x0, y0) = whole_table(cv2.imread(str(folder / frame["file"])), 40.0, rng)
        truth = [
            {**d, "center": [d["center"][0] * k + x0, d["center"][1] * k + y0]}
            for d in frame["truth"]["dice"]
        ]
        pairs, _, extra = match_dice(truth, reader.read(table))
        truth_count += len(truth)
        right += sum(die_correct(t, r) for t, r in pairs)
        false += len(extra)
    assert right / truth_count >= 0.97
    assert false <= 0.01 * truth_count + 1


@pytest.mark.parametrize("photo", ["five_39.jpg", "six_7.jpg"])
def test_one_die_is_read_once(photo: str) -> None:
    """On the oblique webcam photos a die's side face or the die itself was found a second
    time, weaker, beside the first find: each labelled die has exactly one reading on it."""
    folder = REAL_DICE / "webcam-dev"
    frames = json.loads((folder / "recording.json").read_text())["frames"]
    frame = next(f for f in frames if f["file"] == photo)
    readings = DiceReader().read(cv2.imread(str(folder / photo)))
    for die in frame["truth"]["dice"]:
        (x, y) = die["center"]
        on_it = [r for r in readings if (r.center[0] - x) ** 2 + (r.center[1] - y) ** 2 < r.size**2]
        assert len(on_it) == 1, (die, on_it)
