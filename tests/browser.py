"""Opening a page in Debian's chromium, headless (the HTML reports' tests): a screenshot,
its pixels, the page's DOM once its scripts ran. Tests skip, saying why, without chromium."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

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


def run_chromium(page: Path, work: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """chromium on ``page`` (a file, or a file with a fragment) with a profile in ``work``."""
    profile = work / "chromium-profile"
    profile.mkdir(exist_ok=True)
    return subprocess.run(
        [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *options, page_uri(page)],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def page_uri(page: Path) -> str:
    """``file:///…`` of a page, keeping a ``#fragment`` written after its name."""
    name, hash_mark, fragment = str(page).partition("#")
    return Path(name).resolve().as_uri() + hash_mark + fragment


def screenshot(page: Path, work: Path, name: str = "page.png") -> Path:
    """A PNG of the page as chromium draws it."""
    target = work / name
    done = run_chromium(page, work, "--virtual-time-budget=5000", f"--screenshot={target}")
    assert target.is_file(), f"chromium wrote no screenshot: {done.stderr[-2000:]}"
    return target


def dom_after_scripts(page: Path, work: Path) -> str:
    """The page's DOM once its scripts ran (and the files they load were read)."""
    done = run_chromium(page, work, "--virtual-time-budget=5000", "--dump-dom")
    assert done.stdout.strip(), f"chromium printed no DOM: {done.stderr[-2000:]}"
    return done.stdout
