"""A Markdown heading as the walk reads it, and the title it is known by."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lightrag_pchunk.model import MAX_HEADING_LENGTH

#: The alt text of an HTML image (``<img alt="Quarterly figures">``).
_ALT = re.compile(r"""\balt\s*=\s*(["'])(.*?)\1""", re.IGNORECASE | re.DOTALL)
#: An id or a class of an attribute block ("#api", ".wide"), or Pandoc's "-" (unnumbered).
_ATTRIBUTE = r"(?:[#.][\w:.-]+|-)"
#: A heading's trailing attribute block as Pandoc, MyST and kramdown write it ("Effective
#: Date {#effectivedate}", "API {#api .wide}", "Preface {-}", kramdown's "Setup {: #setup}"):
#: an id, classes and key=value pairs, named from the first by "#", "." or "-", which a
#: reader never sees ("The set {a, b}" is no such block); a closing sequence of "#"s before
#: it ("### Extension ### {#ext}") goes with it.
_ATTRIBUTES = re.compile(
    rf"(?:\s+#+)?\s*\{{:?\s*{_ATTRIBUTE}(?:\s+(?:{_ATTRIBUTE}|[\w-]+=\S+))*\s*\}}$"
)
#: The id an attribute block gives ("#setup" in "{: #setup .wide}").
_ID = re.compile(r"(?<![^\s{:])#([\w:.-]+)")


@dataclass(slots=True)
class Heading:
    """A section heading: its level as written (1-6), its text as displayed (markup removed,
    at most 200 characters) and its inline source on one line (for the content's first line);
    ``inferred``: a paragraph the smart outline took for a heading (``gap_outline.py``), at
    the level it gave."""

    level: int
    title: str
    inline: str
    inferred: bool = False


def heading_title(displayed: str, html: str, inline: str) -> str:
    """The title of a heading that displays ``displayed``: that text on one line; for a
    heading that displays no text (an image, an HTML image, a footnote mark), the alt texts
    of its HTML images, else its ``inline`` source. At most ``MAX_HEADING_LENGTH`` characters
    (LightRAG's limit; the content keeps it whole); empty for a heading that holds nothing.
    A trailing attribute block of the ``inline`` source is no part of the title; a heading
    that holds nothing else is titled by the block's id, the name its author gave the section
    ("# {#installation}": "installation"), else by the block as written ("{.wide}")."""
    title = " ".join(displayed.split())
    # Looked for in the inline source, not in a code span: "Syntax `{#id}`" shows it; a
    # search from every position of a title, so only where a brace may open one.
    if "{" in inline and _ATTRIBUTES.search(inline):
        title = _ATTRIBUTES.sub("", title) or _id_title(title)
    if not title:
        alts = (" ".join(match.group(2).split()) for match in _ALT.finditer(html))
        title = " ".join(alt for alt in alts if alt) or inline
    if len(title) > MAX_HEADING_LENGTH:
        title = title[: MAX_HEADING_LENGTH - 3] + "..."
    return title


def _id_title(block: str) -> str:
    """The id of the attribute block ``block``, else ``block`` itself."""
    found = _ID.search(block)
    return found.group(1) if found else block
