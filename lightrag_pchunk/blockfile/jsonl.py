"""``.blocks.jsonl`` <-> ``BlockRow``: the on-disk contract between parser and chunker.

Reading never loses text silently: blank lines and the first meta row are skipped, every
other line that is not a usable content row is reported as a :class:`LineProblem` naming its
line number (and counted in one warning per file), a row that holds a ``"content"`` is read
as a content row whatever its ``type`` says, and a broken line that still holds a
``"content"`` string is salvaged (its text kept, its heading inherited from the row before it).

Lines end at ``"\n"`` only (``"\r\n"`` too): JSON strings may hold U+2028, U+2029, U+0085
and the C0 separators raw, which ``str.splitlines()`` would take for line ends. A line holding
several JSON values one after the other is read value by value (what separates them is JSON
whitespace): so is a file with classic Mac line ends (``"\r"`` alone), whose rows would
otherwise be one line. Line numbers count such line ends too.

:func:`content_strings` reads the file's ``"content"`` strings on their own, whatever its
lines: the no-loss check compares the chunks with them, not with the rows the reader made.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lightrag_pchunk.blockfile.raw_text import content_strings, string_field
from lightrag_pchunk.errors import BlockFileError
from lightrag_pchunk.model import PAGE_POSITION, BlockRow
from lightrag_pchunk.wording import number_ranges

logger = logging.getLogger("lightrag.pchunk")

BLOCKS_SUFFIX = ".blocks.jsonl"

#: Content-row keys in the order LightRAG's native parser writes them; extra keys follow.
_ROW_KEYS = (
    "type",
    "blockid",
    "format",
    "content",
    "heading",
    "parent_headings",
    "level",
    "session_type",
    "table_slice",
    "positions",
)

_KNOWN_KEYS = frozenset((*_ROW_KEYS, "is_title_block"))

#: One decoder for every line (json.loads(..., strict=False) builds a new one per call);
#: strict=False accepts raw control characters inside strings, as LightRAG's reader does.
_DECODER = json.JSONDecoder(strict=False)
#: What JSON calls whitespace around a value (and the "\r" of a "\r\n" line end).
_JSON_SPACE = " \t\r"


@dataclass(frozen=True, slots=True)
class LineProblem:
    """A line of a blocks file that was skipped or only partly understood."""

    line_number: int
    message: str
    salvaged: bool = False


@dataclass(slots=True)
class BlockFile:
    """The parsed contents of one ``.blocks.jsonl`` file; ``file_contents`` are its
    ``"content"`` strings as :func:`content_strings` finds them in its text."""

    path: Path
    meta: dict[str, Any] | None
    rows: list[BlockRow]
    problems: list[LineProblem] = field(default_factory=list)
    file_contents: tuple[str, ...] = ()


def read_blocks(path: str | Path, *, only_pages: bool = False) -> BlockFile:
    """Read every content row of ``path``.

    ``only_pages=True`` keeps of each row's ``positions`` only those that place its text
    on a page (:data:`~lightrag_pchunk.model.PAGE_POSITION`): the chunker's reading, which
    gives a PDF's chunks their pages and has no use for a Word row's paragraph ids (held
    for every row of a large document, they are most of what its reading leaves for the
    garbage collector to scan).

    Raises:
        BlockFileError: the file is missing, unreadable or not UTF-8 (the caller falls
            back to R on the document text, docs/strategy.md §10).
    """
    blocks_path = Path(path)
    try:
        # newline="": no newline translation, so a raw "\r" inside a JSON string stays.
        with blocks_path.open(encoding="utf-8-sig", newline="") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise BlockFileError(str(blocks_path), f"cannot read blocks file: {exc}") from exc
    return parse_blocks_text(text, blocks_path, only_pages=only_pages)


def parse_blocks_text(
    text: str, path: str | Path = "<memory>", *, only_pages: bool = False
) -> BlockFile:
    """Parse the text of a blocks file (see :func:`read_blocks`)."""
    result = BlockFile(path=Path(path), meta=None, rows=[], file_contents=content_strings(text))
    previous: BlockRow | None = None
    line_number = 0
    for raw in text.split("\n"):
        line_number += 1
        line = raw.strip(_JSON_SPACE)
        if not line:
            continue
        position = 0
        while position < len(line):  # usually one value; several after "\r" line ends
            number = line_number + line.count("\r", 0, position)
            row, position = _row_from_line(line, position, number, previous, result, only_pages)
            if row is not None:
                result.rows.append(row)
                previous = row
            while position < len(line) and line[position] in _JSON_SPACE:
                position += 1
        line_number += line.count("\r")
    if result.problems:
        _log_problems(result)
    return result


def _log_problems(result: BlockFile) -> None:
    """One warning for the file: how many lines were skipped or read with a repair, every
    one of them named by its line number, the first few with what was wrong; one DEBUG line
    for each of the others."""
    skipped = [p.line_number for p in result.problems if not p.salvaged]
    salvaged = [p.line_number for p in result.problems if p.salvaged]
    shown = "; ".join(f"line {p.line_number}: {p.message}" for p in result.problems[:5])
    more = f"; and {len(result.problems) - 5} more" if len(result.problems) > 5 else ""
    logger.warning(
        "paragraph_semantic blocks file %s: %d line(s) not used%s, %d read with a repair%s (%s%s)",
        result.path,
        len(skipped),
        f" (lines {number_ranges(skipped)})" if skipped else "",
        len(salvaged),
        f" (lines {number_ranges(salvaged)})" if salvaged else "",
        shown,
        more,
    )
    for problem in result.problems[5:]:
        logger.debug(
            "paragraph_semantic blocks file %s line %d: %s",
            result.path,
            problem.line_number,
            problem.message,
        )


def _row_from_line(
    line: str,
    position: int,
    line_number: int,
    previous: BlockRow | None,
    result: BlockFile,
    only_pages: bool,
) -> tuple[BlockRow | None, int]:
    """The row of the JSON value at ``position`` of ``line`` and where the value ends; the
    rest of the line salvaged when no value can be decoded there."""
    try:
        obj, end = _DECODER.raw_decode(line, position)
    except ValueError:
        return _salvage(line[position:], line_number, previous, result), len(line)
    return _row_from_value(obj, line_number, result, only_pages), end


def _row_from_value(
    obj: Any, line_number: int, result: BlockFile, only_pages: bool
) -> BlockRow | None:
    if not isinstance(obj, dict):
        result.problems.append(LineProblem(line_number, "not a JSON object; skipped"))
        return None
    kind = obj.get("type")
    content = obj.get("content")
    if kind == "meta" and content is None:
        if result.meta is None:
            result.meta = obj
        else:
            result.problems.append(LineProblem(line_number, "a second meta row; ignored"))
        return None
    if kind != "content":
        if content is None:
            result.problems.append(
                LineProblem(line_number, f"row type {kind!r} without 'content'; ignored")
            )
            return None
        # A row with text is never dropped for its type: the text is what matters.
        what = "row has no 'type'" if kind is None else f"row type {kind!r} holds a 'content'"
        result.problems.append(LineProblem(line_number, f"{what}; read as a content row", True))
    elif content is None:
        result.problems.append(LineProblem(line_number, "content row without 'content'"))
        return None
    if not isinstance(content, str):
        content = json.dumps(content, ensure_ascii=False)
        result.problems.append(
            LineProblem(line_number, "'content' is not a string; kept as JSON text", True)
        )
    return row_from_mapping(obj, content=content, line_number=line_number, only_pages=only_pages)


def row_from_mapping(
    obj: dict[str, Any],
    *,
    content: str | None = None,
    line_number: int = 0,
    only_pages: bool = False,
) -> BlockRow:
    """Build a :class:`BlockRow` from a decoded JSON object, normalising odd values.

    ``level`` 0, missing, negative or not a number becomes 1 (0 stays 0 for a pinned
    ``is_title_block`` row, as in LightRAG 1.5.5+). ``only_pages``: see
    :func:`read_blocks`.
    """
    get = obj.get
    is_title = get("is_title_block") is True
    level = get("level")
    if type(level) is not int or level <= 0:  # the common case skips the normalisation
        level = _as_level(level, is_title)
    return BlockRow(
        content=content if content is not None else str(get("content") or ""),
        heading=_as_text(get("heading")),
        parent_headings=_as_parents(get("parent_headings")),
        level=level,
        blockid=_as_text(get("blockid")),
        positions=_as_positions(get("positions"), only_pages),
        is_title_block=is_title,
        line_number=line_number,
        extra=_extra(obj),
    )


def _as_text(value: Any) -> str:
    return value if type(value) is str else "" if value is None else str(value)


def _as_parents(raw: Any) -> tuple[str, ...]:
    if type(raw) is not list:
        return ()
    for parent in raw:
        if type(parent) is not str or not parent.strip():
            return tuple([str(p) for p in raw if p is not None and str(p).strip()])
    return tuple(raw)


def _as_positions(raw: Any, only_pages: bool) -> tuple[dict[str, Any], ...]:
    if type(raw) is not list:
        return ()
    if only_pages:
        return tuple([p for p in raw if type(p) is dict and p.get("type") == PAGE_POSITION])
    return tuple([p for p in raw if type(p) is dict])


def _extra(obj: dict[str, Any]) -> dict[str, Any]:
    """Keys we do not interpret, plus our keys holding a value other than LightRAG's default,
    so that a read/write round trip loses nothing."""
    extra = (
        {} if obj.keys() <= _KNOWN_KEYS else {k: v for k, v in obj.items() if k not in _KNOWN_KEYS}
    )
    for key, default in _DEFAULTS.items():
        value = obj.get(key, default)
        if value != default:
            extra[key] = value
    return extra


def _as_level(raw: Any, is_title: bool) -> int:
    try:
        value = int(raw) if raw is not None and not isinstance(raw, bool) else 0
    except (TypeError, ValueError):
        value = 0
    if value <= 0:
        return 0 if is_title else 1
    return value


def _salvage(
    line: str, line_number: int, previous: BlockRow | None, result: BlockFile
) -> BlockRow | None:
    """Recover the text of a line that is not valid JSON (truncated, bad escapes)."""
    content = string_field(line, "content")
    if content is None:
        result.problems.append(
            LineProblem(line_number, "invalid JSON with no readable 'content'; skipped")
        )
        return None
    heading = string_field(line, "heading")
    result.problems.append(
        LineProblem(line_number, "invalid JSON; its content text was salvaged", True)
    )
    return BlockRow(
        content=content,
        heading=heading if heading is not None else (previous.heading if previous else ""),
        parent_headings=previous.parent_headings if previous else (),
        level=previous.level if previous else 1,
        blockid=string_field(line, "blockid") or "",
        line_number=line_number,
    )


_DEFAULTS = {"format": "plain_text", "session_type": "body", "table_slice": "none"}


def row_to_mapping(row: BlockRow) -> dict[str, Any]:
    """The JSON object for ``row`` with LightRAG's key order."""
    obj: dict[str, Any] = {
        "type": "content",
        "blockid": row.blockid,
        "format": row.extra.get("format", _DEFAULTS["format"]),
        "content": row.content,
        "heading": row.heading,
        "parent_headings": list(row.parent_headings),
        "level": row.level,
        "session_type": row.extra.get("session_type", _DEFAULTS["session_type"]),
        "table_slice": row.extra.get("table_slice", _DEFAULTS["table_slice"]),
        "positions": [dict(p) for p in row.positions],
    }
    for key, value in row.extra.items():
        if key not in obj:
            obj[key] = value
    if row.is_title_block:
        obj["is_title_block"] = True
    return obj


#: One encoder for every line: ``json.dumps`` with an option builds a new one per call. A
#: row is a tree of fresh dicts and lists, so there is no cycle to check for.
_LINE_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)


def dump_line(obj: dict[str, Any]) -> str:
    """One JSONL line (non-ASCII kept, LightRAG's separators)."""
    return _LINE_ENCODER.encode(obj)


def write_blocks(path: str | Path, meta: dict[str, Any], rows: Iterable[BlockRow]) -> Path:
    """Write a blocks file: the meta row first, then one line per content row."""
    out = Path(path)
    meta_row = {"type": "meta", **{k: v for k, v in meta.items() if k != "type"}}
    lines = [dump_line(meta_row), *(dump_line(row_to_mapping(row)) for row in rows)]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def merged_text(rows: Sequence[BlockRow]) -> str:
    """The document body LightRAG stores: content rows joined with a blank line."""
    return "\n\n".join(row.content for row in rows if row.content.strip())


def find_blocks_file(location: str | Path) -> Path | None:
    """A blocks file itself, or the first ``*.blocks.jsonl`` (sorted) inside a folder."""
    candidate = Path(location)
    if candidate.is_file():
        return candidate
    if candidate.is_dir():
        found = sorted(candidate.glob(f"*{BLOCKS_SUFFIX}"))
        return found[0] if found else None
    return None


def blocks_stem(blocks_path: str | Path) -> str:
    """``report`` for ``.../report.blocks.jsonl``."""
    name = Path(blocks_path).name
    return name[: -len(BLOCKS_SUFFIX)] if name.endswith(BLOCKS_SUFFIX) else Path(name).stem
