"""SQLite persistence: games and their append-only move journal.

Every change is one committed row before it is acknowledged, in WAL mode with
synchronous=FULL, so a power cut loses nothing that a player was told happened.
Undo and redo are journal rows too: no move is ever updated or deleted (a game's
`archived` flag, which only hides it from the page's list, is the one thing that changes).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 3
MIGRATIONS = {
    1: """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            setup TEXT NOT NULL,
            initial_state TEXT NOT NULL,
            created REAL NOT NULL
        );
        CREATE TABLE moves (
            game_id INTEGER NOT NULL REFERENCES games(id),
            state_id INTEGER NOT NULL,
            action TEXT NOT NULL CHECK (action IN ('move', 'undo', 'redo')),
            move TEXT,
            created REAL NOT NULL,
            PRIMARY KEY (game_id, state_id)
        );
    """,
    2: """
        ALTER TABLE games ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
    """,
    3: """
        CREATE TABLE guesses (
            game_id INTEGER NOT NULL REFERENCES games(id),
            at INTEGER NOT NULL,
            taken TEXT NOT NULL,
            others TEXT NOT NULL,
            PRIMARY KEY (game_id, at)
        );
    """,
}


class StoreError(RuntimeError):
    """The data directory cannot be used (unwritable, corrupt, or from a newer version)."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    setup: dict[str, Any]
    initial_state: dict[str, Any]
    created: float
    archived: bool = False


@dataclass(frozen=True)
class Event:
    state_id: int
    action: str
    move: str | None


@dataclass(frozen=True)
class StoredGuess:
    at: int
    taken: list[str]
    others: list[list[str]]


class Store:
    """One SQLite file; safe to share between the web server's threads."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._lock = threading.Lock()
            self._migrate()
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot use {self.path}: {error}") from error

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has schema {version}, newer than this companion's {SCHEMA_VERSION}"
            )
        for step in range(version + 1, SCHEMA_VERSION + 1):
            # One script, one transaction: a power cut leaves the schema and its version
            # both before or both after the step (executescript would commit a BEGIN of ours).
            try:
                self._db.executescript(f"BEGIN; {MIGRATIONS[step]}; PRAGMA user_version={step}; COMMIT;")
            except sqlite3.Error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        self._db.close()

    def create_game(self, game: str, setup: dict[str, Any], initial_state: dict[str, Any]) -> int:
        with self._lock, self._db:
            cursor = self._db.execute(
                "INSERT INTO games (game, setup, initial_state, created) VALUES (?, ?, ?, ?)",
                (game, json.dumps(setup), json.dumps(initial_state), time.time()),
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    def append(self, game_id: int, state_id: int, action: str, move: str | None) -> None:
        """Journal one change; returns only once it is on disk."""
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO moves (game_id, state_id, action, move, created) VALUES (?, ?, ?, ?, ?)",
                (game_id, state_id, action, move, time.time()),
            )

    def keep_guesses(self, game_id: int, guesses: list[StoredGuess]) -> None:
        """The camera's standing choices for a game (table_loop.Guess, moves as their
        texts), all replaced at once: a power cut keeps them as the players left them."""
        with self._lock, self._db:
            self._db.execute("DELETE FROM guesses WHERE game_id = ?", (game_id,))
            self._db.executemany(
                "INSERT INTO guesses (game_id, at, taken, others) VALUES (?, ?, ?, ?)",
                [(game_id, g.at, json.dumps(g.taken), json.dumps(g.others)) for g in guesses],
            )

    def guesses(self, game_id: int) -> list[StoredGuess]:
        with self._lock:
            rows = self._db.execute(
                "SELECT at, taken, others FROM guesses WHERE game_id = ? ORDER BY at", (game_id,)
            ).fetchall()
        return [StoredGuess(at, json.loads(taken), json.loads(others)) for at, taken, others in rows]

    def events(self, game_id: int) -> list[Event]:
        with self._lock:
            rows = self._db.execute(
                "SELECT state_id, action, move FROM moves WHERE game_id = ? ORDER BY state_id",
                (game_id,),
            ).fetchall()
        return [Event(*row) for row in rows]

    def game(self, game_id: int) -> GameRecord | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, game, setup, initial_state, created, archived FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if row is None:
            return None
        return GameRecord(row[0], row[1], json.loads(row[2]), json.loads(row[3]), row[4], bool(row[5]))

    def archive(self, game_id: int, archived: bool = True) -> None:
        """Out of the page's list (or back in); the game and its journal stay."""
        with self._lock, self._db:
            changed = self._db.execute(
                "UPDATE games SET archived = ? WHERE id = ?", (int(archived), game_id)
            ).rowcount
        if not changed:
            raise KeyError(f"no game {game_id}")

    def latest_game(self) -> GameRecord | None:
        """The game most recently started or played: the one the table is playing."""
        with self._lock:
            row = self._db.execute(
                """SELECT g.id FROM games g LEFT JOIN moves m ON m.game_id = g.id
                   GROUP BY g.id ORDER BY MAX(COALESCE(m.created, g.created), g.created) DESC,
                   g.id DESC LIMIT 1"""
            ).fetchone()
        return None if row is None else self.game(row[0])

    def list_games(self) -> list[GameRecord]:
        with self._lock:
            ids = [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY id DESC")]
        return [record for i in ids if (record := self.game(i)) is not None]
