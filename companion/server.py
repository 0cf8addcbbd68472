"""`companion serve`: the web app behind waitress, a production WSGI server."""

from __future__ import annotations

import logging
from pathlib import Path

import waitress

from .store import Store
from .web import create_app


def serve(host: str, port: int, data_dir: Path) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    store = Store(data_dir / "companion.sqlite3")
    app = create_app(store)
    shown = "localhost" if host in ("0.0.0.0", "127.0.0.1", "::") else host
    print(f"Towers Companion: http://{shown}:{port}  (data in {data_dir.resolve()})", flush=True)
    waitress.serve(app, host=host, port=port, threads=8, ident="towers-companion")
