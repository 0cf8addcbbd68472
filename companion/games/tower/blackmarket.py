"""The black market: entry fees, the three cards drawn, keeping, and using the cards.

Tower: The Black Market. Entry costs a pass or 6 green, 4 blue or 2 red gems per card
taken; three cards are drawn and as many kept as were paid for, the rest go back on
top of the deck; a hand holds at most 3 cards; a card's cost to use is paid on use.
What each card does is data (tower.toml) mapped onto the effects below.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from itertools import combinations, combinations_with_replacement

from .flow import with_player
from .gems import COLOURS, KINDS, PASS, Gems, one, parse_gems, ways_to_pay
from .market import still_needed, wants
from .moves import LUTFI_TARGET, SALIL, EnterBlackMarket, Keep, UseCard, target_name
from .state import ACTION, BLACK_DRAW, BLACK_OFFER, HAND_LIMIT, TowerState, pile_with

RULEBOOK = "Tower rulebook"
BLACK_MARKET = f"{RULEBOOK}: The Black Market"
SALIL_RULE = f"{RULEBOOK}: Salil, the Tax Collector"
ENTRY_FEES = (one(PASS), one("green", 6), one("blue", 4), one("red", 2))
"""Per card: passes "grant immediate access", or buy in "to the tune of 6 green, 4 blue, or 2 red gems"."""
STOLEN_GEMS = 2  # ASSUMED: the Experienced Thief takes two gems (tower.toml)


@cache
def entry_payments(held: Gems, cards: int) -> tuple[Gems, ...]:
    """Every way to pay the entry fee for `cards` cards, one fee per card."""
    found: list[Gems] = []
    for fees in combinations_with_replacement(ENTRY_FEES, cards):
        paid = sum(fees, Gems())
        if held.covers(paid) and paid not in found:
            found.append(paid)
    return tuple(found)


def cards_available(state: TowerState) -> int:
    return len(state.black_top) + sum(state.black_deck) + sum(state.black_discard)


def entry_moves(state: TowerState) -> Iterator[EnterBlackMarket]:
    """ "You can only visit the black market once per turn"; "no more than 3 black market cards"."""
    me = state.current
    if state.turn.black_market:
        return
    room = min(HAND_LIMIT - len(me.black_cards), BLACK_OFFER, cards_available(state))
    for cards in range(1, room + 1):
        for paid in entry_payments(me.gems, cards):
            yield EnterBlackMarket(cards, paid)


def apply_enter(state: TowerState, move: EnterBlackMarket) -> TowerState:
    """Pay, then the cards put back on top are drawn first; the rest come off the deck (CHANCE)."""
    seat = state.turn.seat
    me = state.current
    state = with_player(state, seat, replace(me, gems=me.gems - move.paid))
    offer = state.black_top[:BLACK_OFFER]
    wanted = min(BLACK_OFFER, cards_available(state))
    turn = replace(
        state.turn,
        step=BLACK_DRAW,
        count=wanted - len(offer),
        offer=offer,
        keep=move.cards,
        black_market=True,
        acted=True,
        opened=True,
    )
    return replace(state, salil=state.salil + move.paid, black_top=state.black_top[len(offer) :], turn=turn)


def draw_black(state: TowerState, name: str) -> TowerState:
    """CHANCE: a card of this name comes off the deck into the offer."""
    card = next(i for i, face in enumerate(state.black_cards, start=1) if face.name == name)
    turn = replace(state.turn, offer=state.turn.offer + (card,), count=state.turn.count - 1)
    return replace(state, black_deck=pile_with(state.black_deck, card, -1), turn=turn)


def keep_moves(state: TowerState) -> tuple[Keep, ...]:
    """ "select however many cards you paid for upfront from those 3"."""
    names = [state.black_cards[c - 1].name for c in state.turn.offer]
    size = min(state.turn.keep, len(names))
    found: list[Keep] = []
    for chosen in combinations(range(len(names)), size):
        move = Keep(tuple(sorted(names[i] for i in chosen)))
        if move not in found:
            found.append(move)
    return tuple(sorted(found, key=str))


def apply_keep(state: TowerState, move: Keep) -> TowerState:
    """The kept cards go to the hand; "place the remaining 2 cards back on top of the deck"."""
    seat = state.turn.seat
    rest = list(state.turn.offer)
    kept = []
    for name in move.names:
        card = next(c for c in rest if state.black_cards[c - 1].name == name)
        rest.remove(card)
        kept.append(card)
    me = state.current
    state = with_player(state, seat, replace(me, black_cards=tuple(sorted(me.black_cards + tuple(kept)))))
    turn = replace(state.turn, step=ACTION, offer=(), keep=0)
    return replace(state, black_top=tuple(rest) + state.black_top, turn=turn)


@cache
def handfuls(held: Gems, size: int, kinds: tuple[str, ...] = KINDS) -> tuple[Gems, ...]:
    """Every handful of `size` of these kinds that `held` can give."""
    found = []
    for combo in combinations_with_replacement(kinds, size):
        hand = sum((one(k) for k in combo), Gems())
        if held.covers(hand):
            found.append(hand)
    return tuple(found)


def _targets(state: TowerState, effect: str) -> Iterator[tuple[str, str]]:
    """(target, take) pairs a card's effect can reach now."""
    seat = state.turn.seat
    me = state.current
    if effect == "steal_material":
        for other, player in enumerate(state.players):
            if other != seat:
                for material in sorted(set(player.materials)):
                    if wants(state, me, material):
                        yield target_name(other), material
        if state.lutfi:
            for material in sorted(set(state.lutfi.materials)):
                if wants(state, me, material):
                    yield LUTFI_TARGET, material
    elif effect == "steal_gems":
        for other, player in enumerate(state.players):
            if other != seat and player.gems.total:
                for hand in handfuls(player.gems, min(STOLEN_GEMS, player.gems.total)):
                    yield target_name(other), str(hand)
        # Salil: passes "cannot be obtained from Salil, even with an Experienced Thief card";
        # The Royal Guard: a wanted player can no longer "steal from/make trades with Salil".
        if not me.wanted and state.salil.gems:
            for hand in handfuls(state.salil, min(STOLEN_GEMS, state.salil.gems), COLOURS):
                yield SALIL, str(hand)
    elif effect == "wild_material":
        for material in sorted(set(still_needed(state, me))):
            yield "", material
    elif effect == "share_stall":
        if not state.turn.visited and not state.turn.preferred:
            yield "", ""


def use_moves(state: TowerState) -> Iterator[UseCard]:
    """Every use of a card in hand: "so long as you are able to pay their hiring fee"."""
    me = state.current
    seen: set[str] = set()
    for card in me.black_cards:
        face = state.black_cards[card - 1]
        if face.name in seen:
            continue
        seen.add(face.name)
        payments = ways_to_pay(face.price, me.gems)
        for target, take in _targets(state, face.effect):
            for paid in payments:
                yield UseCard(face.name, paid, target=target, take=take)


def apply_use(state: TowerState, move: UseCard) -> TowerState:
    """Pay the cost to use, discard the card, and do what it says."""
    seat = state.turn.seat
    me = state.current
    card = next(c for c in me.black_cards if state.black_cards[c - 1].name == move.name)
    hand = list(me.black_cards)
    hand.remove(card)
    me = replace(me, gems=me.gems - move.paid, black_cards=tuple(hand))
    state = replace(
        state,
        salil=state.salil + move.paid,
        black_discard=pile_with(state.black_discard, card, +1),
        turn=replace(state.turn, acted=True, opened=True),
    )
    effect = state.black_cards[card - 1].effect
    if effect == "wild_material":
        me = replace(me, concoctions=tuple(sorted(me.concoctions + (move.take,))))
    elif effect == "share_stall":
        state = replace(state, turn=replace(state.turn, preferred=True))
    elif effect == "steal_material":
        me = replace(me, materials=tuple(sorted(me.materials + (move.take,))))
        if move.target == LUTFI_TARGET and state.lutfi:
            left = list(state.lutfi.materials)
            left.remove(move.take)
            state = replace(state, lutfi=replace(state.lutfi, materials=tuple(left)))
        else:
            other = int(move.target.split()[1]) - 1
            victim = state.players[other]
            left = list(victim.materials)
            left.remove(move.take)
            state = with_player(state, other, replace(victim, materials=tuple(left)))
    elif effect == "steal_gems":
        taken = parse_gems(move.take)
        me = replace(me, gems=me.gems + taken)
        if move.target == SALIL:
            state = replace(state, salil=state.salil - taken)
        else:
            other = int(move.target.split()[1]) - 1
            victim = state.players[other]
            state = with_player(state, other, replace(victim, gems=victim.gems - taken))
    return with_player(state, seat, me)
