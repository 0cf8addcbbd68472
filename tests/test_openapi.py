"""The API's OpenAPI description is a valid document, names every route the app has (and
no other), and the app's answers fit its schemas."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest
from flask.testing import FlaskClient
from openapi_spec_validator import validate

from companion.access import Access
from companion.service import CameraWatch, Devices
from companion.store import Store
from companion.table import Table
from companion.web import create_app


@pytest.fixture
def client(tmp_path: Path) -> FlaskClient:
    store = Store(tmp_path / "db.sqlite3")
    table = Table(store)
    devices = Devices(CameraWatch(None), None, table)
    access = Access(tmp_path / "access.json", "2468")
    return create_app(store, table, devices, access).test_client()


def spec(client: FlaskClient) -> dict[str, Any]:
    answer = client.get("/api/openapi.json")
    assert answer.status_code == 200
    document: dict[str, Any] = answer.get_json()
    return document


def fits(document: dict[str, Any], path: str, method: str, status: int, body: Any) -> None:
    """`body` against the schema the document gives for that answer."""
    answer = document["paths"][path][method]["responses"][str(status)]
    if "$ref" in answer:
        answer = document["components"]["responses"][answer["$ref"].rsplit("/", 1)[1]]
    schema = answer["content"]["application/json"]["schema"]
    jsonschema.validate(body, {**schema, "components": document["components"]})


def test_the_description_is_valid_openapi(client: FlaskClient) -> None:
    validate(spec(client))


def test_every_api_route_is_described_and_nothing_else(client: FlaskClient) -> None:
    app = client.application
    routes = {
        (rule.rule.replace("<int:game_id>", "{game_id}"), method.lower())
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    described = {(path, method) for path, item in spec(client)["paths"].items() for method in item}
    assert described == routes


def test_the_answers_fit_the_description(client: FlaskClient) -> None:
    document = spec(client)
    for path in ("/api/state", "/api/version", "/api/games"):
        fits(document, path, "get", 200, client.get(path).get_json())
    refused = client.post("/api/command", json={"command": "undo"})
    assert refused.status_code == 403
    fits(document, "/api/command", "post", 403, refused.get_json())
    paired = client.post("/api/pair", json={"pin": "2468"})
    fits(document, "/api/pair", "post", 200, paired.get_json())
    headers = {"Authorization": f"Bearer {paired.get_json()['token']}"}
    started = client.post(
        "/api/command", json={"command": "new", "game": "amharb", "players": 2}, headers=headers
    )
    fits(document, "/api/command", "post", 200, started.get_json())
    for path in ("/api/state", "/api/version", "/api/games"):
        fits(document, path, "get", 200, client.get(path).get_json())
    stale = client.post(
        "/api/command", json={"command": "undo", "state_id": 7, "game_id": 1}, headers=headers
    )
    assert stale.status_code == 409
    fits(document, "/api/command", "post", 409, stale.get_json())
    waiting = client.post("/api/pair", json={})
    fits(document, "/api/pair", "post", 202, waiting.get_json())
    exported = client.get("/api/games/1/export.json")
    fits(document, "/api/games/{game_id}/export.json", "get", 200, exported.get_json())
    unfinished = client.get("/api/games/1/bgstats.json")
    assert unfinished.status_code == 409
    fits(document, "/api/games/{game_id}/bgstats.json", "get", 409, unfinished.get_json())
    fits(
        document,
        "/api/games/{game_id}/export.json",
        "get",
        404,
        client.get("/api/games/9/export.json").get_json(),
    )
    no_frame = client.get("/api/board?profile=amharb-2p")
    fits(document, "/api/board", "get", 503, no_frame.get_json())
