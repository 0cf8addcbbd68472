"""Changes the pages must hear of (a move, a new game, the camera, the table's reading),
counted so that any number of event streams can wait for the next one.

Each stream sends the newest snapshot when it wakes: changes that come faster than a
phone can take them are coalesced, and a phone that missed some is caught up by the
`state_id` in the next one (the page reloads when it differs from its own).
"""

from __future__ import annotations

import threading


class Changes:
    def __init__(self) -> None:
        self._version = 0
        self._changed = threading.Condition()

    @property
    def version(self) -> int:
        return self._version

    def bump(self) -> None:
        with self._changed:
            self._version += 1
            self._changed.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        """The version once it differs from `seen` (at once if it already does), or `seen`
        again after `timeout` seconds without a change."""
        with self._changed:
            self._changed.wait_for(lambda: self._version != seen, timeout)
            return self._version
