"""What the camera sees of a Cthulhu Wars table on the Yuggoth map: the Watcher's figure in
its Area and the dice rolled into the rolling area below the map (the `yuggoth-three` and
`yuggoth-five` profiles: the map's Areas as the assumed drawing lays them out, the marker
sheet at the corners; vision/profiles/yuggoth-*.toml).

The Watcher's figure is known by a colour of its own (ASSUMED: pink, the profile says how to
mark it); the factions' figures are not read. Its figure moved to another Area is the
Watcher's move on an Attack (`watcher > AREA`); placed on the Watcher Postern, its
Awakening. A die rolled for the Watcher's Awakening or Decay is that roll (Yuggoth: "roll a
die and lower the Watcher Token's position"; the Awakening roll's numbers are the Areas'); a
side's Combat dice are its Kills (the 6s) and then its Pains (the 4s and 5s among the rest:
the same dice, read again) — the base game's Combat, which the Yuggoth text takes as known
(docs/yuggoth.md, "kills N" and "pains N"); the Watcher "is immune to all Pain", so no Pains
are read from its attacker's dice. Each roll is offered for one tap or NEXT, never taken
alone: dice just taken for a roll are not offered again until the tray changes.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, cast

from vision.types import Observation

from ..base import CHANCE
from ..sight import TRAY, UNSURE, Seen, Sight, tray_dice, tray_unsure
from .battle import record_roll, roll_to_make
from .moves import Kills, Pains, Roll
from .rules import to_move
from .state import YuggothState

WATCHER = "watcher"
WATCHER_COLOUR = "pink"
"""ASSUMED: the Watcher's figure is marked pink (the factions' colours are all others)."""
FACTION_COLOUR = {
    "seagreen": "green",
    "royalblue": "blue",
    "firebrick": "red",
    "gold": "yellow",
    "mediumpurple": "purple",
    "darkorange": "orange",
    "lightsteelblue": "white",
}
"""The page's faction colours as the camera names them (a figure of the Watcher's size in one
of these is a faction's, not the Watcher)."""


def area(name: str) -> str:
    return f"area/{name}"


class YuggothSight(Sight):
    def profile_name(self, state: YuggothState) -> str:
        """The five-player side has the Windowless City; any other map is read as the
        three-player side's drawing (only the Areas the profile names are compared)."""
        return "yuggoth-five" if state.board.has("Windowless City") else "yuggoth-three"

    def piece_colours(self, state: YuggothState) -> tuple[str, ...]:
        named = (FACTION_COLOUR.get(f.colour, f.colour) for f in state.factions)
        return tuple(dict.fromkeys(c for c in named if c != WATCHER_COLOUR))

    def expected(self, state: YuggothState) -> dict[str, Hashable]:
        return {area(name): ((WATCHER,) if state.watcher.area == name else ()) for name in state.board.areas}

    def seen(self, state: YuggothState, observation: Observation, regions: frozenset[str]) -> Seen:
        """The Watcher's figure in each Area (unsure when its size is far from the figure's)
        and the dice in the tray."""
        picture: dict[str, Hashable] = {}
        unsure: set[str] = set()
        for name in regions & set(self.expected(state)):
            found = [t for t in observation.tokens if t.region == name and t.kind == WATCHER]
            picture[name] = (WATCHER,) * len(found)
            if any(t.confidence <= UNSURE for t in found):
                unsure.add(name)
        if TRAY in regions:
            dice = tray_dice(observation)
            picture[TRAY] = tuple(sorted(d.value for d in dice))
            unsure |= tray_unsure(dice)
        return Seen(picture, frozenset(unsure))

    def region_name(self, state: YuggothState, region: str) -> str:
        if region == TRAY:
            return "the rolling area"
        return region.removeprefix("area/")

    def words(self, value: Hashable) -> str:
        """The Watcher's figure, or dice as "3, 6"."""
        things = cast(tuple[Any, ...], value)
        if not things:
            return "nothing"
        if things[0] == WATCHER:
            return "the Watcher" if len(things) == 1 else f"{len(things)} Watcher figures"
        return ", ".join(map(str, things))

    def chance_from(self, state: YuggothState, seen: Seen) -> tuple[Any, ...] | None:
        """The roll the dice in the tray show, when the game waits for one and the tray holds
        as many dice as it should; None otherwise."""
        if to_move(state) != CHANCE:
            return None
        values = cast(tuple[int, ...], seen.picture.get(TRAY, ()))
        battle = state.battle
        if battle is None:  # the Watcher's Awakening or Decay: one die
            return (Roll(values[0]),) if len(values) == 1 else None
        roll = roll_to_make(battle)
        if roll is None:
            return None
        side, what = roll
        if len(values) != battle.dice[side]:
            return None
        pains = Pains(sum(v in (4, 5) for v in values))
        if what == "pains":  # the Kills were told already: these must be the same dice
            return (pains,) if sum(v == 6 for v in values) == battle.kills[side] else None
        kills = Kills(sum(v == 6 for v in values))
        # One roll of the side's dice says both its Kills and then its Pains among the rest,
        # when the rules ask for those Pains next (the Watcher ignores the Pains dealt to it).
        after = record_roll(state, kills).battle
        pains_next = after is not None and roll_to_make(after) == (side, "pains")
        return (kills, pains) if pains_next else (kills,)
