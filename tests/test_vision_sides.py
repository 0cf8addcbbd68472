"""The players' colours from their discs: each side's discs are one player's (Am'harb, "Tower
Phase", rule 2: a player's discs stay in the four locations on their side), no two players
share a colour, and a player's disciples are painted as their discs (docs/vision.md)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.colours import SEEN_SHIFT, Palette, has_a_hue, shade_free
from vision.discs import Blob, StackOutline, named, sides_colours
from vision.pipeline import TableReader
from vision.profiles import load_profile
from vision.tokens import as_their_discs

PLAYERS = ("pink", "blue", "green", "yellow")


def outline(region: str, faces: tuple[int, int, int]) -> StackOutline:
    """A stack in `region` whose lit faces are `faces` (BGR); where it stands does not matter here."""
    mask = np.ones((4, 4), bool)
    return StackOutline(
        region,
        Blob(mask, 16.0, (2.0, 2.0), 2.0),
        slice(0, 4),
        slice(0, 4),
        np.zeros((4, 4, 3)),
        np.array(faces, float),
    )


def features(bgr: tuple[int, int, int]) -> np.ndarray:
    return shade_free(np.array(bgr, np.float32))


def test_each_side_takes_a_players_colour_of_its_own() -> None:
    """A blue side under a warm lamp, pale and violet, is nearer pink than blue by itself; the
    pink side's discs are nearer pink still, so the blue side is blue."""
    warm_blue = (150, 118, 140)
    palette = Palette()
    assert named(np.array(warm_blue, float), palette, PLAYERS) == "pink"
    outlines = [
        outline("seat0/area1", (170, 140, 235)),
        outline("seat0/area3", (168, 142, 230)),
        outline("seat1/area0", warm_blue),
        outline("seat2/area2", (70, 150, 40)),
        outline("seat3/area0", (40, 200, 225)),
    ]
    sides = sides_colours(outlines, palette, PLAYERS)
    assert sides == {"seat0": "pink", "seat1": "blue", "seat2": "green", "seat3": "yellow"}


def test_without_the_players_colours_each_stack_is_named_by_itself() -> None:
    assert sides_colours([outline("seat0/area1", (170, 140, 235))], Palette(), None) == {}


def test_a_table_without_discs_names_no_side() -> None:
    """Before any tower is built no location holds a disc: nothing to name (this crashed once,
    when the median of no faces was a shapeless array)."""
    assert sides_colours([], Palette(), PLAYERS) == {}


def test_more_sides_with_discs_than_players_are_named_stack_by_stack() -> None:
    """Two players, discs seen on three sides: one of them is no player's discs (a card, a
    hand), and no assignment of two colours to three sides exists."""
    outlines = [outline(f"seat{i}/area0", (170, 140, 235)) for i in range(3)]
    assert sides_colours(outlines, Palette(), ("pink", "blue")) == {}


def test_a_players_discs_colour_their_disciples_not_the_tiles() -> None:
    """Green is the green player's alone: it is taken as their discs show it (lime under this
    lamp). Yellow is the resource tiles' colour too, printed, not painted: left to the tiles'
    own evidence. Pink washed out by the lamp as white as print is left too: named pink, the
    tiles' white emblems would be read as pink pieces: a look without a hue says nothing of how
    a lamp shows a colour (nor does a grey blob of print in a disc location)."""
    profile = load_profile("amharb-4p")
    lime, orange, cream = (115, 224, 130), (40, 150, 235), (205, 212, 222)
    outlines = [
        outline("seat0/area1", cream),
        outline("seat2/area0", lime),
        outline("seat2/area3", lime),
        outline("seat3/area0", orange),
    ]
    sides = {"seat0": "pink", "seat2": "green", "seat3": "yellow"}
    before = dict(Palette().colours)
    names, choices = Palette().features()
    assert np.linalg.norm(features(lime) - choices[names.index("green")]) >= SEEN_SHIFT
    assert np.linalg.norm(features(orange) - choices[names.index("yellow")]) >= SEEN_SHIFT
    assert np.linalg.norm(features(cream) - choices[names.index("pink")]) >= SEEN_SHIFT
    assert not has_a_hue(np.array(cream, float)) and has_a_hue(np.array(lime, float))
    after = dict(as_their_discs(Palette(), outlines, sides, profile).colours)
    assert after["green"] == lime
    assert after["yellow"] == before["yellow"] and after["pink"] == before["pink"]
    assert {n: c for n, c in after.items() if n != "green"} == {
        n: c for n, c in before.items() if n != "green"
    }


def test_green_cultists_as_light_as_their_discs_are_read() -> None:
    """Path-traced dev table 504: its green set is light, nearer the palette's yellow and white in
    places than its green; the two lone green cultists were not read before their colour was
    taken from the green side's discs."""
    folder = Path(__file__).parent / "path-traced" / "blender-amharb-dev"
    meta = json.loads((folder / "recording.json").read_text())
    frame = next(f for f in meta["frames"] if f["file"] == "0504.jpg")
    seen = TableReader(load_profile(meta["profile"])).read(cv2.imread(str(folder / frame["file"])))
    read = {(t.region, t.kind, t.color) for t in seen.tokens}
    assert {("cell/0/3", "cultist", "green"), ("cell/6/2", "cultist", "green")} <= read
    assert {(s.region, s.color) for s in seen.stacks} == {
        (s["region"], s["color"]) for s in frame["truth"]["stacks"]
    }
