"""The breadcrumb contract: what a chunk's heading fields promise, and one check of it.

A chunk declares a path: its ``parent_headings`` and its ``heading`` without ``[part n]``.
LightRAG hands that path to its language model (``content_headings``) and users cite it, so
against the outline of the document (its content rows) it must hold that:

- **path**: the declared path is a path of the outline; or one followed by headings that
  are lines of that section's text (a stage C anchor; a heading the smart outline found
  where the outline checked against has body text); or, for a chunk holding several
  sibling sections, their common parent with the span of its children the chunk holds,
  ``4 权责 (4.1–4.3)`` (``chunk_headings.py``), and at the top, where they have no common
  parent, the span alone: ``1 目的 – 3 职责``. And no heading it adds to the outline lies
  below one of its own numbering level (``CHAPTER 7 > … > CHAPTER 1``, ``2.1 > 2.2``);
- **level**: the chunk's level is the level the outline gives the heading it declares, or
  for a span its parent's; a heading made of lines of a section's text, which the outline
  gives no level, lies no shallower than that section (a stage C anchor keeps its block's
  level, spec §1.2); a span at the top is at the level of the shallowest section it holds;
- **first**: the chunk's first paragraph lies in the declared section (or below it);
- **spans**: every section the chunk holds text of lies in the declared section;
- **part**: ``[part n]`` counts the parts of one declared heading 1, 2, 3 … with no gap,
  and a heading of one part has no number. Its parts are the consecutive chunks that
  declare it and a span beside them that names it as its end on their side, where that
  end carries the part it holds (``§ 12 [part 1]``, ``P (§ 12 [part 2] – § 13 [part 1])``,
  ``§ 13 [part 2]``; at the top the last end's closes the heading, ``A – B [part 1]``): a
  reader sees a section go on into a span and finds its part 1 there. An end that names
  several sections (two lists' ``ii``) may go without. A span counts the consecutive chunks
  of its own label; its ends then carry none.

The untitled preface (``chunk/preface.py``) is a section at the top, ``Preface/Uncategorized``
as LightRAG names it, when it has a body of its own (a cover page of several lines, a
revision history, a contents page, an abstract): a chunk that opens with it declares it,
alone or as the first end of a span. A preface of only the title and a line or two, and a
table of contents, belong to no section: they may open or join any chunk, and the rules
read such a chunk from its first paragraph in a section. :func:`check_breadcrumbs` is a
pure function of rows and chunks (the outline it reads them as:
``chunk/breadcrumb_outline.py``): the tests, the corpus benchmark and ``inspect`` use it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lightrag_pchunk.chunk.breadcrumb_outline import RowOutline, locate, opens_with_overlap
from lightrag_pchunk.chunk.breadcrumb_parts import Span, names_of, part_violations
from lightrag_pchunk.chunk.chunk_headings import SPAN_DASH, series_number
from lightrag_pchunk.chunk.part_numbers import label_path, strip_part_suffix
from lightrag_pchunk.model import BlockRow, Chunk

PATH, FIRST, SPANS, PART, LEVEL = "path", "first", "spans", "part", "level"
RULES = (PATH, FIRST, SPANS, PART, LEVEL)


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken promise: chunk ``order`` (its heading as written) breaks ``rule``."""

    order: int
    heading: str
    rule: str
    reason: str

    def describe(self) -> str:
        """``chunk 12 '4.2 Scope [part 2]': part: … `` for a report."""
        return f"chunk {self.order} {self.heading!r}: {self.rule}: {self.reason}"


def declared_path(chunk: Chunk) -> tuple[str, ...]:
    """The path a chunk declares: its parents and its heading without ``[part n]``."""
    return label_path(chunk.heading, chunk.parent_headings)


def _read_path(
    outline: RowOutline, path: tuple[str, ...]
) -> tuple[tuple[str, ...] | None, Span | None]:
    """The section a declared path names (the longest path of the outline it starts
    with), or None when it names none (see the module doc for the forms it may take); and
    for a span of its children, their parent as the chunk declares it and the two ends it
    names them by."""
    base = _section_of(outline, path)
    if base is not None or not path:
        return base, None
    *parents, heading = path
    # ``base (a–b)``: a parent and the span of its children the chunk holds.
    for before, inside in _parenthesis_splits(heading):
        base = _section_of(outline, (*parents, before))
        if base is not None:
            for ends in _span_ends(inside):
                if _names_children(outline, base, ends):
                    return base, ((*parents, before), ends)
    # ``a – b`` at the top: sections without a common parent.
    if not parents:
        for ends in _dash_splits(heading, f" {SPAN_DASH} "):
            if _names_children(outline, (), ends):
                return (), ((), ends)
    return None, None


def _section_of(outline: RowOutline, path: tuple[str, ...]) -> tuple[str, ...] | None:
    """``path`` itself when the outline has it; else its longest prefix in the outline when
    the rest are headings made of lines of that section's own text; else None."""
    if not path or path in outline.paths:
        return path
    cut = len(path) - 1
    while cut > 0 and path[:cut] not in outline.paths:
        cut -= 1
    base = path[:cut]
    return base if all(outline.names_line(base, name) for name in path[cut:]) else None


def _parenthesis_splits(heading: str) -> Iterable[tuple[str, str]]:
    """``("4 权责", "4.1–4.3")`` for ``"4 权责 (4.1–4.3)"``: the last balanced group first;
    then, as a span's ends are titles that may leave a bracket of their own unpaired
    ("d) SL2(R) wird …"), every other opening after a space, from the left."""
    if not heading.endswith(")"):
        return
    depth = 0
    balanced = None
    for index in range(len(heading) - 1, -1, -1):
        ch = heading[index]
        depth += ch == ")"
        depth -= ch == "("
        if depth == 0:
            balanced = index
            break
    if balanced is not None and heading[:balanced].rstrip():
        yield heading[:balanced].rstrip(), heading[balanced + 1 : -1]
    start = heading.find(" (")
    while start > 0:
        if start + 1 != balanced:
            yield heading[:start].rstrip(), heading[start + 2 : -1]
        start = heading.find(" (", start + 1)


def _span_ends(inside: str) -> Iterable[tuple[str, str]]:
    """The ways ``inside`` reads as two ends (a title may hold a dash itself), or as one."""
    for dash in (f" {SPAN_DASH} ", SPAN_DASH):
        yield from _dash_splits(inside, dash)
    if inside.strip():
        yield inside.strip(), inside.strip()


def _dash_splits(text: str, dash: str) -> Iterable[tuple[str, str]]:
    start = text.find(dash)
    while start > 0:
        first, last = text[:start].strip(), text[start + len(dash) :].strip()
        if first and last:
            yield first, last
        start = text.find(dash, start + 1)


def _names_children(
    outline: RowOutline, base: tuple[str, ...], ends: tuple[str, str], lines: bool = True
) -> bool:
    """Whether both ``ends`` of a span name children of ``base`` (:func:`names_of`), or
    (with ``lines``) headings found in its text or in a child's."""
    names = set().union(*(names_of(child[-1]) for child in outline.children(base)))
    return all(
        name in names
        or (lines and any(_names_line(outline, base, form) for form in _line_forms(name)))
        for name in (strip_part_suffix(end).rstrip("…") for end in ends)
    )


def _line_forms(name: str) -> tuple[str, ...]:
    """How a span's end may open a line: as written, or a label the span wrote without
    its brackets (``c`` for the line ``(c) Coordination``)."""
    return (name, f"({name})", f"（{name}）")


def _names_line(outline: RowOutline, base: tuple[str, ...], name: str) -> bool:
    return outline.names_line(base, name) or _names_deeper(outline, base, name)


def _unsure_ends(
    outline: RowOutline, base: tuple[str, ...] | None, span: Span | None
) -> frozenset[str]:
    """The ends of a span that name several children of its parent (``ii`` of two lists,
    two titles cut alike): which one's part such an end holds, its name cannot tell."""
    if base is None or span is None:
        return frozenset()
    children = [names_of(child[-1]) for child in outline.children(base)]
    named = (strip_part_suffix(end) for end in span[1])
    return frozenset(e for e in named if sum(e.rstrip("…") in c for c in children) > 1)


def _names_deeper(outline: RowOutline, base: tuple[str, ...], name: str) -> bool:
    """A span end that is a heading the smart outline found inside a child of ``base``."""
    return any(outline.names_line(child, name) for child in outline.children(base))


def _within(path: tuple[str, ...] | None, base: tuple[str, ...]) -> bool:
    return path is None or path[: len(base)] == base


def check_breadcrumbs(rows: Sequence[BlockRow], chunks: Sequence[Chunk]) -> list[Violation]:
    """Every way ``chunks`` break the breadcrumb contract against the outline of ``rows``
    (see the module doc), in chunk order. ``rows`` are usually the rows the chunks were made
    from; any rows of the same text will do (a styled parse checks a smart one)."""
    outline = RowOutline(rows)
    violations: list[Violation] = []
    cursor = 0
    before = ""  # the content of the chunk before
    spans: list[Span | None] = []
    unsure: list[frozenset[str]] = []
    for chunk in chunks:
        declared = declared_path(chunk)
        base, span = _read_path(outline, declared)
        spans.append(span)
        unsure.append(_unsure_ends(outline, base, span))
        nested = ""
        if base is not None and declared[: len(base)] == base:
            nested = _same_level_nesting(declared, len(base))
        if base is None or nested:
            reason = nested or _path_reason(outline, chunk)
            violations.append(Violation(chunk.order, chunk.heading, PATH, reason))
        overlapped = opens_with_overlap(chunk.content, before)
        found, cursor = locate(outline, chunk.content, cursor, overlapped)
        before = chunk.content
        held = [outline.row_paths[index] for index in found]
        if base is not None and not nested:
            reason = _level_reason(outline, chunk.level, declared, base, span, held)
            if reason:
                violations.append(Violation(chunk.order, chunk.heading, LEVEL, reason))
        if base is None or not found:
            continue
        # Front matter of no section may open a chunk: the first paragraph that says where
        # it is lies in the first section the chunk holds.
        first = next((path for path in held if path is not None), None)
        if first is not None and not _within(first, base):
            violations.append(
                Violation(
                    chunk.order,
                    chunk.heading,
                    FIRST,
                    f"its first paragraph is in {_show(first)}, not in {_show(base)}",
                )
            )
        outside = [path for path in held if not _within(path, base)]
        if outside:
            violations.append(
                Violation(
                    chunk.order,
                    chunk.heading,
                    SPANS,
                    f"it holds text of {len(outside)} section(s) outside {_show(base)}, "
                    f"such as {_show(outside[-1])}",
                )
            )
    violations.extend(
        Violation(chunks[index].order, chunks[index].heading, PART, reason)
        for index, reason in part_violations(
            [c.heading for c in chunks], [declared_path(c) for c in chunks], spans, unsure
        )
    )
    violations.sort(key=lambda v: (v.order, RULES.index(v.rule)))
    return violations


def _same_level_nesting(path: tuple[str, ...], known: int) -> str:
    """Why the headings of ``path`` past its first ``known`` ones (those not in the outline
    checked against) are impossible by their numbers, or "": a member of a series (a named
    unit, 2.1, AC-2) below another member of its own level with another number (CHAPTER 1
    below CHAPTER 7, 2.2 below 2.1). A list restarts its numbers under any heading, and a
    line that names its own section's number ("AC-2 Assessment" below "AC-2 Account
    Management") is a part of it."""
    seen: dict[tuple[str, int, str], tuple[str, tuple[int, ...]]] = {}
    for position, heading in enumerate(path):
        number = series_number(heading)
        if number is None:
            continue
        key, ordinals = number
        if key in seen and position >= known and seen[key][1] != ordinals:
            return f"{heading!r} lies below {seen[key][0]!r}, of its own numbering level"
        seen.setdefault(key, (heading, ordinals))
    return ""


def _level_reason(
    outline: RowOutline,
    level: int,
    declared: tuple[str, ...],
    base: tuple[str, ...],
    span: Span | None,
    held: Sequence[tuple[str, ...] | None],
) -> str:
    """Why ``level`` is not the level the outline gives the section a chunk's label names
    (``declared``, read as ``base`` and ``span`` by :func:`_read_path`), or "": the level of
    that heading; for a heading below ``base`` made of lines of its text (which the outline
    gives no level), one no shallower than ``base``'s; for a span at the top, the level of
    the shallowest of the sections ``held``. Nothing is checked where the outline gives no
    level (a heading without a row of its own; a span at the top with an end it lacks)."""
    if base:
        levels, named = outline.levels.get(base, set()), span[0] if span else declared
    elif span is not None and _names_children(outline, (), span[1], lines=False):
        tops = [min(outline.levels[p[:1]]) for p in held if p and p[:1] in outline.levels]
        levels, named = {min(tops)} if tops else set(), ()
    else:
        return ""
    if not levels or level in levels or (named != base and level > min(levels)):
        return ""
    where = _show(base) if base else "the shallowest section it holds"
    shown = " or ".join(map(str, sorted(levels)))
    return f"level {level}, but {where} is at level {shown}" + (
        "" if named == base else f", and {_show(named[len(base) :])} lies in its text"
    )


def _show(path: tuple[str, ...] | None) -> str:
    if not path:
        return "the document's top"
    return " > ".join(repr(p) for p in path)


def _path_reason(outline: RowOutline, chunk: Chunk) -> str:
    path = declared_path(chunk)
    for cut in range(len(path) - 1, 0, -1):
        if path[:cut] in outline.paths:
            return f"{path[cut]!r} is no heading under {_show(path[:cut])}"
    return f"{path[0]!r} is no heading at the document's top"
