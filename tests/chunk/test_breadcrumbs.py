"""The breadcrumb contract (chunk/breadcrumbs.py): how stage E labels a chunk that holds
several sections, how it numbers parts, and that the one check finds each broken promise.

Pipelines run with 1 char = 1 token, so sizes are computed by hand: N=200 fits about 190
characters of joined text.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from lightrag_pchunk.chunk.breadcrumb_parts import _parts
from lightrag_pchunk.chunk.breadcrumbs import (
    FIRST,
    PART,
    PATH,
    SPANS,
    Violation,
    check_breadcrumbs,
)
from lightrag_pchunk.chunk.chunk_headings import ChunkLabel, chunk_label, span_heading
from lightrag_pchunk.chunk.part_numbers import numbered_parts
from lightrag_pchunk.chunk.pipeline import chunk_rows
from lightrag_pchunk.model import Chunk, SectionRef

from helpers import char_context, make_block, make_row

_Labels = Sequence[tuple[str, tuple[str, ...]]]
_Spanned = Sequence[Collection[tuple[str, ...]]]


def declared_parts(labels: _Labels, spanned: _Spanned = ()) -> list[int]:
    """The ``[part n]`` numbers of :func:`numbered_parts`, no span's ends given."""
    return numbered_parts(labels, spanned, [None] * len(labels))[0]


def end_parts(
    labels: _Labels, spanned: _Spanned, edges: list[tuple[tuple[str, ...], ...] | None]
) -> list[tuple[int, int]]:
    """The parts a span's ends hold, of :func:`numbered_parts`."""
    return numbered_parts(labels, spanned, edges)[1]


def _span_check(
    heading: str, parent: str, children: list[str], sections: bool = False
) -> list[Violation]:
    """The check of one chunk headed ``heading`` that holds ``children`` of ``parent``,
    each with a line of text: sections of their own (``sections``), else lines of the
    parent's text (an outline without them)."""
    parts = [f"{child}\nText." for child in children]
    rows = [make_row(f"# {parent}\nThe section.", parent)]
    if sections:
        parts = [f"## {part}" for part in parts]
        rows += [make_row(p, c, (parent,), 2) for p, c in zip(parts, children, strict=True)]
        content = "\n\n".join(parts)
    else:
        content = "\n".join(parts)
        rows.append(make_row(content, parent))
    return check_breadcrumbs(rows, [chunk(0, content, heading)])


def test_a_span_names_its_ends_by_their_labels_else_by_their_titles() -> None:
    assert span_heading("4 权责", ["4.1 总则", "4.2 职责", "4.3 附则"]) == "4 权责 (4.1–4.3)"
    assert span_heading("Guide", ["Intro", "4.2 Use"]) == "Guide (Intro – 4.2 Use)"
    assert span_heading("Guide", ["Intro", "Intro"]) == "Guide (Intro)"
    # At the top no parent gives the context: the titles, cut with an ellipsis when long.
    assert span_heading(None, ["1.目的", "3.职责"]) == "1.目的 – 3.职责"
    long = "Access Enforcement (Conditional) for Mobile (M) (H) devices"
    assert (
        span_heading(None, ["1 Scope", long])
        == "1 Scope – Access Enforcement (Conditional) for Mo…"
    )
    # A cut never leaves a bracket open inside the span's own.
    assert span_heading("P", ["A", "AC-6 Least Privilege Enforcement (Moderate) (H)"]) == (
        "P (A – AC-6 Least Privilege Enforcement…)"
    )
    assert span_heading(None, ["Notes", "Notes"]) == "Notes"


def test_a_span_end_cut_in_a_title_that_opens_with_a_bracket_keeps_its_words() -> None:
    # A form's line in brackets, anchored: cut before its bracket it named nothing ("…"),
    # and the check could not read the span; cut after it, it names its line.
    title = "(наименование документа, номер, дата и место выдачи (регистрации), кем и когда выдан)"
    heading = span_heading("6. Порядок обжалования", [title, "ОПИСЬ"])
    assert heading == "6. Порядок обжалования ((наименование документа, номер, дата и… – ОПИСЬ)"
    assert _span_check(heading, "6. Порядок обжалования", [title, "ОПИСЬ"]) == []


def test_a_span_of_items_labelled_with_a_closing_parenthesis_keeps_its_brackets_paired() -> None:
    # "c) Test loads" to "f) Overload": the labels without their lone closing parenthesis,
    # so the span's own parenthesis closes where it opened, and the check reads it.
    heading = span_heading("4.3.3 Works trials", ["c) Test loads", "f) Overload"])
    assert heading == "4.3.3 Works trials (c–f)"
    assert _span_check(heading, "4.3.3 Works trials", ["c) Test loads", "f) Overload"]) == []


def test_a_span_of_items_labelled_in_brackets_does_not_double_them() -> None:
    # "(c) Descriptiveness" to "(e) Process": "A. Terms (c–e)", not "A. Terms ((c)–(e))".
    heading = span_heading("A. Terms", ["(c) Descriptiveness", "(d) Norms", "(e) Process"])
    assert heading == "A. Terms (c–e)"
    assert span_heading("三、要求", ["（一）总则", "（三）附则"]) == "三、要求 (一–三)"
    items = ["(c) Descriptiveness", "(e) Process"]
    assert _span_check(heading, "A. Terms", items, sections=True) == []
    # Where the items are lines of their section's text (an outline without them), the
    # check finds "c" as the line "(c) Descriptiveness" opens.
    assert _span_check(heading, "A. Terms", items) == []


def test_a_span_between_labels_of_two_series_names_its_ends_by_their_titles() -> None:
    # "(h)–A" or "2–(a)" would read as a range of one list; the titles say what a reader
    # finds. Labels of one series still name the ends, whatever their levels or numerals.
    need = span_heading("A. Need", ["(h) Development", "A. Issues"])
    assert need == "A. Need ((h) Development – A. Issues)"
    terms = span_heading("C. Terms", ["2. Relationship", "(a) Competition"])
    assert terms == "C. Terms (2. Relationship – (a) Competition)"
    assert span_heading("3. DNS", ["(i) Names", "(iv) Languages"]) == "3. DNS (i–iv)"
    assert span_heading("6 执行评价", ["6.1.4 支持", "6.2 总体评价"]) == "6 执行评价 (6.1.4–6.2)"
    items = ["(h) Development", "A. Issues"]
    assert _span_check(need, "A. Need", items, sections=True) == []


def test_a_span_between_two_equal_labels_names_its_ends_by_their_titles() -> None:
    # Two lists' "(i)", or two headings that repeat their section's code: "(i–i)" and
    # "(CA-7–CA-7)" name one item where the chunk holds two.
    two = span_heading("D. Issues", ["(i) Affordable access", "(b) Content", "(i) Languages"])
    assert two == "D. Issues ((i) Affordable access – (i) Languages)"
    code = span_heading("CA-7 Monitoring", ["CA-7 What is the solution", "CA-7 Assessment"])
    assert code == "CA-7 Monitoring (CA-7 What is the solution – CA-7 Assessment)"
    parted = span_heading("RA-5 Scanning", ["RA-5 Control Summary", "RA-5 Assessment"], (0, 1))
    assert parted == "RA-5 Scanning (RA-5 Control Summary – RA-5 Assessment [part 1])"
    # Labels that differ still name a range, up or down (a changelog counts down).
    assert span_heading("3. DNS", ["(i) Names", "(ii) Roots"]) == "3. DNS (i–ii)"
    assert (
        span_heading("Changelog", ["2.6.4 (11/04)", "2.6.3 (10/31)"]) == "Changelog (2.6.4–2.6.3)"
    )
    items = ["(i) Affordable access", "(i) Languages"]
    assert _span_check(two, "D. Issues", items, sections=True) == []


def test_a_span_from_one_list_down_into_the_next_names_its_ends_by_their_titles() -> None:
    # "(e)" of one list to "(b)" of the next, "6." to a new list's "1.": no list counts
    # down, so "(e–b)" and "(6–1)" would read as ranges backwards.
    letters = span_heading("A. Need", ["(e) Process", "(a) Scope", "(b) Shared"])
    assert letters == "A. Need ((e) Process – (b) Shared)"
    numbers = span_heading("Credits", ["6. All foreign taxes", "1. Multiply"], (2, 0))
    assert numbers == "Credits (6. All foreign taxes [part 2] – 1. Multiply)"
    # A changelog's versions count down level by level: still a range of labels.
    assert span_heading("Changelog", ["2.6 Series", "2.5 Series"]) == "Changelog (2.6–2.5)"
    assert span_heading("A. Need", ["(b) Shared", "(e) Process"]) == "A. Need (b–e)"
    assert _span_check(letters, "A. Need", ["(e) Process", "(b) Shared"], sections=True) == []


def test_a_span_between_labels_of_words_is_spaced_like_one_holding_a_part() -> None:
    # "Note 2–Note 3" would join the two labels into one: labels of several words are
    # spaced, as an end holding a part is ("4.3 [part 2] – 4.5"); "4.1–4.3" stays tight.
    notes = span_heading("Part I", ["Note 2 – Investments", "Note 3 – Leases"])
    assert notes == "Part I (Note 2 – Note 3)"
    assert span_heading("Part 1308", ["§ 1308.34 Scope", "§ 1308.42 Other"]) == (
        "Part 1308 (§ 1308.34 – § 1308.42)"
    )
    assert span_heading("4 权责", ["4.1 总则", "4.3 附则"]) == "4 权责 (4.1–4.3)"
    items = ["Note 2 – Investments", "Note 3 – Leases"]
    assert _span_check(notes, "Part I", items, sections=True) == []


def test_a_span_names_an_end_without_the_list_glyph_its_title_opens_with() -> None:
    # Headings rendered from a bulleted list or a numbering's glyph: the glyph is no part
    # of the title the span names, as it is none of the label ("■ 4.1" reads 4.1).
    top = span_heading(None, ["● 6 Conformance", "● Appendix A. Acknowledgments"])
    assert top == "6 Conformance – Appendix A. Acknowledgments"
    cwe = span_heading("A1 Injection", ["• CWE-917: Expression Language", "• CWE-384: Fixation"])
    assert cwe == "A1 Injection (CWE-917: Expression Language – CWE-384: Fixation)"
    items = ["• CWE-917: Expression Language", "• CWE-384: Fixation"]
    assert _span_check(cwe, "A1 Injection", items, sections=True) == []


def test_a_span_whose_end_title_leaves_a_bracket_unpaired_is_read() -> None:
    # One end unlabelled, so the span names both by their titles, and the other's "d)"
    # leaves a closing bracket unpaired: no balanced group closes the span, yet the check
    # finds its parent from the span's own opening.
    heading = span_heading("4 Gruppen", ["Einleitung", "d) SL2(R) wird betrachtet"])
    assert heading == "4 Gruppen (Einleitung – d) SL2(R) wird betrachtet)"
    assert _span_check(heading, "4 Gruppen", ["Einleitung", "d) SL2(R) wird betrachtet"]) == []


def test_a_chunk_of_several_sections_declares_their_common_parent_and_the_span() -> None:
    ctx = char_context(200)
    block = make_block("x", ctx.counter, heading="4.1 总则", parents=("4 权责",), level=2)
    refs = (
        SectionRef(("4 权责", "4.1 总则"), 2),
        SectionRef(("4 权责", "4.2 职责", "4.2.1 部门"), 3),
        SectionRef(("4 权责", "4.3 附则"), 2),
    )
    block = replace(block, sections=refs)
    spanned = {("4 权责", "4.1 总则"), ("4 权责", "4.2 职责"), ("4 权责", "4.3 附则")}
    assert chunk_label(block) == ChunkLabel("4 权责 (4.1–4.3)", (), 1, frozenset(spanned))
    # The first section with what lies below it: that section, at its own level.
    block = replace(block, sections=(SectionRef(("4 权责",), 1), *refs))
    assert chunk_label(block) == ChunkLabel("4 权责", (), 1)
    # Sections at the top: the span alone, at their level.
    block = replace(
        block, sections=(SectionRef(("1.目的",), 1), SectionRef(("3.职责", "3.1 部门"), 2))
    )
    assert chunk_label(block) == ChunkLabel(
        "1.目的 – 3.职责", (), 1, frozenset({("1.目的",), ("3.职责",)})
    )
    # A block of one section (no merge) declares its own heading.
    block = replace(block, sections=())
    assert chunk_label(block) == ChunkLabel("4.1 总则", ("4 权责",), 2)


def test_parts_count_the_consecutive_chunks_of_one_declared_heading() -> None:
    labels = [("A", ()), ("B", ("A",)), ("B", ("A",)), ("B", ("A",)), ("C", ()), ("B", ("A",))]
    assert declared_parts(labels) == [0, 1, 2, 3, 0, 0]


SOP = [
    make_row("# 1.目的\n" + "规范冷库作业。" * 3, "1.目的", level=1, blockid="b0"),
    make_row("# 2.范围\n" + "适用于冷库。" * 3, "2.范围", level=1, blockid="b1"),
    make_row("# 3.职责\n" + "仓库主管负责。" * 3, "3.职责", level=1, blockid="b2"),
]


def test_merged_sections_at_the_top_are_not_headed_by_the_first_one() -> None:
    (chunk,) = chunk_rows(SOP, char_context(200, fill="pack"))
    assert (chunk.heading, chunk.parent_headings, chunk.level) == ("1.目的 – 3.职责", (), 1)
    assert check_breadcrumbs(SOP, [chunk]) == []


def _sentences(letter: str, count: int, size: int = 70) -> list[str]:
    return [f"{letter * (size - 2)}{i}." for i in range(count)]


def test_a_section_whose_first_part_joins_its_parent_leaves_no_part_gap() -> None:
    # 5 has a short introduction; 5.1 is over the cap (two pieces): its first piece shares
    # the chunk of 5, so its other piece is the only chunk declaring 5.1.
    rows = [
        make_row("# 5 Inspection\nThe plant is inspected.", "5 Inspection", blockid="b0"),
        make_row(
            "\n".join(["## 5.1 Checklists", *_sentences("a", 2), *_sentences("b", 2)]),
            "5.1 Checklists",
            parents=("5 Inspection",),
            level=2,
            blockid="b1",
        ),
    ]
    chunks = chunk_rows(rows, char_context(200, fill="pack"))
    assert [(c.heading, c.parent_headings) for c in chunks] == [
        ("5 Inspection", ()),
        ("5.1 Checklists", ("5 Inspection",)),
    ]
    assert check_breadcrumbs(rows, chunks) == []


def test_a_section_split_across_a_span_counts_the_span_among_its_parts() -> None:
    # 4.1 ends and 4.2 starts in one chunk labelled with the span that names both: that
    # chunk is 4.1's last part and 4.2's first, so 4.1's chunk before it is its part 1 and
    # 4.2's chunks after it count on from 2; each end of the span says which part it holds,
    # so a reader sees 4.1 go on and finds 4.2's part 1.
    rows = [make_row("# 4 Rules\nThe rules.", "4 Rules", blockid="b0")]
    rows += [
        make_row(
            "\n".join([f"## {title}", *_sentences(letter, 5)]),
            title,
            parents=("4 Rules",),
            level=2,
            blockid=f"b{number}",
        )
        for number, (title, letter) in enumerate((("4.1 Alpha", "a"), ("4.2 Beta", "b")), 1)
    ]
    chunks = chunk_rows(rows, char_context(200, fill="pack"))
    assert [c.heading for c in chunks] == [
        "4 Rules",
        "4.1 Alpha [part 1]",
        "4 Rules (4.1 [part 2] – 4.2 [part 1])",
        "4.2 Beta [part 2]",
        "4.2 Beta [part 3]",
    ]
    assert check_breadcrumbs(rows, chunks) == []


def test_parts_count_the_span_chunks_holding_the_section() -> None:
    rules = ("4 Rules",)
    labels = [("4 Rules", ()), ("4.1 A", rules), ("4 Rules (4.1–4.2)", ()),
              ("4.2 B", rules), ("4.2 B", rules), ("4.3 C", rules)]  # fmt: skip
    spanned = [(), (), {("4 Rules", "4.1 A"), ("4 Rules", "4.2 B")}, (), (), ()]
    assert declared_parts(labels, spanned) == [0, 1, 0, 2, 3, 0]
    # Two chunks of one span label are its parts.
    assert declared_parts(labels[2:3] * 2, spanned[2:3] * 2) == [1, 2]


def test_a_span_names_the_children_of_its_parent_not_the_sections_below_them() -> None:
    # "1 Aims – 2 Terms" names 2 Terms, not 2.1 Valve whose start it holds: a reader finds
    # no part of 2.1 there, as in a chunk headed by the parent (2 Terms) alone.
    ctx = char_context(200)
    block = make_block("x", ctx.counter, heading="1 Aims", level=1)
    refs = (SectionRef(("1 Aims",), 1), SectionRef(("2 Terms", "2.1 Valve"), 2))
    block = replace(block, sections=refs)
    label = chunk_label(block)
    assert (label.heading, label.parents) == ("1 Aims – 2 Terms", ())
    assert label.spanned == {("1 Aims",), ("2 Terms",)}
    valve = ("2.1 Valve", ("2 Terms",))
    spanned = [label.spanned, frozenset(), frozenset()]
    assert declared_parts([(label.heading, label.parents), valve, valve], spanned) == [0, 1, 2]


def test_an_anchor_heading_numbers_only_its_own_parts() -> None:
    # One long section cut at its short heading-like lines: each anchor heads its piece
    # without the row's running number.
    body = []
    for mode in range(1, 6):
        body += [f"Operating Mode {mode}", *_sentences("abcde"[mode - 1], 2)]
    rows = [make_row("\n".join(["# Modes", *body]), "Modes", blockid="b0")]
    chunks = chunk_rows(rows, char_context(200, fill="pack"))
    assert len(chunks) >= 3
    assert all("[part" not in chunk.heading for chunk in chunks)
    assert {c.heading for c in chunks[1:]} <= {f"Operating Mode {m}" for m in range(2, 6)}
    assert check_breadcrumbs(rows, chunks) == []


ROWS = [
    make_row("# 1 Scope\nScope text here.", "1 Scope"),
    make_row("# 2 Terms\nTerms text here.", "2 Terms"),
    make_row("## 2.1 Valve\nValve text here.", "2.1 Valve", parents=("2 Terms",), level=2),
]


def chunk(order: int, content: str, heading: str, parents: tuple[str, ...] = ()) -> Chunk:
    return Chunk(content, len(content), order, heading, parents, len(parents) + 1)


def rules(chunks: list[Chunk]) -> list[tuple[int, str]]:
    return [(v.order, v.rule) for v in check_breadcrumbs(ROWS, chunks)]


def test_the_check_passes_true_breadcrumbs() -> None:
    chunks = [
        chunk(0, "# 1 Scope\nScope text here.", "1 Scope"),
        chunk(1, "# 2 Terms\nTerms text here.\n\n## 2.1 Valve\nValve text here.", "2 Terms"),
    ]
    assert rules(chunks) == []
    merged = "# 1 Scope\nScope text here.\n\n# 2 Terms\nTerms text here."
    valve = chunk(1, "## 2.1 Valve\nValve text here.", "2.1 Valve", ("2 Terms",))
    assert rules([chunk(0, merged, "1 Scope – 2 Terms"), valve]) == []


def test_the_check_finds_a_path_the_outline_does_not_have() -> None:
    assert rules([chunk(0, "# 1 Scope\nScope text here.", "9 Annex")]) == [(0, PATH)]
    # A span must name children of its parent.
    assert rules([chunk(0, "# 2 Terms\nTerms text here.", "2 Terms (3.1–3.2)")]) == [(0, PATH)]


def test_the_check_finds_a_chunk_headed_by_its_first_section_that_holds_more() -> None:
    merged = "# 1 Scope\nScope text here.\n\n# 2 Terms\nTerms text here."
    (violation,) = check_breadcrumbs(ROWS, [chunk(0, merged, "1 Scope")])
    assert violation.rule == SPANS
    assert violation.describe() == (
        "chunk 0 '1 Scope': spans: it holds text of 1 section(s) outside '1 Scope', such as "
        "'2 Terms'"
    )


def test_the_check_finds_a_first_paragraph_outside_the_declared_section() -> None:
    content = "Scope text here.\n\n# 2 Terms\nTerms text here."
    assert rules([chunk(0, content, "2 Terms")]) == [(0, FIRST), (0, SPANS)]


def test_an_overlap_is_found_where_it_was_copied_from_not_further_on() -> None:
    # The second chunk opens with "10", the overlap cut from the end of "a10"; "alpha100"
    # in the next section holds it too, but the copy just before the chunk is the one.
    rows = [
        make_row("# H1 Alpha\nAlpha one.\na10\nAlpha two.", "H1 Alpha"),
        make_row("# H2 Alpha\nAlpha99 alpha100.", "H2 Alpha"),
    ]
    chunks = [
        chunk(0, "# H1 Alpha\nAlpha one.\na10", "H1 Alpha [part 1]"),
        chunk(1, "10\nAlpha two.", "H1 Alpha [part 2]"),
        chunk(2, "# H2 Alpha\nAlpha99 alpha100.", "H2 Alpha"),
    ]
    assert check_breadcrumbs(rows, chunks) == []


def test_the_check_finds_every_part_number_gap() -> None:
    text = "# 2 Terms\nTerms text here."
    alone = [chunk(0, text, "2 Terms [part 2]")]
    gap = [chunk(0, text, "2 Terms [part 1]"), chunk(1, text, "2 Terms"),
           chunk(2, text, "2 Terms [part 3]")]  # fmt: skip
    running = [chunk(0, text, "2 Terms [part 5]"), chunk(1, text, "2 Terms [part 6]")]
    assert rules(alone) == [(0, PART)]
    assert rules(gap) == [(1, PART)]
    assert rules(running) == [(0, PART), (1, PART)]
    reasons = [v.reason for v in check_breadcrumbs(ROWS, alone + gap[1:])]
    assert reasons == [
        "[part 2] is part 1 of 3 of its heading",
        "no [part n] on part 2 of 3 of its heading",
    ]


SPANNED = [
    make_row("# 4 Rules\nThe rules.", "4 Rules"),
    make_row("## 4.1 A\nA one.\nA two.", "4.1 A", parents=("4 Rules",), level=2),
    make_row("## 4.2 B\nB one.\nB two.", "4.2 B", parents=("4 Rules",), level=2),
]


def test_the_check_counts_a_span_among_the_parts_of_the_sections_it_holds() -> None:
    def split(first: str, last: str, span: str = "4 Rules (4.1 [part 2] – 4.2 [part 1])"):
        return [
            chunk(0, "## 4.1 A\nA one.", first, ("4 Rules",)),
            chunk(1, "A two.\n\n## 4.2 B\nB one.", span),
            chunk(2, "B two.", last, ("4 Rules",)),
        ]

    numbered = split("4.1 A [part 1]", "4.2 B [part 2]")
    assert check_breadcrumbs(SPANNED, numbered) == []
    reasons = [v.describe() for v in check_breadcrumbs(SPANNED, split("4.1 A", "4.2 B"))]
    assert reasons == [
        "chunk 0 '4.1 A': part: no [part n] on part 1 of 2 of its heading",
        "chunk 2 '4.2 B': part: no [part n] on part 2 of 2 of its heading",
    ]


def test_the_check_finds_a_span_end_without_the_part_it_holds() -> None:
    # A span that holds part 2 of 4.1 must say so at its first end, and part 1 of 4.2 at
    # its last: "4.1 A [part 1]" followed by "4 Rules (4.1–4.2)" hides that 4.1 goes on.
    def split(span: str) -> list[Chunk]:
        return [
            chunk(0, "## 4.1 A\nA one.", "4.1 A [part 1]", ("4 Rules",)),
            chunk(1, "A two.\n\n## 4.2 B\nB one.", span),
            chunk(2, "B two.", "4.2 B [part 2]", ("4 Rules",)),
        ]

    reasons = [v.describe() for v in check_breadcrumbs(SPANNED, split("4 Rules (4.1–4.2)"))]
    assert reasons == [
        "chunk 1 '4 Rules (4.1–4.2)': part: no [part 2] on its end '4.1', which holds part 2 of it"
    ]
    wrong = "4 Rules (4.1 [part 2] – 4.2 [part 2])"
    reasons = [v.reason for v in check_breadcrumbs(SPANNED, split(wrong))]
    assert reasons == ["[part 2] on its end '4.2', which holds part 1 of it"]
    # An end of a section the span holds whole carries no number.
    whole = [chunk(0, "## 4.1 A\nA one.\nA two.\n\n## 4.2 B\nB one.\nB two.", wrong)]
    assert [v.rule for v in check_breadcrumbs(SPANNED, whole)] == [PART]


def test_a_span_at_the_top_carries_its_last_ends_part_at_the_end() -> None:
    # "1 Scope – 2 Terms [part 1]": the span holds part 1 of 2 Terms, whose next chunk is
    # "2 Terms [part 2]"; at the top the last end's number closes the heading.
    chunks = [
        chunk(0, "# 1 Scope\nScope text here.\n\n# 2 Terms\nTerms", "1 Scope – 2 Terms [part 1]"),
        chunk(1, "text here.", "2 Terms [part 2]"),
    ]
    assert rules(chunks) == []
    chunks[0] = chunk(0, chunks[0].content, "1 Scope – 2 Terms")
    assert rules(chunks) == [(0, PART)]


def test_end_parts_number_the_ends_of_a_span_holding_part_of_a_section() -> None:
    rules_ = ("4 Rules",)
    labels = [("4.1 A", rules_), ("4.1 A", rules_), ("4 Rules (4.1–4.2)", ()),
              ("4.2 B", rules_), ("4 Rules (4.2–4.3)", ()), ("4.4 D", rules_)]  # fmt: skip
    both = {("4 Rules", "4.1 A"), ("4 Rules", "4.2 B")}
    spanned = [(), (), both, (), {("4 Rules", "4.2 B"), ("4 Rules", "4.3 C")}, ()]
    a, b, c = (("4 Rules", name) for name in ("4.1 A", "4.2 B", "4.3 C"))
    edges = [None, None, (a, b), None, (b, c), None]
    assert end_parts(labels, spanned, edges) == [(0, 0), (0, 0), (3, 1), (0, 0), (3, 0), (0, 0)]
    # A span that holds text of 4.2 but does not end with it (two sections of one title
    # that hold 4.2 between them): its ends name other sections, so neither is numbered.
    edges[4] = (c, c)
    assert end_parts(labels, spanned, edges)[4] == (0, 0)
    assert span_heading("4 Rules", ["4.1 A", "4.2 B"], (3, 1)) == (
        "4 Rules (4.1 [part 3] – 4.2 [part 1])"
    )
    assert span_heading("V2", ["Requirements", "References"], (2, 0)) == (
        "V2 (Requirements [part 2] – References)"
    )
    assert span_heading(None, ["1 Scope", "2 Terms"], (0, 1)) == "1 Scope – 2 Terms [part 1]"


CHAPTERS = [
    make_row("# CHAPTER 7 Enforcement\nIntro.", "CHAPTER 7 Enforcement"),
    make_row(
        "## 2. Remedial actions\nText.\nCHAPTER 1 – INTRODUCTION\nMore text.",
        "2. Remedial actions",
        parents=("CHAPTER 7 Enforcement",),
        level=2,
    ),
    make_row(
        "## 2.1 Warnings\nWarning text.\n2.2 Penalties\nPenalty text.",
        "2.1 Warnings",
        parents=("CHAPTER 7 Enforcement", "2. Remedial actions"),
        level=3,
    ),
]


def test_a_heading_added_below_one_of_its_own_numbering_level_is_impossible() -> None:
    # A line of the section may head a chunk (an anchor, an inferred heading), but not a
    # chapter inside a chapter or 2.2 inside 2.1.
    parents = ("CHAPTER 7 Enforcement", "2. Remedial actions")
    chapter = Chunk(
        "CHAPTER 1 – INTRODUCTION\nMore text.", 9, 0, "CHAPTER 1 – INTRODUCTION", parents, 3
    )
    (violation,) = check_breadcrumbs(CHAPTERS, [chapter])
    assert violation.rule == PATH
    assert "of its own numbering level" in violation.reason
    sibling = Chunk(
        "2.2 Penalties\nPenalty text.", 9, 0, "2.2 Penalties", (*parents, "2.1 Warnings"), 4
    )
    assert [v.rule for v in check_breadcrumbs(CHAPTERS, [sibling])] == [PATH]
    # Beside 2.1, where its number puts it, 2.2 is a heading found in that section's text.
    beside = Chunk("2.2 Penalties\nPenalty text.", 9, 0, "2.2 Penalties", parents, 3)
    assert check_breadcrumbs(CHAPTERS, [beside]) == []


def test_a_heading_made_of_a_line_is_found_in_it_as_a_reader_sees_the_line() -> None:
    # The classifier titles a line as it shows: no zero-width space, the tab after a
    # number or a run of aligning spaces one space. The check finds the line all the same.
    rows = [
        make_row(
            "# 2 Terms\nTerms text.\n\u200bComplex message\nText.\n3.\tValve  checks\nText.",
            "2 Terms",
        )
    ]
    content = "Complex message\nText.\n3.\tValve  checks\nText."
    for heading in ("Complex message", "3. Valve checks"):
        assert check_breadcrumbs(rows, [chunk(0, content, heading, ("2 Terms",))]) == []
    assert [
        v.rule for v in check_breadcrumbs(rows, [chunk(0, content, "4. Pumps", ("2 Terms",))])
    ] == [PATH]


def test_a_span_end_naming_parent_and_child_alike_is_read_either_way() -> None:
    # "SC-8 (SC-8–SC-8(1))" may open on the parent's own text or on the child "SC-8 (5)-2 …",
    # whose short name is "SC-8" too: the check accepts the child unnumbered or numbered.
    paths = [("SC-8 Transmission", "SC-8 (5)-2 Prevent disclosure"), ("SC-8 Transmission",)]
    spans = [None, (("SC-8 Transmission",), ("SC-8", "SC-8(1)"))]
    assert _parts(paths, spans, 0) == (0, 2)
    assert _parts(paths, spans, 0, parent_ends_apart=True) == (0, 1)


LISTS = [
    make_row("# P\nP text.", "P"),
    make_row("## ii. Alpha\nA one.\nA two.", "ii. Alpha", parents=("P",), level=2),
    make_row("## i. Beta\nB one.", "i. Beta", parents=("P",), level=2),
    make_row("## ii. Gamma\nG one.", "ii. Gamma", parents=("P",), level=2),
    make_row("## iii. Delta\nD one.", "iii. Delta", parents=("P",), level=2),
]


def test_a_span_end_naming_two_sections_may_go_without_a_part() -> None:
    # Two lists under P: "ii" names ii. Alpha and ii. Gamma. The span after Alpha's part 2
    # opens on Gamma, which its name cannot tell from Alpha: it carries no number.
    chunks = [
        chunk(0, "# P\nP text.", "P"),
        chunk(1, "## ii. Alpha\nA one.", "ii. Alpha [part 1]", ("P",)),
        chunk(2, "A two.\n\n## i. Beta\nB one.", "P (ii [part 2] – i)"),
        chunk(3, "## ii. Gamma\nG one.\n\n## iii. Delta\nD one.", "P (ii–iii)"),
    ]
    assert check_breadcrumbs(LISTS, chunks) == []
    # An end of one section is no such excuse: "i" names i. Beta alone.
    chunks[2] = chunk(2, "A two.\n\n## i. Beta\nB one.", "P (ii – i [part 1])")
    assert [v.rule for v in check_breadcrumbs(LISTS, chunks)] == [PART]


def test_span_ends_of_one_name_may_carry_the_part_at_either_end() -> None:
    # Two sections titled alike: both ends read "Note", so either may say it holds part 2.
    rows = [
        make_row("# P\nP text.", "P"),
        make_row("## Note\nN one.\nN two.", "Note", parents=("P",), level=2),
        make_row("## Note\nM one.\nM two.", "Note", parents=("P",), level=2),
    ]

    def split(span: str) -> list[Chunk]:
        return [
            chunk(0, "# P\nP text.", "P"),
            chunk(1, "## Note\nN one.", "Note [part 1]", ("P",)),
            chunk(2, "N two.\n\n## Note\nM one.", span),
            chunk(3, "M two.", "Note [part 3]", ("P",)),
        ]

    assert check_breadcrumbs(rows, split("P (Note [part 2] – Note)")) == []
    assert check_breadcrumbs(rows, split("P (Note – Note [part 2])")) == []
    assert [v.rule for v in check_breadcrumbs(rows, split("P (Note – Note)"))] == [PART]


def test_a_span_opening_another_section_of_the_same_title_is_no_part_of_the_first() -> None:
    # A statistics output prints "Estimates" over each of its tables: the first table's
    # section is one chunk, and the span after it ("Quartiles – Estimates") holds the start
    # of the second: not a part of the first, which has one chunk and no number.
    estimates, quartiles = ("Estimates",), ("Quartiles",)
    labels = [("Estimates", ()), ("Quartiles – Estimates", ()), ("Estimates", ())]
    spanned = [frozenset(), {quartiles, estimates}, frozenset()]
    edges = [None, (quartiles, estimates), None]
    parts, ends = numbered_parts(labels, spanned, edges)
    assert parts == [0, 0, 2]
    assert ends == [(0, 0), (0, 1), (0, 0)]
    # A span that goes on from the section it follows is still among its parts.
    edges[1] = (estimates, quartiles)
    assert numbered_parts(labels[:2], spanned[:2], edges[:2])[0] == [1, 0]
