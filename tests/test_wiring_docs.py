"""The build docs agree with the pin map: hardware/WIRING.md's pin table and hardware/wiring.svg
name, for every entry of hardware/pinmap.toml, the same BCM GPIO and the right physical pin."""

from __future__ import annotations

import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

HARDWARE = Path(__file__).resolve().parents[1] / "hardware"
PINMAP = HARDWARE / "pinmap.toml"
WIRING_MD = HARDWARE / "WIRING.md"
WIRING_SVG = HARDWARE / "wiring.svg"

# The 40-pin header of the Raspberry Pi 4 and Pi 5 (the same on both): BCM GPIO -> physical pin.
BCM_TO_PHYSICAL = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16,
    24: 18, 10: 19, 9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29,
    6: 31, 12: 32, 13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40,
}  # fmt: skip
GROUND_PINS = {6, 9, 14, 20, 25, 30, 34, 39}
POWER_PINS = {1, 17, 2, 4}  # 3V3, 3V3, 5V, 5V
RESERVED_GPIO = {0: "ID EEPROM", 1: "ID EEPROM", 2: "I2C SDA", 3: "I2C SCL", 14: "UART TX", 15: "UART RX"}


def wired_functions() -> dict[str, int]:
    """Every wired function of pinmap.toml, by the name the docs give it, with its BCM GPIO."""
    data = tomllib.loads(PINMAP.read_text())
    functions = {name.upper(): pin for name, pin in data["buttons"].items()}
    functions |= {f"PHASE {i}": pin for i, pin in enumerate(data["leds"]["phase"], start=1)}
    functions |= {name.upper(): pin for name, pin in data["leds"]["beast"].items()}
    functions["STATUS"] = data["leds"]["status"]
    if "buzzer" in data:
        functions["BUZZER"] = data["buzzer"]["pin"]
    return functions


FUNCTIONS = wired_functions()


def test_the_header_map_is_a_40_pin_header() -> None:
    physical = list(BCM_TO_PHYSICAL.values())
    assert len(physical) == len(set(physical)) == 28
    assert sorted([*physical, *GROUND_PINS, *POWER_PINS]) == list(range(1, 41))


def test_the_pinmap_wires_every_part() -> None:
    assert {"NEXT", "UNDO", "READ", "STATUS", "PAIN", "DELUSION", "DESPAIR", "HARROW"} <= set(FUNCTIONS)
    assert [f"PHASE {i}" for i in range(1, 5)] == [name for name in FUNCTIONS if name.startswith("PHASE")]


def test_no_two_functions_share_a_pin() -> None:
    by_pin: dict[int, list[str]] = {}
    for name, pin in FUNCTIONS.items():
        by_pin.setdefault(pin, []).append(name)
    assert {pin: names for pin, names in by_pin.items() if len(names) > 1} == {}


@pytest.mark.parametrize("name", FUNCTIONS)
def test_every_pin_is_a_usable_gpio(name: str) -> None:
    pin = FUNCTIONS[name]
    assert isinstance(pin, int) and not isinstance(pin, bool), f"{name}: {pin!r} is not a GPIO number"
    assert pin in BCM_TO_PHYSICAL, f"{name}: GPIO{pin} is not on the 40-pin header"
    physical = BCM_TO_PHYSICAL[pin]
    assert physical not in GROUND_PINS | POWER_PINS, f"{name}: pin {physical} is a ground/power pin"
    assert pin not in RESERVED_GPIO, f"{name}: GPIO{pin} is the {RESERVED_GPIO.get(pin)} pin; keep it free"


def pin_table() -> dict[str, list[str]]:
    """WIRING.md's pin table rows by function: every table row whose first cell names a function."""
    rows: dict[str, list[str]] = {}
    for line in WIRING_MD.read_text().splitlines():
        if not line.startswith("|"):
            continue
        cells = [cell.strip().strip("*`").strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] in FUNCTIONS:
            assert cells[0] not in rows, f"WIRING.md lists {cells[0]} twice"
            rows[cells[0]] = cells
    return rows


def test_wiring_md_lists_every_function_once() -> None:
    assert set(pin_table()) == set(FUNCTIONS)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_wiring_md_gives_the_bcm_and_physical_pin(name: str) -> None:
    _function, bcm, physical, *rest = pin_table()[name]
    assert bcm == f"GPIO{FUNCTIONS[name]}", (
        f"WIRING.md: {name} is on {bcm}, pinmap.toml says GPIO{FUNCTIONS[name]}"
    )
    assert physical == str(BCM_TO_PHYSICAL[FUNCTIONS[name]]), f"WIRING.md: {name}'s physical pin {physical}"
    ground = re.match(r"\d+", rest[2])
    assert ground and int(ground.group()) in GROUND_PINS, f"WIRING.md: {name}'s ground pin {rest[2]!r}"


def svg_texts() -> list[str]:
    """The full text of every <text> element of the diagram (tspans included)."""
    root = ET.parse(WIRING_SVG).getroot()
    return ["".join(element.itertext()) for element in root.iter("{http://www.w3.org/2000/svg}text")]


def test_wiring_svg_is_well_formed_svg() -> None:
    root = ET.parse(WIRING_SVG).getroot()  # raises ParseError if it is not well-formed XML
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox")
    sizes = [float(e.get("font-size", "12")) for e in root.iter("{http://www.w3.org/2000/svg}text")]
    assert sizes and min(sizes) >= 11


@pytest.mark.parametrize("name", FUNCTIONS)
def test_wiring_svg_labels_each_pin(name: str) -> None:
    bcm, physical = FUNCTIONS[name], BCM_TO_PHYSICAL[FUNCTIONS[name]]
    labels = [
        text
        for text in svg_texts()
        if re.search(rf"\bGPIO{bcm}\b", text) and re.search(rf"\bpin {physical}\b", text) and name in text
    ]
    assert labels, f"wiring.svg has no label with {name}, GPIO{bcm} and pin {physical}"


def test_wiring_svg_labels_are_consistent() -> None:
    """Every label naming a GPIO and a physical pin pairs them as the header does."""
    for text in svg_texts():
        gpios, pins = re.findall(r"\bGPIO(\d+)\b", text), re.findall(r"\bpin (\d+)\b", text)
        if gpios and pins:
            assert [BCM_TO_PHYSICAL[int(g)] for g in gpios] == [int(p) for p in pins], text
