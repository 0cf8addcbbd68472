"""What the camera sees of a Cthulhu Wars table on the Yuggoth map: the dice rolled into
the rolling area (the `dice-tray` profile: the marker sheet round a tray).

A die rolled for the Watcher's Awakening or Decay is that roll (Yuggoth: "roll a die and
lower the Watcher Token's position"; the Awakening roll's numbers are the Areas'); a side's
Combat dice are its Kills (the 6s) and then its Pains (the 4s and 5s among the rest: the
same dice, read again) — the base game's Combat, which the Yuggoth text takes as known
(docs/yuggoth.md, "kills N" and "pains N"); the Watcher "is immune to all Pain", so no
Pains are read from its attacker's dice. Each is offered for one tap or NEXT, never
taken alone: dice just taken for a roll are not offered again until the tray changes. The
map, the Units and the Watcher's figure are not read (the map's geometry is not known).
"""

from __future__ import annotations

from typing import Any, cast

from ..base import CHANCE
from ..sight import TRAY, Seen, TraySight
from .battle import record_roll, roll_to_make
from .moves import Kills, Pains, Roll
from .rules import to_move
from .state import YuggothState


class YuggothSight(TraySight):
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
