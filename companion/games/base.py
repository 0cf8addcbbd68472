"""The one protocol every game implements, shaped after OpenSpiel's state API.

A game is a stateless object; its states and moves are immutable, JSON-serialisable
values. `apply` is the checked entry point (it raises `IllegalMove` with the rule
that forbids the move); `apply_unchecked` is the fast path for playouts and
search and trusts its caller.
"""

from __future__ import annotations

import tomllib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Generic, TypeVar

from .codec import CodecError, from_json, to_json
from .sight import Sight

CHANCE = "chance"
"""`to_move` value when the table must report a die roll or a card draw."""

AUTOMATED_ACTORS = ("beast", "lutfi", "watcher", "betrayers")
"""`to_move` values for actors the engine itself resolves, step by step."""

Actor = int | str
"""A seat index (0-based, in turn order), `CHANCE`, or an automated actor."""


@cache
def game_data(package: str, name: str) -> dict[str, Any]:
    """A game's printed data file (the TOML beside its code, with its stated assumptions),
    read and parsed once per process however many modules of the game ask for it."""
    return tomllib.loads(resources.files(package).joinpath(name).read_text(encoding="utf-8"))


S = TypeVar("S")
M = TypeVar("M")


class IllegalMove(ValueError):
    """A move the rules forbid, with the reason and the rule that forbids it."""

    def __init__(self, reason: str, rule: str) -> None:
        super().__init__(f"{reason} ({rule})")
        self.reason = reason
        self.rule = rule


class BadMoveText(ValueError):
    """Text that does not spell a move of this game."""


class BadSetup(ValueError):
    """A setup the game cannot start from (wrong player count, bad option)."""


class BadState(ValueError):
    """JSON that is not a state of this game."""


@dataclass(frozen=True)
class Setup:
    """What the table decides before play: player count and named options."""

    players: int
    options: Mapping[str, str] = field(default_factory=dict)

    def option(self, name: str, default: str = "") -> str:
        return self.options.get(name, default)

    def values(self, name: str, count: int | None, default: list[str]) -> list[str]:
        """A comma-separated option ("names", "colours"…): `count` non-empty values when given
        (`default` cut to `count` when the option is not), else any number of them."""
        raw = self.option(name)
        values = [v.strip() for v in raw.split(",")] if raw else default[:count]
        if (count is not None and len(values) != count) or not all(values):
            wanted = f"{count} comma-separated values" if count is not None else "comma-separated values"
            raise BadSetup(f"option {name!r} needs {wanted}, got {raw!r}")
        return values


@dataclass(frozen=True)
class ScoreSource:
    """One thing that gives points (an altar, a floor, a mission) and how it was decided."""

    name: str
    rule: str
    measures: tuple[int, ...]
    """Per seat, what the rule compares (influence on an altar, dice on a floor…)."""
    points: tuple[int, ...]
    """Per seat, the points this source awards."""
    why: str


@dataclass(frozen=True)
class Standing:
    seat: int
    place: int
    total: int
    note: str


@dataclass(frozen=True)
class ScoreSheet:
    sources: tuple[ScoreSource, ...]
    standings: tuple[Standing, ...]
    """Best first, the game's own tie-breakers applied."""
    final: bool
    """False while the game goes on: the sheet says what the table would score now."""

    def total(self, seat: int) -> int:
        return sum(source.points[seat] for source in self.sources)


@dataclass(frozen=True)
class SeatView:
    """One player's part of the table, as lines a phone can show (for games without a drawn board)."""

    name: str
    colour: str
    """A CSS colour, or "" when the game has no player colours."""
    lines: tuple[str, ...] = ()
    current: bool = False


@dataclass(frozen=True)
class TableView:
    """The whole table in plain lines: what the page shows for any game."""

    headline: str
    """Where the game is: "Round 3 · Beast Phase"."""
    seats: tuple[SeatView, ...]
    shared: tuple[str, ...] = ()
    """Lines about the shared board (tracks, supplies, the map)."""


class Game(ABC, Generic[S, M]):
    """A title's rules. Subclasses implement the abstract methods; nothing here holds state.
    Rules written as module functions are bound as they are (`legal_moves =
    staticmethod(legal_moves)`) rather than wrapped in a method that only forwards."""

    name: str
    title: str
    min_players: int
    max_players: int
    rulebook: str
    options: dict[str, str] = {}
    """Setup options this game understands, with what each means."""
    state_type: type
    """The frozen dataclass of this game's states (the codec reads its type hints)."""
    state_noun: str
    """How errors name a state of this game: "an Am'harb state"."""
    sight: Sight | None = None
    """How the camera reads this game's table (None: the game is kept by hand)."""
    adjustments: tuple[str, ...] = ()
    """Examples of `adjust CHANGE: WHY` moves, for games whose cards the companion cannot
    know (the page offers a form); empty: the game has none."""

    @abstractmethod
    def initial_state(self, setup: Setup) -> S: ...

    @abstractmethod
    def to_move(self, state: S) -> Actor | None:
        """Who acts now: a seat, CHANCE, an automated actor, or None when the game is over."""

    @abstractmethod
    def legal_moves(self, state: S) -> tuple[M, ...]:
        """Every legal move, in a deterministic order; empty only when the game is over."""

    def chance_outcomes(self, state: S) -> tuple[tuple[M, float], ...]:
        """What the dice or the deck may show, with probabilities; empty unless to_move is CHANCE."""
        return ()

    @abstractmethod
    def apply_unchecked(self, state: S, move: M) -> S:
        """The state after `move`, trusting that it is legal. Never mutates `state`."""

    def explain_illegal(self, state: S, move: M) -> IllegalMove:
        """Why `move` is not legal now; games override this to name the exact rule."""
        return IllegalMove(f"{move} is not a legal move now", self.rulebook)

    def canonical(self, state: S, move: M) -> M:
        """The one spelling of `move` that `legal_moves` lists (e.g. a payment's colour order)."""
        return move

    def apply(self, state: S, move: M) -> S:
        """The checked entry point: the state after a legal move, or `IllegalMove`."""
        if self.to_move(state) is None:
            raise IllegalMove("the game is over", self.rulebook)
        move = self.canonical(state, move)
        if move not in self.legal_moves(state):
            raise self.explain_illegal(state, move)
        return self.apply_unchecked(state, move)

    @abstractmethod
    def score(self, state: S) -> ScoreSheet: ...

    @abstractmethod
    def phase(self, state: S) -> str:
        """The named phase or step, for the panel LEDs and the page."""

    def state_to_json(self, state: S) -> dict[str, Any]:
        return {"game": self.name, **to_json(state)}

    def state_from_json(self, data: Any) -> S:
        """Raises `BadState` for anything that is not a state of this game."""
        if not isinstance(data, dict) or data.get("game") != self.name:
            raise BadState(f'not {self.state_noun} (expected an object with "game": "{self.name}")')
        try:
            state: S = from_json(self.state_type, {k: v for k, v in data.items() if k != "game"})
        except CodecError as error:
            raise BadState(str(error)) from error
        self.check_state(state)
        return state

    def check_state(self, state: S) -> None:
        """Raise `BadState` for a well-typed state the rules cannot play on (games override)."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """The move `text` spells (the inverse of `str(move)`); raises `BadMoveText`."""

    def move_to_json(self, move: M) -> str:
        return str(move)

    def move_from_json(self, data: Any) -> M:
        if not isinstance(data, str):
            raise BadMoveText(f"a move is a string, not {type(data).__name__}")
        return self.parse_move(data)

    def phase_step(self, state: S) -> int | None:
        """Which phase LED is lit (1-based), or None for none (the game is over)."""
        return None

    def alarm(self, before: S, after: S) -> str | None:
        """Something the whole table must notice happened between two states (the status LED
        and the buzzer say it), or None."""
        return None

    def beast(self, state: S) -> str | None:
        """The beast LED lit now (pain, delusion, despair, harrow: the Beast that acts), or None."""
        return None

    def next_button(self, state: S) -> M | None:
        """The move the panel's NEXT plays when no question is open: going on without acting
        (declining a power, passing), where the rules allow exactly that; None otherwise."""
        return None

    def seat_names(self, state: S) -> tuple[str, ...]:
        """Display names per seat (players' names or colours)."""
        return ()

    def describe(self, state: S) -> TableView:
        """The table in plain lines for the page; games override this with their own state."""
        actor = self.to_move(state)
        return TableView(
            headline=self.phase(state),
            seats=tuple(
                SeatView(name, "", current=actor == seat) for seat, name in enumerate(self.seat_names(state))
            ),
        )
