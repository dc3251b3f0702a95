"""Hostile packages: each is refused with a stable reason (or ignored with a warning), quickly,
in bounded memory, and without any other exception."""

from __future__ import annotations

import io
import json
import random
import tracemalloc
import zipfile

import pytest

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.limits import PackageLimits
from lightrag_pchunk.parse.package import DocxPackage
from lightrag_pchunk.parse.xml import parse_xml

from docx_builders import (
    build_zip,
    document_xml,
    docx_bytes,
    docx_entries,
    paragraph,
    patch_declared_size,
    patch_flags,
    rels_xml,
    rename_entry,
    write_streamed_zip,
)

MIB = 1024 * 1024
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
PASSWD_MARKERS = ("root:", "/bin/", "nologin")


def open_and_read(source, limits: PackageLimits | None = None) -> DocxPackage:
    """Open and parse the main part, as the walk will."""
    package = DocxPackage.open(source, limits or PackageLimits())
    try:
        package.read_xml(package.main_part)
    except BaseException:
        package.close()
        raise
    return package


def reason_of(source, limits: PackageLimits | None = None) -> DocxParseError:
    with pytest.raises(DocxParseError) as info:
        open_and_read(source, limits).close()
    return info.value


# -- not a zip ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "hint"),
    [
        (b"", "empty"),
        (b"just some text, certainly not a zip", "not a .docx"),
        (b"{\\rtf1\\ansi hello}", "RTF"),
        (b"%PDF-1.7\n", "PDF"),
        (b'<?xml version="1.0"?><w:wordDocument/>', "XML"),
    ],
)
def test_not_a_zip(data, hint):
    error = reason_of(data)
    assert error.reason == "not-a-zip"
    assert hint in error.detail


def test_truncated_zip():
    data = docx_bytes(paragraph("x" * 5000))
    error = reason_of(data[: len(data) // 2])
    assert error.reason == "not-a-zip"
    assert "damaged or truncated" in error.detail


def ole_file(*streams: str) -> bytes:
    """A minimal stand-in for a compound file: the magic, then directory entry names."""
    header = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504
    return header + b"".join(s.encode("utf-16-le") + b"\0" * 64 for s in streams)


def test_ole_encrypted_package():
    error = reason_of(ole_file("EncryptionInfo", "EncryptedPackage"))
    assert error.reason == "encrypted"
    assert "password" in error.detail


def test_ole_legacy_word_document():
    error = reason_of(ole_file("WordDocument", "1Table"))
    assert error.reason == "legacy-doc"
    assert "save it as .docx" in error.detail


def test_ole_marker_split_across_read_chunks():
    padding = b"\0" * (1024 * 1024 - 520)  # puts the marker across the 1 MiB read boundary
    error = reason_of(ole_file() + padding + "EncryptedPackage".encode("utf-16-le"))
    assert error.reason == "encrypted"


# -- zip budget (declared) ---------------------------------------------------------------------


def test_huge_declared_size_is_refused_before_reading():
    data = build_zip(docx_entries(extra={"word/media/big.bin": b"x" * 100}))
    data = patch_declared_size(data, "word/media/big.bin", 0xFFFFFF00)
    error = reason_of(data)
    assert error.reason == "zip-budget"
    assert "DOCX_MAX_UNCOMPRESSED_BYTES" in error.detail


def test_high_ratio_zip_bomb_is_refused_before_reading():
    entries = docx_entries(extra={"word/media/bomb.bin": b"\0" * (20 * MIB)})
    error = reason_of(build_zip(entries))
    assert error.reason == "zip-budget"
    assert "DOCX_MAX_COMPRESSION_RATIO" in error.detail


def test_bomb_split_over_many_entries_is_still_refused():
    extra = {f"word/media/part{i}.bin": b"\0" * MIB for i in range(24)}
    error = reason_of(build_zip(docx_entries(extra=extra)))
    assert error.reason == "zip-budget"


def test_small_repetitive_parts_under_the_floor_are_fine():
    extra = {"word/media/zeros.bin": b"\0" * (4 * MIB)}  # ratio ~1000, but under 16 MiB
    with open_and_read(build_zip(docx_entries(extra=extra))) as package:
        assert package.main_part == "word/document.xml"


def test_too_many_entries_default_limit():
    extra = {f"e/{i}": b"" for i in range(10_001)}
    error = reason_of(build_zip(docx_entries(extra=extra), compression=zipfile.ZIP_STORED))
    assert error.reason == "zip-budget"
    assert "DOCX_MAX_ENTRIES" in error.detail


# -- zip budget (actual bytes) -----------------------------------------------------------------


def test_lying_header_stops_one_byte_past_the_declared_size():
    """document.xml declares 1 KiB but inflates to 64 MiB: read stops at 1 KiB + 1."""
    body = paragraph("x" * 100)
    xml = document_xml(body * (64 * MIB // len(body)))
    data = build_zip(docx_entries(document=xml))
    data = patch_declared_size(data, "word/document.xml", 1024)
    limits = PackageLimits(max_compression_ratio=0)  # let only the read-time cap act
    tracemalloc.start()
    try:
        error = reason_of(data, limits)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert error.reason == "zip-budget"
    assert error.part == "word/document.xml"
    assert "forged header" in error.detail
    assert peak < len(data) + 16 * MIB  # nowhere near the 64 MiB it would inflate to


def test_total_actual_bytes_are_capped_across_reads():
    image = b"\x89PNG" + bytes(range(256)) * 400
    limits = PackageLimits(max_uncompressed_bytes=300_000, max_compression_ratio=0)
    data = build_zip(docx_entries(extra={"word/media/image1.png": image}))
    with open_and_read(data, limits) as package:
        package.read_bytes("word/media/image1.png")
        package.read_bytes("word/media/image1.png")
        with pytest.raises(DocxParseError) as info:
            package.read_bytes("word/media/image1.png")
    assert info.value.reason == "zip-budget"
    assert "DOCX_MAX_UNCOMPRESSED_BYTES" in info.value.detail


def test_embedded_packages_share_the_budget():
    image = random.Random(0).randbytes(100_000)  # incompressible
    inner = docx_bytes(extra={"word/media/image1.png": image})
    outer = docx_bytes(extra={"word/inner.docx": inner})
    limits = PackageLimits(max_uncompressed_bytes=len(inner) + 60_000, max_compression_ratio=0)
    with open_and_read(outer, limits) as package:
        embedded = package.open_embedded("word/inner.docx")
        with pytest.raises(DocxParseError) as info:
            embedded.read_bytes("word/media/image1.png")
    assert info.value.reason == "zip-budget"


def test_media_part_over_its_own_limit():
    extra = {"word/media/image1.png": b"\x89PNG" + b"\1" * 5000}
    limits = PackageLimits(max_media_part_bytes=1000)
    with open_and_read(build_zip(docx_entries(extra=extra)), limits) as package:
        with pytest.raises(DocxParseError) as info:
            package.read_bytes("word/media/image1.png")
        assert package.read_bytes("word/media/image1.png", max_bytes=10_000).startswith(b"\x89")
    assert info.value.reason == "zip-budget"
    assert "NATIVE_DOCX_IMAGE_MAX_BYTES" in info.value.detail


def huge_document_chunks(total: int):
    """A well-formed document.xml of about ``total`` bytes, yielded 1 MiB at a time."""
    head = f'<w:document xmlns:w="{W}"><w:body>'.encode()
    para = paragraph("lorem ipsum dolor sit amet " * 4).encode()
    block = para * (MIB // len(para))
    yield head
    for _ in range(total // len(block)):
        yield block
    yield b"</w:body></w:document>"


def test_huge_document_xml_is_refused_by_ratio_with_default_limits(tmp_path):
    path = write_streamed_zip(
        tmp_path / "huge.docx",
        "word/document.xml",
        huge_document_chunks(100 * MIB),
        {k: v for k, v in docx_entries().items() if k != "word/document.xml"},
    )
    assert path.stat().st_size < 5 * MIB
    error = reason_of(path)
    assert error.reason == "zip-budget"
    assert "zip bomb" in error.detail


def test_huge_document_xml_is_refused_by_the_part_limit(tmp_path):
    path = write_streamed_zip(
        tmp_path / "huge.docx",
        "word/document.xml",
        huge_document_chunks(100 * MIB),
        {k: v for k, v in docx_entries().items() if k != "word/document.xml"},
    )
    error = reason_of(path, PackageLimits(max_compression_ratio=0))
    assert error.reason == "zip-budget"
    assert error.part == "word/document.xml"
    assert "LIGHTRAG_PCHUNK_MAX_XML_PART_BYTES" in error.detail


# -- damaged members ---------------------------------------------------------------------------


def test_corrupt_member_data():
    data = bytearray(build_zip(docx_entries(paragraph("some text " * 200))))
    start = data.find(b"word/document.xml") + len("word/document.xml") + 40
    data[start : start + 40] = b"\xff" * 40
    error = reason_of(bytes(data))
    assert error.reason == "corrupt"
    assert error.part == "word/document.xml"


def test_encrypted_zip_member():
    data = build_zip(docx_entries(paragraph("x")))
    error = reason_of(patch_flags(data, "word/document.xml", flag_bits=1))
    assert error.reason == "encrypted"


def test_unsupported_compression_method():
    data = build_zip(docx_entries(paragraph("x")))
    error = reason_of(patch_flags(data, "word/document.xml", method=99))
    assert error.reason == "unsupported"


# -- XML attacks -------------------------------------------------------------------------------


BILLION_LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 2 else "") + ";") * 10}">'
        for i in range(2, 11)
    )
    + f']><w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>&lol10;</w:t></w:r></w:p>'
    "</w:body></w:document>"
)
XXE = (
    '<?xml version="1.0" encoding="{enc}"?>'
    '<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
    f'<w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p>'
    "</w:body></w:document>"
)


def test_billion_laughs_in_document():
    error = reason_of(docx_bytes(document=BILLION_LAUGHS))
    assert error.reason == "dtd"
    assert error.part == "word/document.xml"


@pytest.mark.parametrize(("enc", "codec"), [("UTF-8", "utf-8"), ("UTF-16", "utf-16")])
def test_xxe_never_reads_etc_passwd(enc, codec):
    data = docx_bytes(document=XXE.replace("{enc}", enc).encode(codec))
    error = reason_of(data)
    assert error.reason == "dtd"
    assert not any(marker in str(error) for marker in PASSWD_MARKERS)


@pytest.mark.parametrize("part", ["[Content_Types].xml", "_rels/.rels", "word/styles.xml"])
def test_doctype_in_a_structural_part_refuses_the_file(part):
    entries = docx_entries(paragraph("x"), styles="<w:styles/>")
    entries[part] = XXE.replace("{enc}", "UTF-8")
    with (
        pytest.raises(DocxParseError) as info,
        DocxPackage.open(build_zip(entries), PackageLimits()) as package,
    ):
        package.styles()
    assert info.value.reason == "dtd"


def test_parse_xml_refuses_utf16_doctype_and_keeps_entities_unresolved():
    data = XXE.replace("{enc}", "UTF-16").encode("utf-16")
    with pytest.raises(DocxParseError) as info:
        parse_xml(data, path="x", part="p")
    assert info.value.reason == "dtd"


@pytest.mark.parametrize("depth", [300, 100_000])
def test_deeply_nested_xml(depth):
    body = "<w:sdt>" * depth + "</w:sdt>" * depth
    error = reason_of(docx_bytes(document=document_xml(body)))
    assert error.reason == "xml-limit"
    assert "256" in error.detail


def test_normal_nesting_is_fine():
    body = "<w:tbl><w:tr><w:tc>" * 20 + paragraph("deep") + "</w:tc></w:tr></w:tbl>" * 20
    with open_and_read(docx_bytes(document=document_xml(body))) as package:
        assert "deep" in "".join(package.read_xml(package.main_part).itertext())


def test_oversized_text_node():
    body = paragraph("x" * (11 * MIB))
    error = reason_of(docx_bytes(document=document_xml(body)))
    assert error.reason == "xml-limit"


# -- part names --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["../../evil.xml", "/etc/x", "C:\\x", "word/../../up.xml"])
def test_unsafe_entry_names_are_ignored_with_a_warning(name):
    entries = [*docx_entries(paragraph("safe")).items(), (name, b"<evil/>")]
    with open_and_read(build_zip(entries)) as package:
        assert any(repr(name) in w and "unsafe" in w for w in package.warnings)
        assert not package.has_part(name)
        assert name.replace("\\", "/") not in package.part_names
        with pytest.raises(DocxParseError) as info:
            package.read_bytes(name)
        assert info.value.reason == "missing-part"


def test_nul_in_an_entry_name_is_ignored():
    entries = [*docx_entries(paragraph("safe")).items(), ("word/evilX.xml", b"<e/>")]
    data = rename_entry(build_zip(entries), "word/evilX.xml", "word/evil\0.xml")
    with open_and_read(data) as package:
        assert any("unsafe" in w for w in package.warnings)
        assert not any("evil" in name for name in package.part_names)


def test_main_part_only_reachable_through_an_unsafe_name_is_missing():
    entries = docx_entries()
    document = entries.pop("word/document.xml")
    entries["_rels/.rels"] = rels_xml([("rId1", "officeDocument", "../../evil/document.xml")])
    data = build_zip([*entries.items(), ("../../evil/document.xml", document)])
    assert reason_of(data).reason == "missing-part"


def test_relationship_traversal_stays_inside_the_package():
    rels = [("rId9", "image", "../../../../etc/passwd"), ("rIdAbs", "image", "/../etc/passwd")]
    with open_and_read(docx_bytes(main_rels=rels)) as package:
        for rid in ("rId9", "rIdAbs"):
            rel = package.target(package.main_part, rid)
            assert rel.target == "etc/passwd" and not rel.is_external
            assert not package.has_part(rel.target)
            with pytest.raises(DocxParseError) as info:
                package.read_bytes(rel.target)
            assert info.value.reason == "missing-part"


@pytest.mark.parametrize(
    "twin",
    [
        "WORD/DOCUMENT.XML",  # case
        "word/document%2Exml",  # a %-escape
        "word\\document.xml",  # a backslash
        "word/document.xml",  # the very same name twice
        "word/%64ocument.xml",
    ],
)
def test_two_entries_naming_one_part_are_refused_as_ambiguous(twin):
    # zipfile and python-docx would read the last twin, a first-match reader the first one:
    # two readers, two documents. Refused, whichever comes first.
    entries = list(docx_entries(paragraph("first")).items())
    entries.append((twin, document_xml(paragraph("second"))))
    error = reason_of(build_zip(entries))
    assert error.reason == "ambiguous"
    assert repr("word/document.xml") in error.detail and repr(twin) in error.detail


def test_a_twin_of_an_auxiliary_part_is_refused_too():
    entries = list(docx_entries(paragraph("x")).items())
    entries.append(("word/Media/Image1.PNG", b"a"))
    entries.append(("word/media/image1.png", b"b"))
    assert reason_of(build_zip(entries)).reason == "ambiguous"


def test_nothing_is_written_to_disk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    entries = [*docx_entries(paragraph("x")).items(), ("../../evil.xml", b"<e/>")]
    with open_and_read(io.BytesIO(build_zip(entries))) as package:
        package.read_bytes("word/document.xml")
    assert list(tmp_path.iterdir()) == []


# -- external targets --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "name"),
    [
        ("file:///etc/passwd", "passwd"),
        ("\\\\fileserver\\share\\secret.png", "secret.png"),
        ("C:\\Users\\me\\photo.jpg", "photo.jpg"),
        ("/etc/shadow", "shadow"),
        ("../../../etc/hosts", "hosts"),
        ("https://tracker.example/pixel.gif?user=42", "pixel.gif"),
    ],
)
def test_external_picture_targets_are_never_copied(tmp_path, target, name):
    from lightrag_pchunk.parse.document import parse_docx

    from docx_builders import para, write_rich_docx

    picture = (
        '<w:r><w:drawing><wp:inline><wp:docPr id="1" name="P"/><a:graphic><a:graphicData>'
        '<pic:pic><pic:blipFill><a:blip r:link="rIdExt"/></pic:blipFill></pic:pic>'
        "</a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"
    )
    vml = '<w:r><w:pict><v:shape><v:imagedata r:id="rIdExt"/></v:shape></w:pict></w:r>'
    source = write_rich_docx(
        tmp_path / "doc.docx",
        para("Linked:", picture) + para("VML:", vml),
        extra_rels=[("rIdExt", "image", target, "External")],
    )
    parsed = parse_docx(source, tmp_path / "out")
    written = "".join(p.read_text(encoding="utf-8") for p in parsed.parsed_dir.rglob("*.json*"))
    for leak in ("file:", "/etc/", "fileserver", "share", "Users", "tracker", "?user", ".."):
        assert leak not in written, leak
    assert parsed.content.count(f'path="" src="{name}"') == 2
    items = json.loads((parsed.parsed_dir / "doc.drawings.json").read_text())["drawings"]
    assert [(i["src"], i["path"], i["extras"]) for i in items.values()] == [
        (name, "", {"external": True})
    ] * 2


# -- slow paths ----------------------------------------------------------------------------------


def test_a_basedon_chain_is_walked_once_however_many_styles_use_it(monkeypatch):
    from lightrag_pchunk.parse.styles import StyleSheet

    from docx_builders import style, styles_xml

    n = 3000
    chain = "".join(
        style(f"S{i}", f"s{i}", based_on=f"S{i - 1}" if i else None, num_id=7 if i == 0 else None)
        for i in range(n)
    )
    sheet = StyleSheet.from_xml(parse_xml(styles_xml(chain).encode()))
    calls = 0
    real_get = StyleSheet.get

    def counting_get(self, style_id):
        nonlocal calls
        calls += 1
        return real_get(self, style_id)

    monkeypatch.setattr(StyleSheet, "get", counting_get)
    for i in reversed(range(n)):  # every style of the chain, deepest first
        assert sheet.numbering_of(f"S{i}") == (7, None)
        assert sheet.effective_outline_level(f"S{i}") is None
        assert sheet.title_kind(f"S{i}") is None
    assert calls < 10 * n  # linear in the chain, not n * depth (4.5 million here)


def test_a_50000_style_chain_parses(tmp_path):
    from lightrag_pchunk.parse.document import parse_docx

    from docx_builders import style, styles_xml

    n = 50_000
    chain = "".join(
        style(f"S{i}", f"s{i}", based_on=f"S{i - 1}" if i else None, outline=0 if not i else None)
        for i in range(n)
    )
    body = "".join(paragraph(f"p{i}", style=f"S{i}") for i in range(0, n, 500))
    source = tmp_path / "chain.docx"
    source.write_bytes(docx_bytes(body, styles=styles_xml(chain)))
    parsed = parse_docx(source, tmp_path / "out")
    assert parsed.headings == {1: 100}  # every style inherits S0's outline level
