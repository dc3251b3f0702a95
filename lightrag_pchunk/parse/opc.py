"""Stage A: the Open Packaging Conventions vocabulary a Word package is read with.

Part names (lookup keys, relationship targets resolved like URIs, unsafe zip entry names), the
content types Word uses, and the records :class:`~lightrag_pchunk.parse.package.DocxPackage`
hands out (:class:`Relationship`, :class:`AltChunk`), read from the package's map parts
(``[Content_Types].xml``, ``.rels``) once parsed: nothing here reads the zip. Part names are
compared case-insensitively, with ``\\`` read as ``/`` and %-escapes decoded
(:func:`part_key`); ``..`` in a target cannot climb above the package root (RFC 3986,
:func:`resolve_target`).
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote

from lxml import etree

from lightrag_pchunk.parse.xml import rel_type_tail

#: Main-document content types we accept, by the file kind they belong to.
MAIN_CONTENT_TYPES: dict[str, str] = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml": "docx",
    "application/vnd.ms-word.document.macroEnabled.main+xml": "docm",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml": "dotx",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml": "dotm",
}
#: A glossary (building blocks) part: a package holding only one has no document.
GLOSSARY_TYPE = (
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.glossary+xml"
)
#: Content types a main part may carry when its producer gave it no Word type.
GENERIC_XML_TYPES = frozenset({"application/xml", "text/xml"})
#: Markers of another Office package in a content type, and what to call it.
OTHER_PACKAGES = (
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
#: Extensions of parts read as XML, whatever their content type.
XML_EXTENSIONS = frozenset({"xml", "rels", "vml"})
_DRIVE = re.compile(r"^[A-Za-z]:")
_URI_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


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


def alt_chunk_kind(content_type: str | None, part: str) -> str:
    """What an altChunk part holds, by its content type, else by its extension: docx, html,
    text, rtf, mht, xml or other."""
    kind = _ALT_CHUNK_KINDS.get((content_type or "").split(";")[0].strip().lower())
    if kind is None:
        ext = part.rsplit("/", 1)[-1].rpartition(".")[2].lower()
        kind = _ALT_CHUNK_EXTENSIONS.get(ext, "other")
    return kind


def has_uri_scheme(target: str) -> bool:
    """True for a target with a URI scheme (``https:``, ``mailto:``), not a drive (``C:``)."""
    return bool(_URI_SCHEME.match(target)) and not _DRIVE.match(target)


def part_key(part: str) -> str:
    """Lookup key of a part name: no leading ``/``, ``\\`` as ``/``, %-decoded, lower-case."""
    return unquote(part.replace("\\", "/")).lstrip("/").lower()


def display_name(part: str) -> str:
    """A part name with ``/`` separators and no leading ``/``, as messages show it."""
    return part.replace("\\", "/").lstrip("/")


def is_unsafe_entry(info: zipfile.ZipInfo) -> bool:
    """Absolute, drive-letter, ``..`` or NUL-bearing entry names are never read."""
    for name in (info.orig_filename, info.filename):
        text = name.replace("\\", "/")
        if "\x00" in text or text.startswith("/") or _DRIVE.match(text):
            return True
        if ".." in text.split("/"):
            return True
    return False


def resolve_target(folder: str, target: str) -> str | None:
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


def content_type_maps(root: etree._Element) -> tuple[dict[str, str], dict[str, str]]:
    """``[Content_Types].xml``: content types by file extension (``Default``) and by part
    key (``Override``); of duplicates the first counts."""
    defaults: dict[str, str] = {}
    overrides: dict[str, str] = {}
    for el in root:
        if not isinstance(el.tag, str):
            continue
        local = etree.QName(el).localname
        content_type = (el.get("ContentType") or "").strip()
        if local == "Default" and el.get("Extension"):
            defaults.setdefault(el.get("Extension", "").lower().lstrip("."), content_type)
        elif local == "Override" and el.get("PartName"):
            overrides.setdefault(part_key(el.get("PartName", "")), content_type)
    return defaults, overrides


def relationships_of(
    root: etree._Element, source: str, zip_name: Callable[[str], str | None]
) -> tuple[dict[str, Relationship], list[str]]:
    """The relationships of ``source`` (the root of its ``.rels`` part) by id, the first of
    duplicates counting, and the ids whose target is unusable. ``zip_name`` gives the name
    the zip spells a resolved target with (None: the zip has no such part)."""
    folder = source.rpartition("/")[0]
    rels: dict[str, Relationship] = {}
    unusable: list[str] = []
    for el in root:
        if not isinstance(el.tag, str) or etree.QName(el).localname != "Relationship":
            continue
        rid, rel_type = el.get("Id") or "", (el.get("Type") or "").strip()
        raw = (el.get("Target") or "").strip()
        if not rid or not raw or rid in rels:
            continue
        external = (el.get("TargetMode") or "").strip().lower() == "external"
        # A URI with a scheme, or a same-document "#bookmark", names no part: keep it raw.
        if external or has_uri_scheme(raw) or raw.startswith("#"):
            rels[rid] = Relationship(rid, rel_type, raw, True, source)
            continue
        target = resolve_target(folder, raw)
        if target is None:
            unusable.append(rid)
            continue
        name = zip_name(target)
        rels[rid] = Relationship(rid, rel_type, target if name is None else name, False, source)
    return rels, unusable
