"""Whether JSON decoded as a `TowerState` is something the rules can play on."""

from __future__ import annotations

from collections import Counter

from ..base import BadState
from .gems import Gems, parse_price
from .setup import CARD_SIZE, EFFECTS
from .state import (
    APPRENTICES,
    BLACK_DRAW,
    BUILD_DRAW,
    KEEP,
    LUTFI_WON,
    MATERIALS,
    NO_WINNER,
    PICK,
    STEPS,
    TowerState,
)


def _fail(why: str) -> None:
    raise BadState(why)


def _check_gems(state: TowerState) -> None:
    hands = [state.bag, state.salil, *(p.gems for p in state.players)]
    if any(min(h.counts()) < 0 for h in hands):
        _fail("gem counts cannot be negative")
    if sum(hands, Gems()) != state.gem_totals:
        _fail(f"the bag, Salil and the players must hold all {state.gem_totals} of the game")


def _check_cards(state: TowerState) -> None:
    offer = state.turn.offer
    build_offer = offer if state.turn.step in (BUILD_DRAW, PICK) else ()
    black_offer = offer if state.turn.step in (BLACK_DRAW, KEEP) else ()
    if offer and not (build_offer or black_offer):
        _fail("cards are on offer only while drawing or choosing them")
    for number in range(1, len(state.build_cards) + 1):
        card = state.card_of(number)
        if len(card) != CARD_SIZE or set(card) - set(MATERIALS):
            _fail(f"a build card shows {CARD_SIZE} materials: {card}")
    held = [p.card for p in state.players if p.card]
    if state.lutfi and state.lutfi.card:
        held.append(state.lutfi.card)
    build = sorted([*state.build_deck, *state.build_discard, *held, *build_offer])
    if build != list(range(1, len(state.build_cards) + 1)):
        _fail("every build card must be in exactly one place: deck, discard pile, a hand or the offer")
    for face in state.black_cards:
        if face.effect not in EFFECTS:
            _fail(f"unknown black market effect {face.effect!r}")
        try:
            parse_price(face.price)
        except ValueError as error:
            _fail(str(error))
    faces = len(state.black_cards)
    black = [*state.black_top, *black_offer, *(c for p in state.players for c in p.black_cards)]
    if any(not 1 <= c <= faces for c in black):
        _fail("a black market card number is out of range")
    for pile in (state.black_deck, state.black_discard):
        if len(pile) > faces or any(n < 0 for n in pile):
            _fail("a black market pile counts each card at most once per face, never below 0")


def _check_board(state: TowerState) -> None:
    numbers = [s.number for s in state.stalls]
    if len(set(numbers)) != len(numbers) or not all(1 <= n <= 6 for n in numbers):
        _fail("stall numbers are distinct die faces 1-6")
    tokens: Counter[str] = Counter()
    for stall in state.stalls:
        for slot in stall.slots:
            if slot.space not in MATERIALS or slot.material not in (*MATERIALS, ""):
                _fail(f"stall {stall.number}: unknown material")
            try:
                parse_price(slot.price)
            except ValueError as error:
                _fail(str(error))
            tokens[slot.material] += 1
    del tokens[""]
    for p in state.players:
        tokens.update(p.materials)
        if set(p.materials) - set(MATERIALS) or set(p.concoctions) - set(MATERIALS):
            _fail(f"{p.name} holds an unknown material")
        if p.stall and p.stall not in numbers or p.jailed and p.stall:
            _fail(f"{p.name}'s meeple stands on a stall that is not in play (or in jail)")
    if state.lutfi:
        tokens.update(state.lutfi.materials)
    tokens.update(state.turn.returns)
    spaces = Counter(slot.space for stall in state.stalls for slot in stall.slots)
    if tokens != spaces:
        _fail(f"the building materials must be the {sum(spaces.values())} tokens of the stalls in play")
    if state.guard and state.guard not in numbers:
        _fail("the Royal Guard stands on a stall that is not in play")
    for a in state.apprentices:
        if (
            a.name not in APPRENTICES
            or not -1 <= a.seat < state.seats
            or (a.stall and a.stall not in numbers)
        ):
            _fail(f"apprentice {a.name!r} is out of range")


def check_state(state: TowerState) -> None:
    """BadState unless every part of `state` is in range and adds up."""
    n = state.seats
    if not 1 <= n <= 4:
        _fail("Tower has 1 to 4 players")
    if state.turn.step not in STEPS or not 0 <= state.turn.seat <= n or state.turn.count < 0:
        _fail("the turn's step, seat or count is out of range")
    if state.turn.seat == n and not state.lutfi:
        _fail("seat after the last player is Lutfi's, and there is no Lutfi")
    if n == 1 and not state.lutfi:
        _fail("a solo game needs Lutfi")
    if state.winner not in (NO_WINNER, LUTFI_WON) and not 0 <= state.winner < n:
        _fail("the winner is not a seat")
    if any(not 0 <= seat <= n for seat in state.palace) or len(state.palace) > 4 * 3:
        _fail("the palace's segments are each a seat's (or solo Lutfi's), at most 12")
    _check_gems(state)
    _check_cards(state)
    _check_board(state)
