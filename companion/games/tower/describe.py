"""The table in plain lines for the phones: every seat, the city, Salil, the bag and the decks.

The current player also sees what they can do right now, with reasons: every purchase
with every way to pay it, the Salil trades that would make a purchase possible, the
black market's entry fees, the apprentices they may hire, and the odds that the bag
gives them what they need.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..base import SeatView, TableView
from .apprentices import why_not_hire
from .blackmarket import entry_moves
from .gems import KINDS, Gems, ways_to_pay
from .guard import BAIL
from .lutfi import destination
from .market import blockers, can_build, lutfi_needs, occupants, shop_stalls, still_needed, wants
from .moves import slot_name
from .odds import chance_to_afford
from .rules import buy_moves, phase, trade_moves
from .state import (
    ACTION,
    DEAL,
    GEMS_PER_DRAW,
    LUTFI_DIE,
    LUTFI_WON,
    NO_WINNER,
    OVER,
    SEGMENTS_TO_WIN,
    Player,
    TowerState,
)

STEP_WORDS = {
    "deal": "dealing build cards",
    "lutfi-die": "rolling the die to place Lutfi",
    "draw": "draw phase",
    "action": "action phase",
    "black-draw": "drawing black market cards",
    "keep": "choosing black market cards",
    "return": "build phase: returning materials",
    "build-draw": "build phase: drawing build cards",
    "pick": "build phase: picking a build card",
    "bonus": "no actions: drawing 2 more gems",
    "hunt": "the Royal Guard's die",
    "reward": "the reward gem for an arrest",
    "lutfi": "Lutfi's turn",
}


def headline(state: TowerState) -> str:
    if state.turn.step == OVER:
        if state.winner == LUTFI_WON:
            return "Game over: Lutfi built his tower segments first"
        if state.winner != NO_WINNER:
            return f"Game over: {state.players[state.winner].name} built the third segment and wins"
        return "Game over"
    if state.turn.step in (DEAL, LUTFI_DIE):
        return f"Set-up · {STEP_WORDS[state.turn.step]}"
    if state.turn.seat == state.seats:
        return f"Round {state.round} · {STEP_WORDS['lutfi']}"
    return f"Round {state.round} · {state.current.name}'s {STEP_WORDS[state.turn.step]}"


def percent(p: float) -> str:
    return f"{round(100 * p)}%"


def card_visible(state: TowerState, seat: int) -> bool:
    """Build cards are public unless kept secret (2 players, or the less-aggressive variant);
    a secret card shows on the phone during its owner's turn only."""
    return not state.variants.secret_cards or (state.turn.seat == seat and state.turn.step != OVER)


def seat_lines(state: TowerState, seat: int) -> Iterator[str]:
    player = state.players[seat]
    yield f"Tower segments: {player.segments} of {SEGMENTS_TO_WIN}"
    yield f"Gems: {player.gems}"
    if player.card and card_visible(state, seat):
        yield f"Build card {player.card}: {', '.join(state.card_of(player.card))}"
        need = still_needed(state, player)
        yield f"Still needs: {', '.join(need)}" if need else "Has everything on the card: builds this turn"
    elif player.card:
        yield "Build card: secret"
    if player.materials:
        yield f"Has: {', '.join(player.materials)}"
    if player.concoctions:
        yield f"Dubious Concoction standing in for: {', '.join(player.concoctions)}"
    if player.jailed:
        yield f"In jail: pays {BAIL} gems at the start of the next action phase"
    elif player.stall:
        yield f"Meeple on stall {player.stall} ({state.stall(player.stall).name})"
    if player.wanted:
        yield "Wanted: no trades with Salil, hunted by the Royal Guard"
    if player.black_cards:
        names = [state.black_cards[c - 1].name for c in player.black_cards]
        shown = f": {', '.join(names)}" if seat == state.turn.seat else ""
        yield f"Black market cards: {len(names)}{shown}"
    if state.variants.apprentices and player.hired_last_turn:
        yield "Hired an apprentice last turn: none this turn"
    if seat == state.turn.seat and state.turn.step == ACTION:
        yield from options(state, seat, player)


def options(state: TowerState, seat: int, player: Player) -> Iterator[str]:
    """What the current player can do now, with the reason for each figure."""
    if player.jailed:
        yield f"First: pay {BAIL} gems to leave jail"
        return
    if can_build(state, player):
        yield "Can build: end the actions to place a segment"
    buys: dict[str, list[str]] = {}
    for move in buy_moves(state):
        where = f"{move.material} at {slot_name(move.stall, move.slot)}"
        buys.setdefault(where, []).append(str(move.paid))
    for where, ways in buys.items():
        yield f"Can buy {where}, paying {' or '.join(ways)}"
    yield from trade_hints(state, seat, player, set(buys))
    entries = [m for m in entry_moves(state) if m.cards == 1]
    if entries:
        yield f"Black market: 1 card for {' or '.join(str(m.paid) for m in entries)}"
    elif state.turn.black_market:
        yield "Black market: already visited this turn"
    why = why_not_hire(state)
    if state.variants.apprentices:
        free = [a.name for a in state.apprentices if a.seat < 0]
        yield f"Apprentices: {why}" if why else f"Apprentices free to hire: {', '.join(free) or 'none'}"
    bag = state.bag
    if bag.total:
        odds = " · ".join(f"{k} {percent(bag.count(k) / bag.total)}" for k in KINDS if bag.count(k))
        yield f"Next gem from the bag: {odds}"
    if not buys and (still_needed(state, player) or state.shortage):
        chance = chance_to_afford(state, seat, GEMS_PER_DRAW)
        yield f"Chance that next turn's {GEMS_PER_DRAW} gems let you pay for a needed item: {percent(chance)}"


def trade_hints(state: TowerState, seat: int, player: Player, bought: set[str]) -> Iterator[str]:
    """Salil trades after which a needed item at a stall open to you becomes payable."""
    trades = list(trade_moves(state))
    for number in shop_stalls(state, seat):
        for i, slot in enumerate(state.stall(number).slots):
            where = f"{slot.material} at {slot_name(number, i)}"
            if not slot.material or where in bought or not wants(state, player, slot.material):
                continue
            helpful = [t for t in trades if ways_to_pay(slot.price, player.gems - t.given + t.taken)]
            if helpful:
                trades_text = " or ".join(str(t) for t in helpful[:3])
                yield f"{where} ({slot.price}) after a Salil trade: {trades_text}"


def stall_lines(state: TowerState) -> Iterator[str]:
    seat = state.turn.seat
    for stall in state.stalls:
        spaces = " · ".join(
            f"{slot_name(stall.number, i)} {slot.material or '(empty ' + slot.space + ')'} {slot.price}"
            for i, slot in enumerate(stall.slots)
        )
        who = occupants(state, stall.number)
        line = f"Stall {stall.number} {stall.name}: {spaces}"
        if who:
            line += f" — {', '.join(who)}"
        if seat < state.seats and state.turn.step == ACTION and not state.turn.visited:
            keeps_out = blockers(state, seat, stall.number)
            if keeps_out:
                line += f" (closed to {state.current.name})"
        yield line


def shared_lines(state: TowerState) -> Iterator[str]:
    yield from stall_lines(state)
    salil = state.salil
    tradeable = Gems(salil.green, salil.blue, salil.red)
    passes = f" and {salil.passes} passes (never traded)" if salil.passes else ""
    yield f"Salil's pile: {tradeable}{passes}"
    yield "Salil's rates: 3 green, 2 blue or 1 red for any one gem of his; 1 pass for any two"
    bag = state.bag
    yield f"Bag: {bag.total} ({bag})"
    yield (
        f"Build deck: {len(state.build_deck)} cards, discard pile {len(state.build_discard)} · "
        f"black market deck: {sum(state.black_deck) + len(state.black_top)} cards"
        + (f" ({len(state.black_top)} known on top)" if state.black_top else "")
        + f", discard pile {sum(state.black_discard)}"
    )
    if state.shortage:
        yield "Kingdom-wide shortage: any material may stand in for a needed one until the next segment"
    if state.lutfi:
        yield from lutfi_lines(state)
    if state.variants.royal_guard:
        where = f"investigating stall {state.guard}" if state.guard else "at the jail"
        yield f"Royal Guard: {where}"
    for a in state.apprentices:
        if a.seat < 0:
            yield f"The {a.name}: free"
        else:
            at = f" at stall {a.stall}" if a.stall else ""
            yield f"The {a.name}: working for {state.players[a.seat].name}{at} until their next turn"
    turned_on = [
        name
        for name, on in (
            ("secret build cards", state.variants.secret_cards),
            ("advanced materials", state.variants.advanced),
            ("the Apprentices", state.variants.apprentices),
            ("the Royal Guard", state.variants.royal_guard),
            ("Lutfi", state.lutfi is not None),
        )
        if on
    ]
    if turned_on:
        yield f"Playing with: {', '.join(turned_on)}"


def lutfi_lines(state: TowerState) -> Iterator[str]:
    lutfi = state.lutfi
    if lutfi is None:
        return
    pose = "standing" if lutfi.standing else "lying down"
    where = f"on stall {lutfi.stall} ({pose})" if lutfi.stall else "not yet placed"
    yield f"Lutfi: {where}"
    if lutfi.card:
        need = ", ".join(lutfi_needs(state)) or "nothing"
        yield f"Lutfi's build card {lutfi.card}: {', '.join(state.card_of(lutfi.card))} · still needs {need}"
    if state.seats == 1:
        yield f"Lutfi's tower segments: {lutfi.segments} (he wins on {state.variants.lutfi_wins_at})"
    if lutfi.stall and state.turn.step not in (OVER, DEAL, LUTFI_DIE):
        yield f"Lutfi's next move: clockwise to stall {destination(state)}, the nearest unoccupied shop"


def describe(state: TowerState) -> TableView:
    actor = state.turn.seat if state.turn.step != OVER else -1
    seats = tuple(
        SeatView(
            name=p.name,
            colour=p.colour,
            lines=tuple(seat_lines(state, seat)),
            current=seat == actor and phase(state) not in ("setup", "lutfi"),
        )
        for seat, p in enumerate(state.players)
    )
    return TableView(headline=headline(state), seats=seats, shared=tuple(shared_lines(state)))
