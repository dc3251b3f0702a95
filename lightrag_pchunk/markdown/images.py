"""Stage A for Markdown: an embedded ``data:`` image becomes a drawing, as a .docx picture does.

Input: the address and alt text of an image whose address is a ``data:`` URL. Output: a
one-line ``<drawing … />`` tag, a ``drawings.json`` record and the decoded bytes in
``<stem>.blocks.assets/`` (``image-<sha256 prefix>.<format>``; identical images share one
file, every reference gets its own id). An image that cannot be decoded, is not an image or
is over its size limit stays text, with its payload elided, and a warning. A base64 payload never
reaches a chunk: inside any other address (a badge's ``?logo=data:…;base64,…``) it is
shortened by :func:`elide_base64`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from urllib.parse import unquote_to_bytes

from lightrag_pchunk.parse.drawings import (
    AssetFolder,
    drawing_record,
    drawing_tag,
    sniff_image_format,
)

#: ``data:[<type>][;params][;base64],<payload>`` (RFC 2397), the payload left to the caller.
_DATA_URL = re.compile(r"data:(?P<type>[^,;]*)(?P<params>(?:;[^,;]*)*),", re.IGNORECASE)
#: A base64 payload inside a longer address: the marker and at least 16 payload characters.
_BASE64_RUN = re.compile(r"(;base64,)[A-Za-z0-9+/_%-]{16,}={0,2}", re.IGNORECASE)
_ELISION = "…"


def is_data_url(address: str) -> bool:
    """Whether an image address is itself a ``data:`` URL (not one inside a query)."""
    return address[:5].lower() == "data:"


def elide_base64(text: str) -> str:
    """``text`` with every base64 payload after ``;base64,`` shortened to ``…``."""
    if "base64," not in text and "BASE64," not in text and "Base64," not in text:
        return text  # the usual case, decided by three plain searches
    return _BASE64_RUN.sub(_elided, text)


def _elided(match: re.Match[str]) -> str:
    return match.group(1) + _ELISION


class EmbeddedImages:
    """The ``data:`` images of one document: decoded within the limits, written once each."""

    def __init__(
        self, assets: AssetFolder, doc_hash: str, *, max_image_bytes: int, max_total_bytes: int
    ) -> None:
        self.records: dict[str, dict] = {}
        self.warnings: list[str] = []
        self._assets = assets
        self._doc_hash = doc_hash
        self._max_image = max_image_bytes
        self._remaining = max_total_bytes
        self._files: dict[str, tuple[str, str]] = {}  # sha256 -> (file name, format)

    def tag(self, address: str, alt: str) -> str | None:
        """The drawing tag for a ``data:`` image; None (warned) when it cannot be kept, and
        the caller keeps the image's source text with its payload elided."""
        decoded = self._decode(address)
        if decoded is None:
            return None
        fmt = sniff_image_format(decoded)  # the bytes decide, not the declared type
        if not fmt:
            return self._skip("its data is not an image format we know")
        data = decoded
        digest = hashlib.sha256(data).hexdigest()
        if digest not in self._files:
            if len(data) > self._remaining:
                return self._skip("the document's images are over NATIVE_MD_IMAGE_MAX_TOTAL_BYTES")
            self._remaining -= len(data)
            name = self._assets.allocate(f"image-{digest[:12]}.{fmt}", fmt)
            problem = self._assets.write(name, data)
            if problem:
                return self._skip(problem)
            self._files[digest] = (name, fmt)
        name, fmt = self._files[digest]
        drawing_id = f"im-{self._doc_hash}-{len(self.records) + 1:04d}"
        record = drawing_record(drawing_id, fmt, self._assets.tag_path(name), "", alt)
        self.records[drawing_id] = record
        return drawing_tag(record)

    def _decode(self, address: str) -> bytes | None:
        """The bytes of a ``data:`` URL; None (warned) when unusable."""
        match = _DATA_URL.match(address.strip())
        if match is None:
            self._warn("an embedded image has a malformed data: address")
            return None
        payload = address.strip()[match.end() :]
        is_base64 = any(p.strip().lower() == "base64" for p in match.group("params").split(";"))
        # Estimate the decoded size before decoding anything (the payload is untrusted).
        estimate = len(payload) * 3 // 4 if is_base64 else len(payload)
        if estimate > self._max_image + 4:
            self._warn(
                f"an embedded image of about {estimate:,} bytes is over the limit of "
                f"{self._max_image:,} (NATIVE_MD_IMAGE_MAX_BYTES)"
            )
            return None
        try:
            if is_base64:
                compact = "".join(unquote_to_bytes(payload).decode("ascii").split())
                data = base64.b64decode(compact + "=" * (-len(compact) % 4), validate=True)
            else:
                data = unquote_to_bytes(payload)
        except (ValueError, binascii.Error, UnicodeDecodeError):
            self._warn("an embedded image's base64 data is invalid")
            return None
        if not data or len(data) > self._max_image:
            self._warn("an embedded image is empty or over NATIVE_MD_IMAGE_MAX_BYTES")
            return None
        return data

    def _skip(self, why: str) -> None:
        self._warn(f"an embedded image was not kept: {why}")

    def _warn(self, message: str) -> None:
        # Kept, not logged: the front door logs a parse's warnings once, naming the file.
        self.warnings.append(message)
