"""The pages' event stream: a snapshot on connect, then one after every change, coalesced."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.events import Changes
from companion.store import Store
from companion.table import Table
from companion.web import create_app


def events(chunks: Iterator[bytes]) -> Iterator[dict[str, Any]]:
    """The `version` events of a text/event-stream, as dicts (comments skipped)."""
    buffer = ""
    for chunk in chunks:
        buffer += chunk.decode()
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            data = [line[6:] for line in block.splitlines() if line.startswith("data: ")]
            if data:
                yield json.loads("".join(data))


def test_changes_wake_every_waiter_and_time_out_without_one() -> None:
    changes = Changes()
    assert changes.wait(-1, timeout=0) == 0  # differs already: no wait
    start = time.monotonic()
    assert changes.wait(0, timeout=0.05) == 0 and time.monotonic() - start >= 0.05
    woken: list[int] = []
    waiters = [threading.Thread(target=lambda: woken.append(changes.wait(0, timeout=5))) for _ in range(5)]
    for w in waiters:
        w.start()
    time.sleep(0.05)
    changes.bump()
    for w in waiters:
        w.join(timeout=5)
    assert woken == [1] * 5


def test_a_page_hears_of_every_move_and_a_new_game(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    table = Table(store)
    session = table.new_game("amharb", 2, {"seed": "1"})
    client = create_app(store, table).test_client()
    response = client.get("/api/events", buffered=False)
    assert response.mimetype == "text/event-stream"
    stream = events(iter(response.response))
    assert next(stream)["state_id"] == 0  # the snapshot on connect
    session.play(session.game.legal_moves(session.state)[0])
    assert next(stream)["state_id"] == 1
    table.new_game("amharb", 3, {})
    fresh = next(stream)
    assert fresh["state_id"] == 0 and fresh["game_id"] == table.session.game_id  # type: ignore[union-attr]
    response.close()
    store.close()


def test_changes_faster_than_a_phone_reads_are_coalesced(tmp_path: Path) -> None:
    """Five moves while the phone is not reading: the next event says where the game is
    now (a phone that missed some catches up by state_id)."""
    store = Store(tmp_path / "db.sqlite3")
    table = Table(store)
    session = table.new_game("amharb", 2, {"seed": "1"})
    client = create_app(store, table).test_client()
    response = client.get("/api/events", buffered=False)
    stream = events(iter(response.response))
    assert next(stream)["state_id"] == 0
    for _ in range(5):
        session.play(session.game.legal_moves(session.state)[0])
    assert next(stream)["state_id"] == 5
    response.close()
    store.close()


def test_too_many_streams_are_refused_and_a_closed_one_frees_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each stream holds a server thread: beyond the limit a page gets 503 (and polls);
    a page that goes away gives its place back, even if it never read a byte."""
    import companion.web

    monkeypatch.setattr(companion.web, "MAX_STREAMS", 1)
    store = Store(tmp_path / "db.sqlite3")
    client = create_app(store, Table(store)).test_client()
    first = client.get("/api/events", buffered=False)
    assert first.status_code == 200
    assert client.get("/api/events", buffered=False).status_code == 503
    first.close()
    again = client.get("/api/events", buffered=False)
    assert again.status_code == 200
    again.close()
    store.close()
