"""Am'harb states and moves: immutable values with readable text and JSON forms."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..base import BadMoveText
from .board import AREAS, parse_space, space_name

PRIEST, CULTIST = "priest", "cultist"
INFLUENCE = {PRIEST: 3, CULTIST: 1}  # Am'harb: Disciple Tokens
TOWER, POWER, DISCIPLE, OVER = "tower", "power", "disciple", "over"
PHASES = (TOWER, POWER, DISCIPLE, OVER)
CURSED_DOOM = -2  # Am'harb: Cosmic Power List, 8. Cthulhu


@dataclass(frozen=True)
class Disciple:
    seat: int
    kind: str  # PRIEST or CULTIST


@dataclass(frozen=True)
class Space:
    """What lies on one space of the island."""

    altar: int = 0
    """Doom of the altar tile on an altar space (3, 4 or 5); 0 on a normal space."""
    resource: str = ""
    """The unclaimed resource tile here, if any."""
    disciples: tuple[Disciple, ...] = ()
    lock: int = -1
    """Seat whose Lock tile (Yog-Sothoth) lies here, or -1."""
    book: bool = False
    """Hastur's Book tile lies under the disciple here."""
    pyre: int = -1
    """Seat whose Pyre token (Cthugha) lies on this altar, or -1."""
    cursed: bool = False
    """Cthulhu's Cursed Altar (-2 Doom) tile lies here."""

    @property
    def is_altar(self) -> bool:
        return self.altar != 0 or self.cursed

    @property
    def doom(self) -> int:
        return CURSED_DOOM if self.cursed else self.altar


@dataclass(frozen=True)
class Player:
    name: str
    colour: str
    cult: str
    side: str
    towers: tuple[tuple[int, ...], ...]
    """Disc sizes in each of the side's four areas (A-D), bottom to top."""
    priests: int = 3
    cultists: int = 6
    resources: tuple[int, ...] = (0, 0, 0)
    """Resource tiles held, per colour in the order of `resource_colours`."""
    tiles: int = 0
    """The cult's own pieces still in hand (locks, pyres, books, cursed altars)."""

    @property
    def disciples_left(self) -> int:
        return self.priests + self.cultists

    def height(self, area: int) -> int:
        return len(self.towers[area])


@dataclass(frozen=True)
class AmharbState:
    board: tuple[str, ...]
    """The island drawing ('.', 'A', '#'), 8 rows of 8."""
    resource_colours: tuple[str, ...]
    spaces: tuple[Space, ...]
    players: tuple[Player, ...]
    """In turn order: seat 0 holds the smallest cult number and starts."""
    current: int = 0
    phase: str = TOWER
    active: tuple[int, ...] = ()
    """The current player's active area(s) this turn (several after Nyog Sothep)."""
    last_turns: tuple[int, ...] | None = None
    """Seats still to take their last turn, once a player has placed their last disciple."""
    turn: int = 1


# ---- moves -------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveDisc:
    """Tower Phase: the top disc of area `source` moves onto area `target`."""

    disc: int
    source: int
    target: int

    def __str__(self) -> str:
        return f"tower L{self.disc} {AREAS[self.source]}>{AREAS[self.target]}"


@dataclass(frozen=True)
class SkipPower:
    def __str__(self) -> str:
        return "no power"


@dataclass(frozen=True)
class Power:
    """Power Phase: the cult's Cosmic Power, paid with 2 resources of `colour`.

    `kind` is one of lock, rearrange, stack, shift, exchange, pyre, book, curse.
    `space`/`origin` are space indices (-1 when unused); `disciple` names the moved
    disciple's kind (stack, shift); `towers` is the new arrangement (rearrange).
    """

    kind: str
    colour: str
    space: int = -1
    origin: int = -1
    disciple: str = ""
    towers: tuple[tuple[int, ...], ...] = ()

    def __str__(self) -> str:
        pay = f"pay {self.colour}"
        if self.kind in ("lock", "pyre", "book", "curse"):
            return f"{self.kind} {space_name(self.space)} {pay}"
        if self.kind in ("stack", "shift"):
            return f"{self.kind} {self.disciple} {space_name(self.origin)}>{space_name(self.space)} {pay}"
        if self.kind == "exchange":
            return f"exchange {space_name(self.origin)}<>{space_name(self.space)} {pay}"
        stacks = " ".join(
            f"{AREAS[a]}:{''.join(map(str, discs))}" for a, discs in enumerate(self.towers) if discs
        )
        return f"rearrange {stacks} {pay}"


@dataclass(frozen=True)
class Place:
    """Disciple Phase: a disciple of `kind` goes to `space`, paying `payment` colours."""

    kind: str
    space: int
    payment: tuple[str, ...] = ()

    def __str__(self) -> str:
        pay = f" pay {'+'.join(self.payment)}" if self.payment else ""
        return f"{self.kind} {space_name(self.space)}{pay}"


@dataclass(frozen=True)
class Pass:
    """Disciple Phase: no empty space, or none the player can afford."""

    def __str__(self) -> str:
        return "pass"


Move = MoveDisc | SkipPower | Power | Place | Pass

_TOWER = re.compile(r"tower l([1-4]) ([a-d])>([a-d])")
_ON_SPACE = re.compile(r"(lock|pyre|book|curse) (\w\d) pay (\w+)")
_MOVE_DISCIPLE = re.compile(r"(stack|shift) (priest|cultist) (\w\d)>(\w\d) pay (\w+)")
_EXCHANGE = re.compile(r"exchange (\w\d)<>(\w\d) pay (\w+)")
_REARRANGE = re.compile(r"rearrange((?: [a-d]:[1-4]+)*) pay (\w+)")
_PLACE = re.compile(r"(priest|cultist) (\w\d)(?: pay ([\w+]+))?")


def parse_move(text: str) -> Move:
    """The move `text` spells: the inverse of `str(move)` (case and spacing are forgiven)."""
    t = " ".join(text.lower().split())
    try:
        if t == "no power":
            return SkipPower()
        if t == "pass":
            return Pass()
        if m := _TOWER.fullmatch(t):
            return MoveDisc(int(m[1]), "abcd".index(m[2]), "abcd".index(m[3]))
        if m := _ON_SPACE.fullmatch(t):
            return Power(m[1], m[3], space=parse_space(m[2]))
        if m := _MOVE_DISCIPLE.fullmatch(t):
            return Power(m[1], m[5], space=parse_space(m[4]), origin=parse_space(m[3]), disciple=m[2])
        if m := _EXCHANGE.fullmatch(t):
            return Power("exchange", m[3], space=parse_space(m[2]), origin=parse_space(m[1]))
        if m := _REARRANGE.fullmatch(t):
            towers: list[tuple[int, ...]] = [(), (), (), ()]
            for part in m[1].split():
                area, discs = part.split(":")
                towers["abcd".index(area)] = tuple(int(d) for d in discs)
            return Power("rearrange", m[2], towers=tuple(towers))
        if m := _PLACE.fullmatch(t):
            payment = tuple(m[3].split("+")) if m[3] else ()
            return Place(m[1], parse_space(m[2]), payment)
    except ValueError as error:
        raise BadMoveText(f"{text!r}: {error}") from error
    raise BadMoveText(
        f"{text!r} is not an Am'harb move (e.g. 'tower L2 C>D', 'no power', 'priest e4 pay red+blue', 'pass')"
    )
