"""Stage A: the one-line ``<equation>`` tag, its ``equations.json`` record, block vs inline math.

A paragraph whose only visible content is math holds block equations (one tag per math element,
each on its own line, with an id and an ``equations.json`` entry); math inside text is inline
(no id, not in the sidecar), the rule LightRAG's writer applies (upstream facts §5.2). The
LaTeX comes from :func:`~lightrag_pchunk.parse.omml_latex.omml_to_latex`; the body is written
single-line, with ``<``/``>`` as ``\\lt``/``\\gt``, so LightRAG's ``<equation …>…</equation>``
regexes still parse it. See docs/equations-and-drawings.md.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from lightrag_pchunk.parse.omml_latex import omml_to_latex
from lightrag_pchunk.parse.omml_nodes import SKIPPED_W, child_named, content_elements, prefixed_name


def is_block_math(p: etree._Element) -> bool:
    """True when a ``w:p`` holds math and no other visible content (text, tab-free runs, images).

    Such a paragraph renders as its own display line, so each of its math elements becomes a
    block ``<equation id=…>`` on its own line, as LightRAG writes a tag alone on its line.
    """
    has_math = False
    for node, is_math in _walk_paragraph(p):
        if is_math:
            has_math = True
        elif _is_visible(node):
            return False
    return has_math


def block_equations(p: etree._Element) -> list[str]:
    """LaTeX of each top-level math element of a paragraph, in document order, empty ones dropped.

    An ``m:oMathPara`` gives one entry (its lines gathered); sibling ``m:oMath`` give one each.
    """
    found = (omml_to_latex(node) for node, is_math in _walk_paragraph(p) if is_math)
    return [latex for latex in found if latex]


def escape_attr(value: str) -> str:
    """An attribute value as LightRAG writes it (``&amp; &lt; &gt; &quot;``), on one line."""
    flat = " ".join(str(value).split())  # whitespace runs as one space, stripped
    return (
        flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def equation_body(latex: str) -> str:
    """The tag body: one line, ``<``/``>`` as ``\\lt``/``\\gt``, so ``</equation>`` can't occur."""
    # Whitespace runs as one space, stripped: what a \s+ substitution and strip() give,
    # made by a split at C speed (a regular expression tries every character).
    flat = " ".join(latex.split())
    return flat.replace("<", "\\lt ").replace(">", "\\gt ")


def equation_tag(latex: str, eq_id: str | None = None, caption: str | None = None) -> str:
    """``<equation id="…" format="latex" caption="…">LATEX</equation>``; no id for inline math.

    Attribute order and escaping follow LightRAG's writer; the body is written raw, as LightRAG
    does, after :func:`equation_body` made it single-line and free of angle brackets.
    """
    id_attr = f' id="{escape_attr(eq_id)}"' if eq_id else ""
    caption_attr = f' caption="{escape_attr(caption)}"' if caption else ""
    return f'<equation{id_attr} format="latex"{caption_attr}>{equation_body(latex)}</equation>'


def equation_record(eq_id: str, latex: str, caption: str = "") -> dict:
    """An ``equations.json`` item in LightRAG's field order; the walk fills blockid and headings."""
    return {
        "id": eq_id,
        "blockid": "",
        "heading": "",
        "parent_headings": [],
        "format": "latex",
        "content": equation_body(latex),
        "caption": caption,
        "footnotes": [],
    }


def _walk_paragraph(p: etree._Element) -> Iterator[tuple[etree._Element, bool]]:
    """Nodes of a ``w:p`` in document order as (node, is_top_level_math); math not descended."""
    stack = list(reversed(list(content_elements(p))))
    while stack:
        node = stack.pop()
        name = prefixed_name(node)
        if name in ("m:oMath", "m:oMathPara"):
            yield node, True
            continue
        if name.startswith("w:") and name[2:] in SKIPPED_W:
            continue  # tracked deletions and field codes are not displayed
        yield node, False
        branch = child_named(node, "mc:Choice") if name == "mc:AlternateContent" else None
        stack.extend(reversed([branch] if branch is not None else list(content_elements(node))))


def _is_visible(node: etree._Element) -> bool:
    name = prefixed_name(node)
    if name == "w:t":
        return bool((node.text or "").strip())
    return name in (
        "w:drawing",
        "w:pict",
        "w:object",
        "w:sym",
        "w:footnoteReference",
        "w:endnoteReference",
        "w:noBreakHyphen",
        "w:ptab",
    )
