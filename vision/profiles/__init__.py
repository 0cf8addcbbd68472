"""Board profiles: named regions in board millimetres, and where the markers lie.

Format `board-profile/1` (TOML), documented in docs/board-profiles.md. Players
write profiles for their own printed boards, so the loader explains every error.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import cv2
import numpy as np

FORMAT = "board-profile/1"
HOLDS = ("dice", "stack", "tokens")
MARKER_DICTIONARY = "4X4_50"
"""The ArUco dictionary of the marker sheet and the board reader (vision/board.py)."""
MARKER_IDS = 50


class ProfileError(ValueError):
    """A profile file that does not follow board-profile/1."""


@dataclass(frozen=True)
class Region:
    name: str
    holds: str
    polygon: tuple[tuple[float, float], ...]
    kinds: tuple[str, ...] = ()
    """The token kinds that lie here (empty: any): a region of gems is not read for meeples."""
    height: float = 0.0
    """How far above the board this region lies, mm (a tower's top floor, as the game's state
    says): the camera sees it shifted away from the point under it, and it is straightened there."""

    def contains(self, point: tuple[float, float]) -> bool:
        contour = np.array(self.polygon, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0

    def centre(self) -> tuple[float, float]:
        xs, ys = zip(*self.polygon)
        return (sum(xs) / len(xs), sum(ys) / len(ys))


@dataclass(frozen=True)
class Profile:
    name: str
    game: str | None
    players: int | None
    size: tuple[float, float]
    """Board width and height in millimetres (x east, y south, origin at the north-west corner)."""
    marker_size: float
    markers: tuple[tuple[int, tuple[float, float]], ...]
    """Marker id and the centre of the marker in board millimetres."""
    regions: tuple[Region, ...]
    die_mm: float = 16.0
    disc_mm: tuple[float, ...] = (22.0, 30.0, 38.0, 46.0)
    """Diameters of the disc sizes 1..4 (Tower-of-Hanoi discs), millimetres."""
    disc_height_mm: float = 8.0
    token_mm: tuple[tuple[str, float], ...] = (("priest", 20.0), ("cultist", 12.0))
    """Token kinds and their width seen from above, millimetres, largest first."""
    piece_colours: tuple[str, ...] | None = None
    """The colours pieces come in (palette names); None: any palette colour."""
    token_height: tuple[tuple[str, float], ...] = ()
    """Token kinds' heights (mm), where the profile gives them: a standing piece is seen
    leaning away from the point under the camera by its height's share of the camera's."""
    token_depth: tuple[tuple[str, float], ...] = ()
    """Token kinds whose footprint is oblong, and its short side (mm; `width` is the long one):
    a standing meeple is 16 mm wide and 8 mm deep, and seen from above it is as wide as that
    across its lean only when turned side on (8 mm end on, 18 mm turned halfway)."""
    token_figures: tuple[str, ...] = ()
    """Token kinds that are figures on a base, one of which may be dark plastic whatever the
    piece's colour: seen from above, its colour may show on the figure only (a Scout on a dark
    base) or on the base only (the Watcher's pink base under its dark figure)."""
    token_dark_figures: tuple[str, ...] = ()
    """Figure kinds whose figure is dark plastic, their colour on the base alone (the Watcher): a
    figure stands on its base's middle, so what shows there is dark, not another piece's colour
    (a faction's red Great Old One on a base its lamp turns pink is no Watcher)."""
    token_glass: tuple[str, ...] = ()
    """Token kinds of glass or glossy plastic (Tower's gems): seen through, or mirroring the board,
    so named by the share of the board's light they pass in each colour, not by their own."""
    token_dark_based: tuple[str, ...] = ()
    """Figure kinds whose base may be dark plastic, their colour on the figure alone (Turris's
    Scouts, not the Watcher, whose colour is its base's): on print as dark as the base, the mask
    sees the painted top only, and the base is known by what differs faintly round it."""
    token_square: tuple[str, ...] = ()
    """Token kinds that are square tiles (`width` is their side), not round pieces."""
    token_stood_on: tuple[str, ...] = ()
    """Square kinds that pieces may stand on (Am'harb's resource tiles): what shows of one may
    be a band along its edge, the rest hidden under the piece."""
    token_colours: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Token kinds with colours of their own (resource tiles), instead of `piece_colours`."""
    token_counted: tuple[str, ...] = ()
    """Token kinds that lie in heaps (gems): a blob of one colour is as many pieces as its
    area holds, not one piece or none."""
    colours: tuple[tuple[str, tuple[int, int, int]], ...] = ()
    """Colours this game's pieces come in that the default palette lacks (name, BGR)."""
    token_exclusive: tuple[str, ...] = ()
    """Token kinds known by their own colours alone (the Watcher among the factions' figures
    of its size): a piece nearer another colour is not of this kind."""

    def colours_of(self, kind: str) -> tuple[str, ...] | None:
        return dict(self.token_colours).get(kind, self.piece_colours)

    def comes_in(self, kind: str, colour: str) -> bool:
        """Whether pieces of this kind come in this colour (any, when the profile does not say)."""
        allowed = self.colours_of(kind)
        return allowed is None or colour in allowed

    def region(self, name: str) -> Region:
        for r in self.regions:
            if r.name == name:
                return r
        raise KeyError(f"profile {self.name} has no region {name!r}")

    def marker_corners(self) -> dict[int, np.ndarray]:
        """Each marker's four corners in board mm, in ArUco's order (TL, TR, BR, BL)."""
        h = self.marker_size / 2
        return {
            i: np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]], np.float32)
            for i, (x, y) in self.markers
        }


def _pair(value: Any, what: str) -> tuple[float, float]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int | float) for v in value)):
        raise ProfileError(f"{what} must be [x, y] in millimetres, not {value!r}")
    return (float(value[0]), float(value[1]))


def parse_profile(data: dict[str, Any], name: str = "") -> Profile:
    if data.get("format") != FORMAT:
        raise ProfileError(f'a profile starts with format = "{FORMAT}"')
    name = str(data.get("name", name))
    size = _pair(data.get("size"), "size")
    markers_data = data.get("markers", {})
    positions = markers_data.get("positions", {})
    if len(positions) < 3:
        raise ProfileError("markers.positions needs at least 3 markers (id = [x, y])")
    try:
        markers = tuple(sorted((int(k), _pair(v, f"marker {k}")) for k, v in positions.items()))
    except ValueError as error:
        raise ProfileError(f"marker ids are whole numbers: {error}") from error
    # The board reader and the marker sheet know one dictionary: another would never be found.
    if markers_data.get("dictionary", MARKER_DICTIONARY) != MARKER_DICTIONARY:
        raise ProfileError(f"markers.dictionary is {MARKER_DICTIONARY!r}, not {markers_data['dictionary']!r}")
    if any(not 0 <= i < MARKER_IDS for i, _ in markers):
        raise ProfileError(f"marker ids are 0 to {MARKER_IDS - 1} ({MARKER_DICTIONARY} has {MARKER_IDS})")
    regions: list[Region] = []
    for i, r in enumerate(data.get("regions", [])):
        if r.get("holds") not in HOLDS:
            raise ProfileError(f"region {i}: holds is one of {HOLDS}")
        polygon = tuple(_pair(p, f"region {r.get('name')} point") for p in r.get("polygon", []))
        if len(polygon) < 3:
            raise ProfileError(f"region {r.get('name')}: a polygon has 3 points or more")
        kinds = r.get("kinds", [])
        if not (isinstance(kinds, list) and all(isinstance(k, str) for k in kinds)):
            raise ProfileError(f"region {r.get('name')}: kinds lists token kinds")
        height = r.get("height", 0.0)
        if not isinstance(height, int | float) or height < 0:
            raise ProfileError(f"region {r.get('name')}: height is millimetres above the board")
        regions.append(Region(str(r["name"]), r["holds"], polygon, tuple(kinds), float(height)))
    for g in data.get("grids", []):
        ox, oy = _pair(g.get("origin"), "grid origin")
        cw, ch = _pair(g.get("cell"), "grid cell")
        skip = set(g.get("skip", []))
        if g.get("holds") not in HOLDS:
            raise ProfileError(f"grid {g.get('prefix')}: holds is one of {HOLDS}")
        for row in range(int(g["rows"])):
            for col in range(int(g["cols"])):
                if f"{row}/{col}" in skip:
                    continue
                x, y = ox + col * cw, oy + row * ch
                poly = ((x, y), (x + cw, y), (x + cw, y + ch), (x, y + ch))
                regions.append(Region(f"{g['prefix']}/{row}/{col}", g["holds"], poly))
    names = [r.name for r in regions]
    if len(set(names)) != len(names):
        raise ProfileError("region names must be unique")
    pieces = _pieces(data.get("pieces", {}))
    known = {k for k, _ in pieces.get("token_mm", ())}
    for r in regions:
        if set(r.kinds) - known:
            raise ProfileError(
                f"region {r.name}: kinds {sorted(set(r.kinds) - known)} are not in pieces.tokens"
            )
    return Profile(
        name=name,
        game=data.get("game"),
        players=data.get("players"),
        size=size,
        marker_size=float(markers_data.get("size", 40)),
        markers=markers,
        regions=tuple(regions),
        die_mm=float(data.get("die_mm", 16)),
        piece_colours=tuple(data["piece_colours"]) if "piece_colours" in data else None,
        colours=_colours(data.get("colours", {})),
        **pieces,
    )


def _colours(colours: dict[str, Any]) -> tuple[tuple[str, tuple[int, int, int]], ...]:
    """The optional [colours] table: name = "#rrggbb", colours the default palette lacks."""
    out = []
    for name, text in colours.items():
        if not (isinstance(text, str) and len(text) == 7 and text.startswith("#")):
            raise ProfileError(f'colours.{name} is "#rrggbb", not {text!r}')
        try:
            r, g, b = (int(text[i : i + 2], 16) for i in (1, 3, 5))
        except ValueError as error:
            raise ProfileError(f'colours.{name} is "#rrggbb", not {text!r}') from error
        out.append((str(name), (b, g, r)))
    return tuple(out)


def _pieces(pieces: dict[str, Any]) -> dict[str, Any]:
    """The optional [pieces] table: disc diameters and token sizes (defaults otherwise)."""
    out: dict[str, Any] = {}
    discs = pieces.get("discs", {})
    if "diameters" in discs:
        d = discs["diameters"]
        if not (
            isinstance(d, list)
            and len(d) == 4
            and all(isinstance(v, int | float) for v in d)
            and d == sorted(d)
        ):
            raise ProfileError("pieces.discs.diameters lists the 4 disc diameters, smallest first")
        out["disc_mm"] = tuple(float(v) for v in d)
    if "thickness" in discs:
        out["disc_height_mm"] = float(discs["thickness"])
    tokens = pieces.get("tokens", {})
    if tokens:
        try:
            sizes = sorted(((str(k), float(v["width"])) for k, v in tokens.items()), key=lambda kv: -kv[1])
        except (KeyError, TypeError, ValueError) as error:
            raise ProfileError("pieces.tokens.KIND needs width = millimetres") from error
        out["token_mm"] = tuple(sizes)
        out["token_square"] = tuple(str(k) for k, v in tokens.items() if v.get("shape") == "square")
        try:
            out["token_height"] = tuple(
                (str(k), float(v["height"])) for k, v in tokens.items() if "height" in v
            )
        except (TypeError, ValueError) as error:
            raise ProfileError("pieces.tokens.KIND.height is millimetres") from error
        if any(h < 0 for _, h in out["token_height"]):
            raise ProfileError("pieces.tokens.KIND.height is millimetres, not below the board")
        try:
            out["token_depth"] = tuple((str(k), float(v["depth"])) for k, v in tokens.items() if "depth" in v)
        except (TypeError, ValueError) as error:
            raise ProfileError("pieces.tokens.KIND.depth is millimetres") from error
        if any(not 0 < d <= dict(sizes)[k] for k, d in out["token_depth"]):
            raise ProfileError(
                "pieces.tokens.KIND.depth is the footprint's short side: above 0, up to its width"
            )
        if any("depth" in v and v.get("shape") == "square" for v in tokens.values()):
            raise ProfileError("pieces.tokens.KIND.depth is for oblong pieces, not square tiles")
        out["token_stood_on"] = tuple(str(k) for k, v in tokens.items() if v.get("stood_on") is True)
        if any(not isinstance(v.get("stood_on", False), bool) for v in tokens.values()):
            raise ProfileError("pieces.tokens.KIND.stood_on is true (pieces stand on this tile) or false")
        if any(v.get("stood_on") is True and v.get("shape") != "square" for v in tokens.values()):
            raise ProfileError('pieces.tokens.KIND.stood_on is for square tiles (shape = "square")')
        bad = [k for k, v in tokens.items() if v.get("shape", "round") not in ("round", "square")]
        if bad:
            raise ProfileError(f"pieces.tokens.{bad[0]}.shape is round or square")
        colours = []
        for kind, v in tokens.items():
            if "colours" in v:
                if not (isinstance(v["colours"], list) and all(isinstance(c, str) for c in v["colours"])):
                    raise ProfileError(f"pieces.tokens.{kind}.colours lists palette colour names")
                colours.append((str(kind), tuple(v["colours"])))
        out["token_colours"] = tuple(colours)
        out["token_counted"] = tuple(str(k) for k, v in tokens.items() if v.get("count") is True)
        out["token_figures"] = tuple(str(k) for k, v in tokens.items() if v.get("figure") is True)
        if any(not isinstance(v.get("figure", False), bool) for v in tokens.values()):
            raise ProfileError("pieces.tokens.KIND.figure is true (a figure on a base) or false")
        out["token_dark_figures"] = tuple(str(k) for k, v in tokens.items() if v.get("dark_figure") is True)
        if any(v.get("dark_figure") is True and v.get("figure") is not True for v in tokens.values()):
            raise ProfileError("pieces.tokens.KIND.dark_figure is for a figure (figure = true)")
        out["token_glass"] = tuple(str(k) for k, v in tokens.items() if v.get("glass") is True)
        out["token_dark_based"] = tuple(str(k) for k, v in tokens.items() if v.get("dark_base") is True)
        if any(v.get("dark_base") is True and v.get("figure") is not True for v in tokens.values()):
            raise ProfileError("pieces.tokens.KIND.dark_base is for a figure (figure = true)")
        out["token_exclusive"] = tuple(str(k) for k, v in tokens.items() if v.get("exclusive") is True)
        if any(v.get("exclusive") is True and "colours" not in v for v in tokens.values()):
            raise ProfileError("a kind that is exclusive names its colours")
    return out


def load_profile(name_or_path: str | Path) -> Profile:
    """A built-in profile by name (`amharb-4p`) or a profile file by path."""
    path = Path(name_or_path)
    try:
        if path.suffix == ".toml" or path.exists():
            text = path.read_text(encoding="utf-8")
        else:
            text = resources.files(__package__).joinpath(f"{name_or_path}.toml").read_text(encoding="utf-8")
    except (OSError, FileNotFoundError) as error:
        raise ProfileError(f"no profile {name_or_path!r} ({error})") from error
    try:
        return parse_profile(tomllib.loads(text), path.stem)
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"{name_or_path}: {error}") from error


def builtin_profiles() -> list[str]:
    return sorted(
        p.name.removesuffix(".toml")
        for p in resources.files(__package__).iterdir()
        if p.name.endswith(".toml")
    )
