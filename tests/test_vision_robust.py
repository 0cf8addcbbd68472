"""Bad input never crashes vision and never reads garbage: a typed error or an empty reading."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from vision.dice import DiceReader
from vision.frames import as_bgr, decode, load
from vision.motion import Agreement, StillnessConfig, StillnessGate
from vision.types import VisionError

REAL = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "real-dice" / "byler-dev"


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader()


@given(
    arrays(
        st.sampled_from([np.uint8, np.uint16, np.float32, np.int64, np.bool_]),
        array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=24),
    )
)
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_any_array_is_a_frame_or_a_clear_error(frame: np.ndarray) -> None:
    try:
        image = as_bgr(frame)
    except VisionError as error:
        assert str(error)
    else:
        assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3


@pytest.mark.parametrize("thing", [None, "frame.jpg", [[1, 2], [3, 4]], b"\xff\xd8"])
def test_things_that_are_not_arrays(thing: object) -> None:
    with pytest.raises(VisionError):
        as_bgr(thing)


@given(st.binary(max_size=2048))
@settings(max_examples=200)
def test_random_bytes_do_not_decode_into_garbage(data: bytes) -> None:
    with pytest.raises(VisionError):
        decode(data)


def test_truncated_and_missing_jpegs(tmp_path: Path, reader: DiceReader) -> None:
    data = (REAL / "IMG_20191208_111228.jpg").read_bytes()
    with pytest.raises(VisionError):
        decode(b"")
    with pytest.raises(VisionError, match="cannot read"):
        load(tmp_path / "nope.jpg")
    for cut in (200, len(data) // 2):
        try:
            image = decode(data[:cut])
        except VisionError:
            continue
        # A half-received JPEG decodes with its missing part grey: whatever is read there
        # is from real pixels, and nothing crashes.
        reader.read(image)


@pytest.mark.parametrize(
    "frame",
    [
        np.zeros((480, 640, 3), np.uint8),
        np.full((480, 640, 3), 255, np.uint8),
        np.full((960, 1280, 3), 6, np.uint8),
        np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8),
        np.full((20, 20), 128, np.uint8),
    ],
    ids=["black", "white", "very-dark", "noise", "tiny-grey"],
)
def test_featureless_frames_read_no_dice(frame: np.ndarray, reader: DiceReader) -> None:
    assert reader.read(frame) == ()


def test_a_dark_real_photo_reads_nothing_false(reader: DiceReader) -> None:
    image = cv2.imread(str(REAL / "IMG_20191208_111228.jpg"))
    dark = (image.astype(np.float32) * 0.03).astype(np.uint8)
    # Nearly black: either no dice, or dice at their real places; never a pile of ghosts.
    assert len(reader.read(dark)) <= len(reader.read(image))


def test_stillness_gate_waits_for_a_settled_table() -> None:
    gate = StillnessGate(StillnessConfig(settle_frames=2))
    table = np.full((480, 640, 3), 120, np.uint8)
    hand = table.copy()
    cv2.circle(hand, (320, 240), 120, (40, 60, 90), -1)
    assert [gate.update(f) for f in (table, hand, table, table, table)] == [False, False, False, False, True]
    noisy = np.clip(table + np.random.default_rng(1).normal(0, 3, table.shape), 0, 255).astype(np.uint8)
    assert gate.update(noisy) is True  # sensor noise is not motion


def test_agreement_needs_k_equal_readings() -> None:
    vote = Agreement(k=3)
    assert [vote.update(x) for x in ("a", "a", "b", "a", "a", "a")] == [
        False,
        False,
        False,
        False,
        False,
        True,
    ]
