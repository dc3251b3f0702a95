"""`lightrag-pchunk demo`: the whole job on the bundled example, in-process and offline, with
its own checks (LightRAG stored our chunks; the right section is retrieved)."""

from __future__ import annotations

import json

import pytest

from lightrag_pchunk.cli import demo_cmd
from lightrag_pchunk.cli.main import main


@pytest.fixture(autouse=True)
def _isolated(fresh_lightrag):
    yield


def test_demo_inserts_into_lightrag_and_retrieves_the_expected_section(
    tmp_path, capsys, monkeypatch
) -> None:
    # The demo shows the defaults whatever the environment says.
    monkeypatch.setenv("LIGHTRAG_PARSER", "docx:native-R")
    monkeypatch.setenv("CHUNK_P_SIZE", "300")
    work = tmp_path / "rag"
    code = main(["demo", "--working-dir", str(work)])
    captured = capsys.readouterr()
    out = captured.out
    assert code == 0, captured.err
    assert "note: the demo ignores LIGHTRAG_PARSER, CHUNK_P_SIZE" in out
    assert "cold-store-safety-standard.docx: inserted (P, 7 chunks)" in out
    assert "LightRAG's text_chunks hold the same 7 chunks" in out
    # What it says of the chunks is what its table shows: chunks named by the span they hold.
    assert "the chunk names the span of sections it holds (#0 and #6)." in out
    assert "best chunk #6: 6 Incident reporting 事故报告" in out
    assert "> ## 6.2 Notification deadlines" in out
    assert 'OK: the answer ("within 4 hours") comes from "6 Incident reporting 事故报告"' in out
    assert "Demo passed" in out
    assert "INFO" not in out + captured.err  # LightRAG's INFO lines only with -v
    stored = json.loads((work / "kv_store_text_chunks.json").read_text(encoding="utf-8"))
    assert len(stored) == 7
    headings = {row["heading"]["heading"] for row in stored.values()}
    # The breadcrumbs LightRAG stores: a span where a chunk holds several sections, parts
    # counted per heading (5.1's first part shares the chunk of 5: its other has none).
    assert {"1 Scope 适用范围 – 3 Operation of the cold store", "5.1 Inspection checklists",
            "4 Temperature monitoring [part 3]"} <= headings  # fmt: skip
    assert all({"parent_headings", "level"} <= set(row["heading"]) for row in stored.values())


def test_demo_fails_loudly_when_the_wrong_section_comes_back(capsys, monkeypatch) -> None:
    monkeypatch.setattr(demo_cmd, "EXPECTED_SECTION", "1 Scope 适用范围")
    code = main(["demo"])
    err = capsys.readouterr().err
    assert code == 1
    assert "the best chunk for the question is '6 Incident reporting 事故报告 – References'" in err


def test_demo_refuses_bad_sizes(capsys) -> None:
    assert main(["demo", "--size", "100", "--overlap", "100"]) == 2
    assert "--overlap < --size" in capsys.readouterr().err
