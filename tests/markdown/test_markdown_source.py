"""Reading a Markdown file: encodings, files that are not text, size limits, hostile input
that must neither crash nor exhaust the parser."""

from __future__ import annotations

import codecs
import json
import os
import zipfile

import pytest

from lightrag_pchunk.errors import DocumentParseError, MarkdownParseError
from lightrag_pchunk.markdown.document import parse_markdown
from lightrag_pchunk.markdown.source import MarkdownLimits, MarkdownText, read_markdown

TEXT = "# 标题 Title\n\nCafé — naïve text, 第一条 规定。\r\nSecond line.\n"


@pytest.mark.parametrize(
    "data",
    [
        TEXT.encode("utf-8"),
        codecs.BOM_UTF8 + TEXT.encode("utf-8"),
        TEXT.encode("utf-16"),  # with its BOM (little-endian here)
        codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"),
        TEXT.encode("gb18030"),
    ],
    ids=["utf-8", "utf-8-bom", "utf-16-le", "utf-16-be", "gb18030"],
)
def test_every_supported_encoding_reads_the_same_text(tmp_path, data):
    source = tmp_path / "a.md"
    source.write_bytes(data)
    text = read_markdown(source, MarkdownLimits()).text
    assert text == TEXT.replace("\r\n", "\n")  # BOM gone, line ends made \n


def test_every_supported_encoding_is_named_in_the_meta_row(tmp_path):
    source = tmp_path / "a.md"
    source.write_bytes(TEXT.encode("utf-16"))
    parsed = parse_markdown(source, tmp_path / "out")
    assert parsed.meta["source_encoding"] == "utf-16"
    first = json.loads(parsed.blocks_path.read_text(encoding="utf-8").splitlines()[0])
    assert first["source_encoding"] == "utf-16"


GERMAN = "# Verkehr\n\nDie Straße führt über die Brücke.\n"


def test_windows_1252_german_is_read_as_windows_1252_not_gb18030(tmp_path):
    """Its bytes are valid GB18030 too (Die Stra遝 f黨rt 黚er die Br點ke): the detector's
    evidence decides, and the parse says which encoding it used."""
    source = tmp_path / "de.md"
    source.write_bytes(GERMAN.encode("cp1252"))
    parsed = parse_markdown(source, tmp_path / "out")
    assert parsed.rows[0].content == "# Verkehr\n\nDie Straße führt über die Brücke."
    assert parsed.meta["source_encoding"] == "cp1252"
    assert parsed.warnings == ("decoded as cp1252 (the file is not UTF-8)",)


FRENCH = (
    "# Règlement intérieur\n\nL'élève doit se présenter à l'accueil avant de se rendre en "
    "salle. Les sorties sont autorisées à midi et à quatorze heures. Le délégué de classe "
    "représente ses camarades auprès des professeurs et de la direction ; il est élu pour "
    "l'année scolaire entière.\n\n## Sécurité\n\nEn cas d'incendie, les élèves suivent les "
    "consignes affichées près de la porte.\n"
)


@pytest.mark.parametrize(
    ("text", "encoding", "named"),
    [
        (FRENCH, "cp1252", "cp1252"),
        ("# Wstęp\n\nZażółć gęślą jaźń. Prawo jazdy wydaje starosta właściwy ze względu na "
         "miejsce pobytu stałego osoby ubiegającej się.\n", "cp1250", "cp1250"),
        ("# Введение\n\nНастоящий стандарт устанавливает общие требования безопасности при "
         "эксплуатации холодильных складов.\n", "cp1251", "cp1251"),
        ("# 第一章 总则\n\n本标准规定了冷库安全的基本要求，适用于新建、扩建和改建的冷库。\n",
         "gb18030", "gb18030"),
        ("# 总则\n\n冷库安全。\n", "gb18030", "gb18030"),  # tied with cp949: mostly Han
        ("# 總則\n\n本標準規定了冷庫安全的基本要求，適用於新建、擴建和改建的冷庫。\n",
         "big5", "big5"),
        ("# はじめに\n\nこの文書は冷蔵倉庫の安全基準について説明します。\n", "shift_jis", "cp932"),
        ("# 서론\n\n이 문서는 냉동 창고의 안전 기준을 설명합니다.\n", "euc_kr", "cp949"),
    ],
    ids=["french", "polish", "russian", "chinese", "short-chinese", "big5", "japanese", "korean"],
)  # fmt: skip
def test_a_legacy_code_page_is_read_when_the_evidence_names_it(tmp_path, text, encoding, named):
    source = tmp_path / "a.md"
    source.write_bytes(text.encode(encoding))
    assert read_markdown(source, MarkdownLimits()) == MarkdownText(text, named)


def test_a_code_page_the_evidence_cannot_tell_is_refused_naming_both_readings(tmp_path):
    source = tmp_path / "a.md"
    source.write_bytes("El niño comió mañana una piña.\n".encode("latin-1"))
    with pytest.raises(MarkdownParseError) as caught:
        parse_markdown(source, tmp_path / "out")
    assert caught.value.reason == "encoding"
    assert "cp1252 ('niño')" in str(caught.value) and "cp1250 ('nińo')" in str(caught.value)


def test_characters_lightrag_strips_are_removed_before_parsing(tmp_path):
    source = tmp_path / "a.md"
    source.write_bytes("a\x0bb\x0cc\x1bd\ufffe e\r".encode())
    assert read_markdown(source, MarkdownLimits()).text == "abcd e\n"


@pytest.mark.parametrize(
    ("data", "reason", "words"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary", "a PNG image"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\x00", "binary", "a PDF"),
        (b"plain text\x00with a NUL", "binary", "NUL bytes"),
        (bytes(range(1, 9)) * 200 + b"text", "binary", "binary control"),
        (b"\xff\xfeA\x00\x00\xd8", "encoding", "UTF-16"),  # a lone surrogate
        (b"caf\xe9 \x80\x80\xff", "encoding", "not UTF-8"),
    ],
    ids=["png", "pdf", "nul", "controls", "bad-utf16", "latin1"],
)
def test_a_file_that_is_not_text_is_refused_with_its_reason(tmp_path, data, reason, words):
    source = tmp_path / "a.md"
    source.write_bytes(data)
    with pytest.raises(MarkdownParseError) as caught:
        parse_markdown(source, tmp_path / "out")
    assert caught.value.reason == reason and words in str(caught.value)
    assert isinstance(caught.value, DocumentParseError)
    assert not (tmp_path / "out" / "a.md.parsed").exists()  # nothing half written


def test_a_docx_renamed_md_is_called_a_zip(tmp_path):
    source = tmp_path / "report.md"
    with zipfile.ZipFile(source, "w") as archive:
        archive.writestr("word/document.xml", "<w:document/>")
    with pytest.raises(MarkdownParseError, match=r"a zip package \(a \.docx\?\)"):
        parse_markdown(source, tmp_path / "out")


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    source = tmp_path / "big.md"
    source.write_text("x" * 2000, encoding="utf-8")
    monkeypatch.setenv("LIGHTRAG_PCHUNK_MAX_MARKDOWN_BYTES", "1000")
    with pytest.raises(MarkdownParseError) as caught:
        parse_markdown(source, tmp_path / "out")
    assert caught.value.reason == "too-large"
    assert "LIGHTRAG_PCHUNK_MAX_MARKDOWN_BYTES" in str(caught.value)


def test_a_file_that_grew_after_its_size_was_read_is_read_whole_or_refused(tmp_path, monkeypatch):
    import os
    from pathlib import Path

    source = tmp_path / "grows.md"
    source.write_text("y" * 900, encoding="utf-8")
    real_stat = Path.stat

    def stat_before_growth(self, *args, **kwargs):  # the size it had when it was stat'ed
        result = real_stat(self, *args, **kwargs)
        return os.stat_result((*result[:6], 10, *result[7:])) if self == source else result

    monkeypatch.setattr(Path, "stat", stat_before_growth)
    assert read_markdown(source, MarkdownLimits(max_bytes=1000)).text == "y" * 900
    with pytest.raises(MarkdownParseError) as caught:
        read_markdown(source, MarkdownLimits(max_bytes=500))
    assert caught.value.reason == "too-large" and "grew" in str(caught.value)


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("LIGHTRAG_PCHUNK_MAX_MARKDOWN_BYTES", "lots", "must be an integer, got 'lots'"),
        ("NATIVE_MD_IMAGE_MAX_BYTES", "0", "must be >= 1, got '0'"),
    ],
)
def test_bad_limits_name_the_variable(variable, value, message):
    with pytest.raises(ValueError, match=rf"{variable} \(env\) {message}"):
        MarkdownLimits.from_env({variable: value})


def test_limits_from_the_environment(monkeypatch):
    env = {"NATIVE_MD_IMAGE_MAX_TOTAL_BYTES": "5", "LIGHTRAG_PCHUNK_MAX_MARKDOWN_BYTES": ""}
    limits = MarkdownLimits.from_env(env)
    assert (limits.max_images_total_bytes, limits.max_bytes) == (5, MarkdownLimits().max_bytes)


#: Hostile inputs and a word each must keep (pulldown-cmark is linear on all of them).
HOSTILE = {
    "deep quotes": ("> " * 20_000 + "deep\n", "deep"),
    "deep lists": ("".join("  " * i + f"- x{i}\n" for i in range(2_000)), "x1999"),
    "open brackets": ("[" * 100_000 + "\n\ntext\n", "text"),
    "emphasis": ("*a" * 50_000 + "end\n", "end"),
    "wide table": (
        "|" + "a|" * 5_000 + "\n|" + "-|" * 5_000 + "\n" + ("|" + "b|" * 5_000 + "\n") * 5,
        '"b"',
    ),
    "unclosed fence": ("# A\n\n```\n" + "code\n" * 10_000 + "last\n", "last"),
    "html": ("<div>" * 50_000 + "\n\ntext\n", "text"),
    "many headings": ("".join(f"{'#' * (1 + i % 6)} h{i}\n" for i in range(20_000)), "h19999"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_markdown_parses_and_keeps_its_text(tmp_path, name):
    text, word = HOSTILE[name]
    source = tmp_path / "h.md"
    source.write_text(text, encoding="utf-8")
    parsed = parse_markdown(source, tmp_path / "out")
    lines = parsed.blocks_path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["blocks"] == len(parsed.rows) == len(lines) - 1
    assert word in parsed.content


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_fifo_or_a_folder_named_md_is_refused_as_no_regular_file(tmp_path, kind):
    source = tmp_path / "notes.md"
    if kind == "fifo":
        os.mkfifo(source)  # a read would wait for a writer for ever
    else:
        source.mkdir()
    with pytest.raises(MarkdownParseError) as caught:
        parse_markdown(source, tmp_path / "out")
    assert caught.value.reason == "not-a-file"
    expected = "a FIFO (named pipe), not a regular file" if kind == "fifo" else "a folder"
    assert expected in str(caught.value)


def test_a_name_too_long_for_the_parsed_files_is_refused_in_one_line(tmp_path):
    source = tmp_path / ("a" * 250 + ".md")  # 253 bytes: a.equations.json would be 265
    source.write_text("# T\n\nText.\n", encoding="utf-8")
    with pytest.raises(MarkdownParseError) as caught:
        parse_markdown(source, tmp_path / "out")
    assert caught.value.reason == "name-too-long"
    assert "up to 265 bytes, over the file system's limit of 255" in str(caught.value)
    assert "at most 240 bytes before the extension" in str(caught.value)
    assert not (tmp_path / "out").exists()  # refused before anything is written
