"""The devices around the game: settings, the camera watch (offline and back without a restart,
the status LED and the page saying so), the panel's UNDO on the current game, `record`."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion.record import record
from companion.service import CameraStatus, CameraWatch, Devices
from companion.settings import Settings, SettingsError, load_settings
from companion.store import Store
from companion.table import Table
from companion.web import create_app
from hardware.camera import CameraError, CameraOffline, Frame, ReplaySource
from hardware.panel import ButtonEvent, Panel, load_pinmap

RECORDING = Path(__file__).resolve().parent / "recordings" / "amharb-2p"


class FlakySource:
    """A camera whose cable the test pulls and plugs back."""

    name = "flaky camera"

    def __init__(self) -> None:
        self.plugged = threading.Event()
        self.plugged.set()
        self.closed = False

    def __enter__(self) -> FlakySource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.closed = True

    def read(self, timeout: float = 2.0, full: bool = False) -> Frame:
        time.sleep(0.005)
        if not self.plugged.is_set():
            raise CameraOffline("flaky camera is not connected")
        return Frame(np.zeros((16, 16, 3), np.uint8), time.monotonic())


def wait_for(condition: Any, seconds: float = 5.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def test_settings_defaults_and_file(tmp_path: Path) -> None:
    assert load_settings(None) == Settings() == load_settings(tmp_path / "missing.toml")
    (tmp_path / "s.toml").write_text('[camera]\nbackend = "opencv"\ndevice = "/dev/video2"\nfps = 5\n')
    settings = load_settings(tmp_path / "s.toml")
    assert settings.camera.backend == "opencv" and settings.camera.device == "/dev/video2"


def test_settings_are_decoded_by_their_types(tmp_path: Path) -> None:
    """A whole number where a float is meant is that float; pin overrides stay a table."""
    (tmp_path / "s.toml").write_text("[camera]\nfps = 5\n[pinmap.buttons]\nnext = 20\n")
    settings = load_settings(tmp_path / "s.toml")
    assert settings.camera.fps == 5.0 and isinstance(settings.camera.fps, float)
    assert settings.panel.pinmap == {"buttons": {"next": 20}}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[camera]\nbackend = "kinect"', "backend is one of"),
        ("[camera]\nfps = 'fast'", "fps = 'fast': expected float"),
        ("[camera]\nloop = 1", "loop = 1: expected bool"),
        ("[camera]\nzoom = 2", "no setting 'zoom'"),
        ('[panel]\npins = "rpigpio"', "pins is one of"),
        ("[camera]\nfps = 0", "fps must be more than 0"),
        ("[camera]\ntimeout_s = -1.0", "timeout_s must be more than 0"),
        ("[camera]\nreplay_speed = -2", "replay_speed must be 0 or more"),
        ("[camera]\nfull_width = 1920\nfull_height = 1080", "a larger picture of the same shape"),
        ("[camera]\nfull_width = 640\nfull_height = 480", "a larger picture of the same shape"),
        ("[pinmap.buttons]\nnxt = 20", "no pin map entry buttons.nxt"),
        ("[pinmap.buttons]\nnext = 6", "GPIO6 is wired twice"),
        ("[wifi]\nssid = 'x'", "unknown section"),
        ("[camera", "cannot read the settings"),
        ("pinmap = 3", r"\[pinmap\] must be a table"),
        ("[panel]\npinmap = { buttons = { next = 6 } }", r"own \[pinmap\] section"),
    ],
)
def test_bad_settings_are_refused_with_the_reason(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "s.toml").write_text(text)
    with pytest.raises(SettingsError, match=message):
        load_settings(tmp_path / "s.toml")


def test_a_settings_file_the_user_named_must_exist(tmp_path: Path) -> None:
    """`--settings setings.toml` (a typo) is an error, not the defaults in silence."""
    with pytest.raises(SettingsError, match="no settings file"):
        load_settings(tmp_path / "setings.toml", required=True)


def test_camera_goes_offline_and_comes_back_without_a_restart(tmp_path: Path) -> None:
    source = FlakySource()
    seen: list[str] = []
    watch = CameraWatch(source, lambda s: seen.append(s.state), retry_s=0.01).start()
    try:
        wait_for(lambda: watch.status.state == "online")
        source.plugged.clear()
        wait_for(lambda: watch.status.state == "offline")
        assert "not connected" in watch.status.detail
        source.plugged.set()
        wait_for(lambda: watch.status.state == "online")
        assert watch.latest() is not None
    finally:
        watch.stop()
    assert seen == ["online", "offline", "online"] and source.closed


def test_status_led_and_page_follow_the_camera(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    table = Table(store)
    factory = MockFactory()
    panel = Panel(load_pinmap(), factory, ticking=False)
    devices = Devices(CameraWatch(None), panel, table)
    source = FlakySource()
    devices.camera = CameraWatch(source, devices._camera_changed, retry_s=0.01).start()
    client = create_app(store, table, devices).test_client()
    try:
        wait_for(lambda: panel.status == "ready")
        assert client.get("/api/version").get_json()["camera"]["state"] == "online"
        assert client.get("/api/frame.jpg").mimetype == "image/jpeg"
        source.plugged.clear()
        wait_for(lambda: panel.status == "fault")
        page = client.get("/").data.decode()
        assert "Camera offline: flaky camera is not connected" in page
        source.plugged.set()
        wait_for(lambda: panel.status == "ready")
    finally:
        devices.stop()
        store.close()


def test_no_frame_yet_is_a_clear_503(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    client = create_app(store).test_client()
    response = client.get("/api/frame.jpg")
    assert response.status_code == 503 and response.get_json()["error"] == "no frame yet"
    store.close()


def test_undo_button_undoes_and_holding_it_redoes(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    table = Table(store)
    session = table.new_game("amharb", 2, {})
    session.play(session.game.legal_moves(session.state)[0])
    devices = Devices(CameraWatch(None), None, table)
    devices.handle(ButtonEvent("undo", "press", 0.0))
    assert not session.history and session.can_redo
    devices.handle(ButtonEvent("undo", "hold", 1.0))
    assert len(session.history) == 1
    devices.handle(ButtonEvent("undo", "hold", 2.0))  # nothing to redo: logged, no crash
    assert len(session.history) == 1
    store.close()


def test_devices_start_on_the_embedded_defaults(tmp_path: Path) -> None:
    """What `make run` does off a Pi: the replayed recording and mock pins."""
    store = Store(tmp_path / "db.sqlite3")
    settings = load_settings(None)
    settings = Settings(
        camera=type(settings.camera)(backend="replay", replay=str(RECORDING), replay_speed=0),
        panel=type(settings.panel)(pins="mock"),
    )
    devices = Devices.start(settings, Table(store))
    try:
        wait_for(lambda: devices.camera.status.state == "online")
        assert devices.camera.status.source == "replay of amharb-2p"
        assert devices.panel is not None
        wait_for(lambda: devices.panel is not None and devices.panel.status == "ready")
    finally:
        devices.stop()
        store.close()


def test_a_replay_that_is_not_there_runs_without_a_camera(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    settings = Settings(
        camera=type(Settings().camera)(backend="replay", replay=str(tmp_path / "gone")),
        panel=type(Settings().panel)(pins="mock"),
    )
    devices = Devices.start(settings, Table(store))
    try:
        assert devices.camera.status == CameraStatus("none", "no camera")
        assert devices.panel is not None and devices.panel.status == "ready"  # not "working" forever
    finally:
        devices.stop()
        store.close()


def test_record_writes_a_recording_that_replays(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    lines: list[str] = []
    kept = record(ReplaySource(RECORDING, speed=0), out, seconds=0.5, fps=1000, log=lines.append)
    meta = json.loads((out / "recording.json").read_text())
    assert meta["format"] == "table-recording/1" and len(meta["frames"]) == kept > 3
    assert all("truth" not in f for f in meta["frames"]) and meta["camera"]["width"] == 1280
    replay = ReplaySource(out, speed=0, loop=False)
    assert replay.read().image.shape == (960, 1280, 3)


def test_record_refuses_a_folder_with_files_in_it(tmp_path: Path) -> None:
    (tmp_path / "old.jpg").write_bytes(b"x")
    with pytest.raises(CameraError, match="not empty"):
        record(ReplaySource(RECORDING, speed=0), tmp_path, seconds=0.1)


def test_record_skips_what_the_camera_fails_to_give(tmp_path: Path) -> None:
    source = FlakySource()
    source.plugged.clear()
    lines: list[str] = []
    assert record(source, tmp_path / "r", seconds=0.2, log=lines.append, sleep=lambda s: None) == 0
    assert lines and lines[0].startswith("skipped: flaky camera is not connected")
    assert len(lines) == 1  # failing every read for 0.2 s, said once: the log is not flooded


def test_sigterm_stops_the_server_cleanly(tmp_path: Path) -> None:
    """systemd stops the service with SIGTERM: it must exit 0, releasing camera and pins."""
    import signal
    import subprocess
    import sys

    (tmp_path / "settings.toml").write_text(f'[camera]\nbackend = "replay"\nreplay = "{RECORDING}"\n')
    server = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--port", "0", "--data-dir", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert server.stdout is not None
    lines = []
    for line in server.stdout:
        lines.append(line)
        if "Serving on" in line:
            break
    server.send_signal(signal.SIGTERM)
    out, _ = server.communicate(timeout=10)
    assert server.returncode == 0, "".join(lines) + out
    assert "camera: online" in "".join(lines) + out
    assert "devices: camera and pins released" in out


class BrokenSource(FlakySource):
    """The camera stack raising something that is not a CameraError (a driver's RuntimeError)."""

    def __init__(self) -> None:
        super().__init__()
        self.failures = 2

    def read(self, timeout: float = 2.0, full: bool = False) -> Frame:
        if self.failures:
            self.failures -= 1
            raise RuntimeError("Device or resource busy")
        return super().read(timeout)


def test_an_unexpected_camera_error_is_offline_not_a_dead_thread() -> None:
    seen: list[str] = []
    watch = CameraWatch(BrokenSource(), lambda s: seen.append(s.state), retry_s=0.01).start()
    try:
        wait_for(lambda: watch.status.state == "online")
    finally:
        watch.stop()
    assert seen == ["offline", "online"]


def test_a_failing_button_action_does_not_kill_the_buttons(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    factory = MockFactory()
    panel = Panel(load_pinmap(), factory, tick_s=0.005)
    devices = Devices(CameraWatch(None), panel, Table(store))
    handled: list[ButtonEvent] = []

    def handle(event: ButtonEvent) -> None:
        handled.append(event)
        if len(handled) == 1:
            raise OSError("disk full")

    devices.handle = handle  # type: ignore[method-assign]
    devices._events.start()
    try:
        for presses in (1, 2):
            factory.pin(5).drive_low()
            wait_for(lambda presses=presses: len(handled) >= presses)
            factory.pin(5).drive_high()
            time.sleep(0.1)
        assert [e.button for e in handled] == ["next", "next"]
    finally:
        devices.stop()
        store.close()


def test_a_pin_in_use_runs_the_companion_without_its_panel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gpiozero import LED

    import companion.service as service

    factory = MockFactory()
    blocker = LED(5, pin_factory=factory)
    monkeypatch.setattr(service, "make_pin_factory", lambda name: factory)
    store = Store(tmp_path / "db.sqlite3")
    devices = Devices.start(Settings(camera=type(Settings().camera)(backend="none")), Table(store))
    try:
        assert devices.panel is None and devices.camera.status.state == "none"
    finally:
        devices.stop()
        store.close()
        blocker.close()


class TickingSource(FlakySource):
    """A 10 fps camera with a little jitter, on a fake clock."""

    def __init__(self, clock: list[float]) -> None:
        super().__init__()
        self.clock, self.n = clock, 0

    def read(self, timeout: float = 2.0, full: bool = False) -> Frame:
        self.n += 1
        self.clock[0] = self.n * 0.1 + (0.003 if self.n % 2 else -0.003)
        return Frame(np.zeros((16, 16, 3), np.uint8), self.clock[0])


def test_record_keeps_the_rate_asked_for(tmp_path: Path) -> None:
    now = [0.0]
    kept = record(TickingSource(now), tmp_path / "r", seconds=60, fps=5, clock=lambda: now[0])
    assert 298 <= kept <= 301


class SettlingSource(FlakySource):
    """A camera over a table where a hand moves for three frames, then nothing for five, again
    and again; it gives a full-resolution still when asked and notes each ask."""

    def __init__(self, clock: list[float]) -> None:
        super().__init__()
        self.clock, self.n, self.asked = clock, 0, []

    def read(self, timeout: float = 2.0, full: bool = False) -> Frame:
        self.n += 1
        self.clock[0] = self.n * 0.1
        self.asked.append(full)
        image = np.zeros((48, 64, 3), np.uint8)
        if self.n % 8 < 3:  # the hand
            image[:, : 8 * (self.n % 8 + 1)] = 255
        return Frame(image, self.clock[0], np.zeros((96, 128, 3), np.uint8) if full else None)


def test_record_keeps_one_full_resolution_still_per_rest(tmp_path: Path) -> None:
    """Each time the table comes to rest the recording keeps the camera's full-resolution
    still of one still frame (the recording format's `full`), not one per frame."""
    now = [0.0]
    source = SettlingSource(now)
    kept = record(source, tmp_path / "r", seconds=3.95, fps=10, clock=lambda: now[0])
    frames = json.loads((tmp_path / "r" / "recording.json").read_text())["frames"]
    with_still = [f for f in frames if "full" in f]
    assert kept == len(frames) == 40 and len(with_still) == 5, [f["file"] for f in with_still]  # 5 rests
    assert all((tmp_path / "r" / f["full"]).is_file() for f in with_still)
    assert cv2.imread(str(tmp_path / "r" / with_still[0]["full"])).shape == (96, 128, 3)
    assert sum(source.asked) == 5, "asked once per rest"


def test_record_stops_at_the_end_of_a_replay(tmp_path: Path) -> None:
    kept = record(ReplaySource(RECORDING, speed=0, loop=False), tmp_path / "r", seconds=30, fps=1000)
    assert kept == len(ReplaySource(RECORDING).frames)


def test_record_waits_for_each_frame_as_long_as_the_settings_say(tmp_path: Path) -> None:
    """[camera] timeout_s reaches the camera when recording, as it does in the table loop."""
    asked: list[float] = []

    class Timed(ReplaySource):
        def read(self, timeout: float = 2.0, full: bool = False) -> Frame:
            asked.append(timeout)
            return super().read(timeout)

    record(Timed(RECORDING, speed=0, loop=False), tmp_path / "r", seconds=30, fps=1000, timeout=7.5)
    assert asked and set(asked) == {7.5}
