"""Floor tiles: their text notation, and which dice a floor accepts (Phase 1).

A tile is written `OUTER BONUSES|BONUSES`: the outer side's constraint and its three
pillar bonuses, then the central side's three pillar bonuses, e.g.
`purple/246 prestige,spell,build|floor,prestige,spell` (arkhanos.toml explains the parts).
"""

from __future__ import annotations

import re
from functools import cache

from .state import BONUSES, CENTRAL, Constraint, Die, Floor, Pillar, Tile

RULES = ("", "distinct", "same")
PILLARS = 3

_CONSTRAINT = re.compile(r"(any|[a-z]+(?:\+[a-z]+)*)/(any|[1-6]+)(?:/([a-z]+))?")


def parse_constraint(text: str) -> Constraint:
    """`purple+pink/135/distinct` -> Constraint; ValueError for anything else."""
    m = _CONSTRAINT.fullmatch(text.strip().lower())
    if not m:
        raise ValueError(f"{text!r} is not COLOURS/NUMBERS[/RULE], e.g. purple/246 or yellow/any/distinct")
    rule = m[3] or ""
    if rule not in RULES:
        raise ValueError(f"unknown floor rule {rule!r} (distinct or same)")
    colours = () if m[1] == "any" else tuple(m[1].split("+"))
    numbers = () if m[2] == "any" else tuple(sorted({int(d) for d in m[2]}))
    if len(set(colours)) != len(colours):
        raise ValueError(f"{text!r} names a colour twice")
    return Constraint(colours, numbers, rule)


def parse_bonuses(text: str) -> tuple[str, ...]:
    bonuses = tuple(b.strip() for b in text.lower().split(","))
    if len(bonuses) != PILLARS or set(bonuses) - set(BONUSES):
        raise ValueError(f"{text!r}: give 3 pillar bonuses from {', '.join(BONUSES)}")
    return bonuses


def parse_tile(tile_id: int, text: str, start: bool = False) -> Tile:
    """A tile from its notation (`OUTER BONUSES|BONUSES`); ValueError if malformed."""
    outer, sep, central = text.strip().partition("|")
    constraint, _, bonuses = outer.strip().partition(" ")
    if not sep or not bonuses.strip():
        raise ValueError(f"{text!r} is not 'COLOURS/NUMBERS b1,b2,b3|b1,b2,b3'")
    return Tile(tile_id, parse_constraint(constraint), parse_bonuses(bonuses), parse_bonuses(central), start)


def tile_text(tile: Tile) -> str:
    return f"{tile.outer} {','.join(tile.outer_bonuses)}|{','.join(tile.central_bonuses)}"


def tile_entry(tile: Tile) -> str:
    """How a tile still to be revealed is kept in the state: `ID=TILE` (as in the `tiles` option)."""
    return f"{tile.id}={tile_text(tile)}"


def entry_id(entry: str) -> int:
    return int(entry.partition("=")[0])


@cache
def parse_entry(entry: str) -> Tile:
    """The tile an `ID=TILE` entry of the state's stack describes."""
    number, _, text = entry.partition("=")
    return parse_tile(int(number), text)


def new_floor(tile: Tile, tower: int, level: int) -> Floor:
    """The tile laid on `tower`: outer side up on an outer tower, central side on the central one.

    Arkhanos: Step 3 — "if it's an outer tower, I'll put the outer side of the tile facing
    up. If it's the central tower, I'll place the central side facing up."
    """
    if tower == CENTRAL:
        return Floor(tile.id, level, tuple(Pillar(b) for b in tile.central_bonuses))
    return Floor(tile.id, level, tuple(Pillar(b) for b in tile.outer_bonuses), tile.outer)


def refusal(floor: Floor, die: Die) -> str:
    """Why `floor` does not take `die`, or "" when it does.

    Arkhanos: Phase 1 — "Only dice with these numbers and colors are allowed"; the central
    tower "can hold dice of any number and color" (its floors have no constraint).
    """
    rule = floor.constraint
    if rule.colours and die.colour not in rule.colours:
        return f"this floor takes only {' or '.join(rule.colours)} dice, not {die.colour}"
    if rule.numbers and die.number not in rule.numbers:
        return f"this floor takes only the numbers {', '.join(map(str, rule.numbers))}, not {die.number}"
    others = [p.die.number for p in floor.pillars if p.die is not None]
    if rule.rule == "distinct" and die.number in others:
        return f"every die on this floor must show a different number, and a {die.number} is already here"
    if rule.rule == "same" and any(n != die.number for n in others):
        return f"every die on this floor must show the same number ({others[0]})"
    return ""
