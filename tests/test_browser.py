"""The page in a real headless Chromium: start a game, tap a space, play a move, undo it.

Chromium comes from Debian's `chromium` package (`make test` installs it).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

from tests.test_power_cut import PIN, free_port, start_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


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
