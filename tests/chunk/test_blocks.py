"""Blocks whose lines are made only when needed: stage A counts a row that fits one chunk
as a whole and leaves ``Block.paragraphs`` None; a stage that cuts such a block makes its
lines then (``paragraphs_of`` / ``counted``). Arithmetic with the 1-char tokenizer."""

from __future__ import annotations

import json
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from lightrag_pchunk.blockfile.jsonl import parse_blocks_text
from lightrag_pchunk.chunk.block_runs import BlockRun
from lightrag_pchunk.chunk.blocks import (
    counted,
    is_lead_in,
    joiner_for,
    paragraph_texts,
    paragraphs_of,
    without_blank_lines,
)
from lightrag_pchunk.chunk.heading_glue import is_heading_only
from lightrag_pchunk.chunk.pipeline import chunk_rows, to_blocks
from lightrag_pchunk.chunk.table_slices import table_slices
from lightrag_pchunk.model import UNCOUNTED, TableRole

from helpers import char_context, make_block, make_row


def test_a_row_that_fits_is_counted_whole_and_its_lines_are_not_made() -> None:
    # N=100: table_max 62, so a row of at most 62 characters is certain to fit.
    ctx = char_context(100)
    blocks = to_blocks([make_row("# A\n\n  \nbody text\n"), make_row(" \n\t")], ctx)
    assert len(blocks) == 1  # the blank row holds no text
    (block,) = blocks
    assert block.paragraphs is None
    assert block.content == "# A\nbody text"  # blank lines dropped, as when lines are made
    assert (block.tokens, block.is_exact) == (len("# A\nbody text"), True)
    assert [(p.text, p.tokens) for p in paragraphs_of(block)] == [
        ("# A", UNCOUNTED),
        ("body text", UNCOUNTED),
    ]
    assert [(p.text, p.tokens) for p in counted(block, ctx.counter).paragraphs] == [
        ("# A", 3),
        ("body text", 9),
    ]


def test_a_row_that_may_not_fit_has_every_line_made_and_counted() -> None:
    # 4.5 bytes per token of target_max: a row over 450 bytes is counted line by line.
    ctx = char_context(100)
    content = "\n".join(["# B", "x" * 300, "y" * 200])
    (block,) = to_blocks([make_row(content)], ctx)
    assert [(p.text, p.tokens) for p in block.paragraphs] == [
        ("# B", 3),
        ("x" * 300, 300),
        ("y" * 200, 200),
    ]


@given(st.text(alphabet=["a", "b", "\n", " ", "\t", "\x1c", "\x85", "\u2028", "\u3000"]))
def test_blank_lines_are_those_str_isspace_calls_blank(text) -> None:
    lines = [line for line in text.split("\n") if line and not line.isspace()]
    joined = without_blank_lines(text)
    # Every non-blank line is kept, in order, and no blank line is left but single ones
    # between paragraphs; the paragraphs read back are the text's own.
    assert [line for line in joined.split("\n") if line] == lines
    assert "\n\n\n" not in joined and not any(line.isspace() for line in joined.split("\n"))
    # One run of lines reads back as its lines: it is cut only where it would be anyway
    # (a paragraph alone over the cap is cut at its lines).
    assert paragraph_texts(joined) == paragraph_texts(text) or len(paragraph_texts(text)) <= 1


def test_a_content_with_blank_lines_has_its_runs_of_lines_as_paragraphs() -> None:
    # A Markdown row: a list and a code block stay whole; a table tag line stands alone.
    tag = '<table id="t" format="json">[["h"], ["1"]]</table>'
    content = f"## H\n\n- one\n- two\n\n```\nx = 1\n```\ntext\n{tag}\nafter\n \n"
    assert paragraph_texts(content) == [
        "## H",
        "- one\n- two",
        "```\nx = 1\n```\ntext",
        tag,
        "after",
    ]
    # Without a blank line (a .docx row) every line is a paragraph, as before.
    assert paragraph_texts("a\nb\n" + tag) == ["a", "b", tag]
    # The way back: a blank line between paragraphs only when one has several lines.
    assert joiner_for(["a", "b"]) == "\n" and joiner_for(["a", "b\nc"]) == "\n\n"


def test_merging_unmade_blocks_keeps_them_unmade_and_every_line_in_order() -> None:
    ctx = char_context(100)
    counter = ctx.counter
    a, b = to_blocks([make_row("# A\none"), make_row("two\nthree")], ctx)
    run = BlockRun(a)
    assert run.try_add([b], 100, counter)
    merged = run.build()
    assert merged.content == "# A\none\n\ntwo\nthree"
    assert merged.paragraphs is None
    # Read back from the joined text, each merged row is one paragraph (a blank line
    # separates them); one over a cap is cut at its lines (test_anchor_split).
    assert [p.text for p in paragraphs_of(merged)] == ["# A\none", "two\nthree"]
    # With a block whose lines are made, the merge makes every line.
    run = BlockRun(a)
    assert run.try_add([make_block("four", counter)], 100, counter)
    assert [(p.text, p.tokens) for p in run.build().paragraphs] == [
        ("# A", UNCOUNTED),
        ("one", UNCOUNTED),
        ("four", 4),
    ]


def test_heading_only_is_decided_on_the_lines_of_an_unmade_block() -> None:
    ctx = char_context(100)
    heading, section, mixed = to_blocks(
        [make_row("# A\n## A.1", "A"), make_row("text", "B"), make_row("text\n# C", "C")], ctx
    )
    assert [is_heading_only(b) for b in (heading, section, mixed)] == [True, False, False]


def test_an_unmade_block_with_a_table_line_over_table_max_is_sliced_like_its_twin() -> None:
    # Stage A never leaves such a block unmade; a block built so must still be sliced.
    ctx = char_context(100)
    rows = [["h", "v"]] + [[f"r{i}", "x" * 8] for i in range(12)]
    table = f'<table id="t" format="json">{json.dumps(rows)}</table>'
    twin = make_block(f"# T\n{table}", ctx.counter)
    unmade = replace(twin, paragraphs=None)
    sliced = table_slices([unmade], ctx)
    assert sliced == table_slices([twin], ctx)
    assert len(sliced) > 1
    assert sliced[0].role is TableRole.FIRST


def test_the_chunker_reads_only_the_positions_that_give_pages() -> None:
    page = {"type": "bbox", "anchor": "3", "charspan": [0, 3]}
    line = {
        "type": "content",
        "content": "# A",
        "heading": "A",
        "positions": [{"type": "paraid", "range": ["1", "2"]}, page],
    }
    text = json.dumps(line)
    every = parse_blocks_text(text).rows[0].positions
    assert every == ({"type": "paraid", "range": ["1", "2"]}, page)
    assert parse_blocks_text(text, only_pages=True).rows[0].positions == (page,)


def test_a_directives_opening_line_is_a_lead_in_and_its_fenced_block_none() -> None:
    assert is_lead_in(":::{note} Read this first")
    assert is_lead_in("```{admonition} Tip\n:class: tip")
    assert is_lead_in(":::{figure} plan.png\n---\nname: plan\n---")
    # A literal directive is one fenced block: its body and closing fence, no lead-in.
    assert not is_lead_in("```{code-block} bash\n# Using uv\n```")
    assert not is_lead_in("::: note")  # a Pandoc div's fence opens no directive


def test_a_chunk_ends_on_no_directives_opening_line_the_next_can_take() -> None:
    prose = "Some words of prose about it. " * 3
    body = []
    for step in range(6):
        body += [prose.strip(), f":::{{note}} Step {step}", f"- {prose.strip()}", ":::"]
    row = make_row("## Guide\n\n" + "\n\n".join(body), "Guide")
    chunks = chunk_rows([row], char_context(150))
    assert len(chunks) > 2
    assert not any(chunk.content.split("\n")[-1].startswith(":::{") for chunk in chunks)
