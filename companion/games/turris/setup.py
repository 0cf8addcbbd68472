"""Turris set-up ("03 Setup"): seats, the First Player, Beasts on the Excavation spots, the
Mission deck and the Location rewards (turris.toml, correctable by options)."""

from __future__ import annotations

import random
from typing import Any

from ..base import BadSetup, Setup, game_data
from .beasts import BEASTS, BETRAYERS, Beast, Scout, Table, Tribe
from .board import Board, default_board
from .game import BadEffect, Tally, TurrisState, parse_effect, parse_mission

COLOURS = ("red", "blue", "green", "yellow")
"""ASSUMED default Scout colours (the text does not name them); give your own with 'colours'."""

OPTIONS = {
    "names": "player names in seat order, comma-separated (default: the colours)",
    "colours": "Scout colours, comma-separated (default: red,blue,green,yellow)",
    "first": "the First Player's seat, 1-4 (default: drawn at random, 03 Setup 12)",
    "seed": "random seed for anything not given (default 0)",
    "beasts": "rulebook (Pain on A, Delusion on B, Despair on C, Harrow on D; default) or random",
    "rewards": "your board's Location rewards, e.g. Forge=2W;Shrine=1K+1A (letters as in turris.toml)",
    "council": "your Council track's spot rewards from the start, e.g. -,1I,1K+1R,room,2A",
    "movement": "solo: your Beast Movement deck, e.g. Pain@Spire,Harrow@Nest (Beast@Location)",
    "missions": "your Mission deck, comma-separated cost=Prestige, e.g. 2K+1R=3,3W=3",
}


def data() -> dict[str, Any]:
    return game_data(__package__, "turris.toml")


def _rewards(setup: Setup, board: Board) -> tuple[tuple[str, str], ...]:
    rewards = dict(data()["rewards"])
    for item in filter(None, (part.strip() for part in setup.option("rewards").split(";"))):
        place, sep, reward = item.partition("=")
        if not sep or place.strip() not in board.locations:
            raise BadSetup(
                f"rewards: {item!r} is not Location=reward (Locations: {', '.join(board.locations)})"
            )
        rewards[place.strip()] = reward.strip()
    try:
        for reward in rewards.values():
            parse_effect(reward)
    except BadEffect as error:
        raise BadSetup(f"rewards: {error}") from error
    return tuple(sorted(rewards.items()))


def _council(setup: Setup) -> tuple[str, ...]:
    spots = setup.values("council", None, list(data()["council"]["spots"]))
    if len(spots) < 2:
        raise BadSetup("council: the track has a starting spot and at least one more")
    try:
        for spot in spots:
            parse_effect(spot)
    except BadEffect as error:
        raise BadSetup(f"council: {error}") from error
    return tuple(spots)


def _movement(setup: Setup, board: Board) -> tuple[str, ...]:
    cards = setup.values("movement", None, list(data()["solo"]["movement"]))
    for card in cards:
        beast, _, place = card.partition("@")
        if beast not in BEASTS or place not in board.locations:
            raise BadSetup(f"movement: {card!r} is not Beast@Location (Beasts: {', '.join(BEASTS)})")
    return tuple(cards)


def _missions(setup: Setup) -> tuple[str, ...]:
    cards = setup.values("missions", None, list(data()["missions"]["cards"]))
    try:
        for card in cards:
            parse_mission(card)
    except BadEffect as error:
        raise BadSetup(f"missions: {error}") from error
    return tuple(cards)


def initial_state(setup: Setup, board: Board | None = None) -> TurrisState:
    board = board or default_board()
    n = setup.players
    if not 1 <= n <= 4:
        raise BadSetup("Turris is for 1 to 4 players")
    unknown = set(setup.options) - set(OPTIONS)
    if unknown:
        raise BadSetup(f"unknown options {sorted(unknown)}; known: {sorted(OPTIONS)}")
    try:
        rng = random.Random(int(setup.option("seed", "0")))
    except ValueError as error:
        raise BadSetup("option 'seed' is a whole number") from error
    colours = setup.values("colours", n, list(COLOURS))
    names = setup.values("names", n, [c.capitalize() for c in colours])
    if len(set(colours)) != n or len(set(names)) != n:
        raise BadSetup("each player needs their own name and colour")
    first_text = setup.option("first")
    if first_text and (not first_text.isdigit() or not 1 <= int(first_text) <= n):
        raise BadSetup(f"option 'first' is a seat from 1 to {n}")
    first = int(first_text) - 1 if first_text else rng.randrange(n)  # solo: always you (06, Setup 5)
    spots = list(board.excavation)
    mode = setup.option("beasts", "rulebook")
    if mode == "random":
        rng.shuffle(spots)  # "03 Setup" 3, Rules variant
    elif mode != "rulebook":
        raise BadSetup("option 'beasts' is rulebook or random")
    table = Table(
        tribes=tuple(Tribe() for _ in range(n)),  # 03 Setup 13: 4 Scouts and 3 Ichor each
        # 06 Solo Play, Setup 6: the Betrayers' two Scouts start in locations 1 and 10.
        scouts=tuple(Scout(BETRAYERS, board.numbers[k][0]) for k in (0, 9)) if n == 1 else (),
        beasts=tuple(Beast(name, spot) for name, spot in zip(BEASTS, spots)),
        first=first,
        # 03 Setup 2: one Excavation Site per player, from A on; the other spots only hold a Beast.
        no_site=frozenset(board.excavation[n:]),
    )
    return TurrisState(
        names=tuple(names),
        colours=tuple(colours),
        rewards=_rewards(setup, board),
        council_track=_council(setup),
        deck=_missions(setup),
        table=table,
        tallies=tuple(Tally() for _ in range(n)),
        movement_cards=_movement(setup, board) if n == 1 else (),
    )
