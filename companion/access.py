"""Who may change the game: anyone on the network may look; a phone changes the game only
once it is paired, by NEXT pressed on the panel within 30 s of asking (someone at the
table), or by the table PIN.

A paired phone holds a random token (an HttpOnly, SameSite=Strict cookie, or an
`Authorization: Bearer` header for scripts); the data directory keeps only the tokens'
SHA-256, the PIN and the secret that signs the page's forms (`csrf`), in `access.json`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PAIRING_S = 30.0
"""How long a request to pair waits for NEXT on the panel."""
WRONG_PINS = 5
"""Wrong PINs allowed within LOCKOUT_S before the PIN is refused for LOCKOUT_S (guessing a
6-digit PIN then takes years)."""
LOCKOUT_S = 60.0
COOKIE = "towers_device"
PAIRING_COOKIE = "towers_pairing"


class AccessError(ValueError):
    """A PIN that is not 4 to 8 digits, or an access file that cannot be read."""


class Refused(RuntimeError):
    """Pairing cannot be asked now: another phone is waiting, or too many wrong PINs."""


def check_pin(pin: str) -> str:
    if not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8):
        raise AccessError("the table PIN is 4 to 8 digits")
    return pin


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Request:
    """A phone asking to pair, waiting for NEXT."""

    id: str
    asked: float
    approved: bool = False


class Access:
    def __init__(self, path: Path, pin: str = "", clock: Callable[[], float] = time.monotonic) -> None:
        """`pin` from the settings; when empty, the PIN kept in `path` (made up on first start)."""
        self.path, self.clock = path, clock
        self._lock = threading.Lock()
        try:
            kept = json.loads(path.read_text()) if path.exists() else {}
        except (OSError, ValueError) as error:
            raise AccessError(f"cannot read {path}: {error}") from error
        self.secret: str = kept.get("secret") or secrets.token_hex(32)
        self.pin: str = check_pin(pin) if pin else kept.get("pin") or f"{secrets.randbelow(10**6):06d}"
        self._devices: set[str] = set(kept.get("devices", []))
        self._requests: dict[str, Request] = {}
        self._wrong: list[float] = []
        self._save()

    def _save(self) -> None:
        """Written whole and renamed into place: a power cut leaves the old file or the new."""
        data = {"secret": self.secret, "pin": self.pin, "devices": sorted(self._devices)}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps(data, indent=1) + "\n")
        os.chmod(temporary, 0o600)
        os.replace(temporary, self.path)

    # ---- paired phones ---------------------------------------------------------------

    def paired(self, token: str | None) -> bool:
        return bool(token) and _digest(token or "") in self._devices

    def _new_device(self) -> str:
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._devices.add(_digest(token))
            self._save()
        return token

    def pair_with_pin(self, pin: str) -> str | None:
        """A new device token if `pin` is the table's, else None (`Refused` after
        WRONG_PINS wrong ones within LOCKOUT_S)."""
        now = self.clock()
        with self._lock:
            self._wrong = [t for t in self._wrong if now - t < LOCKOUT_S]
            if len(self._wrong) >= WRONG_PINS:
                raise Refused("too many wrong PINs: wait a minute, or pair with NEXT on the panel")
            pin = pin.strip()
            right = pin.isascii() and hmac.compare_digest(pin, self.pin)
            if not right:
                self._wrong.append(now)
                return None
        return self._new_device()

    def csrf(self, token: str | None) -> str:
        """What the page's forms carry for this phone: proof they came from our page."""
        return hmac.new(self.secret.encode(), (token or "").encode(), hashlib.sha256).hexdigest()[:32]

    def csrf_ok(self, token: str | None, value: str | None) -> bool:
        return bool(value) and hmac.compare_digest(self.csrf(token), value or "")

    # ---- pairing by NEXT -------------------------------------------------------------

    def ask(self, again: str | None = None) -> str:
        """A phone asks to pair: its request id (kept in a cookie while it waits). One phone
        waits at a time (`Refused` for another), so NEXT always pairs the phone whose owner
        just asked at the table; `again` is the asking phone's own earlier request."""
        request = Request(secrets.token_urlsafe(16), self.clock())
        with self._lock:
            self._forget_old()
            waiting = [r for r in self._requests.values() if not r.approved and r.id != again]
            if waiting:
                left = PAIRING_S - (request.asked - waiting[0].asked)
                raise Refused(f"another phone is pairing: try again in {max(1, round(left))} s")
            self._requests.pop(again or "", None)
            self._requests[request.id] = request
        return request.id

    def waiting(self) -> bool:
        """Whether a phone waits for NEXT (then NEXT pairs it and does nothing else)."""
        with self._lock:
            self._forget_old()
            return any(not r.approved for r in self._requests.values())

    def approve(self) -> bool:
        """NEXT pressed: the newest waiting request is approved."""
        with self._lock:
            self._forget_old()
            waiting = [r for r in self._requests.values() if not r.approved]
            if not waiting:
                return False
            newest = max(waiting, key=lambda r: r.asked)
            self._requests[newest.id] = Request(newest.id, newest.asked, True)
            return True

    def collect(self, request_id: str | None) -> str | None:
        """The device token for an approved request (once), else None."""
        with self._lock:
            request = self._requests.get(request_id or "")
            if request is None or not request.approved:
                return None
            del self._requests[request.id]
        return self._new_device()

    def approved(self, request_id: str | None) -> bool:
        with self._lock:
            request = self._requests.get(request_id or "")
            return request is not None and request.approved

    def pending(self, request_id: str | None) -> bool:
        with self._lock:
            self._forget_old()
            return (request_id or "") in self._requests

    def _forget_old(self) -> None:
        now = self.clock()
        for key in [k for k, r in self._requests.items() if now - r.asked > PAIRING_S]:
            del self._requests[key]
