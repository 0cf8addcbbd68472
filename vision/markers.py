"""The printable marker sheet: an SVG in millimetres, so it prints at true scale."""

from __future__ import annotations

import cv2

from .board import DICTIONARY


def marker_bits(marker_id: int) -> list[list[int]]:
    """The marker's cells (1 = black), border included: 6 x 6 for a 4x4 marker."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    cells = dictionary.markerSize + 2
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, cells)
    return [[int(v < 128) for v in row] for row in image]


def marker_sheet(ids: tuple[int, ...] = (0, 1, 2, 3), size_mm: float = 40.0) -> str:
    """An A4 SVG with the board's corner markers at `size_mm`, each labelled with its corner."""
    corners = {0: "north-west (top left)", 1: "north-east (top right)", 2: "south-east", 3: "south-west"}
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="210mm" height="297mm" viewBox="0 0 210 297" '
        'shape-rendering="crispEdges">',
        '<rect width="210" height="297" fill="white"/>',
        '<text x="15" y="14" font-size="5" font-family="sans-serif">Towers Companion board markers</text>',
        f'<text x="15" y="21" font-size="3.5" font-family="sans-serif">Print at 100%: each marker is '
        f"{size_mm:g} mm across. Cut them out with a white border of 8 mm or more and lay each at its "
        "corner of the board.</text>",
    ]
    for n, marker_id in enumerate(ids):
        x = 25 + (n % 2) * 90
        y = 35 + (n // 2) * 110
        bits = marker_bits(marker_id)
        cell = size_mm / len(bits)
        parts.append(f'<g transform="translate({x} {y})">')
        for r, row in enumerate(bits):
            for c, black in enumerate(row):
                if black:
                    x, y = c * cell, r * cell
                    parts.append(f'<rect x="{x:.3f}" y="{y:.3f}" width="{cell:.3f}" height="{cell:.3f}"/>')
        label = corners.get(marker_id, "")
        text = f"marker {marker_id}: {label}"
        parts.append(f'<text y="{size_mm + 8}" font-size="4.5" font-family="sans-serif">{text}</text></g>')
    parts.append("</svg>")
    return "\n".join(parts)
