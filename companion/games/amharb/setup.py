"""Am'harb set-up: the island, altar and resource tiles, cult boards and seating."""

from __future__ import annotations

import random
from typing import Any

from ..base import BadSetup, Setup, game_data
from .board import geometry
from .state import AmharbState, Player, Space

RULEBOOK = "Towers of Am'harb rulebook"
SIZES = {"large": 5, "medium": 4, "small": 3}

OPTIONS = {
    "names": "player names, comma-separated (default: the colours)",
    "colours": "player colours, comma-separated (default: pink,blue,green,yellow)",
    "cults": "each player's cult board, comma-separated, e.g. hastur,cthulhu (default: dealt at random)",
    "seed": "random seed for anything not given (default 0)",
    "altars": "first-game (large altars on the four centremost altar spaces, default) or random",
    "board": "the island as 8 rows of '.', 'A', '#' separated by '/' (default: the suggested layout)",
    "sides": "the side each seat plays from, in turn order, e.g. S,W,N (with a custom board)",
    "altar_tiles": "the Doom on each altar space, reading order, e.g. 345435... (default: drawn)",
    "resources": "the resource on each normal space, reading order, r/y/b letters (default: drawn)",
}


def data() -> dict[str, Any]:
    """The printed data (layouts, tile counts, cults): amharb.toml, with its assumptions."""
    return game_data(__package__, "amharb.toml")


def _altar_tiles(setup: Setup, board: tuple[str, ...], rng: random.Random) -> dict[int, int]:
    """Doom per altar space: given, or drawn with large altars never on the outer edge.

    Am'harb: Game Setup 3 (tile counts, the edge note, the first-game suggestion).
    """
    geo = geometry(board)
    altar_spaces = [i for i in geo.spaces() if geo.altar_space[i]]
    given = setup.option("altar_tiles")
    if given:
        if len(given) != len(altar_spaces) or set(given) - {"3", "4", "5"}:
            raise BadSetup(f"altar_tiles needs {len(altar_spaces)} digits from 3, 4, 5")
        values = [int(ch) for ch in given]
    else:
        counts = data()["altar_tiles"][str(setup.players)]
        if sum(counts.values()) != len(altar_spaces):
            raise BadSetup(
                f"the board has {len(altar_spaces)} altar spaces but a {setup.players}-player game "
                f"uses {sum(counts.values())} altar tiles: give altar_tiles"
            )
        mode = setup.option("altars", "first-game")
        inner = [i for i in altar_spaces if not geo.on_edge(i)]
        if mode == "first-game":
            large = list(geo.centremost_altars(counts["large"]))
        elif mode == "random":
            large = rng.sample(inner, counts["large"]) if len(inner) >= counts["large"] else []
        else:
            raise BadSetup("option 'altars' is first-game or random")
        rest = [SIZES["medium"]] * counts["medium"] + [SIZES["small"]] * counts["small"]
        rng.shuffle(rest)
        by_space = {i: SIZES["large"] for i in large}
        for i in altar_spaces:
            if i not in by_space:
                by_space[i] = rest.pop()
        values = [by_space[i] for i in altar_spaces]
    by_space = dict(zip(altar_spaces, values))
    if any(v == SIZES["large"] and geo.on_edge(i) for i, v in by_space.items()):
        raise BadSetup(f"large altars are never on the outermost edge ({RULEBOOK}: Game Setup 3)")
    return by_space


def _resources(setup: Setup, board: tuple[str, ...], rng: random.Random) -> dict[int, str]:
    """A resource tile on each normal space: given, or drawn from the bag (Game Setup 2)."""
    colours = data()["resource_colours"]
    geo = geometry(board)
    normal = [i for i in geo.spaces() if geo.exists[i] and not geo.altar_space[i]]
    given = setup.option("resources")
    if given:
        letters = {c[0]: c for c in colours}
        if len(given) != len(normal) or set(given) - set(letters):
            raise BadSetup(f"resources needs {len(normal)} letters from {''.join(letters)}")
        return {i: letters[ch] for i, ch in zip(normal, given)}
    # First game: 12/14/16 tiles of each colour for 2/3/4 players, i.e. one per normal space.
    per_colour = min(16, -(-len(normal) // len(colours)))
    bag = [c for c in colours for _ in range(per_colour)]
    rng.shuffle(bag)
    return dict(zip(normal, bag))


def initial_state(setup: Setup) -> AmharbState:
    n = setup.players
    if not 2 <= n <= 4:
        raise BadSetup("Towers of Am'harb is for 2 to 4 players")
    known = set(OPTIONS)
    unknown = set(setup.options) - known
    if unknown:
        raise BadSetup(f"unknown options {sorted(unknown)}; known: {sorted(known)}")
    try:
        rng = random.Random(int(setup.option("seed", "0")))
    except ValueError as error:
        raise BadSetup("option 'seed' is a whole number") from error
    cults_data = data()["cults"]
    layout = data()["layouts"][str(n)]
    board = tuple(setup.option("board").split("/")) if setup.option("board") else tuple(layout["board"])
    try:
        geo = geometry(board)
    except ValueError as error:
        raise BadSetup(str(error)) from error
    sides = setup.values("sides", n, list(layout["sides"]) if not setup.option("board") else list("SWNE"))
    if set(sides) - set("SWNE") or len(set(sides)) != n:
        raise BadSetup("sides are distinct letters from S, W, N, E")
    colours = setup.values("colours", n, data()["player_colours"])
    names = setup.values("names", n, [c.capitalize() for c in colours])
    cults = setup.values("cults", n, rng.sample(sorted(cults_data), n))
    if set(cults) - set(cults_data) or len(set(cults)) != n:
        raise BadSetup(f"cults are {n} distinct names from {', '.join(sorted(cults_data))}")
    if len(set(colours)) != n:
        raise BadSetup("each player needs their own colour")
    altars = _altar_tiles(setup, board, rng)
    tiles = _resources(setup, board, rng)
    # Game Setup 4 and 7: seats clockwise by cult number; the smallest number starts.
    order = sorted(range(n), key=lambda p: cults_data[cults[p]]["number"])
    players = tuple(
        Player(
            name=names[p],
            colour=colours[p],
            cult=cults[p],
            side=sides[seat],
            # Game Setup 6: all four discs in one stack on the rightmost area (D).
            towers=((), (), (), (4, 3, 2, 1)),
            tiles=cults_data[cults[p]].get("tiles", 0),
        )
        for seat, p in enumerate(order)
    )
    spaces = tuple(
        Space(altar=altars.get(i, 0), resource=tiles.get(i, "")) if geo.exists[i] else Space()
        for i in geo.spaces()
    )
    return AmharbState(
        board=board, resource_colours=tuple(data()["resource_colours"]), spaces=spaces, players=players
    )
