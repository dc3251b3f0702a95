"""Write small .docx packages (and deliberately broken zips) for tests, from raw XML strings.

``docx_bytes(body)`` gives a minimal valid package; ``build_zip(entries)`` writes any entries,
unsafe names and duplicates included; the ``patch_*`` helpers forge zip headers afterwards.
"""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
STRICT_W_NS = "http://purl.oclc.org/ooxml/wordprocessingml/main"
STRICT_R_NS = "http://purl.oclc.org/ooxml/officeDocument/relationships"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
STRICT_REL = "http://purl.oclc.org/ooxml/officeDocument/relationships/"
PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"

DOCX_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
DOCM_MAIN = "application/vnd.ms-word.document.macroEnabled.main+xml"
DOTX_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml"
DOTM_MAIN = "application/vnd.ms-word.template.macroEnabledTemplate.main+xml"
GLOSSARY = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.glossary+xml"
STYLES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"
NUMBERING_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"
XLSX_MAIN = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"

#: (Id, Type tail or full URI, Target[, "External"])
Rel = tuple


def paragraph(
    text: str = "", *, style: str | None = None, outline: int | None = None, ppr: str = ""
) -> str:
    """One ``w:p`` with an optional pStyle, direct outline level and extra pPr children."""
    props = f'<w:pStyle w:val="{style}"/>' if style is not None else ""
    props += f'<w:outlineLvl w:val="{outline}"/>' if outline is not None else ""
    props += ppr
    ppr_xml = f"<w:pPr>{props}</w:pPr>" if props else ""
    run = f'<w:r><w:t xml:space="preserve">{escape(text)}</w:t></w:r>' if text else ""
    return f"<w:p>{ppr_xml}{run}</w:p>"


def document_xml(body: str = "", *, strict: bool = False) -> str:
    """``w:document`` around ``body`` (w:p / w:tbl XML using the ``w:`` and ``r:`` prefixes)."""
    w, r = (STRICT_W_NS, STRICT_R_NS) if strict else (W_NS, R_NS)
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<w:document xmlns:w="{w}" xmlns:r="{r}"><w:body>{body}</w:body></w:document>'
    )


def styles_xml(styles: str = "", *, strict: bool = False) -> str:
    """``w:styles`` around raw ``w:style`` elements."""
    w = STRICT_W_NS if strict else W_NS
    return f'<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="{w}">{styles}</w:styles>'


def style(
    style_id: str,
    name: str | None = None,
    *,
    based_on: str | None = None,
    outline: int | None = None,
    num_id: int | None = None,
    ilvl: int | None = None,
    kind: str | None = "paragraph",
    default: bool = False,
) -> str:
    """One ``w:style`` element."""
    attrs = f' w:type="{kind}"' if kind else ""
    attrs += ' w:default="1"' if default else ""
    inner = f"<w:name w:val={quoteattr(name)}/>" if name is not None else ""
    inner += f'<w:basedOn w:val="{based_on}"/>' if based_on is not None else ""
    ppr = ""
    if num_id is not None or ilvl is not None:
        num = f'<w:ilvl w:val="{ilvl}"/>' if ilvl is not None else ""
        num += f'<w:numId w:val="{num_id}"/>' if num_id is not None else ""
        ppr += f"<w:numPr>{num}</w:numPr>"
    ppr += f'<w:outlineLvl w:val="{outline}"/>' if outline is not None else ""
    inner += f"<w:pPr>{ppr}</w:pPr>" if ppr else ""
    return f"<w:style{attrs} w:styleId={quoteattr(style_id)}>{inner}</w:style>"


def rels_xml(rels: Iterable[Rel], *, strict: bool = False) -> str:
    """A ``.rels`` part; a type without ``/`` is taken as a tail of the officeDocument URIs."""
    items = []
    for rid, rel_type, target, *mode in rels:
        full = rel_type if "/" in rel_type else (STRICT_REL if strict else REL) + rel_type
        extra = f' TargetMode="{mode[0]}"' if mode else ""
        items.append(
            f"<Relationship Id={quoteattr(rid)} Type={quoteattr(full)}"
            f" Target={quoteattr(target)}{extra}/>"
        )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG_REL_NS}">'
        f"{''.join(items)}</Relationships>"
    )


def content_types_xml(
    overrides: Mapping[str, str], defaults: Mapping[str, str] | None = None
) -> str:
    """``[Content_Types].xml``; ``overrides`` maps part names (with or without ``/``)."""
    defaults = {
        "rels": "application/vnd.openxmlformats-package.relationships+xml",
        "xml": "application/xml",
        **(defaults or {}),
    }
    items = [
        f"<Default Extension={quoteattr(e)} ContentType={quoteattr(t)}/>"
        for e, t in defaults.items()
    ]
    items += [
        f"<Override PartName={quoteattr('/' + p.lstrip('/'))} ContentType={quoteattr(t)}/>"
        for p, t in overrides.items()
    ]
    return f'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="{CT_NS}">{"".join(items)}</Types>'


def build_zip(
    entries: Mapping[str, bytes | str] | Iterable[tuple[str, bytes | str]],
    *,
    compression: int = zipfile.ZIP_DEFLATED,
) -> bytes:
    """A zip of ``entries`` written as given: unsafe names and duplicates are kept."""
    items = entries.items() if isinstance(entries, Mapping) else entries
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as zf:
        for name, data in items:
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = compression
            zf.writestr(info, data.encode("utf-8") if isinstance(data, str) else data)
    return buffer.getvalue()


def docx_entries(
    body: str = "",
    *,
    main_part: str = "word/document.xml",
    main_type: str = DOCX_MAIN,
    document: str | None = None,
    styles: str | None = None,
    numbering: str | None = None,
    strict: bool = False,
    main_rels: Iterable[Rel] = (),
    extra: Mapping[str, bytes | str] | None = None,
    overrides: Mapping[str, str] | None = None,
) -> dict[str, bytes | str]:
    """The entries of a minimal Word package (edit the dict before :func:`build_zip`)."""
    folder = main_part.rpartition("/")[0]
    rels = list(main_rels)
    parts: dict[str, bytes | str] = {}
    types = {main_part: main_type, **(overrides or {})}
    if styles is not None:
        parts[f"{folder}/styles.xml"] = styles
        rels.append(("rIdStyles", "styles", "styles.xml"))
        types[f"{folder}/styles.xml"] = STYLES_CT
    if numbering is not None:
        parts[f"{folder}/numbering.xml"] = numbering
        rels.append(("rIdNumbering", "numbering", "numbering.xml"))
        types[f"{folder}/numbering.xml"] = NUMBERING_CT
    entries: dict[str, bytes | str] = {
        "[Content_Types].xml": content_types_xml(types),
        "_rels/.rels": rels_xml([("rId1", "officeDocument", main_part)], strict=strict),
        main_part: document if document is not None else document_xml(body, strict=strict),
        **parts,
    }
    if rels:
        base = main_part.rpartition("/")[2]
        entries[f"{folder}/_rels/{base}.rels"] = rels_xml(rels, strict=strict)
    entries.update(extra or {})
    return entries


def docx_bytes(body: str = "", **kwargs) -> bytes:
    """A minimal valid package; keywords as :func:`docx_entries`."""
    return build_zip(docx_entries(body, **kwargs))


def write_streamed_zip(
    path: Path, name: str, chunks: Iterable[bytes], entries: Mapping[str, bytes | str] | None = None
) -> Path:
    """Write ``entries`` plus one member ``name`` streamed from ``chunks`` (never all in memory)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for entry, data in (entries or {}).items():
            zf.writestr(entry, data)
        with zf.open(name, "w", force_zip64=True) as member:
            for chunk in chunks:
                member.write(chunk)
    return path


def _headers(data: bytes, name: str) -> tuple[int, int]:
    """Offsets of the local and central headers of entry ``name``."""
    encoded = name.encode("utf-8")
    local = data.find(b"PK\x03\x04")
    while local >= 0:
        length = struct.unpack_from("<H", data, local + 26)[0]
        if data[local + 30 : local + 30 + length] == encoded:
            break
        local = data.find(b"PK\x03\x04", local + 4)
    central = data.find(b"PK\x01\x02")
    while central >= 0:
        length = struct.unpack_from("<H", data, central + 28)[0]
        if data[central + 46 : central + 46 + length] == encoded:
            break
        central = data.find(b"PK\x01\x02", central + 4)
    if local < 0 or central < 0:
        raise KeyError(name)
    return local, central


def patch_declared_size(data: bytes, name: str, file_size: int) -> bytes:
    """Forge the uncompressed size that entry ``name`` declares (local and central header)."""
    buf = bytearray(data)
    local, central = _headers(data, name)
    struct.pack_into("<I", buf, local + 22, file_size)
    struct.pack_into("<I", buf, central + 24, file_size)
    return bytes(buf)


def patch_flags(
    data: bytes, name: str, *, flag_bits: int | None = None, method: int | None = None
) -> bytes:
    """Forge the general-purpose flags (bit 0: encrypted) or compression method of ``name``."""
    buf = bytearray(data)
    local, central = _headers(data, name)
    if flag_bits is not None:
        struct.pack_into("<H", buf, local + 6, flag_bits)
        struct.pack_into("<H", buf, central + 8, flag_bits)
    if method is not None:
        struct.pack_into("<H", buf, local + 8, method)
        struct.pack_into("<H", buf, central + 10, method)
    return bytes(buf)


def rename_entry(data: bytes, old: str, new: str) -> bytes:
    """Rename an entry in place (same byte length), e.g. to put a NUL into its name."""
    old_b, new_b = old.encode("utf-8"), new.encode("utf-8")
    if len(old_b) != len(new_b):
        raise ValueError("names must have the same length in bytes")
    return data.replace(old_b, new_b)


# -- whole documents for the parser tests (test_walk, test_text, test_tables, test_notes ...) ----

#: Namespace declarations for bodies that use drawings, math, text boxes and revisions.
RICH_NAMESPACES = {
    "w": W_NS,
    "r": R_NS,
    "m": "http://schemas.openxmlformats.org/officeDocument/2006/math",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    "w14": "http://schemas.microsoft.com/office/word/2010/wordml",
    "wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "pic": "http://schemas.openxmlformats.org/drawingml/2006/picture",
    "wps": "http://schemas.microsoft.com/office/word/2010/wordprocessingShape",
    "v": "urn:schemas-microsoft-com:vml",
    "o": "urn:schemas-microsoft-com:office:office",
}
FOOTNOTES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
ENDNOTES_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml"
PNG_1PX = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c6360f8cfc0f01f0005000201e2b3cc5d0000000049454e44ae426082"
)


def rich_xml(root: str, inner: str) -> str:
    """``<w:{root}>`` declaring every prefix of :data:`RICH_NAMESPACES` around ``inner``."""
    decls = " ".join(f'xmlns:{prefix}="{uri}"' for prefix, uri in RICH_NAMESPACES.items())
    head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    return f"{head}<w:{root} {decls}>{inner}</w:{root}>"


def rich_document_xml(body: str) -> str:
    """``w:document`` whose body may use any prefix of :data:`RICH_NAMESPACES`."""
    return rich_xml("document", f"<w:body>{body}</w:body>")


def notes_xml(kind: str, notes: Mapping[str, str]) -> str:
    """``w:footnotes``/``w:endnotes`` (``kind`` "footnote"/"endnote") with Word's separator
    notes (ids -1 and 0) and one note per ``id -> paragraphs XML``."""
    items = [
        f'<w:{kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{kind}>',
        f'<w:{kind} w:type="continuationSeparator" w:id="0"><w:p><w:r>'
        f"<w:continuationSeparator/></w:r></w:p></w:{kind}>",
    ]
    items += [f'<w:{kind} w:id="{nid}">{xml}</w:{kind}>' for nid, xml in notes.items()]
    return rich_xml(f"{kind}s", "".join(items))


def rich_docx_bytes(
    body: str,
    *,
    styles: str | None = None,
    numbering: str | None = None,
    footnotes: Mapping[str, str] | None = None,
    endnotes: Mapping[str, str] | None = None,
    media: Mapping[str, bytes] | None = None,
    extra_rels: Iterable[Rel] = (),
    extra: Mapping[str, bytes | str] | None = None,
    overrides: Mapping[str, str] | None = None,
    main_type: str = DOCX_MAIN,
) -> bytes:
    """A package around a rich body; ``media`` maps ``rId`` -> PNG bytes stored as
    ``word/media/<rId>.png``; notes parts are added with their relationships."""
    rels = list(extra_rels)
    parts: dict[str, bytes | str] = dict(extra or {})
    types = dict(overrides or {})
    if footnotes is not None:
        parts["word/footnotes.xml"] = notes_xml("footnote", footnotes)
        rels.append(("rIdFootnotes", "footnotes", "footnotes.xml"))
        types["word/footnotes.xml"] = FOOTNOTES_CT
    if endnotes is not None:
        parts["word/endnotes.xml"] = notes_xml("endnote", endnotes)
        rels.append(("rIdEndnotes", "endnotes", "endnotes.xml"))
        types["word/endnotes.xml"] = ENDNOTES_CT
    for rid, data in (media or {}).items():
        parts[f"word/media/{rid}.png"] = data
        rels.append((rid, "image", f"media/{rid}.png"))
        types[f"word/media/{rid}.png"] = "image/png"
    return build_zip(
        docx_entries(
            document=rich_document_xml(body),
            styles=styles,
            numbering=numbering,
            main_rels=rels,
            extra=parts,
            overrides=types,
            main_type=main_type,
        )
    )


def write_rich_docx(path: Path, body: str, **kwargs) -> Path:
    """Write :func:`rich_docx_bytes` to ``path``; returns ``path``."""
    path.write_bytes(rich_docx_bytes(body, **kwargs))
    return path


def numbering_xml(*parts: str) -> str:
    """``w:numbering`` around raw ``w:abstractNum``/``w:num`` elements."""
    return rich_xml("numbering", "".join(parts))


def run(text: str, rpr: str = "") -> str:
    """One ``w:r`` with optional raw ``w:rPr`` children."""
    props = f"<w:rPr>{rpr}</w:rPr>" if rpr else ""
    return f'<w:r>{props}<w:t xml:space="preserve">{escape(text)}</w:t></w:r>'


def para(*inner: str, style: str | None = None, ppr: str = "", para_id: str | None = None) -> str:
    """A ``w:p`` from raw inline XML pieces (plain strings are wrapped in runs)."""
    props = (f'<w:pStyle w:val="{style}"/>' if style else "") + ppr
    attrs = f' w14:paraId="{para_id}"' if para_id else ""
    content = "".join(piece if piece.startswith("<") else run(piece) for piece in inner)
    return f"<w:p{attrs}>{f'<w:pPr>{props}</w:pPr>' if props else ''}{content}</w:p>"


def table(
    rows: Iterable[Iterable[str]],
    *,
    grid: int | None = None,
    row_props: Mapping[int, str] | None = None,
) -> str:
    """A ``w:tbl``: each cell is raw ``<w:tc>`` XML or plain text (one paragraph);
    ``row_props`` maps a row index to raw ``w:trPr`` children."""
    rows = [list(r) for r in rows]
    cols = grid if grid is not None else max((len(r) for r in rows), default=0)
    grid_xml = "".join("<w:gridCol/>" for _ in range(cols))
    out = []
    for index, row in enumerate(rows):
        props = (row_props or {}).get(index)
        tr_pr = f"<w:trPr>{props}</w:trPr>" if props else ""
        cells = "".join(c if c.startswith("<w:tc") else f"<w:tc>{para(c)}</w:tc>" for c in row)
        out.append(f"<w:tr>{tr_pr}{cells}</w:tr>")
    return f"<w:tbl><w:tblPr/><w:tblGrid>{grid_xml}</w:tblGrid>{''.join(out)}</w:tbl>"


def cell(*paragraphs: str, tc_pr: str = "") -> str:
    """A ``w:tc`` from raw paragraph/table XML (plain strings become paragraphs)."""
    props = f"<w:tcPr>{tc_pr}</w:tcPr>" if tc_pr else ""
    content = "".join(x if x.startswith("<") else para(x) for x in paragraphs) or "<w:p/>"
    return f"<w:tc>{props}{content}</w:tc>"


# -- tables -------------------------------------------------------------------------------

V_RESTART = '<w:vMerge w:val="restart"/>'
V_CONTINUE = "<w:vMerge/>"


def span(n: int) -> str:
    """A ``w:gridSpan`` of ``n`` columns, for a cell's properties."""
    return f'<w:gridSpan w:val="{n}"/>'


def grid_of(xml: str):
    """Read the first table of a body with a cell reader that returns the cell's plain text."""
    from lightrag_pchunk.parse.tables import CellContent, read_table
    from lightrag_pchunk.parse.xml import parse_xml, qn

    root = parse_xml(rich_document_xml(xml).encode())
    tbl = root.find(f"{qn('w:body')}/{qn('w:tbl')}")

    def read_cell(tc):
        return CellContent("\n".join("".join(p.itertext()) for p in tc.iter(qn("w:p"))))

    return read_table(tbl, read_cell)
