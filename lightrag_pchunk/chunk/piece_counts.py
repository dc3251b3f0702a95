"""Exact counts of the pieces a text is cut into, from the encode that counted it.

Stage A counts a line over the chunk size in its batch encode, which also gives where
each of its tokens starts (``tokens.TokenStarts``). When R cuts the line after a
separator that ends in a space (``". "``, ``"; "``, ``" "``), each piece's count follows
from those starts and two facts of the seam rule (``token_seams``, ``SeamRule.word_after_space``)
at a cut ``x`` where one space meets ASCII letters:

- the tokens of the whole line that start before ``x`` are those of ``line[:x]`` alone,
  except that its final space starts the first token of the piece it makes with the next
  word, so ``count(line[:x]) = (tokens starting before x) - 1 + count(" ")``;
- ``count(line[:b]) = count(line[:a]) + count(line[a:b]) + space_seam_cost`` at ``a``
  (``TokenCounter.space_seam_cost``), which gives ``count(line[a:b])`` from the two
  prefixes, and the last piece's count from the line's own.

A cut where the rule does not decide (a newline, a digit or a letter outside ASCII after
the space) leaves its pieces to be encoded. So a line is encoded once, not once more piece
by piece.
"""

from __future__ import annotations

import copy
import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator

from lightrag_pchunk.tokens import TokenCounter, TokenStarts

_ASCII_LETTERS = re.compile("[A-Za-z]+")


class PieceCounts:
    """Counts of pieces of ``line[origin:]``, where ``line`` (of ``tokens`` tokens) is the
    text whose token starts are ``starts``; ``origin_byte`` is ``origin`` in UTF-8 bytes."""

    def __init__(
        self,
        line: str,
        tokens: int,
        starts: TokenStarts,
        counter: TokenCounter,
        origin: int = 0,
        origin_byte: int = 0,
    ) -> None:
        self.line, self.tokens, self.counter = line, tokens, counter
        self.origin, self.origin_byte = origin, origin_byte
        self._offsets = starts.tolist()  # bisect reads a list faster than numpy
        self._space = counter.count(" ")

    def after(self, start: int) -> PieceCounts:
        """The same for the text from ``start`` (characters after ``origin``) on."""
        skipped = self.line[self.origin : self.origin + start]
        moved = copy.copy(self)  # the line's offsets are shared, not listed again
        moved.origin += start
        moved.origin_byte += len(skipped) if skipped.isascii() else len(skipped.encode("utf-8"))
        return moved

    def rest_count(self) -> int | None:
        """The count of ``line[origin:]``, or None when the cut at ``origin`` is undecided."""
        before, cost = self._cut(self.origin, self.origin_byte)
        return None if before is None or cost is None else self.tokens - before - cost

    def parts(self, parts: Iterable[str]) -> Iterator[tuple[str, int | None, int | None]]:
        """``(part, count, seam)`` of consecutive parts making up ``line[origin:]`` from its
        start, as they are consumed; the count None where a cut at either end of the part
        is undecided. ``seam`` is the ``space_seam_cost`` of the part after the one before
        it (None for the first part, or where the rule does not decide)."""
        start, start_byte = self.origin, self.origin_byte
        before, cost = self._cut(start, start_byte)
        seam = None
        for part in parts:
            end = start + len(part)
            end_byte = start_byte + (len(part) if part.isascii() else len(part.encode("utf-8")))
            if end == len(self.line):
                through, next_cost = self.tokens, 0  # the line's own count: no cut after
            else:
                through, next_cost = self._cut(end, end_byte)
            if before is None or cost is None or through is None:
                yield part, None, seam
            else:
                yield part, through - before - cost, seam
            start, start_byte, before, cost, seam = end, end_byte, through, next_cost, next_cost

    def _cut(self, at: int, at_byte: int) -> tuple[int | None, int | None]:
        """``count(line[:at])`` and the seam cost of a cut there, both None when the cut is
        undecided."""
        if at == 0:
            return 0, 0
        cost = self._seam_cost(at)
        if cost is None:
            return None, None
        return bisect_left(self._offsets, at_byte) - 1 + self._space, cost

    def _seam_cost(self, at: int) -> int | None:
        """``space_seam_cost`` of ``line[:at]`` and ``line[at:]``, from the characters the
        rule reads: the two before the cut, the letters after it and one more."""
        if at < 2:
            return None  # no character before the space
        letters = _ASCII_LETTERS.match(self.line, at)
        stop = (letters.end() if letters else at) + 1
        return self.counter.space_seam_cost(self.line[at - 2 : at], self.line[at:stop])
