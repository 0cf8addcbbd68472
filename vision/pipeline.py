"""read_table: one frame (and a board profile, or none) -> an Observation."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from .board import BoardLocator, draw_regions, px_per_mm, to_board, to_frame
from .camera import CameraPlace, camera_place
from .colours import PALETTE_FILE, Palette, load_palette, load_sizes
from .dice import TRAINED_DIE_PX, DiceConfig, DiceReader
from .discs import (
    STACK_MARGIN_MM,
    STACK_PX_PER_MM,
    named,
    read_stack,
    side_of,
    sides_colours,
    stack_outline,
)
from .frames import as_bgr
from .profiles import Profile, Region
from .reference import ALIGN_MM, EmptyBoard, changed_share, dice_straightening, token_view
from .regions import Straightening, TopDown, paper_points, white_gains
from .teach import load_dice, with_sizes
from .tokens import TOKEN_PX_PER_MM, as_their_discs, palette_here, read_tokens
from .types import BoardPose, DieReading, Observation, Route, TokenSighting, VisionError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Views:
    """Where the readers look, for one board pose: each stack region straightened on its own at
    the stacks' scale, and all token regions together at the tokens' (coarser) scale. Only the
    regions are straightened, never the board between them. Tokens are straightened at twice
    their scale and then averaged down, which keeps their edges true."""

    pose: BoardPose
    stacks: tuple[tuple[Region, Straightening], ...]
    tokens: Straightening | None
    paper: np.ndarray
    """Where the marker sheet's white border is in the frame, for the white balance."""
    place: CameraPlace
    """Where the camera is over the board (for what stands above it)."""
    raised: tuple[tuple[tuple[Region, ...], Straightening], ...] = ()
    """Token regions above the board (a tower's top floor), each height's straightened there."""
    frame_size: tuple[int, int] = (0, 0)
    """The frames' size, px (a full-resolution still is read through the pose scaled to it)."""
    dice: Straightening | None = None
    """The dice regions on the board's plane, to be compared with the empty board's."""

    @classmethod
    def of(cls, pose: BoardPose, profile: Profile, frame_size: tuple[int, int], dice: bool = False) -> Views:
        """`dice`: whether the dice regions are compared with an empty board (their view, most of
        Arkhanos's mat, is made only then)."""
        stack_regions = [r for r in profile.regions if r.holds == "stack"]
        token_regions = [r for r in profile.regions if r.holds == "tokens"]
        place = camera_place(pose.homography, frame_size)
        heights = sorted({r.height for r in token_regions if r.height})
        raised = tuple(tuple(r for r in token_regions if r.height == h) for h in heights)
        return cls(
            pose,
            tuple((r, Straightening.of(pose, [r], STACK_PX_PER_MM, STACK_MARGIN_MM)) for r in stack_regions),
            Straightening.of(pose, token_regions, 2 * TOKEN_PX_PER_MM) if token_regions else None,
            paper_points(pose, profile),
            place,
            tuple(
                (group, Straightening.of(pose, group, 2 * TOKEN_PX_PER_MM, place=place)) for group in raised
            ),
            frame_size,
            dice_straightening(pose, profile) if dice else None,
        )


@dataclass(frozen=True)
class Finer:
    """The token regions' straightenings from a full-resolution still: all of them on the board,
    and each raised group at its height (a tower's top floor: its meeples told apart by size)."""

    tokens: Straightening
    raised: tuple[tuple[tuple[Region, ...], Straightening], ...] = ()


@dataclass(frozen=True)
class VisionConfig:
    dice: DiceConfig = field(default_factory=DiceConfig)
    pieces: Palette | None = None
    """The colours discs and tokens are named among (None: the dice's palette): a game whose
    dice come in fewer colours than its pieces names each among its own."""
    sizes: tuple[tuple[str, float], ...] = ()
    """The pieces' widths as the players' own measure (vision/teach.py), over the profile's."""

    def dice_among(self, colours: tuple[str, ...]) -> VisionConfig:
        """The dice named among a game's own dice colours (those of the palette), the pieces
        among all."""
        palette = Palette(tuple(c for c in self.dice.palette.colours if c[0] in colours))
        return replace(
            self, dice=replace(self.dice, palette=palette), pieces=self.pieces or self.dice.palette
        )


def taught_config(data_dir: Path) -> VisionConfig:
    """The vision settings with what the players taught, kept in the data directory: their
    palette and pieces' sizes (`palette.toml`), their dice's faces (`dice-faces.json`).
    `VisionError` for a damaged file."""
    path = data_dir / PALETTE_FILE
    palette = load_palette(path) if path.is_file() else Palette()
    sizes = load_sizes(path) if path.is_file() else ()
    return VisionConfig(dice=DiceConfig(palette=palette, taught=load_dice(data_dir)), sizes=sizes)


class TableReader:
    """Everything that is loaded or cached once (network, board pose); `read` per frame."""

    def __init__(
        self,
        profile: Profile | None = None,
        config: VisionConfig | None = None,
        empty: EmptyBoard | None = None,
    ) -> None:
        """`empty`: the empty board of this profile (vision/reference.py), when it was seen."""
        self.config = config or VisionConfig()
        self.profile = with_sizes(profile, self.config.sizes) if profile and self.config.sizes else profile
        if empty is not None and (profile is None or empty.profile != profile.name):
            raise VisionError(f"the empty board is of {empty.profile!r}, not of this board")
        self.empty = empty
        needs_dice = profile is None or any(r.holds == "dice" for r in profile.regions)
        self.dice = DiceReader(config=self.config.dice) if needs_dice else None
        self.locator = BoardLocator(profile) if profile else None
        self._views: Views | None = None
        """Kept while the board has not moved (the locator hands back the same pose)."""
        self._said_unmatched = False
        """Whether the log has said that the stills given do not match the frames."""
        self._flat = self.profile
        """The profile as given, before `raise_regions`."""
        self._finer: tuple[BoardPose, int, Finer] | None = None
        """The token regions' straightenings from the full-resolution stills, for one pose."""

    def raise_regions(self, heights: dict[str, float]) -> None:
        """From now on these regions stand this high above the board (a tower's new top floor),
        the others where the profile puts them; the reader keeps its networks and the board's
        pose."""
        assert self._flat is not None
        regions = tuple(replace(r, height=heights.get(r.name, r.height)) for r in self._flat.regions)
        self.profile = replace(self._flat, regions=regions)
        self._views, self._finer = None, None

    def _finer_tokens(self, views: Views, still: np.ndarray) -> Finer:
        """Where each pixel of the token regions' views (on the board, and each raised group at
        its height) comes from in a full-resolution still (the pose's homography scaled to it,
        pixel centres kept), kept while the pose and the still's size are."""
        assert self.profile is not None
        width = still.shape[1]
        if self._finer is None or self._finer[0] is not views.pose or self._finer[1] != width:
            kx, ky = width / views.frame_size[0], still.shape[0] / views.frame_size[1]
            scale = np.array([[kx, 0, (kx - 1) / 2], [0, ky, (ky - 1) / 2], [0, 0, 1.0]])
            homography = scale @ np.array(views.pose.homography, np.float64).reshape(3, 3)
            pose = replace(views.pose, homography=tuple(float(v) for v in homography.ravel()))
            s = 2 * FINER * TOKEN_PX_PER_MM
            regions = [r for r in self.profile.regions if r.holds == "tokens"]
            raised = tuple(
                (group, Straightening.of(pose, group, s, place=views.place)) for group, _ in views.raised
            )
            self._finer = (views.pose, width, Finer(Straightening.of(pose, regions, s), raised))
        return self._finer[2]

    def read(self, frame: object, settled: bool = True, full: object = None) -> Observation:
        """`full`: the same moment at the camera's full resolution (a still the camera took
        once the table settled), when there is one: the dice and the tokens are read from it
        (small pieces: a 10 mm gem is 6 px in a frame that holds a whole mat; an apprentice on a
        tower's top floor 1.8 times smaller than a master), the board and the stacks from
        `frame`. Positions are always in `frame`'s pixels."""
        image = as_bgr(frame)
        still = finer_still(image, full)
        if full is not None and still is None and not self._said_unmatched:
            self._said_unmatched = True  # once, not at every frame of a still table
            log.warning("the full-resolution stills do not show what the frames show: not used")
        timings: dict[str, float] = {}
        start = time.perf_counter()
        if self.locator is None or self.profile is None:
            assert self.dice is not None
            alone = read_dice_finer(self.dice, image, (0, 0, image.shape[1], image.shape[0]), None, still)
            timings["dice"] = (time.perf_counter() - start) * 1000
            return Observation(dice=alone, settled=settled, timings_ms=timings)
        pose = self.locator.locate(image)
        timings["board"] = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        if self._views is None or self._views.pose is not pose:
            compared = self.empty is not None and self.empty.dice is not None
            self._views = Views.of(pose, self.profile, (image.shape[1], image.shape[0]), compared)
        views = self._views
        start = time.perf_counter()
        gains = white_gains(image, views.paper)
        dice = []
        if self.dice is not None:  # named in the paper's white, as the palette's colours are
            dice = dice_in_regions(self.dice, image, pose, self.profile, still, views.place, gains)
        if dice and self.empty is not None and self.empty.dice is not None and views.dice is not None:
            dice = not_print(dice, image, views.dice, gains, self.empty.dice, self.profile, pose)
        timings["dice"] = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        stack_views = [(region, TopDown.of(image, maps, gains)) for region, maps in views.stacks]
        tokens_seen = None
        finer = None  # the still and the token regions' straightenings in it, once the table settled
        if still is not None and views.tokens is not None:
            finer = (still, self._finer_tokens(views, still))
        if views.tokens is not None:
            source, maps = (finer[0], finer[1].tokens) if finer is not None else (image, views.tokens)
            tokens_seen = token_view(source, maps, gains)
        timings["rectify"] = (time.perf_counter() - start) * 1000
        profile, palette = self.profile, self.config.pieces or self.config.dice.palette
        empty = None if self.empty is None or tokens_seen is None else self.empty.image
        if empty is not None and views.tokens is not None and tokens_seen is not None:
            rows, cols = views.tokens.map1.shape[:2]  # as the frames show them (token_view halves)
            seen_as = (int(round(rows / 2)), int(round(cols / 2)))
            if empty.shape[:2] != seen_as:
                raise VisionError(
                    f"the empty board kept for {profile.name} is {empty.shape[1]}x{empty.shape[0]} px, the "
                    f"profile's regions {seen_as[1]}x{seen_as[0]}: see it again"
                )
            if still is not None:  # seen from frames; the still's view is finer
                empty = cv2.resize(empty, tokens_seen.image.shape[1::-1], interpolation=cv2.INTER_LINEAR)
        start = time.perf_counter()
        pieces = None
        if tokens_seen is not None:  # the colours as the pieces show them, for stacks and tokens
            palette, pieces = palette_here(tokens_seen, profile, palette, empty)
        timings["colours"] = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        outlines = [(top, o) for region, top in stack_views if (o := stack_outline(top, profile, region))]
        sides = sides_colours([o for _, o in outlines], palette, profile.piece_colours)
        stacks = tuple(
            read_stack(top, profile, o, colour, palette.has_hue(colour), views.place)
            for top, o in outlines
            for colour in [sides.get(side_of(o.region)) or named(o.faces, palette, profile.piece_colours)]
        )
        palette = as_their_discs(palette, [o for _, o in outlines], sides, profile)
        timings["stacks"] = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        tokens = read_tokens(tokens_seen, profile, palette, empty, views.place, pieces) if tokens_seen else ()
        if views.raised:  # a raised region is read where it stands, not on the board under it
            above_from, raised = (finer[0], finer[1].raised) if finer is not None else (image, views.raised)
            above = [r for group, _ in views.raised for r in group]
            tokens = tuple(t for t in tokens if not seen_above(t.center, above, views.place)) + tuple(
                t
                for group, maps in raised
                for t in read_tokens(
                    token_view(above_from, maps, gains),
                    replace(profile, regions=group),
                    palette,
                    None,
                    replace(views.place, height=views.place.height - group[0].height),  # over its floor
                )
            )
        tokens = not_a_die(tokens, dice, profile)
        timings["tokens"] = (time.perf_counter() - start) * 1000
        return Observation(
            dice=tuple(dice), stacks=stacks, tokens=tokens, pose=pose, settled=settled, timings_ms=timings
        )


FINER = 2
"""From a full-resolution still, the tokens are read at this many times their scale (a 10 mm gem
20 px across, not 10), the empty board seen from frames enlarged to match."""


def finer_still(image: np.ndarray, full: object) -> np.ndarray | None:
    """The full-resolution still, when there is one that shows what `image` shows (the same
    field of view: the same shape, larger); None otherwise (it is then ignored: a camera set
    to other proportions must not make the dice be read wrong)."""
    if full is None:
        return None
    still = as_bgr(full)
    h, w = image.shape[:2]
    fh, fw = still.shape[:2]
    return still if fw > w and abs(fh / fw - h / w) <= 0.01 else None


def read_dice_finer(
    reader: DiceReader,
    image: np.ndarray,
    box: tuple[int, int, int, int],
    die_px: float | None,
    still: np.ndarray | None,
    gains: np.ndarray | None = None,
) -> tuple[DieReading, ...]:
    """The dice in `box` (x0, y0, x1, y1 in `image`'s pixels), their centres and sizes in
    `image`'s pixels. The reader reads every die at TRAINED_DIE_PX: a die smaller than that in
    the frame is enlarged, which makes up no detail; so where there is a full-resolution still
    and the dice are smaller (`die_px`, or measured in the frame first), they are read from
    the still, shrunk to that size from real pixels."""
    x0, y0, x1, y1 = box

    def in_frame(
        found: tuple[DieReading, ...], k: float = 1.0, at: tuple[int, int] = (x0, y0)
    ) -> tuple[DieReading, ...]:
        return tuple(
            replace(d, center=((d.center[0] + at[0]) / k, (d.center[1] + at[1]) / k), size=d.size / k)
            for d in found
        )

    crop = image[y0:y1, x0:x1]
    if still is None:
        return in_frame(reader.read(crop, die_px=die_px, gains=gains))
    k = still.shape[1] / image.shape[1]
    X0, Y0, X1, Y1 = (int(round(v * k)) for v in box)
    if die_px is None:  # no board to say how large a die is: the frame measures them
        first = reader.read(crop)
        if not first:
            return ()
        die_px = float(np.median([d.size for d in first]))
        if die_px >= TRAINED_DIE_PX:
            return in_frame(first)
    if die_px >= TRAINED_DIE_PX:
        return in_frame(reader.read(crop, die_px=die_px, gains=gains))
    return in_frame(reader.read(still[Y0:Y1, X0:X1], die_px=die_px * k, gains=gains), k, (X0, Y0))


def not_a_die(
    tokens: Sequence[TokenSighting], dice: Sequence[DieReading], profile: Profile
) -> tuple[TokenSighting, ...]:
    """The tokens less those standing where a die was read with its pips: a die is a cube of a
    players' colour, as wide as a meeple, so on a place that holds either the token reader sees it
    as a meeple there; its pips say it is none. Arkhanos's rulebook: a die goes on "an empty
    pillar" ("Put a Die and Meeple on a Pillar"), a meeple only on "an empty pillar" ("A
    Different Tower"): a pillar holds one or the other."""
    places = [profile.region(d.region) for d in dice if d.region is not None]
    return tuple(t for t in tokens if not any(r.contains(t.center) for r in places))


def seen_above(centre: tuple[float, float], regions: list[Region], place: CameraPlace) -> bool:
    """Whether something seen at `centre` on the board lies in one of these raised regions (or
    is one of them read on the board): it is read on the region's own plane instead."""
    at = np.array([centre], np.float64)
    return any(r.contains(where(at, r.height, place)) or r.contains(centre) for r in regions)


def where(seen_mm: np.ndarray, height: float, place: CameraPlace | None = None) -> tuple[float, float]:
    """The board point under something seen at `seen_mm` (1, 2) `height` mm above the board."""
    at = place.under(seen_mm, height)[0] if place is not None and height else seen_mm[0]
    return float(at[0]), float(at[1])


def dice_in_regions(
    reader: DiceReader,
    image: np.ndarray,
    pose: BoardPose,
    profile: Profile,
    still: np.ndarray | None = None,
    place: CameraPlace | None = None,
    gains: np.ndarray | None = None,
) -> list[DieReading]:
    """The dice in the profile's dice regions, read in one look over the part of the frame
    that holds them all (a rolling area, a mana pool and a dozen pillars cost one read, not
    one each), each die given to the region its centre lies in (none: left out); from the
    full-resolution `still` where there is one. A region above the board (a tower's pillars)
    is where the camera's `place` sees it, a die's top face there one die higher."""
    regions = [r for r in profile.regions if r.holds == "dice"]
    if not regions:
        return []

    def raised(region: Region) -> float:
        return region.height + profile.die_mm if region.height and place is not None else 0.0

    def seen(region: Region) -> np.ndarray:
        polygon = np.array(region.polygon, np.float64)
        return place.lift(polygon, raised(region)) if place is not None and raised(region) else polygon

    corners = np.vstack([to_frame(pose, seen(r)) for r in regions])
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
    h, w = image.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 16 or y1 - y0 < 16:
        return []
    middle = tuple(to_board(pose, np.array([[(x0 + x1) / 2, (y0 + y1) / 2]]))[0])
    die_px = profile.die_mm * px_per_mm(pose, (float(middle[0]), float(middle[1])))
    found = []
    for d in read_dice_finer(reader, image, (x0, y0, x1, y1), die_px, still, gains):
        at = to_board(pose, np.array([d.center]))
        region = next((r for r in regions if r.contains(where(at, raised(r), place))), None)
        if region is not None:
            found.append(replace(d, region=region.name))
    return found


def not_print(
    dice: list[DieReading],
    image: np.ndarray,
    maps: Straightening,
    gains: np.ndarray,
    empty: np.ndarray,
    profile: Profile,
    pose: BoardPose,
) -> list[DieReading]:
    """The dice found that are not the board's own print: a numeral or a letter printed in a
    rolling area looks like a die's face to the reader, but it is there on the empty board too.
    Only a window round each die is straightened (`maps` cover every dice region: on Arkhanos's
    mat, most of it). A die in a region above the board (a tower's pillar) is kept: the empty
    board is seen without the towers."""
    if empty.shape[:2] != maps.map1.shape[:2]:  # kept for another layout of the profile
        return dice
    raised = {r.name for r in profile.regions if r.height}
    s, (ox, oy) = maps.px_per_mm, maps.origin_mm
    reach = int(np.ceil((1.5 * profile.die_mm + ALIGN_MM) * s)) + 1
    kept = []
    for die in dice:
        if die.region in raised:
            kept.append(die)
            continue
        at = to_board(pose, np.array([die.center]))[0]
        col, row = int((at[0] - ox) * s), int((at[1] - oy) * s)
        r0, c0 = max(0, row - reach), max(0, col - reach)
        r1, c1 = min(empty.shape[0], row + reach + 1), min(empty.shape[1], col + reach + 1)
        if r1 <= r0 or c1 <= c0:  # seen outside the dice regions' view: nothing to compare
            kept.append(die)
            continue
        window = Straightening(
            maps.map1[r0:r1, c0:c1], maps.map2[r0:r1, c0:c1], (ox + c0 / s, oy + r0 / s), s
        )
        seen = TopDown.of(image, window, gains)
        if (
            changed_share(seen, empty[r0:r1, c0:c1], (float(at[0]), float(at[1])), profile.die_mm)
            >= PRINT_SHARE
        ):
            kept.append(die)
    return kept


PRINT_SHARE = 0.5
"""A die hides at least half of the board under its face's middle; print changes little of it."""


def read_table(
    frame: object, profile: Profile | None = None, config: VisionConfig | None = None
) -> Observation:
    """One-off read (loads the network each call: for scripts; a live loop keeps a TableReader)."""
    return TableReader(profile, config).read(frame)


def draw(
    frame: object, observation: Observation, profile: Profile | None = None, routes: tuple[Route, ...] = ()
) -> np.ndarray:
    """The frame with what was seen drawn on it, for people to check, and the routes the
    game wants shown (a Beast's path)."""
    image = as_bgr(frame).copy()
    if observation.pose is not None and profile is not None:
        draw_regions(image, observation.pose, profile)
        draw_routes(image, observation.pose, profile, routes)
        labels = [(s.region, f"{s.color} {''.join(map(str, s.discs))}") for s in observation.stacks]
        # Like pieces in one region as one label ("12 gG": twelve green gems), not a column.
        alike = Counter(
            (t.region, f"{t.color[:1] if t.color else '?'}{t.kind[:1].upper()}") for t in observation.tokens
        )
        labels += [(region, text if n == 1 else f"{n} {text}") for (region, text), n in alike.items()]
        placed: dict[str, int] = {}
        for region_name, text in labels:
            x, y = to_frame(observation.pose, np.array([profile.region(region_name).centre()]))[0]
            dy = 14 * placed.get(region_name, 0)
            placed[region_name] = placed.get(region_name, 0) + 1
            at = (int(x) - 20, int(y) + dy)
            cv2.putText(image, text, at, cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3)
            cv2.putText(image, text, at, cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1)
    for d in observation.dice:
        x, y, r = int(d.center[0]), int(d.center[1]), int(d.size / 2)
        colour = (0, 200, 0) if d.confidence >= 0.5 else (0, 165, 255)
        cv2.rectangle(image, (x - r, y - r), (x + r, y + r), colour, 2)
        text = str(d.value) if d.kind == "d6" else f"{d.kind}:{d.value}"
        cv2.putText(image, text, (x - r, y - r - 3), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2)
    return image


def draw_routes(image: np.ndarray, pose: BoardPose, profile: Profile, routes: tuple[Route, ...]) -> None:
    """Each route from region centre to region centre (in place): a plan as a thin line, a
    move to make as thick arrows, its label at the start. Regions the profile lacks are
    left out."""
    known = {r.name for r in profile.regions}
    for route in routes:
        names = [n for n in route.regions if n in known]
        if len(names) < 2:
            continue
        points = to_frame(pose, np.array([profile.region(n).centre() for n in names])).astype(int)
        colour = (0, 215, 255) if route.planned else (40, 40, 230)
        for a, b in zip(points[:-1], points[1:]):
            if route.planned:
                cv2.line(image, tuple(a), tuple(b), colour, 2, cv2.LINE_AA)
            else:
                cv2.arrowedLine(image, tuple(a), tuple(b), colour, 4, cv2.LINE_AA, tipLength=0.2)
        at = (int(points[0][0]) - 20, int(points[0][1]) - 12)
        cv2.putText(image, route.label, at, cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 4)
        cv2.putText(image, route.label, at, cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2)
