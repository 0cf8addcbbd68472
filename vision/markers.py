"""The printable marker sheet at true scale: one A4 layout in millimetres, written as SVG,
PDF (vector, so a printer at 100% reproduces the size exactly) or PNG (300 dpi, with the
resolution stored so image viewers print it at size)."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .board import DICTIONARY

PAGE_MM = (210.0, 297.0)
MARGIN_MM = 12.0
QUIET_MM = 8.0
"""White border kept round each marker when cutting: ArUco needs it to find the marker."""
CORNERS = {0: "north-west (top left)", 1: "north-east (top right)", 2: "south-east", 3: "south-west"}
PNG_DPI = 300


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    size: float
    text: str


@dataclass(frozen=True)
class Sheet:
    black: tuple[Box, ...]
    """Filled marker cells."""
    cuts: tuple[Box, ...]
    """Dashed cutting guides: each marker with its white border."""
    labels: tuple[Label, ...]


def marker_bits(marker_id: int) -> list[list[int]]:
    """The marker's cells (1 = black), border included: 6 x 6 for a 4x4 marker."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    cells = dictionary.markerSize + 2
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, cells)
    return [[int(v < 128) for v in row] for row in image]


def sheet_layout(ids: tuple[int, ...] = (0, 1, 2, 3), size_mm: float = 40.0) -> Sheet:
    """Markers in a grid on A4, each in its cutting box with its id and corner written below.
    `ValueError` when the markers do not fit the page."""
    if size_mm < 10:
        raise ValueError(f"markers smaller than 10 mm are not read reliably (asked for {size_mm:g} mm)")
    slot_w = size_mm + 2 * QUIET_MM
    slot_h = slot_w + 10  # the label under the cutting box
    top = MARGIN_MM + 14
    columns = min(2, int((PAGE_MM[0] - 2 * MARGIN_MM) // slot_w))
    rows = int((PAGE_MM[1] - top - MARGIN_MM) // slot_h)
    if columns * rows < len(ids):
        raise ValueError(f"{len(ids)} markers of {size_mm:g} mm do not fit on one A4 page (77 mm at most)")
    gap_x = (PAGE_MM[0] - 2 * MARGIN_MM - columns * slot_w) / columns
    black: list[Box] = []
    cuts: list[Box] = []
    labels = [
        Label(MARGIN_MM, MARGIN_MM + 4, 5, "Towers Companion board markers"),
        Label(
            MARGIN_MM,
            MARGIN_MM + 10,
            3.2,
            f"Print at 100% (no 'fit to page'): each black square is {size_mm:g} mm across - measure it. "
            "Cut along the dashed lines.",
        ),
    ]
    for n, marker_id in enumerate(ids):
        row, column = divmod(n, columns)
        cut_x = MARGIN_MM + gap_x / 2 + column * (slot_w + gap_x)
        cut_y = top + row * slot_h
        cuts.append(Box(cut_x, cut_y, slot_w, slot_w))
        bits = marker_bits(marker_id)
        cell = size_mm / len(bits)
        x0, y0 = cut_x + QUIET_MM, cut_y + QUIET_MM
        for r, line in enumerate(bits):
            for c, on in enumerate(line):
                if on:
                    black.append(Box(x0 + c * cell, y0 + r * cell, cell, cell))
        corner = CORNERS.get(marker_id, "")
        labels.append(Label(cut_x, cut_y + slot_w + 5, 3.5, f"marker {marker_id}: {corner}".strip(": ")))
    return Sheet(tuple(black), tuple(cuts), tuple(labels))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;")


def to_svg(sheet: Sheet) -> str:
    w, h = PAGE_MM
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" '
        f'viewBox="0 0 {w:g} {h:g}">',
        f'<rect width="{w:g}" height="{h:g}" fill="white"/>',
        '<g shape-rendering="crispEdges">',
        *(f'<rect x="{b.x:.3f}" y="{b.y:.3f}" width="{b.w:.3f}" height="{b.h:.3f}"/>' for b in sheet.black),
        "</g>",
        *(
            f'<rect x="{b.x:.3f}" y="{b.y:.3f}" width="{b.w:.3f}" height="{b.h:.3f}" fill="none" '
            'stroke="#888" stroke-width="0.25" stroke-dasharray="2 1.5"/>'
            for b in sheet.cuts
        ),
        *(
            f'<text x="{t.x:.2f}" y="{t.y:.2f}" font-size="{t.size:g}" font-family="sans-serif">'
            f"{_escape(t.text)}</text>"
            for t in sheet.labels
        ),
        "</svg>",
    ]
    return "\n".join(parts)


def _pdf_text(text: str) -> str:
    text = text.encode("latin-1", "replace").decode("latin-1")
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def to_pdf(sheet: Sheet) -> bytes:
    """A one-page vector PDF; PDF units are points (1/72 inch), y upwards."""
    pt = 72 / 25.4
    page_h = PAGE_MM[1]

    def rect(b: Box) -> str:
        return f"{b.x * pt:.3f} {(page_h - b.y - b.h) * pt:.3f} {b.w * pt:.3f} {b.h * pt:.3f} re"

    ops = ["0 g", *(f"{rect(b)} f" for b in sheet.black), "0.55 G 0.7 w [5.7 4.3] 0 d"]
    ops += [f"{rect(b)} S" for b in sheet.cuts]
    ops += [
        f"BT /F1 {t.size * pt:.2f} Tf {t.x * pt:.2f} {(page_h - t.y) * pt:.2f} Td ({_pdf_text(t.text)}) Tj ET"
        for t in sheet.labels
    ]
    content = zlib.compress("\n".join(ops).encode("latin-1"))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_MM[0] * pt:.2f} {PAGE_MM[1] * pt:.2f}] "
            "/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>"
        ).encode(),
        f"<< /Length {len(content)} /Filter /FlateDecode >>\nstream\n".encode() + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def to_png(sheet: Sheet, dpi: int = PNG_DPI) -> bytes:
    """The sheet rasterised at `dpi`, with a pHYs chunk so it prints at true size."""
    px = dpi / 25.4
    image = np.full((round(PAGE_MM[1] * px), round(PAGE_MM[0] * px)), 255, np.uint8)
    for b in sheet.black:
        image[round(b.y * px) : round((b.y + b.h) * px), round(b.x * px) : round((b.x + b.w) * px)] = 0
    for b in sheet.cuts:
        corners = np.array([[b.x, b.y], [b.x + b.w, b.y], [b.x + b.w, b.y + b.h], [b.x, b.y + b.h]]) * px
        for (x0, y0), (x1, y1) in zip(corners, np.roll(corners, -1, axis=0)):
            length = float(np.hypot(x1 - x0, y1 - y0))
            for s in np.arange(0, length, 3.5 * px):
                e = min(length, s + 2 * px)
                a = (x0 + (x1 - x0) * s / length, y0 + (y1 - y0) * s / length)
                z = (x0 + (x1 - x0) * e / length, y0 + (y1 - y0) * e / length)
                cv2.line(image, (round(a[0]), round(a[1])), (round(z[0]), round(z[1])), 140, 2)
    for t in sheet.labels:
        scale = t.size * px / 30  # Hershey simplex is about 30 px tall at scale 1 (cap height ~22)
        cv2.putText(image, t.text, (round(t.x * px), round(t.y * px)), cv2.FONT_HERSHEY_SIMPLEX, scale, 0, 2)
    ok, data = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("could not encode the marker sheet as PNG")
    png = data.tobytes()
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    return png[:33] + chunk + png[33:]  # after the 8-byte signature and the 25-byte IHDR chunk


def write_sheet(path: Path, size_mm: float = 40.0, ids: tuple[int, ...] = (0, 1, 2, 3)) -> None:
    """The sheet in the format the file name asks for (.svg, .pdf or .png)."""
    sheet = sheet_layout(ids, size_mm)
    suffix = path.suffix.lower()
    if suffix == ".svg":
        path.write_text(to_svg(sheet), encoding="utf-8")
    elif suffix == ".pdf":
        path.write_bytes(to_pdf(sheet))
    elif suffix == ".png":
        path.write_bytes(to_png(sheet))
    else:
        raise ValueError(f"the marker sheet is written as .pdf, .png or .svg, not {path.name!r}")
