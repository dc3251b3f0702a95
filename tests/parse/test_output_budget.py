"""The output budget (parse/budget.py): tiny packages that would expand to gigabytes of text are
refused with ``output-budget`` as the text is produced, naming the variable to raise; text
within the budget is kept whole. The packages are built by ``tests/hostile_inputs.py``
(the issue's sizes where they are quick, smaller ones against a lowered limit otherwise)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import hostile_inputs as bombs
import pytest

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse import altchunk, budget
from lightrag_pchunk.parse.document import parse_docx
from lightrag_pchunk.parse.limits import PackageLimits

MIB = 1024 * 1024


def parse(tmp_path: Path, data: bytes, limits: PackageLimits | None = None):
    source = tmp_path / "bomb.docx"
    source.write_bytes(data)
    out = tmp_path / f"out{len(list(tmp_path.iterdir()))}"
    return parse_docx(source, out, limits=limits)


def refusal(tmp_path: Path, data: bytes, limits: PackageLimits | None = None) -> DocxParseError:
    before = set(tmp_path.rglob("*.parsed"))
    with pytest.raises(DocxParseError) as info:
        parse(tmp_path, data, limits)
    assert set(tmp_path.rglob("*.parsed")) == before  # nothing half-written
    return info.value


@pytest.mark.parametrize("columns", [1, 3])
def test_a_merged_cell_repeated_over_5000_rows_is_refused_before_memory_grows(
    tmp_path, columns
) -> None:
    data = bombs.merged_cell_bomb(rows=5000, cell_chars=32_000, columns=columns)
    assert len(data) < 5000  # a 160-480 MB table in a file of a few KB
    tracemalloc.start()
    try:
        error = refusal(tmp_path, data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert error.reason == "output-budget"
    assert "merged table cell" in error.detail
    assert "LIGHTRAG_PCHUNK_MAX_TEXT_RATIO" in error.detail or (
        "LIGHTRAG_PCHUNK_MAX_TEXT_CHARS" in error.detail
    )
    assert peak < 150 * MIB, f"peak {peak / MIB:.0f} MiB"


def test_merged_cells_within_the_budget_keep_every_copy(tmp_path) -> None:
    parsed = parse(tmp_path, bombs.merged_cell_bomb(rows=50, cell_chars=100, values=True))
    assert parsed.content.count("merged") == 51 * 14  # the restart row and 50 copies


def test_one_chart_referenced_thousands_of_times_is_refused(tmp_path) -> None:
    limits = PackageLimits(max_text_chars=2 * MIB)
    error = refusal(tmp_path, bombs.chart_bomb(references=2000, series=50), limits)
    assert error.reason == "output-budget"
    assert "chart" in error.detail and "LIGHTRAG_PCHUNK_MAX_TEXT_CHARS" in error.detail
    parsed = parse(tmp_path, bombs.chart_bomb(references=3, series=2))
    assert parsed.content.count("Chart title") == 3  # each reference keeps its text


def test_altchunk_fan_out_is_refused_by_the_number_of_imports(tmp_path) -> None:
    error = refusal(tmp_path, bombs.altchunk_fanout(width=30, depth=3))  # the 30x30x30
    assert error.reason == "output-budget"
    assert "more than 1000 altChunks" in error.detail
    assert "LIGHTRAG_PCHUNK_MAX_ALTCHUNKS" in error.detail
    data = bombs.altchunk_fanout(width=3, depth=3, text_chars=20)  # 3 + 9 + 27 = 39 imports
    assert refusal(tmp_path, data, PackageLimits(max_alt_chunks=38)).reason == "output-budget"
    parsed = parse(tmp_path, data, PackageLimits(max_alt_chunks=39))
    assert parsed.content.count("leaf") == 27 * 4


def test_an_html_altchunk_is_charged_before_it_is_parsed(tmp_path, monkeypatch) -> None:
    parsed_sizes: list[int] = []
    real_run = altchunk._HtmlImport.run

    def run(self, data: bytes) -> None:
        parsed_sizes.append(len(data))
        real_run(self, data)

    monkeypatch.setattr(altchunk._HtmlImport, "run", run)
    html = b"<html><body>" + b"<p>word</p>" * 50_000 + b"</body></html>"  # 550 KB, 200K chars
    # Bigger than what is left: refused before it is parsed at all.
    error = refusal(tmp_path, bombs.html_altchunk(html), PackageLimits(max_text_chars=500_000))
    assert "the altChunk word/chunk.html, per import" in error.detail and parsed_sizes == []
    # Imported 30 times, with room for one import and most of a second: refused before the
    # second is parsed, since a part imported again makes what it made the first time.
    limits = PackageLimits(max_text_chars=int(1.9 * (len(html) + 200_000)))
    error = refusal(tmp_path, bombs.html_altchunk(html, copies=30), limits)
    assert error.reason == "output-budget" and "chunk.html, imported again" in error.detail
    assert parsed_sizes == [len(html)]


def test_the_limit_is_relative_to_the_input_above_a_floor(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(budget, "TEXT_FLOOR_CHARS", 100_000)
    data = bombs.merged_cell_bomb(rows=40, cell_chars=5_000)  # ~205,000 characters
    error = refusal(tmp_path, data, PackageLimits(max_text_ratio=1))
    assert "LIGHTRAG_PCHUNK_MAX_TEXT_RATIO" in error.detail and "at least 100,000" in error.detail
    assert parse(tmp_path, data, PackageLimits(max_text_ratio=1000)).content.count("merged") > 0
    error = refusal(tmp_path, data, PackageLimits(max_text_chars=150_000, max_text_ratio=1000))
    assert "LIGHTRAG_PCHUNK_MAX_TEXT_CHARS" in error.detail


def test_the_limits_come_from_the_environment() -> None:
    env = {
        "LIGHTRAG_PCHUNK_MAX_TEXT_CHARS": "1000",
        "LIGHTRAG_PCHUNK_MAX_TEXT_RATIO": "3",
        "LIGHTRAG_PCHUNK_MAX_ALTCHUNKS": "7",
    }
    limits = PackageLimits.from_env(env)
    assert (limits.max_text_chars, limits.max_text_ratio, limits.max_alt_chunks) == (1000, 3, 7)
    defaults = PackageLimits.from_env({})
    assert (defaults.max_text_chars, defaults.max_text_ratio, defaults.max_alt_chunks) == (
        32 * MIB, 20, 1000
    )  # fmt: skip
    for name in env:
        with pytest.raises(ValueError, match=name):
            PackageLimits.from_env({name: "0"})


def test_picture_references_count_their_sidecar_items(tmp_path) -> None:
    data = bombs.picture_bomb(references=3000)
    error = refusal(tmp_path, data, PackageLimits(max_text_chars=500_000))
    assert error.reason == "output-budget" and "drawings.json item" in error.detail
    assert parse(tmp_path, bombs.picture_bomb(references=30)).drawings == 30
