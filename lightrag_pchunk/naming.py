"""Names and ids as LightRAG computes them: canonical basenames (file-name hints removed),
document ids and the parsed-artefact layout (facts §2.3, §2.4, §3.5)."""

from __future__ import annotations

import hashlib
import html
import re
import time
from itertools import chain
from pathlib import Path

#: A file-name hint: the last ``.[...]`` directly before the extension.
HINT_PATTERN = re.compile(r"\.\[([^\]]*)\](\.[^.]+)$")
#: Placeholders LightRAG treats as "no file path".
UNKNOWN_SOURCE = "unknown_source"
_PLACEHOLDERS = {"", "no-file-path", UNKNOWN_SOURCE}
PARSED_DIR_NAME = "__parsed__"

_SURROGATES_AND_NONCHARS = re.compile("[\ud800-\udfff\ufffe\uffff]")
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def md5_id(text: str, prefix: str = "") -> str:
    """``prefix`` + md5 hex of ``text`` (UTF-8, unencodable characters replaced)."""
    return prefix + hashlib.md5(text.encode("utf-8", errors="replace")).hexdigest()


def split_hint(file_name: str) -> tuple[str, str | None]:
    """``(canonical name, hint text or None)`` for a basename: ``a.[native-P].docx`` ->
    ``("a.docx", "native-P")``. Only the last bracket before the extension is a hint."""
    match = HINT_PATTERN.search(file_name)
    if match is None:
        return file_name, None
    return file_name[: match.start()] + match.group(2), match.group(1)


def canonical_basename(file_path: str | Path | None) -> str:
    """The name LightRAG stores for a file: its basename with one hint removed, or
    ``unknown_source`` for an empty or placeholder path."""
    text = str(file_path or "").strip()
    if text in _PLACEHOLDERS:
        return UNKNOWN_SOURCE
    name = Path(text).name
    if name in _PLACEHOLDERS:
        return UNKNOWN_SOURCE
    return split_hint(name)[0]


def sanitize_text(content: str) -> str:
    """LightRAG's normalisation of a raw document body before hashing (facts §2.3)."""
    text = html.unescape(content.strip())
    text = _SURROGATES_AND_NONCHARS.sub("", text)
    text = _CONTROL_CHARS.sub("", text)
    return text.strip()


def doc_id_for(file_path: str | Path | None = None, content: str | None = None) -> str:
    """The doc id LightRAG 1.5.x gives a document: from the canonical basename when the
    path is known, else from the sanitized content."""
    name = canonical_basename(file_path)
    if name != UNKNOWN_SOURCE:
        return md5_id(name, "doc-")
    if content is None:
        raise ValueError("doc_id_for needs a known file path or the document content")
    return md5_id(sanitize_text(content), "doc-")


def parsed_dir_for(source: str | Path, output_dir: str | Path | None = None) -> Path:
    """Where the artefacts of ``source`` go: ``<output_dir>/<name>.parsed/``, by default
    ``<source dir>/__parsed__/<name>.parsed/`` (name = canonical basename).

    As in LightRAG 1.5.7, when something other than a folder already has that name, the
    suffixes ``_001`` ... ``_999`` are tried, then ``_<unix time>``.
    """
    src = Path(source)
    base = Path(output_dir) if output_dir is not None else src.parent / PARSED_DIR_NAME
    name = f"{canonical_basename(src.name)}.parsed"
    for candidate in chain([name], (f"{name}_{i:03d}" for i in range(1, 1000))):
        path = base / candidate
        if not path.exists() or path.is_dir():
            return path
    return base / f"{name}_{int(time.time())}"


def artefact_stem(source: str | Path) -> str:
    """``report`` for ``report.[native-P].docx``: the stem of the blocks file and sidecars."""
    return Path(canonical_basename(Path(source).name)).stem
