"""Stage A for Markdown, first: read the file within its limits and decode it to text.

Input: a path. Output: the document as one string with ``"\\n"`` line ends, and the encoding
it was decoded from. A file over its size limit is refused before it is read; bytes that are
not text are refused with a :class:`~lightrag_pchunk.errors.MarkdownParseError` whose
``reason`` says why. UTF-16 with a BOM and UTF-8 (with or without a BOM) are read as they
are; LightRAG itself reads only UTF-8.

Any other file is a legacy code page, and bytes alone do not say which: the same bytes are
valid Windows-1252, Windows-1250 and GB18030 (``Die Straße führt über die Brücke`` reads
``Die Stra遝 f黨rt 黚er die Br點ke`` as GB18030). The encoding is chosen with evidence:
charset-normalizer (a maintained detector: how messy and how coherent in some language each
decoding reads) must rank one reading first, the readings tied with it must give the same
text, or, among tied CJK readings, GB18030 is taken when its text is mostly Han characters.
Otherwise the file is refused (``encoding``) with the competing readings: a wrong guess
would store mojibake silently.
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from charset_normalizer import from_bytes

from lightrag_pchunk.errors import MarkdownParseError
from lightrag_pchunk.parse.content_rows import strip_controls
from lightrag_pchunk.work_budget import positive_ints_from_env, require_positive_fields

_MIB = 1024 * 1024
# Control characters no text file holds (tab, line ends, form feed and ESC are text).
_BINARY_CONTROLS = re.compile("[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")
_BINARY_CONTROL_BYTES = bytes([*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F])
#: Share of characters that may be such controls before a file is called binary.
_BINARY_SHARE = 0.01
_SIGNATURES = (
    (b"PK\x03\x04", "a zip package (a .docx?)"),
    (b"%PDF", "a PDF"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"\xd0\xcf\x11\xe0", "an OLE file (a .doc?)"),
)


@dataclass(frozen=True)
class MarkdownLimits:
    """What reading one Markdown file may cost; a value below 1 is refused.

    Attributes:
        max_bytes: the file's size (``LIGHTRAG_PCHUNK_MAX_MARKDOWN_BYTES``).
        max_image_bytes: one embedded ``data:`` image once decoded, as LightRAG's
            ``NATIVE_MD_IMAGE_MAX_BYTES``; a larger one stays text.
        max_images_total_bytes: all embedded images of the document together, as LightRAG's
            ``NATIVE_MD_IMAGE_MAX_TOTAL_BYTES``.
    """

    max_bytes: int = 16 * _MIB
    max_image_bytes: int = 25 * _MIB
    max_images_total_bytes: int = 64 * _MIB

    def __post_init__(self) -> None:
        require_positive_fields(self)

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> MarkdownLimits:
        """Limits from environment variables; unset or empty ones keep their default.

        Raises:
            ValueError: a value is not an integer >= 1; the message names the variable.
        """
        return cls(**positive_ints_from_env(env, _ENV_VARS, none_is_unset=True))


_ENV_VARS = {
    "max_bytes": "LIGHTRAG_PCHUNK_MAX_MARKDOWN_BYTES",
    "max_image_bytes": "NATIVE_MD_IMAGE_MAX_BYTES",
    "max_images_total_bytes": "NATIVE_MD_IMAGE_MAX_TOTAL_BYTES",
}


#: Two readings are tied when charset-normalizer's mess ratios are this close and their
#: language coherences this close (a French text of a few lines: cp1252 0.78 against cp1250
#: 0.74 is a decision; 0.455 against 0.455 is not).
_TIED_MESS = 0.01
_TIED_COHERENCE = 0.02
#: GB18030 among tied readings: at least this share of its letters are Han characters.
_MOSTLY_HAN = 0.5
_HAN = re.compile(
    "[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\U00020000-\U0003134f]"
)
_WESTERN = "cp1252"  # named for a single-byte reading that gives the same text
_SINGLE_BYTE = re.compile(r"^(cp|windows-|iso8859|latin|mac)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class MarkdownText:
    """A Markdown file's text and the encoding it was decoded from (a Python codec name:
    ``utf-8``, ``utf-8-sig``, ``utf-16``, ``cp1252``, ``gb18030``, ...)."""

    text: str
    encoding: str

    @property
    def is_utf8(self) -> bool:
        return self.encoding in ("utf-8", "utf-8-sig")


def read_markdown(path: Path, limits: MarkdownLimits) -> MarkdownText:
    """The text of a Markdown file, line ends made ``"\\n"``, without the characters
    LightRAG strips from content (:func:`~lightrag_pchunk.parse.content_rows.strip_controls`),
    and the encoding it was decoded from.

    Raises:
        MarkdownParseError: ``too-large`` (over ``limits.max_bytes``), ``binary`` (not a text
            file) or ``encoding`` (no encoding decodes it, or several do about equally well).
    """
    size = path.stat().st_size
    if size > limits.max_bytes:
        raise MarkdownParseError(
            str(path),
            "too-large",
            f"the file has {size:,} bytes, over the limit of {limits.max_bytes:,}"
            " (LIGHTRAG_PCHUNK_MAX_MARKDOWN_BYTES)",
        )
    with path.open("rb") as handle:
        # What the file held when measured, then what it grew by since, up to the limit.
        data = handle.read(size + 1)
        if len(data) > size:
            data += handle.read(limits.max_bytes + 1 - len(data))
    if len(data) > limits.max_bytes:
        raise MarkdownParseError(str(path), "too-large", "the file grew over the size limit")
    text, encoding = decode_text(data, str(path))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return MarkdownText(strip_controls(text), encoding)


def decode_text(data: bytes, name: str) -> tuple[str, str]:
    """``data`` decoded as UTF-16 (with a BOM), UTF-8 (BOM optional) or the legacy encoding
    the evidence names (module doc); the text and the encoding.

    Raises:
        MarkdownParseError: ``binary`` or ``encoding``, naming ``name``.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise MarkdownParseError(
                name, "encoding", f"it starts with a UTF-16 byte-order mark but {exc.reason}"
            ) from None
        _check_text(text, data, name)
        return text, "utf-16"
    # In UTF-8 and GB18030 a control byte only ever stands for the control itself.
    if b"\x00" in data:
        raise MarkdownParseError(name, "binary", _binary_message(data))
    binary = len(data) - len(data.translate(None, _BINARY_CONTROL_BYTES))
    if binary > _BINARY_SHARE * len(data):
        raise MarkdownParseError(name, "binary", _binary_message(data))
    try:
        return data.decode("utf-8-sig"), _utf8_name(data)
    except UnicodeDecodeError as utf8_error:
        not_utf8 = f"it is not UTF-8 ({utf8_error.reason} at byte {utf8_error.start})"
    return _legacy(data, name, not_utf8)


def _utf8_name(data: bytes) -> str:
    return "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8"


def _legacy(data: bytes, name: str, not_utf8: str) -> tuple[str, str]:
    """The text of a file in a legacy code page, when the evidence names one (module doc)."""
    readings: list[tuple[str, str]] = []  # (encoding, text) tied with the best, best first
    matches = list(from_bytes(data))
    if matches:
        best = matches[0]
        for match in matches:
            tied = match.chaos <= best.chaos + _TIED_MESS
            if tied and match.coherence >= best.coherence - _TIED_COHERENCE:
                text = _decoded(data, match.encoding)
                if text is not None:
                    readings.append((match.encoding, text))
    if not readings:
        raise MarkdownParseError(
            name,
            "encoding",
            f"{not_utf8}, nor UTF-16 with a byte-order mark, nor any code page a detector"
            " recognises; save it as UTF-8",
        )
    texts = {text for _, text in readings}
    if len(texts) == 1:
        encoding, text = readings[0]
        return text, _WESTERN if _reads_as_western(data, encoding, text) else encoding
    chinese = next((r for r in readings if codecs.lookup(r[0]).name == "gb18030"), None)
    if chinese is not None and _is_mostly_han(chinese[1]):
        return chinese[1], "gb18030"
    raise MarkdownParseError(name, "encoding", _unsure(not_utf8, readings))


def _decoded(data: bytes, encoding: str) -> str | None:
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def _reads_as_western(data: bytes, encoding: str, text: str) -> bool:
    """Whether a single-byte reading gives the text Windows-1252 gives (then named so)."""
    return bool(_SINGLE_BYTE.match(encoding)) and _decoded(data, _WESTERN) == text


def _is_mostly_han(text: str) -> bool:
    han = len(_HAN.findall(text))
    letters = sum(1 for char in text if char.isalpha())
    return han > 0 and han >= _MOSTLY_HAN * letters


def _unsure(not_utf8: str, readings: list[tuple[str, str]]) -> str:
    """Names the competing readings by the first word they read differently."""
    first, *others = readings
    other = next(r for r in others if r[1] != first[1])
    at = next(i for i, (a, b) in enumerate(zip(first[1], other[1], strict=False)) if a != b)
    shown = [f"{encoding} ({_word_at(text, at)!r})" for encoding, text in (first, other)]
    return (
        f"{not_utf8}, and its bytes read about equally well as {shown[0]} and {shown[1]}:"
        " too little text to tell which; save it as UTF-8"
    )


def _word_at(text: str, index: int) -> str:
    start = index
    while start > 0 and not text[start - 1].isspace() and index - start < 20:
        start -= 1
    end = index
    while end < len(text) and not text[end].isspace() and end - index < 20:
        end += 1
    return text[start:end]


def _check_text(text: str, data: bytes, name: str) -> None:
    controls = len(_BINARY_CONTROLS.findall(text))
    if controls > _BINARY_SHARE * len(text):
        raise MarkdownParseError(name, "binary", _binary_message(data))


def _binary_message(data: bytes) -> str:
    kind = next((what for magic, what in _SIGNATURES if data.startswith(magic)), None)
    what = f"it looks like {kind}" if kind else "it holds NUL bytes or other binary control data"
    return f"not a text file: {what}"
