"""One hardened XML parser and the OOXML namespace map, shared by every parse module.

Parts are parsed with ``resolve_entities=False``, ``no_network=True`` and no DTD loading;
a part that declares a DOCTYPE is refused outright (entity-expansion and external-entity
attacks need one), in UTF-8 and UTF-16 alike. libxml2 keeps its default safety limits
(no ``huge_tree``): nesting deeper than 256 elements, or one text node or attribute over
10 MB, is refused with ``reason="xml-limit"``. The size of a whole part is bounded before
parsing by :class:`~lightrag_pchunk.parse.limits.PackageLimits`. Strict OOXML (ISO/IEC
29500 Strict, ``purl.oclc.org`` namespaces) is mapped to the Transitional namespaces before
parsing, so every other module only ever sees Transitional names.
"""

from __future__ import annotations

import re

from lxml import etree

from lightrag_pchunk.errors import DocxParseError

#: Transitional namespace URIs by the prefixes used throughout the package.
NS: dict[str, str] = {
    "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "m": "http://schemas.openxmlformats.org/officeDocument/2006/math",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "pic": "http://schemas.openxmlformats.org/drawingml/2006/picture",
    "c": "http://schemas.openxmlformats.org/drawingml/2006/chart",
    "dgm": "http://schemas.openxmlformats.org/drawingml/2006/diagram",
    "v": "urn:schemas-microsoft-com:vml",
    "o": "urn:schemas-microsoft-com:office:office",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    "w14": "http://schemas.microsoft.com/office/word/2010/wordml",
    "wps": "http://schemas.microsoft.com/office/word/2010/wordprocessingShape",
    "wpg": "http://schemas.microsoft.com/office/word/2010/wordprocessingGroup",
    "ct": "http://schemas.openxmlformats.org/package/2006/content-types",
    "pr": "http://schemas.openxmlformats.org/package/2006/relationships",
}

#: Strict namespace URI -> Transitional URI (ISO/IEC 29500-1 Strict vs -4 Transitional).
STRICT_TO_TRANSITIONAL: dict[str, str] = {
    "http://purl.oclc.org/ooxml/wordprocessingml/main": NS["w"],
    "http://purl.oclc.org/ooxml/officeDocument/math": NS["m"],
    "http://purl.oclc.org/ooxml/officeDocument/relationships": NS["r"],
    "http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing": NS["wp"],
    "http://purl.oclc.org/ooxml/drawingml/main": NS["a"],
    "http://purl.oclc.org/ooxml/drawingml/picture": NS["pic"],
    "http://purl.oclc.org/ooxml/drawingml/chart": NS["c"],
    "http://purl.oclc.org/ooxml/drawingml/diagram": NS["dgm"],
}

#: Relationship type URIs end the same way in both flavours; compare on this tail.
_REL_TYPE_PREFIXES = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/",
    "http://purl.oclc.org/ooxml/officeDocument/relationships/",
)

_STRICT_PATTERN = re.compile(
    b"|".join(re.escape(uri.encode("ascii")) for uri in STRICT_TO_TRANSITIONAL)
)
_STRICT_BYTES = {k.encode("ascii"): v.encode("ascii") for k, v in STRICT_TO_TRANSITIONAL.items()}

_PARSER = etree.XMLParser(
    resolve_entities=False,
    no_network=True,
    load_dtd=False,
    dtd_validation=False,
    # No huge_tree: XML_PARSE_HUGE would lift libxml2's depth limit from 256 to 2048 (deep
    # enough to overflow a recursive walk in Python), its 10 MB text-node cap and its entity
    # amplification guard. Real parts nest ~35 deep; whole-part size is capped by the package.
    huge_tree=False,
    remove_comments=True,
    remove_pis=True,
)


def qn(name: str) -> str:
    """Clark name for a prefixed name: ``qn("w:p")`` -> ``"{http://...main}p"``."""
    prefix, _, local = name.partition(":")
    return f"{{{NS[prefix]}}}{local}"


_W_VAL = qn("w:val")


def int_val(el: etree._Element | None) -> int | None:
    """The integer ``w:val`` of ``el`` (``w:ilvl``, ``w:numId``, ``w:outlineLvl`` ...), or None
    when the element is absent or its value is not an integer."""
    if el is None:
        return None
    try:
        return int((el.get(_W_VAL) or "").strip())
    except ValueError:
        return None


def rel_type_tail(rel_type: str) -> str:
    """The last path segment of a relationship type, the same for Strict and Transitional:
    ``.../relationships/officeDocument`` -> ``"officeDocument"``."""
    for prefix in _REL_TYPE_PREFIXES:
        if rel_type.startswith(prefix):
            return rel_type[len(prefix) :]
    return rel_type.rsplit("/", 1)[-1]


def is_strict(data: bytes) -> bool:
    """True when ``data`` uses Strict OOXML namespaces."""
    return _STRICT_PATTERN.search(data) is not None


def parse_xml(data: bytes, *, path: str = "", part: str = "") -> etree._Element:
    """Parse one part safely, Strict namespaces mapped to Transitional.

    Raises:
        DocxParseError: ``reason="dtd"`` when the part declares a DOCTYPE (entity
            expansion / external entities are refused, not resolved); ``reason="xml"``
            when it is not well-formed XML; ``reason="xml-limit"`` past libxml2's limits.
    """
    # Raw "<!DOCTYPE" can only be markup: in text it would be escaped as "&lt;". OOXML parts
    # are UTF-8 or UTF-16, so look for both; the docinfo check below catches anything else.
    if any(marker in data for marker in _DOCTYPE_MARKERS):
        raise _dtd_error(path, part)
    if is_strict(data):
        data = _STRICT_PATTERN.sub(lambda m: _STRICT_BYTES[m.group(0)], data)
    try:
        root = etree.fromstring(data, parser=_PARSER)
    except etree.XMLSyntaxError as exc:
        if _is_limit_error(str(exc)):
            raise DocxParseError(
                path,
                "xml-limit",
                "the XML exceeds a parser safety limit (elements nested deeper than 256 levels,"
                f" or one text or attribute value over 10 MB): {exc}",
                part=part,
            ) from exc
        raise DocxParseError(path, "xml", f"the XML is not well-formed: {exc}", part=part) from exc
    if root is None:
        raise DocxParseError(path, "xml", "the XML part is empty", part=part)
    if root.getroottree().docinfo.internalDTD is not None:
        raise _dtd_error(path, part)
    return root


_DOCTYPE_MARKERS = tuple("<!DOCTYPE".encode(codec) for codec in ("ascii", "utf-16-le", "utf-16-be"))
_LIMIT_MESSAGES = ("XML_PARSE_HUGE", "Excessive depth", "Resource limit", "huge text")


def _is_limit_error(message: str) -> bool:
    return any(text.lower() in message.lower() for text in _LIMIT_MESSAGES)


def _dtd_error(path: str, part: str) -> DocxParseError:
    return DocxParseError(
        path,
        "dtd",
        "the XML declares a DOCTYPE (entity declarations are refused for safety)",
        part=part,
    )
