"""Stored games on the page: resume, archive, and the files to keep (our own, BG Stats)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from companion.games.registry import get_game
from companion.store import MIGRATIONS, Store, StoreError
from companion.table import Table
from companion.web import create_app


def finished_game(table: Table, seed: int) -> None:
    """A 2-player Am'harb game played to its end with random legal moves."""
    session = table.new_game("amharb", 2, {"seed": str(seed), "names": "Ana,Ben"})
    rng = random.Random(seed)
    while session.game.to_move(session.state) is not None:
        session.play(rng.choice(session.game.legal_moves(session.state)))


def test_an_archived_game_leaves_the_list_and_comes_back(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    table = Table(store)
    first = table.new_game("amharb", 2, {"names": "Ana,Ben"}).game_id
    table.new_game("amharb", 3, {"names": "Cy,Di,Ed"})
    client = create_app(store, table).test_client()
    page = client.get("/").data.decode()
    assert "(Ana,Ben)" in page and "(Cy,Di,Ed)" in page
    assert client.post("/api/command", json={"command": "archive", "game_id": first}).status_code == 200
    assert "(Ana,Ben)" not in client.get("/").data.decode()
    listed = {g["id"]: g["archived"] for g in client.get("/api/games").get_json()}
    assert listed[first] is True
    client.post("/api/command", json={"command": "archive", "game_id": first, "archived": False})
    assert "(Ana,Ben)" in client.get("/").data.decode()
    assert client.post("/api/command", json={"command": "archive", "game_id": 99}).status_code == 404
    assert client.post("/api/command", json={"command": "resume", "game_id": first}).status_code == 200
    assert table.session is not None and table.session.game_id == first


def test_the_game_file_replays_to_the_same_state(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    table = Table(store)
    finished_game(table, 4)
    session = table.session
    assert session is not None
    session.undo()
    session.redo()
    client = create_app(store, table).test_client()
    data = client.get(f"/api/games/{session.game_id}/export.json").get_json()
    assert data["format"] == "towers-companion-game/1" and data["setup"]["players"] == 2
    assert [e["action"] for e in data["journal"][-2:]] == ["undo", "redo"]
    game = get_game(data["game"])
    state = game.state_from_json(data["initial_state"])
    for move in data["moves"]:
        state = game.apply(state, game.parse_move(move))
    assert game.state_to_json(state) == data["state"] and data["score"]["final"]


def test_a_finished_game_is_a_bg_stats_play(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    table = Table(store)
    unfinished = table.new_game("amharb", 2, {}).game_id
    finished_game(table, 6)
    session = table.session
    assert session is not None
    client = create_app(store, table).test_client()
    assert client.get(f"/api/games/{unfinished}/bgstats.json").status_code == 409
    play = client.get(f"/api/games/{session.game_id}/bgstats.json").get_json()
    assert [p["name"] for p in play["players"]] == list(session.game.seat_names(session.state))
    sheet = session.game.score(session.state)
    (record,) = play["plays"]
    scores = {s["playerRefId"]: s for s in record["playerScores"]}
    for standing in sheet.standings:
        mine = scores[standing.seat + 1]
        assert mine["score"] == str(standing.total) and mine["winner"] == (standing.place == 1)
    assert play["games"] == [{"id": 1, "name": "Towers of Am'harb"}]


def test_a_data_directory_from_before_archiving_is_brought_up_to_date(tmp_path: Path) -> None:
    """Schema 1 (no `archived`): opened by this companion, its games are all there, none
    archived."""
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(MIGRATIONS[1])
    old.execute("INSERT INTO games (game, setup, initial_state, created) VALUES ('amharb', '{}', '{}', 1.0)")
    old.execute("PRAGMA user_version=1")
    old.commit()
    old.close()
    store = Store(path)
    (record,) = store.list_games()
    assert record.game == "amharb" and record.archived is False
    store.archive(record.id)
    assert store.list_games()[0].archived


def test_a_migration_cut_short_leaves_the_schema_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step of the migration fails after its first statement (as a power cut would stop
    it): nothing of it stays, the version stays, and the real migration then runs."""
    import companion.store

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(MIGRATIONS[1])
    old.execute("PRAGMA user_version=1")
    old.commit()
    old.close()
    broken = {
        **MIGRATIONS,
        2: "ALTER TABLE games ADD COLUMN archived INTEGER NOT NULL DEFAULT 0; SELECT * FROM nowhere;",
    }
    monkeypatch.setattr(companion.store, "MIGRATIONS", broken)
    with pytest.raises(StoreError):
        Store(path)
    check = sqlite3.connect(path)
    columns = [row[1] for row in check.execute("PRAGMA table_info(games)")]
    assert "archived" not in columns and check.execute("PRAGMA user_version").fetchone()[0] == 1
    check.close()
    monkeypatch.setattr(companion.store, "MIGRATIONS", MIGRATIONS)
    assert Store(path).list_games() == []
