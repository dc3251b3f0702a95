"""File names as LightRAG reads them: the canonical basename (one file-name hint removed,
placeholders read as no path) and the artefacts' stem."""

from __future__ import annotations

import pytest

from lightrag_pchunk.naming import UNKNOWN_SOURCE, artefact_stem, canonical_basename


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("report.docx", "report.docx"),
        ("/docs/report.[native-P].docx", "report.docx"),
        ("a.[x].[native-P].md", "a.[x].md"),
        ("docs/", "docs"),
        (".", UNKNOWN_SOURCE),
        ("", UNKNOWN_SOURCE),
        ("no-file-path", UNKNOWN_SOURCE),
    ],
)
def test_the_canonical_basename_is_the_name_lightrag_stores(path: str, name: str) -> None:
    assert canonical_basename(path) == name


@pytest.mark.parametrize(
    ("path", "stem"),
    [("/docs/report.[native-P].docx", "report"), ("a.b.md", "a.b"), (".hidden", ".hidden")],
)
def test_the_artefact_stem_drops_the_extension_and_the_file_name_hint(path, stem) -> None:
    assert artefact_stem(path) == stem
