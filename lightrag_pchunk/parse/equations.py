"""Stage A: the one-line ``<equation>`` tag and its ``equations.json`` record.

A paragraph whose only visible content is math holds block equations (one tag per math element,
each on its own line, with an id and an ``equations.json`` entry); math inside text is inline
(no id, not in the sidecar), the rule LightRAG's writer applies (upstream facts §5.2). The
paragraph's reader tells the two apart (``InlineText.is_math_only``, ``parse/text.py``). The
LaTeX comes from :func:`~lightrag_pchunk.parse.omml_latex.omml_to_latex`; the body is written
single-line, with ``<``/``>`` as ``\\lt``/``\\gt``, so LightRAG's ``<equation …>…</equation>``
regexes still parse it. See docs/parser.md (Equations).
"""

from __future__ import annotations


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
