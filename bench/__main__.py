"""`make bench`: rules-engine speed on this machine, as medians of many runs."""

from __future__ import annotations

import random
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.games.base import Setup
from companion.games.registry import get_game


def median_ms(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


def random_game(seed: int) -> tuple[Any, int]:
    game = get_game("amharb")
    rng = random.Random(seed)
    state = game.initial_state(Setup(4, {"seed": str(seed)}))
    steps = 0
    while game.to_move(state) is not None:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        steps += 1
    return state, steps


def mid_game_position() -> Any:
    """A 4-player Disciple Phase about half-way through, with resources to spend."""
    game = get_game("amharb")
    rng = random.Random(7)
    state = game.initial_state(Setup(4, {"seed": "7"}))
    while True:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        placed = sum(len(s.disciples) for s in state.spaces)
        if placed >= 18 and game.phase(state) == "disciple" and len(game.legal_moves(state)) > 20:
            return state


def vision_bench() -> None:
    """A full read of a rendered 4-player Am'harb table at 1280x960, board pose cached, one thread."""
    import cv2
    import numpy as np

    from vision.make_recordings import random_scene
    from vision.pipeline import TableReader
    from vision.render import render

    cv2.setNumThreads(1)
    rng = np.random.default_rng(3)
    scene = random_scene(4, rng, (1280, 960))
    frame, _ = render(scene, seed=3)
    reader = TableReader(scene.profile)
    reader.read(frame)  # finds the board; later frames re-check the cached pose
    stages: dict[str, list[float]] = {}
    totals = []
    for _ in range(30):
        start = time.perf_counter()
        obs = reader.read(frame)
        totals.append((time.perf_counter() - start) * 1000)
        for stage, ms in obs.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
    print("Vision, 4-player Am'harb table, 1280x960, cached board pose, cv2.setNumThreads(1)")
    print(
        f"  full read: median {statistics.median(totals):.1f} ms, p95 {sorted(totals)[28]:.1f} ms,"
        f" fastest {min(totals):.1f} ms (a shared machine's load moves the median; the fastest less)"
    )
    for stage, times in stages.items():
        print(f"    {stage}: median {statistics.median(times):.2f} ms, fastest {min(times):.2f} ms")
    from vision.dice import DiceReader
    from vision.frames import load

    byler = Path(__file__).resolve().parents[2] / "shared/fixtures/real-dice/byler-dev"
    photos = sorted(byler.glob("*.jpg"))[:20]
    if photos:
        dice = DiceReader()
        images = [load(p) for p in photos]
        times = []
        for image in images * 2:
            start = time.perf_counter()
            dice.read(image)
            times.append((time.perf_counter() - start) * 1000)
        print(f"  dice, 640x640 real photos, no board: median {statistics.median(times):.1f} ms per photo")


def panel_bench() -> None:
    """Button and LED latency on gpiozero's mock pins, with the panel's own ticker running."""
    from gpiozero.pins.mock import MockFactory

    from hardware.panel import Panel, load_pinmap

    factory = MockFactory()
    pinmap = load_pinmap()
    with Panel(pinmap, factory) as panel:
        presses, holds, leds, blinks = [], [], [], []
        next_pin, undo_pin = factory.pin(pinmap.buttons["next"]), factory.pin(pinmap.buttons["undo"])
        for _ in range(100):
            start = time.perf_counter()
            next_pin.drive_low()
            panel.events.get(timeout=1)
            presses.append((time.perf_counter() - start) * 1000)
            time.sleep(pinmap.bounce_s + 0.005)
            next_pin.drive_high()
            time.sleep(pinmap.bounce_s + 0.005)
        for _ in range(3):
            undo_pin.drive_low()
            start = time.perf_counter()
            panel.events.get(timeout=5)  # the hold, found by the ticker
            holds.append((time.perf_counter() - start) * 1000 - pinmap.hold_s * 1000)
            undo_pin.drive_high()
            time.sleep(pinmap.bounce_s + 0.005)
        status = factory.pin(pinmap.status)
        for n in range(100):
            start = time.perf_counter()
            panel.show_phase(n % len(pinmap.phase) + 1)
            leds.append((time.perf_counter() - start) * 1000)
        for _ in range(5):
            panel.show_status("ready")
            panel.show_status("attention")  # lit at once; the ticker puts it out 125 ms later
            start = time.perf_counter()
            while status.state:
                time.sleep(0.0005)
            blinks.append((time.perf_counter() - start) * 1000 - 125)
    print("Panel on mock pins (median / worst)")
    print(f"  NEXT pressed -> event: {statistics.median(presses):.3f} / {max(presses):.3f} ms")
    print(
        f"  UNDO held -> hold event, beyond the {pinmap.hold_s:g} s hold: {statistics.median(holds):.1f} / "
        f"{max(holds):.1f} ms"
    )
    print(f"  show_phase -> LED pins set: {statistics.median(leds):.3f} / {max(leds):.3f} ms")
    print(
        f"  blink edge lateness (ticker every 20 ms): {statistics.median(blinks):.1f} / {max(blinks):.1f} ms"
    )


def main() -> None:
    game = get_game("amharb")
    mid = mid_game_position()
    print("Towers of Am'harb rules engine (median / p95 over many runs)")
    count = len(game.legal_moves(mid))
    med, p95 = median_ms(lambda: game.legal_moves(mid), 300)
    print(f"  legal_moves, mid-game 4-player disciple phase ({count} moves): {med:.3f} / {p95:.3f} ms")
    tower = game.initial_state(Setup(4, {}))
    med, p95 = median_ms(lambda: game.legal_moves(tower), 1000)
    print(f"  legal_moves, tower phase: {med:.4f} / {p95:.4f} ms")
    move = game.legal_moves(mid)[0]
    med, p95 = median_ms(lambda: game.apply(mid, move), 300)
    print(f"  apply (checked), mid-game: {med:.3f} / {p95:.3f} ms")
    med, p95 = median_ms(lambda: game.score(mid), 300)
    print(f"  score sheet, mid-game: {med:.3f} / {p95:.3f} ms")
    seeds = iter(range(10_000))
    steps = []
    med, p95 = median_ms(lambda: steps.append(random_game(next(seeds))[1]), 30)
    print(
        f"  whole random 4-player game, checked apply ({statistics.median(steps):.0f} moves): "
        f"{med:.1f} / {p95:.1f} ms"
    )
    panel_bench()
    vision_bench()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Peak memory of this process (rules, table reader and both dice networks): {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
