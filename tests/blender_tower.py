"""Tower tables for Blender's Cycles path tracer (tests/blender_render.py), for issue 25: wooden
meeples standing (an outline 16 mm wide and tall, 8 mm thick, its grain), 20 mm card material
tokens, 10 mm cut gems (glassy at some tables, opaque at others), the palace's stacked
segments, on a painted play mat: stall tiles with awnings, a wooden counter and brown-framed
material spaces, Salil's pile a vignette, the players' tableaus with a dark printed border and
their labels. Built with tests/blender_turris.py's camera, lamps and table; nothing in vision/
was tuned on it.

Its numbers come from the tower profile (ASSUMED sizes, vision/profiles/tower.toml), issue 25's
description of the held-out renders and the game's citizens (companion/games/tower/sight.py:
builders by their colour, the stand-in yellow, the runner red, the guard white), not from the
reader."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from tests.blender_scene import ART_PX_PER_MM, Table, _srgb
from tests.blender_turris import BOARD_THICK_MM, board_canvas, painted_table, vignette
from tests.pinhole_figures import BROWN, BUILDERS, free_spot
from vision.colours import DEFAULT_COLOURS
from vision.profiles import Profile

MATERIALS = {
    "yellow": DEFAULT_COLOURS["yellow"],
    "brown": BROWN,
    "red": DEFAULT_COLOURS["red"],
    "blue": DEFAULT_COLOURS["blue"],
}
"""Straw, lumber, clay and water, as the tower profile names them."""
GEMS = ("green", "blue", "red", "black")
CITIZENS = (*BUILDERS, "yellow", "red", "white")
"""The meeples' colours on a stall: the builders', the stand-in's, the runner's, the guard's."""
SEGMENT_MM = (30.0, 15.0)
"""A palace segment's width and height (ASSUMED, as the profile's)."""
INK = (30.0, 27.0, 25.0)


def meeple_outline() -> list[tuple[float, float]]:
    """A meeple seen face on (mm across, up; 16 x 16): legs apart, arms out, a round head."""
    body = [(-8.0, 0.0), (-2.5, 0.0), (0.0, 4.0), (2.5, 0.0), (8.0, 0.0), (4.5, 7.5), (8.0, 9.5), (7.5, 11.5)]
    body.append((2.6, 11.5))
    head = [(3.0 * np.cos(a), 13.0 + 3.0 * np.sin(a)) for a in np.radians(np.linspace(-30, 210, 13))[1:-1]]
    left = [(-2.6, 11.5), (-7.5, 11.5), (-8.0, 9.5), (-4.5, 7.5)]
    return [(round(float(u), 3), round(float(v), 3)) for u, v in [*body, *head, *left]]


def meeple(at: tuple[float, float], colour: str, rng: np.random.Generator) -> dict[str, Any]:
    """A wooden meeple standing at `at`, turned any way."""
    return {
        "kind": "meeple",
        "centre": list(at),
        "z": BOARD_THICK_MM,
        "outline": meeple_outline(),
        "depth": 8.0,
        "colour": _srgb(DEFAULT_COLOURS[colour], rng),
        "turn_deg": float(rng.uniform(0, 180)),
        "bevel": 0.8,
    }


def card(at: tuple[float, float], colour: str, rng: np.random.Generator) -> dict[str, Any]:
    """A 20 mm material token, 2 mm card, laid a little askew."""
    return {
        "kind": "box",
        "centre": list(at),
        "z": BOARD_THICK_MM,
        "size": [20.0, 20.0, 2.0],
        "colour": _srgb(MATERIALS[colour], rng),
        "turn_deg": float(rng.uniform(-15, 15)),
        "bevel": 0.3,
        "roughness": 0.85,
    }


def gem(at: tuple[float, float], colour: str, glassy: bool, rng: np.random.Generator) -> dict[str, Any]:
    """A 10 mm cut gem, 6 mm tall: glassy (light through it, tinted) or opaque; black never glassy."""
    return {
        "kind": "gem",
        "centre": list(at),
        "z": BOARD_THICK_MM,
        "size": [10.0, 10.0, 6.0],
        "colour": _srgb(DEFAULT_COLOURS[colour], rng),
        "clear": 0.85 if glassy and colour != "black" else 0.0,
        "turn_deg": float(rng.uniform(0, 360)),
    }


def _box(profile: Profile, prefix: str, pad: float = 0.0) -> tuple[float, float, float, float]:
    """The bounding box (mm) of the regions whose names start with `prefix`, grown by `pad`."""
    points = [p for r in profile.regions if r.name.startswith(prefix) for p in r.polygon]
    xs, ys = zip(*points)
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def mat_art(profile: Profile, rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, ...]]:
    """The play mat's painted picture (BGR) and its extent (board mm): a painted ground; each
    stall a tile with a striped awning, a wooden counter and its material spaces framed in brown,
    the meeple's spot a dark ring; Salil's pile a vignette; the rolling area felt; the palace
    stone; each tableau a dark printed border with its labels."""
    s = ART_PX_PER_MM
    image, base, extent, px = board_canvas(profile, rng)

    def bgr(v: Any) -> tuple[float, float, float]:
        return tuple(float(c) for c in np.clip(v, 0, 255))  # type: ignore[return-value]

    wood = np.array(BROWN) * rng.uniform(0.8, 1.25)
    for stall in range(1, 7):
        left, top, right, bottom = _box(profile, f"stall/{stall}/", 4.0)
        cv2.rectangle(image, px(left, top), px(right, bottom), bgr(base * rng.uniform(0.8, 1.2, 3)), -1)
        stripes = (
            np.array(DEFAULT_COLOURS[str(rng.choice(("red", "blue", "green", "yellow")))]),
            (235, 232, 225),
        )
        for k, x in enumerate(np.arange(left, right, 10.0)):  # the awning
            cv2.rectangle(image, px(x, top - 8), px(min(x + 10, right), top + 2), bgr(stripes[k % 2]), -1)
        counter = top + (bottom - top) * rng.uniform(0.45, 0.65)  # the wooden counter, grained
        cv2.rectangle(image, px(left, counter), px(right, bottom), bgr(wood), -1)
        for y in np.arange(counter + 1.5, bottom, 2.5):
            cv2.line(image, px(left, y), px(right, y), bgr(wood * rng.uniform(0.7, 0.9)), 1, cv2.LINE_AA)
        for region in (r for r in profile.regions if r.name.startswith(f"stall/{stall}/")):
            xs, ys = zip(*region.polygon)
            if region.name.endswith("meeple"):
                cv2.circle(image, px(*region.centre()), int(15 * s), INK, max(2, int(1.2 * s)), cv2.LINE_AA)
            else:
                frame = bgr(wood * 0.6)
                cv2.rectangle(
                    image,
                    px(min(xs), min(ys)),
                    px(max(xs), max(ys)),
                    frame,
                    max(2, int(1.5 * s)),
                    cv2.LINE_AA,
                )
        cv2.putText(
            image, f"{stall}", px(left + 3, top + 12), cv2.FONT_HERSHEY_TRIPLEX, 1.4, INK, 2, cv2.LINE_AA
        )
    salil = _box(profile, "salil")
    vignette(image, salil, px, rng, int(rng.integers(4, 9)))
    cv2.putText(
        image, "SALIL", px(salil[0] + 4, salil[3] - 5), cv2.FONT_HERSHEY_TRIPLEX, 1.6, INK, 2, cv2.LINE_AA
    )
    tray = _box(profile, "tray")
    cv2.rectangle(image, px(*tray[:2]), px(*tray[2:]), bgr(rng.uniform(30, 90, 3)), -1)
    palace = _box(profile, "palace")
    stone = rng.uniform(110, 170)
    cv2.rectangle(image, px(*palace[:2]), px(*palace[2:]), bgr((stone, stone, stone + 6)), -1)
    for y in np.arange(palace[1] + 6, palace[3], 6.0):  # its courses of stone
        cv2.line(image, px(palace[0], y), px(palace[2], y), bgr((stone * 0.6,) * 3), 1, cv2.LINE_AA)
    for seat in range(1, 5):
        left, top, right, bottom = _box(profile, f"player/{seat}/", 3.0)
        paper = bgr(base * rng.uniform(0.9, 1.3, 3))
        cv2.rectangle(image, px(left, top), px(right, bottom), paper, -1)
        cv2.rectangle(image, px(left, top), px(right, bottom), INK, int(4 * s), cv2.LINE_AA)  # the border
        gems, materials = _box(profile, f"player/{seat}/gems"), _box(profile, f"player/{seat}/materials")
        cv2.line(image, px(left, gems[3]), px(right, gems[3]), INK, int(1.5 * s), cv2.LINE_AA)
        for label, box in ((f"PLAYER {seat}  GEMS", gems), ("MATERIALS", materials)):
            cv2.putText(
                image, label, px(box[0] + 6, box[1] + 12), cv2.FONT_HERSHEY_TRIPLEX, 1.2, INK, 2, cv2.LINE_AA
            )
        for k in range(4):  # the gems' printed icons
            cx, cy = gems[0] + 20 + 16 * k, gems[3] - 12
            cv2.circle(image, px(cx, cy), int(4 * s), INK, max(1, int(0.6 * s)), cv2.LINE_AA)
    image = cv2.GaussianBlur(image, (0, 0), 1.2)  # print, not pixels
    return image, extent


def tower_table(profile: Profile, seed: int) -> Table:
    """A random Tower table: material tokens on the stalls' spaces and the tableaus, one or two
    meeples at a stall, the palace's stack of one to four segments, zero to eight gems on each
    tableau and Salil's pile, spread or shoulder to shoulder; gems glassy at half the tables."""
    rng = np.random.default_rng(seed)
    glassy = rng.random() < 0.5
    solids: list[dict[str, Any]] = []
    tokens: list[dict[str, str]] = []
    for region in (r for r in profile.regions if r.holds == "tokens"):
        xs, ys = zip(*region.polygon)
        box = (min(xs), min(ys), max(xs), max(ys))
        middle = region.centre()
        kind = region.kinds[0] if region.kinds else None
        taken: list[tuple[np.ndarray, float]] = []
        if region.name.startswith("stall/") and kind == "material" and rng.random() < 0.6:
            colour = str(rng.choice(list(MATERIALS)))
            solids.append(card((middle[0] + rng.uniform(-2, 2), middle[1] + rng.uniform(-2, 2)), colour, rng))
            tokens.append({"region": region.name, "kind": "material", "color": colour})
        elif kind == "meeple" and rng.random() < 0.6:
            many = 2 if rng.random() < 0.2 else 1
            for k in range(many):
                colour = str(rng.choice(CITIZENS, p=[0.15] * 4 + [0.15, 0.15, 0.1]))
                dx = 0.0 if many == 1 else (-9.0 if k == 0 else 9.0)
                at = (middle[0] + dx + rng.uniform(-2, 2), middle[1] + rng.uniform(-3, 3))
                solids.append(meeple(at, colour, rng))
                tokens.append({"region": region.name, "kind": "meeple", "color": colour})
        elif kind == "segment" and rng.random() < 0.8:
            width, tall = SEGMENT_MM
            for level in range(int(rng.integers(1, 5))):
                colour = str(rng.choice(BUILDERS))
                solids.append(
                    {
                        "kind": "cylinder",
                        "centre": [middle[0] + rng.uniform(-1, 1), middle[1] + rng.uniform(-1, 1)],
                        "z": BOARD_THICK_MM + level * tall,
                        "width": width,
                        "height": tall,
                        "colour": _srgb(DEFAULT_COLOURS[colour], rng),
                        "bevel": 1.0,
                        "turn_deg": 0.0,
                    }
                )
            tokens.append({"region": region.name, "kind": "segment", "color": colour})
        elif kind == "gem":
            for _ in range(int(rng.integers(0, 9))):
                if (at := free_spot(rng, box, taken, 10.0 + (0.0 if rng.random() < 0.3 else 4.0))) is None:
                    break
                colour = str(rng.choice(GEMS))
                solids.append(gem(at, colour, glassy, rng))
                tokens.append({"region": region.name, "kind": "gem", "color": colour})
        elif region.name.startswith("player/") and kind == "material":
            for _ in range(int(rng.integers(0, 5))):
                if (at := free_spot(rng, box, taken, 29.0)) is None:
                    break
                colour = str(rng.choice(list(MATERIALS)))
                solids.append(card(at, colour, rng))
                tokens.append({"region": region.name, "kind": "material", "color": colour})
    return painted_table(profile, rng, seed, solids, tokens, mat_art)
