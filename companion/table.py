"""The game on the table: which session is current, and starting a new one."""

from __future__ import annotations

import threading
from typing import Any

from .session import Session
from .store import Store


class Table:
    """Holds the current `Session`; the web app and (later) the panel share one Table."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        latest = store.latest_game()
        self._session = Session(store, latest.id) if latest else None

    @property
    def session(self) -> Session | None:
        return self._session

    def new_game(self, game: str, players: int, options: dict[str, Any]) -> Session:
        """Start a game (BadSetup/KeyError for a bad setup); it becomes the current one."""
        session = Session.start(self.store, game, players, {k: str(v) for k, v in options.items()})
        with self._lock:
            self._session = session
        return session

    def resume(self, game_id: int) -> Session:
        session = Session(self.store, game_id)
        with self._lock:
            self._session = session
        return session
