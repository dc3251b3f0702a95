"""Which lines of a document a table of contents lists: each body line matched to the entry
it names, in the entries' order (``toc.py`` finds the tables and their entries' keys).

Input: the entries' text and the lines' keys (:func:`title_keys`). Output: for each line the
entry it matches, or None: the evidence that the line is a heading, and at which level.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.lines import cjk_count, is_caption
from lightrag_pchunk.outline.toc import past_bullet, toc_entry_key, toc_key

#: How many entries ahead of the last one matched a line may match: a table of contents
#: skips levels and entries, and a document repeats titles ("Examples").
_TOC_LOOKAHEAD = 50
#: A line without the entry's numbering label is matched only this close to the last entry
#: matched: a short title alone ("or", "Examples") recurs in the body far more often than
#: with its number.
_BARE_LOOKAHEAD = 3


def title_keys(lines: Iterable[str | None]) -> list[str | None]:
    """Each line's key as :func:`toc_listed` matches it; None for no title (None), a caption."""
    return [
        None if t is None or is_caption(t) else _opens_small(t) + _spacing_free(toc_key(t))
        for t in lines
    ]


#: Leads the key of a title that opens on a small letter past its label (:func:`toc_listed`).
_SMALL_START = "\u2193"


def _opens_small(text: str) -> str:
    """:data:`_SMALL_START` for a title opening on a small letter past its label, else ""."""
    label = parse_label(text.strip())
    title = label.rest if label is not None else text.strip()
    return _SMALL_START if title[:1].islower() else ""


def toc_listed(entries: Sequence[str], line_keys: Sequence[str | None]) -> list[int | None]:
    """For each line (``line_keys``: :func:`title_keys`), the index of the table of
    contents entry it matches, or None. Entries are matched in order, at most
    :data:`_TOC_LOOKAHEAD` ahead of the last one matched. A line matches an entry with or
    without its numbering label (a heading that lost its style lost its number too), and an
    entry's title before a dashed subtitle ("Conferences/Training – Methods training"),
    unless the line above it is that subtitle (a byline under an article's title): these
    looser matches only :data:`_BARE_LOOKAHEAD` entries ahead. Entries of a list of figures
    or tables are left out: a caption matched would carry the matching past the headings it
    skipped. Spacing is no part of a CJK title (:func:`_spacing_free`), case is none but a
    small letter opening it: a manual's parameter "irect" is no entry "IRect", its class."""
    keys = ["" if is_caption(entry) else toc_entry_key(entry) for entry in entries]
    small = [_opens_small(past_bullet(entry.strip())) for entry in entries]
    bare = [
        _marked(m, _spacing_free(_without_label(key))) for m, key in zip(small, keys, strict=True)
    ]
    parts = [_subtitle_parts(key) for key in keys]
    titles = [_marked(m, _spacing_free(title)) for m, (title, _) in zip(small, parts, strict=True)]
    subtitles = [_spacing_free(subtitle) for _, subtitle in parts]
    keys = [_marked(m, _spacing_free(key)) for m, key in zip(small, keys, strict=True)]
    named = {*keys, *bare, *titles} - {""}  # a line whose key is none of these matches none
    found: list[int | None] = []
    next_entry, above = 0, ""
    for key in line_keys:
        match = None
        if key is not None and keys:
            end = min(next_entry + _TOC_LOOKAHEAD, len(keys)) if key in named else next_entry
            match = next(
                (
                    j
                    for j in range(next_entry, end)
                    if key == keys[j]
                    or (
                        j < next_entry + _BARE_LOOKAHEAD
                        and (key == bare[j] or (key == titles[j] and above != subtitles[j]))
                    )
                ),
                None,
            )
            if match is not None:
                next_entry = match + 1
        found.append(match)
        above = (key or "").removeprefix(_SMALL_START)  # a subtitle is matched in any case
    return found


#: A dash that parts an entry's title from a subtitle: a dash with a space after it (an
#: en or em dash may touch the title: "Conferences/Training– Methods training"), a hyphen
#: with spaces on both sides; a hyphen inside a word ("meta-analysis") parts nothing.
_SUBTITLE_DASH = re.compile(r"\s*[–—]\s+|\s+-\s+")


def _subtitle_parts(key: str) -> tuple[str, str]:
    """An entry's key before its first dash and the subtitle after it ("", "" if none)."""
    parts = _SUBTITLE_DASH.split(key, maxsplit=1)
    return (parts[0].strip(), parts[1].strip()) if len(parts) == 2 else ("", "")


def _spacing_free(key: str) -> str:
    """A key that holds CJK ideographs, without its spaces: a CJK title is spaced out for
    the page, not in words ("前\u2003\u2003言" set wide on its page is the contents' "前言";
    "附录A （资料性附录）" is listed as "附录A（资料性附录）")."""
    return "".join(key.split()) if cjk_count(key) else key


def _marked(mark: str, key: str) -> str:
    return mark + key if key else ""


def _without_label(key: str) -> str:
    """An entry's key without its numbering label ("" when it has none, or nothing else)."""
    label = parse_label(key)
    return toc_key(label.rest) if label is not None and label.rest else ""
