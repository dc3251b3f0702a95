"""``lightrag-pchunk parse``: one line per file, folders in parallel, exit codes."""

from __future__ import annotations

import io
import json

from docx import Document

from lightrag_pchunk.cli.main import main
from lightrag_pchunk.cli.parse_cmd import Progress
from lightrag_pchunk.integration.formats import collect_files


def write(path, text: str | None = "Hello"):
    """A .docx made with python-docx holding one paragraph (none when ``text`` is None)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    document = Document()
    if text is not None:
        document.add_paragraph(text)
    document.save(path)
    return path


def test_one_file_prints_one_line_and_writes_the_artefacts(tmp_path, capsys):
    source = write(tmp_path / "a.docx")
    assert main(["parse", str(source), "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 2
    assert out[0].startswith("a.docx: 1 block, 0 tables, 0 equations, 0 drawings, 0 warnings, ")
    assert out[1].startswith("1 file: 1 parsed (0 with warnings), 0 refused, 0 parser errors, ")
    blocks = tmp_path / "out" / "a.docx.parsed" / "a.blocks.jsonl"
    assert out[0].endswith(f"-> {blocks}")
    assert json.loads(blocks.read_text().splitlines()[1])["content"] == "Hello"


def test_default_output_is_lightrags_parsed_folder(tmp_path, capsys):
    source = write(tmp_path / "docs" / "b.docx")
    assert main(["parse", str(source)]) == 0
    assert (tmp_path / "docs" / "__parsed__" / "b.docx.parsed" / "b.blocks.jsonl").is_file()


def test_a_folder_is_parsed_in_parallel_and_a_refusal_sets_the_exit_code(tmp_path, capsys):
    folder = tmp_path / "in"
    for name in ("one.docx", "sub/two.docm", "three.DOCX"):
        write(folder / name, name)
    (folder / "~$one.docx").write_bytes(b"lock file")  # Word's lock files are skipped
    (folder / "bad.docx").write_bytes(b"not a zip at all")
    (folder / "notes.txt").write_text("ignored")
    code = main(["parse", str(folder), "-o", str(tmp_path / "out"), "--jobs", "2"])
    captured = capsys.readouterr()
    *lines, summary = captured.out.strip().splitlines()
    lines = sorted(lines)
    assert summary.startswith("4 files: 3 parsed (0 with warnings), 1 refused, 0 parser errors, ")
    assert code == 1
    assert [line.split(":")[0] for line in lines] == [
        "bad.docx",
        "one.docx",
        "three.DOCX",
        "two.docm",
    ]
    assert "REFUSED [not-a-zip]" in lines[0]
    assert all(": 1 block, " in line for line in lines[1:])


def test_missing_paths_and_empty_folders(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["parse", str(tmp_path / "empty")]) == 2
    expected = "no Word (.docx, .docm, .dotx, .dotm), Markdown (.md, .markdown) or PDF (.pdf) files"
    assert expected in capsys.readouterr().err
    source = write(tmp_path / "c.docx")
    assert main(["parse", str(source), str(tmp_path / "missing.docx")]) == 1
    captured = capsys.readouterr()
    assert "missing.docx: no such file or folder" in captured.err
    assert captured.out.startswith("c.docx: 1 block, ")


def test_inputs_with_the_same_name_do_not_overwrite_each_other(tmp_path, capsys):
    first = write(tmp_path / "x" / "same.docx", "first")
    second = write(tmp_path / "y" / "same.docx", "second")
    code = main(["parse", str(first), str(second), "-o", str(tmp_path / "out"), "-j", "1"])
    out = capsys.readouterr().out
    assert code == 1
    assert "REFUSED [duplicate-name]" in out
    blocks = tmp_path / "out" / "same.docx.parsed" / "same.blocks.jsonl"
    assert json.loads(blocks.read_text().splitlines()[1])["content"] == "first"


def test_an_empty_document_is_said_empty_not_a_warning_or_a_refusal(tmp_path, capsys):
    source = write(tmp_path / "empty.docx", None)
    assert main(["parse", str(source), "-o", str(tmp_path / "out")]) == 0
    captured = capsys.readouterr()
    line, summary = captured.out.splitlines()
    assert line.startswith("empty.docx: empty (the document has no text), 0 warnings, ")
    assert summary.startswith("1 file: 0 parsed (0 with warnings), 1 empty (no text), 0 refused")
    assert captured.err == ""


def test_progress_bar_draws_counts_and_erases_itself():
    stream = io.StringIO()
    bar = Progress(4, stream, width=8)
    bar.step("a.docx")
    bar.step("b.docx")
    assert "[####----] 2/4 b.docx" in stream.getvalue()
    bar.finish()
    assert stream.getvalue().endswith("\r")


def test_collect_files_skips_parsed_output_and_duplicates(tmp_path):
    folder = tmp_path / "in"
    doc = write(folder / "d.docx")
    write(folder / "__parsed__" / "old.docx")
    files, missing = collect_files([str(folder), str(doc), str(tmp_path / "nope")])
    assert files == [doc]
    assert missing == [str(tmp_path / "nope")]


def test_glob_chooses_the_files_of_a_folder(tmp_path, capsys):
    folder = tmp_path / "in"
    write(folder / "keep" / "a.docx")
    write(folder / "skip" / "b.docx")
    assert main(["parse", str(folder), "-o", str(tmp_path / "out"), "--glob", "keep/*"]) == 0
    *lines, summary = capsys.readouterr().out.strip().splitlines()
    assert [line.split(":")[0] for line in lines] == ["a.docx"]
    assert summary.startswith("1 file: 1 parsed")
