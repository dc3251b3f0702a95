"""The HTML report opened in a real headless browser (Debian's chromium): the screenshot
must show the plots, drawn in each contender's colour, with no network."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from collections import Counter
from pathlib import Path

import pytest

from lightrag_pchunk.eval.report_html import COLOURS, write_html
from lightrag_pchunk.eval.run import evaluate

from sample_docs import write_manual

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--window-size=1280,1300",
)


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip(
            "Debian's chromium is not installed (apt-get install chromium; .ci/run installs it "
            "when it runs as root): the HTML report is not opened in a browser"
        )
    return found


def png_pixels(path: Path) -> list[tuple[int, int, int]]:
    """The RGB pixels of an 8-bit RGB or RGBA PNG (what chromium writes)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert header is not None
    width, height, depth, colour_type = header[:4]
    assert depth == 8 and colour_type in (2, 6), f"unexpected PNG format {header}"
    channels = 3 if colour_type == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    pixels: list[tuple[int, int, int]] = []
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                best = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + best) & 0xFF
        pixels.extend(tuple(line[i : i + 3]) for i in range(0, stride, channels))
        previous = line
    return pixels


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def test_the_html_report_shows_its_plots_in_a_headless_browser(tmp_path) -> None:
    browser = chromium()
    documents = [
        write_manual(tmp_path / "manual.docx"),
        write_manual(tmp_path / "second.docx", seed=8, paragraphs=5),
    ]
    result = evaluate(documents, size=300, overlap=0, chunkers="P,R,F,lightrag-P", workers=1)
    page = write_html(result, tmp_path / "report.html")
    text = page.read_text(encoding="utf-8")
    assert "<script" not in text and "http://" not in text and "https://" not in text
    assert text.count("<svg") == 2 + len(result.contenders)
    screenshot = tmp_path / "report.png"
    profile = tmp_path / "profile"
    profile.mkdir()
    completed = subprocess.run(
        [
            browser,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--screenshot={screenshot}",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert screenshot.is_file(), f"chromium wrote no screenshot: {completed.stderr[-2000:]}"
    counts = Counter(png_pixels(screenshot))
    for contender in result.contenders:
        drawn = counts[rgb(COLOURS[contender])]
        # A legend swatch alone is 140 pixels; lines, bars and a histogram are thousands.
        assert drawn > 1500, f"{contender}'s plots are missing from the screenshot ({drawn} px)"


def test_histogram_bins_end_at_n_and_add_a_bar_only_for_chunks_over_n() -> None:
    from lightrag_pchunk.eval.report_html import HISTOGRAM_BINS, histogram

    within = histogram([1, 100, 1200, 1200], 1200, "#000000", "x")
    assert within.count("<rect") == HISTOGRAM_BINS
    over = histogram([1, 1201], 1200, "#000000", "x")
    assert over.count("<rect") == HISTOGRAM_BINS + 1
