"""Dice as solid cubes through tests/pinhole.py's camera, for issue 18 and 25's dice where they
lie in play: the rolling areas of Yuggoth, Tower and Arkhanos at the heights the camera sees the
whole table from (a die 13-16 px across), and Arkhanos's dice on the pillars of towers 1-3 floors
high. Unlike vision/render.py's flat drawn squares (which the face reader is trained on, with
real photos), a die here is a 3-D cube: its top face and the side faces the camera sees, each
with its own pips in perspective, shaded by a light from one side, casting a shadow, and in the
styles a table has: solid, marbled, translucent, a printed emblem on the 1. None of its numbers
come from the reader."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tests.pinhole import Camera
from vision.render import PIPS

STYLES = ("solid", "marbled", "translucent")


@dataclass(frozen=True)
class Die:
    """A d6 lying on something `lift` mm above the board, `value` on top, turned `yaw_deg`."""

    centre_mm: tuple[float, float]
    value: int
    colour: tuple[float, float, float]
    pips: tuple[float, float, float]
    side: float = 16.0
    lift: float = 0.0
    yaw_deg: float = 0.0
    style: str = "solid"
    second: tuple[float, float, float] = (255.0, 255.0, 255.0)
    """A marbled die's other colour."""
    emblem: bool = False
    """Its 1 shows a printed emblem (a ring round a dot) instead of a single pip."""
    sides: tuple[int, int, int, int] = (2, 3, 5, 4)
    """The values round it, east, south, west, north of its own turn (opposite ones sum to 7)."""
    turns: tuple[int, ...] = (0, 0, 0, 0, 0)
    """Quarter turns of the pips on the top face and each side face."""


def random_die(
    rng: np.random.Generator,
    centre_mm: tuple[float, float],
    colour: tuple[float, float, float],
    lift: float = 0.0,
    side: float = 16.0,
    style: str | None = None,
) -> Die:
    """A die of a random roll and turn, pips white on dark dice and black on light ones, in a
    random style when none is said."""
    value = int(rng.integers(1, 7))
    others = [v for v in range(1, 7) if v not in (value, 7 - value)]
    a = int(rng.choice(others))
    b = int(rng.choice([v for v in others if v not in (a, 7 - a)]))
    light = sum(colour) > 420
    pips = (30.0, 30.0, 30.0) if light else (235.0, 235.0, 235.0)
    return Die(
        centre_mm,
        value,
        colour,
        pips,
        side,
        lift,
        float(rng.uniform(0, 90)),
        style or str(rng.choice(STYLES, p=[0.6, 0.25, 0.15])),
        tuple(float(v) for v in rng.uniform(150, 255, 3)),  # type: ignore[arg-type]
        bool(rng.random() < 0.25),
        (a, b, 7 - a, 7 - b),
        tuple(int(t) for t in rng.integers(0, 4, 5)),
    )


def _faces(die: Die) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]]:
    """Each face: its centre, its two half-side axes, its outward normal (board mm, z into the
    table), its value and the quarter turns of its pips."""
    h = die.side / 2
    a = np.radians(die.yaw_deg)
    east, south, up = (
        np.array([np.cos(a), np.sin(a), 0]),
        np.array([-np.sin(a), np.cos(a), 0]),
        np.array([0, 0, -1.0]),
    )
    middle = np.array([*die.centre_mm, -(die.lift + h)])
    faces = [(middle + h * up, h * east, h * south, up, die.value, die.turns[0])]
    for k, normal in enumerate((east, south, -east, -south)):
        across = np.cross(up, normal)
        faces.append((middle + h * normal, h * across, h * up, normal, die.sides[k], die.turns[k + 1]))
    return faces


def draw_dice(
    image: np.ndarray, cam: Camera, dice: tuple[Die, ...], light: tuple[float, float], seed: int = 0
) -> None:
    """Each die, lowest first: its shadow on what it lies on (a light from the direction
    `light`, mm of shift per mm of height), its faces the camera sees, shaded by their slant to
    the light, their edges darker (rounded), then the pips of each face in perspective."""
    rng = np.random.default_rng(seed)
    to_light = -np.array([*light, -1.0])
    to_light /= np.linalg.norm(to_light)
    for die in sorted(dice, key=lambda d: d.lift):
        faces = _faces(die)
        h = die.side / 2
        foot = np.array(
            [
                [*(np.array(die.centre_mm) + h * np.array(c) @ _turn(die.yaw_deg).T), -die.lift]
                for c in _SQUARE
            ]
        )
        cast = foot + np.array([light[0] * die.side, light[1] * die.side, 0.0])
        shadow = cv2.convexHull(cam.project(np.vstack([foot, cast])).astype(np.float32)).astype(np.int32)
        shade = np.zeros(image.shape[:2], np.uint8)
        cv2.fillConvexPoly(shade, shadow, 255, cv2.LINE_AA)
        soft = cv2.GaussianBlur(shade, (0, 0), 1.2).astype(np.float32)[..., None] / 255
        image[:] = (image * (1 - 0.45 * soft)).astype(np.uint8)

        seen = [f for f in faces if float(np.dot(cam.position - f[0], f[3])) > 0]
        corners = np.vstack([[f[0] + s * f[1] + t * f[2] for s in (-1, 1) for t in (-1, 1)] for f in seen])
        hull = cv2.convexHull(cam.project(corners).astype(np.float32)).astype(np.int32)
        behind = image.copy()
        layers = []
        for colour in (die.colour, die.second) if die.style == "marbled" else (die.colour,):
            layer = image.copy()
            cv2.fillConvexPoly(layer, hull, tuple(0.45 * v for v in colour), cv2.LINE_AA)
            for centre, u, v, normal, _, _ in seen:
                lit = 0.95 if normal[2] < 0 else 0.5 + 0.4 * max(0.0, float(np.dot(normal, to_light)))
                inset = [centre + s * 0.86 * u + t * 0.86 * v for s, t in _SQUARE]
                cv2.fillPoly(
                    layer,
                    [cam.project(np.array(inset)).astype(np.int32)],
                    tuple(min(255.0, lit * c) for c in colour),
                    cv2.LINE_AA,
                )
            layers.append(layer.astype(np.float32))
        mask = np.zeros(image.shape[:2], np.float32)
        cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_AA)
        drawn = layers[0]
        if die.style == "marbled":
            x0, y0, w, hh = cv2.boundingRect(hull)
            field = np.zeros(image.shape[:2], np.float32)
            small = rng.normal(0, 1, (4, 4)).astype(np.float32)
            field[y0 : y0 + hh, x0 : x0 + w] = cv2.resize(
                small, (max(w, 1), max(hh, 1)), interpolation=cv2.INTER_CUBIC
            )
            mix = 0.45 * (0.5 + 0.5 * np.tanh(2.5 * field))[..., None]
            drawn = layers[0] * (1 - mix) + layers[1] * mix
        alpha = mask[..., None] * (float(rng.uniform(0.55, 0.75)) if die.style == "translucent" else 1.0)
        image[:] = np.clip(drawn * alpha + behind.astype(np.float32) * (1 - alpha), 0, 255).astype(np.uint8)
        for centre, u, v, _, value, turns in seen:
            _draw_pips(image, cam, die, centre, u, v, value, turns)


_SQUARE = ((-1, -1), (1, -1), (1, 1), (-1, 1))


def _turn(deg: float) -> np.ndarray:
    a = np.radians(deg)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def _draw_pips(
    image: np.ndarray,
    cam: Camera,
    die: Die,
    centre: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
    value: int,
    turns: int,
) -> None:
    """A face's pips (or the emblem on its 1) as discs on the face, seen in perspective."""
    angles = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    circle = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    quarter = np.array([[0, -1], [1, 0]])
    for s, t in PIPS[value]:
        for _ in range(turns):
            s, t = quarter @ np.array([s, t])
        at = centre + 0.6 * s * u + 0.6 * t * v
        if value == 1 and die.emblem:
            ring = cam.project(np.array([at + 0.6 * (c * u + d * v) for c, d in circle])).astype(np.int32)
            cv2.polylines(image, [ring], True, die.pips, 1, cv2.LINE_AA)
            radius = 0.22
        else:
            radius = 0.17 if value != 1 else 0.28
        disc = cam.project(np.array([at + radius * (c * u + d * v) for c, d in circle])).astype(np.int32)
        cv2.fillPoly(image, [disc], die.pips, cv2.LINE_AA)


__all__ = ["Die", "draw_dice", "random_die"]
