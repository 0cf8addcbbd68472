"""`companion serve`: the web app behind waitress, with the camera and the panel around it."""

from __future__ import annotations

import logging
import signal
import socket
from pathlib import Path
from types import FrameType

import segno
import waitress

from .access import Access
from .service import Devices
from .settings import Settings
from .store import Store
from .table import Table
from .web import create_app

STREAM_THREADS = 96


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None offline."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address: str = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def announce(host: str, port: int, data_dir: Path, pin: str) -> None:
    """The addresses a phone can open, a QR code of the first one on the LAN, and the PIN."""
    local = "localhost" if host in ("0.0.0.0", "127.0.0.1", "::") else host
    print(f"Towers Companion: http://{local}:{port}  (data in {data_dir.resolve()})", flush=True)
    print(f"  table PIN: {pin}  (pairs a phone to play from it; or Pair, then NEXT on the panel)", flush=True)
    if host in ("0.0.0.0", "::"):
        address = lan_address()
        print(f"  on your network: http://{socket.gethostname()}.local:{port}", flush=True)
        if address:
            url = f"http://{address}:{port}"
            print(f"  or: {url}  (scan this with a phone)", flush=True)
            segno.make(url, error="m").terminal(compact=True)


def _stop(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def serve(host: str, port: int, data_dir: Path, settings: Settings) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    data_dir.mkdir(parents=True, exist_ok=True)
    store = Store(data_dir / "companion.sqlite3")
    table = Table(store)
    access = Access(data_dir / "access.json", settings.access.pin)
    devices = Devices.start(settings, table, data_dir)
    devices.access = access
    signal.signal(signal.SIGTERM, _stop)  # systemd stops us with SIGTERM: release camera and pins
    try:
        app = create_app(store, table, devices, access)
        announce(host, port, data_dir, access.pin)
        # Each phone's event stream holds a thread while it is open (MAX_STREAMS of them):
        # room for the issue's 50 phones, their extra tabs, and the pages' other requests.
        waitress.serve(app, host=host, port=port, threads=STREAM_THREADS, ident="towers-companion")
    finally:
        devices.stop()
        store.close()
