"""Arkhanos set-up: the data file, the players' corrections to it, and the opening state."""

from __future__ import annotations

import re
from typing import Any

from ..base import BadSetup, Setup, game_data
from .state import SPELLS, ArkhanosState, Player, Spell, Tile, Tower, Values
from .tiles import parse_constraint, parse_tile, tile_entry

RULEBOOK = "Towers of Arkhanos rulebook"
EFFECTS = ("manipulate", "exchange", "swap", "reroll", "turn", "nudge", "none")
TILES = 18  # Components: "18 Floor tiles"
STARTERS = 4  # Setting up the Game: "the 4 floor tiles with pink starred pillars"

OPTIONS = {
    "names": "player names in seating order from the first player, comma-separated (default: the colours)",
    "colours": "player colours, comma-separated (default: yellow,red,blue,green)",
    "seed": "accepted for every game; unused here (every draw, roll and tile is reported by the table)",
    "dice": "the dice in the bag by colour, e.g. purple:8,yellow:8,pink:8,blue:8,green:8 (default)",
    "tiles": "your real floor tiles where the data file is wrong: "
    "'7=purple/246 prestige,spell,build|floor,prestige,spell; 8=...'",
    "scoring": "mana pool values most/second/tie, e.g. outer:5/3/2,central:3/2/1 (default)",
    "spells": "your spellbook's 6 spells in number order, each Name or Name=effect, "
    "e.g. Manipulate,Exchange,Swap,Shield=none,Turn,Nudge (effects: " + ", ".join(EFFECTS) + ")",
}


def data() -> dict[str, Any]:
    """The printed data the rulebook does not give: arkhanos.toml, with its assumptions."""
    return game_data(__package__, "arkhanos.toml")


def rounds_for(players: int) -> int:
    """Arkhanos: Object of the Game — "If there are 2 or 4 players, you will play 8 rounds.
    If there are 3 players, you will play 9 rounds."""
    return 9 if players == 3 else 8


def dice_for(players: int) -> int:
    """Arkhanos: How to Play — "5 dice if there are 2 or 4 players, or 4 dice if there are 3 players"."""
    return 4 if players == 3 else 5


def _dice(setup: Setup) -> tuple[tuple[str, ...], tuple[int, ...]]:
    raw = setup.option("dice")
    if not raw:
        table: dict[str, int] = data()["dice"]
        return tuple(table), tuple(table.values())
    colours: list[str] = []
    counts: list[int] = []
    for part in raw.split(","):
        m = re.fullmatch(r"\s*([a-z]+)\s*:\s*(\d+)\s*", part.lower())
        if not m or m[1] in colours or m[1] in ("any", "pool", "as", "to"):
            raise BadSetup(
                "option 'dice' is colour:count pairs with distinct one-word colour names, "
                f"e.g. purple:8 (got {part!r})"
            )
        colours.append(m[1])
        counts.append(int(m[2]))
    needed = rounds_for(setup.players) * dice_for(setup.players)
    if sum(counts) < needed:
        raise BadSetup(
            f"{setup.players} players draw {needed} dice in a game; the bag holds only {sum(counts)}"
        )
    return tuple(colours), tuple(counts)


def _tiles(setup: Setup, colours: tuple[str, ...]) -> tuple[Tile, ...]:
    tiles = {}
    for entry in data()["tiles"]:
        outer = parse_constraint(entry["outer"])
        tiles[entry["id"]] = Tile(
            entry["id"],
            outer,
            tuple(entry["outer_bonuses"]),
            tuple(entry["central_bonuses"]),
            entry.get("start", False),
        )
    for part in filter(str.strip, setup.option("tiles").split(";")):
        number, sep, text = part.partition("=")
        if not sep or not number.strip().isdigit() or int(number) not in tiles:
            raise BadSetup(f"option 'tiles': {part.strip()!r} should be ID=TILE with ID 1-{TILES}")
        tile_id = int(number)
        try:
            tiles[tile_id] = parse_tile(tile_id, text, tiles[tile_id].start)
        except ValueError as error:
            raise BadSetup(f"option 'tiles', tile {tile_id}: {error}") from error
    for tile in tiles.values():
        unknown = set(tile.outer.colours) - set(colours)
        if unknown:
            raise BadSetup(f"tile {tile.id} names dice colours not in the bag: {', '.join(sorted(unknown))}")
    return tuple(tiles[i] for i in sorted(tiles))


def _scoring(setup: Setup) -> tuple[Values, Values]:
    table = {kind: Values(**values) for kind, values in data()["scoring"].items()}
    for part in filter(str.strip, setup.option("scoring").split(",")):
        m = re.fullmatch(r"\s*(outer|central)\s*:\s*(\d+)/(\d+)/(\d+)\s*", part.lower())
        if not m:
            raise BadSetup(
                f"option 'scoring' is outer:MOST/SECOND/TIE,central:MOST/SECOND/TIE (got {part!r})"
            )
        table[m[1]] = Values(int(m[2]), int(m[3]), int(m[4]))
    return table["outer"], table["central"]


def _spells(setup: Setup) -> tuple[Spell, ...]:
    defaults = [Spell(s["name"], s["effect"], s.get("assumed", False)) for s in data()["spells"]]
    raw = setup.option("spells")
    if not raw:
        return tuple(defaults)
    spells = []
    for part in raw.split(","):
        name, _, effect = (p.strip() for p in part.partition("="))
        effect = effect.lower() or (name.lower() if name.lower() in EFFECTS else "none")
        if (
            not re.fullmatch(r"[A-Za-z]+", name)
            or name.lower() in ("as", "pool", "to")
            or effect not in EFFECTS
        ):
            raise BadSetup(
                f"option 'spells': {part.strip()!r} should be a one-word Name or Name=effect, "
                f"effect one of {', '.join(EFFECTS)}"
            )
        spells.append(Spell(name, effect, assumed=False))
    if len(spells) != SPELLS or len({s.slug for s in spells}) != SPELLS:
        raise BadSetup(f"option 'spells' needs {SPELLS} spells with different names")
    return tuple(spells)


def initial_state(setup: Setup) -> ArkhanosState:
    """The table after "Setting up the Game"; the four starting floors are still to be
    revealed (chance moves), then the first player draws the dice."""
    n = setup.players
    if not 2 <= n <= 4:
        raise BadSetup("Towers of Arkhanos is for 2 to 4 players")
    unknown = set(setup.options) - set(OPTIONS)
    if unknown:
        raise BadSetup(f"unknown options {sorted(unknown)}; known: {sorted(OPTIONS)}")
    colours = setup.values("colours", n, data()["player_colours"])
    names = setup.values("names", n, [c.capitalize() for c in colours])
    if len(set(colours)) != n:
        raise BadSetup("each player needs their own colour")
    dice_colours, bag = _dice(setup)
    tiles = _tiles(setup, dice_colours)
    outer, central = _scoring(setup)
    meeples = data()["meeples"]
    players = tuple(
        Player(name=name, colour=colour, apprentices=meeples["apprentices"], masters=meeples["masters"])
        for name, colour in zip(names, colours)
    )
    return ArkhanosState(
        players=players,
        towers=(Tower(),) * 4,
        spells=_spells(setup),
        colours=dice_colours,
        bag=bag,
        outer_values=outer,
        central_values=central,
        rounds=rounds_for(n),
        dice_per_round=dice_for(n),
        starters=tuple(tile_entry(t) for t in tiles if t.start),
        stack=tuple(tile_entry(t) for t in tiles if not t.start),
    )
