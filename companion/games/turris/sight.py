"""What the camera sees of a Turris table: the Scouts, the Beasts and the Fruit token on each
place of the Main Board.

Regions follow the built-in profile (`vision/profiles/turris.toml`, its geometry assumed):
one token region per place, named as the rules name it ("Guild", "Crossroad West", "A").
A Beast is seen as "a Beast", not as which one: the miniatures are assumed alike from above,
and the rules know which Beast stood where, so the places they stand on are enough to
confirm a move. Not read (docs/turris.md): the Altar track, the Beast Speed token, the
tracks, the players' boards and cards; moves that change only those are hidden moves to
`companion.inference`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import cast

from vision.types import Observation, Route

from ..sight import UNSURE, Seen, Sight
from .beasts import BEASTS, BETRAYERS, beast_turn
from .board import default_board
from .game import BEAST, CARD_BEAST, TurrisState
from .setup import COLOURS

BEAST_PIECE, FRUIT = "Beast", "Fruit token"
"""How a place's picture names the pieces that are not a player's."""
PROFILE = "turris"


def betrayers_colour(state: TurrisState) -> str:
    """Solo: the Betrayers' Scouts are of "any non-player color" ("06 Appendix 1: Solo Play",
    SETUP 3). ASSUMED: the first of the game's default colours the player does not use."""
    return next(c for c in COLOURS if c not in state.colours)


def scout(colour: str) -> str:
    return f"{colour} Scout"


class TurrisSight(Sight):
    def profile_name(self, state: TurrisState) -> str:
        return PROFILE

    def piece_colours(self, state: TurrisState) -> tuple[str, ...]:
        return (*state.colours, betrayers_colour(state)) if state.solo else state.colours

    def region_name(self, state: TurrisState, region: str) -> str:
        if region in default_board().excavation:
            return f"Excavation spot {region}"
        return f"the {region}"

    def expected(self, state: TurrisState) -> dict[str, Hashable]:
        """Every place of the board, with what stands there (an empty Excavation spot too: it
        is printed on the board)."""
        table = state.table
        pieces: dict[str, list[str]] = {place: [] for place in default_board().every}
        for s in table.scouts:
            colour = betrayers_colour(state) if s.seat == BETRAYERS else state.colours[s.seat]
            pieces[s.location].append(scout(colour))
        for b in table.beasts:
            if b.location is not None:
                pieces[b.location].append(BEAST_PIECE)
        if table.fruit is not None:
            pieces[table.fruit].append(FRUIT)
        return {place: tuple(sorted(p)) for place, p in pieces.items()}

    def seen(self, state: TurrisState, observation: Observation, regions: frozenset[str]) -> Seen:
        """Each place the profile has: the pieces read there (a Beast and the Fruit token by
        their size alone, their colour being their kind's own); a place with an unsure piece
        is unsure."""
        places = frozenset(default_board().every) & regions
        pieces: dict[str, list[str]] = {place: [] for place in places}
        unsure: set[str] = set()
        for token in observation.tokens:
            if token.region not in pieces:
                continue
            if token.kind == "beast":
                pieces[token.region].append(BEAST_PIECE)
            elif token.kind == "fruit":
                pieces[token.region].append(FRUIT)
            else:
                pieces[token.region].append(scout(token.color or "?"))
            if token.confidence <= UNSURE:
                unsure.add(token.region)
        return Seen({place: tuple(sorted(p)) for place, p in pieces.items()}, frozenset(unsure))

    def routes(self, state: TurrisState) -> tuple[Route, ...]:
        """The Beasts' moves since the last player action, as arrows (the miniatures to move),
        and the path plotted for the Beast that acts next, as a line ("2) Plot Path")."""
        moved = tuple(Route(f"move the {name}", path) for name, path in state.trails)
        if state.phase not in (BEAST, CARD_BEAST) or state.beast >= len(BEASTS) or state.moving:
            return moved  # (a Beast moved by a card waits for an answer: its answers, not this one's)
        name = BEASTS[state.beast]
        turn = beast_turn(default_board(), state.table, name, state.answers, state.phase == BEAST)
        plotted = next((e.plotted for e in turn.events if e.plotted), ())
        return (*moved, Route(f"the {name}'s path", plotted, planned=True)) if plotted else moved

    def words(self, value: Hashable) -> str:
        """ "a Beast, red Scout ×2", or "nothing"."""
        if not value:
            return "nothing"
        counts = Counter(cast(tuple[str, ...], value))
        named = {BEAST_PIECE: "a Beast", FRUIT: "the Fruit token"}
        return ", ".join(
            named.get(piece, piece) if n == 1 else f"{piece} ×{n}" for piece, n in sorted(counts.items())
        )
