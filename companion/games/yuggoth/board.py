"""The map: Areas, which touch, and the Yuggoth map's special Areas.

A map is a value (`Board`) carried in the state, so a table that corrected the
printed data at set-up keeps its own map for the whole game.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

RULEBOOK = "Cthulhu Wars: Yuggoth map rules"
MAP_BASICS = f"{RULEBOOK}: Set Up and Map Basics"
NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9 '\-]*[A-Za-z0-9])?")


class BoardError(ValueError):
    """A map description the rules cannot play on."""


@dataclass(frozen=True)
class Board:
    """One side of the map (or a table's own map), by Area name."""

    title: str
    areas: tuple[str, ...]
    adjacent: tuple[tuple[str, ...], ...]
    """Per Area (same order as `areas`), the Areas it touches."""
    yuggoth: bool = True
    """The Yuggoth map itself (the bonus Slime tokens may not be used on it)."""
    postern: str = ""
    pyramid: tuple[tuple[str, int], ...] = ()
    """Green Pyramid Areas with the die number printed on each (the Postern among them)."""
    laboratories: tuple[str, ...] = ()
    """The Laboratory, and the Area holding the bonus Laboratory token if used."""
    overlook: str = ""
    """The Slime Sea Overlook (off Yuggoth: the Area with the No-Slime token)."""
    slime_seas: tuple[str, ...] = ()
    """Where Called Slime Molds appear (off Yuggoth: the Area with the Slime token)."""
    chevron: tuple[str, ...] = ()
    """Areas marked with the Yellow Sign's Chevron glyph (no Opener set-up there)."""
    near: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False, hash=False)
    lower: dict[str, str] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        check_board(self)
        object.__setattr__(self, "near", dict(zip(self.areas, self.adjacent)))
        object.__setattr__(self, "lower", {name.lower(): name for name in self.areas})

    def neighbours(self, area: str) -> tuple[str, ...]:
        return self.near[area]

    def has(self, area: str) -> bool:
        return area in self.near

    def spelled(self, text: str) -> str:
        """The map's spelling of an Area name typed in any case (or `text` itself)."""
        return self.lower.get(text.lower(), text)

    @property
    def pyramid_areas(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.pyramid)

    def pyramid_number(self, area: str) -> int:
        return dict(self.pyramid).get(area, 0)


def is_ocean(area: str) -> bool:
    """Yuggoth: Set Up and Map Basics - "Ocean Area names all end in the word 'Sea'".

    The Slime Sea Overlook is land: its name ends in "Overlook".
    """
    return area.split()[-1] == "Sea"


def check_board(board: Board) -> None:
    """BoardError unless the map is one a game can be played on."""
    names = board.areas
    if len(names) != len(set(names)) or len(names) < 2:
        raise BoardError("a map needs at least two Areas, each named once")
    if len(board.adjacent) != len(names):
        raise BoardError("every Area needs its list of adjacent Areas")
    known = set(names)
    for name in names:
        if not NAME.fullmatch(name):
            raise BoardError(f"Area name {name!r}: letters, digits, spaces, ' and - only")
    if len({n.lower() for n in names}) != len(names):
        raise BoardError("two Area names differ only in case")
    for name, near in zip(names, board.adjacent):
        for other in near:
            if other not in known:
                raise BoardError(f"{name!r} touches {other!r}, which is not an Area of the map")
            if other == name:
                raise BoardError(f"{name!r} cannot touch itself")
            if name not in board.adjacent[names.index(other)]:
                raise BoardError(f"{name!r} touches {other!r} but not the other way round")
    seen = {names[0]}
    todo = [names[0]]
    lookup = dict(zip(names, board.adjacent))
    while todo:
        for other in lookup[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    if seen != known:
        raise BoardError(f"the map is not connected: {sorted(known - seen)} cannot be reached")
    special = [board.postern, board.overlook, *board.laboratories, *board.slime_seas, *board.chevron]
    for name in [*special, *board.pyramid_areas]:
        if name and name not in known:
            raise BoardError(f"{name!r} is not an Area of the map")
    if board.postern and board.postern not in board.pyramid_areas:
        raise BoardError("the Watcher Postern is a Green Pyramid Area and needs its number")
    for name, number in board.pyramid:
        if not 1 <= number <= 6:
            raise BoardError(f"{name}: a Green Pyramid number is a die result, 1-6")
    if board.overlook in board.slime_seas:
        raise BoardError("the Overlook is not one of the Slime Seas")
    if bool(board.overlook) != bool(board.slime_seas):
        raise BoardError("Slime Molds need both the Overlook and at least one Slime Sea")


def board_from_table(table: dict[str, Any], where: str) -> Board:
    """A Board from a [maps.<name>] TOML table (see yuggoth.toml); BoardError if malformed."""
    try:
        areas = table["areas"]
        if not isinstance(areas, dict):
            raise BoardError(f"{where}: 'areas' is a table of Area = [adjacent Areas]")
        names = tuple(str(n) for n in areas)
        adjacent = tuple(tuple(str(a) for a in areas[n]) for n in names)
        pyramid = tuple((str(n), int(v)) for n, v in dict(table.get("pyramid", {})).items())
        laboratories = tuple(str(n) for n in table.get("laboratories", ()))
        overlook = str(table.get("overlook", ""))
        chevron = tuple(
            dict.fromkeys([*laboratories, *([overlook] if overlook else []), *(n for n, _ in pyramid)])
        )
        return Board(
            title=str(table.get("title", where)),
            areas=names,
            adjacent=adjacent,
            yuggoth=bool(table.get("yuggoth", False)),
            postern=str(table.get("postern", "")),
            pyramid=pyramid,
            laboratories=laboratories,
            overlook=overlook,
            slime_seas=tuple(str(n) for n in table.get("slime_seas", ())),
            chevron=chevron,
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise BoardError(f"{where}: malformed map ({error})") from error


def board_to_text(board: Board) -> str:
    """The map as compact JSON text: how a state carries it (one string, parsed once)."""
    table = {
        "title": board.title,
        "yuggoth": board.yuggoth,
        "postern": board.postern,
        "pyramid": dict(board.pyramid),
        "laboratories": list(board.laboratories),
        "overlook": board.overlook,
        "slime_seas": list(board.slime_seas),
        "chevron": list(board.chevron),
        "areas": {name: list(near) for name, near in zip(board.areas, board.adjacent)},
    }
    return json.dumps(table, separators=(",", ":"))


@cache
def board_from_text(text: str) -> Board:
    """The Board a state's map text describes; BoardError if it is not one."""
    try:
        table = json.loads(text)
    except json.JSONDecodeError as error:
        raise BoardError(f"the map is not JSON text: {error}") from error
    if not isinstance(table, dict):
        raise BoardError("the map is a JSON object")
    board = board_from_table(table, "the state's map")
    chevron = table.get("chevron")
    if isinstance(chevron, list):
        board = replace(board, chevron=tuple(str(c) for c in chevron))
    return board
