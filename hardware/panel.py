"""The button/LED panel at the table, built with gpiozero on any pin factory.

It publishes button events and shows what it is told (a phase, a beast, a status); it knows
nothing about games. Debouncing, holds and blink patterns are decided here, from a clock the
panel is given, rather than by gpiozero's threads: so they behave the same on every pin
factory and tests can drive them with a fake clock.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

log = logging.getLogger(__name__)

DEFAULT_PINMAP = Path(__file__).with_name("pinmap.toml")
BUTTONS = ("next", "undo", "read")
HOLDS = frozenset({"undo", "read"})
"""Buttons with a second meaning when held (UNDO: redo, READ: recalibrate). Their press is
reported on release, so a hold is never also a press; NEXT's press is reported at once."""
BEASTS = ("pain", "delusion", "despair", "harrow")
GPIO_PINS = range(2, 28)
Status = Literal["off", "ready", "working", "attention", "fault"]
STATUS_PATTERNS: dict[str, tuple[float, tuple[tuple[float, float], ...]]] = {
    # name: (period in s, the (start, end) spans within the period when the LED is lit)
    "off": (1.0, ()),
    "ready": (1.0, ((0.0, 1.0),)),
    "working": (1.0, ((0.0, 0.5),)),
    "attention": (0.25, ((0.0, 0.125),)),
    "fault": (1.6, ((0.0, 0.15), (0.3, 0.45))),
}


class PinMapError(ValueError):
    """A pin map that cannot be wired: the message names the entry."""


@dataclass(frozen=True)
class PinMap:
    buttons: Mapping[str, int]
    phase: tuple[int, ...]
    beast: Mapping[str, int]
    status: int
    buzzer: int | None
    bounce_s: float = 0.03
    hold_s: float = 1.0

    def pins(self) -> dict[str, int]:
        """Every wired pin by its function's name."""
        named = {f"button {k}": v for k, v in self.buttons.items()}
        named |= {f"phase LED {i + 1}": p for i, p in enumerate(self.phase)}
        named |= {f"{k} LED": v for k, v in self.beast.items()}
        named["status LED"] = self.status
        if self.buzzer is not None:
            named["buzzer"] = self.buzzer
        return named


def _merge(base: dict[str, Any], override: Mapping[str, Any], where: str = "") -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if key not in merged and (where, key) != ("", "buzzer"):  # a buzzer may be added whole
            raise PinMapError(f"there is no pin map entry {where}{key}; see hardware/pinmap.toml")
        if isinstance(value, Mapping) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value, f"{where}{key}.")
        else:
            merged[key] = value
    return merged


def _pin(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in GPIO_PINS:
        raise PinMapError(f"{where} must be a BCM GPIO number from 2 to 27, not {value!r}")
    return value


def load_pinmap(path: Path = DEFAULT_PINMAP, override: Mapping[str, Any] | None = None) -> PinMap:
    """The pin map in `path` (format pinmap/1), with `override` (the settings' [pinmap]) on top."""
    try:
        data = _merge(tomllib.loads(path.read_text()), override or {})
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise PinMapError(f"cannot read the pin map {path}: {error}") from error
    if data.get("format") != "pinmap/1":
        raise PinMapError(f"{path}: format must be 'pinmap/1', not {data.get('format')!r}")
    try:
        buttons, leds = data["buttons"], data["leds"]
        pinmap = PinMap(
            buttons={name: _pin(buttons[name], f"buttons.{name}") for name in BUTTONS},
            phase=tuple(_pin(p, f"leds.phase[{i}]") for i, p in enumerate(leds["phase"])),
            beast={name: _pin(leds["beast"][name], f"leds.beast.{name}") for name in BEASTS},
            status=_pin(leds["status"], "leds.status"),
            buzzer=_pin(data["buzzer"]["pin"], "buzzer.pin") if "buzzer" in data else None,
            bounce_s=float(data.get("timing", {}).get("bounce_s", 0.03)),
            hold_s=float(data.get("timing", {}).get("hold_s", 1.0)),
        )
    except KeyError as error:
        raise PinMapError(f"{path}: {error.args[0]!r} is missing") from error
    except (TypeError, ValueError) as error:
        raise PinMapError(f"{path}: {error}") from error
    if not 1 <= len(pinmap.phase) <= 8:
        raise PinMapError(f"{path}: leds.phase lists 1 to 8 pins, not {len(pinmap.phase)}")
    if not 0 <= pinmap.bounce_s < pinmap.hold_s:
        raise PinMapError(f"{path}: timing needs 0 <= bounce_s < hold_s")
    used: dict[int, str] = {}
    for name, pin in pinmap.pins().items():
        if pin in used:
            raise PinMapError(f"GPIO{pin} is wired twice: {used[pin]} and {name}")
        used[pin] = name
    return pinmap


@dataclass(frozen=True)
class ButtonEvent:
    button: str
    """next, undo or read."""
    action: Literal["press", "hold"]
    t: float
    """When it happened, on the panel's clock."""


@dataclass
class ButtonLogic:
    """One button's debounce and hold, fed edges and clock ticks (nothing else changes it).

    A press counts once the contacts have stayed closed for `bounce_s` (seen on a tick), so a
    glitch on a long wire is not a press. Buttons that hold (UNDO, READ) report on release:
    a hold if it lasted `hold_s`, else a press; a hold is reported as soon as a tick sees it."""

    name: str
    bounce_s: float
    hold_s: float
    holds: bool
    pressed: bool = False
    changed_at: float = float("-inf")
    told: bool = True
    """This press has been reported (as a press or a hold)."""
    last_edge: float = float("-inf")
    """When the contacts last moved, bounce or not."""

    def edge(self, pressed: bool, t: float) -> list[ButtonEvent]:
        """An edge from the pin. Edges within `bounce_s` of the last accepted one are contact
        bounce; `settle` later picks up the level the contacts came to rest at."""
        self.last_edge = t
        if pressed == self.pressed or t - self.changed_at < self.bounce_s:
            return []
        return self._accept(pressed, t)

    def _accept(self, pressed: bool, t: float) -> list[ButtonEvent]:
        """The level is now `pressed`; the contacts last moved at `last_edge`."""
        was = self.changed_at
        self.pressed, self.changed_at = pressed, t
        if pressed:
            self.told = False
            return []
        lasted = self.last_edge - was
        told, self.told = self.told, True
        if told or lasted < self.bounce_s:  # told already, or a glitch on the wire
            return []
        if self.holds:
            return [ButtonEvent(self.name, "hold" if lasted >= self.hold_s else "press", t)]
        return [ButtonEvent(self.name, "press", t)]

    def settle(self, level: bool, t: float) -> list[ButtonEvent]:
        """A clock tick with the pin's level now: a press that has settled, a hold that has
        lasted, or a change of level whose edge fell inside the bounce window."""
        events: list[ButtonEvent] = []
        if level != self.pressed and t - self.changed_at >= self.bounce_s:
            events = self._accept(level, t)
        if self.pressed and not self.told:
            if not self.holds and t - self.changed_at >= self.bounce_s:
                self.told = True
                events.append(ButtonEvent(self.name, "press", t))
            elif self.holds and t - self.changed_at >= self.hold_s:
                self.told = True
                events.append(ButtonEvent(self.name, "hold", t))
        return events


def status_lit(status: str, since: float) -> bool:
    """Whether the status LED is lit `since` seconds after the status was set."""
    period, spans = STATUS_PATTERNS[status]
    phase = since % period
    return any(start <= phase < end for start, end in spans)


def make_pin_factory(name: str) -> Any:
    """gpiozero's pin factory: "mock" (no hardware), "native" (gpiozero's choice: lgpio on a
    Pi), or "auto" (native on a Raspberry Pi, mock elsewhere)."""
    if name == "auto":
        try:
            on_pi = "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
        except OSError:
            on_pi = False
        name = "native" if on_pi else "mock"
        log.info("panel: %s pins", "the Pi's" if on_pi else "mock (not a Raspberry Pi)")
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if name == "native":
        return None
    raise PinMapError(f"the pin factory is auto, mock or native, not {name!r}")


@dataclass
class _Shown:
    status: str = "off"
    status_since: float = 0.0
    buzz_until: float = float("-inf")


class Panel:
    """Buttons in, lights out. `events` is a queue of `ButtonEvent`s; `tick(now)` runs the
    clock-driven parts (holds, settling, blink patterns, the buzzer) and is called every
    `tick_s` by a thread of the panel's own unless `ticking=False` (tests tick by hand)."""

    def __init__(
        self,
        pinmap: PinMap,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        ticking: bool = True,
        tick_s: float = 0.02,
    ) -> None:
        from gpiozero import LED, Button, DigitalOutputDevice

        self.pinmap, self.clock, self.tick_s = pinmap, clock, tick_s
        self.events: queue.Queue[ButtonEvent] = queue.Queue()
        self._lock = threading.Lock()
        self._shown = _Shown()
        self._devices: list[Any] = []
        self.logic = {
            name: ButtonLogic(name, pinmap.bounce_s, pinmap.hold_s, name in HOLDS) for name in BUTTONS
        }
        made = self._devices

        def device(kind: Any, pin: int, **options: Any) -> Any:
            made.append(kind(pin, pin_factory=pin_factory, **options))
            return made[-1]

        try:  # a pin in use or a missing pin library: release what was already taken
            self.buttons: dict[str, Any] = {}
            for name, pin in pinmap.buttons.items():
                button = device(Button, pin, pull_up=True, bounce_time=None)
                button.when_pressed = lambda name=name: self._edge(name, True)
                button.when_released = lambda name=name: self._edge(name, False)
                self.buttons[name] = button
                self.logic[name].pressed = bool(button.is_pressed)  # held at boot: not a press
            self.phase_leds = [device(LED, p) for p in pinmap.phase]
            self.beast_leds = {k: device(LED, p) for k, p in pinmap.beast.items()}
            self.status_led = device(LED, pinmap.status)
            self.buzzer = device(DigitalOutputDevice, pinmap.buzzer) if pinmap.buzzer is not None else None
        except Exception:
            for made_device in made:
                made_device.close()
            raise
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="panel", daemon=True) if ticking else None
        if self._thread:
            self._thread.start()

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the ticker, put every light out and release the pins (on SIGTERM too)."""
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=1)
        for device in self._devices:
            device.close()

    # Buttons in.
    def _edge(self, name: str, pressed: bool) -> None:
        with self._lock:
            for event in self.logic[name].edge(pressed, self.clock()):
                self.events.put(event)

    # Lights out.
    def show_phase(self, step: int | None) -> None:
        """Light phase LED `step` (1-based) alone; None puts them all out."""
        if step is not None and not 1 <= step <= len(self.phase_leds):
            raise ValueError(f"phase step {step} is not 1 to {len(self.phase_leds)}")
        for i, led in enumerate(self.phase_leds, start=1):
            led.value = i == step

    def show_beast(self, beast: str | None) -> None:
        """Light the beast that must move now (pain, delusion, despair, harrow), or none."""
        if beast is not None and beast not in self.beast_leds:
            raise ValueError(f"no beast LED {beast!r}; there are {', '.join(self.beast_leds)}")
        for name, led in self.beast_leds.items():
            led.value = name == beast

    def show_status(self, status: Status) -> None:
        """ready (steady), working (slow blink), attention (fast blink), fault (two blinks, pause)."""
        if status not in STATUS_PATTERNS:
            raise ValueError(f"status is one of {', '.join(STATUS_PATTERNS)}, not {status!r}")
        with self._lock:
            if status != self._shown.status:
                self._shown.status, self._shown.status_since = status, self.clock()
                self.status_led.value = status_lit(status, 0.0)

    @property
    def status(self) -> str:
        return self._shown.status

    def buzz(self, seconds: float = 0.1) -> None:
        """Sound the buzzer (if fitted) for `seconds`."""
        if self.buzzer is None:
            return
        with self._lock:
            self._shown.buzz_until = self.clock() + seconds
            self.buzzer.on()

    def tick(self, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        with self._lock:
            for name, logic in self.logic.items():
                for event in logic.settle(self.buttons[name].is_pressed, now):
                    self.events.put(event)
            self.status_led.value = status_lit(self._shown.status, now - self._shown.status_since)
            if self.buzzer is not None and self.buzzer.value and now >= self._shown.buzz_until:
                self.buzzer.off()

    def _run(self) -> None:
        while not self._stop.wait(self.tick_s):
            try:
                self.tick()
            except Exception:  # a closed pin during shutdown, say: keep the thread quiet
                if not self._stop.is_set():
                    log.exception("panel tick failed")
