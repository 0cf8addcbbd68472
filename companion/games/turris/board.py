"""The Turris Main Board as a graph: Locations, Crossroads, Excavation spots, and distances.

The rulebook never prints which Locations touch; `turris.toml` holds an assumed map that
agrees with every example, and players can load their own (`Board.from_data`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from ..base import game_data


class BadBoard(ValueError):
    """A board description the rules cannot play on."""


@dataclass(frozen=True)
class Board:
    locations: tuple[str, ...]
    """The twelve named Locations (Scouts may be Placed there)."""
    crossroads: tuple[str, ...]
    """Count as Locations for distance only: no Scout is ever Placed or pushed there."""
    excavation: tuple[str, ...]
    """The Excavation spots A-D, in alphabetical order (Beasts start there)."""
    edges: frozenset[frozenset[str]]
    limited: frozenset[str]
    immediate: frozenset[str]
    numbers: tuple[tuple[str, int], ...]
    """Solo mode: each named Location's number."""

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Board:
        try:
            board = cls(
                tuple(data["locations"]),
                tuple(data["crossroads"]),
                tuple(data["excavation"]),
                frozenset(frozenset(edge) for edge in data["edges"]),
                frozenset(data.get("limited", ())),
                frozenset(data.get("immediate", ())),
                tuple(sorted(data.get("numbers", {}).items(), key=lambda item: item[1])),
            )
        except (KeyError, TypeError) as error:
            raise BadBoard(
                f"a Turris board needs locations, crossroads, excavation and edges: {error}"
            ) from error
        board.check()
        return board

    def check(self) -> None:
        every = set(self.every)
        if len(every) != len(self.every):
            raise BadBoard("a place is named twice")
        for edge in self.edges:
            if len(edge) != 2 or not edge <= every:
                raise BadBoard(f"edge {sorted(edge)} must join two places of the board")
        if not (self.limited | self.immediate) <= set(self.locations):
            raise BadBoard("only named Locations can be limited or Immediate")
        numbered = [name for name, _ in self.numbers]
        if numbered and sorted(numbered) != sorted(self.locations):
            raise BadBoard("solo numbers must number every named Location once")
        reached = self.distances_from(self.locations[0], frozenset())
        if set(reached) != every:
            raise BadBoard(f"not connected: {sorted(every - set(reached))} cannot be reached")

    @property
    def every(self) -> tuple[str, ...]:
        return (*self.locations, *self.crossroads, *self.excavation)

    @cached_property
    def _touching(self) -> dict[str, tuple[str, ...]]:
        return {
            place: tuple(p for p in self.every if frozenset((place, p)) in self.edges) for place in self.every
        }

    def neighbours(self, place: str, gone: frozenset[str]) -> tuple[str, ...]:
        """Places touching `place`, in board order, leaving out places that no longer exist."""
        return tuple(p for p in self._touching[place] if p not in gone)

    def distances_from(self, start: str, gone: frozenset[str]) -> dict[str, int]:
        """Steps from `start` to every place (Crossroads count as places: "Plot Path")."""
        distance = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self.neighbours(here, gone):
                if there not in distance:
                    distance[there] = distance[here] + 1
                    queue.append(there)
        return distance

    def shortest_paths(self, start: str, goal: str, gone: frozenset[str]) -> tuple[tuple[str, ...], ...]:
        """Every shortest path from `start` to `goal` (both included), in board order."""
        to_goal = self.distances_from(goal, gone)
        if start not in to_goal:
            return ()
        paths: list[tuple[str, ...]] = []

        def extend(path: tuple[str, ...]) -> None:
            here = path[-1]
            if here == goal:
                paths.append(path)
                return
            for there in self.neighbours(here, gone):
                if to_goal.get(there) == to_goal[here] - 1:
                    extend((*path, there))

        extend((start,))
        return tuple(paths)

    def number(self, location: str) -> int:
        return dict(self.numbers)[location]


@cache
def default_board() -> Board:
    """The assumed Main Board of `turris.toml` (read once: a Board is an immutable value)."""
    return Board.from_data(game_data(__package__, "turris.toml"))
