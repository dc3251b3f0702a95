"""Hostile PDFs, written byte by byte: each is a small file that attacks one part of a PDF
reader (the cross-reference chain, object streams, the object parser's recursion, the page
tree, page and image sizes, fonts, image filters, encryption, page count, decompression).

Every builder returns the file's bytes; sizes are parameters with the values the suite
uses. Where a case keeps some readable text, it is :data:`BODY`, so a test can tell a file
that parsed with its text from one that parsed empty. :data:`CASES` names them all with
what a parser must do with each: ``parsed`` (BODY reaches the chunks), ``refused`` (with the
given reason) or ``either`` (refused with a reason, or parsed with no word lost).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

BODY = "The cold store is inspected every week and the result written in the plant log."
_HEADER = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"
_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def stream(entries: bytes, data: bytes, *, flate: bool = False) -> bytes:
    """A stream object's body: its dictionary (``entries`` inside ``<< >>``) and data."""
    if flate:
        data = zlib.compress(data, 9)
        entries += b" /Filter /FlateDecode"
    return b"<< %s /Length %d >>\nstream\n%s\nendstream" % (entries, len(data), data)


def text_ops(text: str = BODY, y: float = 720) -> bytes:
    """A content stream showing ``text`` in Helvetica 11 at (72, y)."""
    return b"BT /F1 11 Tf 72 %s Td (%s) Tj ET\n" % (str(y).encode(), text.encode("latin-1"))


def serialise(objects: dict[int, bytes], root: int, *, trailer: bytes = b"") -> bytes:
    """A PDF of ``objects`` (number -> body) with a classic cross-reference table."""
    out = bytearray(_HEADER)
    offsets: dict[int, int] = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (number, objects[number])
    size = max(objects) + 1
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for number in range(1, size):
        if number in offsets:
            out += b"%010d 00000 n \n" % offsets[number]
        else:
            out += b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root %d 0 R %s >>\nstartxref\n%d\n%%%%EOF\n" % (
        size,
        root,
        trailer,
        xref,
    )
    return bytes(out)


def one_page(
    content: bytes,
    *,
    page_extra: bytes = b"",
    resources: bytes = b"",
    extra: dict[int, bytes] | None = None,
    media_box: bytes = b"[0 0 612 792]",
) -> dict[int, bytes]:
    """The objects of a one-page document (1 catalog, 2 pages, 3 page, 4 content, 5 font);
    ``extra`` objects from number 6 on."""
    return {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox %s /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> %s >> %s >>" % (media_box, resources, page_extra),
        4: stream(b"", content),
        5: _FONT,
        **(extra or {}),
    }


def plain() -> bytes:
    """The control: one page of BODY."""
    return serialise(one_page(text_ops()), 1)


# -- cross-reference chains ------------------------------------------------------------------


def xref_prev_loop() -> bytes:
    """The trailer's /Prev points at its own cross-reference table (a reader that follows
    /Prev without remembering where it was loops for ever)."""
    data = serialise(one_page(text_ops()), 1)
    xref = int(data.rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
    return data.replace(b"/Root 1 0 R", b"/Root 1 0 R /Prev %d" % xref)


def xref_two_section_loop() -> bytes:
    """Two cross-reference sections whose /Prev point at each other."""
    data = serialise(one_page(text_ops()), 1, trailer=b"/Prev 0000000000")
    first = int(data.rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
    second = len(data)
    data = data.replace(b"/Prev 0000000000", b"/Prev %010d" % second)
    return data + (
        b"xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 6 /Root 1 0 R /Prev %d >>\n"
        b"startxref\n%d\n%%%%EOF\n" % (first, second)
    )


def xref_garbage() -> bytes:
    """Every offset of the table and startxref point at nothing: the reader must rebuild
    the table by scanning the file, or give up."""
    data = serialise(one_page(text_ops()), 1)
    head, _, _ = data.partition(b"xref\n")
    body = b"xref\n0 6\n" + b"".join(b"%010d 00000 n \n" % (7 * i + 3) for i in range(6))
    return head + body + b"trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n99999999\n%%EOF\n"


def _xref_stream_pdf(
    plain_objects: dict[int, bytes],
    packed: dict[int, dict[int, bytes]],
    root: int,
    *,
    xref_extra: Callable[[int], bytes] = lambda offset: b"",
) -> bytes:
    """A PDF with a cross-reference stream; ``packed`` maps an object stream's number to
    the objects it holds (``/Extends`` and the like can be added to its body by the caller
    through ``plain_objects`` instead)."""
    out = bytearray(_HEADER)
    where: dict[int, tuple[int, int, int]] = {}  # number -> (type, field2, field3)
    for number in sorted(plain_objects):
        where[number] = (1, len(out), 0)
        out += b"%d 0 obj\n%s\nendobj\n" % (number, plain_objects[number])
    for holder, members in packed.items():
        header, body = bytearray(), bytearray()
        for index, (number, member) in enumerate(members.items()):
            header += b"%d %d " % (number, len(body))
            body += member + b"\n"
            where[number] = (2, holder, index)
        where[holder] = (1, len(out), 0)
        data = bytes(header) + bytes(body)
        entries = b"/Type /ObjStm /N %d /First %d" % (len(members), len(header))
        out += b"%d 0 obj\n%s\nendobj\n" % (holder, stream(entries, data, flate=True))
    xref_number = max(where) + 1
    offset = len(out)
    where[xref_number] = (1, offset, 0)
    rows = bytearray(b"\x00\x00\x00\x00\x00\xff\xff")  # object 0: free
    for number in range(1, xref_number + 1):
        kind, a, b = where.get(number, (0, 0, 0))
        rows += bytes([kind]) + a.to_bytes(4, "big") + b.to_bytes(2, "big")
    entries = b"/Type /XRef /Size %d /W [1 4 2] /Root %d 0 R %s" % (
        xref_number + 1,
        root,
        xref_extra(offset),
    )
    out += b"%d 0 obj\n%s\nendobj\n" % (xref_number, stream(entries, bytes(rows), flate=True))
    out += b"startxref\n%d\n%%%%EOF\n" % offset
    return bytes(out)


def xref_stream_self_prev() -> bytes:
    """A cross-reference stream whose /Prev is itself."""
    objects = one_page(text_ops())
    return _xref_stream_pdf(objects, {}, 1, xref_extra=lambda offset: b"/Prev %d" % offset)


# -- object streams -------------------------------------------------------------------------


def objstm_self_extends() -> bytes:
    """The page's objects live in an object stream whose /Extends is itself."""
    objects = one_page(text_ops())
    data = _xref_stream_pdf({4: objects.pop(4)}, {10: objects}, 1)
    return data.replace(b"/Type /ObjStm", b"/Type /ObjStm /Extends 10 0 R", 1)


def objstm_holds_itself() -> bytes:
    """An object stream that claims to hold itself (its own number among its objects) and
    the page tree: resolving it needs it resolved."""
    objects = one_page(text_ops())
    members = {**objects, 10: b"<< /Type /ObjStm /N 1 /First 4 >>"}
    return _xref_stream_pdf({4: members.pop(4)}, {10: members}, 1)


def objstm_count_lie(count: int = 50_000_000) -> bytes:
    """An object stream whose /N claims 50 million objects (a reader that allocates /N
    offsets up front asks for gigabytes)."""
    objects = one_page(text_ops())
    data = _xref_stream_pdf({4: objects.pop(4)}, {10: objects}, 1)
    return data.replace(b"/Type /ObjStm /N 4", b"/Type /ObjStm /N %d" % count, 1)


def indirect_chain(depth: int = 100_000) -> bytes:
    """The page's /Resources reached through 100,000 indirect references in object streams
    (a reader that resolves them recursively runs out of stack)."""
    objects = one_page(text_ops())
    page = objects[3].replace(b"/Resources << /Font << /F1 5 0 R >>  >>", b"/Resources 100 0 R")
    objects[3] = page
    chain = {100 + i: b"%d 0 R" % (101 + i) for i in range(depth)}
    chain[100 + depth] = b"<< /Font << /F1 5 0 R >> >>"
    packs = {}
    numbers = list(chain)
    holder = 100 + depth + 1
    for start in range(0, len(numbers), 5000):
        packs[holder] = {n: chain[n] for n in numbers[start : start + 5000]}
        holder += 1
    return _xref_stream_pdf({4: objects.pop(4)}, {holder: objects, **packs}, 1)


# -- the object parser and the page tree ------------------------------------------------------


def deep_arrays(depth: int = 200_000) -> bytes:
    """An entry of the page dictionary nested 200,000 arrays deep."""
    nested = b"[" * depth + b"1" + b"]" * depth
    return serialise(one_page(text_ops(), page_extra=b"/Junk " + nested), 1)


def deep_dicts(depth: int = 100_000) -> bytes:
    """An entry of the page dictionary nested 100,000 dictionaries deep."""
    nested = b"<< /A " * depth + b"1" + b" >>" * depth
    return serialise(one_page(text_ops(), page_extra=b"/Junk " + nested), 1)


def deep_content_operands(depth: int = 200_000) -> bytes:
    """An operand in the content stream nested 200,000 arrays deep, before the text."""
    nested = b"[" * depth + b"]" * depth
    return serialise(one_page(nested + b" pop\n" + text_ops()), 1)


def page_tree_loop() -> bytes:
    """The page tree's /Kids holds the tree itself (and the page)."""
    objects = one_page(text_ops())
    objects[2] = b"<< /Type /Pages /Kids [2 0 R 3 0 R 2 0 R] /Count 3 >>"
    return serialise(objects, 1)


def page_count_lie() -> bytes:
    """A page tree that says it has 2**31 - 1 pages and holds one."""
    objects = one_page(text_ops())
    objects[2] = b"<< /Type /Pages /Kids [3 0 R] /Count 2147483647 >>"
    return serialise(objects, 1)


def form_recursion() -> bytes:
    """A form XObject that draws itself."""
    form = stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources"
                  b" << /XObject << /X1 6 0 R >> >>", b"/X1 Do")  # fmt: skip
    return serialise(
        one_page(
            text_ops() + b"/X1 Do\n",
            resources=b"/XObject << /X1 6 0 R >>",
            extra={6: form},
        ),
        1,
    )


def form_fan_out(levels: int = 9, fan: int = 10) -> bytes:
    """Forms that draw the next form ``fan`` times, ``levels`` deep, the last one a line of
    text: 10**9 text objects from a few kilobytes (the "billion laughs" of PDF)."""
    extra: dict[int, bytes] = {}
    for level in range(levels):
        number = 6 + level
        if level == levels - 1:
            body, resources = text_ops("ha ha", 10), b"/Font << /F1 5 0 R >>"
        else:
            body = b"/X Do\n" * fan
            resources = b"/XObject << /X %d 0 R >>" % (number + 1)
        entries = b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << %s >>"
        extra[number] = stream(entries % resources, body)
    return serialise(
        one_page(text_ops() + b"/X Do\n", resources=b"/XObject << /X 6 0 R >>", extra=extra), 1
    )
