"""DocxPackage: content types, relationships, the main part, limits from the environment."""

from __future__ import annotations

import csv
import io

import pytest

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.limits import PackageLimits
from lightrag_pchunk.parse.opc import Relationship
from lightrag_pchunk.parse.package import DocxPackage
from lightrag_pchunk.parse.xml import qn

from docx_builders import (
    DOCM_MAIN,
    DOCX_MAIN,
    DOTM_MAIN,
    DOTX_MAIN,
    GLOSSARY,
    XLSX_MAIN,
    build_zip,
    content_types_xml,
    docx_bytes,
    docx_entries,
    paragraph,
    rels_xml,
    style,
    styles_xml,
)
from helpers import shared_dir


def open_entries(entries, limits: PackageLimits | None = None) -> DocxPackage:
    return DocxPackage.open(build_zip(entries), limits or PackageLimits())


def refused(entries) -> DocxParseError:
    with pytest.raises(DocxParseError) as info:
        open_entries(entries)
    return info.value


# -- opening -----------------------------------------------------------------------------------


def test_opens_path_bytes_and_file_object(tmp_path):
    data = docx_bytes(paragraph("hello"))
    path = tmp_path / "a.docx"
    path.write_bytes(data)
    for source in (path, str(path), data, io.BytesIO(data)):
        with DocxPackage.open(source, PackageLimits()) as package:
            root = package.read_xml(package.main_part)
            assert "".join(root.itertext()) == "hello"
    assert DocxPackage.open(path, PackageLimits()).path == str(path)
    stream = io.BytesIO(data)
    DocxPackage.open(stream, PackageLimits(), name="upload.docx").close()
    assert not stream.closed  # the caller's file object stays open


def test_non_seekable_stream_is_buffered():
    class Pipe(io.RawIOBase):
        def __init__(self, data: bytes):
            self._data = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, buffer):
            chunk = self._data.read(len(buffer))
            buffer[: len(chunk)] = chunk
            return len(chunk)

    with DocxPackage.open(Pipe(docx_bytes(paragraph("x"))), PackageLimits()) as package:
        assert package.main_part == "word/document.xml"


def test_direct_construction_is_refused():
    with pytest.raises(TypeError):
        DocxPackage()


# -- content types -----------------------------------------------------------------------------


def test_content_type_override_beats_default_and_default_goes_by_extension():
    entries = docx_entries(extra={"word/media/image1.PNG": b"\x89PNG"})
    entries["[Content_Types].xml"] = content_types_xml(
        {"/word/document.xml": DOCX_MAIN, "/word/custom.xml": "application/x-custom+xml"},
        {"png": "image/png"},
    )
    with open_entries(entries) as package:
        assert package.content_type("word/document.xml") == DOCX_MAIN
        assert package.content_type("/WORD/Document.xml") == DOCX_MAIN
        assert package.content_type("word/other.xml") == "application/xml"
        assert package.content_type("word/custom.xml") == "application/x-custom+xml"
        assert package.content_type("word/media/image1.PNG") == "image/png"
        assert package.content_type("word/media/noext") is None


def test_missing_content_types_is_a_warning_not_a_refusal_when_the_part_is_a_document():
    entries = docx_entries(paragraph("x"))
    del entries["[Content_Types].xml"]
    with open_entries(entries) as package:
        assert package.main_part == "word/document.xml"
        assert any("[Content_Types].xml" in w for w in package.warnings)
        assert package.content_type("word/document.xml") is None


# -- relationships -----------------------------------------------------------------------------


def test_relationship_targets_relative_absolute_external_and_fragment():
    rels = [
        ("rIdRel", "image", "media/image1.png"),
        ("rIdUp", "image", "../media/shared.png"),
        ("rIdAbs", "image", "/word/media/abs.png"),
        ("rIdWeb", "hyperlink", "https://example.com/a?b=1#c", "External"),
        ("rIdBookmark", "hyperlink", "#_Toc1"),
        ("rIdEsc", "image", "media/image%201.png"),
        ("rIdMissing", "image", "media/none.png"),
    ]
    extra = {
        "word/media/image1.png": b"1",
        "media/shared.png": b"2",
        "word/media/abs.png": b"3",
        "word/media/image 1.png": b"4",
    }
    with open_entries(docx_entries(main_rels=rels, extra=extra)) as package:
        source = package.main_part
        expected = {
            "rIdRel": ("word/media/image1.png", False),
            "rIdUp": ("media/shared.png", False),
            "rIdAbs": ("word/media/abs.png", False),
            "rIdWeb": ("https://example.com/a?b=1#c", True),
            "rIdBookmark": ("#_Toc1", True),
            "rIdEsc": ("word/media/image 1.png", False),
            "rIdMissing": ("word/media/none.png", False),
        }
        for rid, (target, external) in expected.items():
            rel = package.target(source, rid)
            assert isinstance(rel, Relationship)
            assert (rel.target, rel.is_external, rel.source) == (target, external, source)
        assert package.read_bytes(package.target(source, "rIdEsc").target) == b"4"
        assert package.read_bytes(package.target(source, "rIdUp").target) == b"2"
        assert not package.has_part(package.target(source, "rIdMissing").target)
        assert package.target(source, "rIdNope") is None
        assert package.target("word/unknown.xml", "rIdRel") is None


def test_related_compares_type_tails_for_strict_and_transitional():
    strict_rel = "http://purl.oclc.org/ooxml/officeDocument/relationships/footnotes"
    rels = [("a", "footnotes", "footnotes.xml"), ("b", strict_rel, "notes2.xml")]
    with open_entries(docx_entries(main_rels=rels)) as package:
        found = package.related(package.main_part, "footnotes")
        assert [r.rid for r in found] == ["a", "b"]
        assert all(r.type_tail == "footnotes" for r in found)
        assert package.related(package.main_part, "endnotes") == []


def test_package_relationships_and_rels_of_a_part_in_the_root():
    with open_entries(docx_entries()) as package:
        (rel,) = package.relationships("")
        assert (rel.rid, rel.type_tail, rel.target) == (
            "rId1",
            "officeDocument",
            "word/document.xml",
        )
        assert package.relationships("/") == package.relationships("")


# -- the main part -----------------------------------------------------------------------------


def test_main_part_found_through_rels_not_a_fixed_path():
    entries = docx_entries(paragraph("second"), main_part="word/document2.xml")
    entries["word/document.xml"] = "<not-the-document/>"
    with open_entries(entries) as package:
        assert package.main_part == "word/document2.xml"
        assert "".join(package.read_xml(package.main_part).itertext()) == "second"


def test_main_part_in_another_folder_resolves_its_own_relative_rels():
    entries = docx_entries(
        paragraph("x"),
        main_part="content/main.xml",
        styles=styles_xml(style("Heading1", "heading 1", outline=0)),
    )
    with open_entries(entries) as package:
        assert package.part_for("styles") == "content/styles.xml"
        assert package.styles().tag == qn("w:styles")


@pytest.mark.parametrize(
    ("content_type", "kind"),
    [(DOCX_MAIN, "docx"), (DOCM_MAIN, "docm"), (DOTX_MAIN, "dotx"), (DOTM_MAIN, "dotm")],
)
def test_word_main_content_types(content_type, kind):
    with open_entries(docx_entries(main_type=content_type)) as package:
        assert package.document_kind == kind


def test_strict_package_relationships_and_namespaces():
    entries = docx_entries(
        paragraph("strict text", style="Heading1"),
        strict=True,
        styles=styles_xml(style("Heading1", "heading 1", outline=0), strict=True),
    )
    with open_entries(entries) as package:
        assert package.main_part == "word/document.xml"
        root = package.read_xml(package.main_part)
        assert root.tag == qn("w:document")  # Strict names mapped to Transitional
        assert [t.text for t in root.iter(qn("w:t"))] == ["strict text"]
        assert package.styles() is not None


def test_case_insensitive_part_names_and_backslashes():
    entries = {
        "[Content_Types].xml": content_types_xml({"/word/document.xml": DOCX_MAIN}),
        "_rels/.rels": rels_xml([("rId1", "officeDocument", "/word/document.xml")]),
        "WORD\\Document.XML": docx_entries(paragraph("odd"))["word/document.xml"],
    }
    with open_entries(entries) as package:
        assert package.main_part == "WORD/Document.XML"
        assert package.has_part("word/document.xml")
        assert package.has_part("/Word/DOCUMENT.xml")
        assert "".join(package.read_xml("word/document.xml").itertext()) == "odd"


def test_fallback_to_content_types_when_rels_name_no_main_part():
    entries = docx_entries(paragraph("x"))
    entries["_rels/.rels"] = rels_xml([])
    with open_entries(entries) as package:
        assert package.main_part == "word/document.xml"
        assert any("name no main document" in w for w in package.warnings)


def test_missing_main_part():
    entries = docx_entries()
    del entries["word/document.xml"]
    error = refused(entries)
    assert error.reason == "missing-part"
    assert "no main document" in str(error)


def test_glossary_only_package_is_refused_as_missing_main_part():
    entries = {
        "[Content_Types].xml": content_types_xml({"/word/glossary/document.xml": GLOSSARY}),
        "_rels/.rels": rels_xml([]),
        "word/glossary/document.xml": docx_entries()["word/document.xml"],
    }
    error = refused(entries)
    assert error.reason == "missing-part"
    assert "glossary" in error.detail


def test_a_workbook_is_refused_as_unsupported():
    entries = {
        "[Content_Types].xml": content_types_xml({"/xl/workbook.xml": XLSX_MAIN}),
        "_rels/.rels": rels_xml([("rId1", "officeDocument", "xl/workbook.xml")]),
        "xl/workbook.xml": "<workbook/>",
    }
    error = refused(entries)
    assert error.reason == "unsupported"
    assert "Excel" in error.detail


def test_generic_xml_content_type_accepted_only_for_a_w_document():
    entries = docx_entries(paragraph("x"), main_type="application/xml")
    with open_entries(entries) as package:
        assert package.document_kind == "docx"
        assert any("read as a Word document" in w for w in package.warnings)
    entries["word/document.xml"] = "<other/>"
    assert refused(entries).reason == "missing-part"


# -- convenience accessors ---------------------------------------------------------------------


def test_styles_numbering_notes_accessors():
    numbering = (
        '<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>'
    )
    entries = docx_entries(styles=styles_xml(), numbering=numbering)
    with open_entries(entries) as package:
        assert package.styles().tag == qn("w:styles")
        assert package.numbering().tag == qn("w:numbering")
        assert package.footnotes() is None
        assert package.endnotes() is None


def test_damaged_styles_part_is_a_warning():
    entries = docx_entries(styles="<w:styles")
    with open_entries(entries) as package:
        assert package.styles() is None
        assert any("word/styles.xml" in w for w in package.warnings)


def test_alt_chunks_kinds():
    rels = [
        ("c1", "aFChunk", "chunk.html"),
        ("c2", "aFChunk", "inner.docx"),
        ("c3", "aFChunk", "notes.txt"),
        ("c4", "aFChunk", "blob.bin"),
    ]
    inner = docx_bytes(paragraph("inner text"))
    extra = {"word/chunk.html": "<p>hi</p>", "word/inner.docx": inner, "word/notes.txt": "t"}
    entries = docx_entries(main_rels=rels, extra=extra)
    entries["[Content_Types].xml"] = content_types_xml(
        {"/word/document.xml": DOCX_MAIN, "/word/chunk.html": "text/html"}
    )
    with open_entries(entries) as package:
        chunks = {c.rid: c for c in package.alt_chunks()}
        assert chunks["c1"].kind == "html" and chunks["c1"].content_type == "text/html"
        assert chunks["c2"].kind == "docx" and chunks["c2"].exists
        assert chunks["c3"].kind == "text"
        assert chunks["c4"].kind == "other" and not chunks["c4"].exists
        assert package.alt_chunk(package.main_part, "c1") == chunks["c1"]
        assert package.alt_chunk(package.main_part, "nope") is None
        with package.open_embedded(chunks["c2"].part) as embedded:
            text = "".join(embedded.read_xml(embedded.main_part).itertext())
            assert text == "inner text"
            assert embedded.path.endswith("!word/inner.docx")


def test_embedded_packages_nest_only_to_the_limit():
    data = docx_bytes(paragraph("core"))
    for _ in range(3):
        data = docx_bytes(
            main_rels=[("c", "aFChunk", "inner.docx")], extra={"word/inner.docx": data}
        )
    limits = PackageLimits(max_embedded_depth=2)
    with DocxPackage.open(data, limits) as outer:
        one = outer.open_embedded("word/inner.docx")
        two = one.open_embedded("word/inner.docx")
        with pytest.raises(DocxParseError) as info:
            two.open_embedded("word/inner.docx")
    assert info.value.reason == "zip-budget"
    assert "LIGHTRAG_PCHUNK_MAX_EMBEDDED_DEPTH" in info.value.detail


def test_read_xml_is_cached_and_missing_part_gives_none():
    with open_entries(docx_entries(paragraph("x"))) as package:
        assert package.read_xml(package.main_part) is package.read_xml("/WORD/document.xml")
        assert package.read_xml("word/none.xml") is None
        with pytest.raises(DocxParseError) as info:
            package.read_bytes("word/none.xml")
        assert info.value.reason == "missing-part"
        assert "word/document.xml" in package.part_names


# -- limits from the environment ---------------------------------------------------------------


def test_limits_defaults_match_lightrag():
    limits = PackageLimits.from_env({})
    assert limits == PackageLimits()
    assert limits.max_uncompressed_bytes == 512 * 1024 * 1024
    assert limits.max_compression_ratio == 100
    assert limits.ratio_floor_bytes == 16 * 1024 * 1024
    assert limits.max_entries == 10_000


def test_limits_from_env_reads_lightrag_and_our_names():
    env = {
        "DOCX_MAX_UNCOMPRESSED_BYTES": "1000",
        "DOCX_MAX_COMPRESSION_RATIO": "0",
        "DOCX_RATIO_FLOOR_BYTES": "-1",
        "DOCX_MAX_ENTRIES": " 50 ",
        "LIGHTRAG_PCHUNK_MAX_XML_PART_BYTES": "2048",
        "NATIVE_DOCX_IMAGE_MAX_BYTES": "0",
        "LIGHTRAG_PCHUNK_MAX_EMBEDDED_DEPTH": "",
    }
    limits = PackageLimits.from_env(env)
    assert limits.max_uncompressed_bytes == 1000
    assert limits.max_compression_ratio == 0
    assert limits.ratio_floor_bytes == -1
    assert limits.max_entries == 50
    assert limits.max_xml_part_bytes == 2048
    assert limits.max_media_part_bytes == PackageLimits().max_media_part_bytes
    assert limits.max_embedded_depth == PackageLimits().max_embedded_depth


@pytest.mark.parametrize(
    ("var", "value"),
    [
        ("DOCX_MAX_ENTRIES", "lots"),
        ("DOCX_MAX_UNCOMPRESSED_BYTES", "512MB"),
        ("LIGHTRAG_PCHUNK_MAX_XML_PART_BYTES", "0"),
        ("LIGHTRAG_PCHUNK_MAX_EMBEDDED_DEPTH", "-2"),
    ],
)
def test_bad_env_value_names_variable_and_value(var, value):
    with pytest.raises(ValueError) as info:
        PackageLimits.from_env({var: value})
    assert var in str(info.value) and repr(value) in str(info.value)


def test_open_without_limits_reads_the_environment(monkeypatch):
    monkeypatch.setenv("DOCX_MAX_ENTRIES", "2")
    with pytest.raises(DocxParseError) as info:
        DocxPackage.open(docx_bytes())
    assert info.value.reason == "zip-budget"
    assert "DOCX_MAX_ENTRIES" in info.value.detail


def test_zero_disables_lightrag_gates():
    limits = PackageLimits(max_entries=0, max_compression_ratio=0, max_uncompressed_bytes=0)
    entries = docx_entries(extra={f"pad/{i}.bin": b"" for i in range(20)})
    entries["word/zeros.bin"] = b"\0" * (17 * 1024 * 1024)
    with open_entries(entries, limits) as package:
        assert package.main_part == "word/document.xml"


# -- the corpus --------------------------------------------------------------------------------


def corpus_files():
    shared = shared_dir()
    if shared is None:
        return []
    return sorted(p for p in (shared / "corpus" / "docx").iterdir() if p.is_file())


def test_every_corpus_file_opens_or_is_refused_cleanly():
    shared = shared_dir()
    if shared is None:
        pytest.skip("../shared (the DOCX corpus) is absent; set PCHUNK_SHARED_DIR to run this")
    with open(shared / "corpus" / "MANIFEST.tsv", encoding="utf-8") as fh:
        manifest = {row["local_name"]: row for row in csv.DictReader(fh, delimiter="\t")}
    refused_reasons = {}
    files = corpus_files()
    assert len(files) == len(manifest)
    for path in files:
        try:
            with DocxPackage.open(path, PackageLimits()) as package:
                assert package.has_part(package.main_part)
                assert package.read_xml(package.main_part).tag == qn("w:document")
                if manifest[path.name]["main_part"] == "word/document2.xml":
                    assert package.main_part == "word/document2.xml"
                package.styles(), package.numbering(), package.footnotes(), package.endnotes()
        except DocxParseError as exc:
            refused_reasons[path.name] = exc.reason
    # A theme package and a document declaring a DOCTYPE are refused; everything else opens.
    assert refused_reasons == {
        "poi__stress025-python-docx-valueerror.docx": "unsupported",
        "poi__external-entity-in-text.docx": "dtd",
    }
