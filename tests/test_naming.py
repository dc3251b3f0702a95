"""File names as LightRAG reads them: a basename's stem and suffix, as pathlib gives them
(the meta row's ``document_format`` and default ``doc_title``, the artefacts' stem)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lightrag_pchunk.naming import artefact_stem, basename_stem, basename_suffix

NAMES = [
    "report.docx",
    "a.b.md",
    "report.",
    ".hidden",
    ".hidden.md",
    "..",
    "noext",
    "x.[native-P].md",
]


@pytest.mark.parametrize("name", NAMES)
def test_a_basename_splits_as_pathlib_splits_it(name: str) -> None:
    assert (basename_stem(name), basename_suffix(name)) == (Path(name).stem, Path(name).suffix)


def test_the_artefact_stem_drops_the_file_name_hint() -> None:
    assert artefact_stem("/docs/report.[native-P].docx") == "report"
