"""Numbered dice (d4, d12) drawn in 3-D from above, with exact truth.

No photos of d4 or d12 dice were given to us, so these renders are what the numbered-die
reader is trained and tested on until real photos exist (docs/vision.md says so). The solids
are exact: a dodecahedron or a tetrahedron resting on a face, turned about the vertical, seen a
little obliquely, lit from one side, with a numeral on every visible face in one of several
fonts. A d12 shows its value on the face on top (6 and 9 underlined); a d4 shows its value
as the number at the apex, repeated near the centre on all three visible faces.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .colours import DEFAULT_COLOURS
from .types import RECORDING_FORMAT

PHI = (1 + 5**0.5) / 2
SUPERSAMPLE = 3
GLYPH_PX = 64
"""Side of the square in which a numeral is drawn before it is laid onto a face."""
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)

Glyph = Callable[[str, np.random.Generator], np.ndarray]
"""Draws a numeral (white on black, GLYPH_PX square, centred, upright): the fonts to use."""


@dataclass(frozen=True)
class NumberedDie:
    kind: str
    """d4 or d12."""
    value: int
    centre: tuple[float, float]
    """Frame pixels."""
    size: float
    """Width of the die's outline seen from above, in pixels."""
    body_bgr: tuple[int, int, int]
    ink_bgr: tuple[int, int, int]
    yaw: float = 0.0
    """Radians the die is turned about the vertical."""
    tilt: tuple[float, float] = (0.0, 0.0)
    """Radians the view leans off vertical (the camera's obliqueness at this die), about x and y."""


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.asarray(np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k))


def _upright(normal: np.ndarray) -> np.ndarray:
    """The rotation that turns `normal` to point straight up (+z)."""
    normal = normal / np.linalg.norm(normal)
    up = np.array([0.0, 0.0, 1.0])
    axis = np.cross(normal, up)
    if np.linalg.norm(axis) < 1e-9:
        return np.eye(3) if normal[2] > 0 else _rotation(np.array([1.0, 0, 0]), np.pi)
    return _rotation(axis, float(np.arccos(np.clip(normal @ up, -1, 1))))


def dodecahedron() -> tuple[np.ndarray, list[list[int]], np.ndarray]:
    """Vertices, faces (vertex indices in order round each face) and face normals."""
    v: list[tuple[float, float, float]] = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    for a in (-1, 1):
        for b in (-1, 1):
            v += [(0, a / PHI, b * PHI), (a / PHI, b * PHI, 0), (a * PHI, 0, b / PHI)]
    vertices = np.array(v, float)
    normals = []
    for a in (-1, 1):
        for b in (-1, 1):
            normals += [(a, 0, b * PHI), (0, a * PHI, b), (a * PHI, b, 0)]
    normals_array = np.array(normals, float)
    normals_array /= np.linalg.norm(normals_array, axis=1, keepdims=True)
    faces = [_face(vertices, n, 5) for n in normals_array]
    return vertices, faces, normals_array


def tetrahedron() -> tuple[np.ndarray, list[list[int]], np.ndarray]:
    vertices = np.array([(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)], float)
    normals = -vertices / np.linalg.norm(vertices, axis=1, keepdims=True)  # face i is opposite vertex i
    return vertices, [_face(vertices, n, 3) for n in normals], normals


def _face(vertices: np.ndarray, normal: np.ndarray, corners: int) -> list[int]:
    heights = vertices @ normal
    nearest = np.argsort(-heights)[:corners]
    assert np.ptp(heights[nearest]) < 1e-9 < heights[nearest[0]] - heights[np.argsort(-heights)[corners]]
    centre = vertices[nearest].mean(axis=0)
    u = vertices[nearest[0]] - centre
    w = np.cross(normal, u)
    angles = [np.arctan2((vertices[i] - centre) @ w, (vertices[i] - centre) @ u) for i in nearest]
    return [int(nearest[i]) for i in np.argsort(angles)]


def hershey_glyph(text: str, rng: np.random.Generator) -> np.ndarray:
    """A numeral in one of OpenCV's Hershey fonts (always available, so tests can render)."""
    font = FONTS[int(rng.integers(len(FONTS)))]
    thickness = int(rng.integers(2, 6))
    canvas = np.zeros((GLYPH_PX, GLYPH_PX), np.uint8)
    (w, h), _ = cv2.getTextSize(text, font, 1.0, thickness)
    scale = 0.62 * GLYPH_PX / max(w, h * 1.3)
    (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    origin = ((GLYPH_PX - w) // 2, (GLYPH_PX + h) // 2)
    cv2.putText(canvas, text, origin, font, scale, 255, thickness, cv2.LINE_AA)
    if text in ("6", "9"):
        y = min(GLYPH_PX - 3, origin[1] + max(3, h // 5))
        cv2.line(canvas, (origin[0], y), (origin[0] + w, y), 255, max(2, thickness))
    return canvas


def _numerals(die: NumberedDie, faces: int, rng: np.random.Generator) -> list[int]:
    """The number on each face (d12: opposite faces sum to 13, `value` on top)
    or at each vertex (d4: `value` at the apex)."""
    if die.kind == "d4":
        others = [n for n in (1, 2, 3, 4) if n != die.value]
        return [int(n) for n in rng.permutation(others)]
    pairs = [(n, 13 - n) for n in range(1, 7) if die.value not in (n, 13 - n)]
    rng.shuffle(pairs)
    return [die.value, 13 - die.value] + [int(x) for pair in pairs for x in rng.permutation(pair)]


def _place(die: NumberedDie, vertices: np.ndarray, top_normal: np.ndarray) -> np.ndarray:
    """Vertices turned to rest on the bottom face, then yawed and leaned as seen, scaled to
    pixels about the die's centre (x right, y down, z up towards the camera)."""
    turn = _upright(top_normal)
    yaw = _rotation(np.array([0, 0, 1.0]), die.yaw)
    lean = _rotation(np.array([1.0, 0, 0]), die.tilt[0]) @ _rotation(np.array([0, 1.0, 0]), die.tilt[1])
    placed = (lean @ yaw @ turn @ vertices.T).T
    extent = np.ptp(placed[:, :2], axis=0).max()
    return np.asarray(placed * (die.size / extent))


def draw_die(
    canvas: np.ndarray,
    die: NumberedDie,
    rng: np.random.Generator,
    light: np.ndarray,
    glyph: Glyph = hershey_glyph,
) -> None:
    """Draws `die` onto `canvas` (BGR, in place) at SUPERSAMPLE times the die's coordinates."""
    s = SUPERSAMPLE
    if die.kind == "d12":
        vertices, faces, normals = dodecahedron()
        top = int(rng.integers(12))  # any face may be the top one
        numbers = _numerals(die, 12, rng)
        opposite = [int(np.argmin(normals @ n)) for n in normals]
        labels, done = {top: numbers[0]}, {top}
        labels[opposite[top]] = numbers[1]
        done.add(opposite[top])
        rest = iter(numbers[2:])
        for f in range(12):
            if f not in done:
                labels[f] = next(rest)
                labels[opposite[f]] = next(rest)
                done |= {f, opposite[f]}
        top_normal = normals[top]
    else:
        vertices, faces, normals = tetrahedron()
        apex = int(rng.integers(4))
        top_normal = vertices[apex]
        vertex_numbers = dict(zip([i for i in range(4) if i != apex], _numerals(die, 4, rng)))
        vertex_numbers[apex] = die.value
    placed = _place(die, vertices, top_normal)
    turned = _place(die, normals, top_normal)  # normals turn as vertices do
    turned /= np.linalg.norm(turned, axis=1, keepdims=True)
    centre = np.array(die.centre) * s
    visible = [f for f in range(len(faces)) if turned[f, 2] > 0.05]
    visible.sort(key=lambda f: placed[faces[f]][:, 2].mean())
    body = np.array(die.body_bgr, float)
    for f in visible:
        corners = placed[faces[f]]
        polygon = (corners[:, :2] * s + centre).round().astype(np.int32)
        shade = 0.45 + 0.55 * max(0.0, float(turned[f] @ light))
        colour = tuple(float(c) for c in np.clip(body * shade, 0, 255))
        cv2.fillConvexPoly(canvas, polygon, colour, cv2.LINE_AA)
        cv2.polylines(canvas, [polygon], True, tuple(c * 0.8 for c in colour), max(1, s // 2), cv2.LINE_AA)
        ink = np.clip(np.array(die.ink_bgr, float) * (0.6 + 0.4 * shade), 0, 255)
        middle = corners.mean(axis=0)
        if die.kind == "d12":
            up = corners[int(rng.integers(5))] - middle  # numerals point at a corner
            _lay_numeral(
                canvas, glyph(str(labels[f]), rng), corners, turned[f], middle, up, 0.55, ink, centre, polygon
            )
        else:
            for i, vertex in zip(faces[f], corners):
                at = middle + 0.52 * (vertex - middle)
                text = str(vertex_numbers[i])
                _lay_numeral(
                    canvas,
                    glyph(text, rng),
                    corners,
                    turned[f],
                    at,
                    vertex - middle,
                    0.3,
                    ink,
                    centre,
                    polygon,
                )


def _lay_numeral(
    canvas: np.ndarray,
    mask: np.ndarray,
    corners: np.ndarray,
    normal: np.ndarray,
    at: np.ndarray,
    up: np.ndarray,
    share: float,
    ink: np.ndarray,
    centre: np.ndarray,
    polygon: np.ndarray,
) -> None:
    """Lays a numeral flat on the face with outward `normal`: its top towards `up`, `share`
    of the face's edge tall (d12 faces are larger for their edge), clipped to the face."""
    s = SUPERSAMPLE
    edge = np.linalg.norm(corners[1] - corners[0])
    height = share * edge * 1.6 if len(corners) == 5 else share * edge
    v = up / np.linalg.norm(up)
    u = np.cross(normal, v)  # x right, y down, z up: this way round reads unmirrored
    scale = height / GLYPH_PX
    # texture (x right, y down) -> face point: at + (x - c) * scale * u - (y - c) * scale * v
    c = GLYPH_PX / 2
    a = np.stack([u[:2] * scale * s, -v[:2] * scale * s], axis=1)
    b = (at[:2] * s + centre) - a @ np.array([c, c])
    # Only the face's bounding box is touched: drawing a die costs what the die covers.
    x0, y0 = np.maximum(polygon.min(axis=0), 0)
    x1, y1 = np.minimum(polygon.max(axis=0) + 1, canvas.shape[1::-1])
    if x1 <= x0 or y1 <= y0:
        return
    b -= (x0, y0)
    warped = cv2.warpAffine(
        mask, np.hstack([a, b[:, None]]), (int(x1 - x0), int(y1 - y0)), flags=cv2.INTER_LINEAR
    )
    face = np.zeros(warped.shape, np.uint8)
    cv2.fillConvexPoly(face, polygon - (x0, y0), 255)
    alpha = (warped.astype(np.float32) * (face > 0))[..., None] / 255.0
    part = canvas[y0:y1, x0:x1]
    part[:] = (part * (1 - alpha) + ink * alpha).astype(np.uint8)


def background(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A table: wood grain, felt or paper, in a random colour."""
    h, w = shape
    base = rng.uniform(40, 220, 3)
    kind = rng.integers(3)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == 0:  # wood
        grain = np.sin(ys / rng.uniform(3, 9) + 2 * np.sin(xs / rng.uniform(40, 120)))
        light = np.asarray(1 + 0.12 * grain, np.float32)
    else:
        light = np.ones((h, w), np.float32)
    noise = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.5 if kind == 1 else 0.7)
    light = light + (0.1 if kind == 1 else 0.04) * noise
    return np.asarray(np.clip(base[None, None] * light[..., None], 0, 255), np.uint8)


def _colour_name(bgr: tuple[int, int, int]) -> str:
    """The palette colour (vision/colours.py) nearest a die's body: its name in the truth."""
    return min(DEFAULT_COLOURS, key=lambda n: sum((a - b) ** 2 for a, b in zip(DEFAULT_COLOURS[n], bgr)))


def random_dice(
    rng: np.random.Generator, shape: tuple[int, int], count: int, size: tuple[float, float]
) -> list[NumberedDie]:
    """Up to `count` dice that do not overlap, each kind and value drawn evenly."""
    h, w = shape
    dice: list[NumberedDie] = []
    for _ in range(count * 20):
        if len(dice) == count:
            break
        d = float(rng.uniform(*size))
        x, y = rng.uniform(d, w - d), rng.uniform(d, h - d)
        if any(np.hypot(x - o.centre[0], y - o.centre[1]) < 0.6 * (d + o.size) + 2 for o in dice):
            continue
        kind = "d12" if rng.random() < 0.5 else "d4"
        body = list(DEFAULT_COLOURS)[int(rng.integers(len(DEFAULT_COLOURS)))]
        light_body = sum(DEFAULT_COLOURS[body]) > 400
        ink = (20, 20, 20) if light_body or rng.random() < 0.2 else (240, 240, 240)
        if body in ("red", "blue", "green", "purple", "black") and rng.random() < 0.3:
            ink = (60, 200, 230)  # gold ink
        dice.append(
            NumberedDie(
                kind,
                int(rng.integers(1, (12 if kind == "d12" else 4) + 1)),
                (float(x), float(y)),
                d,
                DEFAULT_COLOURS[body],
                ink,
                float(rng.uniform(0, 2 * np.pi)),
                (float(rng.normal(0, 0.12)), float(rng.normal(0, 0.12))),
            )
        )
    return dice


def render_dice(
    dice: Sequence[NumberedDie],
    shape: tuple[int, int],
    rng: np.random.Generator,
    table: np.ndarray | None = None,
    glyph: Glyph = hershey_glyph,
) -> np.ndarray:
    """A photograph of `dice` on a table (drawn when not given): soft shadows, uneven light,
    blur, sensor noise and JPEG."""
    h, w = shape
    s = SUPERSAMPLE
    base = background(shape, rng) if table is None else table
    canvas = cv2.resize(base, (w * s, h * s), interpolation=cv2.INTER_LINEAR)
    azimuth = rng.uniform(0, 2 * np.pi)
    light = np.array([np.cos(azimuth), np.sin(azimuth), rng.uniform(0.8, 2.0)])
    light /= np.linalg.norm(light)
    shadow = np.zeros((h * s, w * s), np.float32)
    for die in dice:
        at = (np.array(die.centre) - light[:2] * die.size * 0.2) * s
        cv2.circle(shadow, tuple(int(v) for v in at), int(die.size * 0.5 * s), 1.0, -1)
    shadow = np.asarray(cv2.GaussianBlur(shadow, (0, 0), 2.5 * s), np.float32)
    canvas = (canvas * (1 - 0.45 * shadow[..., None])).astype(np.uint8)
    for die in dice:
        draw_die(canvas, die, rng, light, glyph)
    frame: np.ndarray = cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, np.pi)
    gradient = 1 + rng.uniform(0, 0.25) * ((xs - w / 2) * np.cos(a) + (ys - h / 2) * np.sin(a)) / max(h, w)
    frame *= (gradient * rng.uniform(0.7, 1.15))[..., None] * rng.uniform(0.88, 1.12, 3)
    blur = rng.uniform(0, 1.0)
    if blur > 0.3:
        frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), blur))
    frame += rng.normal(0, rng.uniform(1, 5), frame.shape)
    out = np.clip(frame, 0, 255).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(65, 95))])
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))


def truth(dice: Sequence[NumberedDie]) -> list[dict[str, object]]:
    return [
        {
            "kind": d.kind,
            "value": d.value,
            "color": _colour_name(d.body_bgr),
            "center": [round(c, 1) for c in d.centre],
        }
        for d in dice
    ]


def make_recording(
    out: Path,
    frames: int,
    seed: int,
    size: tuple[int, int] = (1280, 960),
    glyphs: Sequence[Glyph] = (hershey_glyph,),
    fonts: str = "Hershey fonts",
    source: str | None = None,
) -> None:
    """A `table-recording/1` of numbered dice on drawn tables, no board (profile null)."""
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    for n in range(frames):
        dice = random_dice(rng, size[::-1], int(rng.integers(6, 13)), (36, 80))
        image = render_dice(dice, size[::-1], rng, glyph=glyphs[n % len(glyphs)])
        name = f"{n + 1:04d}.jpg"
        cv2.imwrite(str(out / name), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        entries.append({"file": name, "t": float(n), "truth": {"dice": truth(dice), "settled": True}})
    meta = {
        "format": RECORDING_FORMAT,
        "description": f"Rendered d4 and d12 dice on drawn tables ({fonts}), a new table each frame",
        "source": source or f"vision.render_dice --frames {frames} --seed {seed} --size {size[0]}x{size[1]}",
        "game": "turris",
        "profile": None,
        "camera": {"width": size[0], "height": size[1], "fps": 1},
        "frames": entries,
    }
    (out / "recording.json").write_text(json.dumps(meta, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description="Render a recording of numbered dice (d4, d12).")
    parser.add_argument("out", type=Path)
    parser.add_argument("--frames", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="1280x960", help="frame size, e.g. 1920x1080")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    make_recording(args.out, args.frames, args.seed, (width, height))


if __name__ == "__main__":
    main()
