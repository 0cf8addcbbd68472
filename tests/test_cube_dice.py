"""The training frames of dice drawn as cubes (vision/training/cube_dice.py): the truth it
gives the networks is where the dice are and what their top faces show."""

from __future__ import annotations

import numpy as np

from vision.render import PIPS
from vision.training.cube_dice import SIZE, _decoy, _die, _look, _round_thing, cubes


def test_the_frames_are_the_same_for_a_seed_and_the_dice_never_overlap() -> None:
    first, again = cubes(12, 7), cubes(12, 7)
    assert all(np.array_equal(a.image, b.image) for a, b in zip(first, again))
    for frame in first:
        assert frame.image.shape == (SIZE, SIZE, 3)
        assert 24 <= frame.die_px <= 44
        assert set(frame.values.tolist()) <= set(range(1, 7))
        assert ((frame.centers >= 0) & (frame.centers < SIZE)).all()
        gaps = [np.linalg.norm(a - b) for i, a in enumerate(frame.centers) for b in frame.centers[i + 1 :]]
        assert min(gaps, default=np.inf) > 1.7 * frame.die_px


def test_things_that_are_not_dice_lie_apart_from_the_dice() -> None:
    """The decoys (polyhedral dice, coins, snaps) are where the detector is
    taught there is no die (no centre heat is drawn for them): each must lie away from every
    labelled die, or it would be taught that a die beside one is none."""
    frames = cubes(40, 11)
    assert sum(len(f.decoys) for f in frames) >= 20
    for frame in frames:
        for x, y, size in frame.decoys:
            assert 0 <= x < SIZE and 0 <= y < SIZE and 0.25 * frame.die_px <= size <= 1.6 * frame.die_px
            assert all(np.hypot(x - cx, y - cy) > 1.7 * frame.die_px for cx, cy in frame.centers)


def test_a_coins_glint_is_on_its_rim_not_in_its_middle() -> None:
    """A white spot in the middle of a round thing is what a die showing 1 looks like: the
    drawn coin's middle stays its own colour, its glint lies on the rim."""
    for glint in range(0, 360, 45):
        image = np.full((120, 120, 3), 128, np.float32)
        _round_thing(image, np.array([60.0, 60.0]), 40.0, (90.0, 140.0, 170.0), float(glint))
        white = np.argwhere((image > 240).all(axis=2))
        assert len(white) > 10
        assert np.hypot(*(white - 60).T).min() > 0.35 * 40
        assert (image[50:71, 50:71] == (90.0, 140.0, 170.0)).all()


def test_each_kind_of_decoy_is_drawn_where_it_is_said_to_be() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        image = np.full((120, 120, 3), 128, np.float32)
        size = _decoy(image, rng, np.array([60.0, 60.0]), 36.0, _look(rng))
        changed = np.abs(image - 128).max(axis=2) > 8
        ys, xs = np.nonzero(changed)
        assert len(xs) and abs(xs.mean() - 60) < 0.3 * size + 3 and abs(ys.mean() - 60) < 0.5 * size + 3


def test_the_top_face_shows_the_value_where_the_label_is() -> None:
    """Whatever the slant (up to 25 degrees here) and turn, the top face's middle lands where
    the label says and shows as many pips as the value: counted on dice light with dark pips
    and dark with light ones."""
    import cv2

    rng = np.random.default_rng(0)
    for value in range(1, 7):
        for body, ink in (
            ((230.0, 230.0, 230.0), (20.0, 20.0, 20.0)),
            ((40.0, 30.0, 140.0), (240.0, 240.0, 240.0)),
        ):
            image = np.full((120, 120, 3), 128, np.float32)
            look = _look(rng) | {
                "colour": body,
                "ink": ink,
                "style": "solid",
                "emblems": {},
                "pip": 0.16,
                "pitch": 0.45,
            }
            slant, azimuth = float(np.radians(rng.uniform(0, 25))), float(rng.uniform(0, 2 * np.pi))
            _die(image, rng, np.array([60.0, 60.0]), 40.0, value, look, slant, azimuth)
            face = image[44:77, 44:77].mean(axis=2)  # the top face, corner pips 13 px out
            yy, xx = np.mgrid[-16:17, -16:17]
            inside = np.hypot(xx, yy) <= 16.5  # inside the top face however it is turned
            pips = inside & ((face < 90) if body[0] > 128 else (face > 200))
            count = cv2.connectedComponentsWithStats(pips.astype(np.uint8))[0] - 1
            assert count == value, (value, body, np.degrees(slant))
    assert set(PIPS) == set(range(1, 7)) and all(len(PIPS[v]) == v for v in PIPS)
