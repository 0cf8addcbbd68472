"""What the camera sees of a game of Tower: the city and the players' tableaus on the assumed
`tower` play mat (vision/profiles/tower.toml; the rulebook says the layout "has no bearing").

Regions: `stall/N/a`-`c` (the material token on each space of stall N), `stall/N/meeple` (who
stands there: builders by their colour, the stand-in yellow, the runner red, the guard white,
Lutfi in the first default colour no player has), `player/S/gems` (seat S from 1: how many
green, blue and red gems and passes lie there), `player/S/materials` (the materials bought),
`salil` (his pile), `palace` (the colour of the top segment of the tower) and `tray` (the
die). Gems are counted by colour and area (spread out,
not heaped). From these the table loop tells purchases (gems to Salil, the material to the
tableau, the meeple onto the stall), trades with Salil, returns after a build, the draw
phase's gems (chance draws the camera reads, one tap) and the die (Lutfi's start, the
guard's hunt: offered for one tap, a face naming no stall in play not offered).
Not read: the segments under the top one, cards, Lutfi's own materials, meeples at home.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Any, cast

from vision.types import Observation

from ..sight import TRAY, UNSURE, OneOf, Seen, Sight, tray_dice, tray_unsure
from .gems import KINDS
from .moves import DrawGem, Roll
from .rules import die_faces
from .setup import DEFAULT_COLOURS
from .state import HUNT, LUTFI_DIE, RETURN, RUNNER, STAND_IN, TowerState

PROFILE = "tower"
PALACE = "palace"
MATERIAL_COLOUR = {"straw": "yellow", "lumber": "brown", "clay": "red", "water": "blue"}
"""The material tokens' colours (Setup: yellow, brown, red and blue spaces)."""
COLOUR_MATERIAL = {colour: material for material, colour in MATERIAL_COLOUR.items()}
GEM_COLOURS = ("green", "blue", "red", "black")
"""The camera's names for `gems.KINDS` in order: a black market pass is a black gem."""
GUARD, APPRENTICE_COLOUR = "white", {STAND_IN: "yellow", RUNNER: "red"}
SPACES = "abc"


def space(stall: int, k: int) -> str:
    return f"stall/{stall}/{SPACES[k]}"


def meeples(stall: int) -> str:
    return f"stall/{stall}/meeple"


def gems(seat: int) -> str:
    return f"player/{seat + 1}/gems"


def materials(seat: int) -> str:
    return f"player/{seat + 1}/materials"


def lutfi_colour(state: TowerState) -> str:
    """ASSUMED: Lutfi is "an unclaimed builder meeple": the first default colour no player has."""
    taken = {p.colour for p in state.players}
    return next((c for c in DEFAULT_COLOURS if c not in taken), "white")


class TowerSight(Sight):
    def profile_name(self, state: TowerState) -> str:
        return PROFILE

    def piece_colours(self, state: TowerState) -> tuple[str, ...]:
        extra = (GUARD, *APPRENTICE_COLOUR.values(), lutfi_colour(state))
        return tuple(dict.fromkeys((*(p.colour for p in state.players), *extra)))

    def expected(self, state: TowerState) -> dict[str, Hashable]:
        picture: dict[str, Hashable] = {"salil": state.salil.counts(), PALACE: ()}
        if state.palace:  # the top segment is the one seen from above
            last = state.palace[-1]
            picture[PALACE] = (state.players[last].colour if last < state.seats else lutfi_colour(state),)
        returning = state.turn.returns if state.turn.step == RETURN else ()
        for seat, player in enumerate(state.players):
            picture[gems(seat)] = player.gems.counts()
            # A build's materials stay on the tableau until each is put back on a stall.
            held = player.materials + (returning if seat == state.turn.seat else ())
            picture[materials(seat)] = tuple(sorted(held))
        for stall in state.stalls:
            for k, slot in enumerate(stall.slots):
                picture[space(stall.number, k)] = (slot.material,) if slot.material else ()
            here = [p.colour for p in state.players if p.stall == stall.number and not p.jailed]
            here += [
                APPRENTICE_COLOUR[a.name]
                for a in state.apprentices
                if a.stall == stall.number and a.name in APPRENTICE_COLOUR
            ]
            here += [GUARD] if state.variants.royal_guard and state.guard == stall.number else []
            lutfi = state.lutfi is not None and state.lutfi.stall == stall.number
            standing = tuple(sorted(here + ([lutfi_colour(state)] if lutfi else [])))
            lying = tuple(sorted(here))
            # Lutfi lying flat (nothing bought) may be read as lying there or not at all.
            picture[meeples(stall.number)] = (
                OneOf((standing, lying))
                if lutfi and state.lutfi is not None and not state.lutfi.standing
                else standing
            )
        return picture

    def seen(self, state: TowerState, observation: Observation, regions: frozenset[str]) -> Seen:
        """Gems as counts (green, blue, red, passes), materials by name, meeples by colour,
        the die in the tray; a region with any unsure reading is unsure."""
        wanted = regions & set(self.expected(state))
        found: dict[str, list[str]] = {region: [] for region in wanted}
        unsure: set[str] = set()
        for token in observation.tokens:
            if token.region in found:
                name = token.color or "?"
                found[token.region].append(
                    COLOUR_MATERIAL.get(name, name) if token.kind == "material" else name
                )
                if token.confidence <= UNSURE:
                    unsure.add(token.region)
        picture: dict[str, Hashable] = {}
        for region, names in found.items():
            if region.endswith("/gems") or region == "salil":
                counted = Counter(names)
                picture[region] = tuple(counted[c] for c in GEM_COLOURS)
                if set(counted) - set(GEM_COLOURS):
                    unsure.add(region)
            else:
                picture[region] = tuple(sorted(names))
        if TRAY in regions:
            dice = tray_dice(observation)
            picture[TRAY] = tuple(sorted(d.value for d in dice))
            unsure |= tray_unsure(dice)
        return Seen(picture, frozenset(unsure))

    def region_name(self, state: TowerState, region: str) -> str:
        parts = region.split("/")
        if region == TRAY:
            return "the rolling area"
        if region == "salil":
            return "Salil's pile"
        if region == PALACE:
            return "the top of the tower on the palace"
        if parts[0] == "stall":
            return (
                f"stall {parts[1]}'s meeple spot" if parts[2] == "meeple" else f"space {parts[1]}{parts[2]}"
            )
        if parts[0] == "player" and 0 < int(parts[1]) <= len(state.players):
            return f"{state.players[int(parts[1]) - 1].name}'s {parts[2]}"
        return region

    def words(self, value: Hashable) -> str:
        """Gem counts as "2 green, 1 pass"; materials and meeples by name."""
        value = cast(Any, value).options[0] if isinstance(value, OneOf) else value
        things = cast(tuple[Any, ...], value)
        if len(things) == len(KINDS) and all(isinstance(n, int) for n in things):
            counted = [f"{n} {kind}" for n, kind in zip(things, KINDS) if n]
            return ", ".join(counted) or "no gems"
        return ", ".join(map(str, things)) or "nothing"

    def chance_from(self, state: TowerState, seen: Seen) -> tuple[Roll, ...] | None:
        """The die, when the game waits for it: Lutfi's start or the guard's hunt."""
        if state.turn.step not in (LUTFI_DIE, HUNT):
            return None
        values = cast(tuple[int, ...], seen.picture.get(TRAY, ()))
        if len(values) != 1 or values[0] not in die_faces(state):
            return None
        return (Roll(values[0]),)

    def reads(self, outcome: object) -> bool:
        """A gem or pass drawn from the bag lands on a tableau; cards and the die are other
        matters (the die is offered by `chance_from`)."""
        return isinstance(outcome, DrawGem)

    def on_the_way(self, state: TowerState, seen: Seen) -> bool:
        """The gems drawn so far are all seen on the drawing player's tableau."""
        shown = seen.picture.get(gems(state.turn.seat))
        if shown is None:
            return False
        have = state.players[state.turn.seat].gems.counts()
        return all(h <= s for h, s in zip(have, cast(tuple[int, ...], shown)))
