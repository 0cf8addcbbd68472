"""Yuggoth maps path-traced by Blender's Cycles (tests/blender_yuggoth.py; `make render-tables`
makes them again): the Watcher among about twenty faction figures on a painted map, under real
lamps. Nothing in vision/ was tuned on this renderer; the set was read once, when it was made
(docs/vision.md). Each table is read with its empty board and the factions' colours in play, as
the game tells the reader. The floor is the figure measured, less 1 (false: plus 1)."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tests.blender_turris import BOARD_THICK_MM
from tests.blender_yuggoth import WATCHER_BASE_MM, yuggoth_table
from tests.pinhole import dice_matched
from tests.pinhole_figures import FACTIONS
from tests.test_vision_blender_turris import RECORDINGS, read_by_kind
from vision.pipeline import TableReader
from vision.profiles import load_profile
from vision.reference import capture

FLOORS: dict[str, tuple[int, int]] = {
    # recording: (Watchers right, most false readings) of 10 maps, 5 with the Watcher: measured 4
    # and 2 (a Watcher read on a map without one, and a second beside the true one); since a
    # figure's middle must be dark (`dark_figure`, twenty-third session) 4 and 0; with pale bases
    # round dark figures read (looked at while building it) 5 and 0.
    "blender-yuggoth-dev": (4, 1),
    # 20 maps (seeds 1300-1319), 16 with the Watcher, rendered and read once (eighteenth
    # session): 13, and 4 false (one in the Area beside the true one, one a second in its Area,
    # two on maps where the Watcher stands elsewhere); with `dark_figure` 13 and 0; with pale
    # bases round dark figures (looked at while building it) 15 and 0.
    "blender-yuggoth-fresh": (14, 1),
    # 12 maps (seeds 1400-1411), all with the Watcher and with dice in the rolling area, rendered
    # and read once (twentieth session): 10, and 0 false; with `dark_figure` the same, with pale
    # bases round dark figures read 11 (looked at while building it).
    "blender-yuggoth-third": (10, 1),
    # 10 maps (seeds 1500-1509), 7 with the Watcher, with dice, rendered after the twenty-third
    # session's changes and read once: 7, and 0 false (the code before them: 6, and 3 false).
    "blender-yuggoth-fourth": (6, 1),
}


def watchers_read(name: str) -> tuple[int, int, int]:
    """Each map read with its empty board and the factions' colours (`read_by_kind`): Watchers
    right, Watchers there, Watchers read that are not there (a faction's figure or the print)."""
    kinds, false = read_by_kind(name, FACTIONS)
    right, there = kinds.get("watcher", (0, 0))
    return right, there, false


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_path_traced_watchers_read_no_worse_than_measured(name: str) -> None:
    right, _, false = watchers_read(name)
    low, most_false = FLOORS[name]
    assert right >= low and false <= most_false, (right, false)


DICE_FLOORS: dict[str, tuple[int, int]] = {
    # recording: (dice whose value is right in the rolling area, most dice read that are not
    # there): measured once when the set was made, less 1 (false: plus 1). Third set (seeds
    # 1400-1411, 43 dice of the palette's colours, 13-18 px): 42 right (40 colour too), 0 false.
    "blender-yuggoth-third": (41, 1),
    # Fourth set (seeds 1500-1509, 33 dice), read once when made: 33 right (32 colour too), 0 false.
    "blender-yuggoth-fourth": (32, 1),
}


def dice_read(name: str) -> tuple[int, int, int, int]:
    """Each map read with its empty board: dice whose value is right in the rolling area, of
    those whose colour is right too, dice there, dice read that are not there."""
    folder = RECORDINGS / name
    meta = json.loads((folder / "recording.json").read_text())
    profile = load_profile(meta["profile"])
    value = both = total = false = 0
    for frame in meta["frames"]:
        empty = capture(cv2.imread(str(folder / "empty" / frame["file"])), profile)
        seen = TableReader(profile, empty=empty).read(cv2.imread(str(folder / frame["file"])))
        truth = [(d["region"], d["color"], d["value"]) for d in frame["truth"].get("dice", [])]
        right, coloured, extra = dice_matched(truth, [(d.region, d.color, d.value) for d in seen.dice])
        value, both, total, false = value + right, both + coloured, total + len(truth), false + extra
    return value, both, total, false


@pytest.mark.parametrize("name", sorted(DICE_FLOORS))
def test_path_traced_dice_in_the_rolling_area_read_no_worse_than_measured(name: str) -> None:
    value, both, total, false = dice_read(name)
    low, most_false = DICE_FLOORS[name]
    assert value >= low and false <= most_false, (value, both, total, false)


def test_a_yuggoth_scene_is_what_its_truth_says() -> None:
    """The Watcher stands in its Area on a pink 50 mm base; the factions' figures stand on bases
    on the board, none overlapping it."""
    profile = load_profile("yuggoth-three")
    table = yuggoth_table(profile, 103)
    assert [t["kind"] for t in table.truth["tokens"]] == ["watcher"]
    bases = [s for s in table.scene["solids"] if s["kind"] == "cylinder"]
    watcher = next(s for s in bases if s["width"] == WATCHER_BASE_MM)
    assert profile.region(table.truth["tokens"][0]["region"]).contains(tuple(watcher["centre"]))
    assert watcher["colour"][0] > watcher["colour"][2] > watcher["colour"][1]  # pink: R > B > G
    assert len(bases) >= 10 and all(b["z"] == BOARD_THICK_MM for b in bases)


def test_dice_are_rolled_into_the_rolling_area_apart() -> None:
    """Zero to six d6 lie on the board in the rolling area, apart, each seen where its truth says
    (inside the frame), drawn from a generator of their own: the maps rendered before dice were
    added keep their Watcher and figures."""
    profile = load_profile("yuggoth-three")
    tray = profile.region("tray")
    counts = []
    for seed in range(1400, 1412):
        table = yuggoth_table(profile, seed)
        dice = [s for s in table.scene["solids"] if s["kind"] == "die"]
        counts.append(len(dice))
        assert len(table.truth["dice"]) == len(dice) <= 6
        for die, truth in zip(dice, table.truth["dice"]):
            assert tray.contains(tuple(die["centre"])) and die["z"] == BOARD_THICK_MM
            assert truth["region"] == "tray" and 1 <= truth["value"] <= 6 and truth["value"] == die["value"]
            assert 0 <= truth["center"][0] < 1280 and 0 <= truth["center"][1] < 960
        gaps = [
            np.hypot(*np.subtract(a["centre"], b["centre"]))
            for i, a in enumerate(dice)
            for b in dice[i + 1 :]
        ]
        assert min(gaps, default=np.inf) >= 1.5 * profile.die_mm
    assert 0 < sum(counts) and max(counts) > 1
    stored = json.loads((RECORDINGS / "blender-yuggoth-fresh" / "recording.json").read_text())
    for frame in stored["frames"][:5]:
        assert yuggoth_table(profile, frame["blender_seed"]).truth["tokens"] == frame["truth"]["tokens"]
