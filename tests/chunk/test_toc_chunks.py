"""Tables of contents in the chunker: a TOC row is never cut at its entries (which would make
them headings), sharing a chunk only when one side is a few lines (a cover page, or a
table of contents of a few lines before a section), and dropped with drop_toc."""

from __future__ import annotations

import re

from lightrag_pchunk.chunk.pipeline import chunk_rows
from lightrag_pchunk.chunk.references import drop_toc_rows
from lightrag_pchunk.model import BlockRow

from helpers import char_context, make_row

ENTRIES = [f"AC-{n} Device Lock (M)(H)\t{n * 3}" for n in range(1, 25)]


def toc_row(lines=ENTRIES, heading: str = "Table of Contents") -> BlockRow:
    row = make_row("\n".join(lines), heading)
    row.extra["session_type"] = "toc"
    return row


def test_a_long_toc_is_packed_by_lines_never_headed_by_its_entries():
    rows = [make_row("Short preface."), toc_row(), make_row("# 1 Scope\nScope text.", "1 Scope")]
    chunks = chunk_rows(rows, char_context(300))
    assert _toc_parts(chunks) == ENTRIES
    # Entries without page numbers (a web-layout TOC) read like headings: still not anchors.
    plain = [entry.split("\t")[0] for entry in ENTRIES]
    assert _toc_parts(chunk_rows([toc_row(plain)], char_context(300))) == plain


def _toc_parts(chunks) -> list[str]:
    toc_chunks = [c for c in chunks if c.heading.startswith("Table of Contents")]
    assert len(toc_chunks) >= 2
    assert all(re.fullmatch(r"Table of Contents \[part \d+\]", c.heading) for c in toc_chunks)
    assert all(c.parent_headings == () for c in toc_chunks)
    return "\n".join(c.content for c in toc_chunks).split("\n")  # every entry once, in order


def test_a_long_toc_shares_a_chunk_with_a_few_lines_of_untitled_front_matter_only():
    # N=2000 characters: small_tail 250. A TOC of 24 entries (~700) is no "few lines".
    rows = [make_row("Short preface."), toc_row(), make_row("More preface.")]
    chunks = chunk_rows(rows, char_context(2000))
    assert [c.content for c in chunks] == [
        "\n\n".join(["Short preface.", *_joined_toc(), "More preface."])
    ]
    assert chunks[0].heading == "Table of Contents"  # the cover page hands its name over
    # A titled section after it keeps its own chunk, though both would fit.
    rows = [toc_row(), make_row("# 1 Scope\nScope text.", "1 Scope")]
    chunks = chunk_rows(rows, char_context(2000))
    assert [c.heading for c in chunks] == ["Table of Contents", "1 Scope"]


def test_a_long_toc_and_long_front_matter_keep_their_own_chunks():
    # A revision history (over small_tail) beside a long TOC: neither dilutes the other.
    history = make_row("Revision history." + " Version 1.0 approved by the board." * 12)
    chunks = chunk_rows([history, toc_row()], char_context(2000))
    assert [c.content for c in chunks] == [history.content, "\n".join(ENTRIES)]


def test_a_toc_of_a_few_lines_joins_the_section_after_it_and_takes_its_name():
    rows = [toc_row(ENTRIES[:3]), make_row("# 1 Scope\nScope text.", "1 Scope")]
    [chunk] = chunk_rows(rows, char_context(2000))
    assert chunk.heading == "1 Scope"
    assert chunk.content == "\n".join(ENTRIES[:3]) + "\n\n# 1 Scope\nScope text."


def _joined_toc() -> list[str]:
    return ["\n".join(ENTRIES)]


def test_drop_toc_keeps_everything_else_and_never_empties_a_document():
    rows = [make_row("Preface."), toc_row(), make_row("Body.", "1 Scope")]
    assert [r.content for r in drop_toc_rows(rows)] == ["Preface.", "Body."]
    only = [toc_row()]
    assert drop_toc_rows(only) == only
