"""What the camera sees of Towers of Arkhanos: the dice rolled into the rolling area.

The rolling area is the `dice-tray` profile (the marker sheet's four markers round a tray
or a patch of table). The dice drawn from the bag and rolled there are read as (colour,
number) and become the round's Draw and Roll outcomes at once (`inference.chance_chain`);
a die taken from the tray to a pillar leaves it, so a placement shows as that die gone
(which pillar, and the meeple, are told on the phone: the towers are not read). ASSUMED:
dice stay in the tray until placed, and the last die goes from it to the mana pool.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import cast

from vision.types import Observation

from ..sight import TRAY, Seen, TraySight, tray_dice, tray_unsure
from .moves import Draw, Roll
from .state import ArkhanosState


def _rolled(state: ArkhanosState) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((d.colour, d.number) for d in state.table if d.number))


class ArkhanosSight(TraySight):
    """The dice stay on the table until placed: the tray is compared with the dice rolled so
    far (colour and number), and a reading of new dice is a chain of draws and rolls."""

    def dice_colours(self, state: ArkhanosState) -> tuple[str, ...] | None:
        return state.colours

    def expected(self, state: ArkhanosState) -> dict[str, Hashable]:
        return {TRAY: _rolled(state)}

    def seen(self, state: ArkhanosState, observation: Observation, regions: frozenset[str]) -> Seen:
        dice = tray_dice(observation)
        return Seen({TRAY: tuple(sorted((d.color or "?", d.value) for d in dice))}, tray_unsure(dice))

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
