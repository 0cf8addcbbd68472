"""Observation + state -> the move that was made: one, none, several (ask), or a contradiction.

The table is compared with the picture of the state after each legal move (see
`games.sight`). Some moves leave nothing the camera can see (declining a power,
passing, paying from a hand): those may come before a visible move when nobody said
so at the table, so sequences of one hidden move and one visible move are tried too.
When nothing else fits, chains of up to six moves by one player are tried (a die placed,
then its bonus meeple; the actions ended, then a build's five materials put back). A move
found only through unsure readings, or one of several that fit, goes to the players; a
table that no legal move explains is a desync, with the differences and the moves the camera
cannot see (one of them, not told, may be the reason).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from .games.base import CHANCE, Game
from .games.sight import Picture, Seen, Sight, agrees


@dataclass(frozen=True)
class Difference:
    region: str
    expected: Hashable
    seen: Hashable
    unsure: bool = False


@dataclass(frozen=True)
class NoChange:
    """The table shows the current state (unsure readings that explain nothing are ignored)."""


@dataclass(frozen=True)
class Found:
    """Exactly one legal move (or a hidden move, then a visible one) explains the table; or,
    the table being several moves ahead, the first of the ways that explain it (`others`)."""

    moves: tuple[Any, ...]
    evidence: tuple[Difference, ...]
    """What changed on the table, region by region."""
    others: tuple[tuple[Any, ...], ...] = ()
    """Other ways from the same state that leave the table as it is (which resources paid,
    when the table went on without anyone saying): `moves` is taken so the game keeps up with
    the table, and the players may still choose one of these instead."""


@dataclass(frozen=True)
class Candidate:
    moves: tuple[Any, ...]
    doubts: int
    """How many unsure readings disagree with it (0: it fits every reading)."""


@dataclass(frozen=True)
class Ambiguous:
    candidates: tuple[Candidate, ...]
    """Best first: fewest doubts, then single moves before hidden-then-visible pairs."""
    evidence: tuple[Difference, ...]
    why: str


@dataclass(frozen=True)
class Desync:
    """No legal move puts the table as it is: the players put it right or correct the game."""

    differences: tuple[Difference, ...]
    untold: tuple[Any, ...] = ()
    """Moves now legal that the camera cannot see (a Gather Ichor, a power declined): one of
    them, not told, may be why no move explains the table."""


Inference = NoChange | Found | Ambiguous | Desync


def differences(expected: Picture, seen: Seen) -> tuple[Difference, ...]:
    """Regions where the reading is not what `expected` says (regions vision did not report
    are not judged)."""
    return tuple(
        Difference(region, want, seen.picture[region], region in seen.unsure)
        for region, want in sorted(expected.items())
        if region in seen.picture and not agrees(want, seen.picture[region])
    )


def next_moves(game: Game[Any, Any], state: Any) -> Sequence[Any]:
    """The moves that may come next: the player's, or what the dice or cards may show."""
    actor = game.to_move(state)
    if actor is None:
        return ()
    if actor == CHANCE:
        return [move for move, _ in game.chance_outcomes(state)]
    return game.legal_moves(state)


CHAIN = 16
"""The most chance outcomes one reading may stand for (dice drawn, then each rolled)."""
SEARCH = 2000
"""The most states a chain search visits: a reading no chain fits is given up on quickly."""


def chance_chain(game: Game[Any, Any], sight: Sight, state: Any, seen: Seen) -> tuple[Any, ...] | None:
    """The chance outcomes that take the table from `state` to what is seen — five dice
    drawn from the bag and rolled show up in one reading — following only outcomes the
    camera can tell (`Sight.reads`: a die drawn and rolled, never a tile revealed) through
    states the sight says are on the way (`Sight.on_the_way`). Outcomes that reach the same
    picture are the same to the table, so the first chain found stands for them all."""
    visited = 0

    def search(at: Any, chain: tuple[Any, ...]) -> tuple[Any, ...] | None:
        nonlocal visited
        visited += 1
        if chain and not any(not d.unsure for d in differences(sight.expected(at), seen)):
            if game.to_move(at) != CHANCE or not differences(sight.expected(at), seen):
                return chain
        if game.to_move(at) != CHANCE or len(chain) >= CHAIN:
            return None
        for outcome, _ in game.chance_outcomes(at):
            if visited >= SEARCH:
                return None
            if not sight.reads(outcome):
                continue
            after = game.apply_unchecked(at, outcome)
            if sight.on_the_way(after, seen):
                found = search(after, (*chain, outcome))
                if found is not None:
                    return found
        return None

    return search(state, ())


def infer(game: Game[Any, Any], sight: Sight, state: Any, seen: Seen) -> Inference:
    now = sight.expected(state)
    changed = differences(now, seen)
    certain = [d for d in changed if not d.unsure]
    if game.to_move(state) == CHANCE:  # a one-off roll in view (the Watcher's die): one tap
        shown = sight.chance_from(state, seen)
        if shown is not None:
            why = "the dice as read: right? (NEXT takes them)"
            return Ambiguous((Candidate(shown, int(bool(seen.unsure))),), changed, why)
    if not changed:
        return NoChange()
    if game.to_move(state) == CHANCE:
        chain = chance_chain(game, sight, state, seen)
        if chain is not None:
            # One tap (or NEXT) confirms: a die's colour is read with no measure of doubt, and
            # a wrong one would leave the bag wrong for the rest of the game.
            why = "the dice as read: right? (NEXT takes them)"
            return Ambiguous((Candidate(chain, int(any(d.unsure for d in changed))),), changed, why)
    fits: list[tuple[int, int, tuple[Any, ...]]] = []  # (doubts, length, moves)
    hidden: list[Any] = []
    partway: list[tuple[Any, Any]] = []
    for move in next_moves(game, state):
        after = game.apply_unchecked(state, move)
        picture = sight.expected(after)
        if picture == now:  # nothing to see: a hidden move, perhaps before a visible one
            hidden.append(move)
            for second in next_moves(game, after):
                _judge(fits, sight, game.apply_unchecked(after, second), seen, (move, second), now)
        else:
            _judge(fits, sight, after, seen, (move,), now, picture)
            if _part_of_the_way(picture, now, seen):
                partway.append((move, after))
    if not fits and game.to_move(state) != CHANCE:
        # Several moves by one player made while nobody looked (a die, then its bonus meeple;
        # a build's five materials put back), perhaps after a hidden one (ending the actions).
        starts = [((move,), after) for move, after in partway]
        starts += [((move,), game.apply_unchecked(state, move)) for move in hidden]
        fits = _chains(game, sight, state, seen, now, starts)
    if not any(doubts == 0 for doubts, _, _ in fits) and game.to_move(state) != CHANCE:
        # A hidden move that hands over to chance, and what chance then put on the table (an
        # idle Tower turn ended, then its two bonus gems drawn): one tap, as any roll read.
        for move in hidden:
            after = game.apply_unchecked(state, move)
            chain = chance_chain(game, sight, after, seen) if game.to_move(after) == CHANCE else None
            if chain is not None:
                why = f"{move}, then what was drawn as read: right? (NEXT takes it)"
                return Ambiguous((Candidate((move, *chain), int(bool(seen.unsure))),), changed, why)
    if not fits:
        untold = tuple(hidden) if game.to_move(state) != CHANCE else ()
        return NoChange() if not certain else Desync(changed, untold)
    fits.sort(key=lambda fit: (fit[0], fit[1]))
    candidates = tuple(Candidate(moves, doubts) for doubts, _, moves in fits)
    if not certain:
        return Ambiguous(candidates, changed, "only unsure readings show a change: is it this?")
    exact = [c for c in candidates if c.doubts == 0]
    alone = [c for c in exact if len(c.moves) == 1]
    if len(alone) == 1 and all(c.moves[-1] == alone[0].moves[0] for c in exact):
        # The move alone, or a hidden move nobody told before it (a Gather Ichor before a
        # Place): the table shows the move, and a hidden move can still be told after it.
        exact = alone
    if len(exact) == 1 and (len(candidates) == 1 or not any(d.unsure for d in changed)):
        # Unsure readings that agree with the only move the sure ones allow change nothing.
        return Found(exact[0].moves, changed)
    if len(exact) > 1:
        return Ambiguous(candidates, changed, f"{len(exact)} moves leave the table like this: which was it?")
    return Ambiguous(candidates, changed, "some readings are unsure: is it this?")


def forced(game: Game[Any, Any], sight: Sight, state: Any) -> tuple[Any, ...]:
    """The moves the rules leave no choice about and the camera cannot see, one after another:
    nobody need say them (Am'harb rulebook, 2. Power Phase: with no power affordable, none is
    used; 3. Disciple Phase, Note: a player who cannot afford any space passes). Chance never
    counts as forced."""
    moves: list[Any] = []
    while len(moves) < CATCH_UP and game.to_move(state) not in (None, CHANCE):
        legal = game.legal_moves(state)
        if len(legal) != 1:
            break
        after = game.apply_unchecked(state, legal[0])
        if sight.expected(after) != sight.expected(state):
            break  # the camera will see it made
        moves.append(legal[0])
        state = after
    return tuple(moves)


CATCH_UP = 6
"""The most moves, by any players and hidden ones included, the table may be ahead of the game
and still be followed (two players' turns of Am'harb: a tower move, a power declined, a
placement)."""


LOOKS = 1500
"""The most moves a catch-up looks at (each one's picture is drawn: 0.1-0.25 ms here), so
that a table nothing explains is given up on within about 300 ms here (a Pi 4 takes 3-5
times as long: not measured)."""


def catch_up(game: Game[Any, Any], sight: Sight, state: Any, seen: Seen) -> Found | None:
    """The table is ahead of the game (nobody answered a question, nobody pressed NEXT, and the
    players went on): the shortest sequences of legal moves, by whoever's turn it is and moves
    the camera cannot see included, that leave the table as it is seen; None when nothing
    within CATCH_UP moves, SEARCH states (moves that change a region seen unchanged are
    dropped before they count) and LOOKS moves looked at does. Each visible move on the way
    must change only regions seen changed. Sequences that end in the same state are one; of
    several that do not (a payment nobody saw), the first is taken and the others kept
    (`Found.others`)."""
    now = sight.expected(state)
    evidence = differences(now, seen)
    if not any(not d.unsure for d in evidence):
        return None
    reached: set[Hashable] = {_state_key(state)}
    examined, spent = 0, False
    frontier: list[tuple[tuple[Any, ...], Any, Picture]] = [((), state, now)]
    for _ in range(CATCH_UP):
        fits: dict[Hashable, tuple[int, tuple[Any, ...]]] = {}
        following: list[tuple[tuple[Any, ...], Any, Picture]] = []
        for moves, at, here in frontier:
            if game.to_move(at) is None or spent:
                continue
            for move in next_moves(game, at):
                if game.to_move(at) == CHANCE and not sight.reads(move):
                    continue
                examined += 1
                if len(reached) >= SEARCH or examined > LOOKS:
                    spent = True  # what fits at this depth so far, else given up on
                    break
                after = game.apply_unchecked(at, move)
                picture = sight.expected(after)
                if picture != here and not _part_of_the_way(picture, here, seen, now):
                    continue  # pruned before its state is hashed: most moves end here
                key = _state_key(after)
                if key in reached:
                    continue
                reached.add(key)
                chain = (*moves, move)
                off = differences(picture, seen)
                if picture != now and not any(not d.unsure for d in off):
                    fits.setdefault(key, (len(off), chain))
                following.append((chain, after, picture))
        if fits:
            ranked = sorted(fits.values(), key=lambda fit: fit[0])
            best = [chain for doubts, chain in ranked if doubts == ranked[0][0]]
            return Found(best[0], evidence, tuple(best[1:]))
        if spent:
            return None
        frontier = following
    return None


CHAIN_MOVES = 6
"""The most moves one player may make between two looks of the camera and still be followed
(a build's five returns after ending the actions)."""


def _chains(
    game: Game[Any, Any],
    sight: Sight,
    state: Any,
    seen: Seen,
    now: Picture,
    starts: list[tuple[tuple[Any, ...], Any]],
) -> list[tuple[int, int, tuple[Any, ...]]]:
    """The shortest chains of moves by the player to move, each visible move changing regions
    seen changed (`_part_of_the_way`), that leave the table as it is seen. Chains that reach the
    same state are one (five materials put back in any order), and the search gives up after
    SEARCH states."""
    actor = game.to_move(state)
    fits: list[tuple[int, int, tuple[Any, ...]]] = []
    reached: set[Hashable] = set()
    frontier = starts
    for _ in range(CHAIN_MOVES - 1):
        following = []
        for moves, at in frontier:
            if game.to_move(at) != actor:
                continue  # another player's move is never taken without its own look
            here = sight.expected(at)
            for move in next_moves(game, at):
                after = game.apply_unchecked(at, move)
                key = _state_key(after)
                if key in reached or len(reached) >= SEARCH:
                    continue
                reached.add(key)
                picture = sight.expected(after)
                chain = (*moves, move)
                if picture != here:  # a hidden move (a bonus declined) only leads on
                    _judge(fits, sight, after, seen, chain, now, picture)
                    if not _part_of_the_way(picture, here, seen):
                        continue
                following.append((chain, after))
        if fits:
            return fits
        frontier = following
    return fits


def _state_key(state: Any) -> Hashable:
    try:
        hash(state)
    except TypeError:
        return repr(state)
    return cast(Hashable, state)


def _part_of_the_way(picture: Picture, now: Picture, seen: Seen, start: Picture | None = None) -> bool:
    """Whether every region a move changes (from `now` to `picture`) is seen changed from how
    it stood at the `start` (`now` by default) — not necessarily as the move leaves it: a
    second move may have changed it again, the rolling area twice."""
    start = now if start is None else start
    return all(
        region in seen.picture and not agrees(start.get(region, ()), seen.picture[region])
        for region, want in picture.items()
        if now.get(region) != want
    )


def _judge(
    fits: list[tuple[int, int, tuple[Any, ...]]],
    sight: Sight,
    after: Any,
    seen: Seen,
    moves: tuple[Any, ...],
    now: Picture,
    picture: Picture | None = None,
) -> None:
    """Keep `moves` if every sure reading agrees with the state they lead to."""
    picture = sight.expected(after) if picture is None else picture
    if picture == now:
        return  # two hidden moves change nothing either
    off = differences(picture, seen)
    if any(not d.unsure for d in off):
        return
    fits.append((len(off), len(moves), moves))
