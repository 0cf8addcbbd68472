"""Turris tables for Blender's Cycles path tracer (tests/blender_render.py), for issue 25: Scouts
and Beasts modelled as miniatures are bought (a round base, a sculpted figure standing on it, in
a pose), the Fruit token, on a painted Main Board whose every place is an illustrated vignette
with its name, paths between the places, the two Crossroads' dark circles and the Abyss; real
lamps, soft shadows, light bouncing between the figures. A scene and its pictures as
tests/blender_scene.py makes Am'harb's; nothing in vision/ was tuned on it.

Its numbers come from issue 25's description of the held-out renders (Scouts 25-35 mm figures on
20 mm bases in the player's colour or dark plastic; Beasts 40-60 mm dark figures on 45 mm bases;
the Fruit a 30 x 3 mm orange token; the camera 920-1300 mm up), not from the reader.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from tests.blender_scene import (
    ART_PX_PER_MM,
    PAPER_MM,
    Table,
    _srgb,
    board_card,
    lamps,
    looking_at,
    marker_paper,
    marker_sheets,
)
from tests.pinhole_figures import free_spot
from vision.colours import DEFAULT_COLOURS
from vision.profiles import Profile

BOARD_MARGIN_MM = 12.0
"""The Main Board's card beyond its places (the markers lie on the table round it)."""
BOARD_THICK_MM = 2.0
BASE_MM = 3.0
"""A miniature's base's height."""
DARK_PLASTIC = (48.0, 46.0, 50.0)
"""Unpainted dark grey plastic (BGR)."""
HFOV_DEG = 62.2
SIZE = (1280, 960)


def _bgr(rng: np.random.Generator, low: int = 20, high: int = 250) -> tuple[float, float, float]:
    b, g, r = (float(v) for v in rng.integers(low, high, 3))
    return b, g, r


def painted_ground(
    extent: tuple[float, float, float, float], rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """A board's painted ground over `extent` (board mm) at ART_PX_PER_MM: soft patches of one
    random hue, a fine speckle. The picture (BGR) and its hue (BGR)."""
    x0, y0, x1, y1 = extent
    s = ART_PX_PER_MM
    width, height = int((x1 - x0) * s), int((y1 - y0) * s)
    base = rng.uniform(70, 190, 3)
    patches = np.stack([rng.normal(0, 28, (height // 40 + 1, width // 40 + 1)) for _ in range(3)], axis=2)
    ground = base + cv2.GaussianBlur(cv2.resize(patches.astype(np.float32), (width, height)), (0, 0), 24)
    speckle = rng.normal(0, 7, (height // 3, width // 3)).astype(np.float32)
    ground += cv2.resize(speckle, (width, height))[..., None]
    return np.clip(ground, 0, 255).astype(np.uint8), base


def vignette(
    image: np.ndarray,
    box: tuple[float, float, float, float],
    px: Callable[[float, float], tuple[int, int]],
    rng: np.random.Generator,
    things: int,
) -> None:
    """Paints `things` shapes of any colour (the players' too) in `box` (board mm: left, top,
    right, bottom; `px` places board mm in the picture): trees, ponds, buildings, rivers, walls,
    a fire's glow."""
    s = ART_PX_PER_MM
    left, top, right, bottom = box
    for _ in range(things):
        at = px(rng.uniform(left, right), rng.uniform(top, bottom))
        size = int(rng.uniform(4, 22) * s)
        colour = _bgr(rng)
        shape = int(rng.integers(0, 4))
        if shape == 0:  # a tree, a pond, a glow
            cv2.ellipse(
                image,
                at,
                (size, int(size * rng.uniform(0.5, 1.0))),
                float(rng.uniform(0, 180)),
                0,
                360,
                colour,
                -1,
                cv2.LINE_AA,
            )
        elif shape == 1:  # a building
            cv2.rectangle(image, (at[0] - size // 2, at[1] - size), (at[0] + size // 2, at[1]), colour, -1)
            roof = np.array(
                [
                    [at[0] - size // 2 - 4, at[1] - size],
                    [at[0] + size // 2 + 4, at[1] - size],
                    [at[0], at[1] - int(1.6 * size)],
                ],
                np.int32,
            )
            cv2.fillPoly(image, [roof], _bgr(rng), cv2.LINE_AA)
        elif shape == 2:  # a river or a wall
            end = (at[0] + int(rng.uniform(-2, 2) * size), at[1] + int(rng.uniform(-2, 2) * size))
            cv2.line(image, at, end, colour, max(2, int(rng.uniform(1, 4) * s)), cv2.LINE_AA)
        else:  # a fire's glow (the Forge's) or a lamp
            for r, glow in ((size, 0.5), (size // 2, 1.0)):
                tone = (40.0 * glow, 150.0 + 80 * glow, 230.0)
                cv2.circle(image, at, max(2, r), tone, -1, cv2.LINE_AA)


def board_canvas(
    profile: Profile, rng: np.random.Generator
) -> tuple[
    np.ndarray, np.ndarray, tuple[float, float, float, float], Callable[[float, float], tuple[int, int]]
]:
    """A board's painted ground (`painted_ground`) over its size and margin: the picture, its hue,
    its extent (board mm) and where a board point falls in it (px)."""
    w, h = profile.size
    extent = (-BOARD_MARGIN_MM, -BOARD_MARGIN_MM, w + BOARD_MARGIN_MM, h + BOARD_MARGIN_MM)
    image, base = painted_ground(extent, rng)

    def px(x: float, y: float) -> tuple[int, int]:
        return int(round((x - extent[0]) * ART_PX_PER_MM)), int(round((y - extent[1]) * ART_PX_PER_MM))

    return image, base, extent, px


def board_art(profile: Profile, rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, ...]]:
    """The Main Board's painted picture (BGR) and its extent in board mm: a landscape of soft
    patches, paths between the places, each place a vignette (buildings, trees, water, fire:
    shapes of any colour, the players' too) with a frame and its name, the Crossroads two dark
    circles, the Abyss a dark pit."""
    s = ART_PX_PER_MM
    image, base, extent, px = board_canvas(profile, rng)
    places = [r for r in profile.regions if r.holds == "tokens"]
    road = _bgr(rng, 60, 200)
    for a, b in zip(places, places[1:] + places[:1]):
        cv2.line(image, px(*a.centre()), px(*b.centre()), road, int(rng.uniform(4, 9) * s), cv2.LINE_AA)
    for place in places:
        xs, ys = zip(*place.polygon)
        left, top, right, bottom = min(xs), min(ys), max(xs), max(ys)
        if place.name.startswith("Crossroad"):
            cx, cy = place.centre()
            cv2.circle(image, px(cx, cy), int((right - left) / 2 * s), (32, 28, 30), -1, cv2.LINE_AA)
            cv2.circle(image, px(cx, cy), int((right - left) / 2 * s), road, int(2 * s), cv2.LINE_AA)
            continue
        tint = np.clip(base * rng.uniform(0.7, 1.3, 3), 0, 255)
        cv2.rectangle(image, px(left, top), px(right, bottom), tuple(float(v) for v in tint), -1)
        if place.name == "Abyss":
            cx, cy = place.centre()
            cv2.ellipse(
                image, px(cx, cy), (int(40 * s), int(30 * s)), 0, 0, 360, (25, 20, 30), -1, cv2.LINE_AA
            )
        vignette(image, (left, top, right, bottom), px, rng, int(rng.integers(3, 8)))
        frame = tuple(float(v) for v in np.clip(base * 0.45, 0, 255))
        cv2.rectangle(image, px(left, top), px(right, bottom), frame, max(2, int(1.5 * s)), cv2.LINE_AA)
        ink = (25.0, 22.0, 20.0) if rng.random() < 0.6 else (235.0, 235.0, 228.0)
        cv2.putText(
            image,
            place.name,
            px(left + 4, bottom - 5),
            cv2.FONT_HERSHEY_TRIPLEX,
            0.9 * s / 4 * 2,
            ink,
            max(1, int(s / 2)),
            cv2.LINE_AA,
        )
    image = cv2.GaussianBlur(image, (0, 0), 1.2)  # paint, not pixels
    return image, extent


def scout(
    at: tuple[float, float],
    colour: str,
    dark_base: bool,
    rng: np.random.Generator,
    size: tuple[float, tuple[float, float], tuple[float, float]] = (20.0, (10, 14), (25, 35)),
) -> list[dict[str, Any]]:
    """A Scout: a 20 mm base (its player's colour or dark plastic) and a figure 25-35 mm tall in
    a pose (a cloaked body leaning a little, a head, a staff or spear held out). `size`: the
    base's width, the figure's width and height ranges (mm), for other games' figures."""
    base_mm, widths, heights = size
    paint = _srgb(DEFAULT_COLOURS[colour], rng)
    base = _srgb(DARK_PLASTIC, rng, 8) if dark_base else paint
    tall = float(rng.uniform(*heights))
    body_w = float(rng.uniform(*widths))
    lean, towards = float(rng.uniform(0, 10)), float(rng.uniform(0, 360))
    head = 0.3 * body_w
    solids = [
        _cylinder(at, BOARD_THICK_MM, base_mm, BASE_MM, base, rng),
        _cone(at, BOARD_THICK_MM + BASE_MM, (body_w, 0.45 * body_w), tall - 2 * head, paint, (lean, towards)),
        {
            "kind": "ellipsoid",
            "centre": _leaned(at, tall - head, lean, towards),
            "z": BOARD_THICK_MM + BASE_MM + (tall - head) * np.cos(np.radians(lean)),
            "size": [2 * head, 2 * head, 2.2 * head],
            "colour": paint,
        },
    ]
    if rng.random() < 0.6:  # a staff held out
        angle = float(rng.uniform(0, 360))
        hand = (
            at[0] + 0.5 * body_w * np.cos(np.radians(angle)),
            at[1] + 0.5 * body_w * np.sin(np.radians(angle)),
        )
        staff = float(tall * rng.uniform(0.9, 1.2))
        solids.append(
            _cone(
                hand, BOARD_THICK_MM + BASE_MM, (2.0, 1.6), staff, paint, (float(rng.uniform(0, 20)), angle)
            )
        )
    return solids


def beast(
    at: tuple[float, float],
    rng: np.random.Generator,
    base_mm: float = 45.0,
    base_colour: list[float] | None = None,
    heights: tuple[float, float] = (40, 60),
) -> list[dict[str, Any]]:
    """A Beast: a dark 45 mm base and a dark figure 40-60 mm tall, bulky (a hunched body, a head
    thrust forward, horns or wings), reaching past its base; or another game's bulky dark figure
    on a base of its own size and colour (`base_colour`, sRGB 0-1)."""
    dark = _srgb(tuple(v + rng.uniform(-10, 25) for v in DARK_PLASTIC), rng, 8)
    tall = float(rng.uniform(*heights))
    facing = float(rng.uniform(0, 360))
    fx, fy = np.cos(np.radians(facing)), np.sin(np.radians(facing))
    body = float(rng.uniform(26, 34))
    z0 = BOARD_THICK_MM + BASE_MM
    solids = [
        _cylinder(at, BOARD_THICK_MM, base_mm, BASE_MM, base_colour or dark, rng),
        {
            "kind": "ellipsoid",
            "centre": list(at),
            "z": z0 + 0.4 * tall,
            "size": [body, 0.8 * body, 0.8 * tall],
            "colour": dark,
            "turn_deg": facing,
        },
        {
            "kind": "ellipsoid",
            "centre": [at[0] + 0.45 * body * fx, at[1] + 0.45 * body * fy],
            "z": z0 + 0.8 * tall,
            "size": [0.5 * body, 0.45 * body, 0.4 * body],
            "colour": dark,
            "turn_deg": facing,
        },
    ]
    for side in (-1, 1):  # horns or wings
        wing = facing + side * float(rng.uniform(60, 120))
        root = (at[0] + 0.2 * body * np.cos(np.radians(wing)), at[1] + 0.2 * body * np.sin(np.radians(wing)))
        horn = float(rng.uniform(0.3, 0.6) * tall)
        solids.append(
            _cone(root, z0 + 0.6 * tall, (0.3 * body, 1.0), horn, dark, (float(rng.uniform(30, 60)), wing))
        )
    return solids


def _cone(
    foot: tuple[float, float],
    z: float,
    widths: tuple[float, float],
    height: float,
    colour: list[float],
    lean: tuple[float, float],
) -> dict[str, Any]:
    """A figure's body, a staff or a horn for the render: from its foot (board mm, `z` up), its
    width there and at its tip, leaning `lean` (degrees from upright, towards degrees)."""
    return {
        "kind": "cone",
        "centre": [float(foot[0]), float(foot[1])],
        "z": z,
        "width": widths[0],
        "top_width": widths[1],
        "height": height,
        "colour": colour,
        "lean_deg": lean[0],
        "lean_towards_deg": lean[1],
    }


def _cylinder(
    at: tuple[float, float],
    z: float,
    width: float,
    height: float,
    colour: list[float],
    rng: np.random.Generator,
) -> dict[str, Any]:
    return {
        "kind": "cylinder",
        "centre": list(at),
        "z": z,
        "width": width,
        "height": height,
        "colour": colour,
        "bevel": float(rng.uniform(0.4, 1.0)),
        "turn_deg": 0.0,
    }


def _leaned(at: tuple[float, float], up: float, lean_deg: float, towards_deg: float) -> list[float]:
    """Where a point `up` mm along a figure leaning `lean_deg` towards `towards_deg` lies (board mm)."""
    reach = up * np.sin(np.radians(lean_deg))
    return [at[0] + reach * np.cos(np.radians(towards_deg)), at[1] + reach * np.sin(np.radians(towards_deg))]


def camera_over(profile: Profile, rng: np.random.Generator) -> tuple[list[list[float]], dict[str, float]]:
    """A camera 920-1300 mm above the board, tilted up to 20 degrees, turned as the players turn
    it to see all four markers (the first of a dozen random turns that does), raised only when
    none does."""
    middle = np.array(
        [profile.size[0] / 2 + rng.uniform(-25, 25), -(profile.size[1] / 2 + rng.uniform(-25, 25)), 0]
    )
    height = float(rng.uniform(920, 1300))
    tilt, azimuth = np.radians(rng.uniform(0, 20)), rng.uniform(0, 2 * np.pi)
    rolls = rng.uniform(0, 2 * np.pi, 12)
    while True:
        for roll in rolls:
            matrix = looking_at(middle, height, tilt, azimuth, roll)
            if _markers_in_view(profile, matrix) or height > 2000:
                return matrix.tolist(), {"height_mm": height, "tilt_deg": float(np.degrees(tilt))}
        height += 40


def _markers_in_view(profile: Profile, matrix: np.ndarray) -> bool:
    """Whether every marker's paper lies inside the frame, 20 px in from its edges."""
    f = SIZE[0] / 2 / np.tan(np.radians(HFOV_DEG / 2))
    half = profile.marker_size / 2 + PAPER_MM
    for _, (x, y) in profile.markers:
        for dx in (-half, half):
            for dy in (-half, half):
                d = np.array([x + dx, -(y + dy), 0.0]) - matrix[:3, 3]
                depth = -d @ matrix[:3, 2]
                u = SIZE[0] / 2 + f * (d @ matrix[:3, 0]) / depth
                v = SIZE[1] / 2 - f * (d @ matrix[:3, 1]) / depth
                if not (20 <= u < SIZE[0] - 20 and 20 <= v < SIZE[1] - 20):
                    return False
    return True


def turris_table(profile: Profile, seed: int) -> Table:
    """A random Turris table: Beasts on about a quarter of the places, the Fruit on one at most,
    zero to four Scouts of the players' colours on each, touching at times."""
    rng = np.random.default_rng(seed)
    players = list(profile.piece_colours or ("red", "blue", "green", "yellow"))
    solids: list[dict[str, Any]] = []
    tokens: list[dict[str, str]] = []
    fruit = False
    dark_bases = rng.random() < 0.5  # a box's Scouts come on dark bases, or on their colour's
    for place in (r for r in profile.regions if r.holds == "tokens"):
        xs, ys = zip(*place.polygon)
        box = (min(xs), min(ys), max(xs), max(ys))
        taken: list[tuple[np.ndarray, float]] = []
        if rng.random() < 0.25 and (at := free_spot(rng, box, taken, 45.0)) is not None:
            solids += beast(at, rng)
            tokens.append({"region": place.name, "kind": "beast", "color": "black"})
        if not fruit and rng.random() < 0.15 and (at := free_spot(rng, box, taken, 30.0)) is not None:
            solids.append(
                _cylinder(at, BOARD_THICK_MM, 30.0, 3.0, _srgb(DEFAULT_COLOURS["orange"], rng), rng)
            )
            tokens.append({"region": place.name, "kind": "fruit", "color": "orange"})
            fruit = True
        for _ in range(int(rng.choice([0, 0, 1, 1, 2, 3, 4]))):
            if (at := free_spot(rng, box, taken, 20.0)) is None:
                break
            colour = str(rng.choice(players))
            solids += scout(at, colour, dark_bases, rng)
            tokens.append({"region": place.name, "kind": "scout", "color": colour})
    return painted_table(profile, rng, seed, solids, tokens)


def painted_table(
    profile: Profile,
    rng: np.random.Generator,
    seed: int,
    solids: list[dict[str, Any]],
    tokens: list[dict[str, str]],
    art: Callable[[Profile, np.random.Generator], tuple[np.ndarray, tuple[float, ...]]] = board_art,
) -> Table:
    """The scene of these solids on the profile's painted board (`art`: Turris's `board_art`
    unless another game's), seen by a camera over it (`camera_over`) under one to three lamps,
    with its truth (`tokens`)."""
    picture, extent = art(profile, rng)
    matrix, shot = camera_over(profile, rng)
    middle = np.array([profile.size[0] / 2, -profile.size[1] / 2, 0.0])
    scene = {
        "seed": seed,
        "size": list(SIZE),
        "hfov_deg": HFOV_DEG,
        "camera": matrix,
        "shot": shot,
        "lamps": lamps(rng, middle),
        "ambient": float(rng.uniform(0.05, 0.4)),
        "table": {
            "colour": _srgb(tuple(float(v) for v in rng.uniform(40, 170, 3)), rng, 0),
            "grain": bool(rng.random() < 0.6),
        },
        "board": board_card(extent, BOARD_THICK_MM, rng),
        "markers": marker_sheets(profile),
        "solids": solids,
        "roughness": float(rng.uniform(0.25, 0.7)),
        "samples": 48,
    }
    papers = {i: marker_paper(profile, i) for i, _ in profile.markers}
    return Table(scene, picture, papers, [], {"stacks": [], "tokens": tokens, "settled": True})
