"""The package's version is read in one place: every reader gives the installed version, and a
source tree never installed gives the one documented fallback."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import metadata

import pytest

import lightrag_pchunk
from lightrag_pchunk.cli.main import version_text
from lightrag_pchunk.integration.plugin import chunker_spec
from lightrag_pchunk.parse.artefacts import parser_version
from lightrag_pchunk.version import UNINSTALLED, package_version


@pytest.fixture
def fresh_version() -> Iterator[None]:
    package_version.cache_clear()
    yield
    package_version.cache_clear()


def test_every_reader_gives_the_installed_version() -> None:
    installed = metadata.version("lightrag-pchunk")
    assert package_version() == installed
    assert lightrag_pchunk.__version__ == installed
    assert version_text().startswith(f"lightrag-pchunk {installed} (lightrag-hku ")
    assert parser_version() == f"lightrag-pchunk {installed}"
    assert chunker_spec.version == installed


def test_a_source_tree_never_installed_reads_the_fallback(monkeypatch, fresh_version) -> None:
    def not_installed(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    assert package_version() == UNINSTALLED == "0.0.0"
    assert parser_version() == "lightrag-pchunk 0.0.0"
