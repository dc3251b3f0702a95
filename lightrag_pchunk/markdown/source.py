"""Stage A for Markdown, first: read the file within its limits and decode it to text.

Input: a path. Output: the document as one string with ``"\\n"`` line ends. A file over its
size limit is refused before it is read; bytes that are not text are refused with a
:class:`~lightrag_pchunk.errors.MarkdownParseError` whose ``reason`` says why. Encodings tried,
in order: UTF-16 with a BOM, UTF-8 (with or without a BOM), GB18030; LightRAG itself reads
only UTF-8.
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from lightrag_pchunk.errors import MarkdownParseError
from lightrag_pchunk.parse.artefacts import strip_controls

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
        for item in fields(self):
            value = getattr(self, item.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(
                    f"MarkdownLimits.{item.name} must be an integer >= 1, got {value!r}"
                )

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> MarkdownLimits:
        """Limits from environment variables; unset or empty ones keep their default.

        Raises:
            ValueError: a value is not an integer >= 1; the message names the variable.
        """
        values: dict[str, int] = {}
        for name, var in _ENV_VARS.items():
            raw = (env.get(var) or "").strip()
            if not raw or raw == "None":
                continue
            try:
                value = int(raw)
            except ValueError:
                raise ValueError(f"{var} (env) must be an integer, got {raw!r}") from None
            if value < 1:
                raise ValueError(f"{var} (env) must be >= 1, got {raw!r}")
            values[name] = value
        return cls(**values)


_ENV_VARS = {
    "max_bytes": "LIGHTRAG_PCHUNK_MAX_MARKDOWN_BYTES",
    "max_image_bytes": "NATIVE_MD_IMAGE_MAX_BYTES",
    "max_images_total_bytes": "NATIVE_MD_IMAGE_MAX_TOTAL_BYTES",
}


def read_markdown(path: Path, limits: MarkdownLimits) -> str:
    """The text of a Markdown file, line ends made ``"\\n"``, without the characters
    LightRAG strips from content (:func:`~lightrag_pchunk.parse.artefacts.strip_controls`).

    Raises:
        MarkdownParseError: ``too-large`` (over ``limits.max_bytes``), ``binary`` (not a text
            file) or ``encoding`` (none of the encodings decodes it).
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
    text = decode_text(data, str(path))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return strip_controls(text)


def decode_text(data: bytes, name: str) -> str:
    """``data`` decoded as UTF-16 (with a BOM), UTF-8 (BOM optional) or GB18030.

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
        return text
    # In UTF-8 and GB18030 a control byte only ever stands for the control itself.
    if b"\x00" in data:
        raise MarkdownParseError(name, "binary", _binary_message(data))
    binary = len(data) - len(data.translate(None, _BINARY_CONTROL_BYTES))
    if binary > _BINARY_SHARE * len(data):
        raise MarkdownParseError(name, "binary", _binary_message(data))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as utf8_error:
        try:
            return data.decode("gb18030")
        except UnicodeDecodeError:
            raise MarkdownParseError(
                name,
                "encoding",
                f"it is not UTF-8 ({utf8_error.reason} at byte {utf8_error.start}), nor UTF-16"
                " with a byte-order mark, nor GB18030; save it as UTF-8",
            ) from None


def _check_text(text: str, data: bytes, name: str) -> None:
    controls = len(_BINARY_CONTROLS.findall(text))
    if controls > _BINARY_SHARE * len(text):
        raise MarkdownParseError(name, "binary", _binary_message(data))


def _binary_message(data: bytes) -> str:
    kind = next((what for magic, what in _SIGNATURES if data.startswith(magic)), None)
    what = f"it looks like {kind}" if kind else "it holds NUL bytes or other binary control data"
    return f"not a text file: {what}"
