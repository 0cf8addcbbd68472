"""What the camera can see of a game, in the game's own terms.

A game that can be read from the table gives a `Sight`: which board profile its table
uses, what the camera should see in a state (`expected`), and what a vision
`Observation` says in the same terms (`seen`). Both are pictures: region name -> a
hashable description of what lies there ("" or () for nothing), holding only what
vision can read, so that `companion.inference` can compare a reading with the state
after each legal move without knowing any game.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from vision.types import DieReading, Observation, Route

Picture = Mapping[str, Hashable]

UNSURE = 0.5
"""A reading at or below this confidence is not trusted to decide a move on its own (the
stack reader gives 0.5 to a bottom disc it infers from the outline alone)."""


@dataclass(frozen=True)
class Unclear:
    """An expected region the camera cannot read exactly (a disciple standing on a tile of its
    own colour): any reading of something there agrees with it, nothing there does not.
    `what` says what lies there, for people."""

    what: Hashable


@dataclass(frozen=True)
class OneOf:
    """An expected region the players may have left in any of several ways (a finished floor
    being cleared: its dice and meeples still there, or lifted, or under the new tile).
    `options[0]` is how it stands before anyone touches it."""

    options: tuple[Hashable, ...]


def agrees(expected: Hashable, seen: Hashable) -> bool:
    if isinstance(expected, Unclear):
        return bool(seen)
    if isinstance(expected, OneOf):
        return seen in expected.options
    return bool(expected == seen)


@dataclass(frozen=True)
class Seen:
    """An observation in game terms: `picture` per region, and the regions whose reading is
    unsure (low confidence), which never decide a move without a person."""

    picture: Picture
    unsure: frozenset[str] = field(default_factory=frozenset)

    def key(self) -> tuple[tuple[str, Hashable], ...]:
        """A hashable summary, for voting over consecutive frames."""
        return tuple(sorted(self.picture.items())) + tuple((r, "?") for r in sorted(self.unsure))


class Sight:
    """How the camera reads one game's table. A game overrides what it reads; the defaults
    are a game whose chance steps the camera cannot tell (`reads`, `on_the_way`,
    `chance_from`) and whose set-up it does not read."""

    def profile_name(self, state: Any) -> str:
        """The vision profile of this table (built-in name or a player's file)."""
        raise NotImplementedError

    def piece_colours(self, state: Any) -> tuple[str, ...]:
        """The players' colours, for vision to name pieces among."""
        return ()

    def dice_colours(self, state: Any) -> tuple[str, ...] | None:
        """The colours the game's dice come in (vision names each die among them), or None."""
        return None

    def region_heights(self, state: Any) -> tuple[tuple[str, float], ...]:
        """Regions that stand above the board in `state` and how high (mm): a tower's top
        floor; vision reads each on its own plane. Empty by default: a board lies flat."""
        return ()

    def expected(self, state: Any) -> dict[str, Hashable]:
        """What the camera should see in `state`: every readable region, empty ones too."""
        raise NotImplementedError

    def seen(self, state: Any, observation: Observation, regions: frozenset[str]) -> Seen:
        """The observation as a picture over the regions of `expected(state)` that the
        profile has (`regions`): an empty one where vision saw nothing."""
        raise NotImplementedError

    def region_name(self, state: Any, region: str) -> str:
        """What players call a region ("e5", "Pink's area C")."""
        return region

    def words(self, value: Hashable) -> str:
        """A region's picture value as people read it ("pink priest, red resource")."""
        return str(getattr(value, "what", value)) if value else "nothing"

    def chance_from(self, state: Any, seen: Seen) -> tuple[Any, ...] | None:
        """The chance outcomes a one-off roll in view shows (the state keeps no dice), when
        the game waits for that roll; None otherwise."""
        return None

    def reads(self, outcome: Any) -> bool:
        """Whether the camera can tell this chance outcome from the table (a die drawn and
        rolled: yes; a card or a tile turned face up that is not read: no)."""
        return False

    def on_the_way(self, state: Any, seen: Seen) -> bool:
        """Whether chance outcomes that led to `state` may still end at what is `seen` (dice
        drawn and rolled so far are among the dice seen): lets inference follow a chain of
        them. False: such chains are not followed."""
        return False

    def routes(self, state: Any) -> tuple[Route, ...]:
        """Ways across the board to draw on the camera picture now (a Beast's path)."""
        return ()

    def setup_profile(self, players: int) -> str | None:
        """The vision profile of a table being set up (no state yet); None: not read."""
        return None

    def setup_options(self, players: int, observation: Observation) -> dict[str, str]:
        """Set-up options read from the table as laid out (what the players would otherwise
        type), with "?" where a thing was not read."""
        return {}


TRAY = "tray"
"""The rolling area of a profile (a region where dice are rolled; `dice-tray` is one alone)."""


def tray_dice(observation: Observation) -> list[DieReading]:
    """The d6 dice read inside the rolling area."""
    return [d for d in observation.dice if d.region == TRAY and d.kind == "d6"]


def tray_unsure(dice: list[DieReading]) -> frozenset[str]:
    return frozenset({TRAY}) if any(d.confidence <= UNSURE for d in dice) else frozenset()
