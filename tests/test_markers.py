"""The printable marker sheet: every format decodes as the profile's marker ids, at true scale."""

from __future__ import annotations

import re
import struct
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.board import _detector, detect_markers
from vision.markers import PNG_DPI, sheet_layout, to_pdf, to_png, to_svg


@pytest.mark.parametrize("size_mm", [30.0, 40.0, 60.0])
def test_png_markers_decode_as_their_ids_at_true_size(size_mm: float) -> None:
    data = to_png(sheet_layout(size_mm=size_mm))
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    found = detect_markers(image, _detector())
    assert sorted(found) == [0, 1, 2, 3]
    px_per_mm = PNG_DPI / 25.4
    for corners in found.values():
        side = np.linalg.norm(np.asarray(corners)[0] - np.asarray(corners)[1])
        assert side == pytest.approx(size_mm * px_per_mm, abs=2), "the printed side is the profile's size"
    # The resolution is stored, so the image prints at size.
    at = data.index(b"pHYs")
    x, y, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert unit == 1 and x == y == round(PNG_DPI / 0.0254)


def test_pdf_is_vector_at_true_scale() -> None:
    data = to_pdf(sheet_layout(size_mm=40))
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 595.28 841.89]" in data  # A4 in points
    stream = data[data.index(b"stream\n") + 7 : data.index(b"\nendstream")]
    ops = zlib.decompress(stream).decode("latin-1")
    filled = [tuple(map(float, m)) for m in re.findall(r"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re f", ops)]
    cell_pt = 40 / 6 * 72 / 25.4
    assert filled and all(w == pytest.approx(cell_pt, abs=0.01) for _, _, w, _ in filled)
    assert ops.count(" re S") == 4, "a dashed cutting guide round each marker"
    # The cross-reference table points at each object.
    xref = int(data.rsplit(b"startxref\n", 1)[1].split()[0])
    offsets = [int(line[:10]) for line in data[xref:].split(b"\n")[3:8]]
    assert all(data[o:].startswith(f"{n} 0 obj".encode()) for n, o in enumerate(offsets, start=1))


def test_svg_is_well_formed_and_labelled() -> None:
    root = ET.fromstring(to_svg(sheet_layout()))
    assert root.get("width") == "210mm"
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert sum(1 for t in texts if t and t.startswith("marker ")) == 4


def test_markers_that_do_not_fit_or_are_too_small() -> None:
    with pytest.raises(ValueError, match="77 mm at most"):
        sheet_layout(size_mm=90)
    with pytest.raises(ValueError, match="smaller than 10 mm"):
        sheet_layout(size_mm=5)


def test_cli_writes_each_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("m.pdf", "m.png", "m.svg"):
        assert main(["markers", "--out", str(tmp_path / name), "--size-mm", "45"]) == 0
        assert (tmp_path / name).stat().st_size > 1000
    assert main(["markers", "--out", str(tmp_path / "m.docx")]) == 1
    assert "written as .pdf, .png or .svg" in capsys.readouterr().err
