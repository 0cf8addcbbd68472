"""Sessions: history, undo/redo, state_id, and a journal that replays exactly."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.games.base import BadMoveText, IllegalMove
from companion.session import Change, CorruptJournal, NothingToUndo, Session, StaleState
from companion.store import SCHEMA_VERSION, Store, StoreError

OPTIONS = {"names": "Ana,Ben,Carl,Dee", "cults": "cthulhu,hastur,yog-sothoth,cthugha"}


def new(store: Store) -> Session:
    return Session.start(store, "amharb", 4, OPTIONS)


def play_first_legal(session: Session, count: int) -> list[str]:
    played = []
    for _ in range(count):
        move = str(session.game.legal_moves(session.state)[0])
        session.play(move, session.state_id)
        played.append(move)
    return played


def test_moves_undo_redo_and_state_id(store: Store) -> None:
    s = new(store)
    start = s.state
    played = play_first_legal(s, 3)
    assert s.state_id == 3 and [str(m) for m in s.history] == played
    after_three = s.state
    s.undo(3)
    assert s.state_id == 4 and len(s.history) == 2 and s.can_redo
    s.redo(4)
    assert s.state == after_three and s.state_id == 5
    s.undo()
    s.undo()
    s.undo()
    assert s.state == start and not s.can_undo
    with pytest.raises(NothingToUndo):
        s.undo()
    # A new move after undo drops what could have been redone.
    play_first_legal(s, 1)
    assert not s.can_redo


def test_stale_state_id_is_refused_and_changes_nothing(store: Store) -> None:
    s = new(store)
    move = str(s.game.legal_moves(s.state)[0])
    s.play(move, 0)
    with pytest.raises(StaleState):
        s.play(str(s.game.legal_moves(s.state)[0]), 0)
    assert s.state_id == 1 and len(store.events(s.game_id)) == 1


def test_illegal_and_garbled_moves_are_not_journaled(store: Store) -> None:
    s = new(store)
    with pytest.raises(IllegalMove) as error:
        s.play("priest e4")  # a Disciple Phase move during the Tower Phase
    assert "Round Overview" in error.value.rule
    with pytest.raises(BadMoveText):
        s.play("jump around")
    assert s.state_id == 0 and store.events(s.game_id) == []


def test_reopened_session_is_exactly_where_it_was(store: Store, tmp_path: Path) -> None:
    s = new(store)
    play_first_legal(s, 5)
    s.undo()
    s.undo()
    s.redo()
    store.close()
    again = Store(tmp_path / "companion.sqlite3")
    resumed = Session(again, s.game_id)
    assert resumed.state == s.state
    assert resumed.state_id == s.state_id == 8
    assert resumed.history == s.history and resumed.can_redo == s.can_redo
    again.close()


def test_listeners_hear_every_change(store: Store) -> None:
    s = new(store)
    heard: list[Change] = []
    stop = s.subscribe(heard.append)
    play_first_legal(s, 1)
    s.undo()
    stop()
    s.redo()
    assert [(c.state_id, c.action) for c in heard] == [(1, "move"), (2, "undo")]


def test_failed_write_rolls_back_memory(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    s = new(store)
    play_first_legal(s, 1)
    before = s.state

    def broken(*args: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "append", broken)
    with pytest.raises(sqlite3.OperationalError):
        play_first_legal(s, 1)
    assert s.state == before and s.state_id == 1


def test_edited_journal_is_reported_not_replayed(store: Store, tmp_path: Path) -> None:
    s = new(store)
    play_first_legal(s, 2)
    db = sqlite3.connect(tmp_path / "companion.sqlite3")
    db.execute("UPDATE moves SET move = 'priest a1' WHERE state_id = 2")
    db.commit()
    db.close()
    with pytest.raises(CorruptJournal):
        Session(store, s.game_id)


def test_store_is_wal_full_sync_and_versioned(store: Store, tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "companion.sqlite3")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer"):
        Store(tmp_path / "companion.sqlite3")


def test_unusable_data_dir_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreError, match="cannot use"):
        Store(blocker / "companion.sqlite3")


def test_latest_game_is_the_one_last_played(store: Store) -> None:
    first = new(store)
    second = new(store)
    latest = store.latest_game()
    assert latest is not None and latest.id == second.game_id
    play_first_legal(first, 1)
    latest = store.latest_game()
    assert latest is not None and latest.id == first.game_id
