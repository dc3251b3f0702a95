"""``lightrag-pchunk ingest`` on the storages and workspace ``lightrag-server`` takes from the
environment (``LIGHTRAG_*_STORAGE``, ``WORKSPACE``, ``--workspace``), a factory that does not
follow them, and a storage LightRAG does not know. On PostgreSQL:
``tests/integration/test_server_postgres.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lightrag_pchunk.cli.main import main

from sample_docs import write_mixed_document


@pytest.fixture(autouse=True)
def _isolated(fresh_lightrag):
    yield


def test_ingest_puts_the_files_in_the_workspace_and_says_so(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("WORKSPACE", "team_a")
    docx = write_mixed_document(tmp_path / "manual.docx")
    work = tmp_path / "rag"
    assert main(["ingest", "--working-dir", str(work), "--no-llm", "--no-progress", str(docx)]) == 0
    out = capsys.readouterr().out
    assert "manual.docx: inserted (P, " in out
    assert out.strip().endswith(
        f"1 file: 1 inserted; working dir {work} (key-value and doc status and vectors and"
        f" graph in files of {work}/team_a)"
    )
    assert (work / "team_a" / "kv_store_doc_status.json").is_file()
    assert not (work / "kv_store_doc_status.json").exists()


FACTORY = """
from lightrag_pchunk.cli.offline_models import build_offline_rag

def make(working_dir):
    return build_offline_rag(working_dir)
"""


def test_a_factory_that_ignores_the_variables_is_used_with_a_note(
    tmp_path, monkeypatch, capsys
) -> None:
    (tmp_path / "plainfactory.py").write_text(FACTORY, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("LIGHTRAG_GRAPH_STORAGE", "NetworkXStorage")  # what it uses: no note
    monkeypatch.setenv("LIGHTRAG_VECTOR_STORAGE", "FaissVectorDBStorage")
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nA short note about pumps.\n", encoding="utf-8")
    argv = ["ingest", "--working-dir", str(tmp_path / "rag"), "--no-progress"]
    code = main([*argv, "--rag-factory", "plainfactory:make", str(note)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    notes = [line for line in captured.err.splitlines() if line.startswith("note: ")]
    assert notes == [
        "note: LIGHTRAG_VECTOR_STORAGE=FaissVectorDBStorage but NanoVectorDBStorage in the "
        "factory's LightRAG, which is used as it is; build it with LightRAG(..., "
        "**lightrag_pchunk.storage_options()) to use the storages lightrag-server uses"
    ]
    sys.modules.pop("plainfactory", None)


def test_a_storage_lightrag_does_not_know_is_a_configuration_error(
    tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("LIGHTRAG_KV_STORAGE", "PGKVStorge")
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nText.\n", encoding="utf-8")
    code = main(["ingest", "--working-dir", str(tmp_path / "rag"), "--no-llm", str(note)])
    assert code == 2
    assert "PGKVStorge" in capsys.readouterr().err
    assert not Path(tmp_path / "rag" / "kv_store_doc_status.json").exists()
