"""The camera backends without a camera: a fake picamera2 that behaves like the real one
(configure/start/capture_array with a timeout, a stalled request that must be cancelled
before stop, no camera after the cable is pulled), a fake VideoCapture, and real replays."""

from __future__ import annotations

import json
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from hardware.camera import (
    CameraError,
    CameraOffline,
    CameraTimeout,
    OpenCVSource,
    PicameraSource,
    RecordingEnded,
    ReplaySource,
    choose_camera,
)

RECORDING = Path(__file__).resolve().parent / "recordings" / "amharb-2p"


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Rig:
    """The world the fake picamera2 sees: is the ribbon cable in, does the sensor stall."""

    plugged: bool = True
    stalled: bool = False
    autofocus: bool = True
    two_streams: bool = True
    """Whether the camera can run a lores stream beside a full-resolution main one."""
    opened: list[Any] = field(default_factory=list)
    released: int = 0


def fake_picamera2(rig: Rig) -> types.ModuleType:
    class Picamera2:
        @staticmethod
        def global_camera_info() -> list[dict[str, Any]]:
            return [{"Model": "imx708", "Num": 0}] if rig.plugged else []

        def __init__(self, camera_num: int = 0) -> None:
            if not rig.plugged:
                raise IndexError("list index out of range")  # what picamera2 raises with no camera
            self.config: dict[str, Any] | None = None
            self.started = self.closed = self.flushed = False
            self.pending = False
            self.camera_controls = (
                {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)} if rig.autofocus else {}
            )
            rig.opened.append(self)

        def create_video_configuration(self, main: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            return {"main": main, **kwargs}

        def configure(self, config: dict[str, Any]) -> None:
            assert not self.started, "picamera2 refuses to configure a running camera"
            assert config["main"]["format"] == "RGB888"
            if "lores" in config:
                assert config["lores"]["format"] == "YUV420", "a Pi 4's lores stream is YUV420 only"
                if not rig.two_streams:
                    raise RuntimeError("Failed to allocate buffers")
            self.config = config

        def capture_request(self, wait: float | None = None) -> Any:
            assert self.started and not self.closed
            assert wait is not None and wait > 0, "a capture without a timeout could block for ever"
            if rig.stalled or not rig.plugged:
                self.pending = True
                raise TimeoutError
            assert self.config is not None
            config = self.config

            class Request:
                def make_array(self, name: str) -> np.ndarray:
                    w, h = config[name]["size"]
                    if name == "main":  # a gradient, so a still is told from a frame
                        return np.broadcast_to(np.arange(w, dtype=np.uint8)[None, :, None], (h, w, 3)).copy()
                    stride = w + 64  # a padded row, as libcamera may give
                    yuv = np.full((h * 3 // 2, stride), 128, np.uint8)
                    yuv[:h] = 200  # light grey
                    return yuv

                def release(self) -> None:
                    rig.released += 1

            return Request()

        def start(self) -> None:
            assert self.config is not None, "picamera2 refuses to start unconfigured"
            self.started = True

        def capture_array(self, name: str = "main", wait: float | None = None) -> np.ndarray:
            assert self.started and not self.closed and name == "main"
            assert wait is not None and wait > 0, "a capture without a timeout could block for ever"
            if rig.stalled or not rig.plugged:
                self.pending = True
                raise TimeoutError
            assert self.config is not None
            w, h = self.config["main"]["size"]
            return np.full((h, w, 3), 7, np.uint8)

        def cancel_all_and_flush(self) -> None:
            self.pending, self.flushed = False, True

        def stop(self) -> None:
            if self.pending:
                raise RuntimeError("stop() would block on the timed-out request")
            self.started = False

        def close(self) -> None:
            self.closed = True

    module = types.ModuleType("picamera2")
    module.Picamera2 = Picamera2  # type: ignore[attr-defined]
    return module


@pytest.fixture
def rig(monkeypatch: pytest.MonkeyPatch) -> Rig:
    rig = Rig()
    monkeypatch.setitem(sys.modules, "picamera2", fake_picamera2(rig))
    return rig


def test_pi_camera_gives_bgr_frames_of_the_configured_size(rig: Rig) -> None:
    clock = FakeClock()
    with PicameraSource(size=(640, 480), clock=clock) as source:
        frame = source.read(timeout=1.0)
        assert frame.image.shape == (480, 640, 3) and frame.image.dtype == np.uint8
        assert frame.t == clock.now
    assert rig.opened[0].closed, "leaving the block releases the camera"


@pytest.mark.parametrize("autofocus", [True, False])
def test_focus_is_fixed_at_the_table_where_the_camera_has_autofocus(rig: Rig, autofocus: bool) -> None:
    rig.autofocus = autofocus
    with PicameraSource(focus_m=0.8, clock=FakeClock()) as source:
        source.read()
    controls = rig.opened[0].config["controls"]
    assert controls["FrameRate"] == 10.0
    if autofocus:
        assert controls["AfMode"] == 0 and controls["LensPosition"] == pytest.approx(1.25)
    else:
        assert "AfMode" not in controls, "a camera without autofocus would refuse the control"


def test_pi_camera_gives_a_full_resolution_still_only_when_asked(rig: Rig) -> None:
    """Two streams of one view: the frames small (lores, YUV420 turned to BGR, the row padding
    cut off), the full-resolution still copied only when asked, each request released."""
    with PicameraSource(size=(640, 480), full_size=(1280, 960), clock=FakeClock()) as source:
        plain = source.read(timeout=1.0)
        assert plain.image.shape == (480, 640, 3) and plain.full is None
        b, g, r = (int(v) for v in plain.image[5, 5])
        assert b == g == r == 214, "grey stays grey: video-range Y 200 is 214 in full-range BGR"
        asked = source.read(timeout=1.0, full=True)
        assert asked.image.shape == (480, 640, 3)
        assert asked.full is not None and asked.full.shape == (960, 1280, 3)
    assert rig.released == 2


def test_a_pi_camera_that_cannot_run_two_streams_runs_the_frames_alone(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    rig.two_streams = False
    with PicameraSource(size=(640, 480), full_size=(1280, 960), clock=FakeClock()) as source:
        frame = source.read(timeout=1.0, full=True)
    assert frame.image.shape == (480, 640, 3) and frame.full is None
    assert "no 1280x960 stills beside the frames" in caplog.text, "and it says so"


def test_replay_gives_a_frame_its_kept_still_when_asked(tmp_path: Path) -> None:
    """A recording keeps a full-resolution still beside a settled frame (its `full` file); a
    still that is missing or corrupt leaves the frame itself readable."""
    small = cv2.imencode(".png", np.zeros((24, 32, 3), np.uint8))[1].tobytes()
    large = cv2.imencode(".png", np.zeros((48, 64, 3), np.uint8))[1].tobytes()
    for name, data in (("a.png", small), ("a-full.png", large), ("b.png", small), ("b-full.png", b"broken")):
        (tmp_path / name).write_bytes(data)
    frames = [
        {"file": "a.png", "t": 0.0, "full": "a-full.png"},
        {"file": "b.png", "t": 0.1, "full": "b-full.png"},
    ]
    (tmp_path / "recording.json").write_text(json.dumps({"format": "table-recording/1", "frames": frames}))
    source = ReplaySource(tmp_path, speed=0, loop=True)
    assert source.read().full is None, "not asked for"
    assert source.read(full=True).full is None, "corrupt: the frame alone"
    kept = source.read(full=True).full
    assert kept is not None and kept.shape == (48, 64, 3)


def test_a_stalled_pi_camera_times_out_then_is_flushed_closed_and_reopened(rig: Rig) -> None:
    clock = FakeClock()
    with PicameraSource(clock=clock) as source:
        source.read()
        rig.stalled = True
        with pytest.raises(CameraTimeout, match="no frame in 1.5 s"):
            source.read(timeout=1.5)
        first = rig.opened[0]
        assert first.flushed and first.closed, "cancel_all_and_flush before stop, then close"
        with pytest.raises(CameraOffline, match="trying again every few seconds"):
            source.read()  # too soon: no hammering the camera stack
        rig.stalled = False
        clock.now += 0.5
        assert source.read().image.shape == (960, 1280, 3)
        assert len(rig.opened) == 2


def test_a_camera_that_stops_answering_is_retried_with_a_growing_pause(rig: Rig) -> None:
    """The pause grows to 10 s; a camera that answers again is read with no restart (a stalled
    sensor; on a real Pi a camera that libcamera no longer lists needs a restart, see the docs)."""
    clock = FakeClock()
    with PicameraSource(clock=clock) as source:
        source.read()
        rig.plugged = False
        with pytest.raises(CameraTimeout):
            source.read()
        pauses = []
        for _ in range(6):
            clock.now += source.backoff.wait_left()
            with pytest.raises(CameraOffline, match="not detected"):
                source.read()
            pauses.append(source.backoff.pause)
        assert pauses == [1.0, 2.0, 4.0, 8.0, 10.0, 10.0], "the pause doubles up to 10 s"
        rig.plugged = True
        clock.now += source.backoff.wait_left()
        assert source.read().image.size
        assert source.backoff.pause == 0.0


def test_a_pi_camera_missing_at_start_does_not_stop_the_service(rig: Rig) -> None:
    """The page says so and the source keeps trying (our fake lists it again once "plugged")."""
    rig.plugged = False
    clock = FakeClock()
    with PicameraSource(clock=clock) as source:  # no exception: the service starts anyway
        with pytest.raises(CameraOffline):
            source.read()
        rig.plugged = True
        clock.now += 10
        assert source.read().image.size


class FakeCapture:
    def __init__(self, frames: list[np.ndarray | None], opened: bool = True) -> None:
        self.frames, self.opened, self.released, self.settings = frames, opened, False, {}

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        image = self.frames.pop(0) if self.frames else None
        return image is not None, image

    def release(self) -> None:
        self.released = True


def test_usb_camera_reads_and_recovers_after_a_lost_frame() -> None:
    clock = FakeClock()
    made: list[FakeCapture] = []
    good = np.zeros((480, 640, 3), np.uint8)

    def capture(where: int | str) -> FakeCapture:
        made.append(FakeCapture([good, None] if not made else [good]))
        return made[-1]

    with OpenCVSource("/dev/video0", size=(640, 480), clock=clock, capture=capture) as source:
        assert source.read(timeout=0.5).image is good
        assert made[0].settings[cv2.CAP_PROP_FRAME_WIDTH] == 640
        with pytest.raises(CameraOffline, match="sent no frame"):
            source.read()
        assert made[0].released
        clock.now += 1
        assert source.read().image is good


def test_usb_camera_that_is_not_there() -> None:
    source = OpenCVSource(3, clock=FakeClock(), capture=lambda where: FakeCapture([], opened=False))
    with source, pytest.raises(CameraOffline, match="USB camera 3 is not connected"):
        source.read()


def test_replay_plays_at_the_recorded_pace_and_loops() -> None:
    clock = FakeClock()
    source = ReplaySource(RECORDING, clock=clock, sleep=clock.sleep)
    meta = json.loads((RECORDING / "recording.json").read_text())
    n = len(meta["frames"])
    start = clock.now
    times = [source.read(timeout=60).t for _ in range(n + 2)]
    recorded = [f["t"] - meta["frames"][0]["t"] for f in meta["frames"]]
    assert times[:n] == pytest.approx(recorded)
    assert times[n] > times[n - 1], "time keeps running through the loop"
    assert clock.now - start == pytest.approx(times[-1])


def test_replay_as_fast_as_asked_and_once() -> None:
    clock = FakeClock()
    source = ReplaySource(RECORDING, speed=0, loop=False, clock=clock, sleep=clock.sleep)
    frames = [source.read() for _ in range(len(source.frames))]
    assert clock.now == 100.0 and all(f.image.ndim == 3 for f in frames)
    with pytest.raises(RecordingEnded):
        source.read()


def test_replay_with_a_corrupt_frame_says_which_and_goes_on(tmp_path: Path) -> None:
    good = cv2.imencode(".png", np.zeros((32, 32, 3), np.uint8))[1].tobytes()
    (tmp_path / "a.png").write_bytes(good)
    (tmp_path / "b.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    (tmp_path / "c.png").write_bytes(good)
    frames = [{"file": name, "t": i * 0.1} for i, name in enumerate(["a.png", "b.jpg", "c.png"])]
    (tmp_path / "recording.json").write_text(json.dumps({"format": "table-recording/1", "frames": frames}))
    source = ReplaySource(tmp_path, speed=0, loop=False)
    assert source.read().t == 0
    with pytest.raises(CameraError, match="b.jpg is missing, corrupt"):
        source.read()
    assert source.read().t == pytest.approx(0.2)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "not a table-recording/1 recording"),
        ("{not json", "not a table-recording/1 recording"),
        ('{"format": "video/1", "frames": [{"file": "a", "t": 0}]}', "not 'table-recording/1'"),
        ('{"format": "table-recording/1", "frames": []}', "has no frames"),
    ],
)
def test_replay_refuses_what_is_not_a_recording(tmp_path: Path, content: str | None, message: str) -> None:
    if content is not None:
        (tmp_path / "recording.json").write_text(content)
    with pytest.raises(CameraError, match=message):
        ReplaySource(tmp_path)


def test_auto_is_the_pi_camera_where_picamera2_is_installed(rig: Rig) -> None:
    assert isinstance(choose_camera("auto", replay=RECORDING, picamera=lambda: True), PicameraSource)


def test_auto_and_picamera_fall_back_to_the_replay_and_say_so(caplog: pytest.LogCaptureFixture) -> None:
    for backend in ("auto", "picamera"):
        source = choose_camera(backend, replay=RECORDING, picamera=lambda: False)
        assert isinstance(source, ReplaySource)
    assert "picamera2 is not installed here; replaying" in caplog.text


def test_other_backends() -> None:
    assert choose_camera("none") is None
    assert isinstance(choose_camera("opencv", device=2), OpenCVSource)
    with pytest.raises(CameraError, match="not 'kinect'"):
        choose_camera("kinect")


def test_a_slow_replay_waits_for_its_frames_instead_of_timing_out() -> None:
    clock = FakeClock()
    source = ReplaySource(RECORDING, speed=0.25, clock=clock, sleep=clock.sleep)
    times = [source.read(timeout=0.5).t for _ in range(3)]
    assert times == sorted(times) and clock.now - 100.0 == pytest.approx(times[-1] / 0.25)
