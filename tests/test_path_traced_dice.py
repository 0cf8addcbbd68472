"""The path-traced dice scenes (vision/training/path_traced_dice.py): the truth the networks
learn from is where each die's top face lands in the picture and its value, so the geometry is
checked here without Blender (the renders themselves need .venv-blender)."""

from __future__ import annotations

import math

import numpy as np

from vision.training.path_traced_dice import SIZE, look_at, project, scene


def test_a_camera_straight_above_sees_its_target_in_the_middle_at_the_size_a_pinhole_gives() -> None:
    camera = look_at(np.array([0.0, 0.0, 300.0]), np.zeros(3), roll=0.0)
    f = (SIZE[0] / 2) / math.tan(math.radians(60) / 2)
    middle, east, north = project(camera, 60.0, np.array([[0, 0, 0], [16, 0, 0], [0, 16, 0]]))
    assert np.allclose(middle, (SIZE[0] / 2, SIZE[1] / 2))
    assert math.isclose(np.linalg.norm(east - middle), 16 * f / 300, rel_tol=1e-9)
    assert north[1] < middle[1]  # north is up the picture for an unrolled camera looking down


def test_a_tilted_camera_still_looks_at_its_target_and_nearer_things_are_larger() -> None:
    eye = np.array([0.0, -200.0, 250.0])
    camera = look_at(eye, np.zeros(3), roll=0.7)
    middle, near, far = project(camera, 50.0, np.array([[0, 0, 0], [0, -60, 0], [0, 60, 0]]))
    assert np.allclose(middle, (SIZE[0] / 2, SIZE[1] / 2))
    side = project(camera, 50.0, np.array([[0, -60, 0], [10, -60, 0], [0, 60, 0], [10, 60, 0]]))
    assert np.linalg.norm(side[1] - side[0]) > np.linalg.norm(side[3] - side[2])
    assert not np.allclose(near, far)


def test_scenes_are_the_same_for_a_seed_dice_never_overlap_and_every_label_is_in_the_picture() -> None:
    first = [scene(np.random.default_rng(s), f"{s:05d}") for s in range(30)]
    again = [scene(np.random.default_rng(s), f"{s:05d}") for s in range(30)]
    assert first == again
    labelled = 0
    for spec, truth in first:
        dice = spec["dice"]
        for i, a in enumerate(dice):
            for b in dice[i + 1 :]:
                # a cube turned any way stays within its circumscribed circle (side / sqrt 2)
                gap = math.dist(a["at"][:2], b["at"][:2])
                assert gap >= (a["size"] + b["size"]) / math.sqrt(2)
        assert len(truth["dice"]) <= len(dice)
        for die in truth["dice"]:
            x, y = die["center"]
            assert 0 <= x < SIZE[0] and 0 <= y < SIZE[1] and 1 <= die["value"] <= 6
        labelled += len(truth["dice"])
        if truth["dice"]:
            assert 15 <= truth["die_px"] <= 90
    assert labelled >= 150
