"""Stage A for PDF: CJK text set letter-spaced read without the spaces between its characters.

A title or a justified line of Chinese or Japanese is often set with room between every
character ("經 濟 部 能 源 局"); PDFium writes a space into each such gap, and the gaps of a
distributed line are wide enough to part segments too. Chinese and Japanese put no space
between words, so a reader reads these characters as words ("經濟部能源局") and searches
them so.

Input: a printed line's text (``layout.make_line``; a table cell's line in
``grids.cell_text``), its segments joined, so that a run is judged whole however its gaps
cut it into segments. Output: the text without the spaces of its letter-spaced runs: three
CJK characters or more, each standing alone, one space apart. A space elsewhere stays:
between two words ("第一节 重要提示"), between two characters alone (a title typed "目 录",
"附 录 A"), and between a CJK character and a number or a Latin word ("以 15 分鐘",
"1990 年 4 月"), where the gap is often a word space (wider than the letter spacing around
it) or typed. Hangul is no CJK character here: Korean parts its words with spaces, and
many are one syllable long.
"""

from __future__ import annotations

import re

#: Han ideographs (and the compatibility ones, and those past the BMP), kana, CJK
#: punctuation and the full-width signs, but the ideographic space and the full-width
#: digits and Latin letters: those are numbers and Latin words, spaced as typed, and single
#: digits one space apart are numbers apart ("１ ２ ３", a table's row).
_CJK = (
    "\u3001-\u303f\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff60\uffe0-\uffe6"
    "\U00020000-\U0003134f"
)
#: CJK punctuation and the full-width signs: a character beside one still stands alone.
_CJK_MARKS = "\u3001-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff60"
#: Two CJK characters one space apart: text without one holds no run.
_SPACED_PAIR = re.compile(f"[{_CJK}] [{_CJK}]")
#: Three CJK characters or more, each standing alone (white space, a CJK mark or the
#: text's end on both sides: "（經 濟 部）", "能 源 局。", where no gap parts the mark),
#: one space apart.
_SPACED_RUN = re.compile(
    f"(?<![^\\s{_CJK_MARKS}])[{_CJK}](?: [{_CJK}]){{2,}}(?![^\\s{_CJK_MARKS}])"
)


def close_letter_spacing(text: str) -> str:
    """``text`` without the spaces of its letter-spaced CJK runs (see the module doc)."""
    if not _SPACED_PAIR.search(text):
        return text
    return _SPACED_RUN.sub(lambda run: run.group().replace(" ", ""), text)
