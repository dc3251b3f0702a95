"""Stage A entry: a Word package's parts, handed out only through the zip guard.

Input: a path, bytes or a binary file object. ``parse/zip_guard.py`` checks the zip budget
first (sizes, ratio, entry count, part-name traversal), before anything is decompressed; only
then does a :class:`DocxPackage` resolve content types and relationships and read parts, each
within that budget. Nothing is ever written to disk, and no part name is ever used as a
file-system path.

Refusals are :class:`DocxParseError` with a stable ``reason``: the zip guard's (``not-a-zip``,
``encrypted``, ``legacy-doc``, ``zip-budget``, ``corrupt``, ``unsupported``), and here:

- ``unsupported``: a package that is not a Word document (workbook, presentation, theme).
- ``missing-part``: no main document (also a glossary-only package), or a part asked for that
  the package lacks.
- ``zip-budget``: packages nested deeper than ``max_embedded_depth``.
- ``dtd`` / ``xml`` / ``xml-limit``: from :func:`~lightrag_pchunk.parse.xml.parse_xml`.

Relationship targets are resolved like URIs (``parse/opc.py``), so a traversal target simply
names no part. Targets with a URI scheme or only a ``#fragment`` are kept raw with
``is_external=True``.
"""

from __future__ import annotations

import io
import os
from typing import IO

from lxml import etree

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.limits import PackageLimits
from lightrag_pchunk.parse.opc import (
    GENERIC_XML_TYPES,
    GLOSSARY_TYPE,
    MAIN_CONTENT_TYPES,
    OTHER_PACKAGES,
    XML_EXTENSIONS,
    AltChunk,
    Relationship,
    alt_chunk_kind,
    content_type_maps,
    display_name,
    part_key,
    relationships_of,
)
from lightrag_pchunk.parse.xml import parse_xml, qn
from lightrag_pchunk.parse.zip_guard import (
    Budget,
    open_source,
    open_zip,
    read_entry,
    safe_index,
)

# Failures of auxiliary parts that only cost a warning; anything else (dtd, xml-limit,
# zip-budget) means a hostile file and refuses it.
_TOLERATED = frozenset({"xml", "corrupt", "missing-part", "unsupported", "encrypted"})


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
        handle, label, owned = open_source(source, limits, name)
        try:
            package = cls._from_handle(
                handle, label, limits, Budget(limits.max_uncompressed_bytes), 0
            )
        except BaseException:
            if owned:
                handle.close()
            raise
        package._owns_handle = owned
        return package

    @classmethod
    def _from_handle(
        cls, handle: IO[bytes], path: str, limits: PackageLimits, budget: Budget, depth: int
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
        self._zip = open_zip(handle, path)
        try:
            self._index = safe_index(self._zip, handle, limits, path, self._warn)
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
    def decompressed_bytes(self) -> int:
        """Bytes of the distinct parts read so far, by this package and those it shares a
        budget with (what the output budget is relative to)."""
        return self._budget.input_bytes

    @property
    def part_names(self) -> list[str]:
        """Every safe part name in the package, in zip order."""
        return [display_name(info.filename) for info in self._index.values()]

    def has_part(self, part: str) -> bool:
        """True when the package holds ``part`` (compared case-insensitively)."""
        return part_key(part) in self._index

    def content_type(self, part: str) -> str | None:
        """Content type from ``[Content_Types].xml``: Override by name, else by extension."""
        key = part_key(part)
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
        info = self._index.get(part_key(part))
        if info is None:
            raise DocxParseError(
                self.path, "missing-part", "the package has no such part", part=part
            )
        if max_bytes is None:
            max_bytes = self._part_limit(part)
        data = read_entry(
            self._zip,
            info,
            part,
            max_bytes,
            budget=self._budget,
            limits=self.limits,
            path=self.path,
        )
        self._budget.note_input(f"{self.path}\0{part_key(part)}", len(data))
        return data

    def read_xml(self, part: str) -> etree._Element | None:
        """The parsed root of an XML part (cached), or None when the package lacks it.

        Raises:
            DocxParseError: as :meth:`read_bytes`, or ``dtd`` / ``xml`` / ``xml-limit``.
        """
        key = part_key(part)
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
        # Kept, not logged: the front door logs a parse's warnings once, naming the file.
        self.warnings.append(message)

    def _name(self, part: str) -> str:
        """The name of ``part`` as the zip spells it."""
        return display_name(self._index[part_key(part)].filename)

    def _part_limit(self, part: str) -> int:
        content_type = (self.content_type(part) or "").lower()
        ext = part.rsplit("/", 1)[-1].rpartition(".")[2].lower()
        if content_type.endswith("xml") or ext in XML_EXTENSIONS:
            return self.limits.max_xml_part_bytes
        return self.limits.max_media_part_bytes

    def _optional_xml(self, type_tail: str) -> etree._Element | None:
        part = self.part_for(type_tail)
        return None if part is None else self._optional_root(part)

    def _load_content_types(self) -> tuple[dict[str, str], dict[str, str]]:
        root = self._optional_root("[Content_Types].xml")
        if root is None:
            self._warn("[Content_Types].xml is missing or damaged; content types are unknown")
            return {}, {}
        return content_type_maps(root)

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
        source = display_name(source_part)
        key = part_key(source)
        if key not in self._rels:
            self._rels[key] = self._load_rels(source)
        return self._rels[key]

    def _load_rels(self, source: str) -> dict[str, Relationship]:
        folder, _, base = source.rpartition("/")
        root = self._optional_root(
            f"{folder}/_rels/{base}.rels" if folder else f"_rels/{base}.rels"
        )
        if root is None:
            return {}
        rels, unusable = relationships_of(root, source, self._zip_name)
        for rid in unusable:
            self._warn(f"relationship {rid} of {source or 'the package'}: unusable target")
        return rels

    def _zip_name(self, part: str) -> str | None:
        """The name the zip spells ``part`` with, None when the zip has no such part."""
        info = self._index.get(part_key(part))
        return display_name(info.filename) if info is not None else None

    def _find_main_part(self) -> tuple[str, str]:
        candidates = [
            r.target
            for r in self.related("", "officeDocument")
            if not r.is_external and self.has_part(r.target)
        ]
        if not candidates:
            candidates = [
                display_name(name)
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
            if (content_type is None or content_type in GENERIC_XML_TYPES) and self._is_document(
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
            for marker, what in OTHER_PACKAGES:
                if marker in content_type.lower():
                    return DocxParseError(
                        self.path,
                        "unsupported",
                        f"this is {what}, not a Word document ({content_type})",
                        part=candidates[0],
                    )
        if GLOSSARY_TYPE in types or GLOSSARY_TYPE in self._overrides.values():
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
        kind = alt_chunk_kind(content_type, rel.target)
        return AltChunk(rel.rid, rel.target, content_type, kind, self.has_part(rel.target))
