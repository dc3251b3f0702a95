"""What the corpus tests share, made once per session: the corpus files, each parsed once
by our parser (and once by LightRAG's native parser, for the tests that compare), and our
chunks of each at a size, made the first time a test asks (default settings, overlap 100).
Without ../shared the tests that use them skip, saying so."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from lightrag_helpers import lightrag_native_blocks

from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.markdown.document import parse_markdown
from lightrag_pchunk.parse.artefacts import ParsedDocument
from lightrag_pchunk.parse.document import parse_docx

from helpers import corpus_files

OVERLAP = 100


@dataclass(frozen=True)
class CorpusParse:
    """One corpus file as our parser read it: its result, or the error it refused it with."""

    source: Path
    parsed: ParsedDocument | None
    error: DocumentParseError | None


@pytest.fixture(scope="session")
def corpus_parses(tmp_path_factory) -> dict[str, CorpusParse]:
    """Every Word and Markdown file of the corpus parsed by ours, by file name."""
    sources = [*corpus_files("docx"), *corpus_files("md")]
    if not sources:
        pytest.skip("../shared/corpus is absent: the real-world corpus tests are skipped")
    out = tmp_path_factory.mktemp("corpus-ours")
    parses: dict[str, CorpusParse] = {}
    pchunk_logger = logging.getLogger("lightrag.pchunk")
    pchunk_logger.disabled = True  # a parse logs its warnings; the tests read them
    try:
        for source in sources:
            parse = parse_markdown if source.suffix == ".md" else parse_docx
            try:
                parses[source.name] = CorpusParse(source, parse(source, out), None)
            except DocumentParseError as exc:
                parses[source.name] = CorpusParse(source, None, exc)
    finally:
        pchunk_logger.disabled = False
    return parses


@pytest.fixture
def parsed_or_skip(corpus_parses) -> Callable[[str], ParsedDocument]:
    """The parse of one corpus file; a test of a file we refuse skips (test_corpus.py and
    test_corpus_markdown.py check why)."""

    def parsed(name: str) -> ParsedDocument:
        entry = corpus_parses[name]
        if entry.parsed is None:
            pytest.skip(f"our parser refuses {name} ({entry.error.reason})")
        return entry.parsed

    return parsed


@pytest.fixture(scope="session")
def corpus_chunks(corpus_parses, cl100k_tokenizer) -> Callable[[str, int], list[dict]]:
    """Our chunk rows of a parsed corpus file at N=size (default settings, overlap 100,
    cl100k), made once for the session."""
    from lightrag_pchunk.integration.plugin import chunking_by_paragraph_semantic

    made: dict[tuple[str, int], list[dict]] = {}

    def chunks(name: str, size: int) -> list[dict]:
        if (name, size) not in made:
            parsed = corpus_parses[name].parsed
            assert parsed is not None, f"{name} was refused"
            made[(name, size)] = chunking_by_paragraph_semantic(
                cl100k_tokenizer, parsed.content, size, blocks_path=parsed.blocks_path,
                chunk_overlap_token_size=OVERLAP,
            )  # fmt: skip
        return made[(name, size)]

    return chunks


@pytest.fixture(scope="session")
def lightrag_parses(tmp_path_factory) -> dict[str, Path]:
    """Blocks files LightRAG 1.5.7's native parser writes for the corpus, by file name (a
    file it cannot parse is absent)."""
    sources = [*corpus_files("docx"), *corpus_files("md")]
    if not sources:
        pytest.skip("../shared/corpus is absent: the real-world corpus tests are skipped")
    return lightrag_native_blocks(sources, tmp_path_factory.mktemp("corpus-lightrag"))
