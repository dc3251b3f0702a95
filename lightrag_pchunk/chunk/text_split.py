"""Recursive character splitting of one over-long piece of text (the "R" fallback, spec §8.3).

Like LangChain's ``RecursiveCharacterTextSplitter`` used by LightRAG's R strategy, the text
is cut at the first separator of a cascade that occurs in it, pieces still over the cap
are cut with the next separators, and the pieces are packed greedily up to the cap with
an overlap of trailing pieces. Unlike it, each piece is counted once, separators stay at
the end of the piece they close (a sentence keeps its full stop), the cascade knows CJK
punctuation, and every packed chunk is verified exactly against the cap.
"""

from __future__ import annotations

from collections.abc import Sequence

from lightrag_pchunk.tokens import TokenCounter

#: Cut points, most preferred first: paragraphs, lines, CJK then Latin sentence ends,
#: clause marks, words; "" cuts anywhere (on character boundaries).
DEFAULT_SEPARATORS: tuple[str, ...] = (
    "\n\n",
    "\n",
    "。",
    "！",
    "？",
    "；",
    ". ",
    "! ",
    "? ",
    "; ",
    "，",
    ", ",
    " ",
    "",
)


def split_text(
    text: str,
    cap: int,
    counter: TokenCounter,
    *,
    overlap: int = 0,
    separators: Sequence[str] = DEFAULT_SEPARATORS,
) -> list[str]:
    """Cut ``text`` into stripped pieces of at most ``cap`` tokens, in order.

    Consecutive pieces share up to ``overlap`` tokens of whole sub-pieces. A single
    character that is itself over the cap is returned alone (it cannot be cut).
    Nothing but surrounding whitespace is dropped.
    """
    cap = max(int(cap), 1)
    overlap = min(max(int(overlap), 0), cap - 1)
    if not text.strip():
        return []
    pieces = _split_recursive(text, tuple(separators), cap, counter)
    chunks = _pack(pieces, cap, overlap, counter)
    return _verified(chunks, cap, counter, separators)


def _split_recursive(
    text: str, separators: tuple[str, ...], cap: int, counter: TokenCounter
) -> list[tuple[str, int]]:
    """``(piece, tokens)`` pairs that concatenate to ``text``, each within ``cap`` if it
    can be cut at all."""
    tokens = counter.count(text)
    if tokens <= cap:
        return [(text, tokens)]
    for index, separator in enumerate(separators):
        if separator == "":
            return _split_characters(text, tokens, cap, counter)
        if separator in text:
            rest = separators[index + 1 :]
            out: list[tuple[str, int]] = []
            parts = text.split(separator)
            for position, part in enumerate(parts):
                if position < len(parts) - 1:
                    part += separator
                if part:
                    out.extend(_split_recursive(part, rest, cap, counter))
            return out
    return _split_characters(text, tokens, cap, counter)


def _split_characters(
    text: str, tokens: int, cap: int, counter: TokenCounter
) -> list[tuple[str, int]]:
    """Cut text that has no separator left on character boundaries (never inside a
    character, so no byte-level token window can produce U+FFFD)."""
    out: list[tuple[str, int]] = []
    start = 0
    chars_per_token = max(len(text) / max(tokens, 1), 1e-6)
    while start < len(text):
        size = max(int(cap * chars_per_token * 0.95), 1)
        end = min(start + size, len(text))
        count = counter.count(text[start:end])
        while count > cap and end - start > 1:
            end = start + max((end - start) * cap // (count + 1), 1)
            count = counter.count(text[start:end])
        # Grow while the next characters still fit, so pieces are not needlessly small.
        while end < len(text):
            step = max((end - start) // 8, 1)
            candidate = min(end + step, len(text))
            grown = counter.count(text[start:candidate])
            if grown > cap:
                break
            end, count = candidate, grown
        out.append((text[start:end], count))
        start = end
    return out


def _pack(
    pieces: list[tuple[str, int]], cap: int, overlap: int, counter: TokenCounter
) -> list[str]:
    """Greedy packing up to ``cap``; each new chunk starts with trailing pieces of the
    previous one worth at most ``overlap`` tokens."""
    chunks: list[str] = []
    window: list[tuple[str, int]] = []
    total = 0
    for piece, tokens in pieces:
        if window and total + tokens > cap:
            chunks.append("".join(p for p, _ in window))
            while window and (total > overlap or total + tokens > cap):
                total -= window[0][1]
                window.pop(0)
        window.append((piece, tokens))
        total += tokens
    if window:
        chunks.append("".join(p for p, _ in window))
    return chunks


def _verified(
    chunks: list[str], cap: int, counter: TokenCounter, separators: Sequence[str]
) -> list[str]:
    """Strip each chunk and re-cut any whose exact count exceeds the cap (piece counts
    are summed during packing; BPE merges across a seam can differ slightly)."""
    out: list[str] = []
    for chunk in chunks:
        body = chunk.strip()
        if not body:
            continue
        tokens = counter.count(body)
        if tokens <= cap or len(body) <= 1:
            out.append(body)
            continue
        tighter = max(cap - (tokens - cap) - 1, 1)
        if tighter >= cap:
            out.append(body)
            continue
        pieces = _split_recursive(body, tuple(separators), tighter, counter)
        out.extend(_verified(_pack(pieces, tighter, 0, counter), cap, counter, separators))
    return out
