"""Stage A for PDF: a page's ruling lines, read from its vector paths.

Input: a PDFium page. Output: :class:`Rule` s, the straight horizontal and vertical strokes
of the page in PDF user space: table borders, cell borders, underlines. A stroked line, a
thin filled rectangle (how many producers draw a border) and the sides of a stroked
rectangle are rules; curves and diagonals are not. A page with more paths than
:data:`MAX_PATHS` (a vector drawing, a chart) is not read for rules: its tables, if any,
are read as text.
"""

from __future__ import annotations

import ctypes
import itertools
from dataclasses import dataclass

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

#: A path object at most this thick (points) is a rule, whatever it is made of.
THIN = 3.0
#: The shortest rule, in points.
MIN_LENGTH = 4.0
#: Paths read on one page at most (more: a drawing, not tables).
MAX_PATHS = 4000
#: Segments read of one path at most.
MAX_SEGMENTS = 200
_PATH = 2  # FPDF_PAGEOBJ_PATH
_LINETO = 0
_MOVETO = 2


@dataclass(frozen=True, slots=True)
class Rule:
    """A straight stroke from ``(x0, y0)`` to ``(x1, y1)``; horizontal or vertical."""

    x0: float
    y0: float
    x1: float
    y1: float


def page_rules(page: pdfium.PdfPage) -> list[Rule]:
    """The page's rules in user space (see the module doc)."""
    raw = page.raw
    count = pdfium_c.FPDFPage_CountObjects(raw)
    paths = []
    for index in range(count):
        handle = pdfium_c.FPDFPage_GetObject(raw, index)
        if pdfium_c.FPDFPageObj_GetType(handle) == _PATH:
            paths.append(handle)
            if len(paths) > MAX_PATHS:
                return []
    rules: list[Rule] = []
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    for handle in paths:
        if not pdfium_c.FPDFPageObj_GetBounds(handle, left, bottom, right, top):
            continue
        x0, y0, x1, y1 = left.value, bottom.value, right.value, top.value
        if x1 - x0 <= THIN and y1 - y0 >= MIN_LENGTH:
            middle = (x0 + x1) / 2
            rules.append(Rule(middle, y0, middle, y1))
        elif y1 - y0 <= THIN and x1 - x0 >= MIN_LENGTH:
            middle = (y0 + y1) / 2
            rules.append(Rule(x0, middle, x1, middle))
        elif x1 - x0 >= MIN_LENGTH or y1 - y0 >= MIN_LENGTH:  # a smaller path has no rule
            rules.extend(_path_rules(handle))
    return rules


def _path_rules(handle: object) -> list[Rule]:
    """The horizontal and vertical line segments a stroked path draws."""
    fill, stroke = ctypes.c_int(), ctypes.c_int()
    if not pdfium_c.FPDFPath_GetDrawMode(handle, fill, ctypes.byref(stroke)) or not stroke.value:
        return []
    count = pdfium_c.FPDFPath_CountSegments(handle)
    if count <= 1 or count > MAX_SEGMENTS:
        return []
    matrix = pdfium_c.FS_MATRIX()
    if not pdfium_c.FPDFPageObj_GetMatrix(handle, matrix):
        return []
    x, y = ctypes.c_float(), ctypes.c_float()
    points: list[tuple[int, float, float]] = []
    for index in range(count):
        segment = pdfium_c.FPDFPath_GetPathSegment(handle, index)
        if not segment or not pdfium_c.FPDFPathSegment_GetPoint(segment, x, y):
            return []
        kind = pdfium_c.FPDFPathSegment_GetType(segment)
        px = matrix.a * x.value + matrix.c * y.value + matrix.e
        py = matrix.b * x.value + matrix.d * y.value + matrix.f
        closes = bool(pdfium_c.FPDFPathSegment_GetClose(segment))
        points.append((kind, px, py))
        if closes:
            start = next((p for p in reversed(points) if p[0] == _MOVETO), points[0])
            points.append((_LINETO, start[1], start[2]))
    rules = []
    for (_, ax, ay), (kind, bx, by) in itertools.pairwise(points):
        if kind != _LINETO:
            continue
        if abs(ay - by) < 0.5 and abs(ax - bx) >= MIN_LENGTH:
            rules.append(Rule(min(ax, bx), ay, max(ax, bx), ay))
        elif abs(ax - bx) < 0.5 and abs(ay - by) >= MIN_LENGTH:
            rules.append(Rule(ax, min(ay, by), ax, max(ay, by)))
    return rules


def rules_in_frame(rules: list[Rule], direction: int) -> np.ndarray:
    """The rules in the page's reading frame (see ``glyphs.frame_box``) as rows of
    ``x0, top, x1, bottom`` (a rule is a degenerate box)."""
    if not rules:
        return np.zeros((0, 4))
    points = np.array([[r.x0, r.y0, r.x1, r.y1] for r in rules], dtype=np.float64)
    if direction == 0:
        xs, ys = points[:, [0, 2]], -points[:, [1, 3]]
    elif direction == 90:
        xs, ys = points[:, [1, 3]], points[:, [0, 2]]
    elif direction == 180:
        xs, ys = -points[:, [0, 2]], points[:, [1, 3]]
    else:
        xs, ys = -points[:, [1, 3]], -points[:, [0, 2]]
    return np.column_stack((xs.min(axis=1), ys.min(axis=1), xs.max(axis=1), ys.max(axis=1)))
