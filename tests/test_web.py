"""The page and the JSON API, through Flask's test client."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.store import Store
from companion.web import create_app
from companion.web.commands import GAME_COMMANDS

NEW = {
    "command": "new",
    "game": "amharb",
    "players": 4,
    "options": {"names": "Ana,Ben,Carl,Dee", "cults": "nyog-sothep,hastur,cthulhu,yog-sothoth"},
}


@pytest.fixture
def client(store: Store) -> FlaskClient:
    return create_app(store).test_client()


def command(client: FlaskClient, body: Any) -> tuple[int, Any]:
    """Send a command as a phone showing the current game does: game commands name the game
    and, unless the test gives one, the state it shows."""
    if isinstance(body, dict) and body.get("command") in GAME_COMMANDS:
        shown = client.get("/api/state").get_json()
        game = shown["game"]["id"] if shown["game"] else None
        body = {"game_id": game, "state_id": shown["state_id"], **body}
    response = client.post("/api/command", json=body)
    return response.status_code, response.get_json()


def test_first_visit_offers_a_new_game(client: FlaskClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and b"New game" in page.data
    state = client.get("/api/state").get_json()
    assert state["game"] is None and state["state_id"] == 0
    assert state["camera"]["state"] == "none"  # built without devices
    assert b"No camera" in page.data


def test_play_through_the_api(client: FlaskClient) -> None:
    status, snap = command(client, NEW)
    assert status == 200 and snap["to_move_name"] == "Dee"  # Yog-Sothoth, cult 1, starts
    assert snap["moves"] == ["tower L1 D>A", "tower L1 D>B", "tower L1 D>C"]
    status, snap = command(client, {"command": "move", "move": "tower L1 D>C", "state_id": 0})
    assert status == 200 and snap["phase"] == "power" and snap["state_id"] == 1
    assert snap["moves"] == ["no power"]  # no resources yet
    status, snap = command(client, {"command": "undo", "state_id": 1})
    assert status == 200 and snap["phase"] == "tower" and snap["can_redo"]
    status, snap = command(client, {"command": "redo", "state_id": 2})
    assert status == 200 and snap["history"] == ["tower L1 D>C"]
    assert len(snap["score"]["sources"]) == 16 and snap["score"]["final"] is False


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"command": "dance"}, 400, "unknown command"),
        ({"command": "move"}, 400, "'move' must be"),
        ({"command": "move", "move": "tower L4 D>A"}, 409, "not the top disc"),
        ({"command": "move", "move": "walk"}, 400, "not an Am'harb move"),
        ({"command": "move", "move": "tower L1 D>C", "state_id": 7}, 409, "not 7"),
        ({"command": "move", "move": "tower L1 D>C", "state_id": "x"}, 400, "whole number"),
        ({"command": "undo"}, 409, "nothing to undo"),
        ({"command": "new", "game": "amharb", "players": 9}, 400, "2 to 4"),
        ({"command": "new", "game": "go", "players": 2}, 404, "unknown game"),
        ({"command": "resume", "game_id": 99}, 404, "no game 99"),
        ([1, 2], 400, "JSON object"),
    ],
)
def test_bad_commands_get_clear_answers(client: FlaskClient, body: Any, status: int, message: str) -> None:
    command(client, NEW)
    got, answer = command(client, body)
    assert got == status and message in answer["error"]
    assert client.get("/api/state").get_json()["state_id"] == 0


def test_illegal_move_names_its_rule(client: FlaskClient) -> None:
    command(client, NEW)
    _, answer = command(client, {"command": "move", "move": "priest e4"})
    assert "Round Overview" in answer["rule"]


def test_malformed_json_body(client: FlaskClient) -> None:
    response = client.post("/api/command", data="{oops", content_type="application/json")
    assert response.status_code == 400


def test_page_shows_board_moves_and_score(client: FlaskClient) -> None:
    command(client, NEW)
    page = client.get("/").data.decode()
    assert "Towers of Am&#39;harb" in page and "Dee</strong>: tower phase" in page
    assert page.count('class="space') == 64
    assert 'value="tower L1 D&gt;A"' in page
    assert "Scores if the game ended now" in page


def test_page_forms_play_and_report_errors(client: FlaskClient) -> None:
    response = client.post(
        "/command", data={"command": "new", "game": "amharb", "players": "2", "option.names": "Ana,Ben"}
    )
    assert response.status_code == 303
    response = client.post(
        "/command", data={"command": "move", "move": "tower L1 D>B", "state_id": "0", "game_id": "1"}
    )
    assert response.status_code == 303
    response = client.post(
        "/command", data={"command": "move", "move": "tower L1 D>B", "state_id": "0", "game_id": "1"}
    )
    assert response.status_code == 409 and b"not 0" in response.data


def test_version_and_games_list(client: FlaskClient) -> None:
    command(client, NEW)
    command(client, {"command": "move", "move": "tower L1 D>A"})
    version = client.get("/api/version").get_json()
    assert version["state_id"] == 1 and version["game_id"] == 1
    assert [g["id"] for g in client.get("/api/games").get_json()] == [1]
    assert client.get("/nope").status_code == 404


def test_a_game_without_a_drawn_board_shows_its_lines(client: FlaskClient) -> None:
    """Turris has no island: the page shows its describe() lines, its moves and its own options."""
    assert b'name="option.missions"' in client.get("/").data, "each game's own set-up options"
    status, snap = command(
        client,
        {"command": "new", "game": "turris", "players": 2, "options": {"names": "Ana,Ben", "first": "2"}},
    )
    assert status == 200 and snap["to_move"] == "chance"
    while snap["to_move"] == "chance":
        move = {"command": "move", "move": snap["moves"][0], "state_id": snap["state_id"]}
        status, snap = command(client, move)
    assert snap["to_move_name"] == "Ben" and "gather ichor" in snap["moves"]
    page = client.get("/").data.decode()
    assert "Round 1 · Action Step" in page and "Beasts: Pain in the A" in page
    assert "Scouts: 4 in reserve, 0 in the Graveyard" in page and "place Guild" in page


def test_a_cards_effect_is_adjusted_from_the_page(client: FlaskClient) -> None:
    """Turris's cards are not in the rulebook: the page offers `adjust CHANGE: WHY`, and the
    change is played like a move (refused with the rule when the rules forbid it)."""
    status, snap = command(
        client,
        {"command": "new", "game": "turris", "players": 2, "options": {"names": "Ana,Ben", "first": "1"}},
    )
    while snap["to_move"] == "chance":
        status, snap = command(
            client, {"command": "move", "move": snap["moves"][0], "state_id": snap["state_id"]}
        )
    page = client.get("/").data.decode()
    assert "A card changed something: adjust" in page and "adjust Alice +2K -1I +3P: Tactics card" in page
    form = {"command": "move", "move": "adjust Ana +2K: Tactics card", "state_id": str(snap["state_id"])}
    form["game_id"] = str(snap["game"]["id"])
    assert client.post("/command", data=form).status_code == 303
    assert "Resources: 3 I, 2 K, 0 R, 0 W" in client.get("/").data.decode()
    refused = {**form, "move": "adjust Ana -9K: oops", "state_id": str(snap["state_id"] + 1)}
    response = client.post("/command", data=refused)
    assert response.status_code == 409 and b"fewer than none" in response.data
    client.post("/command", data={"command": "new", "game": "amharb", "players": "2"})
    page = client.get("/").data.decode()
    assert "Towers of Am" in page and "A card changed something" not in page, "Am'harb has no cards to adjust"


@pytest.mark.parametrize("name", ["amharb", "arkhanos", "tower", "turris", "yuggoth"])
def test_every_game_has_a_page(client: FlaskClient, name: str) -> None:
    """Each registered game starts from the page and shows its table, moves and score sheet."""
    status, snap = command(client, {"command": "new", "game": name, "players": 2, "options": {}})
    assert status == 200, snap
    page = client.get("/")
    assert page.status_code == 200
    text = page.data.decode()
    assert "Scores if the game ended now" in text and html.escape(snap["moves"][0]) in text


def test_the_page_is_installable_and_never_colour_alone(tmp_path: Path) -> None:
    """A web app manifest (add to home screen), and pieces marked with their player's letter
    (two letters where first letters clash) beside their colour."""
    import json

    from companion.web.views import player_marks

    store = Store(tmp_path / "db.sqlite3")
    client = create_app(store).test_client()
    page = client.get("/").data.decode()
    assert 'rel="manifest"' in page
    manifest = json.loads(client.get("/static/manifest.webmanifest").data)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["icons"]
    assert client.get(manifest["icons"][0]["src"]).status_code == 200
    assert player_marks(["Pink", "Blue", "Green", "Yellow"]) == ["P", "B", "G", "Y"]
    assert player_marks(["Ana", "Alex", "Ben"]) == ["An", "Al", "B"]
    store.close()


def test_a_command_names_its_game_and_is_refused_for_another(client: FlaskClient) -> None:
    """Issue 19: a phone still showing game 1 after another phone started game 2 sends a move
    for game 1 at state 0: refused (409) with both games named, never played in game 2."""
    command(client, NEW)
    command(client, NEW)
    move = {"command": "move", "move": "tower L1 D>C", "state_id": 0}
    missing = client.post("/api/command", json=move)
    assert missing.status_code == 400 and "'game_id' is required" in missing.get_json()["error"]
    refused = client.post("/api/command", json={**move, "game_id": 1})
    assert refused.status_code == 409
    assert "game 1" in refused.get_json()["error"] and "game 2" in refused.get_json()["error"]
    assert client.get("/api/state").get_json()["history"] == []
    played = client.post("/api/command", json={**move, "game_id": 2}).get_json()
    assert played["game"]["id"] == 2 and played["history"] == ["tower L1 D>C"]


def test_two_writers_never_put_a_move_in_a_game_it_was_not_made_for(tmp_path: Path) -> None:
    """Issue 19: one phone starts new games while another plays moves in the game it last saw.
    Every move lands in the game it names, and every answer describes the game the command
    changed."""
    import threading

    from companion.table import Table

    store = Store(tmp_path / "companion.sqlite3")
    app = create_app(store, Table(store))
    app.config["TESTING"] = True
    starter, player = app.test_client(), app.test_client()
    player.post("/api/command", json=NEW)
    stop = threading.Event()

    def start_games() -> None:
        while not stop.is_set():
            starter.post("/api/command", json=NEW)

    thread = threading.Thread(target=start_games)
    thread.start()
    sent = 0
    acked: dict[int, list[str]] = {}
    try:
        for _ in range(150):
            shown = player.get("/api/state").get_json()
            if not shown["moves"]:
                continue
            body = {"command": "move", "move": shown["moves"][0], "state_id": shown["state_id"]}
            answer = player.post("/api/command", json={**body, "game_id": shown["game"]["id"]})
            sent += 1
            if answer.status_code == 200:
                acked.setdefault(shown["game"]["id"], []).append(body["move"])
                snap = answer.get_json()
                assert snap["game"]["id"] == shown["game"]["id"]
                assert snap["history"][: len(shown["history"]) + 1] == [*shown["history"], body["move"]]
            else:
                assert answer.status_code == 409, answer.get_json()
    finally:
        stop.set()
        thread.join()
    assert sent >= 100 and acked
    last = store.latest_game()
    assert last is not None
    for game_id in range(1, last.id + 1):  # each game holds exactly the moves made for it
        assert [e.move for e in store.events(game_id)] == acked.get(game_id, []), game_id
