"""Gems and prices: counts of green, blue and red gems and black market passes.

A handful of gems is a value (`Gems`); a price is one or more alternatives, each a
fixed handful plus a number of gems of any colour ("four gems ... of any type").
`ways_to_pay` lists every exact payment a holder can make: the markets take exact
change only ("No haggling").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

COLOURS = ("green", "blue", "red")
"""Gem colours, cheapest first (Salil takes 3 green, 2 blue or 1 red for any one gem)."""
PASS = "pass"
KINDS = (*COLOURS, PASS)

VALUE = {"green": 2, "blue": 3, "red": 6}
"""A gem's worth in sixths of a red, from Salil's rates (3 green = 2 blue = 1 red).

Used only to rank prices when Lutfi takes "the cheapest" item (ASSUMED scale)."""


@dataclass(frozen=True, order=True)
class Gems:
    """How many of each: green, blue and red gems, and black market passes."""

    green: int = 0
    blue: int = 0
    red: int = 0
    passes: int = 0

    def count(self, kind: str) -> int:
        return self.passes if kind == PASS else int(getattr(self, kind))

    def counts(self) -> tuple[int, int, int, int]:
        return (self.green, self.blue, self.red, self.passes)

    @property
    def gems(self) -> int:
        """Coloured gems only (passes are not counted)."""
        return self.green + self.blue + self.red

    @property
    def total(self) -> int:
        return self.green + self.blue + self.red + self.passes

    def __add__(self, other: Gems) -> Gems:
        return Gems(
            self.green + other.green, self.blue + other.blue, self.red + other.red, self.passes + other.passes
        )

    def __sub__(self, other: Gems) -> Gems:
        return Gems(
            self.green - other.green, self.blue - other.blue, self.red - other.red, self.passes - other.passes
        )

    def covers(self, other: Gems) -> bool:
        """Whether this handful holds at least `other`."""
        return (
            self.green >= other.green
            and self.blue >= other.blue
            and self.red >= other.red
            and self.passes >= other.passes
        )

    def __str__(self) -> str:
        parts = []
        for kind, n in zip(KINDS, self.counts()):
            if n:
                word = ("passes" if n > 1 else "pass") if kind == PASS else kind
                parts.append(f"{n} {word}")
        return "+".join(parts) if parts else "nothing"


def one(kind: str, n: int = 1) -> Gems:
    """`n` gems of one kind."""
    counts = [0, 0, 0, 0]
    counts[KINDS.index(kind)] = n
    return Gems(*counts)


_PART = re.compile(r"(\d+) (green|blue|red|pass|passes)")


def parse_gems(text: str) -> Gems:
    """The handful `text` spells ("2 green+1 blue", "1 pass"); ValueError otherwise."""
    t = " ".join(text.lower().split())
    if t == "nothing":
        return Gems()
    total = Gems()
    seen: set[str] = set()
    for part in t.split("+"):
        m = _PART.fullmatch(part.strip())
        if not m or int(m[1]) < 1:
            raise ValueError(f"not a handful of gems: {text!r} (e.g. '2 green+1 blue', '1 pass')")
        kind = PASS if m[2] in ("pass", "passes") else m[2]
        if kind in seen:
            raise ValueError(f"{kind} named twice in {text!r}")
        seen.add(kind)
        total = total + one(kind, int(m[1]))
    return total


@dataclass(frozen=True)
class Alternative:
    """One way a price may be met: these gems exactly, plus `anything` gems of any colour."""

    fixed: Gems
    anything: int = 0

    def __str__(self) -> str:
        parts = [] if self.fixed == Gems() else [str(self.fixed)]
        if self.anything:
            parts.append(f"{self.anything} any")
        return "+".join(parts) if parts else "nothing"


_ANY = re.compile(r"(\d+) any")


@cache
def parse_price(text: str) -> tuple[Alternative, ...]:
    """A printed price: "2 blue", "1 red / 2 blue", "4 any"; ValueError otherwise."""
    alternatives = []
    for option in text.split("/"):
        anything = 0
        fixed_parts = []
        for part in option.strip().lower().split("+"):
            part = " ".join(part.split())
            if m := _ANY.fullmatch(part):
                anything += int(m[1])
            else:
                fixed_parts.append(part)
        fixed = parse_gems("+".join(fixed_parts)) if fixed_parts else Gems()
        if fixed.passes:
            raise ValueError(f"passes are not gems for a price: {text!r}")
        if fixed.total + anything == 0:
            raise ValueError(f"a price of nothing: {text!r}")
        alternatives.append(Alternative(fixed, anything))
    return tuple(alternatives)


def price_value(text: str) -> int:
    """The cheapest alternative's worth in sixths of a red (any gem counted as a green)."""
    return min(
        sum(VALUE[c] * alt.fixed.count(c) for c in COLOURS) + VALUE["green"] * alt.anything
        for alt in parse_price(text)
    )


@cache
def any_gems(n: int, held: Gems) -> tuple[Gems, ...]:
    """Every handful of `n` coloured gems (no passes) that `held` can give, greens first."""
    found = []
    for combo in combinations_with_replacement(COLOURS, n):
        hand = Gems(*(combo.count(c) for c in COLOURS))
        if held.covers(hand):
            found.append(hand)
    return tuple(found)


@cache
def ways_to_pay(price: str, held: Gems) -> tuple[Gems, ...]:
    """Every exact payment of `price` that `held` can make, in a fixed order, no repeats."""
    ways: list[Gems] = []
    for alt in parse_price(price):
        if not held.covers(alt.fixed):
            continue
        for extra in any_gems(alt.anything, held - alt.fixed):
            paid = alt.fixed + extra
            if paid not in ways:
                ways.append(paid)
    return tuple(ways)


def pays(price: str, paid: Gems) -> bool:
    """Whether `paid` is exactly one way to meet `price` (no change is given)."""
    for alt in parse_price(price):
        if paid.passes or not paid.covers(alt.fixed):
            continue
        if (paid - alt.fixed).total == alt.anything:
            return True
    return False
