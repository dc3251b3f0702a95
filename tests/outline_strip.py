"""The strip test of the smart outline: take a styled document, take its heading styles away,
and see how much of its outline the smart outline finds again.

``strip_headings`` writes a copy of a .docx whose heading paragraphs lose ``w:pStyle``,
``w:numPr`` and ``w:outlineLvl`` and keep their rendered text (numbering label included) as
one literal run: bold at 16/14/13/12 pt by level (``look=True``), in the look the heading
had in the styled file, its style's bold, size, capitals and centring written on the run
(``look=True, as_styled=True``), or with no formatting at all (``look=False``). The sizes by
level are one look for every file: where the body text is 12 pt, they set the deepest
headings at the body's size though the file's own may be larger (a template's level-5
headings bold at 16 pt), so the copy as styled is measured too. ``compare`` matches the
outline parsed from the copy against the styled file's: heading recall and precision
(headings matched by text, in order) and parent accuracy (of the matched headings, how many
have the same parent heading), and the recall of the headings that have evidence without
any look: a numbering label, or an entry in the document's own table of contents; and the
precision where a found heading that the styled file's own parse gives too (an author's
unstyled heading its smart outline finds) counts as right. Used by
``benchmarks/bench_outline.py`` and ``tests/corpus/test_outline_corpus.py``.
"""

from __future__ import annotations

import operator
import re
import unicodedata
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.model import PREFACE_HEADING
from lightrag_pchunk.outline.items import Look
from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.lines import is_caption
from lightrag_pchunk.outline.page_references import strip_page_reference
from lightrag_pchunk.parse.document import ParsedDocument, parse_docx
from lightrag_pchunk.parse.look import paragraph_look
from lightrag_pchunk.parse.package import DocxPackage
from lightrag_pchunk.parse.plain import paragraph_props
from lightrag_pchunk.parse.story import Story
from lightrag_pchunk.parse.walk import BodyWalker, Mode
from lightrag_pchunk.parse.xml import qn

#: Point size of a stripped heading by level (level 4 and deeper: 12 pt).
SIZES = {1: 16, 2: 14, 3: 13}
_DEEPEST_SIZE = 12
_PPR = qn("w:pPr")
_STRIPPED = (qn("w:pStyle"), qn("w:numPr"), qn("w:outlineLvl"))
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


@dataclass(frozen=True, slots=True)
class Heading:
    """One heading of an outline: its text, level and immediate parent ("" at the top)."""

    text: str
    level: int
    parent: str


@dataclass(frozen=True, slots=True)
class Score:
    """How well an outline found from a stripped copy matches the styled one."""

    reference: int
    found: int
    matched: int
    parents_right: int
    numbered: int
    numbered_matched: int
    evidenced: int  # numbered, or listed by the document's table of contents
    evidenced_matched: int
    listed_extra: int  # found, not styled, but listed by the document's table of contents
    parsed_extra: int = 0  # found, not styled, but listed or given by the styled file's parse

    @property
    def recall(self) -> float:
        return self.matched / self.reference if self.reference else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 1.0

    @property
    def parent_accuracy(self) -> float:
        return self.parents_right / self.matched if self.matched else 1.0

    @property
    def numbered_recall(self) -> float:
        return self.numbered_matched / self.numbered if self.numbered else 1.0

    @property
    def listed_precision(self) -> float:
        """Precision where a found heading that the document's own table of contents lists
        counts as right though its author left it unstyled."""
        return (self.matched + self.listed_extra) / self.found if self.found else 1.0

    @property
    def parsed_precision(self) -> float:
        """Precision where a found heading that the parse of the styled file itself gives
        (the author's unstyled headings it finds there) or its table of contents lists
        counts as right: what stripping the styles adds beyond the parser's own outline."""
        return (self.matched + self.parsed_extra) / self.found if self.found else 1.0

    @property
    def evidenced_recall(self) -> float:
        return self.evidenced_matched / self.evidenced if self.evidenced else 1.0


@dataclass(frozen=True, slots=True)
class _StyledHeading:
    """A heading paragraph of the styled file: its level, text as rendered and look."""

    p: etree._Element
    level: int
    text: str
    look: Look


class _HeadingRecorder(BodyWalker):
    """A walk that remembers which body paragraph made which heading (text as rendered)."""

    def __init__(self, doc_hash: str) -> None:
        super().__init__(doc_hash, [])
        self.headings: list[_StyledHeading] = []

    def paragraph(self, p, story, part, mode, out, depth=0):  # type: ignore[override]
        before = len(self.events)
        super().paragraph(p, story, part, mode, out, depth)
        if mode is Mode.BODY:
            for event in self.events[before:]:
                if event.level:
                    style_id = paragraph_props(p)[0] or story.styles.default_paragraph_style
                    look = paragraph_look(p, story.styles, style_id)
                    self.headings.append(_StyledHeading(p, event.level, event.heading, look))
                    break


def _styled_headings(path: Path) -> tuple[bytes, list[_StyledHeading], object]:
    with DocxPackage.open(path, None, name=str(path)) as package:
        main_part = package.main_part
        root = package.read_xml(main_part)
        body = root.find(qn("w:body"))
        walker = _HeadingRecorder("0" * 32)
        story = Story.create(package, None, None, body=body)
        walker.walk(body, story, main_part)
        return main_part, walker.headings, root


def strip_headings(
    source: Path, target: Path, *, look: bool = True, as_styled: bool = False
) -> int:
    """Write ``target``: ``source`` with its heading paragraphs stripped (see the module
    doc). Returns the number of headings stripped."""
    main_part, headings, root = _styled_headings(source)
    for heading in headings:
        p = heading.p
        ppr = p.find(_PPR)
        for child in list(p):
            if child is not ppr:
                p.remove(child)
        if ppr is not None:
            for prop in _STRIPPED:
                for el in ppr.findall(prop):
                    ppr.remove(el)
        run = etree.SubElement(p, qn("w:r"))
        if look and as_styled:
            ppr = _write_look(p, ppr, run, heading.look)
        elif look:
            rpr = etree.SubElement(run, qn("w:rPr"))
            etree.SubElement(rpr, qn("w:b"))
            size = SIZES.get(heading.level, _DEEPEST_SIZE)
            etree.SubElement(rpr, qn("w:sz")).set(qn("w:val"), str(size * 2))
        t = etree.SubElement(run, qn("w:t"))
        t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
        t.text = heading.text
    data = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    part_name = str(main_part).lstrip("/")
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            content = data if info.filename == part_name else src.read(info.filename)
            out.writestr(info, content)
    return len(headings)


def _write_look(
    p: etree._Element, ppr: etree._Element | None, run: etree._Element, look: Look
) -> etree._Element | None:
    """Write ``look`` as direct formatting: on the run its bold, capitals and size (explicit
    either way, so that no style of the paragraph left behind changes them), centring on
    the paragraph. Returns the paragraph's ``w:pPr``."""
    rpr = etree.SubElement(run, qn("w:rPr"))
    etree.SubElement(rpr, qn("w:b")).set(qn("w:val"), "1" if look.bold else "0")
    etree.SubElement(rpr, qn("w:caps")).set(qn("w:val"), "1" if look.caps else "0")
    if look.size:
        etree.SubElement(rpr, qn("w:sz")).set(qn("w:val"), str(round(look.size * 2)))
    if look.centered:
        if ppr is None:
            ppr = etree.Element(_PPR)
            p.insert(0, ppr)
        for jc in ppr.findall(qn("w:jc")):
            ppr.remove(jc)
        etree.SubElement(ppr, qn("w:jc")).set(qn("w:val"), "center")
    return ppr


def normalize(text: str) -> str:
    """A heading as compared: NFKC, case-folded, spaces collapsed, end punctuation dropped."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"\s+", " ", text)
    return text.strip(" :：.。")


def outline_of(parsed: ParsedDocument) -> list[Heading]:
    """The headings of a parsed document (not the preface, not tables of contents)."""
    out = []
    for row in parsed.rows:
        if row.heading == PREFACE_HEADING or row.extra.get("session_type") == "toc":
            continue
        parent = row.parent_headings[-1] if row.parent_headings else ""
        out.append(Heading(row.heading, row.level, parent))
    return out


def _label(text: str):
    """The numbering label ``text`` starts with, past a bullet glyph that decorates it
    ("● 1 Introduction", as some numbering definitions render heading labels)."""
    label = parse_label(text)
    if label is None and len(text) > 2 and not text[0].isalnum() and text[1].isspace():
        label = parse_label(text[2:])
    return label


def toc_entries(parsed: ParsedDocument) -> frozenset[str]:
    """The titles a document's table of contents lists, as :func:`normalize` writes them
    (page references dropped), with and without their numbering labels; not the captions a
    list of figures or tables lists."""
    keys: set[str] = set()
    for row in parsed.rows:
        if row.extra.get("session_type") != "toc":
            continue
        for line in row.content.split("\n"):
            title = strip_page_reference(line.strip().lstrip("#").strip())
            if is_caption(title):
                continue
            keys.add(normalize(title))
            label = parse_label(title)
            if label is not None and label.rest:
                keys.add(normalize(label.rest))
    keys.discard("")
    return frozenset(keys)


def compare(
    reference: list[Heading],
    found: list[Heading],
    listed: frozenset[str] = frozenset(),
    parsed: frozenset[str] = frozenset(),
    same: Callable[[str, str], bool] = operator.eq,
) -> Score:
    """Match ``found`` to ``reference`` by normalised text, in order: the largest set of
    pairs of equal titles whose order agrees in both (a longest common subsequence; a
    heading found out of order or twice counts once, and a title that recurs, "Examples",
    cannot pull the matching past the headings between). ``listed``: the titles the
    document's table of contents lists (:func:`toc_entries`); ``parsed``: the titles of
    the outline the styled file's own parse gives (smart outline ``auto``); ``same``: when
    two titles, or two parents, match (equality, or a nearness such as a PDF's printed text
    needs)."""
    titles = [normalize(h.text) for h in reference], [normalize(h.text) for h in found]
    pairs = aligned(*titles, same)
    numbered = evidenced = numbered_matched = evidenced_matched = parents_right = 0
    for i, heading in enumerate(reference):
        is_numbered = _label(heading.text) is not None
        has_evidence = is_numbered or normalize(heading.text) in listed
        numbered += is_numbered
        evidenced += has_evidence
        j = pairs.get(i)
        if j is None:
            continue
        numbered_matched += is_numbered
        evidenced_matched += has_evidence
        parents_right += same(normalize(found[j].parent), normalize(heading.parent))
    matched_found = set(pairs.values())
    extra = [normalize(h.text) for j, h in enumerate(found) if j not in matched_found]
    listed_extra = sum(1 for title in extra if title in listed)
    parsed_extra = sum(1 for title in extra if title in listed or title in parsed)
    return Score(
        len(reference),
        len(found),
        len(pairs),
        parents_right,
        numbered,
        numbered_matched,
        evidenced,
        evidenced_matched,
        listed_extra,
        parsed_extra,
    )


def pooled(scores: Sequence[Score]) -> Score:
    """The scores of several files summed: one score over all their headings."""
    return Score(*(sum(getattr(s, name) for s in scores) for name in Score.__dataclass_fields__))


def aligned(
    left: Sequence[str], right: Sequence[str], same: Callable[[str, str], bool] = operator.eq
) -> dict[int, int]:
    """A longest common subsequence of ``left`` and ``right`` under ``same`` (equality, or a
    nearness that need not be transitive), as index pairs."""
    rows, cols = len(left), len(right)
    # length[i][j]: the longest common subsequence of left[i:] and right[j:].
    length = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows - 1, -1, -1):
        here, below = length[i], length[i + 1]
        for j in range(cols - 1, -1, -1):
            here[j] = max(below[j], here[j + 1])
            if same(left[i], right[j]):
                here[j] = max(here[j], below[j + 1] + 1)
    pairs: dict[int, int] = {}
    i = j = 0
    while i < rows and j < cols:
        if same(left[i], right[j]) and length[i][j] == length[i + 1][j + 1] + 1:
            pairs[i] = j
            i, j = i + 1, j + 1
        elif length[i + 1][j] >= length[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


#: Files with fewer styled headings than this are not part of the strip test.
MIN_HEADINGS = 6


@dataclass(frozen=True, slots=True)
class StripResult:
    """The styled outline of a file and the outlines parsed from its stripped copies."""

    reference: list[Heading]
    listed: frozenset[str]  # what the styled file's table of contents lists (toc_entries)
    parsed: frozenset[str]  # the titles of the styled file's own outline (smart outline auto)
    look: list[Heading]  # copy keeping the look (bold, sizes by level), smart outline on
    plain: list[Heading]  # copy without any look, smart outline on
    as_styled: list[Heading] | None = None  # copy in the headings' own look, when asked


def strip_file(source: Path, workdir: Path, *, as_styled: bool = False) -> StripResult | None:
    """Parse ``source`` styled (smart outline off) and its stripped copies (with
    ``as_styled``, also the copy in the headings' own look); None when it is refused or has
    fewer than :data:`MIN_HEADINGS` styled headings."""
    try:
        styled = parse_docx(source, workdir / "styled", smart_heading=False)
    except DocxParseError:
        return None
    reference = outline_of(styled)
    if len(reference) < MIN_HEADINGS:
        return None
    found = {}
    for look in (True, False):
        copy = workdir / f"stripped-{'look' if look else 'plain'}{source.suffix}"
        strip_headings(source, copy, look=look)
        found[look] = outline_of(parse_docx(copy, workdir / copy.stem, smart_heading=True))
    own_look = None
    if as_styled:
        copy = workdir / f"stripped-styled{source.suffix}"
        strip_headings(source, copy, as_styled=True)
        own_look = outline_of(parse_docx(copy, workdir / copy.stem, smart_heading=True))
    listed = toc_entries(styled)
    own = outline_of(parse_docx(source, workdir / "auto", smart_heading="auto"))
    parsed = frozenset(normalize(h.text) for h in own)
    return StripResult(reference, listed, parsed, found[True], found[False], own_look)


__all__ = [
    "MIN_HEADINGS",
    "Heading",
    "Score",
    "StripResult",
    "compare",
    "normalize",
    "outline_of",
    "pooled",
    "strip_file",
    "strip_headings",
    "toc_entries",
]
