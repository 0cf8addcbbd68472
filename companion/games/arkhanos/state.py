"""Arkhanos states: dice, meeples, floors, towers and spellbooks as immutable values."""

from __future__ import annotations

from dataclasses import dataclass, replace

APPRENTICE, MASTER = "apprentice", "master"
KINDS = (APPRENTICE, MASTER)
INFLUENCE = {
    APPRENTICE: 1,
    MASTER: 2,
}  # Arkhanos: Step 3 — "Apprentices contribute 1 influence each, while masters carry 2"

PRESTIGE, FLOOR, SPELL, BUILD = "prestige", "floor", "spell", "build"
BONUSES = (PRESTIGE, FLOOR, SPELL, BUILD)
"""The four pillar bonuses (Phase 2): Get 2 Prestige, Prestige from the Floor, Use the
Spell, Build Tower or Activate Spell."""
BONUS_TITLES = {
    PRESTIGE: "2 Prestige",
    FLOOR: "Prestige by floor",
    SPELL: "meeple on the matching spell",
    BUILD: "build elsewhere or activate a spell",
}

TOWERS = "ABCM"
"""Outer towers A, B, C and the central tower M (the middle of the triangle)."""
CENTRAL = 3
SPELLS = 6
"""A spellbook holds 6 spells; spell N is the one a die showing N matches."""
POOL_SPACES = 10
"""The mana pool board has 10 spaces; the tenth is for expansions (The Mana Pool)."""

DRAW, PLACE, BONUS, END, OVER = "draw", "place", "bonus", "end", "over"
STEPS = (DRAW, PLACE, BONUS, END, OVER)
"""`draw`: the dice for the round come out of the bag and are rolled (chance);
`place`: the current player may cast spells, then places a die; `bonus`: they choose
how a meeple bonus is used; `end`: they may cast more spells, then end the turn."""


@dataclass(frozen=True)
class Die:
    colour: str
    number: int = 0
    """1-6 once rolled; 0 while drawn from the bag and not yet rolled."""

    def __str__(self) -> str:
        return f"{self.colour}{self.number or '?'}"


@dataclass(frozen=True)
class Meeple:
    seat: int
    kind: str  # APPRENTICE or MASTER


@dataclass(frozen=True)
class Constraint:
    """Which dice an outer floor takes (Phase 1, "What Makes Up a Floor Tile?").

    Empty `colours` or `numbers` means any; `rule` is a constraint over the whole floor:
    "distinct" (every die a different number) or "same" (every die the same number).
    """

    colours: tuple[str, ...] = ()
    numbers: tuple[int, ...] = ()
    rule: str = ""

    def __str__(self) -> str:
        colours = "+".join(self.colours) or "any"
        numbers = "".join(map(str, self.numbers)) or "any"
        return f"{colours}/{numbers}" + (f"/{self.rule}" if self.rule else "")

    def describe(self) -> str:
        colours = " or ".join(self.colours) if self.colours else "any colour"
        numbers = ", ".join(map(str, self.numbers)) if self.numbers else "any number"
        rule = {"distinct": "; all different numbers", "same": "; all the same number"}.get(self.rule, "")
        return f"{colours}, {numbers}{rule}"


@dataclass(frozen=True)
class Tile:
    """One of the 18 double-sided floor tiles."""

    id: int
    outer: Constraint
    outer_bonuses: tuple[str, ...]
    central_bonuses: tuple[str, ...]
    start: bool = False
    """Pink starred pillars on its central side: one of the 4 starting floors."""


@dataclass(frozen=True)
class Pillar:
    bonus: str
    die: Die | None = None
    meeple: Meeple | None = None
    """Beside the die; or, with no die, standing on the pillar itself (built there by a
    bonus), where it is trapped when the floor is finished."""

    @property
    def occupied(self) -> bool:
        return self.die is not None or self.meeple is not None


@dataclass(frozen=True)
class Floor:
    tile: int
    level: int
    """1 for a tower's first floor."""
    pillars: tuple[Pillar, ...]
    constraint: Constraint = Constraint()
    """What the floor takes; the central side takes any die."""

    @property
    def full(self) -> bool:
        return all(p.occupied for p in self.pillars)


@dataclass(frozen=True)
class Tower:
    top: Floor | None = None
    """The floor being built; None while its tile is being revealed, or for good once
    the floor stack is empty."""
    built: int = 0
    """Finished floors under the top one."""
    trapped_dice: int = 0
    trapped: tuple[Meeple, ...] = ()
    """Meeples left standing on pillars without dice when a floor was finished."""
    finished: Floor | None = None
    """The floor just finished, while its next tile is being revealed: the players are lifting
    its meeples and laying the new tile, and the camera may see it as it was or cleared."""


@dataclass(frozen=True)
class Spell:
    name: str
    effect: str
    assumed: bool = False
    """True when the rulebook does not describe this spell (arkhanos.toml)."""

    @property
    def slug(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Values:
    """Prestige for the most, second-most and tied influence on a finished floor."""

    most: int
    second: int
    tie: int

    def __str__(self) -> str:
        return f"{self.most}/{self.second}/{self.tie}"


@dataclass(frozen=True)
class Player:
    name: str
    colour: str
    apprentices: int
    masters: int
    """Meeples in the personal supply."""
    spellbook: tuple[str, ...] = ("",) * SPELLS
    """The meeple kind on each spell (1-6), "" where the spell is not active."""
    pillar_prestige: int = 0
    """Prestige from "Get 2 Prestige" pillars."""
    floor_prestige: int = 0
    """Prestige from "Prestige from the Floor" pillars."""

    @property
    def supply(self) -> int:
        return self.apprentices + self.masters

    def supply_kinds(self) -> tuple[str, ...]:
        return tuple(k for k, n in ((APPRENTICE, self.apprentices), (MASTER, self.masters)) if n)

    def with_supply(self, kind: str, delta: int) -> Player:
        """This player with `delta` more meeples of `kind` in the supply."""
        if kind == MASTER:
            return replace(self, masters=self.masters + delta)
        return replace(self, apprentices=self.apprentices + delta)

    def with_spell(self, index: int, kind: str) -> Player:
        """This player with `kind` ("" to empty it) on spell `index` (0-5)."""
        return replace(self, spellbook=self.spellbook[:index] + (kind,) + self.spellbook[index + 1 :])

    @property
    def in_spellbook(self) -> int:
        return sum(1 for kind in self.spellbook if kind)


@dataclass(frozen=True)
class FloorScore:
    """A finished floor as it was scored (Step 3), kept for the score sheet."""

    tower: int
    level: int
    round: int
    influence: tuple[int, ...]
    """Each seat's influence on it; the points follow from the mana pool values (scoring.award)."""


@dataclass(frozen=True)
class Pending:
    """A meeple bonus waiting for the player's choice (Phase 2)."""

    bonus: str  # SPELL or BUILD
    tower: int
    """The tower whose pillar gave the bonus."""
    number: int
    """The number of the die just placed: the spell it matches."""


@dataclass(frozen=True)
class ArkhanosState:
    players: tuple[Player, ...]
    """In seating order; seat 0 starts the first round and the bag passes left."""
    towers: tuple[Tower, ...]
    """A, B, C (outer) and M (central)."""
    spells: tuple[Spell, ...]
    colours: tuple[str, ...]
    """Dice colours, in the order of `bag`."""
    bag: tuple[int, ...]
    """Dice of each colour still in the bag."""
    outer_values: Values
    central_values: Values
    rounds: int
    dice_per_round: int
    starters: tuple[str, ...]
    """Starting tiles (starred) not yet revealed, each `ID=TILE` (tiles.py notation): the
    data file's tiles with the players' corrections."""
    stack: tuple[str, ...]
    """Tiles still in the face-down stack, `ID=TILE`; their order is unknown, so each
    reveal is a chance move."""
    reveals: tuple[int, ...] = (0, 1, 2, CENTRAL)
    """Towers waiting for their next floor tile, in order."""
    table: tuple[Die, ...] = ()
    pool: tuple[Die | None, ...] = (None,) * POOL_SPACES
    round: int = 1
    first: int = 0
    """The seat that drew the dice this round."""
    current: int = 0
    step: str = DRAW
    pending: Pending | None = None
    completed: tuple[int, ...] = ()
    """Towers whose top floor filled this turn, in the order they filled (scored after
    the pillar bonus)."""
    scored: tuple[FloorScore, ...] = ()
    set_aside: tuple[Die, ...] = ()
    """Dice left over when no die fitted anywhere (only once the floor stack ran out)."""
