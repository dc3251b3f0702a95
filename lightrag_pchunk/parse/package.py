"""Stage A entry: open a .docx/.docm/.dotx/.dotm package safely and hand out its parts.

Input: a path, bytes or a binary file object. Output: a :class:`DocxPackage` that resolves
content types and relationships and reads parts within a budget. Nothing is ever written to
disk, and no part name is ever used as a file-system path.

Checks, each a :class:`DocxParseError` with a stable ``reason``:

- ``not-a-zip``: empty, not a zip, or a truncated/damaged zip with no central directory.
- ``encrypted`` / ``legacy-doc``: an OLE compound file (a password-protected OOXML file, or a
  Word 97-2003 .doc renamed); also ``encrypted`` for a zip member that needs a password.
- ``zip-budget``: too many entries, declared sizes over the budget or expanding at an excessive
  ratio (checked on the central directory before anything is decompressed, with LightRAG's
  semantics), a part over its own limit, or a part that decompresses to more than its header
  declares. Headers can lie, so every read stops one byte past the declared size and past the
  remaining total budget: the actual bytes decompressed are capped, never trusted.
- ``corrupt``: member data that fails to decompress or its CRC check.
- ``unsupported``: a package that is not a Word document (workbook, presentation, theme), or a
  member compressed with a method Python cannot read.
- ``missing-part``: no main document (also a glossary-only package), or a part asked for that
  the package lacks.
- ``dtd`` / ``xml`` / ``xml-limit``: from :func:`~lightrag_pchunk.parse.xml.parse_xml`.

Unsafe entry names (absolute, ``..``, a drive letter, NUL) are ignored with a warning, not
refused: they are never read, and the rest of the package is still safe to use, since parts are
only looked up in an index of safe names. Relationship targets are resolved like URIs (RFC 3986:
``..`` cannot climb above the package root), so a traversal target simply names no part.
Part names are compared case-insensitively, with ``\\`` read as ``/`` and %-escapes decoded.
Targets with a URI scheme or only a ``#fragment`` are kept raw with ``is_external=True``.
"""

from __future__ import annotations

import copy
import io
import logging
import lzma
import os
import re
import struct
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import IO
from urllib.parse import unquote

from lxml import etree

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.xml import parse_xml, qn, rel_type_tail

logger = logging.getLogger("lightrag.pchunk")

_MIB = 1024 * 1024

#: Main-document content types we accept, by the file kind they belong to.
MAIN_CONTENT_TYPES: dict[str, str] = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml": "docx",
    "application/vnd.ms-word.document.macroEnabled.main+xml": "docm",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml": "dotx",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml": "dotm",
}
_GLOSSARY_TYPE = (
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.glossary+xml"
)
_GENERIC_XML_TYPES = frozenset({"application/xml", "text/xml"})
_OTHER_PACKAGES = (
    ("spreadsheetml", "an Excel workbook"),
    ("presentationml", "a PowerPoint presentation"),
    ("thememanager", "an Office theme"),
    ("ms-excel", "an Excel workbook"),
    ("ms-powerpoint", "a PowerPoint presentation"),
)
# altChunk content types -> what the walk can do with them.
_ALT_CHUNK_KINDS = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.ms-word.document.macroenabled.12": "docx",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template": "docx",
    "application/vnd.ms-word.template.macroenabled.12": "docx",
    "text/html": "html",
    "application/xhtml+xml": "html",
    "text/plain": "text",
    "application/rtf": "rtf",
    "text/rtf": "rtf",
    "message/rfc822": "mht",
    "application/xml": "xml",
    "text/xml": "xml",
}
_ALT_CHUNK_EXTENSIONS = {
    "docx": "docx", "docm": "docx", "dotx": "docx", "dotm": "docx", "html": "html",
    "htm": "html", "xhtml": "html", "txt": "text", "rtf": "rtf", "mht": "mht", "mhtml": "mht",
    "xml": "xml",
}  # fmt: skip
_XML_EXTENSIONS = frozenset({"xml", "rels", "vml"})

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_OLE_SCAN_BYTES = 64 * _MIB
_ENCRYPTED_MARKER = "EncryptedPackage".encode("utf-16-le")
_WORD_MARKER = "WordDocument".encode("utf-16-le")
_READ_CHUNK = _MIB
_DRIVE = re.compile(r"^[A-Za-z]:")
_URI_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# Errors zipfile and its decompressors raise on damaged member data.
_MEMBER_ERRORS = (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, OSError, struct.error)
_OPEN_ERRORS = (
    zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, struct.error,
    OverflowError, NotImplementedError,
)  # fmt: skip
# Failures of auxiliary parts that only cost a warning; anything else (dtd, xml-limit,
# zip-budget) means a hostile file and refuses it.
_TOLERATED = frozenset({"xml", "corrupt", "missing-part", "unsupported", "encrypted"})


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
        max_embedded_depth: how deep :meth:`DocxPackage.open_embedded` may nest packages
            (``LIGHTRAG_PCHUNK_MAX_EMBEDDED_DEPTH``).
    """

    max_uncompressed_bytes: int = 512 * _MIB
    max_compression_ratio: int = 100
    ratio_floor_bytes: int = 16 * _MIB
    max_entries: int = 10_000
    max_xml_part_bytes: int = 64 * _MIB
    max_media_part_bytes: int = 25 * _MIB
    max_embedded_depth: int = 3

    def __post_init__(self) -> None:
        for name in ("max_xml_part_bytes", "max_media_part_bytes", "max_embedded_depth"):
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
}


@dataclass(frozen=True, slots=True)
class Relationship:
    """One ``<Relationship>``: ``target`` is a part name (``word/media/image1.png``), or the
    raw URI when ``is_external``; ``source`` is the part it belongs to (``""``: the package)."""

    rid: str
    type: str
    target: str
    is_external: bool
    source: str = ""

    @property
    def type_tail(self) -> str:
        """The type's last segment, the same for Strict and Transitional (``"image"``)."""
        return rel_type_tail(self.type)


@dataclass(frozen=True, slots=True)
class AltChunk:
    """An imported chunk (``w:altChunk``): ``kind`` is docx, html, text, rtf, mht, xml or other."""

    rid: str
    part: str
    content_type: str | None
    kind: str
    exists: bool


class _Budget:
    """Actual bytes still to be decompressed; shared by a package and the ones it embeds."""

    def __init__(self, total: int) -> None:
        self.remaining: int | None = total if total > 0 else None


class DocxPackage:
    """An opened Word package. Use :meth:`open`; close it (or use ``with``) when done."""

    def __init__(self) -> None:
        raise TypeError("use DocxPackage.open(...)")

    @classmethod
    def open(
        cls,
        source: str | os.PathLike[str] | bytes | bytearray | IO[bytes],
        limits: PackageLimits | None = None,
        *,
        name: str | None = None,
    ) -> DocxPackage:
        """Open and check a package; ``limits`` default to :meth:`PackageLimits.from_env`.

        ``name`` is what messages call it (default: the path or the file object's name).
        A missing or unreadable path raises the usual ``OSError``.

        Raises:
            DocxParseError: the file is refused (see the module docstring for reasons).
        """
        limits = limits if limits is not None else PackageLimits.from_env()
        if isinstance(source, (bytes, bytearray, memoryview)):
            handle: IO[bytes] = io.BytesIO(bytes(source))
            label, owned = name or "<bytes>", True
        elif isinstance(source, (str, os.PathLike)):
            handle = open(source, "rb")  # noqa: SIM115 (closed by close())
            label, owned = name or str(source), True
        else:
            handle, owned = source, False
            label = name or str(getattr(source, "name", "<stream>"))
            if not (hasattr(handle, "seekable") and handle.seekable()):
                handle, owned = _buffer_stream(handle, limits, label), True
        try:
            package = cls._from_handle(
                handle, label, limits, _Budget(limits.max_uncompressed_bytes), 0
            )
        except BaseException:
            if owned:
                handle.close()
            raise
        package._owns_handle = owned
        return package

    @classmethod
    def _from_handle(
        cls, handle: IO[bytes], path: str, limits: PackageLimits, budget: _Budget, depth: int
    ) -> DocxPackage:
        self = object.__new__(cls)
        self.path = path
        self.limits = limits
        self.warnings: list[str] = []
        self._handle = handle
        self._owns_handle = True
        self._budget = budget
        self._depth = depth
        self._xml: dict[str, etree._Element] = {}
        self._rels: dict[str, dict[str, Relationship]] = {}
        self._zip = _open_zip(handle, path)
        try:
            self._index = self._build_index(limits)
            self._defaults, self._overrides = self._load_content_types()
            self.main_part, self.document_kind = self._find_main_part()
        except BaseException:
            self._zip.close()
            raise
        return self

    # -- lifecycle ---------------------------------------------------------------------------

    def close(self) -> None:
        """Close the zip, and the file if this package opened it (a caller's stays open)."""
        self._zip.close()
        if self._owns_handle:
            self._handle.close()

    def __enter__(self) -> DocxPackage:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- parts -------------------------------------------------------------------------------

    @property
    def part_names(self) -> list[str]:
        """Every safe part name in the package, in zip order."""
        return [_display(info.filename) for info in self._index.values()]

    def has_part(self, part: str) -> bool:
        """True when the package holds ``part`` (compared case-insensitively)."""
        return _key(part) in self._index

    def content_type(self, part: str) -> str | None:
        """Content type from ``[Content_Types].xml``: Override by name, else by extension."""
        key = _key(part)
        if key in self._overrides:
            return self._overrides[key]
        base = key.rsplit("/", 1)[-1]
        return self._defaults.get(base.rpartition(".")[2]) if "." in base else None

    def read_bytes(self, part: str, *, max_bytes: int | None = None) -> bytes:
        """The decompressed bytes of ``part``, within the part limit and the total budget.

        ``max_bytes`` defaults to ``max_xml_part_bytes`` for XML parts and to
        ``max_media_part_bytes`` for the others.

        Raises:
            DocxParseError: ``missing-part``, ``zip-budget``, ``corrupt``, ``encrypted`` or
                ``unsupported``.
        """
        info = self._index.get(_key(part))
        if info is None:
            raise DocxParseError(
                self.path, "missing-part", "the package has no such part", part=part
            )
        if max_bytes is None:
            max_bytes = self._part_limit(part)
        return self._read_entry(info, part, max_bytes)

    def read_xml(self, part: str) -> etree._Element | None:
        """The parsed root of an XML part (cached), or None when the package lacks it.

        Raises:
            DocxParseError: as :meth:`read_bytes`, or ``dtd`` / ``xml`` / ``xml-limit``.
        """
        key = _key(part)
        if key not in self._xml:
            if key not in self._index:
                return None
            data = self.read_bytes(part, max_bytes=self.limits.max_xml_part_bytes)
            self._xml[key] = parse_xml(data, path=self.path, part=part)
        return self._xml[key]

    # -- relationships -----------------------------------------------------------------------

    def relationships(self, source_part: str) -> list[Relationship]:
        """All relationships of ``source_part`` (``""`` for the package's own)."""
        return list(self._rels_of(source_part).values())

    def target(self, source_part: str, rid: str) -> Relationship | None:
        """The relationship ``rid`` of ``source_part``, or None when it does not exist."""
        return self._rels_of(source_part).get(rid)

    def related(self, source_part: str, type_tail: str) -> list[Relationship]:
        """Relationships of ``source_part`` whose type ends in ``type_tail`` (``"styles"``)."""
        tail = type_tail.lower()
        return [r for r in self._rels_of(source_part).values() if r.type_tail.lower() == tail]

    def part_for(self, type_tail: str, source_part: str | None = None) -> str | None:
        """The first existing internal target of that type from ``source_part`` (default: main)."""
        source = self.main_part if source_part is None else source_part
        for rel in self.related(source, type_tail):
            if not rel.is_external and self.has_part(rel.target):
                return rel.target
        return None

    # -- the parts the walk needs ------------------------------------------------------------

    def styles(self) -> etree._Element | None:
        """``styles.xml`` of the main document, or None (missing or damaged: a warning)."""
        return self._optional_xml("styles")

    def numbering(self) -> etree._Element | None:
        """``numbering.xml``, or None (missing or damaged: a warning)."""
        return self._optional_xml("numbering")

    def footnotes(self) -> etree._Element | None:
        """``footnotes.xml``, or None (missing or damaged: a warning)."""
        return self._optional_xml("footnotes")

    def endnotes(self) -> etree._Element | None:
        """``endnotes.xml``, or None (missing or damaged: a warning)."""
        return self._optional_xml("endnotes")

    def alt_chunk(self, source_part: str, rid: str) -> AltChunk | None:
        """What ``<w:altChunk r:id=rid>`` in ``source_part`` imports, or None if unresolved."""
        rel = self.target(source_part, rid)
        if rel is None or rel.is_external or rel.type_tail.lower() != "afchunk":
            return None
        return self._alt_chunk(rel)

    def alt_chunks(self, source_part: str | None = None) -> list[AltChunk]:
        """Every altChunk relationship of ``source_part`` (default: the main part)."""
        source = self.main_part if source_part is None else source_part
        return [self._alt_chunk(r) for r in self.related(source, "aFChunk") if not r.is_external]

    def open_embedded(self, part: str) -> DocxPackage:
        """Open a Word package stored as a part (an altChunk .docx), sharing this budget.

        Raises:
            DocxParseError: as :meth:`open` and :meth:`read_bytes`; ``zip-budget`` when
                packages nest deeper than ``max_embedded_depth``.
        """
        if self._depth + 1 > self.limits.max_embedded_depth:
            raise DocxParseError(
                self.path,
                "zip-budget",
                f"packages nest deeper than {self.limits.max_embedded_depth} levels"
                " (raise LIGHTRAG_PCHUNK_MAX_EMBEDDED_DEPTH to allow more)",
                part=part,
            )
        data = self.read_bytes(part, max_bytes=self.limits.max_media_part_bytes)
        path = f"{self.path}!{part}"
        return DocxPackage._from_handle(
            io.BytesIO(data), path, self.limits, self._budget, self._depth + 1
        )

    # -- internals ---------------------------------------------------------------------------

    def _warn(self, message: str) -> None:
        logger.warning("docx package %s: %s", self.path, message)
        self.warnings.append(message)

    def _name(self, part: str) -> str:
        """The name of ``part`` as the zip spells it."""
        return _display(self._index[_key(part)].filename)

    def _part_limit(self, part: str) -> int:
        content_type = (self.content_type(part) or "").lower()
        ext = part.rsplit("/", 1)[-1].rpartition(".")[2].lower()
        if content_type.endswith("xml") or ext in _XML_EXTENSIONS:
            return self.limits.max_xml_part_bytes
        return self.limits.max_media_part_bytes

    def _build_index(self, limits: PackageLimits) -> dict[str, zipfile.ZipInfo]:
        infos = self._zip.infolist()
        _check_declared_budget(infos, _archive_size(self._handle), limits, self.path)
        index: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            if info.is_dir():
                continue
            if _is_unsafe_entry(info):
                self._warn(f"zip entry {info.orig_filename!r} has an unsafe name; ignored")
                continue
            key = _key(info.filename)
            if key in index:
                self._warn(f"zip entry {info.filename!r} duplicates a part name; ignored")
                continue
            index[key] = info
        return index

    def _read_entry(self, info: zipfile.ZipInfo, part: str, max_bytes: int) -> bytes:
        declared = info.file_size
        remaining = self._budget.remaining
        if declared > max_bytes:
            raise self._budget_error(part, f"it declares {declared} bytes", max_bytes)
        if remaining is not None and declared > remaining:
            raise self._total_error(part, declared)
        # Let zipfile decompress past the declared size (it would stop there and fail the CRC),
        # so a forged header shows; this loop stops one byte past it.
        probe = copy.copy(info)
        probe.file_size = declared + _READ_CHUNK
        chunks: list[bytes] = []
        total = 0
        try:
            with self._zip.open(probe) as member:
                while chunk := member.read(min(_READ_CHUNK, declared + 1 - total)):
                    total += len(chunk)
                    if total > declared:
                        raise DocxParseError(
                            self.path,
                            "zip-budget",
                            f"it decompresses to more than the {declared} bytes its zip header"
                            " declares (a forged header); refused",
                            part=part,
                        )
                    chunks.append(chunk)
        except NotImplementedError as exc:  # a RuntimeError too: test it first
            raise DocxParseError(
                self.path, "unsupported", f"the part cannot be decompressed: {exc}", part=part
            ) from exc
        except RuntimeError as exc:  # zipfile: "File ... is encrypted, password required"
            raise DocxParseError(
                self.path, "encrypted", f"the part is password-protected: {exc}", part=part
            ) from exc
        except _MEMBER_ERRORS as exc:
            raise DocxParseError(
                self.path,
                "corrupt",
                f"the part's data is damaged ({exc}); re-save the document in Word",
                part=part,
            ) from exc
        if remaining is not None:
            self._budget.remaining = remaining - total
        return b"".join(chunks)

    def _budget_error(self, part: str, what: str, limit: int) -> DocxParseError:
        var = "LIGHTRAG_PCHUNK_MAX_XML_PART_BYTES"
        if limit != self.limits.max_xml_part_bytes:
            var = "NATIVE_DOCX_IMAGE_MAX_BYTES"
        return DocxParseError(
            self.path,
            "zip-budget",
            f"the part is too large: {what}, the limit is {limit} (env {var})",
            part=part,
        )

    def _total_error(self, part: str, size: int) -> DocxParseError:
        return DocxParseError(
            self.path,
            "zip-budget",
            f"reading {size} more bytes would exceed the {self.limits.max_uncompressed_bytes}"
            " bytes this document may decompress (env DOCX_MAX_UNCOMPRESSED_BYTES)",
            part=part,
        )

    def _optional_xml(self, type_tail: str) -> etree._Element | None:
        part = self.part_for(type_tail)
        return None if part is None else self._optional_root(part)

    def _load_content_types(self) -> tuple[dict[str, str], dict[str, str]]:
        defaults: dict[str, str] = {}
        overrides: dict[str, str] = {}
        root = self._optional_root("[Content_Types].xml")
        if root is None:
            self._warn("[Content_Types].xml is missing or damaged; content types are unknown")
            return defaults, overrides
        for el in root:
            if not isinstance(el.tag, str):
                continue
            local = etree.QName(el).localname
            content_type = (el.get("ContentType") or "").strip()
            if local == "Default" and el.get("Extension"):
                defaults.setdefault(el.get("Extension", "").lower().lstrip("."), content_type)
            elif local == "Override" and el.get("PartName"):
                overrides.setdefault(_key(el.get("PartName", "")), content_type)
        return defaults, overrides

    def _optional_root(self, part: str) -> etree._Element | None:
        """A structural part, or None when it is absent or damaged (hostile input raises)."""
        try:
            return self.read_xml(part)
        except DocxParseError as exc:
            if exc.reason not in _TOLERATED:
                raise
            self._warn(f"{part} was not read: {exc.detail}")
            return None

    def _rels_of(self, source_part: str) -> dict[str, Relationship]:
        source = _display(source_part)
        key = _key(source)
        if key not in self._rels:
            self._rels[key] = self._load_rels(source)
        return self._rels[key]

    def _load_rels(self, source: str) -> dict[str, Relationship]:
        folder, _, base = source.rpartition("/")
        rels_part = f"{folder}/_rels/{base}.rels" if folder else f"_rels/{base}.rels"
        root = self._optional_root(rels_part)
        rels: dict[str, Relationship] = {}
        if root is None:
            return rels
        for el in root:
            if not isinstance(el.tag, str) or etree.QName(el).localname != "Relationship":
                continue
            rid, rel_type = el.get("Id") or "", (el.get("Type") or "").strip()
            raw = (el.get("Target") or "").strip()
            if not rid or not raw or rid in rels:
                continue
            external = (el.get("TargetMode") or "").strip().lower() == "external"
            # A URI with a scheme, or a same-document "#bookmark", names no part: keep it raw.
            is_uri = bool(_URI_SCHEME.match(raw)) and not _DRIVE.match(raw)
            if external or is_uri or raw.startswith("#"):
                rels[rid] = Relationship(rid, rel_type, raw, True, source)
                continue
            target = _resolve(folder, raw)
            if target is None:
                self._warn(f"relationship {rid} of {source or 'the package'}: unusable target")
                continue
            info = self._index.get(_key(target))
            shown = _display(info.filename) if info is not None else target
            rels[rid] = Relationship(rid, rel_type, shown, False, source)
        return rels

    def _find_main_part(self) -> tuple[str, str]:
        candidates = [
            r.target
            for r in self.related("", "officeDocument")
            if not r.is_external and self.has_part(r.target)
        ]
        if not candidates:
            candidates = [
                _display(name)
                for name, ct in self._overrides.items()
                if ct in MAIN_CONTENT_TYPES and name in self._index
            ]
            if candidates:
                self._warn(
                    "the package relationships name no main document; using "
                    f"{candidates[0]} from [Content_Types].xml"
                )
        for part in candidates:
            content_type = self.content_type(part)
            if content_type in MAIN_CONTENT_TYPES:
                return self._name(part), MAIN_CONTENT_TYPES[content_type]
            if (content_type is None or content_type in _GENERIC_XML_TYPES) and self._is_document(
                part
            ):
                self._warn(f"{part} has content type {content_type!r}; read as a Word document")
                return self._name(part), "docx"
        raise self._no_main_error(candidates)

    def _is_document(self, part: str) -> bool:
        root = self._optional_root(part)
        return root is not None and root.tag == qn("w:document")

    def _no_main_error(self, candidates: list[str]) -> DocxParseError:
        types = [self.content_type(p) or "" for p in candidates]
        for content_type in types:
            for marker, what in _OTHER_PACKAGES:
                if marker in content_type.lower():
                    return DocxParseError(
                        self.path,
                        "unsupported",
                        f"this is {what}, not a Word document ({content_type})",
                        part=candidates[0],
                    )
        if _GLOSSARY_TYPE in types or _GLOSSARY_TYPE in self._overrides.values():
            return DocxParseError(
                self.path,
                "missing-part",
                "the package holds only a glossary (building blocks), no main document",
            )
        return DocxParseError(
            self.path,
            "missing-part",
            "no main document part: _rels/.rels names no officeDocument part that exists"
            " (the file is damaged or not a Word document)",
        )

    def _alt_chunk(self, rel: Relationship) -> AltChunk:
        content_type = self.content_type(rel.target)
        kind = _ALT_CHUNK_KINDS.get((content_type or "").split(";")[0].strip().lower())
        if kind is None:
            ext = rel.target.rsplit("/", 1)[-1].rpartition(".")[2].lower()
            kind = _ALT_CHUNK_EXTENSIONS.get(ext, "other")
        return AltChunk(rel.rid, rel.target, content_type, kind, self.has_part(rel.target))


def _key(part: str) -> str:
    """Lookup key of a part name: no leading ``/``, ``\\`` as ``/``, %-decoded, lower-case."""
    return unquote(part.replace("\\", "/")).lstrip("/").lower()


def _display(part: str) -> str:
    return part.replace("\\", "/").lstrip("/")


def _is_unsafe_entry(info: zipfile.ZipInfo) -> bool:
    """Absolute, drive-letter, ``..`` or NUL-bearing entry names are never read."""
    for name in (info.orig_filename, info.filename):
        text = name.replace("\\", "/")
        if "\x00" in text or text.startswith("/") or _DRIVE.match(text):
            return True
        if ".." in text.split("/"):
            return True
    return False


def _resolve(folder: str, target: str) -> str | None:
    """Part name a relative or absolute target names, dot segments removed (RFC 3986)."""
    target = unquote(target.split("#", 1)[0]).replace("\\", "/")
    if not target or "\x00" in target:
        return None
    joined = target if target.startswith("/") else f"{folder}/{target}"
    segments: list[str] = []
    for segment in joined.split("/"):
        if segment == "..":
            if segments:
                segments.pop()
        elif segment and segment != ".":
            segments.append(segment)
    return "/".join(segments) or None


def _check_declared_budget(
    infos: list[zipfile.ZipInfo], archive_bytes: int, limits: PackageLimits, path: str
) -> None:
    """Refuse from the central directory alone: entry count, declared sizes, expansion ratio."""

    def refuse(message: str) -> DocxParseError:
        return DocxParseError(path, "zip-budget", message)

    if 0 < limits.max_entries < len(infos):
        raise refuse(
            f"the zip has {len(infos)} entries, the limit is {limits.max_entries}"
            " (env DOCX_MAX_ENTRIES)"
        )
    max_total, ratio = limits.max_uncompressed_bytes, limits.max_compression_ratio
    total = excess = over_compressed = 0
    for info in infos:
        size, packed = max(0, info.file_size), max(0, info.compress_size)
        total += size
        if max_total > 0 and size > max_total:
            raise refuse(
                f"entry {info.filename!r} declares {size} uncompressed bytes, the limit is"
                f" {max_total} (env DOCX_MAX_UNCOMPRESSED_BYTES)"
            )
        if ratio > 0 and size > packed * ratio:
            excess += size - packed * ratio
            over_compressed += packed
    if max_total > 0 and total > max_total:
        raise refuse(
            f"the entries declare {total} uncompressed bytes, the limit is {max_total}"
            " (env DOCX_MAX_UNCOMPRESSED_BYTES)"
        )
    if ratio <= 0:
        return
    # Expansion beyond each entry's own ratio allowance is tolerated up to the floor plus the
    # archive bytes outside those entries, so splitting a bomb into entries gains nothing.
    allowance = max(0, limits.ratio_floor_bytes) + max(0, archive_bytes - over_compressed)
    if excess > allowance:
        raise refuse(
            f"entries expand {excess} bytes beyond {ratio}x their compressed size (allowed"
            f" {allowance}; env DOCX_MAX_COMPRESSION_RATIO, DOCX_RATIO_FLOOR_BYTES): a zip bomb?"
        )
    if archive_bytes > 0 and total > limits.ratio_floor_bytes and total > archive_bytes * ratio:
        raise refuse(
            f"{archive_bytes} bytes on disk declare {total} uncompressed bytes (over {ratio}x;"
            " env DOCX_MAX_COMPRESSION_RATIO): a zip bomb?"
        )


def _archive_size(handle: IO[bytes]) -> int:
    position = handle.tell()
    size = handle.seek(0, io.SEEK_END)
    handle.seek(position)
    return size


def _buffer_stream(stream: IO[bytes], limits: PackageLimits, path: str) -> IO[bytes]:
    """A non-seekable stream read into memory, at most the total budget."""
    cap = limits.max_uncompressed_bytes if limits.max_uncompressed_bytes > 0 else None
    data = stream.read() if cap is None else stream.read(cap + 1)
    if cap is not None and len(data) > cap:
        raise DocxParseError(path, "zip-budget", f"the stream is larger than {cap} bytes")
    return io.BytesIO(data)


def _open_zip(handle: IO[bytes], path: str) -> zipfile.ZipFile:
    handle.seek(0)
    head = handle.read(8)
    handle.seek(0)
    if not head:
        raise DocxParseError(path, "not-a-zip", "the file is empty")
    if head == _OLE_MAGIC:
        raise _ole_error(handle, path)
    try:
        return zipfile.ZipFile(handle)
    except _OPEN_ERRORS as exc:
        if head.startswith(b"PK"):
            message = f"the zip is damaged or truncated ({exc}); re-save or re-download it"
        else:
            message = f"the file is not a .docx (zip) package{_sniff_hint(head)}"
        raise DocxParseError(path, "not-a-zip", message) from exc


def _sniff_hint(head: bytes) -> str:
    if head.startswith(b"{\\rtf"):
        return ": it is an RTF file; save it as .docx in Word"
    if head.startswith(b"%PDF"):
        return ": it is a PDF"
    if head.lstrip(b"\xef\xbb\xbf \r\n\t").startswith(b"<"):
        return ": it is an XML/HTML file (Word 2003 XML or Flat OPC?); save it as .docx in Word"
    return ""


def _ole_error(handle: IO[bytes], path: str) -> DocxParseError:
    """An OLE compound file: a password-protected OOXML file or a legacy binary document."""
    found: set[bytes] = set()
    tail, scanned = b"", 0
    while scanned < _OLE_SCAN_BYTES and len(found) < 2:
        chunk = handle.read(_READ_CHUNK)
        if not chunk:
            break
        window = tail + chunk
        found.update(m for m in (_ENCRYPTED_MARKER, _WORD_MARKER) if m in window)
        tail, scanned = window[-len(_ENCRYPTED_MARKER) :], scanned + len(chunk)
    if _ENCRYPTED_MARKER in found:
        return DocxParseError(
            path,
            "encrypted",
            "the document is password-protected (encrypted); remove the password in Word"
            " (File > Info > Protect Document) and save it again",
        )
    what = "a Word 97-2003 .doc file" if _WORD_MARKER in found else "a legacy Office (OLE) file"
    return DocxParseError(
        path,
        "legacy-doc",
        f"this is {what}, not a .docx; open it in Word or LibreOffice and save it as .docx",
    )
