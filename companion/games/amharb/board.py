"""Am'harb island geometry: spaces, surrounding spaces, each side's four areas.

Spaces are indexed row-major on an 8 x 8 grid (row 0 = north edge). Their names
read like a chessboard seen from the south side: files a-h west to east, ranks
1-8 south to north ("a1" is the south-west corner).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

SIZE = 8
AREAS = "ABCD"
SIDES = "SWNE"
FILES = "abcdefgh"

NORMAL, ALTAR, NONE = ".", "A", "#"


def space_name(index: int) -> str:
    row, col = divmod(index, SIZE)
    return f"{FILES[col]}{SIZE - row}"


def parse_space(text: str) -> int:
    """The index of a space named like "e4"; ValueError for anything else."""
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in FILES or not text[1].isdigit():
        raise ValueError(f"not a space name: {text!r} (expected a1..h8)")
    rank = int(text[1])
    if not 1 <= rank <= SIZE:
        raise ValueError(f"not a space name: {text!r} (expected a1..h8)")
    return (SIZE - rank) * SIZE + FILES.index(text[0])


def area_of(side: str, index: int) -> int:
    """Which of a side's areas (0=A, leftmost as that player sees it) holds the space.

    Am'harb: Round Overview, Island Areas — each area is 2 columns running away
    from the player, so players on adjacent sides have perpendicular areas.
    """
    row, col = divmod(index, SIZE)
    if side == "S":
        return col // 2
    if side == "N":
        return (SIZE - 1 - col) // 2
    if side == "W":  # facing east, the player's left hand is north
        return row // 2
    if side == "E":
        return (SIZE - 1 - row) // 2
    raise ValueError(f"unknown side {side!r}")


@dataclass(frozen=True)
class Geometry:
    """Everything derived from a board drawing, computed once per drawing."""

    board: tuple[str, ...]
    exists: tuple[bool, ...]
    altar_space: tuple[bool, ...]
    surrounding: tuple[tuple[int, ...], ...]
    """Am'harb: "Surrounding" — the up to eight orthogonal and diagonal neighbours."""

    def spaces(self) -> range:
        return range(SIZE * SIZE)

    def on_edge(self, index: int) -> bool:
        """On the island's outermost edge: fewer than eight surrounding spaces."""
        return len(self.surrounding[index]) < 8

    def in_area(self, side: str, area: int) -> tuple[int, ...]:
        return tuple(i for i in self.spaces() if self.exists[i] and area_of(side, i) == area)

    def centremost_altars(self, count: int = 4) -> tuple[int, ...]:
        """The altar spaces nearest the island's centre of mass (first-game large altars)."""
        cells = [divmod(i, SIZE) for i in self.spaces() if self.exists[i]]
        centre_r = sum(r for r, _ in cells) / len(cells)
        centre_c = sum(c for _, c in cells) / len(cells)

        def distance(i: int) -> float:
            r, c = divmod(i, SIZE)
            return (r - centre_r) ** 2 + (c - centre_c) ** 2

        altars = sorted((i for i in self.spaces() if self.altar_space[i]), key=lambda i: (distance(i), i))
        return tuple(sorted(altars[:count]))


def check_board(board: tuple[str, ...]) -> None:
    """ValueError unless `board` is 8 rows of 8 characters from '.', 'A', '#'."""
    if len(board) != SIZE or any(len(row) != SIZE for row in board):
        raise ValueError("an Am'harb board is 8 rows of 8 characters ('.', 'A' or '#')")
    bad = {ch for row in board for ch in row} - {NORMAL, ALTAR, NONE}
    if bad:
        raise ValueError(f"unknown board characters {sorted(bad)}: use '.', 'A' or '#'")


@cache
def geometry(board: tuple[str, ...]) -> Geometry:
    """The geometry of a board drawing (memoised: drawings are few and immutable)."""
    check_board(board)
    cells = "".join(board)
    exists = tuple(ch != NONE for ch in cells)
    surrounding = []
    for i in range(SIZE * SIZE):
        row, col = divmod(i, SIZE)
        around: list[int] = []
        if exists[i]:
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    r, c = row + dr, col + dc
                    if (dr or dc) and 0 <= r < SIZE and 0 <= c < SIZE and exists[r * SIZE + c]:
                        around.append(r * SIZE + c)
        surrounding.append(tuple(around))
    return Geometry(
        board=board,
        exists=exists,
        altar_space=tuple(ch == ALTAR for ch in cells),
        surrounding=tuple(surrounding),
    )
