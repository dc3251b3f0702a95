"""Where a parse writes: the output folder's checks, with other parses running beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.document import parse_docx

from docx_builders import docx_bytes, paragraph


def test_an_output_folder_made_by_a_parse_running_beside_this_one_is_no_obstacle(
    tmp_path, monkeypatch
):
    # Ten files ingested at once into one LightRAG folder: each parse looks whether
    # ``__parsed__`` is there, and another one may make it between two look-ups.
    source = tmp_path / "doc.docx"
    source.write_bytes(docx_bytes(paragraph("Kept text")))
    out = tmp_path / "rag" / "__parsed__"
    out.parent.mkdir()
    real_is_dir = Path.is_dir
    made = []

    def made_by_the_other_parse_just_after(path: Path) -> bool:
        answer = real_is_dir(path)
        if path == out and not made:
            made.append(path)
            out.mkdir()  # the parse beside this one, right after this look-up
        return answer

    monkeypatch.setattr(Path, "is_dir", made_by_the_other_parse_just_after)
    parsed = parse_docx(source, out)
    monkeypatch.undo()
    assert made == [out]
    assert "Kept text" in parsed.blocks_path.read_text(encoding="utf-8")


def test_a_file_where_the_output_folder_goes_is_refused(tmp_path):
    source = tmp_path / "doc.docx"
    source.write_bytes(docx_bytes(paragraph("x")))
    (tmp_path / "out").write_text("a file, not a folder")
    with pytest.raises(DocxParseError) as info:
        parse_docx(source, tmp_path / "out")
    assert info.value.reason == "output"
    assert "exists and is not a folder" in str(info.value)
    assert (tmp_path / "out").read_text() == "a file, not a folder"
