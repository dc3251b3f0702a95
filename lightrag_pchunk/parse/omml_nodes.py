"""Stage A: reading OMML elements, for the converter and the block-math test.

Names as ``prefix:local`` (``m:f``, ``w:r``, ``mc:Choice``; Transitional namespaces, as
``parse/xml.py`` gives them), content children without properties, and ``m:…Pr`` property
values, ST_OnOff ones included.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from lightrag_pchunk.parse.xml import NS, qn

_M = "{" + NS["m"] + "}"
_W = "{" + NS["w"] + "}"
_MC = "{" + NS["mc"] + "}"
_M_VAL = qn("m:val")

_OFF = frozenset({"0", "off", "false"})
SKIPPED_W = frozenset({"del", "moveFrom", "delText", "instrText", "delInstrText"})


def prefixed_name(el: object) -> str:
    """``"m:f"``, ``"w:r"``, ``"mc:Choice"``; ``""`` for comments, PIs and other namespaces."""
    tag = getattr(el, "tag", None)
    if not isinstance(tag, str):
        return ""
    for prefix, ns in (("m", _M), ("w", _W), ("mc", _MC)):
        if tag.startswith(ns):
            return f"{prefix}:{tag[len(ns) :]}"
    return ""


def content_elements(el: etree._Element) -> Iterator[etree._Element]:
    """Child elements, without comments, processing instructions and property (``*Pr``) elements."""
    for child in el:
        if isinstance(child.tag, str) and not child.tag.endswith("Pr"):
            yield child


def child_named(el: etree._Element, name: str) -> etree._Element | None:
    """The first child named ``name`` (``"m:e"``), or None."""
    for child in el:
        if prefixed_name(child) == name:
            return child
    return None


def prop_value(el: etree._Element, pr: str, prop: str) -> str | None:
    """``m:{pr}/m:{prop}/@m:val`` of ``el``: None when the property is absent, ``""`` when bare."""
    props = child_named(el, pr)
    node = child_named(props, prop) if props is not None else None
    if node is None:
        return None
    return node.get(_M_VAL, node.get("val", ""))


def prop_flag(el: etree._Element, pr: str, prop: str) -> bool:
    """An ST_OnOff property: present and not "0"/"off"/"false" (a bare element is on)."""
    value = prop_value(el, pr, prop)
    return value is not None and value.lower() not in _OFF
