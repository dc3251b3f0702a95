"""What a style's name (or id) says, in the languages Word and other writers use: a built-in
heading and its level, the "TOC Heading" style, a title or subtitle, a table of contents
entry style ("toc 1".."toc 9"). Read by :mod:`lightrag_pchunk.parse.styles` for each style
on a ``w:basedOn`` chain.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

#: Localised words for "heading" in built-in heading names ("<word> <digit>").
HEADING_WORDS = frozenset(
    {
        "heading", "überschrift", "titre", "título", "titulo", "titolo", "kop", "nagłówek",
        "rubrik", "overskrift", "otsikko", "nadpis", "başlık", "επικεφαλίδα", "제목", "标题",
        "標題", "見出し", "заголовок", "cím", "naslov", "antraštė", "virsraksts", "pealkiri",
        "titlu", "заглавие", "כותרת", "عنوان", "หัวเรื่อง", "judul", "encabezado", "fyrirsögn",
    }
)  # fmt: skip
_TOC_HEADING_NAMES = frozenset(
    {
        "tocheading", "inhaltsverzeichnisüberschrift", "en-têtedetabledesmatières",
        "encabezadodetdc", "titolosommario", "заголовоколавления", "заголовокоглавления",
        "toc标题", "目录标题", "目次の見出し", "kopvaninhoudsopgave", "nagłówekspisutreści",
        "cabeçalhodoíndice", "innehållsförteckningsrubrik",
    }
)  # fmt: skip
_TITLE_NAMES = {
    "title": "title", "titel": "title", "titre": "title", "título": "title", "titolo": "title",
    "tytuł": "title", "标题": "title", "標題": "title", "表題": "title", "название": "title",
    "subtitle": "subtitle", "untertitel": "subtitle", "sous-titre": "subtitle",
    "subtítulo": "subtitle", "sottotitolo": "subtitle", "ondertitel": "subtitle",
    "podtytuł": "subtitle", "副标题": "subtitle", "副標題": "subtitle", "副題": "subtitle",
    "подзаголовок": "subtitle",
}  # fmt: skip
_NAME_PATTERN = re.compile(r"^(?P<word>\D+?)\s*(?P<level>[1-9])$")
# Word derives style ids from names by dropping what is not ASCII alphanumeric
# ("Überschrift 1" -> "berschrift1"); ids left as bare digits ("1" for 标题 1) are ambiguous.
_ID_WORDS = frozenset(
    word
    for word in (re.sub(r"[^a-z0-9]", "", w) for w in HEADING_WORDS | {"überschrift"})
    if len(word) >= 3
) | {"uberschrift"}
_ID_PATTERN = re.compile(r"^(?P<word>[a-z]+)(?P<level>[1-9])$")
_TOC_STYLE = re.compile(
    r"^(?:toc|目录|目錄|inhaltsverzeichnis|verzeichnis|tm|tdc|оглавление|sommario|índice"
    r"|indice|inhopg|spis treści|innehållsförteckning)\s*[1-9]$"
)


def builtin_heading_level(name_or_id: str) -> int | None:
    """Outline level 0-8 of a built-in heading name or id (``"heading 2"``, ``"标题 2"``,
    ``"berschrift2"`` -> 1), else None."""
    text = unicodedata.normalize("NFKC", name_or_id).strip().casefold()
    match = _NAME_PATTERN.match(text)
    if match and " ".join(match["word"].split()) in HEADING_WORDS:
        return int(match["level"]) - 1
    match = _ID_PATTERN.match(re.sub(r"[\s_-]", "", text))
    if match and match["word"] in _ID_WORDS:
        return int(match["level"]) - 1
    return None


def is_toc_heading(name_or_id: str) -> bool:
    """True for the "TOC Heading" style (body text, not a section), by name or id."""
    return _fold(name_or_id) in _TOC_HEADING_NAMES


def title_kind_of(name_or_id: str) -> Literal["title", "subtitle"] | None:
    """ "title" or "subtitle" for the Title and Subtitle styles (localised names), else None."""
    return _TITLE_NAMES.get(_fold(name_or_id))  # type: ignore[return-value]


def is_toc_entry_style(name_or_id: str) -> bool:
    """True for Word's table of contents entry styles ("toc 1".."toc 9", localised)."""
    return bool(_TOC_STYLE.match(" ".join(name_or_id.casefold().split())))


def _fold(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).casefold())
