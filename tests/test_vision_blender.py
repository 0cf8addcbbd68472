"""Am'harb tables path-traced by Blender's Cycles (tests/blender_scene.py; `make render-tables`
makes them again): bevelled discs and pawns under real lamps, soft and coloured shadows, a card
board with illustrated art, a camera's white balance, exposure, noise and JPEG. Nothing in
vision/ was tuned on this renderer. The dev set's misses may be looked at; of the held set only
its totals were read (but they led to the pose from two markers); the unseen set was read after
each change (and with the variants of issue 18's eighth session); the later and ninth sets once
when rendered; the fresh set, rendered in the fifteenth session, only its totals, with the code of
that session's start and end; the tenth (8 tables), rendered in the seventeenth, its totals once
(docs/vision.md).

The dev, unseen and later tables' empty boards (`empty/`, rendered under the same lamps) measure
the calibrated path too, and four dev tables' and two later tables' pieces laid out for
teaching (`taught/`) the taught one.

The floors are the figures measured (docs/vision.md), less 2 for a library's rounding: a change
that reads these tables worse fails here, whichever renderer it was tuned on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.blender_scene import amharb_table
from tests.pinhole import pieces_matched
from vision.colours import Palette
from vision.evaluate import evaluate, table_reader
from vision.pipeline import TableReader, VisionConfig
from vision.profiles import load_profile
from vision.reference import capture
from vision.teach import learn, samples
from vision.training.develop import developed
from vision.types import Observation

RECORDINGS = Path(__file__).parent / "path-traced"

FLOORS = {
    # recording: (boards found, stacks exact, tokens right, most false tokens), of 12 tables each
    # (the tenth 8)
    # (133, 138, 133, 121, 135 and 133 stacks; 386, 394, 402, 378, 401 and 410 pieces), measured
    # less 2 (false: plus 2). The ninth was rendered at the end of issue 18's ninth session and
    # read once. Tokens since a lone tile says how its colour looks (`tiles_seen_here`, fifteenth
    # session of issues 18/25): 297 -> 301, 307 -> 313, 336 -> 337, 284 -> 285, 301 -> 308; and
    # since a tile mostly hidden under a piece is read with it (`tiles_under_pieces`): 306, 314,
    # 341, 290, 319; since print's black names no pixel of a hue (`PRINT_HUE`, sixteenth
    # session): 311, 312, 343, 290, 320, false 33, 50, 44, 64, 57.
    "blender-amharb-dev": (12, 114, 309, 35),
    "blender-amharb-held": (12, 131, 310, 52),
    "blender-amharb-unseen": (12, 111, 341, 46),
    "blender-amharb-later": (12, 99, 288, 66),
    "blender-amharb-ninth": (12, 119, 318, 59),
    # Rendered in the fifteenth session (seeds 1000-1011), its totals read once with the code of
    # the session's start (stacks 121, tokens 327 of 410, 55 false), after its fourth change
    # (121, 339, 53) and with its end's (121, 339, 53); since `PRINT_HUE` 340, 52.
    "blender-amharb-fresh": (12, 119, 338, 54),
    # Rendered in the seventeenth session (seeds 1200-1207, 8 tables: 87 stacks, 255 pieces), read
    # once with that session's code: stacks 71, tokens 200, 45 false (cultists 41/56 with 40 false).
    "blender-amharb-tenth": (8, 69, 198, 47),
}


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_path_traced_tables_read_no_worse_than_measured(name: str) -> None:
    result, _ = evaluate(RECORDINGS / name, table_reader())
    stacks, tokens = result["stacks"], result["tokens"]
    boards, low_stacks, low_tokens, most_false = FLOORS[name]
    assert result["board"] == {"frames": boards, "found": boards}
    assert stacks["correct"] >= low_stacks, stacks
    assert tokens["correct"] >= low_tokens, tokens
    assert tokens["false_positives"] <= most_false, tokens
    assert stacks["false_positives"] <= 2, stacks


def test_a_scene_is_what_its_truth_says() -> None:
    """Every disc stands in its stack's place, largest at the bottom, each level on the one below;
    every piece and tile in its space, a piece on a tile standing on the tile's top."""
    profile = load_profile("amharb-4p")
    table = amharb_table(profile, 3)
    discs = [s for s in table.scene["solids"] if s["kind"] == "disc"]
    assert sum(len(s["discs"]) for s in table.truth["stacks"]) == len(discs) == 16
    for stack in table.truth["stacks"]:
        region = profile.region(stack["region"])
        mine = sorted((d for d in discs if region.contains(tuple(d["centre"]))), key=lambda d: d["z"])
        assert [profile.disc_mm.index(d["width"]) + 1 for d in mine] == stack["discs"]
        assert [d["z"] for d in mine] == [2.0 + 8.0 * level for level in range(len(mine))]
    pieces = [s for s in table.scene["solids"] if s["kind"] != "disc"]
    assert len(pieces) == len(table.truth["tokens"])
    for piece in pieces:
        centre = tuple(piece["centre"])
        region = next(r for r in profile.regions if r.holds == "tokens" and r.contains(centre))
        kinds = [t["kind"] for t in table.truth["tokens"] if t["region"] == region.name]
        if piece["kind"] == "tile":
            assert "resource" in kinds and piece["z"] == 2.0
        else:
            assert set(kinds) & {"priest", "cultist"}
            assert piece["z"] == (4.0 if "resource" in kinds else 2.0)


def test_the_camera_develops_linear_light_as_a_camera_would() -> None:
    """A grey card under a warm lamp comes out less warm (white balance), its brightest 2% near
    the top of the range (exposure), through the sRGB curve."""
    for seed in range(5):
        card = np.ones((60, 80, 3), np.float32) * np.array([0.1, 0.18, 0.3], np.float32)  # BGR, warm
        card[:10, :10] *= 2.0  # a brighter patch: 2% of the card and more
        image = developed(card, np.random.default_rng(seed)).astype(np.float32)
        b, _, r = image[20:, 20:].reshape(-1, 3).mean(axis=0)
        # Lit 3 times as red as blue, balanced half the way or more: at most sqrt(3) in linear
        # light, 3 ** (0.5 / 2.4) = 1.26 through the sRGB curve (1.58 unbalanced).
        assert 0.95 <= r / b <= 1.05 * 3 ** (0.5 / 2.4)
        assert 200 <= np.percentile(image.max(axis=2), 99) <= 255


EMPTY_FLOORS = {
    # recording: (stacks exact, tokens right, most false tokens), read with each table's empty
    # board shown first, measured less 2 (sixteenth session of issue 18: 319, 347, 316, 340, 348;
    # false 10, 18, 25, 17, 17).
    "blender-amharb-dev": (114, 317, 12),
    "blender-amharb-unseen": (111, 345, 20),
    "blender-amharb-later": (99, 314, 27),
    "blender-amharb-ninth": (119, 338, 19),
    "blender-amharb-fresh": (119, 346, 19),  # at the fifteenth session's start: 330, 25
    "blender-amharb-tenth": (69, 208, 23),  # read once (seventeenth session): 71, 210, 21
}


def scored(seen: Observation, truth: dict[str, Any]) -> tuple[int, int, int]:
    """One frame's reading against its truth: stacks exactly right, pieces right (kind and colour
    in their space), pieces read that are not there."""
    read_stacks = {(s.region, s.color, tuple(s.discs)) for s in seen.stacks}
    stacks = sum((s["region"], s["color"], tuple(s["discs"])) in read_stacks for s in truth["stacks"])
    right, false = pieces_matched(
        [(p["region"], p["kind"], p["color"]) for p in truth["tokens"]],
        [(t.region, t.kind, t.color) for t in seen.tokens],
    )
    return stacks, right, false


def read_with_the_empty_board(name: str) -> tuple[int, int, int]:
    """Each table read by a reader shown its empty board first (rendered under the same lamps,
    the camera's exposure and noise its own: `make_blender_tables --empty`), as a player keeps
    it at calibration (`companion vision empty`): stacks exactly right, pieces right, pieces
    read that are not there (`scored`)."""
    folder = RECORDINGS / name
    meta = json.loads((folder / "recording.json").read_text())
    profile = load_profile(meta["profile"])
    total = np.zeros(3, int)
    for frame in meta["frames"]:
        empty = capture(cv2.imread(str(folder / "empty" / frame["file"])), profile)
        seen = TableReader(profile, empty=empty).read(cv2.imread(str(folder / frame["file"])))
        total += scored(seen, frame["truth"])
    stacks, right, false = (int(v) for v in total)
    return stacks, right, false


def read_after_teaching(name: str) -> tuple[dict[str, tuple[int, int, int]], int, list[str]]:
    """The tables whose pieces were also shown for teaching (`make_blender_tables --taught`:
    each colour's pieces laid apart on the empty board, under the same lamps), read as a player
    who taught them reads them: with the empty board, the colours and sizes learned
    (vision/teach.py). `scored` totals with the empty board alone and taught, the pieces truly
    in the frames, and what the lessons said could not be told apart."""
    folder = RECORDINGS / name
    meta = json.loads((folder / "recording.json").read_text())
    profile = load_profile(meta["profile"])
    totals = {"empty": np.zeros(3, int), "taught": np.zeros(3, int)}
    pieces, confusions = 0, []
    for frame in meta["frames"]:
        shown = sorted((folder / "taught").glob(f"{frame['file'][:4]}-*.jpg"))
        if not shown:
            continue
        empty = capture(cv2.imread(str(folder / "empty" / frame["file"])), profile)
        samples_shown = [
            s
            for path in shown
            for s in samples(cv2.imread(str(path)), profile, path.stem.split("-")[1], empty)
        ]
        lesson = learn(samples_shown, Palette())
        confusions += [f"{frame['file']}: {c}" for c in lesson.confusions]
        image = cv2.imread(str(folder / frame["file"]))
        totals["empty"] += scored(TableReader(profile, empty=empty).read(image), frame["truth"])
        taught = VisionConfig(pieces=lesson.palette, sizes=lesson.sizes)
        totals["taught"] += scored(TableReader(profile, taught, empty).read(image), frame["truth"])
        pieces += len(frame["truth"]["tokens"])
    figures = {k: (int(v[0]), int(v[1]), int(v[2])) for k, v in totals.items()}
    return figures, pieces, confusions


@pytest.mark.parametrize("name", sorted(EMPTY_FLOORS))
def test_path_traced_tables_read_with_their_empty_board(name: str) -> None:
    """The empty board shown at calibration makes the board's print (altar numerals, printed
    rings) the background: without it a yellow numeral reads as a yellow cultist."""
    stacks, right, false = read_with_the_empty_board(name)
    low_stacks, low_tokens, most_false = EMPTY_FLOORS[name]
    assert stacks >= low_stacks and right >= low_tokens and false <= most_false, (stacks, right, false)


def test_tiles_shown_for_teaching_are_taught_as_tiles() -> None:
    """Dev table 500's six blue resource tiles laid on its empty board: each is a blue square
    round a white emblem, and a blue square less its emblem is a round 20 mm, a priest's size.
    Their size is what their hull covers (the token reader's own measure), so they are tiles."""
    folder = RECORDINGS / "blender-amharb-dev"
    profile = load_profile("amharb-4p")
    empty = capture(cv2.imread(str(folder / "empty" / "0500.jpg")), profile)
    shown = samples(cv2.imread(str(folder / "taught" / "0500-blue.jpg")), profile, "blue", empty)
    kinds = sorted(s.kind for s in shown)
    assert kinds.count("resource") == 6, kinds


def test_path_traced_tables_read_after_teaching() -> None:
    """Four dev tables (pawns and cylinders, one under a bright lamp that washes the pieces out)
    whose players showed the companion each colour's pieces on the empty board: the lessons see
    every colour apart, and the tables read with them better than with the empty board alone
    (measured 100 -> 110 of 137 pieces, false 9 -> 3, stacks 37 either way; less 2)."""
    figures, pieces, confusions = read_after_teaching("blender-amharb-dev")
    assert pieces == 137 and confusions == []
    assert figures["taught"][0] >= 35 and figures["taught"][1] >= 108 and figures["taught"][2] <= 5, figures


def test_tables_never_tuned_on_read_after_teaching() -> None:
    """Two of the later tables (801 cylinders, 802 pawns), their pieces laid out for teaching and
    read once (docs/vision.md): 45 -> 48 of 68 pieces, 5 false either way (6 since a
    tile's blurred rim is no part of a piece; 50 and 8 since a piece's blurred edge is unmixed in
    linear light; 52 and 12 since print's black names no pixel of a hue beside a piece's lit
    side of that hue: under 801's lamp a pink priest's lit side is named red, its shaded side
    then red too, and the priest a red tile); on 802 the lesson says a pink piece looks nearly
    red under its lamp, as teaching must say it (less 2, false plus 2)."""
    figures, pieces, confusions = read_after_teaching("blender-amharb-later")
    assert pieces == 68
    assert figures["taught"][1] >= 50 and figures["taught"][2] <= 14, figures
    assert any(c.startswith("0802.jpg") and "pink" in c for c in confusions), confusions
