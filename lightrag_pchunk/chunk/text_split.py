"""Recursive character splitting of one over-long piece of text (the "R" fallback, spec §8.3).

Like LangChain's ``RecursiveCharacterTextSplitter`` used by LightRAG's R strategy, the text
is cut at the first separator of a cascade that occurs in it, pieces still over the cap
are cut with the next separators, and the pieces are packed greedily up to the cap with
an overlap of trailing pieces. Unlike it, each piece is counted once, separators stay at
the end of the piece they close (a sentence keeps its full stop), the cascade knows CJK
punctuation, and every packed chunk is verified exactly against the cap.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeAlias

from lightrag_pchunk.chunk.character_split import split_characters
from lightrag_pchunk.chunk.piece_counts import PieceCounts
from lightrag_pchunk.tokens import TokenCounter, TokenStarts

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


#: A piece of text cut by the cascade: the piece, its count and, when the cut before it
#: is one whose cost is known already (``PieceCounts``), the ``space_seam_cost`` of joining
#: it to the piece before (else None: packing finds it).
Piece: TypeAlias = tuple[str, int, int | None]

#: A text longer than this many characters per token of the cap is known to be over the
#: cap from a count of its first ``_PREFIX_CHARS_PER_TOKEN * cap`` characters alone: a huge
#: text is never encoded whole just to learn that it must be cut.
_PREFIX_CHARS_PER_TOKEN = 16
#: Texts counted with one encode at a time when a separator cuts a text into many parts.
_BATCH = 4096


def split_text(text: str, cap: int, counter: TokenCounter, **options: Any) -> list[str]:
    """Cut ``text`` into stripped pieces of at most ``cap`` tokens, in order
    (:func:`split_counted`, with its keyword options, without the counts)."""
    return [piece for piece, _ in split_counted(text, cap, counter, **options)]


def split_counted(
    text: str,
    cap: int,
    counter: TokenCounter,
    *,
    overlap: int = 0,
    separators: Sequence[str] = DEFAULT_SEPARATORS,
    first_cap: int | None = None,
    tokens: int | None = None,
    starts: TokenStarts | None = None,
) -> list[tuple[str, int]]:
    """Cut ``text`` into stripped pieces of at most ``cap`` tokens, in order, each with its
    exact count (``tokens``: the count of ``text``, when the caller has it; with
    ``starts``, where its tokens start, the parts of its first cut are counted from them:
    ``chunk/piece_counts.py``).

    Consecutive pieces share up to ``overlap`` tokens of whole sub-pieces. A single
    character that is itself over the cap is returned alone (it cannot be cut).
    Nothing but surrounding whitespace is dropped. ``first_cap`` (below ``cap``) bounds the
    first piece alone: the room left in a chunk the text's start is to join; the first piece
    is then at most that big and the others at most ``cap``.

    Linear in the length of ``text``: every character is encoded about once where it
    ends up in a piece that fits (plus bounded prefix counts of the texts that do not),
    many small parts are counted with one encode, and text with no separator left is
    cut in windows sized from the running characters-per-token ratio.
    """
    cap = max(int(cap), 1)
    overlap = min(max(int(overlap), 0), cap - 1)
    seps = tuple(separators)
    if not text.strip():
        return []
    known = None
    if starts is not None and tokens is not None:
        known = PieceCounts(text, tokens, starts, counter)
    return _split_known(text, tokens, known, cap, counter, overlap, seps, first_cap)


def _split_known(
    text: str,
    tokens: int | None,
    known: PieceCounts | None,
    cap: int,
    counter: TokenCounter,
    overlap: int,
    seps: tuple[str, ...],
    first_cap: int | None = None,
) -> list[tuple[str, int]]:
    """:func:`split_counted` of ``text``, whose parts ``known`` counts when not None."""
    if not text.strip():
        return []
    if first_cap is not None and 0 < first_cap < cap:
        head = _first_piece(text, tokens, known, first_cap, overlap, counter, seps)
        if head is not None:
            piece, rest_start = head
            rest = text[rest_start:]
            rest_known = None if known is None else known.after(rest_start)
            rest_tokens = None if rest_known is None else rest_known.rest_count()
            if rest_tokens is None:
                rest_known = None
            after = _split_known(rest, rest_tokens, rest_known, cap, counter, overlap, seps)
            return [piece, *after]
    pieces = _split_recursive(text, tokens, seps, cap, counter, known)
    return _verified(_pack(pieces, cap, overlap, counter), cap, counter, seps)


def _first_piece(
    text: str,
    tokens: int | None,
    known: PieceCounts | None,
    cap: int,
    overlap: int,
    counter: TokenCounter,
    separators: tuple[str, ...],
) -> tuple[tuple[str, int], int] | None:
    """The first piece of ``text`` (of ``tokens``, if known) within ``cap`` (stripped, with
    its count), and where the rest starts: at its trailing sub-pieces worth at most
    ``overlap`` tokens, never at the piece's start.

    Sub-pieces are made lazily: only the start of the text is cut this finely. None when
    the piece would not end at a separator (not one sub-piece fits but a cut inside a word),
    or the text fits whole.
    """
    window: list[tuple[str, int]] = []
    total = 0
    for piece, piece_tokens, _ in _split_recursive(text, tokens, separators, cap, counter, known):
        if total + piece_tokens > cap:
            break
        window.append((piece, piece_tokens))
        total += piece_tokens
    else:
        return None  # the whole text fits: nothing to cut
    # Summed counts can miss a merge across a seam: drop sub-pieces until the piece fits.
    while window:
        body = "".join(piece for piece, _ in window).strip()
        body_tokens = counter.count(body)
        if body and body_tokens <= cap:
            break
        window.pop()
    if not window or not body:
        return None
    raw = "".join(piece for piece, _ in window)
    if not any(raw.endswith(separator) for separator in separators if separator):
        # Only a cut inside a run without separators (a word, a base64 line) would fill
        # this room: R makes no such cut in a text it can cut elsewhere.
        return None
    end = len(raw)
    # The overlap: trailing sub-pieces worth at most ``overlap``; the first one always
    # leaves, so the next piece never repeats this one whole.
    kept = 0
    start = end
    for piece, piece_tokens in reversed(window[1:]):
        if kept + piece_tokens > overlap:
            break
        kept += piece_tokens
        start -= len(piece)
    return (body, body_tokens), start


def _count_or_over(text: str, cap: int, counter: TokenCounter) -> int | None:
    """The exact count of ``text``, or None when it is certainly over ``cap`` (a prefix
    of it already is, with a margin for the seam where the prefix was cut)."""
    limit = _PREFIX_CHARS_PER_TOKEN * cap
    if len(text) > limit and counter.count(text[:limit]) > cap + 1:
        return None
    return counter.count(text)


def _split_recursive(
    text: str,
    tokens: int | None,
    separators: tuple[str, ...],
    cap: int,
    counter: TokenCounter,
    known: PieceCounts | None = None,
) -> Iterator[Piece]:
    """Pieces (:data:`Piece`) that concatenate to ``text``, each within ``cap`` if it
    can be cut at all; ``tokens`` is the count of ``text``, or None when it is over the cap
    (or not counted yet). ``known`` counts the parts of its first cut and the seams between
    two of them kept whole (the parts of those parts are counted as they are cut)."""
    if tokens is None:
        tokens = _count_or_over(text, cap, counter)
    if tokens is not None and tokens <= cap:
        yield text, tokens, None
        return
    for index, separator in enumerate(separators):
        if separator == "":
            break
        if separator in text:
            rest = separators[index + 1 :]
            after_whole = False  # whether the piece before is the part before, whole
            for part, count, seam in _counted_parts(text, separator, cap, counter, known):
                if count is not None and count <= cap:
                    yield part, count, seam if after_whole else None
                    after_whole = True
                else:
                    yield from _split_recursive(part, count, rest, cap, counter)
                    after_whole = False
            return
    for piece, count in split_characters(text, cap, counter):
        yield piece, count, None


def _counted_parts(
    text: str, separator: str, cap: int, counter: TokenCounter, known: PieceCounts | None
) -> Iterator[tuple[str, int | None, int | None]]:
    """The parts of ``text`` cut after each ``separator`` (kept at the end of the part it
    closes), with their counts (None: over the cap) and the seam cost of each cut when
    ``known`` has it, made as they are consumed, not all at once; counted by ``known``
    where it can, the others in batches with one encode."""
    if known is not None and separator.endswith(" "):  # the only cuts it may decide
        for part, count, seam in known.parts(_parts(text, separator)):
            if count is None:
                count = _count_or_over(part, cap, counter)
            yield part, count, seam
        return
    batch: list[str] = []
    for part in _parts(text, separator):
        if len(part) > _PREFIX_CHARS_PER_TOKEN * cap:
            yield from _batch_counted(batch, counter)
            batch = []
            yield part, _count_or_over(part, cap, counter), None
            continue
        batch.append(part)
        if len(batch) >= _BATCH:
            yield from _batch_counted(batch, counter)
            batch = []
    yield from _batch_counted(batch, counter)


def _batch_counted(batch: list[str], counter: TokenCounter) -> Iterator[tuple[str, int, None]]:
    """The parts of ``batch`` with their counts, from one encode, seams unknown."""
    for part, count in zip(batch, counter.count_many(batch), strict=True):
        yield part, count, None


def _parts(text: str, separator: str) -> Iterator[str]:
    """The parts of ``text`` cut after each ``separator``, as they are consumed."""
    position, step = 0, len(separator)
    while position < len(text):
        found = text.find(separator, position)
        end = len(text) if found < 0 else found + step
        yield text[position:end]
        position = end


def _pack(
    pieces: Iterable[Piece], cap: int, overlap: int, counter: TokenCounter
) -> Iterator[tuple[str, int]]:
    """Greedy packing up to ``cap``; each new chunk starts with trailing pieces of the
    previous one worth at most ``overlap`` tokens. Yields ``(chunk, tokens)`` where
    ``tokens`` is exact when every seam of the chunk allows deriving it from its pieces'
    counts (``TokenCounter.space_seam_cost``: a sentence's final space before the next
    one's first word; a chunk of one piece has no seam), and -1 (to be measured)
    otherwise. Each seam's cost is found once, though overlapping chunks share it, and
    not at all when the piece brings it (a cut whose cost the line's count decided)."""
    window: deque[tuple[str, int]] = deque()
    seam_costs: deque[int | None] = deque()  # between window[i] and window[i + 1]
    total = 0
    for piece, tokens, seam in pieces:
        if window and total + tokens > cap:
            yield _joined(window, seam_costs)
            while window and (total > overlap or total + tokens > cap):
                total -= window.popleft()[1]
                if seam_costs:
                    seam_costs.popleft()
        if window:
            if seam is None:
                seam = counter.space_seam_cost(window[-1][0], piece)
            seam_costs.append(seam)
        window.append((piece, tokens))
        total += tokens
    if window:
        yield _joined(window, seam_costs)


def _joined(window: deque[tuple[str, int]], seam_costs: deque[int | None]) -> tuple[str, int]:
    text = "".join(piece for piece, _ in window)
    if None in seam_costs:
        return text, -1
    seams = sum(cost for cost in seam_costs if cost is not None)
    return text, sum(tokens for _, tokens in window) + seams


def _verified(
    chunks: Iterable[tuple[str, int]],
    cap: int,
    counter: TokenCounter,
    separators: Sequence[str],
    packed_to: int | None = None,
) -> list[tuple[str, int]]:
    """Strip each chunk and re-cut any whose exact count exceeds the cap (piece counts
    are summed during packing; BPE merges across a seam can differ slightly); each with
    its exact count. A chunk whose count is known is not counted again unless stripping
    changed it more than by a final space piece. Each re-cut packs below ``packed_to``
    (the cap the chunks were packed to): seams that cost more than the cut saved would
    give the same chunk again, and it is cut finer instead."""
    out: list[tuple[str, int]] = []
    for chunk, known in chunks:
        body = chunk.strip()
        if not body:
            continue
        tokens = _stripped_count(chunk, body, known, counter)
        if tokens <= cap or len(body) <= 1:
            out.append((body, tokens))
            continue
        tighter = max(min(cap - (tokens - cap), packed_to or cap) - 1, 1)
        if tighter >= cap:
            out.append((body, tokens))
            continue
        pieces = _split_recursive(body, None, tuple(separators), tighter, counter)
        out.extend(_verified(_pack(pieces, tighter, 0, counter), cap, counter, separators, tighter))
    return out


def _stripped_count(chunk: str, body: str, known: int, counter: TokenCounter) -> int:
    """The count of ``body``, ``chunk`` stripped, from ``known`` (the count of ``chunk``,
    or -1) where it can be derived, else counted."""
    if known >= 0 and len(body) == len(chunk):
        return known
    if known >= 0 and len(body) == len(chunk) - 1 and chunk.startswith(body):
        derived = counter.count_without_final_space(chunk, known)
        if derived is not None:
            return derived
    return counter.count(body)
