"""Am'harb tables for a third renderer, Blender's Cycles path tracer (tests/blender_render.py):
what stands where, the printed board art, the lamps and the camera, as a JSON scene and two
pictures, with the truth. This module needs only numpy and OpenCV; the render runs in its own
venv (`make render-tables`, .venv-blender), since `bpy` pins its own Python and numpy.

Unlike tests/pinhole.py (flat-shaded shapes pasted into a warped plane) the light here is
traced: discs and pieces are bevelled solids that shade themselves, cast soft shadows from
real lamps, and light bounces between them; the board is a 2 mm card with illustrated art,
altar numerals and printed disc locations, the markers are paper sheets beside it; priests
and cultists are pawns or bevelled cylinders; the camera is a pinhole of the Pi Camera Module
2's field of view 800-1200 mm up, tilted and turned. Nothing in vision/ was tuned on it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.board import DICTIONARY
from vision.colours import DEFAULT_COLOURS
from vision.profiles import Profile

ART_PX_PER_MM = 4.0
BOARD_MARGIN_MM = 88.0
"""The board card reaches this far beyond the island (its disc locations end 80 mm out)."""
BOARD_THICK_MM = 2.0
PAPER_MM = 14.0
"""The white paper round each marker (a marker sheet cut with a margin)."""


@dataclass(frozen=True)
class Table:
    """A scene to render and what is on it: `scene` is the JSON the Blender script reads,
    `art` the board's printed picture, `papers` each marker sheet's picture (id -> image),
    `truth` the recording's truth for this frame."""

    scene: dict[str, Any]
    art: np.ndarray
    papers: dict[int, np.ndarray]
    emblems: list[np.ndarray]
    truth: dict[str, Any]


def _srgb(bgr: tuple[float, float, float], rng: np.random.Generator, spread: float = 18.0) -> list[float]:
    """A palette colour (BGR, 0-255) a little off, as Blender's sRGB base colour (RGB, 0-1)."""
    b, g, r = (float(np.clip(v + rng.uniform(-spread, spread), 0, 255)) for v in bgr)
    return [r / 255, g / 255, b / 255]


def board_art(
    profile: Profile, rng: np.random.Generator
) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """The board's printed picture (BGR) and its extent in board mm (x0, y0, x1, y1): an
    illustrated ground (soft patches of two or three muted colours), each space a shade of its
    own with a printed border, altar numerals on some spaces, emblems and ornaments, the disc
    locations printed as frames with their letters."""
    w, h = profile.size
    x0, y0, x1, y1 = -BOARD_MARGIN_MM, -BOARD_MARGIN_MM, w + BOARD_MARGIN_MM, h + BOARD_MARGIN_MM
    s = ART_PX_PER_MM
    width, height = int((x1 - x0) * s), int((y1 - y0) * s)
    base = rng.uniform(60, 200, 3)
    patches = np.zeros((height // 32 + 1, width // 32 + 1, 3), np.float32)
    for c in range(3):
        patches[..., c] = rng.normal(0, 22, patches.shape[:2])
    ground = base + cv2.GaussianBlur(cv2.resize(patches, (width, height)), (0, 0), 30)
    ground += cv2.resize(rng.normal(0, 6, (height // 4, width // 4)).astype(np.float32), (width, height))[
        ..., None
    ]
    image = np.clip(ground, 0, 255).astype(np.uint8)

    def px(x: float, y: float) -> tuple[int, int]:
        return int(round((x - x0) * s)), int(round((y - y0) * s))

    line = tuple(float(v) for v in np.clip(base * rng.uniform(0.4, 0.7), 0, 255))
    for region in profile.regions:
        poly = np.array([px(x, y) for x, y in region.polygon], np.int32)
        if region.holds == "tokens":
            tint = image[poly[:, 1].clip(0, height - 1), poly[:, 0].clip(0, width - 1)].mean(axis=0)
            shade = np.clip(tint * rng.uniform(0.85, 1.15, 3), 0, 255)
            cv2.fillPoly(image, [poly], tuple(float(v) for v in shade))
            if rng.random() < 0.15:  # an altar's numeral
                cx, cy = np.array(region.centre())
                ink = (40.0, 190.0, 220.0) if rng.random() < 0.5 else line
                cv2.putText(
                    image,
                    str(int(rng.integers(1, 7))),
                    px(cx - 6, cy + 7),
                    cv2.FONT_HERSHEY_DUPLEX,
                    2.2 * s / 4,
                    ink,
                    int(1.5 * s),
                    cv2.LINE_AA,
                )
            elif rng.random() < 0.25:  # an ornament
                cx, cy = region.centre()
                cv2.circle(
                    image, px(cx, cy), int(rng.uniform(5, 14) * s), line, max(1, int(s / 2)), cv2.LINE_AA
                )
            cv2.polylines(image, [poly], True, line, max(1, int(0.8 * s)), cv2.LINE_AA)
        else:
            cv2.polylines(image, [poly], True, line, int(1.2 * s), cv2.LINE_AA)
            cx, cy = region.centre()
            letter = "ABCD"[int(region.name[-1]) % 4]
            cv2.putText(
                image,
                letter,
                px(cx + 28, cy + 26),
                cv2.FONT_HERSHEY_SIMPLEX,
                1.2 * s / 4,
                line,
                max(1, int(s / 2)),
                cv2.LINE_AA,
            )
    return np.clip(image, 0, 255).astype(np.uint8), (x0, y0, x1, y1)


def marker_paper(profile: Profile, marker_id: int) -> np.ndarray:
    """A marker printed on white paper with `PAPER_MM` round it (4 px per mm)."""
    s = ART_PX_PER_MM
    side, margin = int(profile.marker_size * s), int(PAPER_MM * s)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    paper = np.full((side + 2 * margin, side + 2 * margin), 245, np.uint8)
    paper[margin : margin + side, margin : margin + side] = cv2.aruco.generateImageMarker(
        dictionary, marker_id, side
    )
    return cv2.cvtColor(paper, cv2.COLOR_GRAY2BGR)


def emblem(rng: np.random.Generator, colour_bgr: tuple[float, float, float]) -> np.ndarray:
    """A resource tile's printed top (25 mm at 8 px per mm): its colour, a frame, and an emblem
    (a flame, a crystal, a drop: a few shapes) in light or dark ink."""
    size = 200
    base = np.array(colour_bgr, np.float32) + rng.uniform(-15, 15, 3)
    top = np.ones((size, size, 3), np.float32) * np.clip(base, 0, 255)
    ink = (232.0, 232.0, 225.0) if rng.random() < 0.5 else tuple(float(v) for v in 0.4 * base)
    cv2.rectangle(top, (10, 10), (size - 10, size - 10), ink, 5, cv2.LINE_AA)
    shape = int(rng.integers(0, 3))
    if shape == 0:
        cv2.circle(top, (100, 100), 45, ink, -1, cv2.LINE_AA)
    elif shape == 1:
        cv2.fillPoly(
            top, [np.array([[100, 40], [150, 100], [100, 160], [50, 100]], np.int32)], ink, cv2.LINE_AA
        )
    else:
        cv2.fillPoly(top, [np.array([[100, 35], [145, 140], [55, 140]], np.int32)], ink, cv2.LINE_AA)
    return np.clip(top, 0, 255).astype(np.uint8)


def board_card(extent: tuple[float, ...], thick: float, rng: np.random.Generator) -> dict[str, Any]:
    """The board's card for the render: where it lies (board mm), how thick, how glossy its print."""
    return {"extent": list(extent), "thick": thick, "roughness": float(rng.uniform(0.35, 0.8))}


def marker_sheets(profile: Profile) -> list[dict[str, Any]]:
    """Each marker's paper sheet for the render: its id, centre (board mm) and side with its margin."""
    return [
        {"id": i, "centre": list(xy), "side": profile.marker_size + 2 * PAPER_MM} for i, xy in profile.markers
    ]


def camera_matrix(rng: np.random.Generator, aim: np.ndarray) -> tuple[list[list[float]], dict[str, float]]:
    """The camera's world matrix (Blender: x east, y north, z up; mm) 800-1200 mm above the
    board, tilted up to 25 degrees and turned any way, looking at `aim`."""
    height = float(rng.uniform(800, 1200))
    tilt, azimuth, roll = np.radians(rng.uniform(0, 25)), rng.uniform(0, 2 * np.pi), rng.uniform(0, 2 * np.pi)
    matrix = looking_at(aim, height, tilt, azimuth, roll)
    return matrix.tolist(), {"height_mm": height, "tilt_deg": float(np.degrees(tilt))}


def looking_at(aim: np.ndarray, height: float, tilt: float, azimuth: float, roll: float) -> np.ndarray:
    """The world matrix (Blender: x east, y north, z up; mm) of a camera `height` above the
    board, tilted `tilt` from straight down towards `azimuth` and turned `roll` about its axis,
    looking at `aim` (radians)."""
    back = np.array([np.sin(tilt) * np.cos(azimuth), np.sin(tilt) * np.sin(azimuth), np.cos(tilt)])
    seed = np.array([1.0, 0, 0]) if abs(back[0]) < 0.9 else np.array([0, 1.0, 0])
    right = np.cross(seed, back)  # Blender's camera looks along its -z: `back`
    right /= np.linalg.norm(right)
    up = np.cross(back, right)
    right, up = right * np.cos(roll) + up * np.sin(roll), up * np.cos(roll) - right * np.sin(roll)
    matrix = np.eye(4)
    matrix[:3, 0], matrix[:3, 1], matrix[:3, 2] = right, up, back
    matrix[:3, 3] = aim + back * height / np.cos(tilt)
    return matrix


def lamps(rng: np.random.Generator, centre: np.ndarray) -> list[dict[str, Any]]:
    """One to three lights of a home: a window's daylight (a sun, hard or soft shadows), a
    ceiling lamp or a desk lamp (warm or cold LEDs, area or point), each a colour temperature."""
    out: list[dict[str, Any]] = []
    for _ in range(int(rng.integers(1, 4))):
        kind = str(rng.choice(["sun", "area", "point"]))
        kelvin = float(rng.choice([2700, 3000, 4000, 5000, 6500]))
        if kind == "sun":
            out.append(
                {
                    "kind": "sun",
                    "kelvin": kelvin,
                    "strength": float(rng.uniform(1.5, 4.0)),
                    "angle_deg": float(rng.uniform(0.5, 15)),
                    "elevation_deg": float(rng.uniform(25, 75)),
                    "azimuth_deg": float(rng.uniform(0, 360)),
                }
            )
        else:
            around = rng.uniform(0, 2 * np.pi)
            reach = rng.uniform(0, 900)
            at = centre + np.array([reach * np.cos(around), reach * np.sin(around), rng.uniform(600, 1800)])
            power = float(rng.uniform(40, 160) if kind == "point" else rng.uniform(100, 400))
            out.append(
                {
                    "kind": kind,
                    "kelvin": kelvin,
                    "watts": power,
                    "at": at.tolist(),
                    "size_mm": float(rng.uniform(30, 600) if kind == "area" else rng.uniform(5, 60)),
                }
            )
    return out


def amharb_table(profile: Profile, seed: int) -> Table:
    """A random Am'harb table: every player's four discs on their four locations, stacked
    carelessly; resource tiles on about half the spaces; priests and cultists, some on a tile."""
    rng = np.random.default_rng(seed)
    players = list(profile.piece_colours or ("pink", "blue", "green", "yellow"))
    solids: list[dict[str, Any]] = []
    stacks, tokens = [], []
    seats = sorted({r.name.split("/")[0] for r in profile.regions if r.holds == "stack"})
    for seat, colour in zip(seats, players):
        paint = _srgb(DEFAULT_COLOURS[colour], rng)
        where = rng.integers(0, 4, size=4)
        for area in range(4):
            discs = [d for d, a in zip((4, 3, 2, 1), where) if a == area]
            if not discs:
                continue
            region = f"{seat}/area{area}"
            centre = np.array(profile.region(region).centre()) + rng.uniform(-6, 6, 2)
            for level, size in enumerate(discs):
                if level:
                    centre = centre + rng.normal(0, 0.7, 2)
                solids.append(
                    {
                        "kind": "disc",
                        "centre": centre.tolist(),
                        "z": BOARD_THICK_MM + level * profile.disc_height_mm,
                        "width": profile.disc_mm[size - 1],
                        "height": profile.disc_height_mm,
                        "colour": paint,
                        "bevel": float(rng.uniform(0.5, 1.2)),
                        "turn_deg": float(rng.uniform(0, 360)),
                    }
                )
            stacks.append({"region": region, "color": colour, "discs": discs})
    widths, heights = dict(profile.token_mm), dict(profile.token_height)  # ASSUMED in the profile
    pawn = rng.random() < 0.5  # this set's disciples are pawns, or bevelled cylinders
    shades = {c: _srgb(DEFAULT_COLOURS[c], rng) for c in players}
    emblems: list[np.ndarray] = []
    cells = [r for r in profile.regions if r.holds == "tokens"]
    for index in rng.choice(len(cells), size=min(len(cells), 30), replace=False):
        region = cells[int(index)]
        middle = np.array(region.centre())
        lift = BOARD_THICK_MM
        if rng.random() < 0.6:
            colour = str(rng.choice(["red", "yellow", "blue"]))
            at = middle + rng.uniform(-4, 4, 2)
            emblems.append(emblem(rng, DEFAULT_COLOURS[colour]))
            card = [float(v) / 255 for v in emblems[-1][2, 2][::-1]]
            solids.append(
                {
                    "kind": "tile",
                    "centre": at.tolist(),
                    "z": lift,
                    "width": widths["resource"],
                    "height": heights["resource"],
                    "emblem": len(emblems) - 1,
                    "colour": card,
                    "turn_deg": float(rng.uniform(-20, 20)),
                }
            )
            tokens.append({"region": region.name, "kind": "resource", "color": colour})
            lift += heights["resource"]
        if rng.random() < 0.5:
            kind = str(rng.choice(["priest", "cultist"]))
            colour = str(rng.choice(players))
            at = middle + rng.uniform(-6, 6, 2)
            width, height = widths[kind], heights[kind]
            solids.append(
                {
                    "kind": "pawn" if pawn else "cylinder",
                    "centre": at.tolist(),
                    "z": lift,
                    "width": width,
                    "height": height,
                    "colour": shades[colour],
                    "bevel": float(rng.uniform(0.5, 1.5)),
                    "turn_deg": 0.0,
                }
            )
            tokens.append({"region": region.name, "kind": kind, "color": colour})
    art, extent = board_art(profile, rng)
    middle = np.array([profile.size[0] / 2, profile.size[1] / 2])
    aim = np.array([middle[0] + rng.uniform(-30, 30), -(middle[1] + rng.uniform(-30, 30)), 0.0])
    matrix, shot = camera_matrix(rng, aim)
    table_colour = _srgb(tuple(float(v) for v in rng.uniform(40, 170, 3)), rng, 0)
    scene = {
        "seed": seed,
        "size": [1280, 960],
        "hfov_deg": 62.2,
        "camera": matrix,
        "shot": shot,
        "lamps": lamps(rng, np.array([middle[0], -middle[1], 0.0])),
        "ambient": float(rng.uniform(0.05, 0.4)),
        "table": {"colour": table_colour, "grain": bool(rng.random() < 0.6)},
        "board": board_card(extent, BOARD_THICK_MM, rng),
        "markers": marker_sheets(profile),
        "solids": solids,
        "kit": {"pawn": pawn, "shades": shades},  # the set's shape and paints, for `taught_table`
        "roughness": float(rng.uniform(0.25, 0.7)),
        "samples": 48,
    }
    papers = {i: marker_paper(profile, i) for i, _ in profile.markers}
    return Table(scene, art, papers, emblems, {"stacks": stacks, "tokens": tokens, "settled": True})


TAUGHT = {"priest": 3, "cultist": 6, "resource": 6}
"""How many of each kind a player shows when teaching one colour (a player's three priests and
six cultists; six resource tiles of a tile colour)."""


def taught_table(table: Table, profile: Profile, colour: str) -> Table:
    """The same table under the same lamps with every piece of one colour laid apart on the
    empty board, as a player shows them when teaching the companion (vision/teach.py): a
    player's priests and cultists in their set's shape and paint (`amharb_table`'s kit), and
    resource tiles when tiles come in that colour, each alone in a space of the island."""
    kit = table.scene["kit"]
    rng = np.random.default_rng(int(table.scene["seed"]) * 100 + sum(map(ord, colour)))
    widths, heights = dict(profile.token_mm), dict(profile.token_height)
    kinds = []
    if colour in kit["shades"]:
        kinds += ["priest"] * TAUGHT["priest"] + ["cultist"] * TAUGHT["cultist"]
    if profile.comes_in("resource", colour):
        kinds += ["resource"] * TAUGHT["resource"]
    apart = [
        r
        for r in profile.regions
        if r.holds == "tokens" and all(int(v) % 2 == 0 for v in r.name.split("/")[1:])
    ]
    solids: list[dict[str, Any]] = []
    emblems: list[np.ndarray] = []
    tokens = []
    for kind, index in zip(kinds, rng.permutation(len(apart)), strict=False):
        region = apart[int(index)]
        at = np.array(region.centre()) + rng.uniform(-3, 3, 2)
        item: dict[str, Any] = {
            "centre": at.tolist(),
            "z": BOARD_THICK_MM,
            "width": widths[kind],
            "height": heights[kind],
        }
        if kind == "resource":
            emblems.append(emblem(rng, DEFAULT_COLOURS[colour]))
            card = [float(v) / 255 for v in emblems[-1][2, 2][::-1]]
            item |= {
                "kind": "tile",
                "emblem": len(emblems) - 1,
                "colour": card,
                "turn_deg": float(rng.uniform(-20, 20)),
            }
        else:
            item |= {
                "kind": "pawn" if kit["pawn"] else "cylinder",
                "colour": kit["shades"][colour],
                "bevel": 1.0,
                "turn_deg": 0.0,
            }
        solids.append(item)
        tokens.append({"region": region.name, "kind": kind, "color": colour})
    return Table(
        {**table.scene, "solids": solids}, table.art, table.papers, emblems, {"stacks": [], "tokens": tokens}
    )


def write_scene(table: Table, folder: Path) -> Path:
    """The scene's JSON and its pictures in `folder`; the JSON's path."""
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / "art.png"), table.art)
    for i, paper in table.papers.items():
        cv2.imwrite(str(folder / f"marker{i}.png"), paper)
    for i, top in enumerate(table.emblems):
        cv2.imwrite(str(folder / f"emblem{i}.png"), top)
    path = folder / "scene.json"
    path.write_text(json.dumps(table.scene))
    return path
