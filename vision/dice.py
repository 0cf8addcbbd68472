"""Dice: find every die in a frame and read its face.

d6 pip dice are read by a small learned detector-reader (vision/training/, ONNX run
by OpenCV's dnn module): a die-centre heat map, the face value and the die's size
at every 4th pixel. Classical pip counting fails on packed, coloured dice; this
network was trained here from the development photos (see docs/vision.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from .colours import Palette, name_colour
from .frames import as_bgr
from .types import DieReading

STRIDE = 4
DOUBTFUL = 0.5
"""A find less sure than this is dropped when it lies on a surer die, or is small among larger dice."""
ON_DIE = 0.8
"""A centre within this many die sides of another die's centre lies on that die."""
CROP_PX = 40
"""Side of the crop the face reader sees."""
MIN_OUTLINE = 8.0
"""A die's border gradient (Lab lightness per pixel, Sobel) is at least this; on the development
photos fewer than 1 in 200 true dice fall below it."""
CROP_SPAN = 1.4
"""The crop spans this many die sides, so a die a little off-centre or larger is still whole."""
NONE = 6
"""The face reader's class for "no die here"."""
EXAMPLE_SHARPNESS = 20.0
"""Cosine similarities to the taught examples are multiplied by this before the softmax: a
similarity 0.1 higher makes a face e^2 (7x) likelier."""
TRAINED_DIE_PX = 24.0
"""Dice are read at this size: the middle of the sizes the detector saw in training (14-36 px)."""
GOOD_DIE_PX = (17.0, 32.0)
"""A first look that finds dice in this range is kept; otherwise the frame is read again rescaled."""
SAME_SIZE = (0.55, 1.8)
"""Two looks at one die at different scales measure sizes within this ratio (pips and heaps
of dice are 4 and 2.5 times off)."""
FIRST_LOOK_STEP = 0.45
"""Without a known die size, the first looks are at these steps down (dice of 14-36 px, then
31-80, 69-178 at the first side)."""
SMALLEST_DIE_PX = 12.0
"""The smallest die looked for in a frame (a whole table seen from a metre up: 20-34 px at
1280x960, 13-16 px in a far rolling area)."""
FINEST_SCALE = 16.0 / SMALLEST_DIE_PX
"""The finest look enlarges the frame so that the smallest die is 16 px, inside what the
detector knows (14-36 px)."""


NEAREST = 3
"""A find is judged die or bare table by its likeness to this many of the likest examples of
each (one alone let a stray example decide: on a set never trained on, 30 false dice against
21)."""


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Each row scaled to length 1 (embeddings compared by their direction)."""
    out: np.ndarray = vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-9)
    return out


class Found(NamedTuple):
    x: float
    y: float
    size: float
    value: int
    heat: float
    """The detector's belief that a die is centred here."""
    belief: float
    """Belief in `value`."""

    @property
    def sureness(self) -> float:
        """How sure the networks are that a die showing `value` is here: the reading's confidence."""
        return self.heat * self.belief


def bundled(name: str) -> Path:
    return Path(str(resources.files("vision").joinpath(f"models/{name}")))


def crop_die(image: np.ndarray, centre: tuple[float, float], size: float) -> np.ndarray:
    """The square around a die the face reader sees: CROP_SPAN sides, CROP_PX pixels."""
    scale = CROP_PX / (CROP_SPAN * size)
    if scale < 0.7:  # shrink smoothly
        x, y = centre
        r = int(CROP_SPAN * size)
        h, w = image.shape[:2]
        x0, y0 = max(0, int(x) - r), max(0, int(y) - r)
        part = cv2.GaussianBlur(
            image[y0 : min(h, int(y) + r + 1), x0 : min(w, int(x) + r + 1)], (0, 0), 0.4 / scale
        )
        image, centre = part, (x - x0, y - y0)
    m = np.array([[scale, 0, CROP_PX / 2 - centre[0] * scale], [0, scale, CROP_PX / 2 - centre[1] * scale]])
    return cv2.warpAffine(
        image, m, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT101
    )


def outline_strength(image: np.ndarray, die: Found) -> float:
    """How sharply the die stands out where its edges are (the 75th percentile of the
    lightness gradient in a square band round its border). A speck of dirt on a white table
    looks like a white die showing 1 to the networks, but has no edges round it."""
    half = int(die.size * 0.7) + 2
    x, y = int(round(die.x)), int(round(die.y))
    h, w = image.shape[:2]
    x0, y0, x1, y1 = max(0, x - half), max(0, y - half), min(w, x + half + 1), min(h, y + half + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return 0.0
    light = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float32)
    gradient = cv2.magnitude(cv2.Sobel(light, cv2.CV_32F, 1, 0), cv2.Sobel(light, cv2.CV_32F, 0, 1))
    ys, xs = np.mgrid[y0:y1, x0:x1]
    ring = np.maximum(np.abs(xs - die.x), np.abs(ys - die.y)) / die.size
    band = gradient[(ring > 0.35) & (ring < 0.65)]
    return float(np.percentile(band, 75)) if band.size else 0.0


def contradicted(finer: list[Found], coarser: list[Found]) -> bool:
    """More than a quarter of the coarser look's dice match no finer find in place and size."""

    def matched(big: Found) -> bool:
        return any(
            (d.x - big.x) ** 2 + (d.y - big.y) ** 2 < (0.5 * max(d.size, big.size)) ** 2
            and SAME_SIZE[0] <= d.size / big.size <= SAME_SIZE[1]
            for d in finer
        )

    return sum(not matched(big) for big in coarser) > 0.25 * len(coarser)


def overlapped(die: Found, found: list[Found]) -> bool:
    """A doubtful find on a surer die (a side face seen at an angle, or the die found twice):
    its centre lies on that die. Dice cannot overlap, and sure dice next to each other are
    never doubtful here, so only doubtful finds are dropped."""
    return die.sureness < DOUBTFUL and any(
        other.sureness > die.sureness
        and (die.x - other.x) ** 2 + (die.y - other.y) ** 2 < (ON_DIE * max(die.size, other.size)) ** 2
        for other in found
    )


@dataclass(frozen=True)
class FaceExamples:
    """The players' own dice, taught: for each face value, the face reader's embeddings of the
    dice shown with it (`dice` and their `labels`; `vectors`, one mean per value, where none is
    kept), so a symbol on the 1 or a style the networks never saw is read as the players showed
    it."""

    values: tuple[int, ...]
    vectors: np.ndarray
    dice: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    """Every die shown (unit vectors, whatever its face): what a die of this set looks like."""
    bare: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    """What the detector found on the bare table or tray (unit vectors): its grain, its print."""
    die_px: float = 0.0
    """How wide the dice shown were (px, the median): the bare table is looked at for dice as
    wide (found at every scale, its grain passes for dice the reader never looks for there)."""
    labels: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    """The face each of `dice` was shown with (0: not known, a file from before they were kept)."""

    def not_dice(self, embeddings: np.ndarray) -> np.ndarray | None:
        """Which finds are nearer what was found on the bare table than the dice shown (the
        mean of each one's `NEAREST` likest of either), or None when either was never shown:
        a set of dice and a tray the networks never saw, told apart as the players showed them."""
        if not len(self.bare) or not len(self.dice):
            return None
        unit = unit_rows(embeddings)

        def likeness(examples: np.ndarray) -> np.ndarray:
            near = np.sort(unit @ examples.T, axis=1)[:, -NEAREST:]
            return np.asarray(near.mean(axis=1))

        out: np.ndarray = likeness(self.bare) > likeness(self.dice)
        return out

    def probabilities(self, embeddings: np.ndarray) -> np.ndarray:
        """For each embedding (n, d), how likely each face 1-6 is by its nearness to the
        examples (cosine similarity, sharpened): to the likest die shown with that face, or the
        face's mean where no die of it is kept. The likest die, not the mean: a marbled or
        glittering set's examples of one face are far apart (on a set never trained on, means
        read 2-3% fewer dice right than the network alone, the likest die as many). Faces never
        shown get nothing."""
        unit = unit_rows(embeddings)
        near = np.full((len(unit), 6), -np.inf)
        for value, mean in zip(self.values, self.vectors):
            shown = self.dice[self.labels == value] if len(self.labels) == len(self.dice) else self.dice[:0]
            likeness = (unit @ shown.T).max(axis=1) if len(shown) else unit @ mean
            near[:, value - 1] = EXAMPLE_SHARPNESS * likeness
        z = np.exp(near - near.max(axis=1, keepdims=True))
        out: np.ndarray = z / z.sum(axis=1, keepdims=True)
        return out


@dataclass(frozen=True)
class DiceConfig:
    threshold: float = 0.35
    """Minimum centre-heat for a die."""
    bare_threshold: float = 0.25
    """Minimum centre-heat for a die once the players showed their bare table: weaker finds are
    offered, since each is then kept only if it looks more like their dice than their table."""
    first_side: int = 512
    """Without a known die size, the first look is at this longer side."""
    palette: Palette = field(default_factory=Palette)
    taught: FaceExamples | None = None
    """The players' own dice (vision/teach.py): read half by the examples, half by the network."""


class DiceReader:
    """Holds the network (loaded once); `read` is otherwise a pure function of the frame."""

    def __init__(
        self,
        model: Path | None = None,
        config: DiceConfig | None = None,
        faces: Path | None | bool = True,
    ) -> None:
        """`model` finds dice; `faces` reads them (True: the bundled reader; None: the
        detector's own face guess, used only while training the reader)."""
        self.config = config or DiceConfig()
        self.net = cv2.dnn.readNetFromONNX(str(model or bundled("dice_d6.onnx")))
        face_path = bundled("dice_faces.onnx") if faces is True else faces
        self.faces = cv2.dnn.readNetFromONNX(str(face_path)) if face_path else None
        self.teachable = self.faces is not None and "embedding" in self.faces.getUnconnectedOutLayersNames()
        """Whether the face reader gives the embedding the players' examples are kept in (readers
        trained before 2026-11-26 do not)."""

    def _maps(self, image: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        ph, pw = -h % 16, -w % 16
        if ph or pw:
            image = cv2.copyMakeBorder(image, 0, ph, 0, pw, cv2.BORDER_REFLECT101)
        self.net.setInput(cv2.dnn.blobFromImage(image))
        maps: np.ndarray = self.net.forward()[0]
        return maps[:, : (h + STRIDE - 1) // STRIDE, : (w + STRIDE - 1) // STRIDE]

    def _detect(self, image: np.ndarray, scale: float, threshold: float | None = None) -> list[Found]:
        """The dice in the coordinates of `image`, read at `scale`: peaks of centre-heat above
        `threshold` (by default the bare table's when the players showed it, else the plain one)."""
        if threshold is None:
            taught = self.config.taught
            bare = taught is not None and len(taught.bare) > 0 and len(taught.dice) > 0
            threshold = self.config.bare_threshold if bare else self.config.threshold
        scaled = (
            image if scale == 1 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        )
        maps = self._maps(scaled)
        heat = 1 / (1 + np.exp(-maps[0]))
        peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > threshold)
        logits = maps[1:7]
        found = []
        for y, x in zip(*np.nonzero(peaks)):
            y0, y1 = max(0, y - 1), min(heat.shape[0], y + 2)
            x0, x1 = max(0, x - 1), min(heat.shape[1], x + 2)
            patch = heat[y0:y1, x0:x1]
            ys, xs = np.mgrid[y0:y1, x0:x1]
            cy = float((patch * ys).sum() / patch.sum()) * STRIDE
            cx = float((patch * xs).sum() / patch.sum()) * STRIDE
            z = logits[:, y, x] - logits[:, y, x].max()
            probs = np.exp(z) / np.exp(z).sum()
            value = int(probs.argmax()) + 1
            size = float(np.exp(maps[7, y, x]) * 32)
            found.append(
                Found(cx / scale, cy / scale, size / scale, value, float(heat[y, x]), float(probs.max()))
            )
        # Two peaks on one die: keep the stronger.
        found.sort(key=lambda d: -d.heat)
        kept: list[Found] = []
        for d in found:
            if all((d.x - k.x) ** 2 + (d.y - k.y) ** 2 > (0.5 * max(d.size, k.size)) ** 2 for k in kept):
                kept.append(d)
        return kept

    def read(
        self, frame: object, die_px: float | None = None, gains: np.ndarray | None = None
    ) -> tuple[DieReading, ...]:
        """Every die in `frame`. `die_px`, when known (from the board pose), sets the scale;
        otherwise a first pass measures the dice and a second reads them at the right size.
        `gains`: those that make the markers' paper white in this frame, for naming colours."""
        image = as_bgr(frame)
        base = min(1.0, self.config.first_side / max(image.shape[:2]))
        if die_px:
            scale = TRAINED_DIE_PX / die_px
        else:
            scale, first = self._first_look(image, base)
            if not first:
                return ()
            seen = float(np.median([d.size for d in first])) * scale
            if GOOD_DIE_PX[0] <= seen <= GOOD_DIE_PX[1]:
                return self._readings(image, first, gains)
            scale *= TRAINED_DIE_PX / seen
        return self._readings(image, self._read_faces(image, self._detect(image, scale)), gains)

    def finds_at(self, frame: object, die_px: float) -> list[tuple[float, float, float]]:
        """Everything the detector takes for a die (x, y, size), none dropped, looking as for dice
        `die_px` wide, as weak as the reader will take once the table is shown: what a bare table
        shows it where those dice are rolled (vision/teach.py)."""
        image = as_bgr(frame)
        finds = self._detect(image, TRAINED_DIE_PX / die_px, self.config.bare_threshold)
        return [(d.x, d.y, d.size) for d in finds]

    def _first_look(self, image: np.ndarray, base: float) -> tuple[float, list[Found]]:
        """The dice at the first side, or coarser, or finer. Dice larger than the detector knows
        are missed at the first side and their pips pass for small dice; so look again, each
        time FIRST_LOOK_STEP smaller, and keep the finest look that the next coarser one does
        not contradict: a coarser find with no find of about its size at its place means the
        finer look saw parts of dice (pips), not dice. Dice too small for the coarser look
        leave it empty, which contradicts nothing.

        The dice may also be too small for the first side (a whole table in a large frame
        shrunk to it): when the kept look finds no die, or only dice smaller than the detector
        reads well (GOOD_DIE_PX), or none it is sure of (a heap of small dice seen as one
        doubtful large "die"), look finer, up to FINEST_SCALE. A finer look is kept when it is
        sure of more dice than the kept look found at all (of more than it was sure of, when
        those were small): a die larger than the detector knows shows its pips to a finer
        look as a few small dice, one or two of them sure."""

        def sure(found: list[Found]) -> int:
            return sum(d.sureness >= DOUBTFUL for d in found)

        scale, found = self._coarser_looks(image, base)
        small = bool(found) and float(np.median([d.size for d in found])) * scale < GOOD_DIE_PX[0]
        if found and not small and sure(found):
            return scale, found
        bar = sure(found) if small else len(found)
        finer = max(scale, base)
        while finer < FINEST_SCALE:
            finer = min(FINEST_SCALE, finer / FIRST_LOOK_STEP)
            closer = self._read_faces(image, self._detect(image, finer))
            if sure(closer) > bar:
                scale, found, bar = finer, closer, sure(closer)
        return scale, found

    def _coarser_looks(self, image: np.ndarray, base: float) -> tuple[float, list[Found]]:
        looks: list[tuple[float, list[Found]]] = []
        scale = base
        while min(image.shape[:2]) * scale >= 48:
            looks.append((scale, self._read_faces(image, self._detect(image, scale))))
            if len(looks) >= 2 and looks[-2][1] and not contradicted(looks[-2][1], looks[-1][1]):
                return looks[-2]
            scale *= FIRST_LOOK_STEP
        return max(looks, key=lambda look: sum(d.sureness for d in look[1]), default=(base, []))

    def _read_faces(self, image: np.ndarray, found: list[Found]) -> list[Found]:
        """Each found die's face by the face reader; a crop it calls "no die" is dropped."""
        if self.faces is None or not found:
            return found
        logits, embeddings = self.face_outputs(image, [(d.x, d.y, d.size) for d in found])
        z = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs = z / z.sum(axis=1, keepdims=True)
        taught = self.config.taught
        if taught is not None and embeddings is not None:
            # The faces by the network and by the players' examples, half each; "no die" is the
            # network's call unless the players showed their bare table too: then it is theirs.
            faces = probs[:, :NONE] / probs[:, :NONE].sum(axis=1, keepdims=True)
            mixed = 0.5 * faces + 0.5 * taught.probabilities(embeddings) if taught.values else faces
            bare = taught.not_dice(embeddings)
            none = probs[:, NONE : NONE + 1] if bare is None else bare[:, None].astype(np.float64)
            probs = np.concatenate([mixed * (1 - none), none], axis=1)
        return [
            d._replace(value=int(p.argmax()) + 1, belief=float(p.max()))
            for d, p in zip(found, probs)
            if int(p.argmax()) != NONE
        ]

    def face_outputs(
        self, image: np.ndarray, dice: list[tuple[float, float, float]]
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """The face reader's logits for dice at (x, y, size), and its embeddings when the
        reader gives them (readers trained before 2026-11-26 do not: they cannot be taught)."""
        assert self.faces is not None
        self.faces.setInput(cv2.dnn.blobFromImages([crop_die(image, (x, y), size) for x, y, size in dice]))
        if not self.teachable:
            return self.faces.forward(), None
        logits, embeddings = self.faces.forward(["logits", "embedding"])
        return logits, embeddings

    def _readings(
        self, image: np.ndarray, found: list[Found], gains: np.ndarray | None = None
    ) -> tuple[DieReading, ...]:
        """Readings of finds whose faces have been read, without specks and pip-like marks."""
        found = [d for d in found if outline_strength(image, d) >= MIN_OUTLINE]
        if len(found) >= 3:
            # A small, doubtful "die" among larger sure ones is a speck or a pip-like mark.
            typical = float(np.median([d.size for d in found]))
            found = [d for d in found if d.size >= 0.7 * typical or d.sureness >= DOUBTFUL]
        found = [d for d in found if not overlapped(d, found)]
        return tuple(
            DieReading(
                kind="d6",
                value=value,
                center=(round(x, 1), round(y, 1)),
                size=round(size, 1),
                confidence=round(conf, 3),
                color=name_colour(image, (x, y), size, self.config.palette, gains),
            )
            for x, y, size, value, conf in ((d.x, d.y, d.size, d.value, d.sureness) for d in found)
        )
