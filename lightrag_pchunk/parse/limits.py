"""What parsing one Word package may cost: :class:`PackageLimits`, from the environment
variables LightRAG's DOCX guard reads and ours. ``parse/zip_guard.py`` enforces the zip
limits, ``parse/budget.py`` the output limits."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace

_MIB = 1024 * 1024


@dataclass(frozen=True)
class PackageLimits:
    """What opening and reading one package may cost.

    The first four mean what LightRAG's DOCX zip guard means by the same environment
    variables, so existing settings apply; a non-positive value disables that gate, except
    ``ratio_floor_bytes`` where it removes the small-content exemption (strictest).

    Attributes:
        max_uncompressed_bytes: declared size of any entry and of all entries together, and
            the actual bytes this package may decompress in total (``DOCX_MAX_UNCOMPRESSED_BYTES``).
        max_compression_ratio: uncompressed/compressed above which expansion is suspicious,
            per entry and archive-wide (``DOCX_MAX_COMPRESSION_RATIO``).
        ratio_floor_bytes: expansion tolerated beyond the ratio, and the archive size under
            which the archive-wide ratio is not checked (``DOCX_RATIO_FLOOR_BYTES``).
        max_entries: zip entries, directories included (``DOCX_MAX_ENTRIES``).
        max_xml_part_bytes: one XML part we parse (``LIGHTRAG_PCHUNK_MAX_XML_PART_BYTES``);
            lxml needs about 7x this in memory.
        max_media_part_bytes: one non-XML part (pictures, embedded packages), as LightRAG's
            ``NATIVE_DOCX_IMAGE_MAX_BYTES``; a non-positive value there means the default.
        max_embedded_depth: how deep
            :meth:`~lightrag_pchunk.parse.package.DocxPackage.open_embedded` may nest packages
            (``LIGHTRAG_PCHUNK_MAX_EMBEDDED_DEPTH``).
        max_text_chars: characters of text and tags one document may produce
            (``LIGHTRAG_PCHUNK_MAX_TEXT_CHARS``); see :mod:`~lightrag_pchunk.parse.budget`.
        max_text_ratio: characters produced per byte decompressed, above
            :data:`TEXT_FLOOR_CHARS` (``LIGHTRAG_PCHUNK_MAX_TEXT_RATIO``).
        max_alt_chunks: altChunk imports one document may make, repeated and nested ones
            included (``LIGHTRAG_PCHUNK_MAX_ALTCHUNKS``).
    """

    max_uncompressed_bytes: int = 512 * _MIB
    max_compression_ratio: int = 100
    ratio_floor_bytes: int = 16 * _MIB
    max_entries: int = 10_000
    max_xml_part_bytes: int = 64 * _MIB
    max_media_part_bytes: int = 25 * _MIB
    max_embedded_depth: int = 3
    max_text_chars: int = 32 * _MIB
    max_text_ratio: int = 20
    max_alt_chunks: int = 1000

    def __post_init__(self) -> None:
        for name in (
            "max_xml_part_bytes", "max_media_part_bytes", "max_embedded_depth",
            "max_text_chars", "max_text_ratio", "max_alt_chunks",
        ):  # fmt: skip
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"PackageLimits.{name} must be an integer >= 1, got {value!r}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> PackageLimits:
        """Limits from environment variables; unset or empty ones keep their default.

        Raises:
            ValueError: a value is not an integer, or one of ours is below 1; the message
                names the variable and the value.
        """
        default = cls()
        values: dict[str, int] = {}
        for field, var in _ENV_VARS.items():
            raw = (env.get(var) or "").strip()
            if not raw:
                continue
            try:
                value = int(raw)
            except ValueError:
                raise ValueError(f"{var} (env) must be an integer, got {raw!r}") from None
            if field == "max_media_part_bytes" and value <= 0:
                value = default.max_media_part_bytes  # LightRAG: non-positive -> safe default
            elif var.startswith("LIGHTRAG_PCHUNK_") and value < 1:
                raise ValueError(f"{var} (env) must be >= 1, got {raw!r}")
            values[field] = value
        return replace(default, **values)


_ENV_VARS = {
    "max_uncompressed_bytes": "DOCX_MAX_UNCOMPRESSED_BYTES",
    "max_compression_ratio": "DOCX_MAX_COMPRESSION_RATIO",
    "ratio_floor_bytes": "DOCX_RATIO_FLOOR_BYTES",
    "max_entries": "DOCX_MAX_ENTRIES",
    "max_xml_part_bytes": "LIGHTRAG_PCHUNK_MAX_XML_PART_BYTES",
    "max_media_part_bytes": "NATIVE_DOCX_IMAGE_MAX_BYTES",
    "max_embedded_depth": "LIGHTRAG_PCHUNK_MAX_EMBEDDED_DEPTH",
    "max_text_chars": "LIGHTRAG_PCHUNK_MAX_TEXT_CHARS",
    "max_text_ratio": "LIGHTRAG_PCHUNK_MAX_TEXT_RATIO",
    "max_alt_chunks": "LIGHTRAG_PCHUNK_MAX_ALTCHUNKS",
}

#: Text a document may always produce, whatever ``max_text_ratio`` allows for its input
#: (bounded by ``max_text_chars``): about 4,000 pages.
TEXT_FLOOR_CHARS = 8 * _MIB
