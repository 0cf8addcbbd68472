"""Yuggoth moves: small values whose text is their notation (`parse_move` inverts `str`).

Area names are written as the map spells them; `parse_move` keeps what was typed and
`YuggothGame.canonical` puts an Area name typed in another case into the map's spelling.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..base import BadMoveText
from .state import KINDS


@dataclass(frozen=True)
class GatherPower:
    def __str__(self) -> str:
        return "gather power"


@dataclass(frozen=True)
class ChooseFirst:
    faction: str

    def __str__(self) -> str:
        return f"first player {self.faction}"


@dataclass(frozen=True)
class Ritual:
    def __str__(self) -> str:
        return "ritual"


@dataclass(frozen=True)
class NoRitual:
    def __str__(self) -> str:
        return "no ritual"


@dataclass(frozen=True)
class Roll:
    """CHANCE: one die for the Watcher's Decay or its Awakening."""

    value: int

    def __str__(self) -> str:
        return f"roll {self.value}"


@dataclass(frozen=True)
class Kills:
    """CHANCE: how many of a side's Combat dice show a Kill (a 6)."""

    count: int

    def __str__(self) -> str:
        return f"kills {self.count}"


@dataclass(frozen=True)
class Pains:
    """CHANCE: how many of the side's other dice show a Pain (a 4 or 5)."""

    count: int

    def __str__(self) -> str:
        return f"pains {self.count}"


@dataclass(frozen=True)
class Combat:
    """A side's owner declares its Combat dice (Monsters and Great Old Ones vary)."""

    dice: int

    def __str__(self) -> str:
        return f"combat {self.dice}"


@dataclass(frozen=True)
class Kill:
    kind: str

    def __str__(self) -> str:
        return f"kill {self.kind}"


@dataclass(frozen=True)
class Pain:
    """A Pained Unit retreats to `to`; "" when it has nowhere to go and is Eliminated."""

    kind: str
    to: str

    def __str__(self) -> str:
        return f"pain {self.kind} > {self.to}" if self.to else f"pain {self.kind} eliminated"


@dataclass(frozen=True)
class WatcherTo:
    area: str

    def __str__(self) -> str:
        return f"watcher > {self.area}"


@dataclass(frozen=True)
class WatcherStays:
    """No Area but its own holds any faction's Units: the Attack has nothing to do."""

    def __str__(self) -> str:
        return "watcher has no target"


@dataclass(frozen=True)
class WatcherAttacks:
    faction: str

    def __str__(self) -> str:
        return f"watcher attacks {self.faction}"


@dataclass(frozen=True)
class Recruit:
    area: str

    def __str__(self) -> str:
        return f"recruit {self.area}"


@dataclass(frozen=True)
class BuildGate:
    area: str

    def __str__(self) -> str:
        return f"gate {self.area}"


@dataclass(frozen=True)
class Summon:
    area: str

    def __str__(self) -> str:
        return f"summon {self.area}"


@dataclass(frozen=True)
class Awaken:
    area: str

    def __str__(self) -> str:
        return f"awaken {self.area}"


@dataclass(frozen=True)
class MoveUnit:
    """One Unit moves to an adjacent Area, carrying `cylinders` of its Brain Cylinders."""

    kind: str
    source: str
    target: str
    cylinders: int = 0

    def __str__(self) -> str:
        carried = ""
        if self.cylinders:
            carried = f" with {self.cylinders} cylinder{'s' if self.cylinders > 1 else ''}"
        return f"move {self.kind} {self.source} > {self.target}{carried}"


@dataclass(frozen=True)
class Fight:
    """Declare a Battle in `area` against a faction, the uncontrolled "slimes" or the "watcher"."""

    area: str
    opponent: str

    def __str__(self) -> str:
        return f"battle {self.area} vs {self.opponent}"


@dataclass(frozen=True)
class Capture:
    faction: str
    kind: str
    area: str
    convert: bool = False

    def __str__(self) -> str:
        return f"capture {self.faction} {self.kind} at {self.area}{' and convert' if self.convert else ''}"


@dataclass(frozen=True)
class Surgery:
    """Replace the Acolytes in these Areas (one name per Acolyte) with Brain Cylinders."""

    areas: tuple[str, ...]

    def __str__(self) -> str:
        return f"surgery {', '.join(self.areas)}"


@dataclass(frozen=True)
class CallSlime:
    area: str

    def __str__(self) -> str:
        return f"call slime {self.area}"


@dataclass(frozen=True)
class Control:
    area: str

    def __str__(self) -> str:
        return f"control {self.area}"


@dataclass(frozen=True)
class Spellbook:
    name: str

    def __str__(self) -> str:
        return f"spellbook {self.name}"


@dataclass(frozen=True)
class ElderSign:
    """Turn in an Elder Sign whose face shows `value` Doom."""

    value: int

    def __str__(self) -> str:
        return f"elder sign {self.value}"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


Move = (
    GatherPower
    | ChooseFirst
    | Ritual
    | NoRitual
    | Roll
    | Kills
    | Pains
    | Combat
    | Kill
    | Pain
    | WatcherTo
    | WatcherStays
    | WatcherAttacks
    | Recruit
    | BuildGate
    | Summon
    | Awaken
    | MoveUnit
    | Fight
    | Capture
    | Surgery
    | CallSlime
    | Control
    | Spellbook
    | ElderSign
    | Pass
)

_KIND = "|".join(KINDS)
_FIXED: dict[str, Move] = {
    "gather power": GatherPower(),
    "ritual": Ritual(),
    "no ritual": NoRitual(),
    "watcher has no target": WatcherStays(),
    "pass": Pass(),
}
_NUMBERED: dict[str, Callable[[int], Move]] = {
    "roll": Roll,
    "kills": Kills,
    "pains": Pains,
    "combat": Combat,
    "elder sign": ElderSign,
}
_ON_AREA: dict[str, Callable[[str], Move]] = {
    "recruit": Recruit,
    "gate": BuildGate,
    "summon": Summon,
    "awaken": Awaken,
    "call slime": CallSlime,
    "control": Control,
}
_PATTERNS = [
    (re.compile(r"(roll|kills|pains|combat|elder sign) (\d{1,3})", re.I), "number"),
    (re.compile(r"first player ([a-z-]+)", re.I), "first"),
    (re.compile(rf"kill ({_KIND})", re.I), "kill"),
    (re.compile(rf"pain ({_KIND}) eliminated", re.I), "pain-out"),
    (re.compile(rf"pain ({_KIND}) > (.+)", re.I), "pain"),
    (re.compile(r"watcher attacks ([a-z-]+)", re.I), "attacks"),
    (re.compile(r"watcher > (.+)", re.I), "watcher"),
    (re.compile(rf"move ({_KIND}) (.+?) > (.+?)(?: with (\d) cylinders?)?", re.I), "move"),
    (re.compile(r"battle (.+) vs ([a-z-]+)", re.I), "battle"),
    (re.compile(rf"capture ([a-z-]+) ({_KIND}) at (.+?)( and convert)?", re.I), "capture"),
    (re.compile(r"surgery (.+)", re.I), "surgery"),
    (re.compile(r"spellbook ([a-z-]+)", re.I), "spellbook"),
    (re.compile(r"(recruit|gate|summon|awaken|call slime|control) (.+)", re.I), "area"),
]


def parse_move(text: str) -> Move:
    """The move `text` spells: the inverse of `str(move)` (spacing and keyword case forgiven)."""
    t = " ".join(text.split())
    if t.lower() in _FIXED:
        return _FIXED[t.lower()]
    for pattern, shape in _PATTERNS:
        m = pattern.fullmatch(t)
        if not m:
            continue
        if shape == "number":
            return _NUMBERED[m[1].lower()](int(m[2]))
        if shape == "first":
            return ChooseFirst(m[1].lower())
        if shape == "kill":
            return Kill(m[1].lower())
        if shape == "pain-out":
            return Pain(m[1].lower(), "")
        if shape == "pain":
            return Pain(m[1].lower(), m[2])
        if shape == "attacks":
            return WatcherAttacks(m[1].lower())
        if shape == "watcher":
            return WatcherTo(m[1])
        if shape == "move":
            return MoveUnit(m[1].lower(), m[2], m[3], int(m[4] or 0))
        if shape == "battle":
            return Fight(m[1], m[2].lower())
        if shape == "capture":
            return Capture(m[1].lower(), m[2].lower(), m[3], bool(m[4]))
        if shape == "surgery":
            return Surgery(tuple(part.strip() for part in m[1].split(",")))
        if shape == "spellbook":
            return Spellbook(m[1].lower())
        return _ON_AREA[m[1].lower()](m[2])
    raise BadMoveText(
        f"{text!r} is not a Yuggoth move (e.g. 'roll 4', 'watcher > Polar Sea', 'recruit Laboratory', "
        "'surgery Laboratory, Polar Sea', 'call slime North Slime Sea', 'pass')"
    )
