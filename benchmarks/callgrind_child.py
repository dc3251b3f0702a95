"""One counted call under callgrind, for ``bench_instructions.py`` (not run by hand).

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=functools_reduce \\
        python callgrind_child.py BLOCKS_PATH N OVERLAP {ours,encode}

Callgrind counts only inside ``functools.reduce``, which calls the task exactly once here,
after a warm-up call (imports, caches, tiktoken's first use) and ``gc.collect()``. It
imports only what one call needs: everything here runs 30-50x slower under valgrind.
The tokenizer is ours (``TiktokenAdapter`` over cl100k), which our chunker recognises as
plain tiktoken exactly as it does LightRAG's ``Tokenizer``; LightRAG's module alone takes
a minute to import under valgrind.
"""

from __future__ import annotations

import functools
import gc
import sys
from collections.abc import Callable
from pathlib import Path

from documents import quiet_logging, read_doc

from lightrag_pchunk.integration.chunker import chunking_by_paragraph_semantic
from lightrag_pchunk.tokens import load_tiktoken


def main(argv: list[str]) -> int:
    """Warm up, collect garbage, then make the one counted call."""
    blocks_path, size, overlap, contender = argv
    tokenizer = load_tiktoken()
    doc = read_doc(Path(blocks_path).stem, Path(blocks_path))
    task: Callable[[], object]
    if contender == "encode":
        task = functools.partial(tokenizer.encode, doc.content)
    else:
        task = functools.partial(
            chunking_by_paragraph_semantic,
            tokenizer,
            doc.content,
            int(size),
            blocks_path=blocks_path,
            chunk_overlap_token_size=int(overlap),
        )
    with quiet_logging():
        task()
        gc.collect()
        functools.reduce(lambda _previous, _item: task(), [0, 1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
