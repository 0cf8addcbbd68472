"""A live game: the one mutable object. History, undo/redo, state_id and persistence.

`state_id` counts every change (move, undo, redo) like boardgame.io's `_stateID`:
a phone that sends a command for an older state_id gets `StaleState` instead of
acting on a game it has not seen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .games.base import Game, Setup
from .games.registry import get_game
from .store import Store, StoredGuess


class StaleState(RuntimeError):
    """The command was meant for an older state than the current one."""


class NothingToUndo(RuntimeError):
    """Undo at the start of the game, or redo with nothing undone."""


class CorruptJournal(RuntimeError):
    """A stored move no longer replays (rules changed, or the file was edited)."""


@dataclass(frozen=True)
class Change:
    """What happened, for listeners (the web stream, the panel LEDs)."""

    state_id: int
    action: str
    move: str | None


Listener = Callable[[Change], None]


class Session:
    """One game in play. Thread-safe: the web server calls it from several threads."""

    def __init__(self, store: Store, game_id: int) -> None:
        record = store.game(game_id)
        if record is None:
            raise KeyError(f"no game {game_id}")
        self.store = store
        self.game_id = game_id
        self.game: Game[Any, Any] = get_game(record.game)
        self.setup = record.setup
        self._initial = self.game.state_from_json(record.initial_state)
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._load()

    def _load(self) -> None:
        """Rebuild the game from the journal: what is on disk is what happened."""
        self._states = [self._initial]
        self._moves: list[Any] = []
        self._cursor = 0  # how many of _moves are in effect
        self.state_id = 0
        for event in self.store.events(self.game_id):
            self._replay(event.action, event.move)
            self.state_id = event.state_id

    @classmethod
    def start(cls, store: Store, game_name: str, players: int, options: dict[str, str]) -> Session:
        """A new game, journaled before it is returned."""
        game = get_game(game_name)
        state = game.initial_state(Setup(players, dict(options)))
        setup = {"players": players, "options": dict(options)}
        game_id = store.create_game(game_name, setup, game.state_to_json(state))
        return cls(store, game_id)

    def _replay(self, action: str, text: str | None) -> None:
        try:
            if action == "move" and text is not None:
                self._do_move(self.game.parse_move(text))
            elif action == "undo":
                self._do_undo()
            elif action == "redo":
                self._do_redo()
            else:
                raise ValueError(f"unknown action {action!r}")
        except (ValueError, NothingToUndo) as error:
            raise CorruptJournal(f"game {self.game_id}: stored {action} {text!r} fails: {error}") from error

    # The three changes, without journaling (used by replay and by the public methods).
    def _do_move(self, move: Any) -> None:
        move = self.game.canonical(self.state, move)
        state = self.game.apply(self.state, move)  # checked: raises IllegalMove
        del self._states[self._cursor + 1 :]
        del self._moves[self._cursor :]
        self._states.append(state)
        self._moves.append(move)
        self._cursor += 1

    def _do_undo(self) -> None:
        if self._cursor == 0:
            raise NothingToUndo("nothing to undo: this is the start of the game")
        self._cursor -= 1

    def _do_redo(self) -> None:
        if self._cursor == len(self._moves):
            raise NothingToUndo("nothing to redo")
        self._cursor += 1

    @property
    def state(self) -> Any:
        return self._states[self._cursor]

    def snapshot(self) -> tuple[Any, int]:
        """The state and its `state_id`, taken together (another thread may change the game
        between reading one and the other)."""
        with self._lock:
            return self.state, self.state_id

    def state_after(self, moves: int) -> Any:
        """The state after the first `moves` moves of the history."""
        with self._lock:
            if not 0 <= moves <= self._cursor:
                raise IndexError(f"the game has {self._cursor} moves, not {moves}")
            return self._states[moves]

    def rewrite(self, at: int, moves: Sequence[Any], expected: int | None = None) -> list[Change]:
        """Undo back to the first `at` moves of the history and play `moves` instead (a choice
        the camera made for the players, changed): all checked before anything is done, every
        step journaled (a power cut half way leaves the game at one of them)."""
        with self._lock:
            if expected is not None and expected != self.state_id:
                raise StaleState(f"the game is at state {self.state_id}, not {expected}: reload")
            state = self.state_after(at)
            for move in moves:
                state = self.game.apply(state, move)  # IllegalMove before anything changes
            changes = [self.undo() for _ in range(self._cursor - at)]
            return changes + [self.play(move) for move in moves]

    def keep_guesses(self, guesses: Sequence[tuple[int, Sequence[Any], Sequence[Sequence[Any]]]]) -> None:
        """Journal the camera's standing choices (after `at` moves, the moves taken, the other
        ways), replacing those kept before."""
        text = self.game.move_to_json
        self.store.keep_guesses(
            self.game_id,
            [
                StoredGuess(at, [text(m) for m in taken], [[text(m) for m in way] for way in others])
                for at, taken, others in guesses
            ],
        )

    def kept_guesses(self) -> list[tuple[int, tuple[Any, ...], tuple[tuple[Any, ...], ...]]]:
        """The choices journaled by `keep_guesses`; one whose moves no longer parse is dropped
        (a guess is a convenience: the game itself is in the moves' journal)."""
        out = []
        for g in self.store.guesses(self.game_id):
            try:
                taken = tuple(self.game.parse_move(m) for m in g.taken)
                others = tuple(tuple(self.game.parse_move(m) for m in way) for way in g.others)
            except ValueError:
                continue
            out.append((g.at, taken, others))
        return out

    @property
    def history(self) -> list[Any]:
        """The moves in effect, oldest first."""
        return self._moves[: self._cursor]

    @property
    def can_undo(self) -> bool:
        return self._cursor > 0

    @property
    def can_redo(self) -> bool:
        return self._cursor < len(self._moves)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` after every change; returns the function that unsubscribes."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _change(self, action: str, expected: int | None, change: Callable[[], str | None]) -> Change:
        with self._lock:
            if expected is not None and expected != self.state_id:
                raise StaleState(f"the game is at state {self.state_id}, not {expected}: reload")
            text = change()
            try:
                self.store.append(self.game_id, self.state_id + 1, action, text)
            except Exception:
                # Not on disk, so not done: roll the memory back to what the journal says.
                self._load()
                raise
            self.state_id += 1
            event = Change(self.state_id, action, text)
            listeners = list(self._listeners)
        for listener in listeners:
            listener(event)
        return event

    def play(self, move: Any, expected: int | None = None) -> Change:
        """Apply a move (a move value or its text); raises IllegalMove, BadMoveText, StaleState."""
        if isinstance(move, str):
            move = self.game.parse_move(move)

        def do() -> str:
            self._do_move(move)
            return self.game.move_to_json(self._moves[-1])

        return self._change("move", expected, do)

    def undo(self, expected: int | None = None) -> Change:
        def do() -> None:
            self._do_undo()

        return self._change("undo", expected, do)

    def redo(self, expected: int | None = None) -> Change:
        def do() -> None:
            self._do_redo()

        return self._change("redo", expected, do)
