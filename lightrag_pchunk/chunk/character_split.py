"""Cutting text that has no separator left (R's last resort, ``chunk/text_split.py``) on
character boundaries, in windows sized from the characters per token of the window before,
or, for a text too long to count, by its UTF-8 length."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from lightrag_pchunk.tokens import TokenCounter

#: Character pieces aim at this share of the cap, so few windows are counted twice.
_FILL = 0.95
#: Past this many characters, text without separators is cut by UTF-8 length, uncounted.
_BYTE_BOUND_CHARS = 4 * 1024 * 1024
#: Tokens a tokenizer may add to any text it encodes (BOS/EOS and the like).
_BYTE_MARGIN = 8


def split_characters(text: str, cap: int, counter: TokenCounter) -> Iterator[tuple[str, int]]:
    """Cut text that has no separator left on character boundaries (never inside a
    character, so no byte-level token window can produce U+FFFD), and never between a
    letter and the combining marks that follow it (:func:`_before_marks`).

    Each window is sized from the characters per token of the window before it and
    counted once; only a window that came out over the cap (or far under it) is counted
    again. The text is never encoded whole. Text longer than :data:`_BYTE_BOUND_CHARS` is
    cut by :func:`_split_by_bytes` instead, without encoding it.
    """
    if len(text) > _BYTE_BOUND_CHARS and cap > _BYTE_MARGIN:
        bounded = _split_by_bytes(text, cap, counter)
        if bounded is not None:
            yield from bounded
            return
    start, length = 0, len(text)
    chars_per_token = 4.0  # a first guess; the first window corrects it
    while start < length:
        size = max(int(cap * chars_per_token * _FILL), 1)
        end = _before_marks(text, start, min(start + size, length))
        count = counter.count(text[start:end])
        while count > cap and end - start > 1:  # over: shrink in proportion
            end = _before_marks(
                text, start, start + max(int((end - start) * cap * _FILL / count), 1)
            )
            count = counter.count(text[start:end])
        if end < length and count < cap * 0.8 and count > 0:  # far under: grow once
            grown = min(start + int((end - start) * cap * _FILL / count), length)
            grown = _before_marks(text, start, grown)
            grown_count = counter.count(text[start:grown])
            if grown > end and grown_count <= cap:
                end, count = grown, grown_count
        if count:
            chars_per_token = (end - start) / count
        yield text[start:end], count
        start = end


def _split_by_bytes(text: str, cap: int, counter: TokenCounter) -> Iterator[tuple[str, int]] | None:
    """Pieces of at most ``cap - _BYTE_MARGIN`` UTF-8 bytes, each paired with its byte length.

    A byte-level BPE (tiktoken, and LightRAG's tokenizers) never makes more tokens than
    bytes, so each piece is within the cap without being encoded: a 50 MB line is cut in a
    second where counting it would take a minute. Pieces are fuller when counted, so this
    is kept for texts too long to count. The first piece is counted to check the tokenizer
    keeps the bound; None (count instead) when it does not.
    """
    budget = cap - _BYTE_MARGIN
    first, _ = _byte_piece(text, 0, budget)
    if counter.count(text[:first]) > budget:
        return None

    def pieces() -> Iterator[tuple[str, int]]:
        start = 0
        while start < len(text):
            end, size = _byte_piece(text, start, budget)
            yield text[start:end], size
            start = end

    return pieces()


def _byte_piece(text: str, start: int, budget: int) -> tuple[int, int]:
    """``(end, bytes)`` of the longest piece from ``start`` of at most ``budget`` UTF-8
    bytes (at least one character)."""
    end = min(start + budget, len(text))  # a character is at least one byte
    while True:
        end = _before_marks(text, start, end)
        piece = text[start:end]
        size = len(piece) if piece.isascii() else len(piece.encode("utf-8", "surrogatepass"))
        if size <= budget or end - start <= 1:
            return end, size
        end = start + max((end - start) * budget // size, 1)


def _before_marks(text: str, start: int, end: int) -> int:
    """``end``, or, when ``text[end]`` is a combining mark (an accent, a vowel sign of an
    Indic script), the start of the letter it is written on: a piece that opened with the
    mark would show it alone, on no letter. Never ``start`` itself: a letter with more
    marks than a piece can hold is cut after its first character."""
    while start + 1 < end < len(text) and unicodedata.category(text[end]).startswith("M"):
        end -= 1
    return end
