"""What the camera sees of Towers of Arkhanos: the dice rolled into the rolling area, the top
floor of each tower (the die on each pillar, the meeple beside it), the mana pool and the
meeples on the spellbooks.

The game has no board: the `arkhanos` profile is a play mat with the marker sheet's markers
at its corners, its layout assumed (vision/profiles/arkhanos.toml). Regions: `tray`,
`tower/A/pillar/1` (a die) and `tower/A/meeple/1` (a meeple beside it; `tower/A/top/1`: one
standing on the empty pillar) for towers A, B, C and the central M, `mana/1`-`mana/10`,
`spellbook/SEAT/SPELL`. The dice drawn from the bag and rolled
into the tray are read as (colour, number) and become the round's Draw and Roll outcomes at
once (`inference.chance_chain`). A floor just finished may be seen as it was or cleared,
region by region, until its next tile is told (the players lift the meeples and lay the
tile; tiles are not read). ASSUMED: dice stay in the
tray until placed, and the last die goes from it to the mana pool.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Any, cast

from vision.types import Observation

from ..sight import TRAY, UNSURE, OneOf, Seen, Sight
from .moves import Draw, Roll
from .state import POOL_SPACES, SPELLS, TOWERS, ArkhanosState, Die, Floor, Meeple

PROFILE = "arkhanos"
TILE_MM, PILLAR_MM = 3.0, 30.0
"""ASSUMED (the rulebook prints no sizes): a floor tile's thickness and its pillars' height. A
tower's floor of level L stands on the pillars of the floor below: its tile's top is L tiles and
L - 1 pillars above the mat, its pillars' tops one pillar higher."""


def pillar(tower: int, k: int) -> str:
    return f"tower/{TOWERS[tower]}/pillar/{k + 1}"


def meeple_space(tower: int, k: int) -> str:
    return f"tower/{TOWERS[tower]}/meeple/{k + 1}"


def pool(space: int) -> str:
    return f"mana/{space + 1}"


def spell(seat: int, k: int) -> str:
    return f"spellbook/{seat + 1}/{k + 1}"


def _rolled(state: ArkhanosState) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((d.colour, d.number) for d in state.table if d.number))


def _die(die: Die | None) -> tuple[tuple[str, int], ...]:
    return ((die.colour, die.number),) if die is not None else ()


def _meeple(state: ArkhanosState, meeple: Meeple | None) -> tuple[tuple[str, str], ...]:
    return ((meeple.kind, state.players[meeple.seat].colour),) if meeple is not None else ()


def top(tower: int, k: int) -> str:
    """A meeple standing on the empty pillar itself (read as the meeple of that pillar)."""
    return f"tower/{TOWERS[tower]}/top/{k + 1}"


def _floor(state: ArkhanosState, t: int) -> tuple[Floor, bool] | None:
    """The floor the camera compares on tower `t`, and whether it is a finished one being
    cleared (its next tile being revealed); None: nothing to compare (the starting floors
    being laid, a tower finished for good)."""
    tower = state.towers[t]
    if tower.top is not None:
        return tower.top, False
    if tower.finished is not None:
        return tower.finished, True
    return None


class ArkhanosSight(Sight):
    def profile_name(self, state: ArkhanosState) -> str:
        return PROFILE

    def piece_colours(self, state: ArkhanosState) -> tuple[str, ...]:
        return tuple(p.colour for p in state.players)

    def dice_colours(self, state: ArkhanosState) -> tuple[str, ...] | None:
        return state.colours

    def region_heights(self, state: ArkhanosState) -> tuple[tuple[str, float], ...]:
        """Each tower's top floor where it stands: its meeple spaces on its tile, its dice and
        the meeples standing on its pillars one pillar higher."""
        heights: list[tuple[str, float]] = []
        for t in range(len(state.towers)):
            if (shown := _floor(state, t)) is None:
                continue
            floor = shown[0]
            tile = floor.level * TILE_MM + (floor.level - 1) * PILLAR_MM
            for k in range(len(floor.pillars)):
                heights += [
                    (meeple_space(t, k), tile),
                    (pillar(t, k), tile + PILLAR_MM),
                    (top(t, k), tile + PILLAR_MM),
                ]
        return tuple(heights)

    def expected(self, state: ArkhanosState) -> dict[str, Hashable]:
        picture: dict[str, Hashable] = {TRAY: _rolled(state)}
        for t in range(len(state.towers)):
            shown = _floor(state, t)
            if shown is None:
                continue
            floor, clearing = shown
            for k, p in enumerate(floor.pillars):
                die, meeple = _die(p.die), _meeple(state, p.meeple)
                picture[pillar(t, k)] = OneOf((die, ())) if clearing and die else die
                picture[meeple_space(t, k)] = OneOf((meeple, ())) if clearing and meeple else meeple
        for space in range(POOL_SPACES):
            picture[pool(space)] = _die(state.pool[space])
        for seat, player in enumerate(state.players):
            for k in range(SPELLS):
                kind = player.spellbook[k]
                picture[spell(seat, k)] = ((kind, player.colour),) if kind else ()
        return picture

    def seen(self, state: ArkhanosState, observation: Observation, regions: frozenset[str]) -> Seen:
        """Every region the game has and the profile knows: the dice there as (colour, number)
        and the meeples as (kind, colour), lowest first; a region with any unsure reading is
        unsure. A meeple standing on a pillar with no die is that pillar's meeple (a die there
        is also a blob the size of a meeple: on a pillar with a die, only the die counts)."""
        wanted = regions & self._regions(state)
        found: dict[str, list[tuple[Any, ...]]] = {region: [] for region in wanted}
        unsure: set[str] = set()
        for d in observation.dice:
            if d.region in found and d.kind == "d6":
                found[d.region].append((d.color or "?", d.value))
                if d.confidence <= UNSURE:
                    unsure.add(d.region)
        for token in observation.tokens:
            where = token.region
            if where is not None and "/top/" in where:
                if found.get(where.replace("/top/", "/pillar/")):
                    continue
                where = where.replace("/top/", "/meeple/")
            if where in found:
                found[where].append((token.kind, token.color or "?"))
                if token.confidence <= UNSURE:
                    unsure.add(where)
        return Seen({r: tuple(sorted(v)) for r, v in found.items()}, frozenset(unsure))

    def _regions(self, state: ArkhanosState) -> frozenset[str]:
        towers = {
            name(t, k)
            for t in range(len(state.towers))
            if (shown := _floor(state, t)) is not None
            for k in range(len(shown[0].pillars))
            for name in (pillar, meeple_space)
        }
        spells = {spell(seat, k) for seat in range(len(state.players)) for k in range(SPELLS)}
        return frozenset({TRAY, *map(pool, range(POOL_SPACES)), *towers, *spells})

    def region_name(self, state: ArkhanosState, region: str) -> str:
        parts = region.split("/")
        if region == TRAY:
            return "the rolling area"
        if parts[0] == "tower":
            where = f"pillar {parts[1]}{parts[3]}"
            return where if parts[2] == "pillar" else f"beside {where}"
        if parts[0] == "mana":
            return f"mana pool space {parts[1]}"
        if parts[0] == "spellbook" and 0 < int(parts[1]) <= len(state.players):
            return f"{state.players[int(parts[1]) - 1].name}'s spell {parts[2]}"
        return region

    def words(self, value: Hashable) -> str:
        """Dice as "purple 3", meeples as "yellow apprentice"."""
        if not value:
            return "nothing"
        return ", ".join(
            f"{a} {b}" if isinstance(b, int) else f"{b} {a}"
            for a, b in cast(tuple[tuple[Any, Any], ...], value)
        )

    def reads(self, outcome: object) -> bool:
        """A die drawn and rolled; never a floor tile revealed (tiles are not read)."""
        return isinstance(outcome, Draw | Roll)

    def on_the_way(self, state: ArkhanosState, seen: Seen) -> bool:
        """No more dice seen than a round puts in the tray; every die drawn so far is of a
        colour seen there (as many times) and every die rolled so far is one of the dice
        seen; and the dice drawn and not yet rolled are in the order of the game's colours
        (the order dice come out of the bag cannot be seen: one order stands for all)."""
        shown = cast(tuple[tuple[str, int], ...], seen.picture.get(TRAY, ()))
        if len(shown) > state.dice_per_round:
            return False
        pairs = Counter(shown)
        colours = Counter(colour for colour, _ in shown)
        drawn = Counter(d.colour for d in state.table)
        rolled = Counter(_rolled(state))
        waiting = [state.colours.index(d.colour) for d in state.table if not d.number]
        return not (drawn - colours) and not (rolled - pairs) and waiting == sorted(waiting)
