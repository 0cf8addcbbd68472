"""Tower states: immutable values (the codec turns them into JSON by their type hints)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from .gems import Gems

MATERIALS = ("straw", "lumber", "clay", "water")
"""The four building materials ("Components"): yellow, brown, red and blue spaces."""

SEGMENTS_TO_WIN = 3  # Endgame: "The first player to build three tower segments is the winner!"
GEMS_PER_DRAW = 3  # How to Play: "randomly draw three gems"
IDLE_BONUS = 2  # "If you did not execute any of the above actions ... draw 2 more gems"
BUILD_OFFER = 3  # Build phase: "draw 3 new build cards—pick 1 to keep"
BLACK_OFFER = 3  # The Black Market: "draw 3 cards"
HAND_LIMIT = 3  # "no more than 3 black market cards at any time"

# Steps of a turn. CHANCE steps wait for the table to report a draw or a die.
DEAL = "deal"  # CHANCE: each player (then Lutfi) draws a build card (Setup)
LUTFI_DIE = "lutfi-die"  # CHANCE: the die places Lutfi at the start (Lutfi)
DRAW = "draw"  # CHANCE: the draw phase, one gem at a time
ACTION = "action"  # the action phase (the jail release and Royal Guard steps open it)
BLACK_DRAW = "black-draw"  # CHANCE: the black market's three cards
KEEP = "keep"  # choose the black market cards paid for
RETURN = "return"  # build phase: each material back to a market space
BUILD_DRAW = "build-draw"  # CHANCE: three new build cards (one for Lutfi)
PICK = "pick"  # keep one of the three build cards
BONUS = "bonus"  # CHANCE: two more gems for a turn without actions
HUNT = "hunt"  # CHANCE: the Royal Guard's die
REWARD = "reward"  # CHANCE: the gem for an opponent's arrest
LUTFI = "lutfi"  # Lutfi moves and shops
OVER = "over"
STEPS = (
    DEAL,
    LUTFI_DIE,
    DRAW,
    ACTION,
    BLACK_DRAW,
    KEEP,
    RETURN,
    BUILD_DRAW,
    PICK,
    BONUS,
    HUNT,
    REWARD,
    LUTFI,
    OVER,
)
CHANCE_STEPS = (DEAL, LUTFI_DIE, DRAW, BLACK_DRAW, BUILD_DRAW, BONUS, HUNT, REWARD)

STAND_IN, BULLY, RUNNER = "stand-in", "bully", "runner"
APPRENTICES = (STAND_IN, BULLY, RUNNER)
APPRENTICE_COST = {STAND_IN: "1 any", BULLY: "1 blue / 1 red", RUNNER: "1 red"}  # The Apprentices

NO_WINNER, LUTFI_WON = -1, -2


@dataclass(frozen=True)
class Slot:
    """One space of a market stall: the material printed for it, its price, what lies on it."""

    space: str
    price: str
    material: str = ""
    """The token on the space ("" when it is empty); in the advanced game any material."""


EMPTY = "-"
PRICE_SEPARATOR = "; "


@dataclass(frozen=True)
class Stall:
    """A market stall tile. Its spaces are kept as three short texts (one word or price per
    space, left to right) so that a state stays small; `slots` reads them as `Slot`s."""

    number: int
    """The die face that names the stall (1-6)."""
    name: str
    spaces: str
    """The material printed for each space: "straw lumber water"."""
    prices: str
    """Each space's price, separated by "; ": "2 green+1 blue; 1 red+1 green; 2 blue+1 green"."""
    stock: str
    """The token on each space, "-" for an empty one: "straw - water"."""

    @property
    def slots(self) -> tuple[Slot, ...]:
        return _slots(self.spaces, self.prices, self.stock)

    def with_material(self, index: int, material: str) -> Stall:
        """The stall with `material` ("" = none) on space `index`."""
        stock = self.stock.split()
        stock[index] = material or EMPTY
        return Stall(self.number, self.name, self.spaces, self.prices, " ".join(stock))


def make_stall(number: int, name: str, slots: tuple[Slot, ...]) -> Stall:
    return Stall(
        number=number,
        name=name,
        spaces=" ".join(s.space for s in slots),
        prices=PRICE_SEPARATOR.join(s.price for s in slots),
        stock=" ".join(s.material or EMPTY for s in slots),
    )


@cache
def _slots(spaces: str, prices: str, stock: str) -> tuple[Slot, ...]:
    return tuple(
        Slot(space, price.strip(), "" if material == EMPTY else material)
        for space, price, material in zip(spaces.split(), prices.split(";"), stock.split())
    )


@dataclass(frozen=True)
class BlackCard:
    """A black market card's printed face: its name, what it does and its cost to use."""

    name: str
    effect: str
    price: str


@dataclass(frozen=True)
class Player:
    name: str
    colour: str
    gems: Gems = Gems()
    card: int = 0
    """The build card being worked on (an index into `build_cards`, from 1; 0 = none)."""
    materials: tuple[str, ...] = ()
    """Building materials bought (or stolen), sorted."""
    concoctions: tuple[str, ...] = ()
    """Materials a Dubious Concoction stands in for until the next build."""
    segments: int = 0
    black_cards: tuple[int, ...] = ()
    """Black market cards in hand (indices into `black_cards`, from 1)."""
    stall: int = 0
    """The stall the builder meeple stands on (0: in front of the player)."""
    jailed: bool = False
    wanted: bool = False
    hired_last_turn: bool = False
    """An apprentice was hired last turn, so none may be hired this turn."""


@dataclass(frozen=True)
class Lutfi:
    """The automated player: his meeple, his build card and what he has collected."""

    stall: int = 0
    standing: bool = True
    """Standing: the stall is occupied. Laid down: it is not."""
    card: int = 0
    materials: tuple[str, ...] = ()
    segments: int = 0
    """Segments built (solo play only)."""


@dataclass(frozen=True)
class Apprentice:
    name: str
    seat: int = -1
    """The employer until the start of their next turn, or -1 (free)."""
    stall: int = 0
    """The stall the stand-in or runner occupies (0: on its card)."""


@dataclass(frozen=True)
class Variants:
    """What the table chose at set-up: variants and Citizens of Meeplestand expansions."""

    secret_cards: bool = False
    advanced: bool = False
    apprentices: bool = False
    royal_guard: bool = False
    lutfi: bool = False
    lutfi_wins_at: int = SEGMENTS_TO_WIN
    """Solo play: Lutfi wins on building this many segments (3, or 2 or 1 for a harder game)."""


@dataclass(frozen=True)
class Turn:
    """Where the current turn is, and what it has done so far."""

    seat: int = 0
    """The seat whose turn it is; len(players) is Lutfi's turn (and his deal)."""
    step: str = DEAL
    count: int = 0
    """Draws still to make in a CHANCE step."""
    acted: bool = False
    """An action was executed (buy, trade, black market, card, apprentice) or a segment built."""
    opened: bool = False
    """The action phase has begun with an action: the Royal Guard's start steps are past."""
    visited: int = 0
    """The stall the meeple shopped at this turn (one stall per turn)."""
    black_market: bool = False
    preferred: bool = False
    """A Preferred Customer card is in force: an occupied stall may be shared."""
    hired: str = ""
    offer: tuple[int, ...] = ()
    """Black market cards drawn on entering, or build cards drawn to pick from."""
    keep: int = 0
    """How many black market cards were paid for."""
    returns: tuple[str, ...] = ()
    """Materials still to be put back on market spaces."""
    arrested: int = 0
    """Opponents the Royal Guard just arrested on this player's roll: gems still owed."""


@dataclass(frozen=True)
class TowerState:
    players: tuple[Player, ...]
    """In turn order; seat 0 starts (the table decides the start player at random)."""
    stalls: tuple[Stall, ...]
    """The stalls in play, in clockwise order (ascending numbers)."""
    build_cards: tuple[str, ...]
    """Every build card in play, its materials in one text (card n is build_cards[n - 1])."""
    black_cards: tuple[BlackCard, ...]
    bag: Gems
    gem_totals: Gems
    """All gems and passes in the game (for checking a state)."""
    build_deck: tuple[int, ...]
    """The facedown build deck (its order is unknown: a set)."""
    black_deck: tuple[int, ...]
    """How many of each black market card (in `black_cards` order) are in the facedown deck."""
    variants: Variants = Variants()
    salil: Gems = Gems()
    build_discard: tuple[int, ...] = ()
    black_top: tuple[int, ...] = ()
    """Black market cards (numbers from 1) put back on top of the deck: known, drawn first."""
    black_discard: tuple[int, ...] = ()
    """How many of each black market card lie on the discard pile."""
    turn: Turn = field(default_factory=Turn)
    round: int = 1
    lutfi: Lutfi | None = None
    guard: int = 0
    """The stall the Royal Guard investigates (0: at the jail)."""
    apprentices: tuple[Apprentice, ...] = ()
    shortage: bool = False
    """A kingdom-wide shortage: materials may be substituted until the next segment is built."""
    winner: int = NO_WINNER
    """The seat that built its third segment, LUTFI_WON in a solo game Lutfi won, or NO_WINNER."""
    palace: tuple[int, ...] = ()
    """Who built each segment on the palace, bottom first (Lutfi, in a solo game: `seats`)."""

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def current(self) -> Player:
        return self.players[self.turn.seat]

    def stall(self, number: int) -> Stall:
        for stall in self.stalls:
            if stall.number == number:
                return stall
        raise KeyError(number)

    def card_of(self, number: int) -> tuple[str, ...]:
        return _materials(self.build_cards[number - 1]) if number else ()


def pile_with(pile: tuple[int, ...], card: int, change: int) -> tuple[int, ...]:
    """A pile of black market cards (counts per card) with `change` more of card number `card`."""
    counts = list(pile) + [0] * (card - len(pile))
    counts[card - 1] += change
    return tuple(counts)


@cache
def _materials(text: str) -> tuple[str, ...]:
    return tuple(text.split())
