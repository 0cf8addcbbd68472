"""What the camera sees of an Am'harb table: the disc stacks in each player's four areas,
and the disciples and resource tiles on each space of the island.

Regions follow the built-in profiles (`vision/profiles/amharb-*p.toml`): `cell/ROW/COL`
is the space of row ROW (0 = north, rank 8) and column COL (0 = file a); `seatK/areaN`
is area N (A-D) of the side "SWNE"[K], owned by the player who plays from that side.
Not read (no sizes or artwork known, docs/vision.md): altar tiles, locks, pyres, books
and cursed altars, and the resources in the players' hands. Moves that change only those
are hidden moves to `companion.inference`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, cast

from vision.types import Observation

from ..sight import UNSURE, Seen, Sight, Unclear
from .board import AREAS, SIDES, SIZE, geometry, space_name
from .setup import data
from .state import AmharbState

Piece = tuple[str, str]
"""(kind, colour): ("priest", "pink"), ("resource", "red")."""


def cell(index: int) -> str:
    row, col = divmod(index, SIZE)
    return f"cell/{row}/{col}"


def area(side: str, n: int) -> str:
    return f"seat{SIDES.index(side)}/area{n}"


CELLS = frozenset(cell(i) for i in range(SIZE * SIZE))


class AmharbSight(Sight):
    def profile_name(self, state: AmharbState) -> str:
        return f"amharb-{len(state.players)}p"

    def piece_colours(self, state: AmharbState) -> tuple[str, ...]:
        return tuple(p.colour for p in state.players)

    def region_name(self, state: AmharbState, region: str) -> str:
        parts = region.split("/")
        if parts[0] == "cell":
            return space_name(int(parts[1]) * SIZE + int(parts[2]))
        side = SIDES[int(parts[0].removeprefix("seat"))]
        owner = next((p.name for p in state.players if p.side == side), f"the {side} side")
        return f"{owner}'s area {AREAS[int(parts[1].removeprefix('area'))]}"

    def regions(self, state: AmharbState) -> frozenset[str]:
        """The regions `expected` names: every space, and each player's four areas (without
        building the picture: `seen` runs on every frame)."""
        return CELLS | {area(p.side, n) for p in state.players for n in range(len(AREAS))}

    def expected(self, state: AmharbState) -> dict[str, Hashable]:
        picture: dict[str, Hashable] = {}
        for index, space in enumerate(state.spaces):
            pieces: list[Piece] = [(d.kind, state.players[d.seat].colour) for d in space.disciples]
            if space.resource:
                pieces.append(("resource", space.resource))
            # A disciple standing on an unclaimed tile (Dagon's and Hydra's powers move them
            # there) may hide it, or match its colour: only "something is there" is sure.
            unclear = space.resource and space.disciples
            picture[cell(index)] = Unclear(tuple(sorted(pieces))) if unclear else tuple(sorted(pieces))
        for player in state.players:
            for n, discs in enumerate(player.towers):
                picture[area(player.side, n)] = (player.colour, discs) if discs else ()
        return picture

    def words(self, value: Hashable) -> str:
        """Pieces as "pink priest, red resource", a stack as "pink discs 4 3 2" (bottom to
        top), nothing as "nothing"."""
        value = getattr(value, "what", value)
        if not value:
            return "nothing"
        if isinstance(cast(tuple[Any, ...], value)[0], str):  # a stack: (colour, discs)
            colour, discs = cast(tuple[str, tuple[int, ...]], value)
            return f"{colour} discs {' '.join(map(str, discs))}"
        return ", ".join(f"{colour} {kind}" for kind, colour in cast(tuple[Piece, ...], value))

    def setup_profile(self, players: int) -> str:
        return f"amharb-{players}p"

    def setup_options(self, players: int, observation: Observation) -> dict[str, str]:
        """The resource tile on each normal space of the default island, in reading order
        (the `resources` option: Game Setup 2 draws them from the bag): r, y or b, "?" where
        none or more than one was read. Altar tiles are not read (their faces are not known)."""
        geo = geometry(tuple(data()["layouts"][str(players)]["board"]))
        normal = [i for i in geo.spaces() if geo.exists[i] and not geo.altar_space[i]]
        tiles: dict[str, list[str]] = {}
        for token in observation.tokens:
            if token.kind == "resource" and token.color and token.confidence > UNSURE:
                tiles.setdefault(token.region, []).append(token.color)
        letters = []
        for i in normal:
            seen = tiles.get(cell(i), [])
            letters.append(seen[0][0] if len(seen) == 1 else "?")
        return {"resources": "".join(letters)}

    def seen(self, state: AmharbState, observation: Observation, regions: frozenset[str]) -> Seen:
        """Every region of `expected(state)` that the profile has gets a reading (empty when
        vision saw nothing there); a region with any unsure piece is unsure."""
        pieces: dict[str, list[Piece]] = {}
        unsure: set[str] = set()
        for token in observation.tokens:
            pieces.setdefault(token.region, []).append((token.kind, token.color or "?"))
            if token.confidence <= UNSURE:
                unsure.add(token.region)
        picture: dict[str, Hashable] = {}
        for region in self.regions(state) & regions:
            picture[region] = tuple(sorted(pieces.get(region, [])))
        for stack in observation.stacks:
            if stack.region in picture:
                picture[stack.region] = (stack.color or "?", stack.discs) if stack.discs else ()
                if stack.confidence <= UNSURE:
                    unsure.add(stack.region)
        return Seen(picture, frozenset(unsure & set(picture)))
