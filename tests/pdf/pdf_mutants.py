"""Seeded mutants of real PDFs: byte flips, truncations, splices, deletions, and edits a
PDF reader is sensitive to (a number changed: a /Length, an offset, a /Count; a keyword
removed or swapped: ``endstream``, ``endobj``, ``xref``; the bytes inside a compressed
stream flipped). The same sources and seed give the same list."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

_NUMBER = re.compile(rb"\d{1,10}")
_KEYWORD = re.compile(rb"endstream|endobj|stream|xref|trailer|startxref|/Length|/Filter|/Root")
_KEYWORDS = (b"endstream", b"endobj", b"stream", b"xref", b"trailer", b"obj", b"")
_NUMBERS = (b"0", b"-1", b"1", b"2147483647", b"4294967296", b"99999999999", b"1e308")


def sources(folder: Path, max_bytes: int, count: int) -> list[tuple[str, bytes]]:
    """``count`` PDFs of ``folder`` (name, bytes), spread over their sizes up to
    ``max_bytes``: files that open without a password and hold more than a page object
    (mutants of a file that is refused whole say little)."""
    candidates = []
    for path in sorted(folder.glob("*.pdf")):
        if not 2048 <= path.stat().st_size <= max_bytes:
            continue
        data = path.read_bytes()
        if b"%PDF" in data[:1024] and b"/Encrypt" not in data:
            candidates.append((path.stem, data))
    candidates.sort(key=lambda item: (len(item[1]), item[0]))
    step = max(len(candidates) / max(count, 1), 1.0)
    return [candidates[int(i * step)] for i in range(min(count, len(candidates)))]


def _flip(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 20)):
        out[rng.randrange(len(out))] ^= rng.randint(1, 255)
    return bytes(out)


def _truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randint(len(data) // 10, len(data) - 1)]


def _splice(data: bytes, rng: random.Random) -> bytes:
    start = rng.randrange(len(data))
    piece = data[start : start + rng.randint(1, 4096)]
    at = rng.randrange(len(data))
    return data[:at] + piece * rng.randint(1, 3) + data[at:]


def _delete(data: bytes, rng: random.Random) -> bytes:
    start = rng.randrange(len(data))
    return data[:start] + data[start + rng.randint(1, 4096) :]


def _number(data: bytes, rng: random.Random) -> bytes:
    found = list(_NUMBER.finditer(data))
    if not found:
        return _flip(data, rng)
    out = data
    for match in sorted(rng.sample(found, min(len(found), rng.randint(1, 5))),
                        key=lambda m: -m.start()):  # fmt: skip
        out = out[: match.start()] + rng.choice(_NUMBERS) + out[match.end() :]
    return out


def _keyword(data: bytes, rng: random.Random) -> bytes:
    found = list(_KEYWORD.finditer(data))
    if not found:
        return _flip(data, rng)
    match = rng.choice(found)
    return data[: match.start()] + rng.choice(_KEYWORDS) + data[match.end() :]


def _stream_bytes(data: bytes, rng: random.Random) -> bytes:
    """Flip bytes inside one stream's data (a compressed content stream, an image, a font)."""
    starts = [m.end() for m in re.finditer(rb"stream\r?\n", data)]
    if not starts:
        return _flip(data, rng)
    start = rng.choice(starts)
    end = data.find(b"endstream", start)
    if end <= start + 1:
        return _flip(data, rng)
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        out[rng.randrange(start, end)] ^= rng.randint(1, 255)
    return bytes(out)


_OPERATORS = (_flip, _truncate, _splice, _delete, _number, _number, _keyword, _stream_bytes)


def mutants(pdfs: list[tuple[str, bytes]], count: int, seed: int) -> Iterator[tuple[str, bytes]]:
    """``count`` seeded mutants of ``pdfs``: ``(label, bytes)``."""
    rng = random.Random(seed)
    for index in range(count):
        name, data = pdfs[index % len(pdfs)]
        operator = rng.choice(_OPERATORS)
        yield f"{index:03d}-{operator.__name__.strip('_')}-{name}", operator(data, rng)
