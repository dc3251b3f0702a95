"""Hostile Word packages and a seeded mutator, for the tests of hostile input.

The amplification packages are tiny files that expand to far more text than they hold: a
vertically merged cell repeated over thousands of rows, one chart referenced thousands of
times, altChunks that import a package importing a package (fan-out), HTML altChunks with
spans or sheer size, and thousands of references to one picture. Each builder returns the
``.docx`` bytes; sizes are parameters, so a test builds a small one. :func:`mutants`
derives seeded mutants of real files (byte flips, truncation, XML-level edits inside the
zip), the same list for the same seed.
"""

from __future__ import annotations

import io
import random
import zipfile
from collections.abc import Iterator
from pathlib import Path
from xml.sax.saxutils import escape

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
PIC = "http://schemas.openxmlformats.org/drawingml/2006/picture"
C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
MAIN_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
DOCX_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
CHART_CT = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
PNG_1PX = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c6360f8cfc0f01f0005000201e2b3cc5d0000000049454e44ae426082"
)
_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'


def package(
    body: str,
    *,
    rels: list[tuple[str, str, str]] = (),  # type: ignore[assignment]
    parts: dict[str, bytes | str] | None = None,
    types: dict[str, str] | None = None,
    namespaces: str = "",
) -> bytes:
    """A Word package around ``body``; ``rels`` are (Id, type tail, target) of the main part,
    ``parts`` extra entries and ``types`` their content types (Override)."""
    overrides = {"/word/document.xml": MAIN_CT, **(types or {})}
    ct = "".join(
        f'<Override PartName="{name}" ContentType="{kind}"/>' for name, kind in overrides.items()
    )
    entries: dict[str, bytes | str] = {
        "[Content_Types].xml": (
            f'{_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            f'<Default Extension="png" ContentType="image/png"/>{ct}</Types>'
        ),
        "_rels/.rels": _rels([("rId1", "officeDocument", "word/document.xml")]),
        "word/document.xml": (
            f'{_HEAD}<w:document xmlns:w="{W}" xmlns:r="{R}" {namespaces}>'
            f"<w:body>{body}</w:body></w:document>"
        ),
    }
    if rels:
        entries["word/_rels/document.xml.rels"] = _rels(rels)
    entries.update(parts or {})
    return _zip(entries)


def _rels(rels: list[tuple[str, str, str]]) -> str:
    items = "".join(
        f'<Relationship Id="{rid}" Type="{REL}{kind}" Target="{escape(target)}"/>'
        for rid, kind, target in rels
    )
    return (
        f'{_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
        f'relationships">{items}</Relationships>'
    )


def _zip(entries: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in entries.items():
            archive.writestr(name, data.encode("utf-8") if isinstance(data, str) else data)
    return buffer.getvalue()


def _p(text: str) -> str:
    return f"<w:p><w:r><w:t>{escape(text)}</w:t></w:r></w:p>"


# -- amplification -------------------------------------------------------------------------------


def merged_cell_bomb(
    rows: int = 5000, cell_chars: int = 32_000, columns: int = 1, *, values: bool = False
) -> bytes:
    """One table whose first ``columns`` cells restart a vertical merge holding ``cell_chars``
    characters, continued over ``rows`` rows: a merged cell repeats its text in every row.
    ``values``: two more columns hold a number in every row (a data table, not a layout)."""
    text = ("merged " * (cell_chars // 7 + 1))[:cell_chars]
    restart = f'<w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr>{_p(text)}</w:tc>'
    cont = "<w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc>"

    def cells(i: int) -> str:
        if not values:
            return f"<w:tc>{_p('x') if i < 0 else '<w:p/>'}</w:tc>"
        return f"<w:tc>{_p(str(i + 1))}</w:tc><w:tc>{_p(str(i + 1001))}</w:tc>"

    grid = "<w:gridCol/>" * (columns + (2 if values else 1))
    first_row = f"<w:tr>{restart * columns}{cells(-1)}</w:tr>"
    body = "".join(f"<w:tr>{cont * columns}{cells(i)}</w:tr>" for i in range(rows))
    return package(f"<w:tbl><w:tblGrid>{grid}</w:tblGrid>{first_row}{body}</w:tbl>{_p('end')}")


def chart_bomb(references: int = 5000, series: int = 200, name_chars: int = 100) -> bytes:
    """One chart part (a title and ``series`` series names) referenced ``references`` times."""
    names = "".join(
        f"<c:ser><c:tx><c:strRef><c:strCache><c:pt><c:v>{'s' * name_chars}{i}</c:v></c:pt>"
        "</c:strCache></c:strRef></c:tx></c:ser>"
        for i in range(series)
    )
    chart = (
        f'{_HEAD}<c:chartSpace xmlns:c="{C}" xmlns:a="{A}"><c:chart><c:title><c:tx><c:rich>'
        "<a:p><a:r><a:t>Chart title</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea>"
        f"<c:barChart>{names}</c:barChart></c:plotArea></c:chart></c:chartSpace>"
    )
    ref = (
        '<w:r><w:drawing><wp:inline><wp:docPr id="1" name="Chart"/><a:graphic><a:graphicData'
        f' uri="{C}"><c:chart r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline>'
        "</w:drawing></w:r>"
    )
    body = f"<w:p>{ref * references}</w:p>"
    return package(
        body,
        rels=[("rIdChart", "chart", "charts/chart1.xml")],
        parts={"word/charts/chart1.xml": chart},
        types={"/word/charts/chart1.xml": CHART_CT},
        namespaces=f'xmlns:wp="{WP}" xmlns:a="{A}" xmlns:c="{C}"',
    )


def picture_bomb(references: int = 100_000, seed: int = 0) -> bytes:
    """One picture referenced ``references`` times (a tag and a drawings.json item each);
    the references differ (random alt text), so the zip's ratio check does not see them."""
    rng = random.Random(seed)
    refs = "".join(
        f'<w:r><w:drawing><wp:inline><wp:docPr id="{i}" name="P" descr="{rng.getrandbits(64):x}"'
        '/><a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip r:embed="rIdImg"/>'
        "</pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"
        for i in range(references)
    )
    return package(
        f"<w:p>{refs}</w:p>",
        rels=[("rIdImg", "image", "media/image1.png")],
        parts={"word/media/image1.png": PNG_1PX},
        namespaces=f'xmlns:wp="{WP}" xmlns:a="{A}" xmlns:pic="{PIC}"',
    )


def altchunk_fanout(width: int = 30, depth: int = 3, text_chars: int = 200) -> bytes:
    """A package whose body imports one embedded package ``width`` times, which imports the
    next one ``width`` times, ``depth`` levels deep: width**depth copies of the innermost text."""
    inner = package(_p(("leaf " * text_chars)[:text_chars]))
    for _ in range(depth):
        inner = package(
            '<w:altChunk r:id="rIdChunk"/>' * width,
            rels=[("rIdChunk", "aFChunk", "chunk.docx")],
            parts={"word/chunk.docx": inner},
            types={"/word/chunk.docx": DOCX_CT},
        )
    return inner


def html_altchunk(html: bytes | str, copies: int = 1) -> bytes:
    """A package importing one HTML altChunk ``copies`` times."""
    data = html.encode("utf-8") if isinstance(html, str) else html
    return package(
        '<w:altChunk r:id="rIdHtml"/>' * copies,
        rels=[("rIdHtml", "aFChunk", "chunk.html")],
        parts={"word/chunk.html": data},
        types={"/word/chunk.html": "text/html"},
    )


def html_span_bomb(rows: int = 2000, cell_chars: int = 10_000) -> bytes:
    """An HTML table whose first cell spans 63 columns and ``rows`` rows: its text repeats."""
    text = ("span " * (cell_chars // 5 + 1))[:cell_chars]
    first = f'<tr><td colspan="63" rowspan="{rows}">{text}</td><td>x</td></tr>'
    return html_altchunk(f"<html><body><table>{first}{'<tr><td>y</td></tr>' * rows}</table>")


def html_size_bomb(megabytes: int = 15) -> bytes:
    """A highly compressible HTML altChunk of ``megabytes`` MB of tiny elements."""
    unit = "<p><b>a</b></p>"
    return html_altchunk(
        "<html><body>" + unit * (megabytes * 1024 * 1024 // len(unit)) + "</body></html>"
    )


def footnote_bomb(references: int = 200_000, note_chars: int = 2000) -> bytes:
    """One long footnote referenced ``references`` times (its text is written once)."""
    note = _p(("note " * note_chars)[:note_chars])
    notes = (
        f'{_HEAD}<w:footnotes xmlns:w="{W}"><w:footnote w:id="1">{note}</w:footnote></w:footnotes>'
    )
    ref = '<w:r><w:footnoteReference w:id="1"/></w:r>'
    return package(
        f"<w:p>{ref * references}</w:p>",
        rels=[("rIdNotes", "footnotes", "footnotes.xml")],
        parts={"word/footnotes.xml": notes},
        types={
            "/word/footnotes.xml": (
                "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
            )
        },
    )


#: Mutation operators, by name; each takes (data, rng) and returns new package bytes.
_XML_EDITS = (
    (b"<w:t>", b"<w:t xml:space='preserve'>"),
    (b"</w:p>", b"</w:p></w:p>"),
    (b"<w:tc>", b"<w:tc><w:tcPr><w:vMerge/></w:tcPr>"),
    (b"<w:tc>", b'<w:tc><w:tcPr><w:gridSpan w:val="999999"/></w:tcPr>'),
    (b"<w:p>", b"<w:p><w:pPr><w:numPr><w:ilvl w:val='8'/><w:numId w:val='1'/></w:numPr></w:pPr>"),
    (b'w:val="', b'w:val="-'),
    (b'r:id="', b'r:id="x'),
    (b"<w:body>", b"<w:body><w:altChunk r:id='rId1'/>"),
    (b"<w:r>", b"<w:r><w:footnoteReference w:id='1'/>"),
    (b'Target="', b'Target="../../'),
    (b'Target="', b'TargetMode="External" Target="file:///etc/passwd#'),
)


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 16)):
        buf[rng.randrange(len(buf))] = rng.randrange(256)
    return bytes(buf)


def _truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(1, len(data))]


def _edit_parts(data: bytes, rng: random.Random) -> bytes:
    """Rewrite the zip with XML-level edits applied to a few parts (still a valid zip)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entries = [(info, archive.read(info)) for info in archive.infolist()]
    except Exception:  # a corpus file that is itself a broken zip: flip bytes instead
        return _mutate_bytes(data, rng)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, content in entries:
            if content[:5] == b"<?xml" or info.filename.endswith((".xml", ".rels")):
                for _ in range(rng.randint(0, 3)):
                    old, new = rng.choice(_XML_EDITS)
                    content = _replace_nth(content, old, new, rng)
                if rng.random() < 0.05:
                    content = _mutate_bytes(content, rng) if content else content
            archive.writestr(info.filename, content)
        if rng.random() < 0.2 and entries:  # an ambiguous twin of a part
            info, content = rng.choice(entries)
            archive.writestr(info.filename.upper(), content)
    return out.getvalue()


def _replace_nth(content: bytes, old: bytes, new: bytes, rng: random.Random) -> bytes:
    count = content.count(old)
    if not count:
        return content
    start = -1
    for _ in range(rng.randrange(count) + 1):
        start = content.find(old, start + 1)
    return content[:start] + new + content[start + len(old) :]


_OPERATORS = ((_edit_parts, 6), (_mutate_bytes, 3), (_truncate, 1))


#: Suffixes of the corpus files mutated.
WORD_SUFFIXES = frozenset({".docx", ".docm", ".dotx", ".dotm"})


def corpus_sources(folder: Path, max_bytes: int | None = None) -> list[tuple[str, bytes]]:
    """``(name, bytes)`` of the Word files in ``folder``, sorted, at most ``max_bytes`` each."""
    return [
        (path.name, path.read_bytes())
        for path in sorted(folder.iterdir())
        if path.suffix.lower() in WORD_SUFFIXES
        and (max_bytes is None or path.stat().st_size <= max_bytes)
    ]


def mutants(sources: list[tuple[str, bytes]], count: int, seed: int) -> Iterator[tuple[str, bytes]]:
    """``count`` seeded mutants of ``sources`` ((name, bytes) pairs): ``(label, bytes)``."""
    rng = random.Random(seed)
    operators = [op for op, weight in _OPERATORS for _ in range(weight)]
    for index in range(count):
        name, data = rng.choice(sources)
        operator = rng.choice(operators)
        yield f"{index:04d}-{operator.__name__.strip('_')}-{name}", operator(data, rng)
