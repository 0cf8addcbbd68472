"""Tower tables path-traced by Blender's Cycles (tests/blender_tower.py; `make render-tables`
makes them again): wooden meeples, card material tokens, cut gems (glassy at half the tables),
the palace's stacked segments, on a painted play mat with brown-framed stall spaces, a wooden
counter and the tableaus' dark borders and labels, under real lamps. Nothing in vision/ was
tuned on this renderer; docs/vision.md says what was read when.

Each table is read with its empty mat and the meeples' colours the game has in play (the
builders', the stand-in's yellow, the runner's red, the guard's white: companion/games/tower/
sight.py). The floors are the figures measured, less 2 (false readings: plus 2)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.blender_tower import CITIZENS, SEGMENT_MM, tower_table
from tests.blender_turris import BOARD_THICK_MM
from tests.test_vision_blender_turris import read_by_kind
from vision.profiles import load_profile

FLOORS: dict[str, dict[str, int]] = {
    # recording: per kind the fewest pieces right, and the most false readings, of 12 tables
    # (dev: 226 materials, 53 meeples, 267 gems, 11 segments; unseen: 224, 52, 194, 8). Measured
    # when first read 209, 24, 140, 6, 17 false and (never looked at) 205, 22, 81, 3, 13 false;
    # since a piece's blurred edge is unmixed in linear light 212, 37, 193, 5, 12 false and 206,
    # 32, 144, 4, 13 false; since meeples are oblong and their lit sides theirs 212, 45, 193, 5,
    # 12 and 206, 42, 144, 4, 15 (docs/vision.md). Fresh (232, 65, 251, 12), rendered after
    # those changes were made and read once with them: 203, 53, 188, 11, 28 false. Meeples 47/53
    # and 44/52 (fresh 53) since touching pieces of one colour are cut at their waist; materials
    # 217, 213 (fresh 217), false 14, 15 (fresh 34) since a card's pixels named a colour no card
    # comes in are named among the cards' (`named_in_their_places`); gems 199, 147 (fresh 194),
    # false 14, 15 (fresh 32) since a gem is 6 mm tall, its shaded facets its own; gems 209, 158
    # (fresh 200), false 19, 15 (fresh 31) since a pixel far darker than any shadow is dark plastic;
    # gems 257, 187 (fresh 232), false 16, 18 (fresh 33) since a gem is named by what it passes of
    # the board's light (`as_glass`). Meeples unseen 48 since a piece in its own shade is known by
    # its outline and lit cap (`shaded_by_outline`).
    "blender-tower-dev": {"material": 215, "meeple": 45, "gem": 254, "segment": 3, "false": 19},
    "blender-tower-unseen": {"material": 211, "meeple": 46, "gem": 184, "segment": 2, "false": 21},
    "blender-tower-fresh": {"material": 215, "meeple": 51, "gem": 229, "segment": 9, "false": 35},
}


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_path_traced_tower_tables_read_no_worse_than_measured(name: str) -> None:
    figures, false = read_by_kind(name, CITIZENS)
    floors = FLOORS[name]
    for kind, (right, _) in figures.items():
        assert right >= floors[kind], (kind, figures)
    assert false <= floors["false"], (false, figures)


def test_a_tower_scene_is_what_its_truth_says() -> None:
    """Every piece lies in its place: a 20 mm card for each material, a meeple standing for each
    meeple, a 10 mm gem for each gem, the palace's top segment the colour read; gems never
    overlap; everything rests on the mat or on the segment below."""
    profile = load_profile("tower")
    table = tower_table(profile, 3)
    solids = table.scene["solids"]
    shapes = {"material": "box", "meeple": "meeple", "gem": "gem"}
    for kind, shape in shapes.items():
        mine = [s for s in solids if s["kind"] == shape]
        truth = [t for t in table.truth["tokens"] if t["kind"] == kind]
        assert len(mine) == len(truth) > 0, kind
        for piece in truth:
            region = profile.region(piece["region"])
            assert any(region.contains(tuple(s["centre"])) for s in mine), piece
    gems = np.array([s["centre"] for s in solids if s["kind"] == "gem"])
    gaps = np.hypot(*(gems[:, None] - gems[None]).transpose(2, 0, 1))
    assert (gaps[~np.eye(len(gems), dtype=bool)] >= 10.0).all()
    segments = sorted((s for s in solids if s["kind"] == "cylinder"), key=lambda s: s["z"])
    assert [s["z"] for s in segments] == [BOARD_THICK_MM + k * SEGMENT_MM[1] for k in range(len(segments))]
    assert all(s["z"] == BOARD_THICK_MM for s in solids if s["kind"] != "cylinder")
    assert {t["color"] for t in table.truth["tokens"] if t["kind"] == "meeple"} <= set(CITIZENS)
