"""Tokens on a rendered Am'harb island: disciples and the resource tiles lying on the free
spaces at set-up (a tile is not a priest, a pink priest is not a red resource)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.pipeline import TableReader
from vision.profiles import load_profile
from vision.render import Camera, Scene, TokenSpec, render


@pytest.fixture(scope="module")
def reading() -> tuple[list[TokenSpec], set[tuple[str, str, str]]]:
    profile = load_profile("amharb-4p")
    tokens = [
        TokenSpec("cell/3/3", "priest", "pink"),
        TokenSpec("cell/3/4", "resource", "red", angle=8.0),
        TokenSpec("cell/4/3", "resource", "yellow", (3.0, -2.0), angle=-5.0),
        TokenSpec("cell/4/4", "cultist", "yellow"),
        TokenSpec("cell/2/2", "resource", "blue"),
        TokenSpec("cell/2/3", "priest", "blue", (4.0, 4.0)),
        TokenSpec("cell/5/5", "resource", "red"),
    ]
    scene = Scene(profile, Camera(tilt=0.05, rotation=7.0), tokens=tuple(tokens))
    frame, _ = render(scene, seed=5)
    seen = TableReader(profile).read(frame).tokens
    return tokens, {(t.region, t.kind, t.color) for t in seen}


def test_resource_tiles_are_read_by_colour_and_are_not_disciples(reading: tuple) -> None:
    tokens, seen = reading
    assert {(t.region, t.kind, t.colour) for t in tokens} == seen


def test_a_blob_the_size_of_no_piece_is_not_reported() -> None:
    """A card or a hand lying on the island is far larger than any piece."""
    profile = load_profile("amharb-4p")
    scene = Scene(profile, Camera(), tokens=(TokenSpec("cell/1/1", "priest", "green"),))
    frame, to_frame = render(scene, seed=2)
    # A 60 x 40 mm green card across cells 5/5 and 5/6 (board mm -> frame px).
    card = np.array([[230, 230], [290, 230], [290, 270], [230, 270]], np.float64)
    pts = np.c_[card, np.ones(4)] @ to_frame.T
    cv2.fillConvexPoly(frame, (pts[:, :2] / pts[:, 2:]).astype(np.int32), (70, 150, 40))
    seen = {(t.region, t.kind, t.color) for t in TableReader(profile).read(frame).tokens}
    assert seen == {("cell/1/1", "priest", "green")}


def test_a_cultist_at_the_island_edge_keeps_its_size() -> None:
    """Two pink cultists in a corner space at the island's edge (a committed held-out frame).
    Sampled straight from the frame at the tokens' coarse scale, one of them aliased into a
    priest-sized blob; straightened finer and averaged down, both stay cultists."""
    recordings = Path(__file__).resolve().parent / "recordings" / "amharb-2p"
    frame = cv2.imread(str(recordings / "0001.jpg"))
    seen = TableReader(load_profile("amharb-2p")).read(frame).tokens
    assert sorted((t.kind, t.color) for t in seen if t.region == "cell/4/0") == [
        ("cultist", "pink"),
        ("cultist", "pink"),
    ]


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ('kinds = ["gem"]', 'kinds = ["ruby"]', "not in pieces.tokens"),
        ('kinds = ["gem"]', 'kinds = "gem"', "kinds lists token kinds"),
        ('brown = "#7a4f2a"', 'brown = "brown"', "#rrggbb"),
        ('brown = "#7a4f2a"', 'brown = "#7a4fzz"', "#rrggbb"),
    ],
)
def test_a_profile_with_a_bad_kinds_or_colour_is_explained(old: str, new: str, says: str) -> None:
    import tomllib

    from vision.profiles import ProfileError, parse_profile

    text = (Path(__file__).parent.parent / "vision/profiles/tower.toml").read_text()
    assert old in text
    with pytest.raises(ProfileError, match=says):
        parse_profile(tomllib.loads(text.replace(old, new, 1)))


def test_gems_lying_apart_are_each_one_and_a_heap_is_counted_but_unsure() -> None:
    """Tower's gems: six green gems apart are six sure gems; four blue ones shoulder to shoulder
    are one blob, counted by its area against the single gems of the frame, and unsure."""
    profile = load_profile("tower")
    apart = [TokenSpec("player/1/gems", "gem", "green", (-60.0 + 16.0 * k, -60.0)) for k in range(6)]
    heap = [TokenSpec("player/2/gems", "gem", "blue", (-30.0 + 10.0 * k, 0.0)) for k in range(4)]
    lone = [TokenSpec("player/2/gems", "gem", "blue", (-60.0 + 16.0 * k, -60.0)) for k in range(3)]
    scene = Scene(profile, Camera(tilt=0.04, rotation=5.0), tokens=tuple(apart + heap + lone))
    frame, _ = render(scene, seed=3)
    seen = TableReader(profile).read(frame).tokens
    greens = [t for t in seen if t.region == "player/1/gems"]
    assert [t.color for t in greens] == ["green"] * 6 and all(t.confidence > 0.5 for t in greens)
    blues = [t for t in seen if t.region == "player/2/gems"]
    assert [t.color for t in blues] == ["blue"] * 7
    assert sum(t.confidence <= 0.5 for t in blues) == 4
