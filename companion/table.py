"""The game on the table: which session is current, and starting a new one."""

from __future__ import annotations

import threading
from typing import Any

from .events import Changes
from .session import Change, Session
from .store import Store


class Table:
    """Holds the current `Session`; the web app and (later) the panel share one Table."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.changes = Changes()
        """Bumped by every move, undo, new game or resume (and by the devices for the camera)."""
        self._lock = threading.Lock()
        latest = store.latest_game()
        self._session = self._watched(Session(store, latest.id)) if latest else None

    @property
    def session(self) -> Session | None:
        return self._session

    def new_game(self, game: str, players: int, options: dict[str, Any]) -> Session:
        """Start a game (BadSetup/KeyError for a bad setup); it becomes the current one."""
        session = Session.start(self.store, game, players, {k: str(v) for k, v in options.items()})
        with self._lock:
            self._session = self._watched(session)
        self.changes.bump()
        return session

    def resume(self, game_id: int) -> Session:
        session = Session(self.store, game_id)
        with self._lock:
            self._session = self._watched(session)
        self.changes.bump()
        return session

    def archive(self, game_id: int, archived: bool = True) -> None:
        """A game out of the pages' list (or back in); KeyError for no such game."""
        self.store.archive(game_id, archived)
        self.changes.bump()

    def _watched(self, session: Session) -> Session:
        def changed(_: Change) -> None:
            if self._session is session:  # a game no longer on the table changes no page
                self.changes.bump()

        session.subscribe(changed)
        return session
