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
