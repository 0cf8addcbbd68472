"""Teach the companion your own pieces: their colours under your light, and their sizes.

Lay every piece of one colour on the empty board (vision/reference.py) and show it to the
camera; then the next colour. Each piece is found as what differs from the empty board, its
colour measured (the median of its pixels, white-balanced by the markers' paper) and its
width (a disc of the same area) gives its kind. The palette then holds each colour as your
pieces look, and the kinds the widths your pieces have. Colours your pieces cannot be told
apart by under this light are said, loudly, before a game relies on them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from .board import BoardLocator
from .camera import CameraPlace, camera_place
from .colours import PALETTE_FILE, Palette, hex_colour, load_palette, save_palette, shade_free
from .dice import DiceReader, FaceExamples, unit_rows
from .frames import as_bgr
from .profiles import Profile
from .reference import EmptyBoard, kept_empty_board, token_regions_seen
from .tokens import (
    MAX_SIZE_ERROR,
    PRINT_COLOURS,
    SQUARE_WIDTH,
    how_each_kind_fits,
    hull_pixels,
    kind_sizes,
    nearer_a_colour,
    piece_width,
    pieces_view,
    size_error,
    under_hull,
)
from .types import VisionError

TOLD_APART = 0.8
"""A piece is told apart from another colour when its distance to its own colour (in the
naming features, colours.shade_free) is under this share of its distance to the other:
nearer than that, the next shadow or a lamp may tip it over."""
MIN_APART = 12.0
"""Two colours whose learned features lie closer than this are not told apart, however alike
the pieces shown were: a shadow across the board (40% darker) or a warm lamp moved a coloured
piece's features by up to 12-16 on renders (tests/test_vision_teach.py), so such colours swap
in the shade."""


@dataclass(frozen=True)
class Sample:
    """One piece shown while teaching: its colour's name, kind, measured colour and width."""

    colour: str
    kind: str
    bgr: tuple[float, float, float]
    width_mm: float
    """As the profile gives it: a round piece's width, a square tile's side."""


@dataclass(frozen=True)
class Lesson:
    palette: Palette
    """The colours as your pieces look (the others as they were)."""
    sizes: tuple[tuple[str, float], ...]
    """Each kind's width as your pieces measure (millimetres, as the profile gives them)."""
    confusions: tuple[str, ...]
    """Colours that cannot be told apart under this light, said for people."""


def samples(frame: object, profile: Profile, colour: str, empty: EmptyBoard) -> tuple[Sample, ...]:
    """Every piece on the board in `frame`, all of them `colour` (`VisionError` without the
    board or its empty look). Each is measured as the token reader measures a piece: its
    pixels of its own colour (`own_pixels`), a round piece's width across its lean (a standing
    piece leans away from the point under the camera), a tile's by its area, a figure whose
    colour shows on its base alone by its outline's hull; its kind the one whose size and
    silhouette where it stands fit it, among those its place holds."""
    image = as_bgr(frame)
    pose = BoardLocator(profile).locate(image)
    place = camera_place(pose.homography, (image.shape[1], image.shape[0]))
    top = token_regions_seen(image, profile, pose)
    if top.image.shape != empty.image.shape:
        raise VisionError(f"the empty board kept for {profile.name} does not fit its regions: see it again")
    view = pieces_view(top, profile, empty.image)
    r0, c0 = view.origin
    bgr = top.image[r0 : r0 + view.mask.shape[0], c0 : c0 + view.mask.shape[1]]
    # The players' pieces come in any colour taught; a kind with colours of its own (a resource
    # tile) only in those.
    own = dict(profile.token_colours)
    allowed = {k: w for k, w in kind_sizes(profile).items() if k not in own or colour in own[k]}
    if not allowed:
        raise VisionError(f"no kind of piece on {profile.name} comes in {colour}")
    s = top.px_per_mm
    regions = [r for r in profile.regions if r.holds == "tokens"]
    known = dict(Palette().colours) | dict(profile.colours)
    expected = shade_free(np.array([known[colour]], np.float32)) if colour in known else None
    count, labels, stats, _ = cv2.connectedComponentsWithStats(view.mask)
    blobs = []  # each blob's box in the view and its pixels there
    for label in range(1, count):
        x, y, w, h, area = stats[label]
        if area >= 4:
            box = (slice(int(y), int(y + h)), slice(int(x), int(x + w)))
            blobs.append((box, (labels[box] == label).astype(np.uint8)))
    _, printed = Palette().features(PRINT_COLOURS)
    # The pieces' colour first as the palette names it; when no piece is found so, as each
    # piece looks (your light blue is not the palette's deep blue: teaching is for that).
    found: list[Sample] = []
    for guess in (expected, None) if expected is not None else (None,):
        for box, mask in blobs:
            rows, cols = own_pixels(bgr, view.background, box, mask, guess, printed)
            if rows.size < 4:
                continue
            centre = top.to_mm(float(cols.mean()) + c0, float(rows.mean()) + r0)
            region = next((r for r in regions if r.contains(centre)), None)
            if region is None:
                continue
            # Among the kinds its place holds, as the reader judges it (a stall holds materials).
            kinds = {k: w for k, w in allowed.items() if not region.kinds or k in region.kinds}
            blob_rows, blob_cols = np.nonzero(mask)
            under = under_hull(rows, cols, blob_rows + box[0].start, blob_cols + box[1].start)
            judged = judged_piece(rows, cols, kinds, profile, s, place, centre, under)
            figures = {k: w for k, w in kinds.items() if k in profile.token_figures}
            if judged is None and figures:  # a base round a dark figure: its outline's hull
                judged = judged_piece(*hull_pixels(rows, cols), figures, profile, s, place, centre)
            if judged is None:
                continue  # a hand, a card, a heap: not one piece
            b, g, r = np.median(bgr[rows, cols].astype(np.float32), axis=0)
            found.append(Sample(colour, judged[0], (float(b), float(g), float(r)), judged[1]))
        if found:
            break
    if not found:
        raise VisionError(f"no {colour} piece is on the board: lay them on the empty board, apart")
    return tuple(found)


def own_pixels(
    bgr: np.ndarray,
    background: np.ndarray,
    box: tuple[slice, slice],
    mask: np.ndarray,
    expected: np.ndarray | None,
    printed: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The pixels of one piece (`mask` inside `box` of the view: what differs from the board
    there) of its own colour: nearer it than the board's there (not its shadow) and than print's
    white and black (`printed`, their shade-free features: not a dark figure on its base, its
    dark side wall, a glint), as rows and columns of the view. Its colour is first the palette's
    of its name (`expected`, shade-free features), else the median of the piece; then the median
    of the pixels nearest that."""
    rows, cols = np.nonzero(mask)
    guess = (
        expected
        if expected is not None
        else shade_free(np.median(bgr[box][rows, cols].astype(np.float32), axis=0)[None])
    )
    kept = (rows[:0], cols[:0])
    for _ in range(2):
        piece = nearer_a_colour(bgr[box], background[box], mask, np.concatenate([guess, printed]))
        if int((piece.colour == 0).sum()) < 4:
            break
        kept = (piece.rows[piece.colour == 0], piece.cols[piece.colour == 0])
        guess = shade_free(np.median(bgr[box][kept].astype(np.float32), axis=0)[None])
    return kept[0] + box[0].start, kept[1] + box[1].start


def judged_piece(
    rows: np.ndarray,
    cols: np.ndarray,
    kinds: dict[str, float],
    profile: Profile,
    s: float,
    place: CameraPlace,
    centre: tuple[float, float],
    under: int | None = None,
) -> tuple[str, float] | None:
    """The kind whose size and silhouette where it stands these pixels fit best, and their width
    as the profile gives it (a tile's side); None when none fits. A tile's size is that of the
    pixels `under` the hull of its own colour's, when given: its printed emblem is its own, as
    the token reader takes it (a blue tile less its white emblem is a round 20 mm: a priest).
    Not `likeliest_kind`: that prefers the kinds the profile says come in this colour, and the
    players' colours a profile gives are a guess that teaching is there to correct. An oblong
    piece (a meeple) keeps the profile's width: turned any way, what shows across it is no size."""
    across = piece_width(rows, cols, centre, place, s)
    flat = 2 * math.sqrt((under or rows.size) / math.pi) / s
    seen = {k: flat if k in profile.token_square else across for k in kinds}
    misfit, shaped = how_each_kind_fits(rows, cols, kinds, seen, profile, s, place, centre)
    fitting = [k for k in kinds if shaped[k] and size_error(k, kinds[k], seen[k], profile) <= MAX_SIZE_ERROR]
    if not fitting:
        return None
    kind = min(fitting, key=lambda k: misfit[k])
    if kind in dict(profile.token_depth):  # turned any way, its width across its lean is no size
        return kind, dict(profile.token_mm)[kind]
    return kind, seen[kind] / SQUARE_WIDTH if kind in profile.token_square else seen[kind]


def learn(shown: Sequence[Sample], palette: Palette) -> Lesson:
    """The colours and sizes of the pieces shown, and the colours they cannot be told apart by."""
    by_colour: dict[str, list[Sample]] = {}
    for sample in shown:
        by_colour.setdefault(sample.colour, []).append(sample)
    for name, pieces in by_colour.items():
        b, g, r = np.median(np.array([p.bgr for p in pieces]), axis=0).round().astype(int)
        palette = palette.with_sample(name, (int(b), int(g), int(r)))
    by_kind: dict[str, list[float]] = {}
    for sample in shown:
        by_kind.setdefault(sample.kind, []).append(sample.width_mm)
    sizes = tuple((kind, round(float(np.median(w)), 1)) for kind, w in sorted(by_kind.items()))
    names, choices = palette.features(tuple(by_colour))
    confusions = [
        f"{a} ({hex_colour(palette_bgr(palette, a))}) and {b} ({hex_colour(palette_bgr(palette, b))}) "
        "look too much alike under this light to be told apart in the shade; use pieces of clearly "
        "different colours, or more even light"
        for i, a in enumerate(names)
        for j, b in enumerate(names)
        if i < j and float(np.linalg.norm(choices[i] - choices[j])) < MIN_APART
    ]
    for name, pieces in by_colour.items():
        features = shade_free(np.array([p.bgr for p in pieces], np.float32))
        distances = np.linalg.norm(features[:, None, :] - choices[None, :, :], axis=2)
        own = distances[:, names.index(name)]
        for k, other in enumerate(names):
            at_risk = int((own >= TOLD_APART * distances[:, k]).sum()) if other != name else 0
            if at_risk:
                confusions.append(
                    f"{at_risk} of {len(pieces)} {name} pieces look nearly {other} under this light: "
                    f"{name} and {other} cannot be told apart"
                )
    return Lesson(palette, sizes, tuple(confusions))


def palette_bgr(palette: Palette, name: str) -> tuple[int, int, int]:
    return dict(palette.colours)[name]


def with_sizes(profile: Profile, sizes: Sequence[tuple[str, float]]) -> Profile:
    """The profile with its pieces' widths as taught (kinds it does not have are left out)."""
    taught = dict(sizes)
    return replace(
        profile, token_mm=tuple((kind, taught.get(kind, width)) for kind, width in profile.token_mm)
    )


def teach_colours(
    shown: Sequence[tuple[str, object]], profile: Profile, data_dir: Path
) -> tuple[Lesson, tuple[Sample, ...]]:
    """Each (colour, frame of every piece of that colour on the empty board) learned together
    with the colours taught before (kept in `data_dir`); the palette, sizes and pieces shown
    are written unless two colours cannot be told apart (then the lesson says so and nothing
    is written). Also the pieces just shown, for people to check."""
    empty = kept_empty_board(data_dir, profile)
    if empty is None:
        raise VisionError(f"clear the board and keep the empty board first ({profile.name})")
    colours = {colour for colour, _ in shown}
    new = tuple(p for colour, frame in shown for p in samples(frame, profile, colour, empty))
    pieces = [p for p in load_samples(data_dir) if p.colour not in colours] + list(new)
    path = data_dir / PALETTE_FILE
    lesson = learn(pieces, load_palette(path) if path.is_file() else Palette())
    if not lesson.confusions:
        save_palette(lesson.palette, path, lesson.sizes)
        save_samples(pieces, data_dir)
    return lesson, new


SAMPLES_FILE = "taught-pieces.json"
"""The pieces shown while teaching, kept in the data directory so colours are taught one at a
time (each new colour is checked against those taught before)."""


def save_samples(shown: Sequence[Sample], data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    rows = [{"colour": s.colour, "kind": s.kind, "bgr": list(s.bgr), "width_mm": s.width_mm} for s in shown]
    (data_dir / SAMPLES_FILE).write_text(json.dumps(rows) + "\n")


def load_samples(data_dir: Path) -> list[Sample]:
    """The pieces taught so far (none: an empty list; a damaged file is `VisionError`)."""
    path = data_dir / SAMPLES_FILE
    if not path.is_file():
        return []
    try:
        rows = json.loads(path.read_text())
        return [
            Sample(str(r["colour"]), str(r["kind"]), (float(b), float(g), float(red)), float(r["width_mm"]))
            for r in rows
            for b, g, red in [r["bgr"]]
        ]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise VisionError(f"{path}: cannot read the pieces taught: {error}") from error


DICE_FILE = "dice-faces.json"
NOT_TEACHABLE = (
    "this face reader cannot learn your dice (it was trained before it gave the embedding "
    "examples are kept in): retrain it (make train-dice)"
)
"""The players' dice as taught (face examples), kept in the data directory."""


def face_embeddings(
    reader: DiceReader, image: np.ndarray, dice: Sequence[tuple[float, float, float]]
) -> np.ndarray:
    """The face reader's embeddings of dice at (x, y, size) in `image` (`VisionError` when the
    reader cannot be taught: trained before it gave them)."""
    _, embeddings = reader.face_outputs(image, list(dice))
    if embeddings is None:
        raise VisionError(NOT_TEACHABLE)
    return embeddings


def teach_dice(shown: Sequence[tuple[int, np.ndarray]], die_px: float = 0.0) -> FaceExamples:
    """Each face value from its examples: (value, embeddings of dice showing it), a mean unit
    vector per value, and every die as an example of the set; `die_px`: how wide they were.
    `VisionError` for a value outside 1-6 or with no example."""
    by_value: dict[int, list[np.ndarray]] = {}
    for value, embeddings in shown:
        if not 1 <= value <= 6:
            raise VisionError(f"a d6 shows 1 to 6, not {value}")
        by_value.setdefault(value, []).extend(embeddings)
    if not by_value:
        raise VisionError("no die was shown")
    values = tuple(sorted(by_value))
    vectors = []
    for value in values:
        mean = unit_rows(np.array(by_value[value], np.float64)).mean(axis=0)
        vectors.append(mean / (np.linalg.norm(mean) + 1e-9))
    kept = {v: np.array(by_value[v], np.float64)[-KEPT_PER_FACE:] for v in values}
    every = unit_rows(np.concatenate([kept[v] for v in values]))
    labels = np.concatenate([np.full(len(kept[v]), v, np.int64) for v in values])
    return FaceExamples(values, np.array(vectors), every, die_px=die_px, labels=labels)


KEPT_PER_FACE = 40
"""The dice shown kept as examples of each face (the latest; a photo shows a few dozen at most)."""
KEPT_BARE = 400
"""The finds on the bare table kept (the latest)."""


def finds_on_bare_table(reader: DiceReader, image: np.ndarray, examples: FaceExamples | None) -> np.ndarray:
    """The embeddings of everything the detector takes for a die in a photo of the table or tray
    where the dice are rolled, with no die in view, looked at as for the dice shown (the wood's
    grain, the felt's seams, a printed numeral): the reader then drops a find likelier these than
    the dice shown. None found is an answer too. `VisionError` before any die was shown (their
    size says how to look)."""
    if not reader.teachable:
        raise VisionError(NOT_TEACHABLE)
    if examples is None or examples.die_px <= 0:
        raise VisionError("show your dice first (a face at a time): their size says how to look at the table")
    finds = reader.finds_at(image, examples.die_px)
    return face_embeddings(reader, image, finds) if finds else np.zeros((0, 0))


def with_bare_table(examples: FaceExamples | None, embeddings: np.ndarray) -> FaceExamples:
    """The dice taught so far with the bare table shown afresh (what it showed before is
    replaced: the tray may have been changed)."""
    kept = examples or FaceExamples((), np.zeros((0, 0)))
    bare = unit_rows(embeddings)[-KEPT_BARE:] if len(embeddings) else np.zeros((0, 0))
    return replace(kept, bare=bare)


def dice_in_photo(reader: DiceReader, image: np.ndarray, value: int) -> tuple[np.ndarray, float]:
    """The embeddings of every die found in a photo of dice all showing `value`, and how wide
    they are (px, the median)."""
    if not reader.teachable:
        raise VisionError(NOT_TEACHABLE)
    found = reader.read(image)
    if not found:
        raise VisionError(f"no die is seen in the photo of {value}s")
    dice = [(d.center[0], d.center[1], d.size) for d in found]
    return face_embeddings(reader, image, dice), float(np.median([d.size for d in found]))


def save_dice(examples: FaceExamples, data_dir: Path) -> None:
    """Writes the faces taught in one step a power cut cannot leave half done (the page teaches
    one face at a time, each a rewrite of the file)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    data = {  # as float64: 0.0193 is written, not float32's 0.0193000007
        "values": list(examples.values),
        "vectors": np.asarray(examples.vectors, np.float64).round(5).tolist(),
        "dice": np.asarray(examples.dice, np.float64).round(4).tolist(),
        "bare": np.asarray(examples.bare, np.float64).round(4).tolist(),
        "labels": [int(v) for v in examples.labels],
        "die_px": round(examples.die_px, 1),
    }
    temporary = data_dir / (DICE_FILE + ".tmp")
    temporary.write_text(json.dumps(data) + "\n")
    temporary.replace(data_dir / DICE_FILE)


def with_face(
    examples: FaceExamples | None, value: int, embeddings: np.ndarray, die_px: float = 0.0
) -> FaceExamples:
    """The faces taught so far with `value` taught afresh from these dice, `die_px` wide (one
    face at a time, as the page teaches: the other faces stay as they were)."""
    fresh = teach_dice([(value, embeddings)])
    kept = {} if examples is None else dict(zip(examples.values, examples.vectors))
    kept[value] = fresh.vectors[0]
    values = tuple(sorted(kept))
    dice, labels = fresh.dice, fresh.labels
    if examples is not None and len(examples.dice):
        others = examples.labels != value  # this face's dice shown before give way to the fresh
        dice = np.vstack([examples.dice[others], fresh.dice])
        labels = np.concatenate([examples.labels[others], fresh.labels])
    bare = np.zeros((0, 0)) if examples is None else examples.bare
    size = die_px or (0.0 if examples is None else examples.die_px)
    return FaceExamples(values, np.array([kept[v] for v in values]), dice, bare, size, labels)


def load_dice(data_dir: Path) -> FaceExamples | None:
    """The players' dice as taught (None: not taught; a damaged file is `VisionError`)."""
    path = data_dir / DICE_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
        values = tuple(int(v) for v in data["values"])
        vectors, dice, bare = (rows(data, key) for key in ("vectors", "dice", "bare"))
        labels = np.array(data.get("labels") or [0] * len(dice), np.int64)  # 0: from before labels
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise VisionError(f"{path}: cannot read the dice taught: {error}") from error
    if len(vectors) != len(values) or not all(1 <= v <= 6 for v in values) or len(labels) != len(dice):
        raise VisionError(f"{path}: the dice taught do not match their faces")
    return FaceExamples(values, vectors, dice, bare, float(data.get("die_px", 0.0)), labels)


def rows(data: dict[str, list[list[float]]], key: str) -> np.ndarray:
    """The vectors kept under `key`, one a row (none: an empty array)."""
    kept = data.get(key) or []
    return np.array(kept, np.float64).reshape(len(kept), -1) if kept else np.zeros((0, 0))
