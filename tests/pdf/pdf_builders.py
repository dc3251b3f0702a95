"""A minimal PDF writer for tests: pages of text runs and ruling lines, in the standard
Helvetica and Courier fonts (no font files: every PDF reader knows their metrics), a CJK font whose
characters reach the text layer through a ToUnicode map and the same font without the map
(its glyphs do not decode: a reader gets their codes), and Helvetica whose encoding names
its glyphs as no map to Unicode knows (an old TeX font's: a reader gets its one-byte codes,
the ASCII of its text, each flagged as unmapped); optional bookmarks, a tagged
structure tree (marked content with MCIDs, artifacts) and page rotation.

It writes only what a test asks for, so each test states the layout it is about.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

REGULAR, BOLD, CJK, UNMAPPED, UNNAMED = "F1", "F2", "F3", "F4", "F5"
#: Helvetica's oblique: the text's size and weight in another face.
ITALIC = "F7"
#: Helvetica and its bold under a subset's tag ("ABCDEF+Helvetica"): the faces of F1 and F2
#: as a file names them when it embeds a subset of them, as many name one face twice.
TAGGED, TAGGED_BOLD = "F8", "F9"
#: A Type 3 font of one glyph, code '"', drawn as a kashida: a flat stroke on the baseline
#: (a font that maps its kashida to the quotation mark); its text is '"' only.
KASHIDA_QUOTE = "F6"
#: Courier: a fixed-pitch font, every glyph as wide as the others (a listing's code).
MONO = "F10"
#: Helvetica whose code 9 draws its "i" while its text map reads the code as a tab (as a
#: font without a usable map reads its glyphs by their codes): write "\t" for the letter.
DRAWN_TAB = "F11"
#: A second font with a ToUnicode map, as CJK's (another face of the file: an icon font's
#: icons, read as private use).
CJK_OTHER = "F12"
#: Helvetica under the names a Japanese foundry gives a face's weights by number: "W3" the
#: text's, "W6" its semibold (a Mac's Hiragino, whose weight PDFium reads below bold's).
NUMBERED_W3, NUMBERED_W6 = "F13", "F14"
#: Faces named as Word names its symbol fonts, with CJK's ToUnicode map (their glyphs read
#: as the private-use codes Word maps them to: U+F06C is Symbol's lambda, Wingdings' circle).
SYMBOL_MT, WINGDINGS = "F15", "F16"
#: The fonts whose text is written as two-byte codes, one a character.
_CID_FONTS = (CJK, UNMAPPED, CJK_OTHER, SYMBOL_MT, WINGDINGS)


@dataclass(frozen=True)
class Text:
    """A run of text whose baseline starts at ``(x, y)`` (points, origin bottom left)."""

    x: float
    y: float
    text: str
    size: float = 11.0
    font: str = REGULAR
    mcid: int | None = None  # marked content of a tagged document
    artifact: bool = False  # marked as page furniture
    angle: int = 0  # degrees counter-clockwise
    skew: float = 0.0  # degrees the glyphs lean right (a synthetic italic), the baseline level
    #: Extra space (points) after each glyph but the last, set inside the run (TJ): the
    #: glyphs stay one text object, as a justifying producer places them.
    spacing: tuple[float, ...] = ()
    #: Character and word spacing (points, PDF's Tc and Tw), set by the '"' operator that
    #: shows the run: every glyph stands apart, and PDFium writes no space between them.
    char_spacing: float = 0.0
    word_spacing: float = 0.0
    #: In the CJK font, the glyphs shown left to right when one maps to several characters
    #: (a ligature: "لا"); empty: one glyph a character of ``text``.
    glyphs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Stroke:
    """A straight ruling line."""

    x0: float
    y0: float
    x1: float
    y1: float
    width: float = 0.5


@dataclass
class Page:
    items: list[Text | Stroke] = field(default_factory=list)
    width: float = 612.0
    height: float = 792.0
    rotate: int = 0
    image: bool = False  # a 1x1 picture covering the page (a scan without text)
    crop: tuple[float, float, float, float] | None = None  # a CropBox inside the MediaBox


@dataclass(frozen=True)
class Bookmark:
    title: str
    level: int  # 1 = top
    page: int  # 0-based
    y: float | None = 800.0  # None: the whole page shown (/Fit), no height


@dataclass(frozen=True)
class Tag:
    """A structure element: its role and the (page index, MCID) of its content; ``later``:
    (page index, MCID) of its content on other pages (a paragraph running over a page
    break, referenced by marked-content dictionaries)."""

    role: str
    page: int
    mcids: tuple[int, ...]
    later: tuple[tuple[int, int], ...] = ()


def wrap(text: str, x: float, top: float, width: float, size: float = 11.0, **kw) -> list[Text]:
    """``text`` set as lines of at most ``width`` points (Helvetica's average glyph width,
    0.5 em), from the baseline ``top`` down at 1.2 x ``size``."""
    per_line = max(int(width / (0.5 * size)), 1)
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > per_line:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return [Text(x, top - i * 1.2 * size, chunk, size, **kw) for i, chunk in enumerate(lines)]


def unruled_rows(rows, xs: tuple[float, ...], top: float, step: float) -> list[Text]:
    """``rows`` of cells set unruled in 10 points at the columns ``xs``, the first row's
    baseline at ``top``, each next row ``step`` points lower."""
    return [
        Text(x, top - step * i, cell, 10)
        for i, row in enumerate(rows)
        for x, cell in zip(xs, row, strict=True)
    ]


def boxes(xs: tuple[float, ...], top: float, bottom: float) -> list[Stroke]:
    """A row of boxes from ``top`` down to ``bottom`` whose borders meet at ``xs``: one
    frame between two of them, a ruled grid of one row of cells between more."""
    return [
        Stroke(xs[0], top, xs[-1], top),
        Stroke(xs[0], bottom, xs[-1], bottom),
        *(Stroke(x, top, x, bottom) for x in xs),
    ]


def printed_width(text: str, size: float = 10.0, font: str = REGULAR) -> float:
    """How wide ``text`` prints in Helvetica (``font``: its bold, …) at ``size``, as PDFium
    measures it."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(build_pdf([Page([Text(0, 100, text, size, font)])]))
    textpage = document[0].get_textpage()
    right = textpage.get_charbox(textpage.count_chars() - 1)[2]
    textpage.close()
    document.close()
    return right


def first_page_text(path: Path):
    """The segments our reader finds on the first page of the PDF at ``path``
    (``layout.read_segments``), before lines are made of them."""
    import pypdfium2 as pdfium

    from lightrag_pchunk.pdf.glyphs import read_glyphs
    from lightrag_pchunk.pdf.layout import read_segments
    from lightrag_pchunk.pdf.rules import page_rules

    document = pdfium.PdfDocument(path)
    try:
        page = document[0]
        textpage = page.get_textpage()
        text = read_segments(read_glyphs(page, textpage, 1, page_rules(page)))
        textpage.close()
        page.close()
    finally:
        document.close()
    return text


def _glyphs(item: Text) -> tuple[str, ...]:
    return item.glyphs or tuple(item.text)


def _utf16(text: str) -> str:
    return text.encode("utf-16-be").hex().upper()


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def build_pdf(
    pages: list[Page],
    bookmarks: list[Bookmark] = (),  # type: ignore[assignment]
    tags: list[Tag] = (),  # type: ignore[assignment]
) -> bytes:
    """The bytes of a PDF of ``pages`` (see the module doc)."""
    cjk_chars = sorted(
        {ch for page in pages for item in page.items
         if isinstance(item, Text) and item.font in _CID_FONTS for ch in _glyphs(item)}
    )  # fmt: skip
    cid_of = {ch: i + 1 for i, ch in enumerate(cjk_chars)}
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    def reserve() -> int:
        objects.append(b"")
        return len(objects)

    def add_stream(data: bytes) -> int:
        return add(b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")

    catalog = reserve()
    pages_id = reserve()
    f1 = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    f2 = add(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"
    )
    bfchars = "".join(f"<{cid:04X}> <{_utf16(ch)}>\n" for ch, cid in cid_of.items())
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
        "/CMapName /Test def 1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
        f"{len(cid_of)} beginbfchar\n{bfchars}endbfchar endcmap end end"
    ).encode()
    to_unicode = add_stream(cmap)
    descendant_body = (
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /TestCJK /CIDSystemInfo "
        b"<< /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 1000 "
        b"/FontDescriptor << /Type /FontDescriptor /FontName /TestCJK /Flags 4 "
        b"/FontBBox [0 -120 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 "
        b"/StemV 80 >> >>"
    )
    descendant = add(descendant_body)
    f3 = add(
        b"<< /Type /Font /Subtype /Type0 /BaseFont /TestCJK /Encoding /Identity-H "
        b"/DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>" % (descendant, to_unicode)
    )
    f4 = add(
        b"<< /Type /Font /Subtype /Type0 /BaseFont /TestCJK /Encoding /Identity-H "
        b"/DescendantFonts [%d 0 R] >>" % descendant
    )
    names = " ".join(f"/g{code:02x}" for code in range(256)).encode()
    f5 = add(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
        b"/Encoding << /Differences [0 %s] >> >>" % names
    )
    stroke = b"500 0 0 0 500 60 d1 0 0 500 60 re f"
    kashida = add_stream(stroke)
    quote_unicode = add_stream(_one_code_cmap(b"Kashida", b"22"))
    f6 = add(
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 60] "
        b"/FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /kashida %d 0 R >> "
        b"/Encoding << /Type /Encoding /Differences [34 /kashida] >> /FirstChar 34 "
        b"/LastChar 34 /Widths [500] /Resources << >> /ToUnicode %d 0 R >>"
        % (kashida, quote_unicode)
    )
    f7 = add(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Oblique /Encoding /WinAnsiEncoding >>"
    )
    f8, f9 = (
        add(
            b"<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+%s /Encoding /WinAnsiEncoding >>"
            % name
        )
        for name in (b"Helvetica", b"Helvetica-Bold")
    )
    f10 = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>")
    tab_unicode = add_stream(_one_code_cmap(b"Tab", b"09"))
    f11 = add(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /BaseEncoding "
        b"/WinAnsiEncoding /Differences [9 /i] >> /ToUnicode %d 0 R >>" % tab_unicode
    )
    f12 = add(
        b"<< /Type /Font /Subtype /Type0 /BaseFont /TestSymbols /Encoding /Identity-H "
        b"/DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>" % (descendant, to_unicode)
    )
    f13, f14 = (
        add(
            b"<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+HiraginoSansGB-%s "
            b"/Encoding /WinAnsiEncoding >>" % weight
        )
        for weight in (b"W3", b"W6")
    )
    f15, f16 = (
        add(
            b"<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+%s /Encoding /Identity-H "
            b"/DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>"
            % (name, add(descendant_body.replace(b"TestCJK", b"ABCDEF+" + name)), to_unicode)
        )
        for name in (b"SymbolMT", b"Wingdings-Regular")
    )
    faces = (f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16)
    fonts = b"<< %s >>" % b" ".join(b"/F%d %d 0 R" % (n, font) for n, font in enumerate(faces, 1))
    image = add(
        b"<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray "
        b"/BitsPerComponent 8 /Length 1 >>\nstream\n\x80\nendstream"
    )
    page_ids = []
    for index, page in enumerate(pages):
        ops = []
        if page.image:
            ops.append(f"q {page.width} 0 0 {page.height} 0 0 cm /Im1 Do Q")
        for item in page.items:
            if isinstance(item, Stroke):
                ops.append(f"{item.width} w {item.x0} {item.y0} m {item.x1} {item.y1} l S")
                continue
            if item.font in _CID_FONTS:
                codes = [f"<{cid_of[ch]:04X}>" for ch in _glyphs(item)]
            else:
                codes = [f"({_escape(ch)})" for ch in item.text]
            if item.spacing:
                moves = [f"{-1000 * space / item.size:g}" for space in item.spacing]
                moves += [""] * (len(codes) - len(moves))
                pieces = [p for pair in zip(codes, moves, strict=True) for p in pair if p]
                shown = "[" + " ".join(pieces) + "]"
            elif item.font in _CID_FONTS:
                shown = "<" + "".join(code[1:-1] for code in codes) + ">"
            else:
                shown = "(" + _escape(item.text) + ")"
            if item.angle:
                a = math.radians(item.angle)
                c, s = round(math.cos(a), 6), round(math.sin(a), 6)
                place = f"{c} {s} {-s} {c} {item.x} {item.y} Tm"
            else:
                lean = round(math.tan(math.radians(item.skew)), 6)
                place = f"1 0 {lean:g} 1 {item.x} {item.y} Tm"
            show = "TJ" if item.spacing else "Tj"
            if item.char_spacing or item.word_spacing:
                shown, show = f"{item.word_spacing:g} {item.char_spacing:g} {shown}", '"'
            text = f"BT /{item.font} {item.size} Tf {place} {shown} {show} ET"
            if item.char_spacing or item.word_spacing:
                text = f"q {text} Q"  # the spacing is the graphics state's: this run's only
            if item.artifact:
                text = f"/Artifact BMC {text} EMC"
            elif item.mcid is not None:
                text = f"/P <</MCID {item.mcid}>> BDC {text} EMC"
            ops.append(text)
        stream = "\n".join(ops).encode("latin-1")
        content = add_stream(stream)
        extra = b" /StructParents %d" % index if tags else b""
        rotate = b" /Rotate %d" % page.rotate if page.rotate else b""
        if page.crop is not None:
            rotate += b" /CropBox [%s]" % " ".join(f"{v:g}" for v in page.crop).encode()
        page_ids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %s %s] /Contents %d 0 R "
                b"/Resources << /Font %s /XObject << /Im1 %d 0 R >> >>%s%s >>"
                % (
                    pages_id,
                    str(page.width).encode(),
                    str(page.height).encode(),
                    content,
                    fonts,
                    image,
                    rotate,
                    extra,
                )
            )
        )
    objects[pages_id - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % p for p in page_ids),
        len(page_ids),
    )
    catalog_extra = b""
    if bookmarks:
        catalog_extra += b" /Outlines %d 0 R" % _outlines(
            bookmarks, page_ids, add, reserve, objects
        )
    if tags:
        catalog_extra += b" /MarkInfo << /Marked true >> /StructTreeRoot %d 0 R" % _structure(
            tags, page_ids, add, reserve, objects
        )
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R%s >>" % (pages_id, catalog_extra)
    return _serialise(objects, catalog)


def _one_code_cmap(name: bytes, code: bytes) -> bytes:
    """A ToUnicode CMap of one-byte codes mapping the code ``code`` (two hex digits) alone,
    to the character of that number."""
    return (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /%s def "
        b"1 begincodespacerange <00> <FF> endcodespacerange\n1 beginbfchar\n<%s> <00%s>\n"
        b"endbfchar endcmap end end" % (name, code, code)
    )


def _outlines(bookmarks, page_ids, add, reserve, objects) -> int:
    root = reserve()
    ids = [reserve() for _ in bookmarks]
    parents: list[int] = []  # index of each bookmark's parent (-1: the root)
    stack: list[int] = []
    for i, mark in enumerate(bookmarks):
        while stack and bookmarks[stack[-1]].level >= mark.level:
            stack.pop()
        parents.append(stack[-1] if stack else -1)
        stack.append(i)
    children: dict[int, list[int]] = {}
    for i, parent in enumerate(parents):
        children.setdefault(parent, []).append(i)
    for i, mark in enumerate(bookmarks):
        siblings = children[parents[i]]
        at = siblings.index(i)
        fields = [
            b"/Title (%s)" % _escape(mark.title).encode("latin-1"),
            b"/Parent %d 0 R" % (ids[parents[i]] if parents[i] >= 0 else root),
            b"/Dest [%d 0 R /Fit]" % page_ids[mark.page]
            if mark.y is None
            else b"/Dest [%d 0 R /XYZ 0 %s 0]" % (page_ids[mark.page], str(mark.y).encode()),
        ]
        if at > 0:
            fields.append(b"/Prev %d 0 R" % ids[siblings[at - 1]])
        if at + 1 < len(siblings):
            fields.append(b"/Next %d 0 R" % ids[siblings[at + 1]])
        kids = children.get(i, [])
        if kids:
            fields.append(
                b"/First %d 0 R /Last %d 0 R /Count %d" % (ids[kids[0]], ids[kids[-1]], len(kids))
            )
        objects[ids[i] - 1] = b"<< " + b" ".join(fields) + b" >>"
    top = children[-1]
    objects[root - 1] = b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (
        ids[top[0]],
        ids[top[-1]],
        len(top),
    )
    return root


def _structure(tags, page_ids, add, reserve, objects) -> int:
    root = reserve()
    document = reserve()
    elements = []
    by_page: dict[int, dict[int, int]] = {}
    for tag in tags:
        references = [
            b"<< /Type /MCR /Pg %d 0 R /MCID %d >>" % (page_ids[page], mcid)
            for page, mcid in tag.later
        ]
        element = add(
            b"<< /Type /StructElem /S /%s /P %d 0 R /Pg %d 0 R /K [%s] >>"
            % (
                tag.role.encode(),
                document,
                page_ids[tag.page],
                b" ".join([*(b"%d" % m for m in tag.mcids), *references]),
            )
        )
        elements.append(element)
        for page, mcid in [*((tag.page, m) for m in tag.mcids), *tag.later]:
            by_page.setdefault(page, {})[mcid] = element
    objects[document - 1] = b"<< /Type /StructElem /S /Document /P %d 0 R /K [%s] >>" % (
        root,
        b" ".join(b"%d 0 R" % e for e in elements),
    )
    nums = []
    for page in sorted(by_page):
        mcids = by_page[page]
        array = b" ".join(b"%d 0 R" % mcids.get(m, document) for m in range(max(mcids) + 1))
        nums.append(b"%d [%s]" % (page, array))
    parent_tree = add(b"<< /Nums [%s] >>" % b" ".join(nums))
    objects[root - 1] = b"<< /Type /StructTreeRoot /K %d 0 R /ParentTree %d 0 R >>" % (
        document,
        parent_tree,
    )
    return root


def _serialise(objects: list[bytes], catalog: int) -> bytes:
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        catalog,
        xref,
    )
    return bytes(out)


#: A paragraph of body text, for a section to hold.
BODY = (
    "The refrigeration plant is inspected every week by a competent person who records the "
    "result of every test in the plant log and signs the entry."
)
#: A second paragraph of body text, other than BODY, for pages to fill.
LOREM = (
    "Operators shall keep the refrigeration plant under continuous supervision and record "
    "every reading of the pressure gauges in the plant log before the end of each shift."
)


def sections(result) -> list[tuple[str, int]]:
    """A parse result's headings and their levels, the preface's left out."""
    from lightrag_pchunk.model import PREFACE_HEADING

    return [(r.heading, r.level) for r in result.rows if r.heading != PREFACE_HEADING]


def headings_of(result) -> list[str]:
    """A parse result's headings, the preface's left out."""
    return [heading for heading, _ in sections(result)]


def parse_pages(tmp_path: Path, pages: list[Page], **kwargs):
    """``pages`` built into ``tmp_path/doc.pdf`` (``build_pdf``'s keywords) and parsed by our
    PDF parser into ``tmp_path/out``."""
    from lightrag_pchunk.pdf.document import parse_pdf

    path = tmp_path / "doc.pdf"
    path.write_bytes(build_pdf(pages, **kwargs))
    return parse_pdf(path, tmp_path / "out", doc_id="doc-test")


def outline_rows(result) -> list:
    """A parse result's rows outside a printed table of contents: the document's own outline."""
    from lightrag_pchunk.model import TOC_SESSION

    return [r for r in result.rows if r.extra.get("session_type") != TOC_SESSION]


def contents_rows(result) -> list:
    """A parse result's rows of a printed table of contents."""
    from lightrag_pchunk.model import TOC_SESSION

    return [r for r in result.rows if r.extra.get("session_type") == TOC_SESSION]


def tags_of(result) -> list[list[list[str]]]:
    """The JSON table tags of a parse result's rows, decoded: one list of rows per table."""
    found = []
    for row in result.rows:
        for line in row.content.split("\n"):
            if line.startswith("<table"):
                found.append(json.loads(line[line.index(">") + 1 : -len("</table>")]))
    return found
