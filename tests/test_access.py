"""Who may change the game: anyone looks; a paired phone plays (NEXT on the panel within
30 s, or the table PIN); the page's forms carry a token only our page can know."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from companion.access import COOKIE, PAIRING_S, Access
from companion.service import CameraWatch, Devices
from companion.settings import SettingsError, load_settings
from companion.store import Store
from companion.table import Table
from companion.web import create_app
from hardware.panel import ButtonEvent

NEXT = ButtonEvent("next", "press", 0.0)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def served(
    tmp_path: Path, pin: str = "2468", clock: Clock | None = None
) -> tuple[Table, Devices, Access, FlaskClient]:
    store = Store(tmp_path / "db.sqlite3")
    table = Table(store)
    table.new_game("amharb", 2, {"seed": "1"})
    access = Access(tmp_path / "access.json", pin, clock or Clock())
    devices = Devices(CameraWatch(None), None, table)
    devices.access = access
    return table, devices, access, create_app(store, table, devices, access).test_client()


def csrf_of(page: str) -> str:
    match = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
    assert match, "the page's forms carry the csrf field"
    return match.group(1)


def first_move(table: Table) -> str:
    session = table.session
    assert session is not None
    return session.game.move_to_json(session.game.legal_moves(session.state)[0])


def test_a_phone_that_is_not_paired_only_looks(tmp_path: Path) -> None:
    table, _, _, client = served(tmp_path)
    page = client.get("/").data.decode()
    assert "This phone only looks" in page and 'data-pairing="none"' in page
    move = {"command": "move", "move": first_move(table), "state_id": 0, "game_id": 1}
    answer = client.post("/api/command", json=move)
    assert answer.status_code == 403 and "pair it" in answer.get_json()["error"]
    assert client.post("/command", data=move).status_code == 403
    assert client.get("/api/state").status_code == 200
    assert table.session is not None and table.session.state_id == 0


def test_the_table_pin_pairs_a_script_and_a_phone(tmp_path: Path) -> None:
    table, _, access, client = served(tmp_path)
    assert client.post("/api/pair", json={"pin": "1111"}).status_code == 403
    token = client.post("/api/pair", json={"pin": "2468"}).get_json()["token"]
    move = {"command": "move", "move": first_move(table), "state_id": 0, "game_id": 1}
    headers = {"Authorization": f"Bearer {token}"}
    assert client.post("/api/command", json=move, headers=headers).status_code == 200
    # The data directory keeps no token, only its digest; a restart still knows the phone.
    assert token not in (tmp_path / "access.json").read_text()
    assert Access(tmp_path / "access.json").paired(token) and access.pin == "2468"


def test_next_on_the_panel_pairs_the_phone_that_asked(tmp_path: Path) -> None:
    table, devices, _, client = served(tmp_path)
    page = client.post("/pair", follow_redirects=True).data.decode()
    assert "Press NEXT on the panel now" in page
    devices.handle(NEXT)  # pairs; plays nothing
    assert table.session is not None and table.session.state_id == 0
    page = client.get("/").data.decode()  # the token comes with it
    assert client.get_cookie(COOKIE) is not None
    page = client.get("/").data.decode()
    assert 'data-pairing="paired"' in page
    form = {
        "command": "move",
        "move": first_move(table),
        "state_id": "0",
        "game_id": "1",
        "csrf": csrf_of(page),
    }
    assert client.post("/command", data=form).status_code == 303
    assert table.session.state_id == 1


def test_a_request_to_pair_lapses_after_30_seconds(tmp_path: Path) -> None:
    """Then NEXT means NEXT again (here, in the Power Phase: no power)."""
    clock = Clock()
    table, devices, access, client = served(tmp_path, clock=clock)
    session = table.session
    assert session is not None
    session.play(session.game.legal_moves(session.state)[0])  # the tower move: now the Power Phase
    client.post("/pair")
    assert access.waiting()
    clock.now += PAIRING_S + 1
    devices.handle(NEXT)
    assert [str(m) for m in session.history[1:]] == ["no power"]
    assert client.get_cookie(COOKIE) is None


def test_a_form_without_our_pages_token_is_refused(tmp_path: Path) -> None:
    """Cross-site request forgery: another site can make a paired phone post a form, but
    cannot know the token our page puts in it."""
    table, _, _, client = served(tmp_path)
    token = client.post("/api/pair", json={"pin": "2468"}).get_json()["token"]
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None and cookie.value == token
    forged = {"command": "move", "move": first_move(table), "state_id": "0", "game_id": "1"}
    assert client.post("/command", data=forged).status_code == 403
    assert client.post("/command", data={**forged, "csrf": "0" * 32}).status_code == 403
    assert table.session is not None and table.session.state_id == 0


def test_without_access_control_everyone_may_play(tmp_path: Path) -> None:
    """`create_app` without an Access (scripts and tests that build the app themselves)."""
    store = Store(tmp_path / "db.sqlite3")
    table = Table(store)
    table.new_game("amharb", 2, {})
    client = create_app(store, table).test_client()
    move = {"command": "move", "move": first_move(table), "state_id": 0, "game_id": 1}
    assert client.post("/api/command", json=move).status_code == 200


@pytest.mark.parametrize("pin", ["12", "abcd", "123456789"])
def test_a_table_pin_is_4_to_8_digits(tmp_path: Path, pin: str) -> None:
    (tmp_path / "s.toml").write_text(f'[access]\npin = "{pin}"\n')
    with pytest.raises(SettingsError, match="4 to 8 digits"):
        load_settings(tmp_path / "s.toml")


def test_a_pin_is_made_up_once_and_kept(tmp_path: Path) -> None:
    first = Access(tmp_path / "access.json")
    assert first.pin.isdigit() and len(first.pin) == 6
    assert Access(tmp_path / "access.json").pin == first.pin


def test_one_phone_asks_at_a_time_and_the_status_led_says_so(tmp_path: Path) -> None:
    """NEXT pairs the phone whose owner just asked at the table: while one waits, another
    is refused, and the status LED blinks slowly ("working") so NEXT is pressed knowing it."""
    from gpiozero.pins.mock import MockFactory

    from hardware.panel import Panel, load_pinmap

    table, devices, access, first = served(tmp_path)
    panel = Panel(load_pinmap(), MockFactory(), ticking=False)
    devices.panel = panel
    second = create_app(table.store, table, devices, access).test_client()
    assert first.post("/api/pair", json={}).status_code == 202
    assert panel.status == "working"
    refused = second.post("/api/pair", json={})
    assert refused.status_code == 429 and "another phone is pairing" in refused.get_json()["error"]
    assert first.post("/api/pair", json={}).status_code == 202  # the same phone asking again
    devices.handle(NEXT)
    assert panel.status == "ready"
    first.get("/")
    assert first.get_cookie(COOKIE) is not None and second.get_cookie(COOKIE) is None
    panel.close()


def test_guessing_the_pin_is_stopped(tmp_path: Path) -> None:
    """Five wrong PINs in a minute, and the PIN is refused for a minute, the right one too
    (a 6-digit PIN would take years to guess); a PIN that is not digits is just wrong."""
    clock = Clock()
    _, _, _, client = served(tmp_path, clock=clock)
    assert client.post("/api/pair", json={"pin": "٣٤٥٦"}).status_code == 403  # Arabic-Indic digits
    for guess in ("1111", "2222", "3333", "4444"):
        assert client.post("/api/pair", json={"pin": guess}).status_code == 403
    locked = client.post("/api/pair", json={"pin": "2468"})
    assert locked.status_code == 429 and "too many wrong PINs" in locked.get_json()["error"]
    clock.now += 61
    assert client.post("/api/pair", json={"pin": "2468"}).status_code == 200
