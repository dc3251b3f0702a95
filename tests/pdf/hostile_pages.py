"""Hostile PDFs, continued: what a page holds (boxes, images, fonts, decompression, object
counts), encryption and page count. See ``hostile_pdfs`` for the writer and :data:`BODY`."""

from __future__ import annotations

import io
import zlib

from hostile_pdfs import BODY, one_page, serialise, stream, text_ops

# -- page and image sizes -------------------------------------------------------------------


def huge_media_box() -> bytes:
    """A page 10**30 points wide and high."""
    return serialise(one_page(text_ops(), media_box=b"[0 0 1e30 1e30]"), 1)


def huge_user_unit() -> bytes:
    """A page of 14,400 x 14,400 points at /UserUnit 75000 (a kilometre-sized page)."""
    return serialise(
        one_page(text_ops(), media_box=b"[0 0 14400 14400]", page_extra=b"/UserUnit 75000"), 1
    )


def empty_media_box() -> bytes:
    """A page whose media box has no area (and text on it)."""
    return serialise(one_page(text_ops(), media_box=b"[0 0 0 0]"), 1)


def huge_image() -> bytes:
    """An RGB image of 100,000 x 100,000 pixels (30 GB decoded) from a few bytes, next to
    the text."""
    image = stream(
        b"/Type /XObject /Subtype /Image /Width 100000 /Height 100000 /ColorSpace /DeviceRGB"
        b" /BitsPerComponent 8",
        b"\x00" * 30_000,
        flate=True,
    )
    return serialise(
        one_page(
            b"q 612 0 0 792 0 0 cm /Im1 Do Q\n" + text_ops(),
            resources=b"/XObject << /Im1 6 0 R >>",
            extra={6: image},
        ),
        1,
    )


def huge_inline_image() -> bytes:
    """An inline image that claims 60,000 x 60,000 RGB pixels and holds 32 bytes."""
    inline = b"q 612 0 0 792 0 0 cm BI /W 60000 /H 60000 /CS /RGB /BPC 8 ID " + b"\x00" * 32
    return serialise(one_page(inline + b" EI Q\n" + text_ops()), 1)


def _image_page(filter_entries: bytes, data: bytes, extra: dict[int, bytes], with_text: bool):
    image = stream(
        b"/Type /XObject /Subtype /Image /Width 2480 /Height 3508 /ColorSpace /DeviceGray"
        b" /BitsPerComponent 1 " + filter_entries,
        data,
    )
    content = b"q 612 0 0 792 0 0 cm /Im1 Do Q\n" + (text_ops() if with_text else b"")
    return serialise(
        one_page(content, resources=b"/XObject << /Im1 6 0 R >>", extra={6: image, **extra}), 1
    )


def jbig2_image(with_text: bool = True) -> bytes:
    """A JBIG2 image (with /JBIG2Globals) of damaged segments: the decoder's input."""
    globals_ = stream(b"", b"\x00\x00\x00\x00\x30\x00\x01" + b"\xff" * 64)
    data = b"\x97JB2\r\n\x1a\n\x01" + bytes(range(256)) * 4
    entries = b"/Filter /JBIG2Decode /DecodeParms << /JBIG2Globals 7 0 R >>"
    return _image_page(entries, data, {7: globals_}, with_text)


def jpx_image(with_text: bool = True) -> bytes:
    """A JPEG 2000 image whose codestream claims a 65535-square image and stops."""
    data = (
        b"\x00\x00\x00\x0cjP  \r\n\x87\n"
        b"\xff\x4f\xff\x51\x00\x29\x00\x00\x00\x00\xff\xff\x00\x00\xff\xff" + b"\x00" * 40
    )
    return _image_page(b"/Filter /JPXDecode", data, {}, with_text)


# -- fonts ----------------------------------------------------------------------------------


def _font_page(font: bytes, shown: bytes, extra: dict[int, bytes] | None = None) -> bytes:
    objects = one_page(b"BT /F1 11 Tf 72 720 Td " + shown + b" Tj ET\n", extra=extra)
    objects[5] = font
    return serialise(objects, 1)


def _shown(text: str = BODY) -> bytes:
    return b"(" + text.encode("latin-1") + b")"


def font_without_widths() -> bytes:
    """A TrueType font with no /Widths, no descriptor and no font file."""
    return _font_page(b"<< /Type /Font /Subtype /TrueType /BaseFont /NoSuchFont >>", _shown())


def font_bad_widths() -> bytes:
    """/FirstChar past /LastChar, an absurd /LastChar and three widths."""
    font = (
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 4000000000"
        b" /LastChar 2147483647 /Widths [1 -2 1e30] >>"
    )
    return _font_page(font, _shown())


def _type0(to_unicode: bytes, cmap_entries: bytes = b"") -> tuple[bytes, dict[int, bytes]]:
    font = b"<< /Type /Font /Subtype /Type0 /BaseFont /Test /Encoding /Identity-H"
    font += b" /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>"
    descendant = (
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Test /CIDSystemInfo << /Registry"
        b" (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 500 >>"
    )
    return font, {6: descendant, 7: stream(cmap_entries, to_unicode)}


def _codes(text: str) -> bytes:
    return b"<" + "".join(f"{ord(ch):04X}" for ch in text).encode() + b">"


def tounicode_garbage() -> bytes:
    """A ToUnicode stream of binary garbage."""
    font, extra = _type0(bytes(range(256)) * 8)
    return _font_page(font, _codes(BODY), extra)


def tounicode_unbalanced() -> bytes:
    """A ToUnicode CMap that opens ranges it never closes and maps a range of 65536 codes
    reversed."""
    cmap = (
        b"/CIDInit /ProcSet findresource begin begincmap 1 begincodespacerange <0000> <FFFF>"
        b" endcodespacerange 2 beginbfrange <FFFF> <0000> <0041> <0000> <FFFF> [<0041>"
        b" 100 beginbfchar <0041>"
    )
    font, extra = _type0(cmap)
    return _font_page(font, _codes(BODY), extra)


def tounicode_amplifier(codes: int = 20_000, length: int = 256) -> bytes:
    """A ToUnicode CMap mapping one code to 256 characters, shown 20,000 times: 5 million
    characters of text from a 1-page file of a few kilobytes, set small enough (ten lines of
    2,000 codes in 0.2 points) to stand on the page, where text is read."""
    target = b"<" + b"0061" * (length - 1) + b"0020>"
    cmap = (
        b"/CIDInit /ProcSet findresource begin begincmap 1 begincodespacerange <0000> <FFFF>"
        b" endcodespacerange 1 beginbfchar <0001> %s endbfchar endcmap end end" % target
    )
    font, extra = _type0(cmap)
    objects = one_page(b"", extra=extra)
    objects[5] = font
    line = b"<" + b"0001" * (codes // 10) + b"> Tj 0 -1 Td "
    content = b"BT /F1 0.2 Tf 72 720 Td " + line * 10 + b"ET\n" + text_ops()
    objects[3] = objects[3].replace(b"/Font << /F1 5 0 R >>", b"/Font << /F1 5 0 R /F2 8 0 R >>")
    objects[4] = stream(b"", content.replace(text_ops(), text_ops().replace(b"/F1", b"/F2")),
                        flate=True)  # fmt: skip
    objects[8] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    return serialise(objects, 1)


def type3_recursion() -> bytes:
    """A Type 3 font whose glyph is drawn with the font itself."""
    glyph = stream(b"", b"1000 0 0 0 1000 1000 d1 BT /T3 1 Tf (a) Tj ET")
    font = (
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001"
        b" 0 0] /CharProcs << /a 6 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >>"
        b" /FirstChar 97 /LastChar 97 /Widths [1000] /Resources << /Font << /T3 5 0 R >> >> >>"
    )
    objects = one_page(b"BT /F1 11 Tf 72 700 Td (aaaa) Tj ET\n", extra={6: glyph})
    objects[5] = font
    objects[3] = objects[3].replace(b"/Font << /F1 5 0 R >>", b"/Font << /F1 5 0 R /F2 7 0 R >>")
    objects[4] = stream(b"", b"BT /F1 11 Tf 72 700 Td (aaaa) Tj ET\n" + text_ops().replace(
        b"/F1", b"/F2"))  # fmt: skip
    objects[7] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    return serialise(objects, 1)


# -- decompression and object counts --------------------------------------------------------


def flate_bomb(blocks: int = 24, block_mib: int = 64) -> bytes:
    """A page whose content stream inflates to 1.5 GB of spaces, then the text, from a file
    of 1.6 MB: one 64 MiB block compressed once and repeated (a full flush makes each
    block's bytes independent of the ones before), with the checksum of the whole."""
    block = b" " * (block_mib << 20)
    compressor = zlib.compressobj(9)
    first = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
    again = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
    tail = compressor.compress(text_ops()) + compressor.flush()
    checksum = 1
    for _ in range(blocks):
        checksum = zlib.adler32(block, checksum)
    checksum = zlib.adler32(text_ops(), checksum)
    data = first + again * (blocks - 1) + tail[:-4] + checksum.to_bytes(4, "big")
    objects = one_page(b"")
    objects[4] = b"<< /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream" % (len(data), data)
    return serialise(objects, 1)


def flate_bomb_split(copies: int = 24) -> bytes:
    """The same 1.5 GB as 24 content streams (/Contents an array), each 64 MB of spaces."""
    bomb = stream(b"", b" " * (64 << 20), flate=True)
    objects = one_page(text_ops(), extra={6: bomb})
    objects[3] = objects[3].replace(
        b"/Contents 4 0 R", b"/Contents [%s 4 0 R]" % (b"6 0 R " * copies)
    )
    return serialise(objects, 1)


def many_paths(count: int = 1_000_000) -> bytes:
    """One million tiny stroked paths on one page (a few hundred kilobytes compressed)."""
    content = b"0 0 m 1 1 l S\n" * count + text_ops()
    objects = one_page(b"")
    objects[4] = stream(b"", content, flate=True)
    return serialise(objects, 1)


def many_text_objects(count: int = 200_000) -> bytes:
    """200,000 one-word text objects on one page, under the object limit."""
    words = (BODY.split() * (count // len(BODY.split()) + 1))[:count]
    content = b"".join(
        b"BT /F1 1 Tf %d %d Td (%s) Tj ET\n" % (72 + (i % 40) * 12, 20 + (i // 40) % 750, w)
        for i, w in enumerate(word.encode() for word in words)
    )
    objects = one_page(b"")
    objects[4] = stream(b"", content, flate=True)
    return serialise(objects, 1)


def long_line(characters: int = 2_000_000) -> bytes:
    """One text run of two million letters without a space."""
    content = b"BT /F1 1 Tf 0 400 Td (" + b"x" * characters + b") Tj ET\n" + text_ops()
    objects = one_page(b"")
    objects[4] = stream(b"", content, flate=True)
    return serialise(objects, 1)


def many_pages(count: int = 10_000) -> bytes:
    """10,000 small pages, each with its own line of text (page ``n`` says so)."""
    objects: dict[int, bytes] = {1: b"<< /Type /Catalog /Pages 2 0 R >>", 3: _FONT_OBJECT}
    kids = []
    for index in range(count):
        page, content = 4 + 2 * index, 5 + 2 * index
        kids.append(b"%d 0 R" % page)
        objects[page] = (
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents %d 0 R"
            b" /Resources << /Font << /F1 3 0 R >> >> >>" % content
        )
        objects[content] = stream(b"", text_ops(f"Entry {index + 1} of the ledger", 50))
    objects[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), count)
    return serialise(objects, 1)


_FONT_OBJECT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


# -- encryption -----------------------------------------------------------------------------

ALGORITHMS = ("RC4-40", "RC4-128", "AES-128", "AES-256-R5", "AES-256")


def encrypted(algorithm: str, user_password: str) -> bytes:
    """The control document encrypted by pypdf with ``algorithm``; an empty user password
    opens without one (the owner password only restricts printing and copying)."""
    import pypdf

    writer = pypdf.PdfWriter()
    writer.append(pypdf.PdfReader(io.BytesIO(serialise(one_page(text_ops()), 1))))
    writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
