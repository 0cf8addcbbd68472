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

from vision.types import Observation

from ..sight import UNSURE, Seen, Unclear
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


class AmharbSight:
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

    def chance_from(self, state: AmharbState, seen: Seen) -> tuple[object, ...] | None:
        return None  # no chance steps after set-up

    def reads(self, outcome: object) -> bool:
        return False

    def on_the_way(self, state: AmharbState, seen: Seen) -> bool:
        return False  # Am'harb has no chance steps after set-up

    def dice_colours(self, state: AmharbState) -> tuple[str, ...] | None:
        return None

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
        expected = self.expected(state)
        pieces: dict[str, list[Piece]] = {}
        unsure: set[str] = set()
        for token in observation.tokens:
            pieces.setdefault(token.region, []).append((token.kind, token.color or "?"))
            if token.confidence <= UNSURE:
                unsure.add(token.region)
        picture: dict[str, Hashable] = {}
        for region in expected.keys() & regions:
            picture[region] = tuple(sorted(pieces.get(region, [])))
        for stack in observation.stacks:
            if stack.region in picture:
                picture[stack.region] = (stack.color or "?", stack.discs) if stack.discs else ()
                if stack.confidence <= UNSURE:
                    unsure.add(stack.region)
        return Seen(picture, frozenset(unsure & set(picture)))
