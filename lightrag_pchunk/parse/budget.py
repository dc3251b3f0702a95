"""Stage A: the output budget, how much text one parse may produce, counted as it is produced.

The zip guard bounds the bytes a package decompresses; this bounds what the walk makes of
them, because a tiny package can ask for far more text than it holds: a vertically merged cell
repeats its text in every row it spans, a chart or picture part can be referenced thousands of
times, altChunks can import packages that import packages (fan-out), and HTML spans repeat
cells. One :class:`OutputBudget` per parse counts characters:

- every line the walk writes into the blocks (:meth:`charge`, by the body walker), table
  tags included: this is most of it;
- what is being gathered before it is written (:meth:`require`: it must fit what is left,
  and is charged when written): the lines of a table cell or an HTML list item, and the
  copies a vertical merge (DOCX ``w:vMerge``, HTML ``rowspan``) makes of a cell, as each
  copy is made, so a 6 KB table cannot build gigabytes before its tag is written;
- extra, where a reference multiplies what a part holds: chart and SmartArt text per
  reference (again when written), a ``drawings.json`` item per picture reference, and an
  HTML or text altChunk's size per import, before it is parsed;
- altChunk imports, by number (:meth:`alt_chunk`); a part imported again must leave room
  for what its last import made before it is read again.

It also counts the lines and headings the walk writes against the document's work budget
(:mod:`lightrag_pchunk.work_budget`): a million one-word paragraphs are few characters but
cost a parse and a chunking of minutes.

Footnotes and endnotes cannot multiply text: a note's text is written once, after its first
reference, and later references add a marker of a few characters; they count as lines.

The limit is ``min(max_text_chars, max(TEXT_FLOOR_CHARS, max_text_ratio x bytes of the distinct
parts read so far))``, from :class:`~lightrag_pchunk.parse.limits.PackageLimits`. Going over it
refuses the document with ``DocxParseError(reason="output-budget")`` naming the variable to
raise, at the moment it happens: memory never holds much more than the limit.
"""

from __future__ import annotations

from collections.abc import Callable

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.limits import TEXT_FLOOR_CHARS, PackageLimits
from lightrag_pchunk.work_budget import WorkBudget


class OutputBudget:
    """Characters one parse may still produce, altChunk imports it may still make, and the
    lines and headings it may still write (``work``: the document's
    :class:`~lightrag_pchunk.work_budget.WorkBudget`)."""

    __slots__ = (
        "_cap", "_decompressed", "_limits", "_path", "_work", "alt_chunks", "chars", "headings",
        "lines",
    )  # fmt: skip

    def __init__(
        self,
        limits: PackageLimits,
        path: str,
        decompressed: Callable[[], int],
        work: WorkBudget | None = None,
    ) -> None:
        """``decompressed`` gives the bytes of the distinct parts read so far (it only grows)."""
        self.chars = 0
        self.alt_chunks = 0
        self.lines = self.headings = 0
        self._limits = limits
        self._path = path
        self._decompressed = decompressed
        self._work = work if work is not None else WorkBudget()
        self._cap = self._limit()  # a lower bound of the limit: the input only grows

    def line(self, chars: int, what: str, *, is_heading: bool = False) -> None:
        """Count one line of ``chars`` characters written (a heading when ``is_heading``):
        refused past the work budget as soon as the walk passes it, before the rest of the
        document costs its time and memory, and past the output budget (:meth:`charge`).

        Raises:
            DocxParseError: ``output-budget``.
        """
        self.lines += 1
        self.headings += is_heading
        excess = self._work.excess(self.headings, self.lines, so_far=True)
        if excess is not None:
            raise DocxParseError(self._path, "output-budget", excess)
        self.charge(chars, what)

    def charge(self, chars: int, what: str) -> None:
        """Count ``chars`` characters produced; refuse the document past the limit.

        Raises:
            DocxParseError: ``output-budget``.
        """
        self.chars += chars
        if self.chars > self._cap:
            self._over(self.chars, what)

    def charge_lines(self, lines: list[str], what: str) -> None:
        """:meth:`charge` the characters of ``lines``."""
        self.charge(sum(map(len, lines)), what)

    def require(self, chars: int, what: str) -> None:
        """Check that ``chars`` more characters (gathered, not written yet) would fit.

        Raises:
            DocxParseError: ``output-budget``.
        """
        if self.chars + chars > self._cap:
            self._over(self.chars + chars, what)

    def alt_chunk(self) -> None:
        """Count one altChunk import.

        Raises:
            DocxParseError: ``output-budget`` past ``max_alt_chunks``.
        """
        self.alt_chunks += 1
        if self.alt_chunks > self._limits.max_alt_chunks:
            raise DocxParseError(
                self._path,
                "output-budget",
                f"the document imports more than {self._limits.max_alt_chunks} altChunks"
                " (repeated and nested imports count each time): refused before it multiplies"
                " further (raise LIGHTRAG_PCHUNK_MAX_ALTCHUNKS to allow more)",
            )

    def _limit(self) -> int:
        limits = self._limits
        relative = max(TEXT_FLOOR_CHARS, limits.max_text_ratio * self._decompressed())
        return min(limits.max_text_chars, relative)

    def _over(self, total: int, what: str) -> None:
        self._cap = self._limit()  # more input may have been read since
        if total <= self._cap:
            return
        limits = self._limits
        if self._cap >= limits.max_text_chars:
            how = f"the limit is {limits.max_text_chars:,} (raise LIGHTRAG_PCHUNK_MAX_TEXT_CHARS)"
        else:
            how = (
                f"the limit is {self._cap:,}: {limits.max_text_ratio} per byte of the"
                f" {self._decompressed():,} bytes read, at least {TEXT_FLOOR_CHARS:,}"
                " (raise LIGHTRAG_PCHUNK_MAX_TEXT_RATIO)"
            )
        raise DocxParseError(
            self._path,
            "output-budget",
            f"the document produces more text than its size allows ({total:,} characters"
            f" or more, the last of them: {what}); {how}",
        )
