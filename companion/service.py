"""The devices around the game: the camera watched in a thread, the panel's buttons and lights.

Built in one place by `Devices.start(settings, table)`, so a test can build it with fakes. The
camera never stops the page: if it is missing or unplugged, the page and the status LED say
so, and reading resumes by itself when it is back. The table loop (`table_loop.TableLoop`)
reads each new frame in a thread of its own, so neither the page nor the buttons ever wait
for vision. The panel: NEXT pairs a phone that asked to (within 30 s), else answers an open
question with its first candidate, or goes on without acting (`Game.next_button`); UNDO
undoes (hold: redo); READ reads the table now (hold: finds the board again). The status
LED says ready, attention (the table or a question waits on the players) or fault (the
camera); the phase LEDs and the beast LEDs (the Beast that acts now) follow the game.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.camera import CameraError, Frame, FrameSource, RecordingEnded, ReplaySource, choose_camera
from hardware.panel import ButtonEvent, Panel, load_pinmap, make_pin_factory

from .access import Access
from .inference import Ambiguous
from .session import NothingToUndo, StaleState
from .settings import CameraSettings, Settings
from .table import Table
from .table_loop import LoopState, TableLoop

log = logging.getLogger(__name__)

ALARM_S = 5.0
"""How long the status LED asks for attention after a game's alarm (the Watcher awakens)."""


@dataclass(frozen=True)
class CameraStatus:
    state: str
    """online, offline (it will be tried again), ended (a replay played once) or none."""
    source: str
    detail: str = ""
    frames: int = 0

    @property
    def label(self) -> str:
        """The page header's words (the page's script shows the same `label` from the API)."""
        if self.state == "online":
            return f"Camera: {self.source}, reading"
        if self.state == "ended":
            return f"Camera: {self.source} has ended"
        if self.state == "none":
            return "No camera: the game is kept by hand"
        return f"Camera offline: {self.detail or self.source}"

    def to_json(self) -> dict[str, object]:
        return {
            "state": self.state,
            "source": self.source,
            "detail": self.detail,
            "frames": self.frames,
            "label": self.label,
        }


class CameraWatch:
    """Reads frames in a thread of its own and keeps the latest one and the camera's status."""

    def __init__(
        self,
        source: FrameSource | None,
        on_change: Callable[[CameraStatus], None] = lambda status: None,
        timeout: float = 2.0,
        retry_s: float = 0.25,
    ) -> None:
        self.source, self.on_change, self.timeout, self.retry_s = source, on_change, timeout, retry_s
        name = source.name if source else "no camera"
        self._status = CameraStatus("offline" if source else "none", name, "starting" if source else "")
        self._latest: Frame | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._full = threading.Event()
        """Set while the table is still: the frames then come with a full-resolution still."""
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    @property
    def status(self) -> CameraStatus:
        return self._status

    def latest(self) -> Frame | None:
        with self._lock:
            return self._latest

    def want_full(self, wanted: bool) -> None:
        """Ask for (or stop asking for) the camera's full-resolution still with each frame:
        the table loop wants it while the table is still, and only then (it costs a copy of
        a large picture per frame)."""
        if wanted:
            self._full.set()
        else:
            self._full.clear()

    def start(self) -> CameraWatch:
        if self.source is not None:
            self._thread.start()
        else:  # no thread will ever report: say now where things stand
            self.on_change(self._status)
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=self.timeout + 1)

    def _set(self, status: CameraStatus) -> None:
        changed = (status.state, status.detail) != (self._status.state, self._status.detail)
        self._status = status
        if changed:
            log.info("camera: %s %s", status.state, status.detail)
            self.on_change(status)

    def _run(self) -> None:
        assert self.source is not None
        frames = 0
        with self.source:
            while not self._stop.is_set():
                try:
                    frame = self.source.read(self.timeout, full=self._full.is_set())
                except RecordingEnded as error:
                    self._set(CameraStatus("ended", self.source.name, str(error), frames))
                    return
                except Exception as error:  # CameraError, or the camera stack's own: never die silently
                    if not isinstance(error, CameraError):
                        log.exception("camera: unexpected error")
                    self._set(CameraStatus("offline", self.source.name, str(error), frames))
                    self._stop.wait(self.retry_s)
                    continue
                frames += 1
                with self._lock:
                    self._latest = frame
                self._set(CameraStatus("online", self.source.name, "", frames))


def camera_source(c: CameraSettings) -> FrameSource | None:
    """The frame source the [camera] settings ask for (`CameraError` for a bad replay)."""
    return choose_camera(
        c.backend,
        device=c.device,
        size=(c.width, c.height),
        fps=c.fps,
        focus_m=c.focus_m,
        full_size=(c.full_width, c.full_height) if c.full_width else None,
        replay=c.replay,
        replay_speed=c.replay_speed,
        loop=c.loop,
    )


class Devices:
    """The camera watch, the table loop and the panel of one running companion."""

    def __init__(
        self, camera: CameraWatch, panel: Panel | None, table: Table, data_dir: Path | None = None
    ) -> None:
        """`data_dir`: where the empty boards seen at calibration are kept."""
        self.camera, self.panel, self.table = camera, panel, table
        self.access: Access | None = None
        """Set by the server: NEXT pairs a phone that asked, before anything else."""
        self.loop = TableLoop(table, on_change=self._table_changed, data_dir=data_dir)
        self._stop = threading.Event()
        self._events = threading.Thread(target=self._consume, name="panel-events", daemon=True)
        self._reading = threading.Thread(target=self._watch_table, name="table-loop", daemon=True)
        self._shown_game: tuple[int | None, int] | None = None
        self._pairing_shown = False
        self._last_state: tuple[int, Any] | None = None
        """The game's state the lights last showed, to tell what changed (`Game.alarm`)."""
        self._alarm_until = 0.0
        self._lights = threading.Lock()

    @classmethod
    def start(cls, settings: Settings, table: Table, data_dir: Path | None = None) -> Devices:
        try:
            source = camera_source(settings.camera)
        except CameraError as error:
            log.error("camera: %s; running without one", error)
            source = None
        try:
            pinmap = load_pinmap(override=settings.panel.pinmap)
            panel: Panel | None = Panel(pinmap, make_pin_factory(settings.panel.pins))
        except Exception as error:  # a bad pin map, a pin in use, no GPIO access: the page still runs
            log.error("panel: %s; running without it", error)
            panel = None
        devices = cls(CameraWatch(None), panel, table, data_dir)
        devices.camera = CameraWatch(source, devices._camera_changed, timeout=settings.camera.timeout_s)
        if panel is not None:
            panel.show_status("working")  # before the camera can report, so its report stands
            devices._events.start()
        devices.camera.start()
        devices._reading.start()
        return devices

    def replayed_game(self) -> dict[str, Any] | None:
        """The set-up of the game a replayed camera shows (a `companion.demo` recording's
        "setup"), so the page can offer to start it; None for a real camera."""
        source = self.camera.source
        if not isinstance(source, ReplaySource):
            return None
        try:
            setup = json.loads((source.folder / "recording.json").read_text()).get("setup")
        except (OSError, ValueError):
            return None
        return setup if isinstance(setup, dict) else None

    def rewind_replay(self) -> None:
        """A replayed camera plays from its start again (the replayed game was just started)."""
        if isinstance(self.camera.source, ReplaySource):
            self.camera.source.rewind()

    def _watch_table(self) -> None:
        """Each new frame through the table loop; the lights follow the game's changes."""
        last = None
        while not self._stop.is_set():
            self._show_game()
            frame = self.camera.latest()
            if frame is None or frame is last:
                self._stop.wait(0.02)
                continue
            last = frame
            try:
                self.loop.see(frame.image, frame.full)
            except Exception:  # a bug in reading one frame must not stop the next
                log.exception("table: reading a frame failed")
            self.camera.want_full(self.loop.still)

    def _show_game(self) -> None:
        """The lights follow the game (the reading thread and the panel's both call this)."""
        with self._lights:
            self._show_game_now()

    def _show_game_now(self) -> None:
        waiting = self.access is not None and self.access.waiting()
        if waiting != self._pairing_shown:  # a request to pair came or lapsed
            self._pairing_shown = waiting
            self.show_status()
        if self._alarm_until and time.monotonic() >= self._alarm_until:
            self._alarm_until = 0.0
            self.show_status()
        session = self.table.session
        shown = (session.game_id, session.state_id) if session else (None, 0)
        if self.panel is None or shown == self._shown_game:
            return
        self._shown_game = shown
        if session is None:
            self.panel.show_phase(None)
            self.panel.show_beast(None)
            return
        state = session.state
        self.panel.show_phase(session.game.phase_step(state))
        self.panel.show_beast(session.game.beast(state))
        before, self._last_state = self._last_state, (session.game_id, state)
        why = session.game.alarm(before[1], state) if before and before[0] == session.game_id else None
        if why:  # the whole table must look up: a long beep and the status LED, for a while
            log.info("table: %s", why)
            self._alarm_until = time.monotonic() + ALARM_S
            self.panel.buzz(0.5)
            self.show_status()

    def _camera_changed(self, status: CameraStatus) -> None:
        self.show_status()
        self.table.changes.bump()

    def _table_changed(self, state: LoopState) -> None:
        self.show_status()
        self.table.changes.bump()

    def show_status(self) -> None:
        """Fault while the camera fails; working (a slow blink) while a phone waits for NEXT
        to pair it, so that NEXT is pressed knowing it; attention while the table waits on
        the players."""
        if self.panel is None:
            return
        # No camera at all is a table kept by hand: ready. Only a camera that fails is a fault.
        if self.camera.status.state not in ("online", "ended", "none"):
            self.panel.show_status("fault")
        elif self.access is not None and self.access.waiting():
            self.panel.show_status("working")
        elif self._alarm_until or self.loop.state.needs_people:
            self.panel.show_status("attention")
        else:
            self.panel.show_status("ready")

    def _consume(self) -> None:
        assert self.panel is not None
        while not self._stop.is_set():
            try:
                event = self.panel.events.get(timeout=0.2)
            except queue.Empty:
                continue
            try:
                self.handle(event)
            except Exception:  # a full or read-only card, say: the buttons keep working
                log.exception("panel: %s %s failed", event.button, event.action)
                if self.panel is not None:
                    self.panel.buzz(0.3)

    def handle(self, event: ButtonEvent) -> None:
        """What a button does (see the module's docstring); a press that can do nothing buzzes."""
        log.info("panel: %s %s", event.button, event.action)
        if event.button == "next" and self.access is not None and self.access.approve():
            log.info("panel: NEXT paired a phone")
            self.table.changes.bump()
            self.show_status()
            if self.panel is not None:
                self.panel.buzz(0.1)
            return
        if event.button == "read":
            self.loop.recalibrate() if event.action == "hold" else self.loop.read_now()
            return
        session = self.table.session
        if session is None:
            return self._refuse("no game yet")
        try:
            if event.button == "undo":
                session.redo() if event.action == "hold" else session.undo()
            elif event.button == "next":
                question = self.loop.state.question
                if isinstance(question, Ambiguous):
                    self.loop.choose(0, self.loop.state.state_id)
                    return
                move = session.game.next_button(session.state)
                if move is None:
                    return self._refuse("nothing for NEXT to do now: make a move at the table")
                session.play(move, session.state_id)
        except (NothingToUndo, StaleState) as error:
            self._refuse(str(error))
        finally:
            self._show_game()

    def _refuse(self, why: str) -> None:
        log.info("panel: %s", why)
        if self.panel is not None:
            self.panel.buzz(0.3)

    def stop(self) -> None:
        """Release the camera and the pins (on SIGTERM, so the next start finds them free)."""
        self._stop.set()
        self.camera.stop()
        for thread in (self._events, self._reading):
            if thread.is_alive():
                thread.join(timeout=2)
        if self.panel is not None:
            self.panel.close()
        log.info("devices: camera and pins released")
