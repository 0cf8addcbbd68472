"""Where frames come from: the Pi camera, a USB webcam, or a recording played back.

Every source is a `FrameSource`: a context manager whose `read(timeout)` returns the next
`Frame` or raises a `CameraError` saying what is wrong. `read(timeout, full=True)` asks for the
same moment at the camera's full resolution too (`Frame.full`), where the source has one: the
table loop asks once the table is still, to read small dice from real pixels.

A source that loses its camera keeps trying to get it back (with a growing pause between
tries): a stalled Pi camera is closed and reopened, and a USB webcam pulled out and plugged
back in is read again, with no restart. (The Pi's camera connector is not made for plugging
while powered, and libcamera lists the cameras once per process: a Pi camera that is not
detected needs the power off and a restart.)
`picamera2` is imported only in `PicameraSource`.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, Self

import cv2
import numpy as np

from vision.types import RECORDING_FORMAT

log = logging.getLogger(__name__)


class CameraError(Exception):
    """The camera gave no frame; the message says why, for the page and the log."""


class CameraTimeout(CameraError):
    """No frame came within the timeout (a stalled or unplugged camera)."""


class CameraOffline(CameraError):
    """There is no camera to read from just now; the source will try again by itself."""


class RecordingEnded(CameraError):
    """A recording played once (loop off) has no more frames."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    """BGR uint8, as vision reads it."""
    t: float
    """Seconds: a monotonic clock for cameras, the recording's own time for a replay."""
    full: np.ndarray | None = None
    """The same moment at the camera's full resolution (the same view, more pixels), BGR,
    when it was asked for and the source has one."""


class FrameSource(Protocol):
    name: str

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...

    def read(self, timeout: float = 2.0, full: bool = False) -> Frame: ...


class Backoff:
    """When to try a lost camera again: 0.5 s after the loss, doubling up to 10 s."""

    def __init__(self, clock: Callable[[], float], first: float = 0.5, longest: float = 10.0) -> None:
        self.clock, self.first, self.longest = clock, first, longest
        self.pause = 0.0
        self.next_try = 0.0

    def failed(self) -> None:
        self.pause = min(self.longest, self.pause * 2 if self.pause else self.first)
        self.next_try = self.clock() + self.pause

    def succeeded(self) -> None:
        self.pause, self.next_try = 0.0, 0.0

    def wait_left(self) -> float:
        return max(0.0, self.next_try - self.clock())


class _Reconnecting:
    """The part every live camera shares: open on demand, close after a fault, try again later."""

    name = "camera"

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.backoff = Backoff(clock)
        self.device: Any = None
        self.last_error = ""
        """Why the camera was lost: said again while waiting to retry."""

    def __enter__(self) -> Self:
        try:
            self._ensure_open()
        except CameraError as error:  # an unplugged camera at start: report it, keep trying
            log.warning("camera: %s", error)
        return self

    def __exit__(self, *exc: object) -> None:
        self._close()

    def _ensure_open(self) -> None:
        if self.device is not None:
            return
        left = self.backoff.wait_left()
        if left > 0:
            raise CameraOffline(f"{self.last_error}; trying again every few seconds")
        try:
            self.device = self._open()
        except Exception as error:  # ours, or the camera stack's own (RuntimeError, OSError, ...)
            self.backoff.failed()
            ours = isinstance(error, CameraError)
            self.last_error = str(error) if ours else f"{self.name} could not be opened: {error}"
            raise CameraOffline(f"{self.last_error}; trying again every few seconds") from error
        log.info("%s: opened", self.name)

    def _fault(self, error: CameraError) -> CameraError:
        """Let go of the device after a failed read; the next `read` opens it again."""
        log.warning("camera: %s; closing it and trying again", error)
        self._close(fault=True)
        self.backoff.failed()
        self.last_error = str(error)
        return error

    def read(self, timeout: float = 2.0, full: bool = False) -> Frame:
        self._ensure_open()
        frame = self._capture(timeout, full)
        self.backoff.succeeded()
        return frame

    def _open(self) -> Any:
        raise NotImplementedError

    def _capture(self, timeout: float, full: bool) -> Frame:
        raise NotImplementedError

    def _close(self, fault: bool = False) -> None:
        raise NotImplementedError


class PicameraSource(_Reconnecting):
    """A Raspberry Pi camera module through picamera2 (libcamera).

    With a `full_size` larger than `size`, the camera runs two streams of one view: the frames
    at `size` (the "lores" stream, YUV420, turned into BGR) and the full-resolution "main"
    stream, copied out only when a frame is read with `full=True`. A camera or Pi that cannot
    run both (memory, an older libcamera) runs the frames alone, and says so in the log."""

    def __init__(
        self,
        size: tuple[int, int] = (1280, 960),
        fps: float = 10.0,
        camera_num: int = 0,
        focus_m: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        full_size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(clock)
        self.size, self.fps, self.camera_num, self.focus_m = size, fps, camera_num, focus_m
        self.full_size = full_size if full_size and full_size[0] > size[0] else None
        self.name = f"Pi camera {camera_num}"
        self.two_streams = False
        """Whether the open camera runs the full-resolution stream beside the frames."""

    def _open(self) -> Any:
        from picamera2 import Picamera2  # only here: it exists only on a Pi

        if len(Picamera2.global_camera_info()) <= self.camera_num:
            raise CameraOffline(
                f"{self.name} is not detected: with the power off, check the ribbon cable, then restart"
            )
        camera = Picamera2(self.camera_num)
        try:
            # One main stream in the pixel order OpenCV uses ("RGB888" is stored B, G, R);
            # stillness is judged on a 160 px copy of it, so no second stream is needed.
            controls: dict[str, Any] = {"FrameRate": self.fps}
            if self.focus_m > 0 and "AfMode" in camera.camera_controls:
                # Fixed focus at the table: hands over the board must not make autofocus hunt.
                controls |= {"AfMode": 0, "LensPosition": 1 / self.focus_m}  # 0: AfModeEnum.Manual
            self.two_streams = False
            if self.full_size is not None:
                try:  # the lores stream can only be YUV420 on a Pi 4
                    camera.configure(
                        camera.create_video_configuration(
                            main={"size": self.full_size, "format": "RGB888"},
                            lores={"size": self.size, "format": "YUV420"},
                            buffer_count=4,
                            controls=controls,
                        )
                    )
                    camera.start()
                    self.two_streams = True
                except Exception as error:  # not enough camera memory, an older libcamera
                    w, h = self.full_size
                    log.warning("%s: no %dx%d stills beside the frames (%s)", self.name, w, h, error)
                    camera.stop()
            if not self.two_streams:
                camera.configure(
                    camera.create_video_configuration(
                        main={"size": self.size, "format": "RGB888"}, buffer_count=4, controls=controls
                    )
                )
                camera.start()
        except Exception:
            camera.close()
            raise
        return camera

    def _capture(self, timeout: float, full: bool) -> Frame:
        try:
            if not self.two_streams:
                image = self.device.capture_array("main", wait=timeout)
                return Frame(np.ascontiguousarray(image[:, :, :3]), self.clock())
            request = self.device.capture_request(wait=timeout)
            try:
                # YUV420 rows may be padded to a stride wider than the frame: convert, then cut.
                small = cv2.cvtColor(request.make_array("lores"), cv2.COLOR_YUV2BGR_I420)[:, : self.size[0]]
                still = np.ascontiguousarray(request.make_array("main")[:, :, :3]) if full else None
            finally:
                request.release()  # at once: the camera has only four buffers
        except TimeoutError as error:
            raise self._fault(CameraTimeout(f"{self.name} sent no frame in {timeout:g} s")) from error
        except Exception as error:
            raise self._fault(CameraOffline(f"{self.name} failed: {error}")) from error
        return Frame(np.ascontiguousarray(small), self.clock(), still)

    def _close(self, fault: bool = False) -> None:
        camera, self.device = self.device, None
        if camera is None:
            return
        try:
            if fault:
                camera.cancel_all_and_flush()  # a timed-out request would block stop()
            camera.stop()
        except Exception as error:
            log.debug("%s: stop after a fault: %s", self.name, error)
        try:
            camera.close()
        except Exception as error:
            log.warning("%s: close after a fault: %s", self.name, error)


class OpenCVSource(_Reconnecting):
    """A USB webcam (V4L2) by index (0 is /dev/video0) or device path."""

    def __init__(
        self,
        device: int | str = 0,
        size: tuple[int, int] = (1280, 960),
        clock: Callable[[], float] = time.monotonic,
        capture: Callable[..., Any] = cv2.VideoCapture,
    ) -> None:
        super().__init__(clock)
        self.where, self.size, self.capture = device, size, capture
        self.name = f"USB camera {device}"

    def _open(self) -> Any:
        camera = self.capture(self.where)
        if not camera.isOpened():
            camera.release()
            raise CameraOffline(f"{self.name} is not connected")
        camera.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        camera.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        return camera

    def _capture(self, timeout: float, full: bool) -> Frame:
        # A webcam gives one size: it has no full-resolution still to give.
        # V4L2 has no per-read timeout in OpenCV: a stalled webcam blocks up to its own
        # select timeout (about 10 s) before read() fails.
        ok, image = self.device.read()
        if not ok or image is None:
            raise self._fault(CameraOffline(f"{self.name} sent no frame (unplugged?)"))
        return Frame(image, self.clock())

    def _close(self, fault: bool = False) -> None:
        camera, self.device = self.device, None
        if camera is not None:
            camera.release()


@dataclass(frozen=True)
class RecordedFrame:
    file: Path
    t: float
    full: Path | None = None
    """The full-resolution still of this moment, where the recording kept one."""


def recorded_frames(folder: Path) -> tuple[RecordedFrame, ...]:
    """The frames of a `table-recording/1` recording, in order; `CameraError` if it is not one."""
    try:
        meta = json.loads((folder / "recording.json").read_text())
        frames = tuple(
            RecordedFrame(folder / f["file"], float(f["t"]), folder / f["full"] if f.get("full") else None)
            for f in meta["frames"]
        )
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise CameraError(f"{folder} is not a table-recording/1 recording: {error}") from error
    if meta.get("format") != RECORDING_FORMAT:
        raise CameraError(f"{folder}: format is {meta.get('format')!r}, not {RECORDING_FORMAT!r}")
    if not frames:
        raise CameraError(f"{folder} has no frames")
    return frames


class ReplaySource:
    """A recording played as a camera: at its own pace (`speed` 1), faster, or as fast as it is
    read (`speed` 0); from the start again after the last frame when `loop` is on."""

    def __init__(
        self,
        folder: Path | str,
        speed: float = 1.0,
        loop: bool = True,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.folder = Path(folder)
        self.frames = recorded_frames(self.folder)
        self.speed, self.loop, self.clock, self.sleep = speed, loop, clock, sleep
        self.name = f"replay of {self.folder.name}"
        # A loop lasts as long as the recording plus one frame gap, so time never stands still.
        times = [f.t for f in self.frames]
        gap = (times[-1] - times[0]) / (len(times) - 1) if len(times) > 1 else 0.1
        self.length = times[-1] - times[0] + (gap or 0.1)
        self.index = 0
        self.started: float | None = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def rewind(self) -> None:
        """Play from the first frame again (a demo game started on the page starts its replay)."""
        self.index, self.started = 0, None

    def read(self, timeout: float = 2.0, full: bool = False) -> Frame:
        if self.index >= len(self.frames) and not self.loop:
            raise RecordingEnded(f"{self.name} has ended")
        lap, i = divmod(self.index, len(self.frames))
        self.index += 1
        recorded = self.frames[i]
        t = lap * self.length + recorded.t - self.frames[0].t
        if self.speed > 0:
            if self.started is None:
                self.started = self.clock() - t / self.speed
            due = self.started + t / self.speed - self.clock()
            if due > 0:  # a slow replay waits for its frame: it is not a stalled camera
                self.sleep(due)
        image = cv2.imread(str(recorded.file), cv2.IMREAD_COLOR)
        if image is None:  # the next read goes on with the next frame
            raise CameraError(f"{self.name}: {recorded.file.name} is missing, corrupt or not an image")
        still = None
        if full and recorded.full is not None:
            still = cv2.imread(str(recorded.full), cv2.IMREAD_COLOR)
            if still is None:  # the frame itself is good: read it without its still
                log.warning("%s: %s is missing or corrupt; the frame alone", self.name, recorded.full.name)
        return Frame(image, t, still)


def picamera_available() -> bool:
    """Whether picamera2 (and so libcamera) is installed: on a Pi with Raspberry Pi OS."""
    import importlib.util

    return importlib.util.find_spec("picamera2") is not None


def choose_camera(
    backend: str,
    *,
    device: int | str = 0,
    size: tuple[int, int] = (1280, 960),
    fps: float = 10.0,
    focus_m: float = 0.0,
    full_size: tuple[int, int] | None = None,
    replay: Path | str = "",
    replay_speed: float = 1.0,
    loop: bool = True,
    picamera: Callable[[], bool] = picamera_available,
) -> FrameSource | None:
    """The frame source the settings ask for. `auto` is the Pi camera where picamera2 is
    installed (even with the cable out: it is tried again until it answers), else the replayed
    recording; `picamera` without picamera2 falls back to the replay, and says so."""
    if backend == "none":
        return None
    if backend in ("auto", "picamera"):
        if picamera():
            return PicameraSource(size=size, fps=fps, focus_m=focus_m, full_size=full_size)
        log.log(
            logging.WARNING if backend == "picamera" else logging.INFO,
            "camera: picamera2 is not installed here; replaying %s instead",
            replay,
        )
        backend = "replay"
    if backend == "opencv":
        return OpenCVSource(device, size=size)
    if backend == "replay":
        return ReplaySource(replay, speed=replay_speed, loop=loop)
    raise CameraError(f"camera backend is auto, picamera, opencv, replay or none, not {backend!r}")
