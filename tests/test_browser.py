"""The page in a real headless Chromium: start a game, tap a space, play a move, undo it.

Chromium comes from Debian's `chromium` package (`make test` installs it).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from tests.test_power_cut import PIN, free_port, start_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
"""Screenshots of each page at phone size, kept for people to look at."""


def keep(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def served(app: Any) -> Iterator[str]:
    """The app served by waitress in this process (its state at hand to the test), on a free port."""
    import threading

    import waitress

    server = waitress.create_server(app, port=0)
    threading.Thread(target=server.run, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"  # type: ignore[union-attr]
    finally:
        server.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    process = start_server(tmp_path, port)
    yield f"http://127.0.0.1:{port}"
    process.kill()
    process.wait(timeout=10)


@pytest.fixture
def page(server: str) -> Iterator[Page]:
    """A phone paired with the table PIN (its cookie is the context's)."""
    assert Path(CHROMIUM).exists(), "Debian's chromium is needed: `make test` installs it"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844})
        assert context.request.post(f"{server}/api/pair", data={"pin": PIN}).ok
        yield context.new_page()
        browser.close()


def test_a_player_starts_and_plays_on_a_phone(server: str, page: Page) -> None:
    page.goto(server)
    page.fill("input[name='option.names']", "Ana,Ben")
    page.select_option("select[name=players]", "2")
    page.fill("input[name='option.cults']", "hastur,cthulhu")
    page.get_by_role("button", name="Start", exact=True).click()
    assert "Ana" in page.inner_text(".status") and "tower phase" in page.inner_text(".status")
    assert page.locator(".board .space").count() == 48  # the 2-player island
    page.click("button:has-text('tower L1 D>B')")
    assert "power phase" in page.inner_text(".status")
    assert "active area B" in page.inner_text(".status")
    page.click("button:has-text('Undo')")
    assert "tower phase" in page.inner_text(".status")
    page.click("button:has-text('Redo')")
    page.click("button:has-text('no power')")
    assert "disciple phase" in page.inner_text(".status")
    keep(page, "playing")
    # Tapping a space shows only the moves on that space.
    visible = page.locator(".group:visible")
    total = visible.count()
    active = page.locator(".space.active:not(.altar)").first
    active.click()
    name = active.get_attribute("data-space")
    assert 0 < visible.count() < total
    assert all(name in visible.nth(i).inner_text() for i in range(visible.count()))


def test_a_second_phone_follows(server: str, page: Page) -> None:
    subprocess.run(
        [
            sys.executable,
            "-c",
            f"""
import json, urllib.request
def post(path, body, headers):
    r = urllib.request.Request('{server}' + path, data=json.dumps(body).encode(),
        headers={{'Content-Type': 'application/json', **headers}})
    return json.loads(urllib.request.urlopen(r).read())
token = post('/api/pair', {{'pin': '{PIN}'}}, {{}})['token']
new = {{'command': 'new', 'game': 'amharb', 'players': 3}}
post('/api/command', new, {{'Authorization': 'Bearer ' + token}})
""",
        ],
        check=True,
    )
    page.goto(server)
    assert "tower phase" in page.inner_text(".status")
    first = page.locator(".groups button").first.inner_text()
    other = page.context.new_page()
    other.goto(server)
    other.click(f"button:has-text('{first}')")
    page.wait_for_function(
        "document.querySelector('.status').innerText.includes('power phase')", timeout=8000
    )


def test_a_phone_pairs_with_the_table_pin(server: str) -> None:
    """Unpaired, the page only looks: the pairing bar, no forms that change the game. The
    table PIN pairs it, and the forms are there."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(server)
        assert page.locator(".pairing").is_visible()
        assert not page.get_by_role("button", name="Start", exact=True).is_visible()
        keep(page, "unpaired")
        page.fill("input[name=pin]", "0000")
        page.click("button:has-text('Pair with the PIN')")
        assert "not the table PIN" in page.inner_text(".error")
        page.fill("input[name=pin]", PIN)
        page.click("button:has-text('Pair with the PIN')")
        assert not page.locator(".pairing").count()
        assert page.get_by_role("button", name="Start", exact=True).is_visible()
        page.goto(f"{server}/calibrate?profile=amharb-4p")  # the other page: setting up the camera
        assert "Board:" in page.inner_text(".reading-line")
        keep(page, "calibrate")
        browser.close()


def test_a_question_from_the_camera_is_answered_with_one_tap(tmp_path: Path) -> None:
    """The camera saw a placement that could be paid in two ways: the page asks, the player
    taps the one they made, and it is played (a real browser on a real server)."""
    import numpy as np

    from companion.games.amharb.render import TableRenderer
    from companion.service import CameraWatch, Devices
    from companion.store import Store
    from companion.table import Table
    from companion.web import create_app
    from tests.test_table_loop import play_until_two_ways_to_pay
    from vision.render import render

    table = Table(Store(tmp_path / "db.sqlite3"))
    session = table.new_game("amharb", 2, {"seed": "8"})
    game, sight = session.game, session.game.sight
    assert sight is not None
    move = play_until_two_ways_to_pay(session, 8)
    renderer = TableRenderer(2, np.random.default_rng(8))
    devices = Devices(CameraWatch(None), None, table)
    for picture, seed in (
        (sight.expected(session.state), 1),
        (sight.expected(game.apply(session.state, move)), 2),
    ):
        frame = render(renderer.scene(picture), seed=seed)[0]
        for _ in range(4):
            devices.loop.see(frame)
    assert devices.loop.state.status == "ask"
    with served(create_app(table.store, table, devices)) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(url)
        assert "Which move was it?" in page.inner_text(".reading")
        keep(page, "question")
        page.click(f".candidates button:text-is('{game.move_to_json(move)}')")
        page.wait_for_function("!document.querySelector('.candidates')", timeout=8000)
        assert session.history[-1] == move
        browser.close()


def test_sunlight_and_night_colours_follow_the_phone_and_its_choice(server: str, page: Page) -> None:
    """Readable in sunlight and at night: the phone's own setting, or the header's button
    (remembered on this phone)."""
    background = "getComputedStyle(document.body).backgroundColor"
    page.emulate_media(color_scheme="dark")
    page.goto(server)
    assert page.evaluate(background) == "rgb(21, 19, 26)"
    keep(page, "night")
    page.click("#theme")
    assert page.evaluate(background) == "rgb(246, 244, 249)"
    page.reload()
    assert page.evaluate(background) == "rgb(246, 244, 249)"
    keep(page, "sunlight")
    page.click("#theme")
    assert page.evaluate(background) == "rgb(21, 19, 26)"
