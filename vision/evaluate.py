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

Reader = Callable[[Any, dict[str, Any], Any], Observation]
"""(frame, recording.json, the frame's full-resolution still or None) -> what was read."""


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


def table_reader(config: VisionConfig | None = None, data_dir: Path | None = None) -> Reader:
    """Reads each recording's frames with one TableReader per board profile (none: dice
    only), built on first use and kept across frames as on a live table; with the empty
    boards kept in `data_dir` (vision/reference.py) where there are any."""
    from .pipeline import TableReader
    from .profiles import load_profile
    from .reference import kept_empty_board

    readers: dict[str | None, TableReader] = {}

    def read(image: Any, meta: dict[str, Any], full: Any = None) -> Observation:
        name = meta.get("profile")
        if name not in readers:
            profile = load_profile(name) if name else None
            empty = kept_empty_board(data_dir, profile) if data_dir and profile else None
            readers[name] = TableReader(profile, config, empty)
        return readers[name].read(image, full=full)

    return read


def _count(table: dict[str, Any], key: Any, field: str, n: int = 1) -> None:
    """Adds `n` to `table[key][field]` (a per-kind or per-value breakdown)."""
    row = table.setdefault(str(key), {})
    row[field] = row.get(field, 0) + n


def _stack_places(profile_name: str | None) -> int | None:
    """How many disc locations the recording's board profile has (None: no profile)."""
    if not profile_name:
        return None
    from .profiles import load_profile

    return sum(r.holds == "stack" for r in load_profile(profile_name).regions)


def evaluate_recording(path: Path, read: Reader, every: int = 1) -> tuple[dict[str, Any], list[Miss]]:
    """Scores one recording. `every=k` scores only every k-th labelled frame (the first, the
    k+1-th...): the development frames the dice networks were not trained on.

    Every scored frame counts: a frame whose board is not found (or that cannot be read at
    all) counts every piece in its truth as missed. False positives are counted for dice,
    stacks (a stack read where the truth has none: `empty_places` says how many such places
    were looked at) and tokens; dice are broken down by value, stacks by height, tokens by kind."""
    meta = json.loads((path / "recording.json").read_text())
    if meta.get("format") != RECORDING_FORMAT:
        raise VisionError(f"{path}: not a {RECORDING_FORMAT} recording")
    dice: dict[str, Any] = {"truth": 0, "found": 0, "correct": 0, "false_positives": 0, "by_value": {}}
    settled = {"truth": 0, "correct": 0}
    stacks: dict[str, Any] = {
        "truth": 0,
        "correct": 0,
        "false_positives": 0,
        "empty_places": 0,
        "by_height": {},
    }
    tokens: dict[str, Any] = {"truth": 0, "correct": 0, "false_positives": 0, "by_kind": {}}
    board = {"frames": 0, "found": 0}
    places = _stack_places(meta.get("profile"))
    times: list[float] = []
    misses: list[Miss] = []
    scored = 0
    labelled = [f for f in meta["frames"] if f.get("truth")]
    for frame in labelled[:: max(1, every)]:
        truth = frame["truth"]
        scored += 1

        def miss(what: str, frame: dict[str, Any] = frame) -> None:
            misses.append(Miss(path.name, frame["file"], what))

        try:
            image = load(path / frame["file"])
            full = load(path / frame["full"]) if frame.get("full") else None
            start = time.perf_counter()
            obs = read(image, meta, full)
            times.append((time.perf_counter() - start) * 1000)
        except VisionError as error:
            obs = Observation()
            miss(f"not read: {error}")
        if meta.get("profile"):
            board["frames"] += 1
            board["found"] += obs.pose is not None
        if "dice" in truth:
            pairs, missed, extra = match_dice(truth["dice"], obs.dice)
            dice["truth"] += len(truth["dice"])
            dice["found"] += len(pairs)
            dice["false_positives"] += len(extra)
            for t in truth["dice"]:
                _count(dice["by_value"], t["value"], "truth")
            for t, r in pairs:
                if die_correct(t, r):
                    dice["correct"] += 1
                    _count(dice["by_value"], t["value"], "correct")
                else:
                    miss(f"die at {t.get('center')}: {t['value']} read as {r.value}")
            for t in missed:
                miss(f"die at {t.get('center')} ({t['value']}) not found")
            for r in extra:
                miss(f"no die at {r.center} (read {r.value})")
        if "stacks" in truth:
            by_region = {s.region: s for s in obs.stacks}
            for t in truth["stacks"]:
                stacks["truth"] += 1
                _count(stacks["by_height"], len(t["discs"]), "truth")
                seen = by_region.pop(t["region"], None)
                if (
                    seen
                    and list(seen.discs) == t["discs"]
                    and (t.get("color") is None or seen.color == t["color"])
                ):
                    stacks["correct"] += 1
                    _count(stacks["by_height"], len(t["discs"]), "correct")
                else:
                    got = f"{seen.color} {list(seen.discs)}" if seen else "nothing"
                    miss(f"stack {t['region']} {t.get('color')} {t['discs']}: read {got}")
            if places is not None:
                stacks["empty_places"] += places - len(truth["stacks"])
            stacks["false_positives"] += len(by_region)
            for extra_stack in by_region.values():
                miss(f"no stack in {extra_stack.region} (read {extra_stack.color} {list(extra_stack.discs)})")
        if "tokens" in truth:
            wanted = [(t["region"], t["kind"], t.get("color")) for t in truth["tokens"]]
            seen_tokens = [(s.region, s.kind, s.color) for s in obs.tokens]
            tokens["truth"] += len(wanted)
            for w in wanted:
                _count(tokens["by_kind"], w[1], "truth")
                hit = next(
                    (s for s in seen_tokens if s[:2] == w[:2] and (w[2] is None or s[2] == w[2])), None
                )
                if hit:
                    seen_tokens.remove(hit)
                    tokens["correct"] += 1
                    _count(tokens["by_kind"], w[1], "correct")
                else:
                    miss(f"token {' '.join(map(str, w))} not read")
            tokens["false_positives"] += len(seen_tokens)
            for extra_token in seen_tokens:
                _count(tokens["by_kind"], extra_token[1], "false_positives")
                miss(f"no token {' '.join(map(str, extra_token))}")
        if "settled" in truth:
            settled["truth"] += 1
            settled["correct"] += int(obs.settled == truth["settled"])
    result: dict[str, Any] = {"recording": path.name, "frames": len(meta["frames"]), "frames_scored": scored}
    if board["frames"]:
        result["board"] = board
    if dice["truth"] or dice["false_positives"]:
        result["dice"] = with_accuracy(dice)
    if stacks["truth"] or stacks["false_positives"]:
        result["stacks"] = with_accuracy(stacks)
    if tokens["truth"] or tokens["false_positives"]:
        result["tokens"] = with_accuracy(tokens)
    if times:
        result["ms_per_frame"] = percentiles(times)
    return result, misses


def with_accuracy(counts: dict[str, Any]) -> dict[str, Any]:
    """The counts with `accuracy` = correct / truth, also in each breakdown, and the false
    positives' rate among the empty places where there is such a count."""
    out: dict[str, Any] = {**counts, "accuracy": round(counts["correct"] / max(1, counts["truth"]), 4)}
    if counts.get("empty_places"):
        out["false_positive_rate"] = round(counts["false_positives"] / counts["empty_places"], 4)
    for key in ("by_value", "by_height", "by_kind"):
        if key in counts:
            out[key] = {
                k: {**row, "accuracy": round(row.get("correct", 0) / row["truth"], 4)}
                if row.get("truth")
                else row
                for k, row in sorted(counts[key].items())
            }
    return out


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
    boards = [r["board"] for r in results if "board" in r]
    if boards:
        total["board"] = {k: sum(b[k] for b in boards) for k in ("frames", "found")}
    for key in ("dice", "stacks", "tokens"):
        parts = [r[key] for r in results if key in r]
        if parts:
            total[key] = with_accuracy(_sum_counts(parts))
    medians = [r["ms_per_frame"]["median"] for r in results if "ms_per_frame" in r]
    if medians:
        total["ms_per_frame"] = {
            "median": round(statistics.median(medians), 2),
            "p95": max(r["ms_per_frame"]["p95"] for r in results if "ms_per_frame" in r),
        }
    total["recordings"] = results
    return total, misses


def _sum_counts(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts added up over recordings, breakdowns included (accuracies are worked out again)."""
    summed: dict[str, Any] = {}
    for part in parts:
        for key, value in part.items():
            if isinstance(value, dict):
                table = summed.setdefault(key, {})
                for k, row in value.items():
                    for field, n in row.items():
                        if field != "accuracy":
                            _count(table, k, field, n)
            elif key not in ("accuracy", "false_positive_rate"):
                summed[key] = summed.get(key, 0) + value
    return summed
