"""Vision scored the way `companion vision eval` scores it: on the rendered Am'harb
recordings committed under tests/recordings (made by `vision.make_recordings` with seeds
never used while tuning) and on the real dice photos of ../shared (only the frames the
dice networks were not trained on: every 5th labelled frame)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from vision.dice import DiceReader
from vision.evaluate import evaluate, table_reader

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


@pytest.mark.parametrize(("recording", "accuracy"), [("byler-dev", 0.99), ("webcam-dev", 0.97)])
def test_real_dice_never_trained_on(recording: str, accuracy: float) -> None:
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
