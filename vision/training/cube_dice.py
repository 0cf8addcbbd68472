"""Training frames of d6 dice drawn as solid cubes, for the detector and the face reader.

The real photos the networks learn from show dice from straight above or from one webcam's
angle, in a few styles; a table's camera sees its dice from up to 40 degrees off the vertical,
their side faces and pips beside the top face, 13-30 px across, in whatever style the players
own. This draws such dice in wide variety: a cube seen along a random slant (a parallel
projection: the dice are small against their distance), its faces lit by a lamp from a random
side, rounded edges, pips of several sizes, colours and pitches (recessed at times), solid,
marbled, translucent or glittering bodies, an emblem on the 1 (and at times on the 6), on wood,
felt, plain or printed backgrounds with numerals and letters that are not dice, with shadows,
blur and noise. It is independent of tests/pinhole_dice.py (a pinhole camera, its own shading),
which measures what is learnt here on dice drawn another way; real photos measure it for good.

numpy/OpenCV only, so it can be tested without torch.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..render import PIPS
from .dice_data import Labelled

SIZE = 320
"""Each frame is this many pixels square."""
INKS = ((240, 240, 240), (25, 25, 25), (40, 175, 215), (40, 40, 190), (190, 190, 195), (150, 60, 20))
"""Pip colours (BGR): white, black, gold, red, silver, blue."""


def _background(rng: np.random.Generator) -> np.ndarray:
    """Wood, felt, speckled carpet or stone, woven cloth, a plain table or a printed board
    (shapes, lines, numerals and letters)."""
    kind = rng.choice(
        ["wood", "felt", "plain", "print", "speckle", "weave"], p=[0.2, 0.15, 0.15, 0.2, 0.15, 0.15]
    )
    base = rng.uniform(30, 220, 3).astype(np.float32)
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    if kind == "wood":
        base = np.array([rng.uniform(30, 90), rng.uniform(60, 130), rng.uniform(100, 190)], np.float32)
        turn = rng.uniform(0, np.pi)
        along = xx * np.cos(turn) + yy * np.sin(turn)
        warp = cv2.resize(
            rng.normal(0, 6, (8, 8)).astype(np.float32), (SIZE, SIZE), interpolation=cv2.INTER_CUBIC
        )
        grain = np.sin((along + warp) * rng.uniform(0.15, 0.5)) * rng.uniform(8, 25)
        image = base + grain[..., None]
    elif kind == "felt":
        image = base + rng.normal(0, rng.uniform(3, 10), (SIZE, SIZE, 1)).astype(np.float32)
    elif kind == "speckle":  # carpet, tweed, granite: flecks of a few colours, 1-4 px each
        grain = float(rng.uniform(1, 4))
        cells = (int(SIZE / grain), int(SIZE / grain))
        palette = rng.uniform(20, 235, (int(rng.integers(2, 6)), 3)).astype(np.float32)
        pick = rng.integers(len(palette), size=cells)
        image = cv2.resize(palette[pick], (SIZE, SIZE), interpolation=cv2.INTER_LINEAR)
    elif kind == "weave":  # a cloth or a mat: two crossing threads
        turn, pitch = rng.uniform(0, np.pi), rng.uniform(2, 7)
        a = np.sin((xx * np.cos(turn) + yy * np.sin(turn)) * 2 * np.pi / pitch)
        b = np.sin((-xx * np.sin(turn) + yy * np.cos(turn)) * 2 * np.pi / pitch)
        image = base + (np.maximum(a, b) * rng.uniform(6, 30))[..., None]
    else:
        image = np.ones((SIZE, SIZE, 3), np.float32) * base
    if kind == "print":  # OpenCV writes text on 8-bit pictures only
        image = np.clip(image, 0, 255).astype(np.uint8)
        for _ in range(int(rng.integers(3, 12))):
            colour = tuple(float(v) for v in rng.uniform(0, 255, 3))
            centre = (int(rng.uniform(0, SIZE)), int(rng.uniform(0, SIZE)))
            if rng.random() < 0.5:
                axes = (int(rng.uniform(5, 60)), int(rng.uniform(5, 60)))
                cv2.ellipse(image, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
            else:
                end = (int(rng.uniform(0, SIZE)), int(rng.uniform(0, SIZE)))
                cv2.line(image, centre, end, colour, int(rng.integers(1, 6)), cv2.LINE_AA)
        for _ in range(int(rng.integers(2, 10))):  # numerals, letters, pip-like dots: not dice
            text = str(rng.choice(list("0123456789ABEHKMRSXaeops:.")))
            ink = (20.0, 20.0, 20.0) if rng.random() < 0.6 else (235.0, 235.0, 230.0)
            at = (int(rng.uniform(0, SIZE - 20)), int(rng.uniform(20, SIZE)))
            font = int(
                rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX])
            )
            cv2.putText(
                image, text, at, font, float(rng.uniform(0.5, 1.6)), ink, int(rng.integers(1, 4)), cv2.LINE_AA
            )
    image = image.astype(np.float32)
    shade = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.8, 1.2), SIZE, dtype=np.float32)
    image *= (shade[None, :] if rng.random() < 0.5 else shade[:, None])[..., None]
    return image


def _basis(slant: float, azimuth: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The view: towards the camera `slant` off the vertical (z up), and the picture's x and y
    axes (y pointing down the picture)."""
    view = np.array([np.sin(slant) * np.cos(azimuth), np.sin(slant) * np.sin(azimuth), np.cos(slant)])
    helper = np.array([0.0, 1.0, 0.0]) if abs(view[1]) < 0.9 else np.array([1.0, 0.0, 0.0])
    right = np.cross(helper, view)
    right /= np.linalg.norm(right)
    down = np.cross(view, right)
    return view, right, down


def _faces(value: int, rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]:
    """A die's faces: normal, two in-face axes (unit) and value; `value` on top (+z), the others
    a real die's (opposite faces sum to 7), in either hand."""
    others = [v for v in range(1, 7) if v not in (value, 7 - value)]
    a = int(rng.choice(others))
    b = int(rng.choice([v for v in others if v not in (a, 7 - a)]))
    x, y, z = np.eye(3)
    return [
        (z, x, y, value),
        (-z, x, -y, 7 - value),
        (x, y, z, a),
        (-x, -y, z, 7 - a),
        (y, -x, z, b),
        (-y, x, z, 7 - b),
    ]


def _die(
    image: np.ndarray,
    rng: np.random.Generator,
    centre: np.ndarray,
    side: float,
    value: int,
    look: dict,
    slant: float,
    azimuth: float,
) -> np.ndarray:
    """Draws one die whose top face's middle lands at `centre` (px); returns that point."""
    view, right, down = _basis(slant, azimuth)
    yaw = rng.uniform(0, 2 * np.pi)
    turn = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1.0]])
    half = side / 2

    def project(points: np.ndarray) -> np.ndarray:
        """Die points (n, 3; half-side units, z up, middle of the die at 0) -> picture px."""
        world = (turn @ points.T).T * half
        top = np.array([0.0, 0.0, half])
        return centre + np.stack([(world - top) @ right, (world - top) @ down], axis=1)

    light = look["light"]
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], np.float64)
    outline = cv2.convexHull(project(corners).astype(np.float32))
    # The shadow: the die's footprint pushed away from the lamp, softened.
    foot = project(np.array([[x, y, -1.0] for x in (-1, 1) for y in (-1, 1)]))
    away = -np.array([light[0], light[1], 0.0]) * side * look["shadow"]
    push = np.array([away @ right, away @ down])
    shadow = np.zeros(image.shape[:2], np.float32)
    cv2.fillConvexPoly(
        shadow, cv2.convexHull(np.vstack([foot, foot + push]).astype(np.float32)).astype(np.int32), 1.0
    )
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.8, side / 12))
    image *= (1 - 0.5 * shadow)[..., None]

    body = np.zeros_like(image)
    mask = np.zeros(image.shape[:2], np.float32)
    edge = np.array(look["colour"], np.float32) * 0.45
    cv2.fillConvexPoly(body, outline.astype(np.int32), tuple(float(v) for v in edge), cv2.LINE_AA)
    cv2.fillConvexPoly(mask, outline.astype(np.int32), 1.0, cv2.LINE_AA)
    faces = [f for f in _faces(value, rng) if float(np.dot(turn @ f[0], view)) > 0.05]
    inset = look["round"]
    for normal, u, v, _ in faces:
        lit = look["ambient"] + (1 - look["ambient"]) * max(0.0, float(np.dot(turn @ normal, light)))
        square = np.array(
            [normal + s * inset * u + t * inset * v for s, t in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        )
        colour = tuple(float(min(255.0, c * lit)) for c in look["colour"])
        cv2.fillConvexPoly(body, project(square).astype(np.int32), colour, cv2.LINE_AA)
    if look["style"] == "marbled":
        veins = cv2.resize(
            rng.normal(0, 1, (5, 5)).astype(np.float32), image.shape[1::-1], interpolation=cv2.INTER_CUBIC
        )
        mix = (0.5 + 0.5 * np.sin(veins * rng.uniform(3, 8)))[..., None] * look["marble"]
        body = (
            body * (1 - mix)
            + (body / np.maximum(np.array(look["colour"], np.float32), 1))
            * np.array(look["second"], np.float32)
            * mix
        )
    elif look["style"] == "glitter":
        body += (rng.random(image.shape[:2]) < 0.04)[..., None] * rng.uniform(30, 90)
    alpha = mask[..., None] * (look["alpha"] if look["style"] == "translucent" else 1.0)
    if look["style"] == "translucent":  # the table seen through the die, blurred by it
        seen = cv2.GaussianBlur(image, (0, 0), 2.0)
        image[:] = body * alpha + seen * (1 - alpha) * mask[..., None] + image * (1 - mask[..., None])
    else:
        image[:] = body * alpha + image * (1 - alpha)

    circle = np.stack([np.cos(np.linspace(0, 2 * np.pi, 20)), np.sin(np.linspace(0, 2 * np.pi, 20))], axis=1)
    pitch, radius = look["pitch"], look["pip"]
    for normal, u, v, face in faces:
        if face in look["emblems"]:
            shape = look["emblems"][face]
            points = np.array([normal + 0.62 * (x * u + y * v) for x, y in shape])
            cv2.fillPoly(image, [project(points).astype(np.int32)], look["ink"], cv2.LINE_AA)
            continue
        for s, t in PIPS[face]:
            middle = normal + pitch * (s * u + t * v)
            r = radius * (1.3 if face == 1 else 1.0)
            ring = project(np.array([middle + r * (x * u + y * v) for x, y in circle])).astype(np.int32)
            if look["recessed"]:
                cv2.fillPoly(image, [ring], tuple(0.5 * c for c in look["ink"]), cv2.LINE_AA)
                inner = project(np.array([middle + 0.7 * r * (x * u + y * v) for x, y in circle])).astype(
                    np.int32
                )
                cv2.fillPoly(image, [inner], look["ink"], cv2.LINE_AA)
            else:
                cv2.fillPoly(image, [ring], look["ink"], cv2.LINE_AA)
    return centre


def _tray_edge(image: np.ndarray, rng: np.random.Generator) -> None:
    """A dice tray's or a box's wall across part of the frame: another surface beyond a straight
    rim, a light or dark line along it and a soft shade at its foot."""
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    turn = rng.uniform(0, 2 * np.pi)
    side = (xx - SIZE / 2) * np.cos(turn) + (yy - SIZE / 2) * np.sin(turn) - rng.uniform(-0.4, 0.4) * SIZE
    beyond = (side > 0).astype(np.float32)
    other = rng.uniform(20, 235, 3).astype(np.float32) + rng.normal(0, 4, image.shape).astype(np.float32)
    rim = np.exp(-(side**2) / (2 * rng.uniform(0.7, 2.5) ** 2)) * rng.uniform(-90, 90)
    shade = 1 - rng.uniform(0, 0.4) * np.exp(-np.maximum(-side, 0) / rng.uniform(4, 20)) * (side <= 0)
    image[:] = (image * (1 - beyond[..., None]) + other * beyond[..., None]) * shade[..., None]
    image += rim[..., None]


def _numeral(
    image: np.ndarray, centre: np.ndarray, size: float, ink: tuple, rng: np.random.Generator
) -> None:
    """A polyhedral die's number (1-20) in `ink`, about `size` px tall (OpenCV writes on 8-bit
    pictures only, so through a mask)."""
    text = str(rng.integers(1, 21))
    scale = size / 22
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    mask = np.zeros(image.shape[:2], np.uint8)
    at = (int(centre[0] - w / 2), int(centre[1] + h / 2))
    cv2.putText(mask, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, 255, max(1, int(size / 12)), cv2.LINE_AA)
    alpha = (mask.astype(np.float32) / 255)[..., None]
    image[:] = image * (1 - alpha) + np.array(ink, np.float32) * alpha


def _decoy(image: np.ndarray, rng: np.random.Generator, centre: np.ndarray, side: float, look: dict) -> float:
    """Draws a thing found beside dice that is not a d6 (a d8/d10/d20 with its numeral, a coin,
    a tray's metal snap) at `centre`; returns its size in px, as a die's. No blank wooden cube:
    at the 14 px the detector reads, it differs from a die showing 1 by one 2-3 px pip, and
    teaching it as "not a die" cost real 1s (docs/decisions.md)."""
    kind = rng.choice(["polyhedral", "coin", "snap"], p=[0.45, 0.3, 0.25])
    colour = np.array(look["colour"], np.float32) if rng.random() < 0.5 else rng.uniform(15, 245, 3)
    if kind == "polyhedral":
        size = side * rng.uniform(1.0, 1.5)
        n = int(rng.choice([3, 4, 5, 6]))
        turn = rng.uniform(0, 2 * np.pi)
        angles = turn + 2 * np.pi * np.arange(n) / n
        corners = centre + size / 2 * np.stack([np.cos(angles), np.sin(angles)], 1)
        for k in range(n):  # each facet towards the middle, lit differently
            facet = np.array([centre, corners[k], corners[(k + 1) % n]], np.int32)
            cv2.fillConvexPoly(
                image, facet, tuple(float(c * rng.uniform(0.55, 1.1)) for c in colour), cv2.LINE_AA
            )
        middle = np.array([centre + 0.45 * (c - centre) for c in corners], np.int32)
        cv2.fillConvexPoly(image, middle, tuple(float(c) for c in colour), cv2.LINE_AA)
        _numeral(image, centre, 0.5 * size, look["ink"], rng)
        return size
    size = side * (rng.uniform(0.7, 1.2) if kind == "coin" else rng.uniform(0.3, 0.6))
    if kind == "snap":
        colour = rng.uniform(150, 250) * np.ones(3)
    _round_thing(image, centre, size, tuple(float(v) for v in colour), float(rng.uniform(0, 360)))
    return size


def _round_thing(image: np.ndarray, centre: np.ndarray, size: float, colour: tuple, glint: float) -> None:
    """A coin or a snap: a darker rim round a face of `colour`, and a glint as an arc on the rim
    starting at `glint` degrees. Never a white spot in the middle: that is a die showing 1."""
    c = (int(centre[0]), int(centre[1]))
    cv2.circle(image, c, int(size / 2), tuple(v * 0.6 for v in colour), -1, cv2.LINE_AA)
    cv2.circle(image, c, int(size / 2 * 0.8), colour, -1, cv2.LINE_AA)
    radius, width = max(1, int(size / 2 * 0.9)), max(1, int(size / 14))
    cv2.ellipse(image, c, (radius, radius), 0, glint, glint + 60, (250, 250, 250), width, cv2.LINE_AA)


def _emblem(rng: np.random.Generator) -> np.ndarray:
    """A printed emblem's outline in face units: a star, a ring-like blob or a shield."""
    n = int(rng.integers(5, 9))
    angles = np.linspace(0, 2 * np.pi, 2 * n, endpoint=False)
    radii = np.where(np.arange(2 * n) % 2 == 0, 1.0, rng.uniform(0.35, 0.9))
    return np.stack([radii * np.cos(angles), radii * np.sin(angles)], axis=1)


def _look(rng: np.random.Generator) -> dict:
    """One dice set's look and one lamp: dice at a table are one set."""
    colour = rng.uniform(15, 245, 3)
    lum = colour @ [0.11, 0.59, 0.3]
    inks = [np.array(c, np.float64) for c in INKS]
    contrasting = [c for c in inks if abs(c @ [0.11, 0.59, 0.3] - lum) > 70] or inks[:2]
    ink = contrasting[int(rng.integers(len(contrasting)))]
    light = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.6, 2.0)])
    emblems = {}
    if rng.random() < 0.3:
        emblems[1] = _emblem(rng)
        if rng.random() < 0.3:
            emblems[6] = _emblem(rng)
    return {
        "colour": tuple(float(v) for v in colour),
        "second": tuple(float(v) for v in rng.uniform(15, 245, 3)),
        "marble": float(rng.uniform(0.3, 0.7)),
        "ink": tuple(float(v) for v in ink),
        "style": str(rng.choice(["solid", "marbled", "translucent", "glitter"], p=[0.55, 0.2, 0.15, 0.1])),
        "alpha": float(rng.uniform(0.5, 0.85)),
        "light": light / np.linalg.norm(light),
        "ambient": float(rng.uniform(0.35, 0.7)),
        "shadow": float(rng.uniform(0.2, 0.9)),
        "round": float(rng.uniform(0.8, 0.95)),
        "pitch": float(rng.uniform(0.42, 0.6)),
        "pip": float(rng.uniform(0.13, 0.2)),
        "recessed": bool(rng.random() < 0.3),
        "emblems": emblems,
    }


def cubes(count: int, seed: int) -> list[Labelled]:
    """`count` frames of 2-8 dice each, one set per frame, seen along one slant (0-40 degrees
    off the vertical, varying a few degrees from die to die), beside 0-4 things that are not
    d6 (`Labelled.decoys`); the label of each die is its top face's middle, its size the die's
    side in px (24-44)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        image = _background(rng)
        if rng.random() < 0.4:
            _tray_edge(image, rng)
        look = _look(rng)
        side = float(rng.uniform(24, 44))
        slant, azimuth = np.radians(rng.uniform(0, 40)), rng.uniform(0, 2 * np.pi)
        centres: list[np.ndarray] = []
        values = []
        for _ in range(int(rng.integers(2, 9))):
            at = rng.uniform(side, SIZE - side, 2)
            if all(np.linalg.norm(at - c) > 1.7 * side for c in centres):
                value = int(rng.integers(1, 7))
                tilt = float(np.clip(slant + np.radians(rng.normal(0, 3)), 0, np.radians(45)))
                centres.append(_die(image, rng, at, side, value, look, tilt, azimuth + rng.normal(0, 0.05)))
                values.append(value)
        decoys: list[np.ndarray] = []
        for _ in range(int(rng.integers(0, 5))):
            at = rng.uniform(side, SIZE - side, 2)
            if all(np.linalg.norm(at - c) > 1.7 * side for c in centres + [d[:2] for d in decoys]):
                decoys.append(np.array([*at, _decoy(image, rng, at, side, look)]))
        image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.3, 1.3)))
        image += rng.normal(0, rng.uniform(1, 5), image.shape).astype(np.float32)
        out.append(
            Labelled(
                np.clip(image, 0, 255).astype(np.uint8),
                np.array(centres, np.float32).reshape(-1, 2),
                np.array(values, np.int64),
                side,
                np.array(decoys, np.float32).reshape(-1, 3),
            )
        )
    return out
