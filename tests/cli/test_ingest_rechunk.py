"""``lightrag-pchunk ingest`` after a setting changed: the stale files named with what changed,
``--dry-run`` listing what ``--rechunk`` would do, ``--rechunk`` saying what it did."""

from __future__ import annotations

import json

import pytest

from lightrag_pchunk.cli.main import main

from sample_docs import write_mixed_document


@pytest.fixture(autouse=True)
def _isolated(fresh_lightrag):
    yield


def ingest(capsys, *argv: str) -> tuple[int, list[str]]:
    code = main(["ingest", "--no-llm", "--no-progress", *argv])
    return code, capsys.readouterr().out.strip().splitlines()


def test_a_changed_size_is_reported_listed_and_rechunked(tmp_path, monkeypatch, capsys) -> None:
    docx = write_mixed_document(tmp_path / "manual.docx")
    work = ["--working-dir", str(tmp_path / "rag")]
    code, lines = ingest(capsys, *work, str(docx))
    assert code == 0 and lines[0].startswith("manual.docx: inserted (P, ")
    chunks = lines[0].split(", ")[1].split()[0]

    monkeypatch.setenv("CHUNK_P_SIZE", "1200")
    code, lines = ingest(capsys, *work, str(docx))
    assert code == 0
    assert lines == [
        f"manual.docx: stale (size 2000 -> 1200; P, {chunks} chunks); re-chunk it with "
        "--rechunk (rechunk=True)",
        f"1 file: 1 stale; working dir {tmp_path / 'rag'}",
        "1 stale (parsed or chunked with other settings than now): --rechunk re-chunks it, "
        "--dry-run lists them first",
    ]
    code, lines = ingest(capsys, *work, "--rechunk", "--dry-run", str(docx))
    assert (
        lines[0] == f"manual.docx: would be re-chunked (size 2000 -> 1200; P, {chunks} chunks now)"
    )
    assert lines[1] == f"1 file: 1 would be re-chunked; working dir {tmp_path / 'rag'}"
    assert lines[-1] == "dry run: nothing was inserted, deleted or changed"
    code, lines = ingest(capsys, *work, "--rechunk", "--json", str(docx))
    [row] = json.loads("\n".join(lines))
    assert (row["status"], row["changes"], row["dry_run"]) == (
        "re-chunked",
        ["size 2000 -> 1200"],
        False,
    )
    assert row["chunks"] > int(chunks)
    code, lines = ingest(capsys, *work, "--rechunk", str(docx))
    assert lines[0] == f"manual.docx: unchanged (P, {row['chunks']} chunks)"
