"""Exact token counts of joined text from the counts of its parts, for tiktoken's BPEs.

tiktoken cuts text into pieces with a regular expression and encodes every piece on its
own, so ``count(left + joiner + right)`` differs from ``count(left) + count(joiner) +
count(right)`` only where the pieces at the seam change. For a joiner of newlines between
two texts that do not end or start with whitespace, cl100k's and o200k's patterns change
at most one piece: a run of punctuation ending ``left`` (``" ?[^\\s\\p{L}\\p{N}]+"``)
takes the joiner's newlines into its own piece. Everything else keeps its pieces: a
letter or digit piece stops at a newline, and nothing before ``right`` can take its first
character. So the exact count is the parts' counts plus the cost of the joiner after that
trailing run, which is a count of a few characters, cached by value.

:func:`seam_rule_for` recognises the encodings whose pattern this was derived for; for
any other tokenizer, and for seams the rule does not cover (whitespace, control or format
characters at the seam), callers encode the joined text.

Text cut after a separator such as ``". "`` meets the next text at one space. In cl100k a
text ending in one U+0020 after a character that is not whitespace has that space as its
last piece (``\\s++$``), and nothing before it changes when it goes: the pieces before
it end at that character (a letter, digit or punctuation piece never takes a space after
it). Placed before a text starting with letters, the space joins them instead
(``[^\\r\\n\\p{L}\\p{N}]?+\\p{L}++``: one piece of the space and the same run of letters)
and every later piece is the same. :meth:`SeamRule.word_after_space` finds those letters
(ASCII, so where their run ends is certain); the counter swaps their cost for that of
the space and the letters together.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from typing import Any

import numpy as np

#: cl100k_base's pre-tokenizer, as in tiktoken >= 0.8 and as in earlier releases; the two
#: spellings cut text into the same pieces.
CL100K_PATTERNS = frozenset(
    (
        "|".join(
            (
                r"""'(?i:[sdmt]|ll|ve|re)""",
                r"""[^\r\n\p{L}\p{N}]?+\p{L}++""",
                r"""\p{N}{1,3}+""",
                r""" ?[^\s\p{L}\p{N}]++[\r\n]*+""",
                r"""\s++$""",
                r"""\s*[\r\n]""",
                r"""\s+(?!\S)""",
                r"""\s""",
            )
        ),
        "|".join(
            (
                r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)""",
                r"""[^\r\n\p{L}\p{N}]?\p{L}+""",
                r"""\p{N}{1,3}""",
                r""" ?[^\s\p{L}\p{N}]+[\r\n]*""",
                r"""\s*[\r\n]+""",
                r"""\s+(?!\S)""",
                r"""\s+""",
            )
        ),
    )
)
#: o200k_base's pre-tokenizer (gpt-4o, gpt-4o-mini: LightRAG's default model).
O200K_PATTERNS = frozenset(
    (
        "|".join(
            (
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""\p{N}{1,3}""",
                r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
                r"""\s*[\r\n]+""",
                r"""\s+(?!\S)""",
                r"""\s+""",
            )
        ),
    )
)

#: Whitespace as the patterns' ``\s`` (Unicode White_Space) has it, for the characters a
#: run of punctuation can stop at. Other control and format characters make a seam
#: undecided (Python and the regex engine may classify them differently).
_WHITESPACE_CONTROLS = frozenset("\t\n\v\f\r\x85")


@dataclass(frozen=True, slots=True)
class SeamRule:
    """How one pre-tokenizer treats a seam of newlines between two texts.

    ``marks_are_punctuation``: combining marks belong to a run of punctuation (cl100k).
    In o200k a mark may also belong to a letter piece, depending on where the piece
    started, so a seam with a mark is left undecided there.
    ``slash_follows_newlines``: a punctuation piece also takes the slashes after its
    newlines (o200k's ``[\\r\\n/]*``), so a seam with a slash is left undecided there.
    ``space_joins_letters``: a final space and the letters after it make one piece and
    nothing else changes (cl100k, module doc; o200k's letter pieces depend on case, so its
    space seams are left undecided).
    """

    name: str
    marks_are_punctuation: bool
    slash_follows_newlines: bool
    space_joins_letters: bool

    def joiner_piece(self, left: str, right: str) -> str | None:
        """The piece of ``left`` that takes the newlines of a joiner placed before
        ``right``: ``""`` when none does (``left`` ends in a letter or digit), None when the
        seam is undecided. Both texts must be non-empty."""
        first = right[0]
        kind = self._kind(first)
        if kind not in ("word", "punct") or (self.slash_follows_newlines and first == "/"):
            return None  # ``right`` would not keep its own first piece
        kind = self._kind(left[-1])
        if kind == "word":
            return ""
        if kind != "punct":
            return None
        start = len(left) - 1
        while start > 0:
            char = left[start - 1]
            kind = self._kind(char)
            if kind == "punct":
                start -= 1
                continue
            if kind == "space":
                # `` ?`` takes exactly one U+0020 before the run into the same piece.
                if char == " ":
                    start -= 1
                break
            if kind == "word":
                break
            return None
        piece = left[start:]
        if self.slash_follows_newlines and "/" in piece:
            return None  # the slash may belong to a piece that began before the run
        return piece

    def ends_in_one_space(self, text: str) -> bool:
        """Whether the last piece of ``text`` is one U+0020 that leaves the pieces before
        it unchanged: it follows a letter, digit or punctuation character."""
        if not self.space_joins_letters or len(text) < 2 or text[-1] != " ":
            return False
        return self._kind(text[-2]) in ("word", "punct")

    def word_after_space(self, left: str, right: str) -> str | None:
        """The first piece of ``right``, when ``left``'s final space joins it into one piece
        of ``left + right`` and every other piece of both stays: ``left`` ends in one space
        (:meth:`ends_in_one_space`) and ``right`` starts with ASCII letters followed by
        neither a letter nor a mark (the piece is those letters). None for any other seam."""
        if not self.ends_in_one_space(left):
            return None
        letters = _ASCII_LETTERS.match(right)
        if letters is None:
            return None
        if not right[letters.end() : letters.end() + 1].isascii():
            return None  # a letter or mark that is not ASCII may continue the piece
        return letters.group()

    def _kind(self, char: str) -> str:
        return _ASCII_KINDS.get(char) or _char_kind(char, self.marks_are_punctuation)


_ASCII_LETTERS = re.compile("[A-Za-z]+")


@lru_cache(maxsize=4096)
def _char_kind(char: str, marks_are_punctuation: bool) -> str:
    """``word`` (letter or digit), ``punct``, ``space`` or ``other`` (undecided)."""
    major = unicodedata.category(char)[0]
    if major in "LN":
        return "word"
    if major in "PS" or (major == "M" and marks_are_punctuation):
        return "punct"
    if major == "Z" or char in _WHITESPACE_CONTROLS:
        return "space"
    return "other"


#: The kinds of ASCII characters (the same for every rule: ASCII has no combining marks),
#: looked up before the general path because most seams are ASCII.
_ASCII_KINDS = {chr(code): _char_kind(chr(code), True) for code in range(128)}


CL100K_RULE = SeamRule(
    "cl100k", marks_are_punctuation=True, slash_follows_newlines=False, space_joins_letters=True
)
O200K_RULE = SeamRule(
    "o200k", marks_are_punctuation=False, slash_follows_newlines=True, space_joins_letters=False
)


def rule_for_pattern(pattern: str) -> SeamRule | None:
    """The seam rule of a tiktoken pre-tokenizer pattern, or None if it is not one we know."""
    if pattern in CL100K_PATTERNS:
        return CL100K_RULE
    if pattern in O200K_PATTERNS:
        return O200K_RULE
    return None


def seam_rule_for(tokenizer: Any) -> SeamRule | None:
    """The seam rule for ``tokenizer`` when its ``encode`` is plain tiktoken BPE.

    Recognised: a ``tiktoken.Encoding``; our ``TiktokenAdapter``; LightRAG's ``Tokenizer``
    (and ``TiktokenTokenizer``) wrapping either, with ``encode`` not overridden. Anything else
    (another tokenizer, a subclass that changes ``encode``) gets None: no rule is assumed.
    """
    encoding = tiktoken_encoding_of(tokenizer)
    if encoding is None:
        return None
    return rule_for_pattern(getattr(encoding, "_pat_str", ""))


def tiktoken_encoding_of(tokenizer: Any, depth: int = 0) -> Any | None:
    """The ``tiktoken.Encoding`` whose ordinary encoding ``tokenizer.encode`` is, or None.

    Special-token text counts as ordinary text on every recognised path (our adapter passes
    ``disallowed_special=()``; LightRAG's ``Tokenizer`` retries with it).
    """
    try:
        import tiktoken
    except ImportError:  # pragma: no cover - tiktoken is a dependency
        return None
    if type(tokenizer) is tiktoken.Encoding:
        return tokenizer
    encode: Callable[..., Any] | None = getattr(type(tokenizer), "encode", None)
    owner = (getattr(encode, "__module__", ""), getattr(encode, "__qualname__", ""))
    if owner == ("lightrag_pchunk.encodings", "TiktokenAdapter.encode"):
        inner = getattr(tokenizer, "_encoding", None)
    elif owner == ("lightrag.utils", "Tokenizer.encode"):
        inner = getattr(tokenizer, "tokenizer", None)
    else:
        return None
    # LightRAG's Tokenizer may wrap our adapter (the offline CLI does): one more level.
    return tiktoken_encoding_of(inner, depth + 1) if depth < 2 else None


_BYTE_LENGTHS: dict[tuple[str, int], np.ndarray] = {}
_BYTE_LENGTHS_LOCK = threading.Lock()


def token_byte_lengths(encoding: Any) -> np.ndarray:
    """UTF-8 bytes of every token id of a tiktoken ``encoding`` (0 for unused ids), built
    once per encoding and process (about 30 ms for cl100k)."""
    key = (encoding.name, encoding.max_token_value)
    table = _BYTE_LENGTHS.get(key)
    if table is not None:
        return table
    with _BYTE_LENGTHS_LOCK:
        table = _BYTE_LENGTHS.get(key)
        if table is None:
            table = np.zeros(encoding.max_token_value + 1, dtype=np.int64)
            ranks = getattr(encoding, "_mergeable_ranks", None)
            if isinstance(ranks, dict):  # every tiktoken so far; the public path is 3x slower
                for token_bytes, rank in ranks.items():
                    table[rank] = len(token_bytes)
            else:  # pragma: no cover - a future tiktoken without the private table
                for rank in range(encoding.max_token_value + 1):
                    try:
                        table[rank] = len(encoding.decode_single_token_bytes(rank))
                    except KeyError:
                        continue
            for text in encoding.special_tokens_set:
                table[encoding.encode_single_token(text)] = len(text.encode("utf-8"))
            _BYTE_LENGTHS[key] = table
    return table


def encode_array(encoding: Any, text: str) -> np.ndarray:
    """Token ids of ``text`` (special-token text as ordinary text) as a numpy array."""
    if _HAS_FIXED_ENCODE_TO_NUMPY:
        return encoding.encode_to_numpy(text, disallowed_special=())
    return np.asarray(encoding.encode_ordinary(text), dtype=np.int64)


def _tiktoken_at_least(major: int, minor: int) -> bool:
    try:
        version = metadata.version("tiktoken").split(".")
        return (int(version[0]), int(version[1])) >= (major, minor)
    except (metadata.PackageNotFoundError, ValueError, IndexError):
        return False


#: ``encode_to_numpy`` exists since tiktoken 0.9 and handles special tokens right since 0.11.
_HAS_FIXED_ENCODE_TO_NUMPY = _tiktoken_at_least(0, 11)
