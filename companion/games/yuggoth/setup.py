"""Yuggoth set-up: the map side (or the table's own map), factions, start Areas, variants."""

from __future__ import annotations

import random
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..base import BadSetup, Setup, game_data
from .board import MAP_BASICS, RULEBOOK, Board, BoardError, board_from_table, board_to_text
from .state import NO_GATE, Faction, Force, YuggothState

LAB_TOKEN = f"{RULEBOOK}: The Laboratory, Note (bonus Laboratory token)"
SLIME_TOKENS = f"{RULEBOOK}: The Slime Seas, Note (bonus Slime tokens)"

OPTIONS = {
    "names": "player names in turn order, comma-separated (default: the faction titles)",
    "factions": "each seat's faction in turn order, e.g. black-goat,opener-of-the-way (default: dealt)",
    "colours": "player colours, comma-separated (default: each faction's colour)",
    "seed": "random seed for anything not given (default 0)",
    "side": "map side: three (2-3 players) or five (4-5 players); default by player count",
    "map": "path of a TOML file with your own [maps.<name>] table (see yuggoth.toml); replaces the side",
    "pyramid": "Green Pyramid numbers, e.g. 'Watcher Postern=6,Pyramid Slopes=5'",
    "starts": "start Areas, e.g. 'black-goat=Fungus Forest,opener-of-the-way=Black Towers'",
    "laboratory_token": "variant: the Area holding the bonus Laboratory token (a second Surgery Area)",
    "slime_tokens": "variant off Yuggoth: '<No-Slime Area>,<Slime Area>' for the bonus Slime tokens",
    "ritual_track": "the cost of each Ritual in turn, e.g. 5,6,7,8,9,10 (then Instant Death)",
}


def data() -> dict[str, Any]:
    """The data the rulebook does not print: yuggoth.toml, with its assumptions."""
    return game_data(__package__, "yuggoth.toml")


def _pairs(setup: Setup, name: str) -> list[tuple[str, str]]:
    """'a=b,c=d' as pairs; BadSetup if malformed."""
    raw = setup.option(name)
    if not raw:
        return []
    pairs = []
    for part in raw.split(","):
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise BadSetup(f"option {name!r} is 'name=value' pairs separated by commas, got {raw!r}")
        pairs.append((key.strip(), value.strip()))
    return pairs


def _map_table(setup: Setup) -> tuple[dict[str, Any], str]:
    path = setup.option("map")
    if path:
        try:
            loaded = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise BadSetup(f"option 'map': cannot read {path!r}: {error}") from error
        maps = loaded.get("maps")
        if not isinstance(maps, dict) or len(maps) != 1:
            raise BadSetup(f"option 'map': {path!r} must hold exactly one [maps.<name>] table")
        ((name, table),) = maps.items()
        if not isinstance(table, dict):
            raise BadSetup(f"option 'map': [maps.{name}] is not a table")
        return table, f"{path} [maps.{name}]"
    sides = data()["maps"]
    side = setup.option("side") or next(s for s, t in sides.items() if setup.players in t["players"])
    if side not in sides:
        raise BadSetup(f"option 'side' is one of {', '.join(sides)}, not {side!r}")
    # A side is meant for its player counts, but a table may choose the other one.
    return sides[side], f"yuggoth.toml [maps.{side}]"


def build_board(setup: Setup) -> tuple[Board, dict[str, str]]:
    """The map with the table's corrections and variants, and its default start Areas."""
    table, where = _map_table(setup)
    try:
        board = board_from_table(table, where)
    except BoardError as error:
        raise BadSetup(str(error)) from error
    starts = {str(k): str(v) for k, v in dict(table.get("starts", {})).items()}
    changes: dict[str, Any] = {}
    numbers = _pairs(setup, "pyramid")
    if numbers:
        pyramid = dict(board.pyramid)
        for area, number in numbers:
            area = board.spelled(area)
            if area not in pyramid:
                raise BadSetup(
                    f"option 'pyramid': {area!r} is not a Green Pyramid Area ({', '.join(pyramid)})"
                )
            if not number.isdigit():
                raise BadSetup(f"option 'pyramid': {area} needs a die number 1-6, not {number!r}")
            pyramid[area] = int(number)
        changes["pyramid"] = tuple(pyramid.items())
    lab = setup.option("laboratory_token")
    if lab:
        lab = board.spelled(lab)
        if not board.has(lab):
            raise BadSetup(f"option 'laboratory_token': {lab!r} is not an Area of the map")
        if lab in board.laboratories:
            raise BadSetup(f"option 'laboratory_token': {lab} is already a Laboratory")
        if board.yuggoth and (lab == board.overlook or lab in board.pyramid_areas):
            raise BadSetup(
                "the bonus Laboratory token goes neither on the Slime Sea Overlook nor on the Green Pyramid "
                f"(the variant's suggestion, which the companion keeps: {LAB_TOKEN})"
            )
        changes["laboratories"] = (*board.laboratories, lab)
    tokens = setup.option("slime_tokens")
    if tokens:
        if board.yuggoth:
            raise BadSetup(f"the bonus Slime tokens cannot be used on the Yuggoth Map ({SLIME_TOKENS})")
        parts = [board.spelled(p.strip()) for p in tokens.split(",")]
        if len(parts) != 2 or parts[0] == parts[1] or not all(board.has(p) for p in parts):
            raise BadSetup(
                "option 'slime_tokens' is two different Areas, '<No-Slime Area>,<Slime Area>' "
                f"({SLIME_TOKENS})"
            )
        changes["overlook"], changes["slime_seas"] = parts[0], (parts[1],)
    if changes:
        try:
            board = replace(board, **changes)
        except BoardError as error:
            raise BadSetup(str(error)) from error
    return board, starts


def _ritual_track(setup: Setup) -> tuple[int, ...]:
    raw = setup.option("ritual_track")
    if not raw:
        tracks = data()["ritual_track"]
        return tuple(tracks.get(str(setup.players), tracks["5"]))
    try:
        track = tuple(int(v) for v in raw.split(","))
    except ValueError as error:
        raise BadSetup(f"option 'ritual_track' is whole numbers separated by commas, got {raw!r}") from error
    if not track or min(track) < 0:
        raise BadSetup("option 'ritual_track' needs at least one cost, none negative")
    return track


def initial_state(setup: Setup) -> YuggothState:
    """Set Up: the map, each faction's Gate and Acolytes in its start Area, 8 Power."""
    n = setup.players
    if not 2 <= n <= 5:
        raise BadSetup("the companion plays Yuggoth with 2 to 5 players")
    unknown = set(setup.options) - set(OPTIONS)
    if unknown:
        raise BadSetup(f"unknown options {sorted(unknown)}; known: {sorted(OPTIONS)}")
    try:
        rng = random.Random(int(setup.option("seed", "0")))
    except ValueError as error:
        raise BadSetup("option 'seed' is a whole number") from error
    known = data()["factions"]
    factions = setup.values("factions", n, rng.sample(sorted(known), n))
    factions = [f.lower() for f in factions]
    if set(factions) - set(known) or len(set(factions)) != n:
        raise BadSetup(f"factions are {n} different names from {', '.join(sorted(known))}")
    colours = setup.values("colours", n, [known[f]["colour"] for f in factions])
    if len(set(colours)) != n:
        raise BadSetup("each player needs their own colour")
    names = setup.values("names", n, [known[f]["title"] for f in factions])
    board, starts = build_board(setup)
    for faction, area in _pairs(setup, "starts"):
        if faction.lower() not in factions:
            raise BadSetup(f"option 'starts': {faction!r} is not playing")
        starts[faction.lower()] = board.spelled(area)
    chosen = []
    for faction in factions:
        area = starts.get(faction, "")
        if not board.has(area):
            raise BadSetup(f"{faction} needs a start Area on this map: give it with option 'starts'")
        if faction == "opener-of-the-way" and area in board.chevron:
            raise BadSetup(
                f"the Opener of the Way may NOT set up on {area}: the Laboratory, the Slime Sea Overlook and "
                f"the Green Pyramid Areas carry the Chevron glyph ({MAP_BASICS})"
            )
        if area in board.laboratories and area not in board.chevron:
            raise BadSetup(f"no player may have a Start Area in the Laboratory token's Area ({LAB_TOKEN})")
        if area in chosen:
            raise BadSetup(f"{faction} must set up in an unoccupied Area; {area} is taken ({MAP_BASICS})")
        chosen.append(area)
    cfg = data()
    seats = tuple(
        Faction(
            faction=f,
            name=names[seat],
            colour=colours[seat],
            start=chosen[seat],
            power=cfg["start_power"],
            pool=cfg["acolytes"] - cfg["start_acolytes"],
        )
        for seat, f in enumerate(factions)
    )
    gates = tuple(chosen.index(a) if a in chosen else NO_GATE for a in board.areas)
    # One entry per (Area, seat) holding Units, in map order.
    units = tuple(
        Force(area=a, seat=chosen.index(a), acolytes=cfg["start_acolytes"])
        for a in board.areas
        if a in chosen
    )
    return YuggothState(
        map=board_to_text(board),
        factions=seats,
        gates=gates,
        units=units,
        slimes=(0,) * len(board.areas),
        ritual_track=_ritual_track(setup),
        log=("Set up: each faction has a Gate and 6 Acolytes in its start Area, and 8 Power",),
    )
