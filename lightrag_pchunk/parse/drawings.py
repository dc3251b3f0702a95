"""Stage A: pictures -> files in ``<stem>.blocks.assets/`` and one-line ``<drawing … />`` tags.

Input: a ``w:drawing`` (DrawingML), ``w:pict`` or ``w:object`` (VML) element and the part it sits
in. Output: the tag LightRAG 1.5.7 writes (upstream facts §5.2) and a ``drawings.json`` record
per tag (§5.3). Each distinct media part is read and written once; every reference gets its own
tag and id, all pointing at that one file. File names come from the media part's basename,
reduced to ``[A-Za-z0-9._-]`` with a known image extension, and the resolved path is checked to
lie inside ``assets_dir`` before anything is written. A missing or over-budget image gives a tag
with ``path=""`` and a warning, never an exception. A picture linked from outside the package
(``TargetMode="External"``) gets ``path=""`` and only the target's file name in ``src`` (its
record says ``"extras": {"external": true}``): the target itself is never copied. Shapes,
charts and SmartArt without a picture give no tag (their text is available from
:meth:`DrawingExtractor.graphic_text`).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from lxml import etree

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.equations import escape_attr
from lightrag_pchunk.parse.xml import qn

if TYPE_CHECKING:
    from lightrag_pchunk.parse.budget import OutputBudget
    from lightrag_pchunk.parse.opc import Relationship
    from lightrag_pchunk.parse.package import DocxPackage


_DGM = "{http://schemas.openxmlformats.org/drawingml/2006/diagram}"
_CHART = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"

# Extensions and content-type subtypes -> the ``format`` LightRAG writes: jpg -> jpeg, x-emf -> emf.
_FORMATS = {
    "png": "png", "jpeg": "jpeg", "jpg": "jpeg", "pjpeg": "jpeg", "jpe": "jpeg", "gif": "gif",
    "bmp": "bmp", "x-bmp": "bmp", "x-ms-bmp": "bmp", "dib": "bmp", "tiff": "tiff", "tif": "tiff",
    "emf": "emf", "x-emf": "emf", "wmf": "wmf", "x-wmf": "wmf", "svg": "svg", "svg+xml": "svg",
    "webp": "webp",
}  # fmt: skip
_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "png"), (b"\xff\xd8\xff", "jpeg"), (b"GIF87a", "gif"),
    (b"GIF89a", "gif"), (b"BM", "bmp"), (b"II*\x00", "tiff"), (b"MM\x00*", "tiff"),
    (b"\xd7\xcd\xc6\x9a", "wmf"), (b"\x01\x00\x09\x00\x00\x03", "wmf"),
)  # fmt: skip
_WINDOWS_RESERVED = frozenset(
    ["CON", "PRN", "AUX", "NUL"] + [f"{d}{i}" for d in ("COM", "LPT") for i in range(1, 10)]
)
_MAX_STEM = 100
# Characters a drawings.json item adds beyond its tag's text (keys, indentation).
_ITEM_OVERHEAD = 120
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class DrawingExtractor:
    """Turns picture references into ``<drawing>`` tags, writing each media part once.

    ``records`` holds the ``drawings.json`` items by id in LightRAG's field order; the walk fills
    ``blockid``, ``heading`` and ``parent_headings``. ``warnings`` collects user-facing messages.
    """

    def __init__(
        self,
        package: DocxPackage,
        *,
        assets_dir: Path | None,
        assets_prefix: str,
        doc_hash: str,
        budget: OutputBudget | None = None,
    ) -> None:
        self.records: dict[str, dict] = {}
        self._budget = budget
        self.warnings: list[str] = []
        self._package = package
        self._assets = AssetFolder(assets_dir, assets_prefix)
        self._doc_hash = doc_hash
        self._count = 0
        # media part -> (asset file name, "" when not extracted; format)
        self._files: dict[str, tuple[str, str]] = {}

    def tag(self, element: etree._Element, source_part: str) -> str | None:
        """The ``<drawing … />`` tag(s) for the pictures in ``element``, or None when it has none.

        A group or canvas holding several pictures gives one tag per picture, space-separated.
        """
        refs = _picture_refs(element)
        if not refs:
            return None
        return " ".join(self._tag_one(embed, link, alt, source_part) for embed, link, alt in refs)

    def graphic_text(self, element: etree._Element, source_part: str) -> list[str]:
        """Text lines of SmartArt nodes and a chart's title and series names in ``element``.

        These drawings have no picture, and LightRAG drops their text; the walk may keep it.
        A part referenced many times gives its text each time: the output budget counts it
        here, as each copy is made.
        """
        lines: list[str] = []
        for ids in element.iter(f"{_DGM}relIds"):
            lines += self._part_lines(source_part, ids.get(qn("r:dm")), _diagram_lines)
        for chart in element.iter(f"{_CHART}chart"):
            lines += self._part_lines(source_part, chart.get(qn("r:id")), _chart_lines)
        if lines and self._budget is not None:
            self._budget.charge_lines(lines, "the text of a chart or diagram, per reference")
        return lines

    def _tag_one(self, embed: str | None, link: str | None, alt: str, source_part: str) -> str:
        path, src, fmt = "", "", ""
        link_rel = self._relationship(source_part, link) if link else None
        if link_rel is not None and link_rel.is_external:
            src, fmt = external_name(link_rel.target), _format_of_name(link_rel.target)
        elif link_rel is not None and not embed:
            embed = link  # a "link" to a part inside the package is an embedded picture
        embed_rel = self._relationship(source_part, embed) if embed else None
        if embed_rel is not None and embed_rel.is_external:  # VML r:id links
            src, fmt = external_name(embed_rel.target), _format_of_name(embed_rel.target)
        elif embed_rel is not None:
            path, fmt = self._asset(embed_rel.target)
        self._count += 1
        drawing_id = f"im-{self._doc_hash}-{self._count:04d}"
        record = drawing_record(drawing_id, fmt, path, src, alt)
        if src:
            record["extras"] = {"external": True}
        self.records[drawing_id] = record
        tag = drawing_tag(record)
        if self._budget is not None:  # its drawings.json item holds about as much again
            self._budget.charge(len(tag) + _ITEM_OVERHEAD, "a drawings.json item per picture")
        return tag

    def _relationship(self, source_part: str, rid: str) -> Relationship | None:
        rel = self._package.target(source_part, rid)
        if rel is None:
            self._warn(f"picture relationship {rid!r} of {source_part} does not exist; no file")
        return rel

    def _asset(self, part: str) -> tuple[str, str]:
        """``(tag path, format)`` of a media part, reading and writing it on first use only."""
        if part not in self._files:
            self._files[part] = self._export(part)
        name, fmt = self._files[part]
        return self._assets.tag_path(name), fmt

    def _export(self, part: str) -> tuple[str, str]:
        fmt = _format_of_type(self._package.content_type(part)) or _format_of_name(part)
        if not self._package.has_part(part):
            self._warn(f"picture part {part} is missing from the package; no file written")
            return "", fmt
        try:
            data = self._package.read_bytes(part)
        except DocxParseError as exc:
            self._warn(f"picture part {part} was not extracted: {exc.detail}")
            return "", fmt
        fmt = fmt or sniff_image_format(data) or _subtype(self._package.content_type(part))
        name = self._assets.allocate(part, fmt)
        problem = self._assets.write(name, data)
        if problem:
            self._warn(problem)
            return "", fmt
        return name, fmt

    def _part_lines(self, source_part: str, rid: str | None, reader) -> list[str]:
        rel = self._package.target(source_part, rid) if rid else None
        if rel is None or rel.is_external:
            return []
        try:
            root = self._package.read_xml(rel.target)
        except DocxParseError as exc:
            self._warn(f"text of {rel.target} was not read: {exc.detail}")
            return []
        return reader(root) if root is not None else []

    def _warn(self, message: str) -> None:
        # Kept, not logged: the front door logs a parse's warnings once, naming the file.
        self.warnings.append(message)


class AssetFolder:
    """The ``<stem>.blocks.assets/`` folder of one document: safe unused file names, and
    atomic writes that never land outside it. ``path`` None: names are given, nothing is
    written."""

    def __init__(self, path: Path | None, prefix: str) -> None:
        self._path = Path(path) if path is not None else None
        self._prefix = prefix.rstrip("/")
        self._used: set[str] = set()  # lower-cased names already given (case-insensitive disks)

    def tag_path(self, name: str) -> str:
        """``<stem>.blocks.assets/<name>``, the path a tag and record carry ("" for none)."""
        return f"{self._prefix}/{name}" if name else ""

    def allocate(self, part_name: str, fmt: str) -> str:
        """A safe, unused file name for ``part_name``; collisions get ``-2``, ``-3`` … (§5.3)."""
        stem, ext = safe_asset_name(part_name, fmt).rsplit(".", 1)
        name, n = f"{stem}.{ext}", 1
        while name.lower() in self._used:
            n += 1
            name = f"{stem}-{n}.{ext}"
        self._used.add(name.lower())
        return name

    def write(self, name: str, data: bytes) -> str:
        """Write ``data`` as ``name`` atomically; "" when done (or nothing is written), else
        why it was not (a target resolving outside the folder is refused)."""
        if self._path is None:
            return ""
        self._path.mkdir(parents=True, exist_ok=True)
        root = self._path.resolve()
        target = root / name
        if target.resolve().parent != root:  # e.g. a symlink planted in the assets directory
            return f"asset {name} would resolve outside {root}; not written"
        fd, tmp = tempfile.mkstemp(dir=root, prefix=".pchunk-", suffix=".part")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return ""


def drawing_record(drawing_id: str, fmt: str, path: str, src: str, caption: str) -> dict:
    """A ``drawings.json`` item in LightRAG's field order (the caption's spaces collapsed);
    ``blockid``, ``heading`` and ``parent_headings`` are filled in when rows are rendered."""
    return {
        "id": drawing_id, "blockid": "", "heading": "", "parent_headings": [], "format": fmt,
        "path": path, "src": src, "caption": " ".join(caption.split()), "footnotes": [],
    }  # fmt: skip


def drawing_tag(record: dict) -> str:
    """The one-line ``<drawing … />`` tag of a record, as LightRAG 1.5.7 writes it (§5.2)."""
    caption = record["caption"]
    caption_attr = f' caption="{escape_attr(caption)}"' if caption else ""
    return (
        f'<drawing id="{record["id"]}" format="{escape_attr(record["format"])}"{caption_attr} '
        f'path="{escape_attr(record["path"])}" src="{escape_attr(record["src"])}" />'
    )


def safe_asset_name(part_name: str, fmt: str) -> str:
    """A file name for a media part: its basename reduced to ``[A-Za-z0-9._-]``, never a path.

    The extension is kept when it is a known image extension agreeing with ``fmt``, else derived
    from ``fmt`` (``bin`` when the format is unknown); no leading dot, no ``..``, at most 100
    characters before the extension, and Windows device names are prefixed with ``_``.
    """
    base = re.split(r"[\\/:]", part_name)[-1]
    stem, dot, ext = base.rpartition(".")
    if not dot:
        stem, ext = base, ""
    stem = re.sub(r"\.{2,}", ".", _UNSAFE.sub("_", stem)).strip("._-")[:_MAX_STEM].strip("._-")
    stem = stem or "image"
    if stem.split(".")[0].upper() in _WINDOWS_RESERVED:
        stem = "_" + stem
    ext = ext.lower()
    if _FORMATS.get(ext) != fmt or not fmt:
        ext = fmt if fmt in _FORMATS.values() else "bin"
    return f"{stem}.{ext}"


def external_name(target: str) -> str:
    """What a tag keeps of an external picture's target: its file name only, never the
    target itself (``file:///etc/passwd``, ``\\\\server\\share\\x.png``, ``C:\\x``,
    a URL), which would be handed to whoever renders the blocks. ``"external"`` when the
    target names no file."""
    path = target.strip()
    if "://" in path:
        path = urlparse(path).path
    path = unquote(path.split("#", 1)[0].split("?", 1)[0])
    name = re.split(r"[\\/:]", path)[-1]
    name = re.sub(r"[^\w.-]+", "_", name).strip("._-")[:_MAX_STEM]
    return name or "external"


def _picture_refs(element: etree._Element) -> list[tuple[str | None, str | None, str]]:
    """(embed rId, link rId, alt text) for each picture in a DrawingML or VML element."""
    refs = []
    doc_alt = _alt(next(element.iter(qn("wp:docPr")), None))
    for blip in element.iter(qn("a:blip")):
        embed, link = blip.get(qn("r:embed")) or None, blip.get(qn("r:link")) or None
        if embed or link:
            own = _alt(_picture_props(blip))
            refs.append((embed, link, own or doc_alt))
    for data in element.iter(qn("v:imagedata")):
        embed = data.get(qn("r:id")) or data.get(qn("o:relid")) or None
        link = data.get(qn("r:href")) or None
        if embed or link:
            shape = data.getparent()
            alt = (shape.get("alt") if shape is not None else None) or data.get(qn("o:title"))
            refs.append((embed, link, alt or ""))
    return refs


def _picture_props(blip: etree._Element) -> etree._Element | None:
    """The ``pic:cNvPr`` of the picture that owns ``blip`` (None for a shape's picture fill)."""
    for ancestor in blip.iterancestors(qn("pic:pic")):
        return next(ancestor.iter(qn("pic:cNvPr")), None)
    return None


def _alt(props: etree._Element | None) -> str:
    """Alt text: ``descr``, else ``title`` (Word's "Alt Text" pane writes ``descr``)."""
    if props is None:
        return ""
    return (props.get("descr") or props.get("title") or "").strip()


def _format_of_type(content_type: str | None) -> str:
    if not content_type or not content_type.lower().startswith("image/"):
        return ""
    return _FORMATS.get(content_type.lower().split("/", 1)[1].split(";")[0].strip(), "")


def _format_of_name(name: str) -> str:
    path = urlparse(name).path if "://" in name else name
    base = path.rsplit("/", 1)[-1]
    return _FORMATS.get(base.rpartition(".")[2].lower(), "") if "." in base else ""


def _subtype(content_type: str | None) -> str:
    """An unknown image type as LightRAG would name it (``image/vnd.ms-photo`` -> that subtype)."""
    if not content_type or "/" not in content_type:
        return ""
    return re.sub(r"[^a-z0-9.+-]", "", content_type.lower().split("/", 1)[1].split(";")[0])


def sniff_image_format(data: bytes) -> str:
    """An image's format from its magic bytes ("" when unknown)."""
    for magic, fmt in _MAGIC:
        if data.startswith(magic):
            return fmt
    if data[40:44] == b" EMF":
        return "emf"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    head = data[:512].lstrip().lower()
    is_svg = head.startswith(b"<svg") or (head.startswith(b"<?xml") and b"<svg" in head)
    return "svg" if is_svg else ""


def _diagram_lines(root: etree._Element) -> list[str]:
    """SmartArt data part: one line per text paragraph of each node (``dgm:pt/dgm:t``)."""
    lines = []
    for text in root.iter(f"{_DGM}t"):
        for para in text.iter(qn("a:p")):
            line = "".join(t.text or "" for t in para.iter(qn("a:t"))).strip()
            if line:
                lines.append(line)
    return lines


def _chart_lines(root: etree._Element) -> list[str]:
    """Chart part: its title, then each series name."""
    lines = []
    for title in root.iter(f"{_CHART}title"):
        line = (
            "".join(t.text or "" for t in title.iter(qn("a:t"))).strip()
            or "".join(v.text or "" for v in title.iter(f"{_CHART}v")).strip()
        )
        if line:
            lines.append(line)
    for series in root.iter(f"{_CHART}ser"):
        name = next(series.iter(f"{_CHART}tx"), None)
        if name is not None:
            lines += [v.text.strip() for v in name.iter(f"{_CHART}v") if v.text and v.text.strip()]
    return lines
