"""PDF on every file of ../shared/corpus/pdf (53 real PDFs: regulations, reports, papers,
slides, scans, broken files):

- every file parses, or is refused with the reason its manifest predicts (a file PDFium
  cannot open: broken, a user password or not a PDF; a scan: image-only); nothing crashes,
  and the file encrypted with an owner password only opens;
- no word of the blocks is lost on the way to the chunks (N=1200, multiset, as
  ``chunk/coverage.py`` counts words);
- every chunk carries pages, and its words are printed on those pages (PDFium's own text of
  them: each word, or each CJK character).
"""

from __future__ import annotations

import csv
import logging
import re
import unicodedata
from pathlib import Path

import pytest

from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.pipeline import chunk_rows
from lightrag_pchunk.chunk.shown_text import shown_text
from lightrag_pchunk.errors import PdfParseError
from lightrag_pchunk.pdf.document import parse_pdf
from lightrag_pchunk.tokens import TokenCounter

from helpers import pdfium_page_texts, shared_dir
from invariants import assert_no_word_lost

SHARED = shared_dir()
CORPUS = SHARED / "corpus" / "pdf" if SHARED else None
MANIFEST = (
    {
        row["local_name"]: row
        for row in csv.DictReader((CORPUS / "MANIFEST.tsv").open(), delimiter="\t")
    }
    if CORPUS and (CORPUS / "MANIFEST.tsv").is_file()
    else {}
)
FILES = sorted(MANIFEST)

pytestmark = pytest.mark.skipif(
    not FILES, reason="../shared/corpus/pdf is absent: the PDF corpus tests are skipped"
)

_WORD = re.compile(r"\w+")
_CJK = re.compile(r"[\u3400-\u9fff]")
#: The markup of a superscript or subscript: no printed word.
_SCRIPT_TAG = re.compile(r"</?(?:sup|sub)>")


@pytest.fixture(scope="module")
def parsed(tmp_path_factory) -> dict[str, object]:
    """Each file's ParsedDocument, or the PdfParseError that refused it."""
    out = tmp_path_factory.mktemp("corpus-pdf")
    logging.getLogger("lightrag.pchunk").disabled = True
    found: dict[str, object] = {}
    try:
        for name in FILES:
            try:
                found[name] = parse_pdf(CORPUS / name, out)
            except PdfParseError as error:
                found[name] = error
    finally:
        logging.getLogger("lightrag.pchunk").disabled = False
    return found


@pytest.mark.parametrize("name", FILES)
def test_every_file_parses_or_is_refused_with_its_reason(parsed, name: str) -> None:
    facts = MANIFEST[name]
    outcome = parsed[name]
    if facts["opens"] == "0":
        assert isinstance(outcome, PdfParseError)
        assert outcome.reason in {"broken", "password", "not-a-pdf"}
        return
    if facts["image_only"] == "1":
        assert isinstance(outcome, PdfParseError) and outcome.reason == "image-only"
        return
    assert not isinstance(outcome, Exception), outcome
    assert outcome.rows, f"{name}: no text read"
    if name == "tika__central-bank-speech-owner-password.pdf":
        assert len(outcome.content) > 50_000


#: Compatibility ideographs to their canonical forms: PDFium gives them as the font maps
#: them, the parser as the ideographs they stand for (canonically the same text).
_CANONICAL = {code: unicodedata.normalize("NFC", chr(code)) for code in range(0xF900, 0xFB00)}


def _page_texts(path: Path) -> list[str]:
    """Each page's words, lower-cased and run together."""
    texts = [text.translate(_CANONICAL) for text in pdfium_page_texts(path)]
    return ["".join(_WORD.findall(text.replace("\ufffe", "").lower())) for text in texts]


@pytest.mark.parametrize("name", FILES)
def test_chunks_lose_no_word_and_their_pages_hold_their_text(
    parsed, name: str, cl100k_tokenizer
) -> None:
    outcome = parsed[name]
    if isinstance(outcome, Exception):
        pytest.skip(f"{name} is refused ({outcome.reason})")
    rows = list(outcome.rows)
    chunks = chunk_rows(rows, Context.create(TokenCounter(cl100k_tokenizer), 1200, 0))
    assert_no_word_lost([r.content for r in rows], [c.content for c in chunks], name)
    pages = _page_texts(CORPUS / name)
    unprinted = []
    for chunk in chunks:
        assert chunk.pages, f"{name}: a chunk without pages: {chunk.content[:80]!r}"
        printed = "".join(pages[p - 1] for p in sorted({s.page for s in chunk.pages}))
        # A table tag as its cells' text: its JSON escapes a cell's tab as "\\t", no word.
        body = _SCRIPT_TAG.sub(" ", shown_text(chunk.content)).lower()
        for word in _WORD.findall(body):
            parts = _CJK.findall(word) or [word]
            unprinted.extend(part for part in parts if part not in printed)
    # A document whose font maps glyphs to no Unicode (pdfjs's TAMReview) reads as codes
    # PDFium and we may split differently: one stray word there, none elsewhere.
    assert len(unprinted) <= 1, f"{name}: words not on their chunk's pages: {unprinted[:10]}"
