"""Training samples for the dice detector: labelled recordings, scaled and augmented.

numpy/OpenCV only, so the sampler can be tested without torch.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

STRIDE = 4


@dataclass(frozen=True)
class Labelled:
    image: np.ndarray
    centers: np.ndarray  # (n, 2) float pixels
    values: np.ndarray  # (n,) int 1..6
    die_px: float  # typical die side in this recording
    decoys: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    """(m, 3): centre x, y and size of things drawn in the frame that are not d6 (none is
    labelled: the detector learns them as no die)."""


def load_recording(
    path: Path, die_px: float, keep: slice | None = None, drop_every: int = 0, keep_every_only: int = 0
) -> list[Labelled]:
    """Frames with dice truth. `drop_every=k` leaves out every k-th frame (for validation);
    `keep_every_only=k` keeps only those. A frame's own `die_px` in its truth (the path-traced
    frames', whose cameras differ) wins over the recording's."""
    meta = json.loads((path / "recording.json").read_text())
    out = []
    frames = [f for f in meta["frames"] if "dice" in f.get("truth", {})]
    for n, frame in enumerate(frames):
        if drop_every and n % drop_every == 0:
            continue
        if keep_every_only and n % keep_every_only != 0:
            continue
        image = cv2.imread(str(path / frame["file"]), cv2.IMREAD_COLOR)
        dice = [d for d in frame["truth"]["dice"] if d["kind"] == "d6" and "center" in d]
        out.append(
            Labelled(
                image=image,
                centers=np.array([d["center"] for d in dice], dtype=np.float32).reshape(-1, 2),
                values=np.array([d["value"] for d in dice], dtype=np.int64),
                die_px=float(frame["truth"].get("die_px", die_px)),
            )
        )
    return out


def _jitter_colour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 0] = (hsv[..., 0] + rng.uniform(0, 180)) % 180 if rng.random() < 0.5 else hsv[..., 0]
    hsv[..., 1] *= rng.uniform(0.6, 1.4)
    hsv = np.clip(hsv, 0, [179, 255, 255])
    out = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    out *= rng.uniform(0.8, 1.2, size=3)  # white balance
    out = (out - 128) * rng.uniform(0.7, 1.3) + 128 + rng.uniform(-40, 40)  # contrast, brightness
    gamma = rng.uniform(0.7, 1.4)
    out = 255 * (np.clip(out, 0, 255) / 255) ** gamma
    return out


def augment(
    sample: Labelled, size: int, rng: np.random.Generator, die_range: tuple[float, float] = (22, 64)
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A `size`-square crop with dice of a random apparent size; returns image, centres, values, sizes."""
    target = rng.uniform(*die_range)
    scale = target / sample.die_px
    angle = rng.uniform(0, 360)
    h, w = sample.image.shape[:2]
    # Centre the crop on a die most of the time, elsewhere otherwise.
    if len(sample.centers) and rng.random() < 0.8:
        cx, cy = sample.centers[rng.integers(len(sample.centers))] + rng.normal(0, size / 4 / scale, 2)
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), angle, scale)
    m[:, 2] += np.array([size / 2 - cx, size / 2 - cy])
    if rng.random() < 0.5:  # mirror: pip counts do not change
        m[0] = -m[0]
        m[0, 2] += size
    # Mild perspective for oblique cameras.
    img = cv2.warpAffine(
        sample.image, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT101
    )
    pts = np.hstack([sample.centers, np.ones((len(sample.centers), 1), np.float32)]) @ m.T
    sizes = np.full(len(pts), target, np.float32)
    img = _jitter_colour(img, rng)
    if rng.random() < 0.3:
        k = rng.choice([3, 5])
        img = cv2.GaussianBlur(img, (k, k), 0)
    img = img + rng.normal(0, rng.uniform(0, 8), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.uniform(40, 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    inside = (pts[:, 0] >= 0) & (pts[:, 0] < size) & (pts[:, 1] >= 0) & (pts[:, 1] < size)
    return img, pts[inside], sample.values[inside], sizes[inside]


def targets(
    size: int, centers: np.ndarray, values: np.ndarray, sizes: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """CenterNet targets at stride 4: gaussian heat, class index, log-size, and a mask."""
    out = size // STRIDE
    heat = np.zeros((out, out), np.float32)
    cls = np.full((out, out), -1, np.int64)
    logsize = np.zeros((out, out), np.float32)
    ys, xs = np.mgrid[0:out, 0:out]
    for (x, y), v, s in zip(centers / STRIDE, values, sizes):
        sigma = max(0.8, s / STRIDE / 5)
        g = np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * sigma**2))
        heat = np.maximum(heat, g)
        near = (np.abs(xs - x) <= 1.5) & (np.abs(ys - y) <= 1.5)
        cls[near] = v - 1
        logsize[near] = math.log(s / 32)
    ix, iy = np.clip((centers / STRIDE).round().astype(int), 0, out - 1).T if len(centers) else ([], [])
    heat[iy, ix] = 1.0
    return heat, cls, logsize, (cls >= 0).astype(np.float32)


def rendered(count: int, seed: int) -> list[Labelled]:
    """`count` frames of d6 dice drawn by vision/render.py in every palette colour, on a tray
    laid on the table, under random camera, light and print (board art under some of them): they
    add the colours and flat printed faces no photo set has (yellow, pink and purple dice, dice on
    printed pillars) to the real photos, never replace them."""
    from .. import render
    from ..colours import DEFAULT_COLOURS
    from ..profiles import load_profile

    profile = load_profile("dice-tray")
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        dice, placed = [], []
        for _ in range(int(rng.integers(3, 12))):
            offset = rng.uniform([-130, -85], [130, 85])
            if all(np.hypot(*(offset - p)) > 1.6 * profile.die_mm for p in placed):
                placed.append(offset)
                colour = str(rng.choice(list(DEFAULT_COLOURS)))
                dice.append(
                    render.DieSpec(
                        "tray", int(rng.integers(1, 7)), colour, tuple(offset), float(rng.uniform(0, 90))
                    )
                )
        scene = render.Scene(
            profile,
            render.Camera(
                tilt=float(rng.uniform(0, 0.15)),
                fill=float(rng.uniform(0.5, 0.95)),
                rotation=float(rng.uniform(-30, 30)),
            ),
            render.random_look(rng),
            table_bgr=tuple(int(v) for v in rng.integers(40, 200, 3)),  # type: ignore[arg-type]
            board_bgr=tuple(int(v) for v in rng.integers(60, 220, 3)),  # type: ignore[arg-type]
            dice=tuple(dice),
        )
        image, homography = render.render(scene, seed=int(rng.integers(1 << 30)))
        centre = np.array(profile.region("tray").centre())
        at = np.array([centre + d.offset for d in dice], np.float64).reshape(-1, 1, 2)
        centres = cv2.perspectiveTransform(at, homography).reshape(-1, 2).astype(np.float32)
        side = cv2.perspectiveTransform(
            np.array([[centre, centre + (profile.die_mm, 0)]], np.float64), homography
        )[0]
        out.append(
            Labelled(
                image,
                centres,
                np.array([d.value for d in dice], np.int64),
                float(np.linalg.norm(side[1] - side[0])),
            )
        )
    return out
