"""The numbered-dice renderer (vision/render_dice.py): exact solids and honest truth."""

from __future__ import annotations

import numpy as np

from vision.render_dice import NumberedDie, dodecahedron, random_dice, render_dice, tetrahedron, truth


def test_solids_have_the_right_faces() -> None:
    vertices, faces, normals = dodecahedron()
    assert len(vertices) == 20 and len(faces) == 12 and all(len(f) == 5 for f in faces)
    assert all(sum(i in f for f in faces) == 3 for i in range(20))  # three faces meet at each corner
    vertices, faces, normals = tetrahedron()
    assert len(faces) == 4 and all(len(f) == 3 and i not in f for i, f in enumerate(faces))


def test_a_die_is_drawn_where_its_truth_says() -> None:
    rng = np.random.default_rng(4)
    table = np.full((200, 300, 3), 120, np.uint8)
    die = NumberedDie("d12", 7, (100.0, 80.0), 60.0, (235, 235, 235), (20, 20, 20))
    frame = render_dice([die], (200, 300), rng, table=table)
    light = frame.mean(axis=2)
    assert np.median(light[70:91, 90:111]) > 170  # the white die's top face (its numeral is thin)
    assert 60 < light[190, 290] < 160  # bare grey table far from it (the light varies a little)
    assert truth([die]) == [{"kind": "d12", "value": 7, "color": "white", "center": [100.0, 80.0]}]


def test_random_dice_do_not_overlap() -> None:
    dice = random_dice(np.random.default_rng(1), (480, 640), 12, (35, 70))
    assert len(dice) >= 8
    for i, a in enumerate(dice):
        assert 1 <= a.value <= (12 if a.kind == "d12" else 4)
        for b in dice[i + 1 :]:
            assert np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) > 0.5 * (a.size + b.size)
