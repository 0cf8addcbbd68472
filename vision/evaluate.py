"""Score readings against labelled recordings (`table-recording/1`, recording-format.md)."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .frames import load
from .types import RECORDING_FORMAT, DieReading, Observation, VisionError

if TYPE_CHECKING:
    from .pipeline import VisionConfig

Reader = Callable[[Any, dict[str, Any]], Observation]


@dataclass(frozen=True)
class Miss:
    """One thing that went wrong, for the developer to look at."""

    recording: str
    frame: str
    what: str


def recordings_under(path: Path) -> list[Path]:
    if (path / "recording.json").is_file():
        return [path]
    found = sorted(p.parent for p in path.rglob("recording.json"))
    if not found:
        raise VisionError(f"no recording.json at or under {path}")
    return found


def match_dice(
    truth: list[dict[str, Any]], readings: tuple[DieReading, ...]
) -> tuple[list[tuple[dict[str, Any], DieReading]], list[dict[str, Any]], list[DieReading]]:
    """Pairs by nearest centre (closest pairs first, within the die's size), then the
    unmatched truth and the unmatched readings (false positives)."""
    if truth and any("center" not in t for t in truth):
        # No centres: compare the multisets of values.
        left = list(readings)
        pairs, missed = [], []
        for t in truth:
            same = next((r for r in left if r.value == t["value"] and r.kind == t["kind"]), None)
            if same is None:
                missed.append(t)
            else:
                left.remove(same)
                pairs.append((t, same))
        return pairs, missed, left
    candidates = []
    for i, t in enumerate(truth):
        tx, ty = t["center"]
        for j, r in enumerate(readings):
            d = ((tx - r.center[0]) ** 2 + (ty - r.center[1]) ** 2) ** 0.5
            if d <= 0.75 * r.size:
                candidates.append((d, i, j))
    candidates.sort()
    used_t: set[int] = set()
    used_r: set[int] = set()
    pairs = []
    for _, i, j in candidates:
        if i not in used_t and j not in used_r:
            used_t.add(i)
            used_r.add(j)
            pairs.append((truth[i], readings[j]))
    missed = [t for i, t in enumerate(truth) if i not in used_t]
    extra = [r for j, r in enumerate(readings) if j not in used_r]
    return pairs, missed, extra


def die_correct(t: dict[str, Any], r: DieReading) -> bool:
    return r.kind == t["kind"] and r.value == t["value"] and (t.get("color") is None or t["color"] == r.color)


def table_reader(config: VisionConfig | None = None) -> Reader:
    """Reads each recording's frames with one TableReader per board profile (none: dice
    only), built on first use and kept across frames as on a live table."""
    from .pipeline import TableReader
    from .profiles import load_profile

    readers: dict[str | None, TableReader] = {}

    def read(image: Any, meta: dict[str, Any]) -> Observation:
        name = meta.get("profile")
        if name not in readers:
            readers[name] = TableReader(load_profile(name) if name else None, config)
        return readers[name].read(image)

    return read


def evaluate_recording(path: Path, read: Reader, every: int = 1) -> tuple[dict[str, Any], list[Miss]]:
    """Scores one recording. `every=k` scores only every k-th labelled frame (the first, the
    k+1-th...): the development frames the dice networks were not trained on."""
    meta = json.loads((path / "recording.json").read_text())
    if meta.get("format") != RECORDING_FORMAT:
        raise VisionError(f"{path}: not a {RECORDING_FORMAT} recording")
    dice = {"truth": 0, "found": 0, "correct": 0, "false_positives": 0}
    settled = {"truth": 0, "correct": 0}
    stacks = {"truth": 0, "correct": 0}
    tokens = {"truth": 0, "correct": 0, "false_positives": 0}
    times: list[float] = []
    misses: list[Miss] = []
    scored = 0
    labelled = [f for f in meta["frames"] if f.get("truth")]
    for frame in labelled[:: max(1, every)]:
        truth = frame["truth"]
        scored += 1
        image = load(path / frame["file"])
        start = time.perf_counter()
        obs = read(image, meta)
        times.append((time.perf_counter() - start) * 1000)
        if "dice" in truth:
            pairs, missed, extra = match_dice(truth["dice"], obs.dice)
            dice["truth"] += len(truth["dice"])
            dice["found"] += len(pairs)
            dice["false_positives"] += len(extra)
            for t, r in pairs:
                if die_correct(t, r):
                    dice["correct"] += 1
                else:
                    misses.append(
                        Miss(
                            path.name,
                            frame["file"],
                            f"die at {t.get('center')}: {t['value']} read as {r.value}",
                        )
                    )
            misses += [
                Miss(path.name, frame["file"], f"die at {t.get('center')} ({t['value']}) not found")
                for t in missed
            ]
            misses += [
                Miss(path.name, frame["file"], f"no die at {r.center} (read {r.value})") for r in extra
            ]
        if "stacks" in truth:
            by_region = {s.region: s for s in obs.stacks}
            for t in truth["stacks"]:
                stacks["truth"] += 1
                seen = by_region.get(t["region"])
                if (
                    seen
                    and list(seen.discs) == t["discs"]
                    and (t.get("color") is None or seen.color == t["color"])
                ):
                    stacks["correct"] += 1
                else:
                    got = f"{seen.color} {list(seen.discs)}" if seen else "nothing"
                    misses.append(
                        Miss(
                            path.name,
                            frame["file"],
                            f"stack {t['region']} {t.get('color')} {t['discs']}: read {got}",
                        )
                    )
        if "tokens" in truth:
            wanted = [(t["region"], t["kind"], t.get("color")) for t in truth["tokens"]]
            seen_tokens = [(s.region, s.kind, s.color) for s in obs.tokens]
            tokens["truth"] += len(wanted)
            for w in wanted:
                hit = next(
                    (s for s in seen_tokens if s[:2] == w[:2] and (w[2] is None or s[2] == w[2])), None
                )
                if hit:
                    seen_tokens.remove(hit)
                    tokens["correct"] += 1
                else:
                    misses.append(Miss(path.name, frame["file"], f"token {' '.join(map(str, w))} not read"))
            tokens["false_positives"] += len(seen_tokens)
            misses += [
                Miss(path.name, frame["file"], f"no token {' '.join(map(str, s))}") for s in seen_tokens
            ]
        if "settled" in truth:
            settled["truth"] += 1
            settled["correct"] += int(obs.settled == truth["settled"])
    result: dict[str, Any] = {"recording": path.name, "frames": len(meta["frames"]), "frames_scored": scored}
    if dice["truth"] or dice["false_positives"]:
        result["dice"] = {**dice, "accuracy": round(dice["correct"] / max(1, dice["truth"]), 4)}
    if stacks["truth"]:
        result["stacks"] = {**stacks, "accuracy": round(stacks["correct"] / stacks["truth"], 4)}
    if tokens["truth"] or tokens["false_positives"]:
        result["tokens"] = {**tokens, "accuracy": round(tokens["correct"] / max(1, tokens["truth"]), 4)}
    if times:
        result["ms_per_frame"] = percentiles(times)
    return result, misses


def percentiles(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "median": round(statistics.median(ordered), 2),
        "p95": round(ordered[max(0, int(len(ordered) * 0.95) - 1)], 2),
    }


def evaluate(path: Path, read: Reader, every: int = 1) -> tuple[dict[str, Any], list[Miss]]:
    """Totals over every recording at or under `path`, with each recording's own figures."""
    results, misses = [], []
    for rec in recordings_under(path):
        result, missed = evaluate_recording(rec, read, every)
        results.append(result)
        misses += missed
    if len(results) == 1:
        return results[0], misses
    total: dict[str, Any] = {
        "frames": sum(r["frames"] for r in results),
        "frames_scored": sum(r["frames_scored"] for r in results),
    }
    for key, fields in (
        ("dice", ("truth", "found", "correct", "false_positives")),
        ("stacks", ("truth", "correct")),
        ("tokens", ("truth", "correct", "false_positives")),
    ):
        parts = [r[key] for r in results if key in r]
        if parts:
            summed = {k: sum(x[k] for x in parts) for k in fields}
            total[key] = {**summed, "accuracy": round(summed["correct"] / max(1, summed["truth"]), 4)}
    medians = [r["ms_per_frame"]["median"] for r in results if "ms_per_frame" in r]
    if medians:
        total["ms_per_frame"] = {
            "median": round(statistics.median(medians), 2),
            "p95": max(r["ms_per_frame"]["p95"] for r in results if "ms_per_frame" in r),
        }
    total["recordings"] = results
    return total, misses
