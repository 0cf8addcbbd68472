"""Tower set-up: the stalls and build cards for the player count, the bag, the variants.

Tower: Setup - 4 players use every stall and build card; 3 players remove the stall and
the build cards with the 4-player icon (and that stall's 3 materials); 2 players also
remove those with the 3-player icon. Lutfi counts as a player for this: "Two players can
include Lutfi to use the three-player setup" (Lutfi, the Automated Player).
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from typing import Any

from ..base import BadSetup, Setup, game_data
from .gems import Gems, parse_price
from .moves import SLOT_LETTERS
from .state import (
    APPRENTICES,
    DEAL,
    MATERIALS,
    SEGMENTS_TO_WIN,
    Apprentice,
    BlackCard,
    Lutfi,
    Player,
    Slot,
    Stall,
    TowerState,
    Turn,
    Variants,
    make_stall,
)

RULEBOOK = "Tower rulebook"
EFFECTS = ("steal_material", "steal_gems", "wild_material", "share_stall")
"""What a black market card can do (tower.toml says which card does which)."""
CARD_SIZE = 5  # Build Cards: "Each build card has five building materials depicted on it."
BUILD_MIN = 8
"""Enough build cards to deal one to each of up to four players and draw three more."""

OPTIONS = {
    "names": "player names in turn order, comma-separated; the first starts (default: the colours)",
    "colours": "builder meeple colours, comma-separated (default: purple,orange,pink,green)",
    "seed": "random seed for the advanced game's material layout when `layout` is not given (default 0)",
    "lutfi": "auto (default: on for a solo game only), on or off: Lutfi, the automated player",
    "lutfi_wins_at": "solo play: Lutfi wins on building 3 (default), 2 or 1 segments",
    "apprentices": "on or off (default): the Apprentices mini-expansion",
    "royal_guard": "on or off (default): the Royal Guard mini-expansion",
    "secret_cards": "on or off (default; always on with 2 players): build cards kept secret",
    "advanced": "on or off (default): materials on any space, returned to any open space",
    "layout": "the material on every space, stall by stall: s/l/c/w or - (empty), e.g. slw/slc/scw/lcw",
    "gems": "green,blue,red gems in the box (default 45,30,15: assumed)",
    "prices": "price corrections for single spaces, e.g. '1a=2 green,3c=1 red'",
    "data": "your stalls, build cards or black market cards as TOML text shaped like tower.toml",
}
DEFAULT_COLOURS = ["purple", "orange", "pink", "green"]
"""Palette colours the camera can name, none of them an apprentice's (yellow, red) or the
guard's (white): the builder meeples' real colours are not printed in the rulebook."""
LETTER = {m[0]: m for m in MATERIALS}


def default_data() -> dict[str, Any]:
    """The assumed printed data: tower.toml (read its comments)."""
    return game_data(__package__, "tower.toml")


def _flag(setup: Setup, name: str, default: str = "off") -> bool:
    value = setup.option(name, default).strip().lower()
    if value not in ("on", "off"):
        raise BadSetup(f"option {name!r} is on or off, not {value!r}")
    return value == "on"


def table_data(setup: Setup) -> dict[str, Any]:
    """The default data with the players' `data` TOML laid over it, table by table."""
    data = dict(default_data())
    raw = setup.option("data")
    if raw:
        try:
            given = tomllib.loads(raw)
        except tomllib.TOMLDecodeError as error:
            raise BadSetup(f"option 'data' is not TOML: {error}") from error
        unknown = set(given) - set(data)
        if unknown:
            raise BadSetup(f"option 'data' has unknown tables {sorted(unknown)}; known: {sorted(data)}")
        data.update(given)
    return data


def _stalls(data: dict[str, Any], size: int) -> list[Stall]:
    stalls = []
    try:
        for raw in data["stalls"]:
            if int(raw.get("players", 2)) > size:
                continue
            slots = tuple(Slot(space=str(s["space"]), price=str(s["price"])) for s in raw["slots"])
            stalls.append(make_stall(int(raw["number"]), str(raw["name"]), slots))
    except (KeyError, TypeError, ValueError) as error:
        raise BadSetup(
            f"a stall needs number, name, players and slots of space and price: {error}"
        ) from error
    numbers = [s.number for s in stalls]
    if len(set(numbers)) != len(numbers) or not all(1 <= n <= 6 for n in numbers):
        raise BadSetup("stall numbers are distinct die faces 1-6")
    for stall in stalls:
        if not 1 <= len(stall.slots) <= len(SLOT_LETTERS):
            raise BadSetup(f"stall {stall.number} needs 1 to {len(SLOT_LETTERS)} spaces")
        for slot in stall.slots:
            if slot.space not in MATERIALS:
                raise BadSetup(f"stall {stall.number}: {slot.space!r} is not one of {', '.join(MATERIALS)}")
            _check_price(slot.price, f"stall {stall.number}")
    if len(stalls) < 2:
        raise BadSetup("a game needs at least two market stalls")
    return sorted(stalls, key=lambda s: s.number)


def _check_price(price: str, where: str) -> None:
    try:
        parse_price(price)
    except ValueError as error:
        raise BadSetup(f"{where}: {error}") from error


def _prices(setup: Setup, stalls: list[Stall]) -> list[Stall]:
    """The `prices` option: "1a=2 green,3c=1 red" replaces single printed prices."""
    raw = setup.option("prices")
    if not raw:
        return stalls
    changed = {s.number: list(s.slots) for s in stalls}
    for item in raw.split(","):
        where, sep, price = item.partition("=")
        where = where.strip().lower()
        if not sep or len(where) != 2 or not where[0].isdigit() or int(where[0]) not in changed:
            raise BadSetup(
                f"prices: {item.strip()!r} is not 'space=price' for a stall in play (e.g. 3b=1 red)"
            )
        slots = changed[int(where[0])]
        index = SLOT_LETTERS.find(where[1])
        if not 0 <= index < len(slots):
            raise BadSetup(f"prices: stall {where[0]} has no space {where[1]!r}")
        _check_price(price.strip(), f"prices {where}")
        slots[index] = Slot(slots[index].space, price.strip())
    return [make_stall(s.number, s.name, tuple(changed[s.number])) for s in stalls]


def _build_cards(data: dict[str, Any], size: int) -> list[tuple[str, ...]]:
    """The build cards in play, each its materials in alphabetical order."""
    cards = []
    try:
        for raw in data["build_cards"]:
            if int(raw.get("players", 2)) <= size:
                cards.append(tuple(sorted(str(m) for m in raw["materials"])))
    except (KeyError, TypeError, ValueError) as error:
        raise BadSetup(f"a build card needs materials and players: {error}") from error
    for card in cards:
        if len(card) != CARD_SIZE or set(card) - set(MATERIALS):
            raise BadSetup(f"a build card shows {CARD_SIZE} materials from {', '.join(MATERIALS)}: {card}")
    if len(cards) < BUILD_MIN:
        raise BadSetup(f"a game needs at least {BUILD_MIN} build cards")
    return cards


def _black_cards(data: dict[str, Any]) -> tuple[list[BlackCard], list[int]]:
    """The black market card faces and how many of each the deck holds."""
    cards: list[BlackCard] = []
    deck: list[int] = []
    try:
        for raw in data["black_market"]:
            card = BlackCard(
                name=str(raw["name"]).strip(), effect=str(raw["effect"]), price=str(raw["price"])
            )
            if card.effect not in EFFECTS:
                raise BadSetup(f"black market card {card.name!r}: effect is one of {', '.join(EFFECTS)}")
            if not card.name or "+" in card.name or any(c.name.lower() == card.name.lower() for c in cards):
                raise BadSetup(f"black market card names are distinct and have no '+': {card.name!r}")
            _check_price(card.price, f"black market card {card.name!r}")
            cards.append(card)
            deck.append(int(raw.get("count", 1)))
    except (KeyError, TypeError, ValueError) as error:
        raise BadSetup(f"a black market card needs name, effect, price and count: {error}") from error
    if min(deck) < 0 or sum(deck) < 3:
        raise BadSetup("the black market deck needs at least 3 cards")
    return cards, deck


def _bag(setup: Setup, data: dict[str, Any]) -> Gems:
    gems = data["gems"]
    raw = setup.option("gems")
    try:
        green, blue, red = (
            (int(v) for v in raw.split(",")) if raw else (gems["green"], gems["blue"], gems["red"])
        )
        bag = Gems(green, blue, red, int(gems["passes"]))
    except (KeyError, ValueError) as error:
        raise BadSetup(f"option 'gems' is three whole numbers: green,blue,red (got {raw!r})") from error
    if min(bag.counts()) < 0 or bag.gems < 10:
        raise BadSetup("the bag needs at least 10 gems and no negative counts")
    return bag


def _layout(setup: Setup, stalls: list[Stall], advanced: bool, rng: random.Random) -> list[Stall]:
    """Materials on the spaces: each on its own colour (Setup), or anywhere (advanced variant)."""
    spaces = [slot.space for stall in stalls for slot in stall.slots]
    raw = setup.option("layout")
    if raw:
        groups = raw.lower().split("/")
        if len(groups) != len(stalls) or any(len(g) != len(s.slots) for g, s in zip(groups, stalls)):
            shape = "/".join("x" * len(s.slots) for s in stalls)
            raise BadSetup(f"layout needs one letter per space, stalls separated by '/': {shape}")
        placed = [LETTER.get(ch, "") if ch != "-" else "" for g in groups for ch in g]
        if any(ch not in LETTER and ch != "-" for g in groups for ch in g):
            raise BadSetup("layout letters are s(traw), l(umber), c(lay), w(ater) or - (empty)")
        if Counter(m for m in placed if m) != Counter(spaces):
            raise BadSetup(f"layout must place the materials of the stalls in play: {dict(Counter(spaces))}")
        if not advanced and any(m and m != s for m, s in zip(placed, spaces)):
            raise BadSetup("without the advanced variant each material lies on its own colour of space")
    elif advanced:
        # Variants, advanced: "randomly place all of the materials in any open space".
        placed = list(spaces)
        rng.shuffle(placed)
    else:
        placed = spaces
    out = []
    it = iter(placed)
    for stall in stalls:
        out.append(
            make_stall(stall.number, stall.name, tuple(Slot(s.space, s.price, next(it)) for s in stall.slots))
        )
    return out


def initial_state(setup: Setup) -> TowerState:
    n = setup.players
    unknown = set(setup.options) - set(OPTIONS)
    if unknown:
        raise BadSetup(f"unknown options {sorted(unknown)}; known: {sorted(OPTIONS)}")
    if not 1 <= n <= 4:
        raise BadSetup("Tower is for 1 to 4 players (a solo game plays against Lutfi)")
    lutfi_opt = setup.option("lutfi", "auto").strip().lower()
    if lutfi_opt not in ("auto", "on", "off"):
        raise BadSetup(f"option 'lutfi' is auto, on or off, not {lutfi_opt!r}")
    lutfi = lutfi_opt == "on" or (lutfi_opt == "auto" and n == 1)
    if n == 1 and not lutfi:
        raise BadSetup("a solo game is played against Lutfi (Lutfi, Solo Play): set lutfi to on or auto")
    if n == 4 and lutfi:
        raise BadSetup(
            "Lutfi 'is not meant to participate in a four-player game' (Lutfi, the Automated Player)"
        )
    try:
        wins_at = int(setup.option("lutfi_wins_at", str(SEGMENTS_TO_WIN)))
        rng = random.Random(int(setup.option("seed", "0")))
    except ValueError as error:
        raise BadSetup("options 'lutfi_wins_at' and 'seed' are whole numbers") from error
    if wins_at not in (1, 2, 3) or (wins_at != SEGMENTS_TO_WIN and n != 1):
        raise BadSetup("lutfi_wins_at is 3, 2 or 1, and only for a solo game (Lutfi, Solo Play)")
    size = n + (1 if lutfi else 0)
    advanced = _flag(setup, "advanced")
    variants = Variants(
        # Setup: "with 2 players, build cards should be placed facedown and kept secret."
        secret_cards=_flag(setup, "secret_cards") or n == 2,
        advanced=advanced,
        apprentices=_flag(setup, "apprentices"),
        royal_guard=_flag(setup, "royal_guard"),
        lutfi=lutfi,
        lutfi_wins_at=wins_at,
    )
    data = table_data(setup)
    stalls = _layout(setup, _prices(setup, _stalls(data, size)), advanced, rng)
    cards = _build_cards(data, size)
    in_play = Counter(slot.material for stall in stalls for slot in stall.slots if slot.material)
    for card in cards:
        if any(Counter(card)[m] > in_play[m] for m in MATERIALS):
            raise BadSetup(
                f"build card {'/'.join(card)} asks for more than the markets hold: {dict(in_play)}"
            )
    black, black_deck = _black_cards(data)
    colours = setup.values("colours", n, DEFAULT_COLOURS)
    names = setup.values("names", n, [c.capitalize() for c in colours])
    if len(set(colours)) != n or len({name.lower() for name in names}) != n:
        raise BadSetup("each player needs their own name and colour")
    bag = _bag(setup, data)
    return TowerState(
        players=tuple(Player(name=name, colour=colour) for name, colour in zip(names, colours)),
        stalls=tuple(stalls),
        build_cards=tuple(" ".join(card) for card in cards),
        black_cards=tuple(black),
        bag=bag,
        gem_totals=bag,
        build_deck=tuple(range(1, len(cards) + 1)),
        black_deck=tuple(black_deck),
        variants=variants,
        turn=Turn(seat=0, step=DEAL, count=1),
        lutfi=Lutfi() if lutfi else None,
        apprentices=tuple(Apprentice(a) for a in APPRENTICES) if variants.apprentices else (),
    )
