"""What a new user meets first, command by command: a parser warning names its file once in
every command; an empty document is *empty* in every command (no failure, no fallback, no
"fits one chunk"); the ingest summary counts the failures by why; eval's words match its
table; help texts read as written and name every format; counts read as English; ``serve``
routes to P when LIGHTRAG_PARSER is unset and says so."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from docx import Document

from lightrag_pchunk.cli.demo_cmd import example_path
from lightrag_pchunk.cli.main import main
from lightrag_pchunk.integration.formats import FORMATS
from lightrag_pchunk.wording import counted, number_ranges, plural


@pytest.fixture(autouse=True)
def _clean_env(fresh_lightrag, monkeypatch):
    monkeypatch.delenv("DOCX_SMART_HEADING", raising=False)
    yield


def deep_document(path: Path) -> Path:
    """A .docx whose tables nest deeper than the parser follows: one parser warning."""
    document = Document()
    cell = document.add_table(rows=1, cols=1).cell(0, 0)
    for depth in range(60):
        cell.paragraphs[0].text = f"level {depth}"
        cell = cell.add_table(rows=1, cols=1).cell(0, 0)
    document.save(str(path))
    return path


def blank_document(path: Path) -> Path:
    """A .docx without text, as a blank template is."""
    path.parent.mkdir(parents=True, exist_ok=True)
    Document().save(str(path))
    return path


def command_line(command: str, source: Path, tmp_path: Path) -> list[str]:
    """``command`` run on ``source`` as a user would type it (logs shown where they are
    hidden by default)."""
    return {
        "parse": ["parse", str(source), "-o", str(tmp_path / "out")],
        "chunk": ["chunk", str(source)],
        "inspect": ["inspect", str(source), "--no-html"],
        "ingest": ["ingest", "--working-dir", str(tmp_path / "rag"), "--no-llm", str(source)],
        "eval": ["-v", "eval", str(source), "--chunkers", "P,R", "--no-progress"],
    }[command]


COMMANDS = ("parse", "chunk", "inspect", "ingest", "eval")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_parser_warning_is_shown_once_naming_its_file(tmp_path, capsys, command) -> None:
    source = deep_document(tmp_path / "deep.docx")
    main(command_line(command, source, tmp_path))
    captured = capsys.readouterr()
    shown = [line for line in (captured.out + captured.err).splitlines() if "nest deeper" in line]
    assert len(shown) == 1, shown
    assert "deep.docx: " in shown[0]


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("parse", "blank.docx: empty (the document has no text), 0 warnings, "),
        ("chunk", "blank.docx: empty: the document has no text, nothing to chunk"),
        ("inspect", "blank.docx: empty: the document has no text, nothing to chunk"),
        ("ingest", "blank.docx: empty (the document has no text): nothing to insert"),
    ],
)
def test_an_empty_document_is_empty_in_every_command(tmp_path, capsys, command, says) -> None:
    source = blank_document(tmp_path / "blank.docx")
    assert main(command_line(command, source, tmp_path)) == 0
    captured = capsys.readouterr()
    assert says in captured.out
    text = (captured.out + captured.err).lower()
    assert "fallback" not in text and "failed" not in text and "warning:" not in text


def test_eval_says_an_empty_document_has_no_text(tmp_path, capsys) -> None:
    blank = blank_document(tmp_path / "docs" / "blank.docx")
    shutil.copy(example_path(), tmp_path / "docs" / "standard.docx")
    code = main(["eval", str(blank.parent), "--size", "300", "--chunkers", "P,R,F"])
    out = capsys.readouterr().out
    assert code == 0
    assert "  blank.docx: the document has no text\n" in out
    assert "fits" not in out.split("blank.docx", 1)[1].split("\n", 1)[0]


def test_the_ingest_summary_counts_failures_by_why(tmp_path, capsys) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(example_path(), folder / "standard.docx")
    blank_document(folder / "blank.docx")
    (folder / "broken.docx").write_bytes(b"not a zip")
    missing = tmp_path / "missing.docx"
    code = main(["ingest", "--working-dir", str(tmp_path / "rag"), "--no-llm", str(folder),
                 str(missing)])  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    assert lines[-1] == (
        "4 files: 1 inserted, 1 empty (no text), 2 failed (cannot parse: 1, missing: 1);"
        f" working dir {tmp_path / 'rag'}"
    )
    assert "broken.docx: FAILED: cannot parse: " in "\n".join(lines)


def test_eval_names_the_contenders_that_cut_a_document_that_fits(tmp_path, capsys) -> None:
    # 260 tokens at N=300, overlap 100: F's windows start every 200 tokens, so F returns a
    # second chunk of overlap only; P keeps the text whole.
    words = " ".join(f"word{index}" for index in range(130))
    (tmp_path / "short.md").write_text(f"# Short\n\n{words}.\n", encoding="utf-8")
    main(["eval", str(tmp_path / "short.md"), "--size", "300", "--overlap", "100",
          "--chunkers", "P,F", "--no-progress"])  # fmt: skip
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if line.startswith("  short.md: ")]
    assert re.fullmatch(
        r"  short\.md: fits in N \(\d+ tokens <= N=300\): no questions asked of it; still cut"
        r" by F \(2 chunks\), whose cost counts",
        line,
    ), line
    assert "every chunker returns it whole" not in out


def test_eval_help_reads_as_written(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "%%" not in text and "95% bootstrap intervals" in text
    retriever = text.split("--retriever {bm25,embedding} ", 1)[1].split("--rag-factory", 1)[0]
    assert "bm25 (lexical, offline; default)" in retriever
    assert "docling is docling's HybridChunker" in text


@pytest.mark.parametrize("command", ["parse", "chunk", "inspect", "ingest", "eval"])
def test_the_help_names_every_format_a_command_reads(capsys, command) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for fmt in FORMATS:
        assert fmt.display in text, f"{command} --help does not name {fmt.display}"
    assert "A Word file is parsed first" not in text


def test_the_top_level_help_names_every_format(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert all(fmt.display in text for fmt in FORMATS)


#: A count of one with a plural noun: ``1 files``, ``1 chunks``.
_ONE_PLURAL = re.compile(
    r"(?<![\d.,/=])\b1 (files|chunks|blocks|tables|equations|drawings|warnings|questions|"
    r"documents|rows|errors|headings|slices|calls|pages|parser warnings|tables of contents)\b"
)


def test_counts_of_one_read_as_english(tmp_path, capsys) -> None:
    one = tmp_path / "one.md"
    one.write_text("# One\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nOne paragraph.\n", "utf-8")
    outputs = []
    for command in ("parse", "chunk", "inspect", "ingest", "eval"):
        main(command_line(command, one, tmp_path))
        captured = capsys.readouterr()
        outputs.append(captured.out + captured.err)
    text = "\n".join(outputs)
    assert not _ONE_PLURAL.findall(text), _ONE_PLURAL.findall(text)
    assert "1 file:" in text and "1 chunk" in text and "1 table," in text


def test_counted_and_plural() -> None:
    assert [counted(n, "file") for n in (0, 1, 2)] == ["0 files", "1 file", "2 files"]
    assert counted(1, "table of contents") == "1 table of contents"
    assert counted(3, "table of contents") == "3 tables of contents"
    assert [plural(w) for w in ("entry", "match", "day", "box")] == [
        "entries",
        "matches",
        "days",
        "boxes",
    ]


def test_number_ranges_join_runs_of_consecutive_numbers_in_the_order_given() -> None:
    assert number_ranges([3, 5, 6, 7, 8, 9, 12]) == "3, 5-9, 12"
    assert number_ranges([1, 2]) == "1-2"
    assert number_ranges([7]) == "7"
    assert number_ranges([]) == ""
    # Not sorted: a run counts upwards only, a repeat starts a new one.
    assert number_ranges([4, 5, 2, 3, 3]) == "4-5, 2-3, 3"


def run_serve(monkeypatch, capsys, argv: list[str], folder: Path) -> tuple[str, str]:
    """``serve`` with LightRAG's server stubbed, in ``folder`` (it locks its working dir
    there): the LIGHTRAG_PARSER it would start with, and what ``serve`` printed."""
    pytest.importorskip("fastapi")
    config = pytest.importorskip("lightrag.api.config")
    # serve reads LightRAG's server configuration, which LightRAG keeps for the process: a
    # later test must not take this folder for a running server's --input-dir.
    monkeypatch.setattr(config, "_initialized", config._initialized)
    monkeypatch.setattr(config, "_global_args", config._global_args)
    monkeypatch.chdir(folder)
    seen: list[str] = []
    import os

    stub = SimpleNamespace(main=lambda: seen.append(os.environ.get("LIGHTRAG_PARSER", "")) or 0)
    monkeypatch.setitem(sys.modules, "lightrag.api.lightrag_server", stub)
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    from lightrag_pchunk.integration import plugin

    was_installed = plugin.is_installed()
    try:
        assert main(argv) == 0
    finally:
        # serve installs our P into LightRAG for the process: later tests start without it.
        if not was_installed:
            plugin.uninstall()
    return seen[0], capsys.readouterr().err


def test_serve_without_lightrag_parser_routes_every_format_to_p_and_says_so(
    monkeypatch, capsys, tmp_path
) -> None:
    monkeypatch.setenv("LIGHTRAG_PARSER", "")  # restored afterwards: serve sets it
    routing, err = run_serve(monkeypatch, capsys, ["serve"], tmp_path)
    for fmt in FORMATS:
        for suffix in fmt.suffixes:
            assert f"{suffix}:pchunk-P" in routing.split(";")
    assert f"LIGHTRAG_PARSER unset, so serve routes {routing} (our parser and P;" in err


def test_serve_keeps_a_lightrag_parser_that_is_set(monkeypatch, capsys, tmp_path) -> None:
    monkeypatch.setenv("LIGHTRAG_PARSER", "docx:native-P;*:legacy-R")
    routing, err = run_serve(monkeypatch, capsys, ["serve"], tmp_path)
    assert routing == "docx:native-P;*:legacy-R"
    assert "LIGHTRAG_PARSER=docx:native-P;*:legacy-R" in err
