"""Tower moves: small values whose text is their JSON form (`parse_move` inverts `str`).

Stall spaces are named by the stall's number and the space's letter, left to right:
"3b" is the second space of stall 3. Other players are named by their seat from 1
("player 2"), so a move reads the same whatever the players are called.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..base import BadMoveText
from .gems import Gems, parse_gems

SLOT_LETTERS = "abcdefghij"
SALIL, LUTFI_TARGET = "Salil", "Lutfi"


def slot_name(stall: int, slot: int) -> str:
    return f"{stall}{SLOT_LETTERS[slot]}"


def target_name(seat: int) -> str:
    """How a move names a seat: "player 1" is seat 0."""
    return f"player {seat + 1}"


# ---- chance --------------------------------------------------------------------------


@dataclass(frozen=True)
class DrawGem:
    """CHANCE: one gem (or pass) out of the bag."""

    kind: str

    def __str__(self) -> str:
        return f"draw {self.kind}"


@dataclass(frozen=True)
class DrawBuild:
    """CHANCE: build card number `card` off the build deck."""

    card: int

    def __str__(self) -> str:
        return f"draw card {self.card}"


@dataclass(frozen=True)
class Reveal:
    """CHANCE: a black market card of this name off the black market deck."""

    name: str

    def __str__(self) -> str:
        return f"reveal {self.name}"


@dataclass(frozen=True)
class Roll:
    """CHANCE: the die (Lutfi's start, the Royal Guard's hunt)."""

    face: int

    def __str__(self) -> str:
        return f"roll {self.face}"


# ---- the players ---------------------------------------------------------------------


@dataclass(frozen=True)
class Buy:
    """Buy the material on a stall space, paying exactly `paid`."""

    material: str
    stall: int
    slot: int
    paid: Gems

    def __str__(self) -> str:
        return f"buy {self.material} at {slot_name(self.stall, self.slot)} pay {self.paid}"


@dataclass(frozen=True)
class Trade:
    """Salil: `given` (3 green, 2 blue, 1 red or 1 pass) for `taken` from his pile."""

    given: Gems
    taken: Gems

    def __str__(self) -> str:
        return f"trade {self.given} for {self.taken}"


@dataclass(frozen=True)
class EnterBlackMarket:
    """Enter the black market for `cards` cards, paying every card's entry fee in `paid`."""

    cards: int
    paid: Gems

    def __str__(self) -> str:
        return f"black market {self.cards} pay {self.paid}"


@dataclass(frozen=True)
class Keep:
    """Keep the named black market cards of the three drawn (the rest go back on top)."""

    names: tuple[str, ...]

    def __str__(self) -> str:
        return f"keep {'+'.join(self.names)}"


@dataclass(frozen=True)
class UseCard:
    """Use a black market card, paying its cost to use.

    `target` is "" or "player N", "Salil", "Lutfi"; `take` the material or gems taken
    (or the material a Dubious Concoction stands in for).
    """

    name: str
    paid: Gems
    target: str = ""
    take: str = ""

    def __str__(self) -> str:
        if self.target:
            return f"use {self.name} on {self.target} take {self.take} pay {self.paid}"
        if self.take:
            return f"use {self.name} as {self.take} pay {self.paid}"
        return f"use {self.name} pay {self.paid}"


@dataclass(frozen=True)
class Hire:
    """The Apprentices: hire the stand-in, bully or runner and send them to a stall."""

    apprentice: str
    stall: int
    paid: Gems

    def __str__(self) -> str:
        return f"hire {self.apprentice} at {self.stall} pay {self.paid}"


@dataclass(frozen=True)
class Steal:
    """The Royal Guard: steal two gems from Salil at the start of the action phase."""

    taken: Gems

    def __str__(self) -> str:
        return f"steal {self.taken} from Salil"


@dataclass(frozen=True)
class ClearName:
    """The Royal Guard: pay Salil one red gem and discard the wanted card."""

    def __str__(self) -> str:
        return "clear name pay 1 red"


@dataclass(frozen=True)
class Release:
    """The Royal Guard: pay three gems to leave jail at the start of the action phase."""

    paid: Gems

    def __str__(self) -> str:
        return f"release pay {self.paid}"


@dataclass(frozen=True)
class EndActions:
    def __str__(self) -> str:
        return "end actions"


@dataclass(frozen=True)
class Return:
    """Build phase (or Lutfi's full card): put a material back on an empty market space."""

    material: str
    stall: int
    slot: int

    def __str__(self) -> str:
        return f"return {self.material} to {slot_name(self.stall, self.slot)}"


@dataclass(frozen=True)
class Pick:
    """Keep build card `card` of the three drawn; the other two are discarded."""

    card: int

    def __str__(self) -> str:
        return f"pick card {self.card}"


@dataclass(frozen=True)
class LutfiShop:
    """Lutfi moves clockwise to `stall` and takes the material on `slot`, or lies down (slot -1)."""

    stall: int
    slot: int = -1
    material: str = ""

    def __str__(self) -> str:
        if self.slot < 0:
            return f"lutfi to {self.stall} lie down"
        return f"lutfi to {self.stall} take {self.material} at {slot_name(self.stall, self.slot)}"


Move = (
    DrawGem
    | DrawBuild
    | Reveal
    | Roll
    | Buy
    | Trade
    | EnterBlackMarket
    | Keep
    | UseCard
    | Hire
    | Steal
    | ClearName
    | Release
    | EndActions
    | Return
    | Pick
    | LutfiShop
)

_W = r"[a-z]+"
_SLOT = r"(\d)([a-j])"
_GEMS = r"([a-z0-9+ ]+?)"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        ("draw_gem", r"draw (green|blue|red|pass)"),
        ("draw_build", r"draw card (\d+)"),
        ("reveal", r"reveal (.+)"),
        ("roll", r"roll (\d)"),
        ("buy", rf"buy ({_W}) at {_SLOT} pay {_GEMS}"),
        ("trade", rf"trade {_GEMS} for {_GEMS}"),
        ("black", rf"black market (\d) pay {_GEMS}"),
        ("keep", r"keep (.+)"),
        ("use_on", rf"use (.+?) on (player \d|salil|lutfi) take {_GEMS} pay {_GEMS}"),
        ("use_as", rf"use (.+?) as ({_W}) pay {_GEMS}"),
        ("use", rf"use (.+?) pay {_GEMS}"),
        ("hire", rf"hire (stand-in|bully|runner) at (\d) pay {_GEMS}"),
        ("steal", rf"steal {_GEMS} from salil"),
        ("clear", r"clear name pay 1 red"),
        ("release", rf"release pay {_GEMS}"),
        ("end", r"end actions"),
        ("return", rf"return ({_W}) to {_SLOT}"),
        ("pick", r"pick card (\d+)"),
        ("lutfi_take", rf"lutfi to (\d) take ({_W}) at {_SLOT}"),
        ("lutfi_lie", r"lutfi to (\d) lie down"),
    )
)


def _slot(stall: str, letter: str, expected: str) -> tuple[int, int]:
    if stall != expected:
        raise ValueError(f"space {stall}{letter} is not on stall {expected}")
    return int(stall), SLOT_LETTERS.index(letter.lower())


def _target(text: str) -> str:
    low = text.lower()
    return SALIL if low == "salil" else LUTFI_TARGET if low == "lutfi" else low


def _build(kind: str, m: re.Match[str]) -> Move:
    g = m.groups()
    if kind == "draw_gem":
        return DrawGem(g[0].lower())
    if kind == "draw_build":
        return DrawBuild(int(g[0]))
    if kind == "reveal":
        return Reveal(g[0])
    if kind == "roll":
        return Roll(int(g[0]))
    if kind == "buy":
        stall, slot = _slot(g[1], g[2], g[1])
        return Buy(g[0].lower(), stall, slot, parse_gems(g[3]))
    if kind == "trade":
        return Trade(parse_gems(g[0]), parse_gems(g[1]))
    if kind == "black":
        return EnterBlackMarket(int(g[0]), parse_gems(g[1]))
    if kind == "keep":
        return Keep(tuple(name.strip() for name in g[0].split("+")))
    if kind == "use_on":
        target = _target(g[1])
        take = g[2].lower().strip()
        if take not in ("straw", "lumber", "clay", "water"):
            take = str(parse_gems(take))
        return UseCard(g[0], parse_gems(g[3]), target=target, take=take)
    if kind == "use_as":
        return UseCard(g[0], parse_gems(g[2]), take=g[1].lower())
    if kind == "use":
        return UseCard(g[0], parse_gems(g[1]))
    if kind == "hire":
        return Hire(g[0].lower(), int(g[1]), parse_gems(g[2]))
    if kind == "steal":
        return Steal(parse_gems(g[0]))
    if kind == "clear":
        return ClearName()
    if kind == "release":
        return Release(parse_gems(g[0]))
    if kind == "end":
        return EndActions()
    if kind == "return":
        stall, slot = _slot(g[1], g[2], g[1])
        return Return(g[0].lower(), stall, slot)
    if kind == "pick":
        return Pick(int(g[0]))
    if kind == "lutfi_take":
        stall, slot = _slot(g[2], g[3], g[0])
        return LutfiShop(stall, slot, g[1].lower())
    return LutfiShop(int(g[0]))


def parse_move(text: str) -> Move:
    """The move `text` spells: the inverse of `str(move)` (case and spacing are forgiven,
    except in black market card names, which `TowerGame.canonical` mends)."""
    t = " ".join(text.split())
    for kind, pattern in _PATTERNS:
        if m := pattern.fullmatch(t):
            try:
                return _build(kind, m)
            except ValueError as error:
                raise BadMoveText(f"{text!r}: {error}") from error
    raise BadMoveText(
        f"{text!r} is not a Tower move (e.g. 'draw green', 'buy clay at 3b pay 1 red', "
        "'trade 2 blue for 1 red', 'black market 1 pay 1 pass', 'end actions')"
    )
