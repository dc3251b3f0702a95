"""One hardened XML parser and the OOXML namespace map, shared by every parse module.

Parts are parsed with ``resolve_entities=False``, ``no_network=True`` and no DTD loading;
a part that declares a DOCTYPE is refused outright (entity-expansion and external-entity
attacks need one). Strict OOXML (ISO/IEC 29500 Strict, ``purl.oclc.org`` namespaces) is
mapped to the Transitional namespaces before parsing, so every other module only ever
sees Transitional names.
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
    huge_tree=True,  # size is bounded by the package budget, not by libxml2's default
    remove_comments=True,
    remove_pis=True,
)


def qn(name: str) -> str:
    """Clark name for a prefixed name: ``qn("w:p")`` -> ``"{http://...main}p"``."""
    prefix, _, local = name.partition(":")
    return f"{{{NS[prefix]}}}{local}"


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
            when it is not well-formed XML.
    """
    # Raw "<!DOCTYPE" can only be markup: in text it would be escaped as "&lt;".
    if b"<!DOCTYPE" in data:
        raise DocxParseError(
            path,
            "dtd",
            "the XML declares a DOCTYPE (entity declarations are refused for safety)",
            part=part,
        )
    if is_strict(data):
        data = _STRICT_PATTERN.sub(lambda m: _STRICT_BYTES[m.group(0)], data)
    try:
        root = etree.fromstring(data, parser=_PARSER)
    except etree.XMLSyntaxError as exc:
        raise DocxParseError(path, "xml", f"the XML is not well-formed: {exc}", part=part) from exc
    if root is None:
        raise DocxParseError(path, "xml", "the XML part is empty", part=part)
    return root
