"""The whole P pipeline on hand-built rows: stage order, ``[part n]`` (stage E), log keywords,
and LightRAG 1.5.7's own small vectors (facts §6.1) where we behave the same."""

from __future__ import annotations

import json
import logging

from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.pipeline import chunk_rows, to_blocks
from lightrag_pchunk.tokens import TokenCounter

from helpers import CharTokenizer, OpaqueTokenizer, char_context, make_row


def sentences(prefix: str, count: int, length: int = 40) -> str:
    filler = "s" * (length - len(prefix) - 4)
    return "\n".join(f"{prefix}{i:02d}{filler}." for i in range(count))


def test_fragments_of_one_row_are_numbered_part_1_to_n() -> None:
    ctx = char_context(100)
    rows = [
        make_row("## Long\n" + sentences("a", 6), "Long", parents=("Doc",), level=2, blockid="a"),
        make_row("## Short\nbody.", "Short", parents=("Other",), level=2, blockid="b"),
    ]
    chunks = chunk_rows(rows, ctx)
    long = [c for c in chunks if c.source_row == 0]
    assert [c.heading for c in long] == [f"Long [part {i}]" for i in range(1, len(long) + 1)]
    assert len(long) == 3
    assert all(c.parent_headings == ("Doc",) for c in long)
    assert [c.heading for c in chunks if c.source_row == 1] == ["Short"]


def test_legacy_and_stale_part_suffixes_are_replaced_never_stacked() -> None:
    ctx = char_context(100)
    rows = [
        make_row("## T\nbody text.", "Table [表格片段2]", level=2, blockid="a"),
        make_row("## U\n" + sentences("u", 6), "Other [part 7]", level=1, blockid="b"),
    ]
    chunks = chunk_rows(rows, ctx)
    assert chunks[0].heading == "Table"
    assert [c.heading for c in chunks[1:]] == ["Other [part 1]", "Other [part 2]", "Other [part 3]"]


def test_lightrag_heading_only_glue_vector() -> None:
    # facts §6.1 "heading-only glue (size=100, overlap=0)": 2.3 alone; 2.4 absorbs 2.4.1.
    ctx = char_context(100)
    rows = [
        make_row("## 2.3\n" + "a" * 40, "2.3", level=2, blockid="a"),
        make_row("## 2.4", "2.4", level=2, blockid="b"),
        make_row("### 2.4.1\n" + "b" * 40, "2.4.1", parents=("2.4",), level=3, blockid="c"),
    ]
    chunks = chunk_rows(rows, ctx)
    assert [(c.heading, c.tokens, c.block_ids) for c in chunks] == [
        ("2.3", 47, ("a",)),
        ("2.4", 58, ("b", "c")),
    ]
    assert chunks[1].content == "## 2.4\n\n### 2.4.1\n" + "b" * 40


def test_lightrag_json_table_vector_repeats_the_header_in_every_slice() -> None:
    # facts §6.1 "json table split + header re-injection (size=300)".
    rows_data = [["H1", "H2"]] + [[f"{i:02d}", "v" * 20] for i in range(12)]
    table = f'<table id="tb-x-0001" format="json">{json.dumps(rows_data)}</table>'
    ctx = Context.create(
        TokenCounter(CharTokenizer()), 300, 0, table_headers={"tb-x-0001": '[["H1", "H2"]]'}
    )
    rows = [make_row(f"# Tab\nlead\n{table}\ntrail", "Tab", blockid="t")]
    chunks = chunk_rows(rows, ctx)
    assert len(chunks) == 2  # the first slice fills the room after "# Tab\nlead"
    assert chunks[0].content.startswith("# Tab\nlead\n<table")
    assert chunks[-1].content.endswith("</table>\ntrail")
    seen = []
    for chunk in chunks:
        line = next(x for x in chunk.content.split("\n") if x.startswith("<table"))
        body = json.loads(line[line.index(">") + 1 : -len("</table>")])
        assert body[0] == ["H1", "H2"]
        seen += body[1:]
    assert seen == rows_data[1:]
    assert all(c.tokens <= 300 for c in chunks)
    assert [c.heading for c in chunks] == [f"Tab [part {i}]" for i in range(1, len(chunks) + 1)]


def test_a_row_bigger_than_table_max_stays_whole_when_it_fits_a_chunk() -> None:
    # N=400: table_max 250. A 300-character row cannot share a slice, but fits a chunk:
    # LightRAG cuts it by characters; we keep it whole as its own valid slice.
    big = ["r1", "w" * 280]
    rows_data = [["id", "text"], ["r0", "short"], big, ["r2", "short"]]
    table = f'<table id="t" format="json">{json.dumps(rows_data)}</table>'
    chunks = chunk_rows([make_row(f"# T\n{table}", "T", blockid="t")], char_context(400))
    tables = [x for c in chunks for x in c.content.split("\n") if x.startswith("<table")]
    bodies = [json.loads(x[x.index(">") + 1 : -len("</table>")]) for x in tables]
    assert any(big in body for body in bodies)
    assert all(c.tokens <= 400 for c in chunks)


def test_stage_log_keywords_are_emitted_at_debug(pchunk_logs) -> None:
    ctx = char_context(300, 40)
    rows_data = [["h", "v"]] + [[f"{i:02d}", "x" * 20] for i in range(30)]

    def table(tid: str) -> str:
        return f'<table id="{tid}" format="json">{json.dumps(rows_data)}</table>'

    content = "\n".join(
        ["# Sec", "lead.", table("t1"), "between the two tables.", table("t2"), "after."]
    )
    long_text = "## Long\n" + sentences("p", 20)
    pchunk_logs.set_level(logging.DEBUG, logger="lightrag.pchunk")
    chunk_rows(
        [make_row(content, "Sec", blockid="a"), make_row(long_text, "Long", level=2, blockid="b")],
        ctx,
    )
    text = pchunk_logs.text
    assert "table_chunk_role" in text
    assert "bridge" in text
    assert "anchor" in text


def _small_sections(count: int) -> list:
    endings = ("and so on", "as required.", "见附录。", "(see 4.2)", "v2")
    return [
        make_row(
            f"### 1.{i}\n第{i}条 内容\nClause {i} text, {endings[i % len(endings)]}",
            f"1.{i}",
            parents=("Doc", "1"),
            level=3,
            blockid=f"b{i}",
        )
        for i in range(count)
    ]


def test_with_tiktoken_merged_chunks_are_counted_exactly_without_a_second_encode(
    cl100k_tokenizer,
) -> None:
    rows = _small_sections(60)
    row_chars = sum(len(row.content) for row in rows)
    counter = TokenCounter(cl100k_tokenizer)
    chunks = chunk_rows(rows, Context.create(counter, 120, 20))
    assert 1 < len(chunks) < len(rows) / 3  # the sections were merged
    assert all(c.tokens == len(cl100k_tokenizer.encode(c.content)) for c in chunks)
    assert all(c.tokens <= 120 for c in chunks)
    # Each row (or each of its lines) was encoded once, in one batch with the others (a
    # "\n\n" between two); the merged chunks were counted from the rows' counts.
    lines = sum(row.content.count("\n") + 1 for row in rows)
    assert counter.stats.encoded_chars < row_chars + 2 * lines + 100

    opaque = TokenCounter(OpaqueTokenizer(cl100k_tokenizer))
    opaque_chunks = chunk_rows(rows, Context.create(opaque, 120, 20))
    assert all(c.tokens == len(cl100k_tokenizer.encode(c.content)) for c in opaque_chunks)
    assert all(c.tokens <= 120 for c in opaque_chunks)
    # An unrecognised tokenizer pays for a second encode of every merged chunk.
    assert opaque.stats.encoded_chars > 1.9 * row_chars


def test_a_rows_parent_levels_are_those_its_parents_headed_last_before_it() -> None:
    rows = [
        make_row("Early text.", "Early", parents=("Part",), level=3),  # Part heads no row yet
        make_row("# Part", "Part", level=2),
        make_row("### One\nText.", "One", parents=("Part",), level=3),
        make_row("### Two\nText.", "Two", parents=("Part",), level=4),
        make_row("#### Deep\nText.", "Deep", parents=("Part", "Two"), level=5),
        make_row("### Three\nText.", "Three", parents=("Part",), level=3),
        make_row("# Part", "Part", level=1),  # the same heading again, at another level
        make_row("### Four\nText.", "Four", parents=("Part",), level=3),
    ]
    blocks = to_blocks(rows, char_context(200))
    assert [b.parent_levels for b in blocks] == [(), (), (2,), (2,), (2, 4), (2,), (), (1,)]
