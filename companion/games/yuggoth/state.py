"""Yuggoth states: factions, Units per Area, Gates, the Watcher and a Battle in progress.

Immutable values; the JSON form is the generic codec's. Seats are turn-order
indices; a Battle side is a seat, or WATCHER_SIDE / SLIMES_SIDE.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, TypeVar

from .board import Board, board_from_text

T = TypeVar("T")

# Steps of a round (Cthulhu Wars: Gather Power, First Player, Doom Phase, Action Phase).
GATHER = "gather power"
FIRST_PLAYER = "first player"
DECAY = "watcher decay"
RITUALS = "doom phase"
AWAKENING = "watcher awakening"
WATCHER_ATTACK = "watcher attack"
BATTLE = "battle"
ACTIONS = "action phase"
OVER = "over"
STEPS = (GATHER, FIRST_PLAYER, DECAY, RITUALS, AWAKENING, WATCHER_ATTACK, BATTLE, ACTIONS, OVER)

NO_GATE = -2
ABANDONED = -1
WATCHER_SIDE = -1
SLIMES_SIDE = -2
"""Uncontrolled Slime Molds fighting as a side of their own."""

ACOLYTE, CYLINDER, MONSTER, GOO, SLIME = "acolyte", "cylinder", "monster", "goo", "slime"
KINDS = (ACOLYTE, CYLINDER, MONSTER, GOO, SLIME)
WATCHER_START = 12  # "Place the Watcher Token at 12 on the Doom Track"
DOOM_TO_WIN = 30


@dataclass(frozen=True)
class Force:
    """One faction's own Units in one Area (Slime Molds are counted per Area, not here)."""

    area: str = ""
    seat: int = -1
    acolytes: int = 0
    cylinders: int = 0
    monsters: int = 0
    goo: int = 0
    """The faction's Great Old One (0 or 1)."""

    def count(self, kind: str) -> int:
        return {ACOLYTE: self.acolytes, CYLINDER: self.cylinders, MONSTER: self.monsters, GOO: self.goo}.get(
            kind, 0
        )

    def add(self, kind: str, n: int) -> Force:
        if kind == ACOLYTE:
            return replace(self, acolytes=self.acolytes + n)
        if kind == CYLINDER:
            return replace(self, cylinders=self.cylinders + n)
        if kind == MONSTER:
            return replace(self, monsters=self.monsters + n)
        return replace(self, goo=self.goo + n)

    @property
    def cultists(self) -> int:
        """Acolytes and Brain Cylinders: "Brain Cylinders are a new type of Cultist"."""
        return self.acolytes + self.cylinders

    @property
    def total(self) -> int:
        return self.acolytes + self.cylinders + self.monsters + self.goo


@dataclass(frozen=True)
class Captive:
    """A Cultist Captured onto a faction card, to be Sacrificed at the next Gather Power."""

    owner: int
    kind: str


@dataclass(frozen=True)
class Faction:
    """One seat's faction: its tracks and what it holds off the map."""

    faction: str
    name: str
    colour: str
    start: str
    power: int = 8
    doom: int = 0
    elder_signs: int = 0
    """Elder Signs held face down (each worth 1-3 Doom when turned in)."""
    pool: int = 0
    """Acolytes in the faction's pool (can be Recruited)."""
    captives: tuple[Captive, ...] = ()
    spellbooks: tuple[str, ...] = ()
    """The Spellbooks the table has recorded that matter on this map."""
    out: bool = False
    """Passed (or out of Power) for the rest of the Action Phase."""


@dataclass(frozen=True)
class Watcher:
    """The Watcher of the Green Pyramid: its token on the Doom track and its figure."""

    awake: bool = False
    position: int = WATCHER_START
    """Where the token stands on the Doom track: the Watcher's Combat dice when awake."""
    area: str = ""
    """Where the figure stands; "" while it is off the map."""
    marker_passed: bool = False
    """A Doom marker passed the dark token: it awakens at the next Doom Phase that allows it."""
    died_this_doom: bool = False
    """It reached 0 in this Doom Phase: no re-Awakening until the next one."""
    attackers: tuple[int, ...] = ()
    """Seats still to control a Watcher Attack this Action Phase, the current one first."""
    targets: tuple[int, ...] = ()
    """Factions in its Area it has still to attack in the current Attack (after its Move)."""


@dataclass(frozen=True)
class Battle:
    """A Battle in progress, step by step: dice, rolls, Kills, then Pains.

    Index 0 is the attacker's side, 1 the defender's. -1 means not known yet.
    """

    area: str
    sides: tuple[int, int]
    then: str
    """The step to return to: WATCHER_ATTACK or ACTIONS."""
    dice: tuple[int, int] = (-1, -1)
    kills: tuple[int, int] = (-1, -1)
    """Kills each side rolled."""
    pains: tuple[int, int] = (-1, -1)
    """Pains each side rolled."""
    losses: tuple[int, int] = (0, 0)
    """Kills each side has still to take."""
    retreats: tuple[int, int] = (0, 0)
    """Pains each side has still to take."""
    stage: str = "dice"
    """dice (declared), roll (CHANCE), kills (taken), pains (taken)."""


@dataclass(frozen=True)
class YuggothState:
    map: str
    """The map (Areas, adjacency, special Areas) as compact JSON text: see `board`."""
    factions: tuple[Faction, ...]
    """In turn order: seat 0 first."""
    gates: tuple[int, ...]
    """Per Area (map order): NO_GATE, ABANDONED, or the controlling seat."""
    units: tuple[Force, ...]
    """Every faction's Units, one entry per (Area, seat) that holds any, in map and seat order."""
    slimes: tuple[int, ...]
    """Slime Molds per Area; their controller follows the Overlook Gate."""
    ritual_track: tuple[int, ...]
    rituals: int = 0
    """Rituals performed so far (the marker's place on the ritual track)."""
    round: int = 1
    step: str = ACTIONS
    first: int = 0
    current: int = 0
    """The seat to act (Action Phase, Rituals, Gather Power, choosing the First Player)."""
    pending: tuple[int, ...] = ()
    """Seats still to decide on a Ritual in this Doom Phase."""
    watcher: Watcher = Watcher()
    battle: Battle | None = None
    turn_done: bool = False
    """The current player has taken an unlimited action only: they still owe their action."""
    log: tuple[str, ...] = ()
    """What just happened, newest last (a few lines for the page)."""

    @cached_property
    def board(self) -> Board:
        return board_from_text(self.map)

    @cached_property
    def _forces(self) -> dict[tuple[str, int], Force]:
        return {(f.area, f.seat): f for f in self.units}

    @cached_property
    def _area_index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.board.areas)}

    @cached_property
    def _memo(self) -> dict[str, Any]:
        return {}

    def memo(self, key: str, compute: Callable[[], T]) -> T:
        """`compute()` once per state: a state never changes, so neither does what follows from it."""
        if key not in self._memo:
            self._memo[key] = compute()
        value: T = self._memo[key]
        return value

    def area_index(self, area: str) -> int:
        return self._area_index[area]

    def force(self, area: str, seat: int) -> Force:
        return self._forces.get((area, seat)) or Force(area, seat)

    def placed(self, seat: int) -> tuple[Force, ...]:
        """Where `seat` has Units, in map order."""
        return tuple(f for f in self.units if f.seat == seat)

    def gate(self, area: str) -> int:
        return self.gates[self.area_index(area)]

    def slimes_in(self, area: str) -> int:
        return self.slimes[self.area_index(area)]

    def order(self) -> tuple[int, ...]:
        """Turn order for this round: from the First Player, seat by seat."""
        n = len(self.factions)
        return tuple((self.first + k) % n for k in range(n))

    def seat_of(self, faction: str) -> int:
        for seat, f in enumerate(self.factions):
            if f.faction == faction:
                return seat
        return -1
