"""The panel on gpiozero's MockFactory, with a fake clock: presses, holds, contact bounce,
LED patterns, the pin map and its errors."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.panel import (
    DEFAULT_PINMAP,
    ButtonEvent,
    Panel,
    PinMapError,
    load_pinmap,
    make_pin_factory,
    status_lit,
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


@pytest.fixture
def panel(factory: MockFactory, clock: Clock) -> Iterator[Panel]:
    with Panel(load_pinmap(), factory, clock=clock, ticking=False) as p:
        yield p


def drained(panel: Panel) -> list[tuple[str, str]]:
    events = []
    while True:
        try:
            event = panel.events.get_nowait()
        except queue.Empty:
            return events
        events.append((event.button, event.action))


def press(factory: MockFactory, panel: Panel, clock: Clock, pin: int, seconds: float) -> None:
    """Press for `seconds` (ticking the panel every 20 ms meanwhile), then release."""
    factory.pin(pin).drive_low()
    end = clock.now + seconds
    while clock.now < end:
        clock.now = round(clock.now + 0.02, 6)
        panel.tick()
    factory.pin(pin).drive_high()
    clock.now = round(clock.now + 0.1, 6)
    panel.tick()


def test_next_is_reported_once_it_has_stayed_down(factory: MockFactory, panel: Panel, clock: Clock) -> None:
    clock.now = 5.0
    factory.pin(5).drive_low()
    clock.now = 5.02
    panel.tick()
    assert drained(panel) == [], "not yet: it might be a glitch"
    clock.now = 5.04
    panel.tick()
    assert panel.events.get_nowait() == ButtonEvent("next", "press", 5.04)


def test_a_glitch_on_the_wire_is_not_a_press(factory: MockFactory, panel: Panel, clock: Clock) -> None:
    pin = factory.pin(5)
    pin.drive_low()
    clock.now += 0.00005
    pin.drive_high()
    for _ in range(5):
        clock.now += 0.02
        panel.tick()
    assert drained(panel) == []


def test_a_hold_released_between_ticks_is_still_a_hold(
    factory: MockFactory, panel: Panel, clock: Clock
) -> None:
    factory.pin(6).drive_low()
    clock.now += 1.5  # no tick in between (a busy machine)
    factory.pin(6).drive_high()
    assert drained(panel) == [("undo", "hold")]


def test_a_button_held_at_boot_is_not_a_press(factory: MockFactory, clock: Clock) -> None:
    factory.pin(5).drive_low()
    with Panel(load_pinmap(), factory, clock=clock, ticking=False) as panel:
        clock.now += 0.5
        panel.tick()
        assert drained(panel) == []
        factory.pin(5).drive_high()
        clock.now += 0.5
        factory.pin(5).drive_low()
        clock.now += 0.05
        panel.tick()
        assert drained(panel) == [("next", "press")]


def test_a_pin_already_in_use_leaves_no_pin_taken(factory: MockFactory, clock: Clock) -> None:
    from gpiozero import LED

    blocker = LED(26, pin_factory=factory)  # the status LED's pin, taken by someone else
    with pytest.raises(Exception, match="26"):
        Panel(load_pinmap(), factory, clock=clock, ticking=False)
    blocker.close()
    Panel(load_pinmap(), factory, clock=clock, ticking=False).close()  # every pin was released


def test_undo_press_and_hold_are_told_apart(factory: MockFactory, panel: Panel, clock: Clock) -> None:
    press(factory, panel, clock, 6, 0.3)
    assert drained(panel) == [("undo", "press")]
    press(factory, panel, clock, 6, 1.5)
    assert drained(panel) == [("undo", "hold")], "a hold (redo) is not also a press (undo)"
    press(factory, panel, clock, 13, 1.2)
    assert drained(panel) == [("read", "hold")]


def test_a_burst_of_bouncing_edges_counts_once(factory: MockFactory, panel: Panel, clock: Clock) -> None:
    pin = factory.pin(5)
    for _ in range(6):  # 6 closes and opens within 6 ms
        pin.drive_low()
        clock.now += 0.0005
        pin.drive_high()
        clock.now += 0.0005
    pin.drive_low()
    clock.now += 0.05
    panel.tick()
    assert drained(panel) == [("next", "press")]
    # The release also bounces; then a second, real press 300 ms later counts again.
    for _ in range(4):
        pin.drive_high()
        clock.now += 0.001
        pin.drive_low()
    pin.drive_high()
    clock.now += 0.3
    panel.tick()
    pin.drive_low()
    clock.now += 0.05
    panel.tick()
    assert drained(panel) == [("next", "press")]


def test_a_tap_shorter_than_the_bounce_window_is_no_press_and_leaves_nothing_stuck(
    factory: MockFactory, panel: Panel, clock: Clock
) -> None:
    """10 ms is contact noise, not a finger; the next tick sees the pin is up again."""
    pin = factory.pin(6)
    pin.drive_low()
    clock.now += 0.01
    pin.drive_high()
    clock.now += 0.05
    panel.tick()
    assert drained(panel) == [] and not panel.logic["undo"].pressed
    press(factory, panel, clock, 6, 0.2)
    assert drained(panel) == [("undo", "press")]


def test_phase_and_beast_leds_show_one_at_a_time(factory: MockFactory, panel: Panel) -> None:
    panel.show_phase(2)
    assert [factory.pin(p).state for p in (17, 27, 22, 23)] == [0, 1, 0, 0]
    panel.show_phase(None)
    assert [factory.pin(p).state for p in (17, 27, 22, 23)] == [0, 0, 0, 0]
    panel.show_beast("despair")
    assert {b: factory.pin(p).state for b, p in {"pain": 24, "despair": 12}.items()} == {
        "pain": 0,
        "despair": 1,
    }
    with pytest.raises(ValueError, match="phase step 5"):
        panel.show_phase(5)
    with pytest.raises(ValueError, match="no beast LED 'cthulhu'"):
        panel.show_beast("cthulhu")


@pytest.mark.parametrize(
    ("status", "lit_at"),
    [
        ("ready", [1, 1, 1, 1, 1, 1, 1, 1]),
        ("working", [1, 1, 1, 1, 0, 0, 0, 0]),  # 1 Hz: on 0.5 s, off 0.5 s
        ("attention", [1, 0, 1, 0, 1, 0, 1, 0]),  # 4 Hz
        ("off", [0, 0, 0, 0, 0, 0, 0, 0]),
    ],
)
def test_status_led_patterns_on_a_fake_clock(
    factory: MockFactory, panel: Panel, clock: Clock, status: str, lit_at: list[int]
) -> None:
    clock.now = 10.0
    panel.show_status(status)  # type: ignore[arg-type]
    seen = []
    for step in range(8):  # every 1/8 s, off the pattern's edges
        clock.now = 10.0 + step * 0.125 + 0.03
        panel.tick()
        seen.append(factory.pin(26).state)
    assert seen == lit_at


def test_fault_is_two_blinks_then_a_pause() -> None:
    lit = [status_lit("fault", t / 20) for t in range(32)]  # 1.6 s at 50 ms steps
    flashes = sum(1 for a, b in zip([False, *lit], lit) if b and not a)
    assert flashes == 2 and not any(lit[10:]), "two short blinks, then dark for over a second"


def test_buzzer_sounds_for_as_long_as_asked(factory: MockFactory, panel: Panel, clock: Clock) -> None:
    panel.buzz(0.3)
    assert factory.pin(19).state == 1
    clock.now += 0.2
    panel.tick()
    assert factory.pin(19).state == 1
    clock.now += 0.15
    panel.tick()
    assert factory.pin(19).state == 0


def test_closing_releases_every_pin(factory: MockFactory, clock: Clock) -> None:
    panel = Panel(load_pinmap(), factory, clock=clock, ticking=False)
    panel.show_phase(1)
    panel.close()
    again = Panel(load_pinmap(), factory, clock=clock, ticking=False)  # would fail: pins in use
    again.close()


def test_the_ticker_thread_reports_holds_by_itself(factory: MockFactory) -> None:
    pinmap = load_pinmap(override={"timing": {"hold_s": 0.1}})
    with Panel(pinmap, factory, tick_s=0.01) as panel:
        factory.pin(6).drive_low()
        assert panel.events.get(timeout=2).action == "hold"
        factory.pin(6).drive_high()


def test_the_shipped_pin_map() -> None:
    pinmap = load_pinmap()
    assert dict(pinmap.buttons) == {"next": 5, "undo": 6, "read": 13}
    assert len(pinmap.phase) == 4 and set(pinmap.beast) == {"pain", "delusion", "despair", "harrow"}
    assert len(set(pinmap.pins().values())) == len(pinmap.pins()) == 13


def test_settings_override_the_pin_map() -> None:
    pinmap = load_pinmap(override={"buttons": {"next": 20}, "buzzer": {"pin": 21}})
    assert pinmap.buttons["next"] == 20 and pinmap.buttons["undo"] == 6 and pinmap.buzzer == 21


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"buttons": {"next": 6}}, "GPIO6 is wired twice: button next and button undo"),
        ({"buttons": {"next": 40}}, "buttons.next must be a BCM GPIO number from 2 to 27, not 40"),
        ({"leds": {"status": "GPIO26"}}, "leds.status must be a BCM GPIO number"),
        ({"leds": {"phase": []}}, "leds.phase lists 1 to 8 pins"),
        ({"timing": {"bounce_s": 2.0}}, "bounce_s < hold_s"),
        ({"format": "pinmap/9"}, "format must be 'pinmap/1'"),
    ],
)
def test_bad_pin_maps_are_refused_with_the_reason(override: dict, message: str) -> None:
    with pytest.raises(PinMapError, match=message):
        load_pinmap(override=override)


def test_a_pin_map_missing_an_entry(tmp_path: Path) -> None:
    text = DEFAULT_PINMAP.read_text().replace("read = 13", "")
    (tmp_path / "p.toml").write_text(text)
    with pytest.raises(PinMapError, match="'read' is missing"):
        load_pinmap(tmp_path / "p.toml")
    with pytest.raises(PinMapError, match="cannot read"):
        load_pinmap(tmp_path / "nope.toml")


def test_pin_factories() -> None:
    assert isinstance(make_pin_factory("mock"), MockFactory)
    assert make_pin_factory("native") is None
    with pytest.raises(PinMapError, match="not 'rpigpio'"):
        make_pin_factory("rpigpio")


def test_a_misspelt_override_is_refused() -> None:
    with pytest.raises(PinMapError, match="no pin map entry buttons.nxt"):
        load_pinmap(override={"buttons": {"nxt": 20}})
    with pytest.raises(PinMapError, match="could not convert string to float: 'x'"):
        load_pinmap(override={"timing": {"hold_s": "x"}})
