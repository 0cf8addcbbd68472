"""The web app: `create_app(store)` builds it; nothing lives at module level."""

from __future__ import annotations

from typing import Any

import cv2
from flask import Flask, Response, jsonify, redirect, render_template, request

from ..games.registry import games
from ..service import CameraStatus, Devices
from ..store import Store
from ..table import Table
from .commands import CommandError, run_command
from .views import page_view, snapshot


def create_app(store: Store, table: Table | None = None, devices: Devices | None = None) -> Flask:
    app = Flask(__name__)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    table = table or Table(store)
    app.extensions["table"] = table

    def camera() -> dict[str, Any]:
        return (devices.camera.status if devices else CameraStatus("none", "no camera")).to_json()

    @app.get("/")
    def index() -> str:
        return render_template("index.html", **page_view(table, games()), camera=camera())

    @app.get("/api/frame.jpg")
    def api_frame() -> Any:
        """The camera's latest frame (drawn detections come with the table loop)."""
        frame = devices.camera.latest() if devices else None
        if frame is None:
            return jsonify({"error": "no frame yet", "camera": camera()}), 503
        ok, data = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if not ok:
            return jsonify({"error": "the latest frame would not encode", "camera": camera()}), 500
        return Response(data.tobytes(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.post("/command")
    def command_form() -> Any:
        """The page's forms: same commands as the API, answered with the page (PRG on success)."""
        form = request.form.to_dict()
        options = {k[len("option.") :]: v for k, v in form.items() if k.startswith("option.") and v}
        try:
            run_command(table, {**form, "options": options})
        except CommandError as error:
            view = page_view(table, games(), error=error.message)
            return render_template("index.html", **view, camera=camera()), error.status
        return redirect("/", code=303)

    @app.get("/api/state")
    def api_state() -> Response:
        return jsonify({**snapshot(table), "camera": camera()})

    @app.get("/api/version")
    def api_version() -> Response:
        session = table.session
        return jsonify(
            {
                "game_id": session.game_id if session else None,
                "state_id": session.state_id if session else 0,
                "camera": camera(),
            }
        )

    @app.get("/api/games")
    def api_games() -> Response:
        return jsonify(
            [{"id": r.id, "game": r.game, "setup": r.setup, "created": r.created} for r in store.list_games()]
        )

    @app.post("/api/command")
    def api_command() -> tuple[Response, int]:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            return jsonify({"error": 'send a JSON object like {"command": "move", ...}'}), 400
        try:
            run_command(table, body)
        except CommandError as error:
            return jsonify({"error": error.message, "rule": error.rule}), error.status
        return jsonify(snapshot(table)), 200

    @app.errorhandler(404)
    def not_found(_: Exception) -> tuple[Response, int]:
        return jsonify({"error": "no such page"}), 404

    @app.errorhandler(405)
    def bad_method(_: Exception) -> tuple[Response, int]:
        return jsonify({"error": "method not allowed here"}), 405

    return app
