"""The package's version, read in one place for ``__version__``, ``lightrag-pchunk --version``,
the meta row's ``parser`` key (and so each document's chunking record) and the chunker spec
LightRAG's registry takes."""

from __future__ import annotations

import functools
from importlib import metadata

DISTRIBUTION = "lightrag-pchunk"
#: The version of a source tree that was never installed (imported through ``PYTHONPATH``):
#: it has no metadata to read, and a valid version still suits every reader of it.
UNINSTALLED = "0.0.0"


@functools.cache
def package_version() -> str:
    """The installed distribution's version (``pip install``, editable or not), else
    :data:`UNINSTALLED`."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return UNINSTALLED
