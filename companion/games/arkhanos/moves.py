"""Arkhanos moves: small values whose text is their notation (`parse_move` inverts `str`).

Pillars are named by tower and position: A1-A3, B1-B3, C1-C3 on the outer towers and
M1-M3 on the central one. Dice are named by colour and number: `purple4`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..base import BadMoveText
from .state import KINDS, TOWERS, Die
from .tiles import parse_tile, tile_text


def pillar_name(tower: int, pillar: int) -> str:
    return f"{TOWERS[tower]}{pillar + 1}"


@dataclass(frozen=True)
class Reveal:
    """Chance: floor tile `tile` becomes the next floor of `tower`.

    `correction` (the tile's outer and central sides as printed, in the notation of
    `tiles.parse_tile`) lets the players enter their real tile when the data file's
    guess is wrong; it is never listed among the outcomes.
    """

    tile: int
    tower: int
    correction: str = ""

    def __str__(self) -> str:
        text = f"reveal {self.tile} on {TOWERS[self.tower]}"
        return f"{text} as {self.correction}" if self.correction else text


@dataclass(frozen=True)
class Draw:
    """Chance: a die of `colour` comes out of the bag."""

    colour: str

    def __str__(self) -> str:
        return f"draw {self.colour}"


@dataclass(frozen=True)
class Roll:
    """Chance: the first unrolled die on the table (of `colour`) shows `number`."""

    colour: str
    number: int

    def __str__(self) -> str:
        return f"roll {self.colour} {self.number}"


@dataclass(frozen=True)
class Place:
    """Phase 1: `die` goes on a pillar with a meeple of `kind` beside it ("" when the
    player has no meeple anywhere: see docs/arkhanos.md)."""

    die: Die
    tower: int
    pillar: int
    kind: str = ""

    def __str__(self) -> str:
        text = f"place {self.die} {pillar_name(self.tower, self.pillar)}"
        return f"{text} {self.kind}" if self.kind else text


@dataclass(frozen=True)
class Bonus:
    """Phase 2: a meeple of `kind` goes on the spell the die matches (`tower` -1) or on
    an empty pillar of another tower; from the supply, or (Build Tower or Activate
    Spell, with an empty supply) from spell `source` (1-6) of the spellbook."""

    kind: str
    tower: int = -1
    pillar: int = -1
    source: int = 0

    def __str__(self) -> str:
        where = "spell" if self.tower < 0 else pillar_name(self.tower, self.pillar)
        text = f"bonus {where} {self.kind}"
        return f"{text} from spell {self.source}" if self.source else text


@dataclass(frozen=True)
class Cast:
    """Cast an active spell (its meeple returns to the supply) and, if the player wants,
    resolve its effect: `via` names the spell Manipulate uses; `die` is a die on the
    table; `pool` a mana pool space (1-10, Exchange); `pillar` a central-tower pillar
    (1-3, Swap); `number` the die's new number (Nudge)."""

    spell: str
    via: str = ""
    die: Die | None = None
    pool: int = 0
    pillar: int = 0
    number: int = 0

    def __str__(self) -> str:
        parts = ["cast", self.spell]
        if self.via:
            parts += ["as", self.via]
        if self.die is not None:
            parts.append(str(self.die))
        if self.pool:
            parts.append(f"pool{self.pool}")
        if self.pillar:
            parts.append(f"M{self.pillar}")
        if self.number:
            parts += ["to", str(self.number)]
        return " ".join(parts)


@dataclass(frozen=True)
class EndTurn:
    def __str__(self) -> str:
        return "end turn"


@dataclass(frozen=True)
class Pass:
    """No die on the table fits any pillar (only once the floor stack has run out)."""

    def __str__(self) -> str:
        return "pass"


Move = Reveal | Draw | Roll | Place | Bonus | Cast | EndTurn | Pass

_DIE = r"([a-z]+)([1-6])"
_PILLAR = r"([abcm])([1-3])"
_KIND = "(" + "|".join(KINDS) + ")"
_REVEAL = re.compile(r"reveal (\d+) on ([abcm])(?: as (.+))?")
_DRAW = re.compile(r"draw ([a-z]+)")
_ROLL = re.compile(r"roll ([a-z]+) ([1-6])")
_PLACE = re.compile(rf"place {_DIE} {_PILLAR}(?: {_KIND})?")
_BONUS = re.compile(rf"bonus (?:spell|{_PILLAR}) {_KIND}(?: from spell ([1-6]))?")
_CAST = re.compile(
    rf"cast ([a-z]+)(?: as ([a-z]+))?(?: {_DIE})?(?: pool(10|[1-9]))?(?: m([1-3]))?(?: to ([1-6]))?"
)


def _die(colour: str, number: str) -> Die:
    return Die(colour, int(number))


def parse_move(text: str) -> Move:
    """The move `text` spells: the inverse of `str(move)` (case and spacing are forgiven)."""
    t = " ".join(text.lower().split())
    if t == "end turn":
        return EndTurn()
    if t == "pass":
        return Pass()
    if m := _REVEAL.fullmatch(t):
        try:
            correction = tile_text(parse_tile(int(m[1]), m[3])) if m[3] else ""
        except ValueError as error:
            raise BadMoveText(f"{text!r}: {error}") from error
        return Reveal(int(m[1]), TOWERS.lower().index(m[2]), correction)
    if m := _DRAW.fullmatch(t):
        return Draw(m[1])
    if m := _ROLL.fullmatch(t):
        return Roll(m[1], int(m[2]))
    if m := _PLACE.fullmatch(t):
        return Place(_die(m[1], m[2]), TOWERS.lower().index(m[3]), int(m[4]) - 1, m[5] or "")
    if m := _BONUS.fullmatch(t):
        if m[1]:
            return Bonus(m[3], TOWERS.lower().index(m[1]), int(m[2]) - 1, int(m[4] or 0))
        return Bonus(m[3], source=int(m[4] or 0))
    if (m := _CAST.fullmatch(t)) and m[1] != "as":
        die = _die(m[3], m[4]) if m[3] else None
        return Cast(m[1], m[2] or "", die, int(m[5] or 0), int(m[6] or 0), int(m[7] or 0))
    raise BadMoveText(
        f"{text!r} is not an Arkhanos move (e.g. 'place purple4 A2 apprentice', 'bonus spell master', "
        "'cast swap purple4 M2', 'end turn', 'draw pink', 'roll pink 5', 'reveal 7 on B')"
    )
