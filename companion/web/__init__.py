"""The web app: `create_app(store)` builds it; nothing lives at module level."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Generator, Iterator
from importlib import resources
from typing import Any, TypeVar

import cv2
from flask import Flask, Response, jsonify, redirect, render_template, request
from werkzeug.wrappers import Response as WerkzeugResponse

from hardware.camera import Frame
from vision.board import BoardCheck, check_board, draw_board_check
from vision.colours import hex_colour
from vision.pipeline import TableReader
from vision.profiles import Profile, ProfileError, builtin_profiles, load_profile
from vision.types import VisionError

from ..access import COOKIE, PAIRING_COOKIE, PAIRING_S, Access, Refused
from ..export import bgstats_json, game_json
from ..games.registry import games
from ..service import CameraStatus, Devices
from ..session import Session
from ..store import Store
from ..table import Table
from ..table_loop import LoopState
from .commands import CommandError, run_command
from .views import page_view, snapshot

R = TypeVar("R", bound=WerkzeugResponse)
"""A page's redirect or the API's JSON answer: both carry the pairing cookies."""
KEEP_ALIVE_S = 5.0
"""A comment this often keeps an idle stream open, and finds a closed one within seconds
(waitress learns that a phone went away only when it writes to it)."""
MAX_STREAMS = 72
"""Streams open at once; each holds a server thread (STREAM_THREADS = 96 leaves room for
the pages' other requests). Beyond it a page gets 503 and polls instead."""


NOT_PAIRED = (
    "this phone only looks: pair it to play from it (Pair, then NEXT on the panel within 30 s,"
    " or the table PIN)"
)
YEAR_S = 365 * 24 * 3600


class Stream:
    """An event stream that says when it is closed, even if it never started (the server
    closes the response when the phone goes away)."""

    def __init__(self, events: Generator[str, None, None], on_close: Callable[[], None]) -> None:
        self.events, self.on_close, self.closed = events, on_close, False

    def __iter__(self) -> Iterator[str]:
        return self.events

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.events.close()
            self.on_close()


def create_app(
    store: Store, table: Table | None = None, devices: Devices | None = None, access: Access | None = None
) -> Flask:
    """`access` None: every phone may change the game (tests, scripts); `companion serve`
    always passes one."""
    app = Flask(__name__)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    table = table or Table(store)
    app.extensions["table"] = table

    loop = devices.loop if devices else None
    streams, streams_lock = [0], threading.Lock()
    """How many event streams are open (one server thread each)."""

    def camera() -> dict[str, Any]:
        return (devices.camera.status if devices else CameraStatus("none", "no camera")).to_json()

    def reading() -> dict[str, Any] | None:
        """What the table loop makes of the table now (None: no camera reads this game)."""
        session = table.session
        if loop is None or session is None or session.game.sight is None:
            return None
        state = loop.state
        if state.game_id != session.game_id:  # another game's reading or question: not this one's
            state = LoopState("reading", "reading the table for this game", session.game_id, session.state_id)
        return state.to_json(session.game, session.state)

    def device() -> str | None:
        """This phone's token: its cookie, or a script's `Authorization: Bearer` header."""
        bearer = request.headers.get("Authorization", "")
        return (
            bearer.removeprefix("Bearer ").strip()
            if bearer.startswith("Bearer ")
            else request.cookies.get(COOKIE)
        )

    def may_change() -> bool:
        return access is None or access.paired(device())

    def pairing() -> str:
        """paired, waiting (for NEXT), or none."""
        if may_change():
            return "paired"
        return (
            "waiting"
            if access is not None and access.pending(request.cookies.get(PAIRING_COOKIE))
            else "none"
        )

    def page(error: str | None = None) -> dict[str, Any]:
        replayed = devices.replayed_game() if devices else None
        return {
            **page_view(table, games(), error=error),
            "camera": camera(),
            "reading": reading(),
            "replayed": replayed,
            "pairing": pairing(),
            "csrf": access.csrf(device()) if access else "",
        }

    def give_token(response: R, token: str) -> R:
        """This phone is paired: its token in an HttpOnly, same-site cookie."""
        response.set_cookie(COOKIE, token, max_age=10 * YEAR_S, httponly=True, samesite="Strict")
        return response

    def ask_to_pair(response: R) -> R:
        """This phone waits for NEXT: its request in a cookie for 30 s; pages and the status
        LED say so (`Refused` when another phone waits)."""
        asked = access.ask(request.cookies.get(PAIRING_COOKIE)) if access else ""
        response.set_cookie(PAIRING_COOKIE, asked, max_age=int(PAIRING_S), httponly=True, samesite="Strict")
        pairing_asked()
        return response

    def pairing_asked() -> None:
        """Pages and the status LED say that a phone waits for NEXT."""
        table.changes.bump()
        if devices is not None:
            devices.show_status()

    @app.after_request
    def hand_over_token(response: Response) -> Response:
        """A phone whose pairing NEXT approved gets its token with its next request."""
        if access is not None and PAIRING_COOKIE in request.cookies:
            token = access.collect(request.cookies[PAIRING_COOKIE])
            if token is not None:
                give_token(response, token).delete_cookie(PAIRING_COOKIE)
        return response

    @app.post("/pair")
    def pair_form() -> Any:
        """The page's Pair: with the PIN, paired at once; without, NEXT on the panel pairs."""
        if access is None:
            return redirect("/", code=303)
        pin = request.form.get("pin", "").strip()
        response = redirect("/", code=303)
        try:
            if not pin:
                return ask_to_pair(response)
            token = access.pair_with_pin(pin)
        except Refused as error:
            return render_template("index.html", **page(str(error))), 429
        if token is None:
            return render_template("index.html", **page("that is not the table PIN")), 403
        return give_token(response, token)

    @app.post("/api/pair")
    def api_pair() -> tuple[Response, int]:
        """`{"pin": "…"}`: `{"token": …}` to send as `Authorization: Bearer`; `{}`: a request
        NEXT on the panel approves (the token comes with the next request's cookie)."""
        if access is None:
            return jsonify({"paired": True}), 200
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            return jsonify({"error": 'send a JSON object: {"pin": "1234"}, or {} to wait for NEXT'}), 400
        try:
            if "pin" not in body:
                return ask_to_pair(jsonify({"waiting_s": PAIRING_S, "next": "press NEXT on the panel"})), 202
            token = access.pair_with_pin(str(body["pin"]))
        except Refused as error:
            return jsonify({"error": str(error)}), 429
        if token is None:
            return jsonify({"error": "that is not the table PIN"}), 403
        return give_token(jsonify({"token": token}), token), 200

    @app.get("/")
    def index() -> str:
        return render_template("index.html", **page())

    @app.get("/api/frame.jpg")
    def api_frame() -> Any:
        """The camera's latest frame; `?drawn=1`: with what the table loop last saw drawn on it."""
        image = latest_frame().image
        if request.args.get("drawn") and loop is not None:
            image = loop.drawn(image)
        return jpeg(image)

    def latest_frame() -> Frame:
        """The camera's latest frame (CommandError 503 while there is none)."""
        frame = devices.camera.latest() if devices else None
        if frame is None:
            raise CommandError(503, "no frame yet")
        return frame

    def jpeg(image: Any) -> Response:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if not ok:
            raise CommandError(500, "the picture would not encode")
        return Response(data.tobytes(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})

    def board_check() -> tuple[Any, Profile, BoardCheck]:
        """The latest frame, the profile to check it against (the current game's, or a
        built-in one named by `?profile=`), and what was found (CommandError 404: no such
        profile; 503: no frame yet)."""
        name = request.args.get("profile")
        session = table.session
        if not name and session is not None and session.game.sight is not None:
            name = session.game.sight.profile_name(session.state)
        if not name:
            raise CommandError(404, "no game is read from the table: name a board (?profile=amharb-4p)")
        if name not in builtin_profiles():
            raise CommandError(404, f"no board profile {name!r}: one of {', '.join(builtin_profiles())}")
        frame = latest_frame()
        profile = load_profile(name)
        return frame, profile, check_board(frame.image, profile)

    @app.get("/calibrate")
    def calibrate() -> Any:
        """Setting up the camera: the markers found, the regions where the board is, and
        what is missing."""
        query = f"?profile={request.args['profile']}" if request.args.get("profile") else ""
        try:
            message, status = board_check()[2].message, 200
        except CommandError as error:
            message, status = error.message, error.status
        return render_template("calibrate.html", message=message, camera=camera(), query=query), status

    @app.get("/api/board")
    def api_board() -> Any:
        check = board_check()[2]
        return jsonify(
            {
                "seen": list(check.seen),
                "missing": list(check.missing),
                "found": check.pose is not None,
                "message": check.message,
            }
        )

    @app.get("/api/board.jpg")
    def api_board_image() -> Any:
        frame, profile, check = board_check()
        return jpeg(draw_board_check(frame.image, check, profile))

    @app.post("/api/empty-board")
    def api_empty_board() -> Any:
        """The latest frame is the board with nothing on it: keep its look, so that its print
        (numerals, emblems, illustrated places) is never taken for a piece."""
        if not may_change():
            return jsonify({"error": NOT_PAIRED}), 403
        if loop is None:
            raise CommandError(503, "no camera: nothing to see the empty board with")
        frame, profile, check = board_check()
        if check.pose is None:
            raise CommandError(409, f"the board is not found: {check.message}")
        try:
            loop.keep_empty_board(frame.image, profile)
        except VisionError as error:
            raise CommandError(409, str(error)) from error
        return jsonify({"message": f"the empty {profile.name} board is kept: its print is not a piece"})

    @app.post("/api/teach")
    def api_teach() -> Any:
        """The latest frame shows every piece of one colour on the empty board: learn that
        colour (and the pieces' sizes); 409 with the reason when it cannot be told apart from
        a colour taught before (nothing is written then)."""
        if not may_change():
            return jsonify({"error": NOT_PAIRED}), 403
        body = request.get_json(silent=True)
        colour = body.get("colour") if isinstance(body, dict) else None
        if not isinstance(colour, str) or not colour.isalpha() or len(colour) > 20:
            return jsonify({"error": 'send {"colour": "red"}: the colour of the pieces on the board'}), 400
        if loop is None:
            raise CommandError(503, "no camera: nothing to see the pieces with")
        frame, profile, _ = board_check()
        try:
            lesson = loop.teach(frame.image, profile, colour.lower())
        except VisionError as error:
            raise CommandError(409, str(error)) from error
        learned = {name: hex_colour(bgr) for name, bgr in lesson.palette.colours}
        answer = {"colour": learned[colour.lower()], "sizes": dict(lesson.sizes)}
        if lesson.confusions:
            return jsonify({**answer, "error": "nothing learned: " + "; ".join(lesson.confusions)}), 409
        sizes = ", ".join(f"{kind} {width:g} mm" for kind, width in lesson.sizes)
        message = f"{colour.lower()} learned as your pieces look ({answer['colour']}); sizes: {sizes}"
        return jsonify({**answer, "message": message})

    @app.post("/api/teach-dice")
    def api_teach_dice() -> Any:
        """The latest frame shows the players' dice all showing one face (`{"value": 1}`): keep
        them as examples of it (a symbol on the 1, a style the networks never saw); or it shows
        the bare tray they roll in (`{"table": true}`, after a face): keep what the detector
        takes for a die there, so that it is no die. 409 with the reason."""
        if not may_change():
            return jsonify({"error": NOT_PAIRED}), 403
        body = request.get_json(silent=True)
        value = body.get("value") if isinstance(body, dict) else None
        bare = isinstance(body, dict) and body.get("table") is True and "value" not in body
        face = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6
        if bare == (face and "table" not in body):  # neither lesson, or both at once
            lessons = '{"value": 1} to 6 (the face all the dice show) or {"table": true} (no die in view)'
            return jsonify({"error": f"send {lessons}"}), 400
        if loop is None:
            raise CommandError(503, "no camera: nothing to see the dice with")
        frame = latest_frame()
        if bare:
            try:
                finds = loop.teach_bare_table(frame.image)
            except VisionError as error:
                raise CommandError(409, str(error)) from error
            what = "1 find" if finds == 1 else f"{finds} finds"
            message = f"the bare tray learned: {what} there will never be read as a die"
            return jsonify({"bare": finds, "message": message})
        try:
            taught, seen = loop.teach_dice(frame.image, value)
        except VisionError as error:
            raise CommandError(409, str(error)) from error
        dice = "1 die" if seen == 1 else f"{seen} dice"
        message = f"{value} learned from {dice} in view; faces taught: {', '.join(map(str, taught))}"
        return jsonify({"faces": list(taught), "dice": seen, "message": message})

    @app.errorhandler(CommandError)
    def refused(error: CommandError) -> tuple[Response, int]:
        """A route's refusal as the API's JSON error (pages answer their own)."""
        return jsonify({"error": error.message, "camera": camera()}), error.status

    @app.post("/command")
    def command_form() -> Any:
        """The page's forms: same commands as the API, answered with the page (PRG on success)."""
        form = request.form.to_dict()
        options = {k[len("option.") :]: v for k, v in form.items() if k.startswith("option.") and v}
        if not may_change():
            return render_template("index.html", **page(NOT_PAIRED)), 403
        if access is not None and not access.csrf_ok(device(), form.get("csrf")):
            return render_template("index.html", **page("that form is out of date: try again")), 403
        try:
            run_command(table, {**form, "options": options}, loop)
        except CommandError as error:
            return render_template("index.html", **page(error.message)), error.status
        if form.get("rewind") and devices is not None:  # the game the camera replays: from its start
            devices.rewind_replay()
        return redirect("/", code=303)

    @app.get("/api/state")
    def api_state() -> Response:
        return jsonify({**snapshot(table), "camera": camera(), "reading": reading()})

    def version(paired: str = "") -> dict[str, Any]:
        session = table.session
        return {
            "game_id": session.game_id if session else None,
            "state_id": session.state_id if session else 0,
            "camera": camera(),
            "reading": reading(),
            "pairing": paired,
        }

    @app.get("/api/version")
    def api_version() -> Response:
        return jsonify(version(pairing()))

    @app.get("/api/events")
    def api_events() -> Any:
        """Server-sent events: the `/api/version` snapshot now, then again after every change
        (coalesced), and a comment every KEEP_ALIVE_S so that proxies and phones keep the line
        open and a closed one is noticed."""

        asking = request.cookies.get(PAIRING_COOKIE)
        paired = pairing()
        with streams_lock:
            if streams[0] >= MAX_STREAMS:
                return jsonify({"error": "too many pages are following the game: this one polls"}), 503
            streams[0] += 1

        def release() -> None:  # the phone went away (or the server stops): its thread is free
            with streams_lock:
                streams[0] -= 1

        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return Response(
            Stream(events(asking, paired), release), mimetype="text/event-stream", headers=headers
        )

    def events(asking: str | None, paired: str) -> Generator[str, None, None]:
        seen = -1
        while True:
            now = table.changes.wait(seen, timeout=KEEP_ALIVE_S)
            if now == seen:
                yield ": still here\n\n"
                continue
            seen = now
            state = paired
            if access is not None and state == "waiting":  # NEXT pressed, or 30 s gone
                if access.approved(asking):
                    state = "approved"
                elif not access.pending(asking):
                    state = "none"
            yield f"id: {now}\nevent: version\ndata: {json.dumps(version(state))}\n\n"

    @app.get("/api/games")
    def api_games() -> Response:
        return jsonify(
            [
                {"id": r.id, "game": r.game, "setup": r.setup, "created": r.created, "archived": r.archived}
                for r in store.list_games()
            ]
        )

    def stored(game_id: int) -> Session:
        session = table.session
        if session is not None and session.game_id == game_id:
            return session
        try:
            return Session(store, game_id)
        except KeyError as error:
            raise CommandError(404, str(error.args[0])) from error

    def attachment(data: dict[str, Any], filename: str) -> Response:
        response = jsonify(data)
        response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    @app.get("/api/games/<int:game_id>/export.json")
    def api_export(game_id: int) -> Response:
        """The whole game to keep: set-up, first state, the journal, the score sheet."""
        return attachment(game_json(stored(game_id)), f"towers-game-{game_id}.json")

    @app.get("/api/games/<int:game_id>/bgstats.json")
    def api_bgstats(game_id: int) -> Response:
        """A finished game as a play BG Stats imports (409 while it is not over)."""
        try:
            data = bgstats_json(stored(game_id))
        except ValueError as error:
            raise CommandError(409, str(error)) from error
        return attachment(data, f"towers-game-{game_id}-bgstats.json")

    @app.post("/api/command")
    def api_command() -> tuple[Response, int]:
        if not may_change():
            return jsonify({"error": NOT_PAIRED}), 403
        body = request.get_json(silent=True)  # JSON only: a cross-site form cannot send it
        if not isinstance(body, dict):
            return jsonify({"error": 'send a JSON object like {"command": "move", ...}'}), 400
        try:
            changed = run_command(table, body, loop)
        except CommandError as error:
            return jsonify({"error": error.message, "rule": error.rule}), error.status
        return jsonify(snapshot(table, changed)), 200

    @app.get("/api/setup-from-camera")
    def api_setup_from_camera() -> Any:
        """Set-up options read from the table as laid out (Am'harb: the resource tile on each
        space), for the new-game form to fill in; "?" marks what was not read."""
        known = games()
        name = request.args.get("game", "")
        sight = known[name].sight if name in known else None
        try:
            players = int(request.args.get("players", ""))
        except ValueError:
            return jsonify({"error": "players: a whole number"}), 400
        wanted = sight.setup_profile(players) if sight is not None else None
        if sight is None or wanted is None:
            return jsonify({"error": f"the camera reads no set-up of {name!r}"}), 404
        try:
            profile = load_profile(wanted)
        except ProfileError:
            return jsonify({"error": "players: a player count this game's boards are made for"}), 400
        try:
            observation = TableReader(profile).read(latest_frame().image)
        except VisionError as error:
            return jsonify({"error": str(error)}), 409
        options = sight.setup_options(players, observation)
        unread = sum(value.count("?") for value in options.values())
        return jsonify({"options": options, "unread": unread})

    @app.get("/api/openapi.json")
    def api_openapi() -> Response:
        """The API's description (OpenAPI 3.1), checked against the app by the tests."""
        text = resources.files(__package__).joinpath("openapi.json").read_text()
        return Response(text, mimetype="application/json")

    @app.errorhandler(404)
    def not_found(_: Exception) -> tuple[Response, int]:
        return jsonify({"error": "no such page"}), 404

    @app.errorhandler(405)
    def bad_method(_: Exception) -> tuple[Response, int]:
        return jsonify({"error": "method not allowed here"}), 405

    return app
