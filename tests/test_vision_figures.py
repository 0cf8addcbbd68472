"""Miniatures on an illustrated board (issue 25), seen by tests/pinhole_figures.py's pinhole
camera: Turris's Scouts on 20 mm bases in the player's colour or dark plastic, Beasts on 45 mm
bases, the Fruit token, every place painted, the empty board seen first."""

from __future__ import annotations

import tomllib
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.pinhole_figures import figures_read
from vision.profiles import Profile, ProfileError, load_profile, parse_profile
from vision.types import BoardPose


def test_turris_miniatures_on_an_illustrated_board() -> None:
    """Seeds never looked at while building the reader. A Scout whose base is dark shows its
    colour on its figure only: judged with the dark pixels round it as its base (profile
    `figure = true`); figures lean by their height (ASSUMED 30 and 50 mm) away from the point
    under the camera; the light is matched against the empty board over 2.5 widths of a Beast,
    so a Beast among Scouts does not relight its own place. Before: Scouts 78%, Beasts 34% on
    seeds 100-109; 149/153, 21/27, 5/5, 3 false on these when first measured."""
    kinds, false, lost = figures_read(load_profile("turris"), range(200, 205))
    assert lost == 0
    right = {kind: r / t for kind, (r, t) in kinds.items()}
    assert right["scout"] >= 0.93, kinds
    assert right["beast"] >= 0.7, kinds
    assert right["fruit"] == 1.0, kinds
    assert false <= 0.03 * sum(t for _, t in kinds.values()), (false, kinds)


def test_a_figure_that_is_not_true_or_false_is_explained() -> None:
    text = (Path(__file__).parent.parent / "vision/profiles/turris.toml").read_text()
    assert "figure = true" in text
    with pytest.raises(ProfileError, match="figure is true"):
        parse_profile(tomllib.loads(text.replace("figure = true", 'figure = "yes"', 1)))
    assert load_profile("turris").token_figures == ("scout",)


def test_a_dark_base_is_said_of_figures_only() -> None:
    """Turris's Scouts may stand on dark plastic with their colour on the figure alone; the
    Watcher's colour is its base's, so its pink is never read as a figure's painted top."""
    text = (Path(__file__).parent.parent / "vision/profiles/turris.toml").read_text()
    assert load_profile("turris").token_dark_based == ("scout",)
    assert load_profile("yuggoth-three").token_dark_based == ()
    with pytest.raises(ProfileError, match="dark_base is for a figure"):
        parse_profile(tomllib.loads(text.replace("figure = true", "figure = false", 1)))


def test_a_dark_figure_is_said_of_figures_only() -> None:
    """The Watcher's figure is dark plastic on its pink base (profile `dark_figure = true`);
    Turris's Scouts are of their player's colour."""
    text = (Path(__file__).parent.parent / "vision/profiles/yuggoth-three.toml").read_text()
    assert load_profile("yuggoth-three").token_dark_figures == ("watcher",)
    assert load_profile("yuggoth-five").token_dark_figures == ("watcher",)
    assert load_profile("turris").token_dark_figures == ()
    with pytest.raises(ProfileError, match="dark_figure is for a figure"):
        parse_profile(tomllib.loads(text.replace("figure = true", "figure = false", 1)))


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_a_red_figure_on_a_pink_base_is_no_watcher(seed: int) -> None:
    """A figure stands on its base's middle: the Watcher's dark figure shows there, so a faction's
    red figure on a base its lamp turns pink (path-traced Yuggoth maps: 6 such read as the Watcher
    before) is no Watcher; the same base under a dark figure is."""
    from dataclasses import replace

    from tests.pinhole_figures import DARK_PLASTIC, FACTIONS, laid_watcher
    from vision.colours import DEFAULT_COLOURS
    from vision.pipeline import TableReader
    from vision.reference import capture

    profile = replace(load_profile("yuggoth-three"), piece_colours=FACTIONS)
    red = tuple(float(v) for v in DEFAULT_COLOURS["red"])
    read = {}
    for name, figure in (("dark", DARK_PLASTIC), ("red", red)):
        frame, empty = laid_watcher(profile, seed, figure)
        seen = TableReader(profile, empty=capture(empty, profile)).read(frame)
        read[name] = [t.kind for t in seen.tokens]
    assert read == {"dark": ["watcher"], "red": []}


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_the_watcher_on_a_base_washed_out_to_white(seed: int) -> None:
    """A bright lamp washes the Watcher's pink base out (here painted 60% white): named white but
    at its rim, too little pink for a 50 mm base, and it was not read (0 of 10 laid out, seeds
    5-14). A round base of its size, pale, with the dark figure covering its middle, is the
    Watcher; the same base under a white figure is not (a faction's, of its colour throughout)."""
    from dataclasses import replace

    from tests.pinhole_figures import DARK_PLASTIC, FACTIONS, laid_watcher
    from vision.colours import DEFAULT_COLOURS
    from vision.pipeline import TableReader
    from vision.reference import capture

    profile = replace(load_profile("yuggoth-three"), piece_colours=FACTIONS)
    pale = tuple(0.4 * float(v) + 0.6 * 255 for v in DEFAULT_COLOURS["pink"])
    white = tuple(float(v) for v in DEFAULT_COLOURS["white"])
    read = {}
    for name, figure in (("dark", DARK_PLASTIC), ("white", white)):
        frame, empty = laid_watcher(profile, seed, figure, pale)
        seen = TableReader(profile, empty=capture(empty, profile)).read(frame)
        read[name] = [(t.kind, t.color) for t in seen.tokens]
    assert read == {"dark": [("watcher", "pink")], "white": []}


@pytest.mark.parametrize(
    ("side", "seeds", "floor"),
    [("yuggoth-three", range(170, 185), 0.8), ("yuggoth-five", range(320, 340), 0.9)],
)
def test_the_watcher_among_the_factions_figures(side: str, seeds: range, floor: float) -> None:
    """Yuggoth: about twenty faction figures per frame in their colours, on bases of their
    colour or dark plastic, Gates, a painted map, and the Watcher as a dark figure 45-60 mm tall
    on a pink 50 mm base (profile `figure = true`: the pink may show on the base alone, judged by
    its outline's hull or with the dark figure). No faction figure is ever the Watcher.

    Three-player side, seeds never looked at: 9 of 11 Watchers when first measured (130-169: 30
    of 31). Five-player side, painted pinkish in places: the pink base often shows only as arcs
    its dark figure and shadow part, each too small for a 50 mm base; joined within the base's
    disc and judged by their hull when it holds the dark figure, they are the Watcher (seeds
    320-339, looked at while building it: 12 -> 14 of 15; seeds 200-239 never looked at: 19 -> 22
    of 27; 400-439: 27 -> 28 of 35)."""
    from dataclasses import replace

    from tests.pinhole_figures import FACTIONS, yuggoth_table

    profile = replace(load_profile(side), piece_colours=FACTIONS)
    kinds, false, lost = figures_read(profile, seeds, table=yuggoth_table)
    right, total = kinds["watcher"]
    assert right >= floor * total, kinds
    assert false == 0
    assert lost == 0


def test_arkhanos_meeples_on_towers_of_one_to_three_floors() -> None:
    """Each floor tile stands on the pillars of the one below (3 to 69 mm above the mat): the
    game's state gives each tower's top floor's height, and its spaces are read on that plane
    (`Region.height`), the meeples with their own heights (ASSUMED 18 and 24 mm). Read as if
    they lay on the mat, 8% of them were right on seeds 100-119; these seeds, never looked at
    before, 27/27 (4/27 as if on the mat)."""
    from tests.pinhole_figures import arkhanos_profile, arkhanos_table
    from vision.pipeline import TableReader
    from vision.reference import capture

    profile = load_profile("arkhanos")
    right = total = false = 0
    for seed in range(200, 205):
        frame, empty, truth = arkhanos_table(profile, seed)
        reader = TableReader(arkhanos_profile(profile, seed), empty=capture(empty, profile))
        seen = [
            (t.region, t.kind, t.color) for t in reader.read(frame).tokens if t.region.startswith("tower/")
        ]
        total += len(truth)
        for piece in truth:
            if piece in seen:
                seen.remove(piece)
                right += 1
        false += len(seen)
    assert right >= 0.9 * total, (right, total)
    assert false <= 0.05 * total, (false, total)


BLURRED = 5.0
"""A frame blurred this much (px) shows no meeple as it is."""


def blurred_but_the_markers(frame: np.ndarray, pose: BoardPose | None, profile: Profile) -> np.ndarray:
    """The frame blurred by `BLURRED` but round its markers (where `pose` puts them), so that the
    board is found in it as in the sharp frame."""
    assert pose is not None
    out = cv2.GaussianBlur(frame, (0, 0), BLURRED)
    homography = np.array(pose.homography, np.float64).reshape(3, 3)
    r = profile.marker_size
    for _, (x, y) in profile.markers:
        corners = np.array([[[x - r, y - r], [x + r, y - r], [x + r, y + r], [x - r, y + r]]], np.float64)
        seen = cv2.perspectiveTransform(corners, homography)[0]
        (x0, y0), (x1, y1) = seen.min(0), seen.max(0)
        rows = slice(max(int(y0), 0), max(int(y1) + 1, 0))
        cols = slice(max(int(x0), 0), max(int(x1) + 1, 0))
        out[rows, cols] = frame[rows, cols]
    return out


def test_meeples_on_a_tower_are_read_from_the_full_resolution_still() -> None:
    """Once the table has settled, a tower's top floor is read from the camera's full-resolution
    still too, at its height: there an apprentice (14 x 8 mm from above) and a master (20 x 10)
    are 1-2 px apart at the frames' scale and twice that in the still. Here the frames are
    blurred past reading (a hand's motion, a lens out of focus: the board is still found), so the
    meeples read are the still's (with the frame alone, none of the 16 is: the regions above the
    board were read from the frame until issue 18's twenty-fourth session)."""
    from tests.pinhole_figures import STILL, arkhanos_profile, arkhanos_table
    from vision.pipeline import TableReader
    from vision.reference import capture

    profile = load_profile("arkhanos")
    half = (STILL[0] // 2, STILL[1] // 2)
    right = total = false = blurred = 0
    for seed in range(200, 203):
        still, empty, truth = arkhanos_table(profile, seed, STILL)
        sharp = cv2.resize(still, half, interpolation=cv2.INTER_AREA)
        empty = cv2.resize(empty, half, interpolation=cv2.INTER_AREA)
        reader = TableReader(arkhanos_profile(profile, seed), empty=capture(empty, profile))
        frame = blurred_but_the_markers(sharp, reader.read(sharp).pose, profile)
        alone = [
            (t.region, t.kind, t.color) for t in reader.read(frame).tokens if t.region.startswith("tower/")
        ]
        seen = [
            (t.region, t.kind, t.color)
            for t in reader.read(frame, full=still).tokens
            if t.region.startswith("tower/")
        ]
        total += len(truth)
        blurred += sum(piece in alone for piece in truth)
        for piece in truth:
            if piece in seen:
                seen.remove(piece)
                right += 1
        false += len(seen)
    assert blurred <= 0.2 * total, (blurred, total)
    assert right >= 0.9 * total, (right, total)
    assert false <= 0.05 * total, (false, total)


def test_small_pieces_are_read_from_the_full_resolution_still() -> None:
    """Tower's mat in view whole: a 10 mm gem is 6 px in a 1280 x 960 frame, its shaded side and
    shadow a fragment of another colour. Once the table has settled the camera takes a 2560 x
    1920 still; the tokens are then read from it at twice their scale. Seeds never looked at:
    56 false readings from the frames alone, 20 with the still, every gem still read (92/92).
    Since each pixel is named among the colours that can lie in its place (issue 18's fourth
    session, pixels of a colour no kind of a flat piece's place comes in dropped): 20 from the
    frames alone, 5 with the still. Since a band a blur wide round a token is no material
    (issue 18's fifth session: most of those were a red token's rim on the green mat, named
    brown): 0 from the frames, 1 with the still; the still is then no better here. Since a
    piece's blurred edge is unmixed in linear light (issue 25): 8 and 9, gems of this renderer
    read larger (it blurs in the camera's encoded values, as no lens does, and its 6 px gems
    have no pixel wholly gem) and heaps of them counted one too many (plus 2)."""
    from tests.pinhole_figures import tower_table

    profile = load_profile("tower")
    with_still, false_still, _ = figures_read(profile, range(200, 204), table=tower_table, still=True)
    frames, false_frames, _ = figures_read(profile, range(200, 204), table=tower_table)
    assert false_still <= 11 and false_frames <= 10, (false_still, false_frames)
    for read in (with_still, frames):
        gems, total = read["gem"]
        assert gems >= 0.97 * total
        materials, total = read["material"]
        assert materials >= 0.97 * total


def test_tower_meeples_lean_by_their_height() -> None:
    """A standing meeple (16 x 8 mm seen from above, 16 mm tall: profile `height`, ASSUMED) leans
    away from the point under the camera; judged inside a round piece's silhouette with that lean
    it is read where, judged as if flat, its top and wall fall outside. Seeds never looked at:
    34/40 with its height, 31/40 without, when first measured (held out 100-109: 26 -> 29/36).
    A meeple is 16 x 8 mm: with its lean its box is longer than a round piece's may be; it is
    squarish but for its lean along it (`leaning`; issue 18's fifth session: 36 -> 38/40 here,
    100-109 34 -> 36/36, 400-409 never looked at 30 -> 34/36)."""
    from dataclasses import replace

    from tests.pinhole_figures import tower_table

    profile = load_profile("tower")
    assert dict(profile.token_height)["meeple"] == 16
    flat = replace(profile, token_height=tuple(h for h in profile.token_height if h[0] != "meeple"))
    standing, _, _ = figures_read(profile, range(210, 220), table=tower_table)
    as_flat, _, _ = figures_read(flat, range(210, 220), table=tower_table)
    assert standing["meeple"][0] >= 0.925 * standing["meeple"][1], standing
    assert standing["meeple"][0] > as_flat["meeple"][0]


@pytest.mark.parametrize(
    ("game", "seeds"), [("arkhanos", range(200, 205)), ("yuggoth-three", range(200, 210))]
)
def test_dice_where_they_lie_from_the_still(game: str, seeds: range) -> None:
    """Dice as 3-D cubes (tests/pinhole_dice.py: side faces and their pips in perspective,
    shadows, solid, marbled or translucent, an emblem on the 1) where the games put them: a
    rolling area 13-16 px a die in the frame, Arkhanos's mana pool and the pillars of towers 1-3
    floors high (read at their height), with the camera's full-resolution still. Seeds never
    looked at. When first measured: Arkhanos 48/50, Yuggoth 38/39 with the networks trained with
    dice drawn as cubes by other code (vision/training/cube_dice.py); 33/50 and 27/39 before."""
    from tests.pinhole_figures import dice_read

    value, both, total, false, lost = dice_read(load_profile(game), seeds, still=True)
    assert lost == 0
    assert value >= 0.9 * total, (value, total)
    assert both >= 0.85 * value, (both, value)  # the colour too: Yuggoth 30 -> 34 of 38 by hue, in the white
    assert false <= 0.05 * total + 1, false
