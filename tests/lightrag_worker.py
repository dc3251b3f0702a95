"""One LightRAG worker process, for the tests that need a real second process.

``python lightrag_worker.py enqueue WORKING_DIR FILE...``: parse each Word file, register it
(our registry lives in the instance's storage) and enqueue its text in LightRAG, without
processing anything. ``python lightrag_worker.py process WORKING_DIR``: process every pending
document of the queue, with ``lightrag_pchunk.chunking_func`` bound to the instance
(``chunking_func_for``), as a process that only runs LightRAG's pipeline would set it up.
Options before the mode: ``--postgres`` keeps LightRAG's key-value data and our registry in
the PostgreSQL database named by the POSTGRES_* variables (each worker has its own working
dir, as a worker on another machine would); ``--unbound`` processes with the unbound
``chunking_func``. Prints one JSON line: what it did.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from lightrag_helpers import offline_lightrag

from lightrag_pchunk import chunking_func, chunking_func_for
from lightrag_pchunk.integration.registration import aregister_document
from lightrag_pchunk.parse.document import parse_docx

PG_STORAGES = {"kv_storage": "PGKVStorage", "doc_status_storage": "PGDocStatusStorage"}


async def enqueue(working_dir: Path, files: list[Path], storages: dict[str, Any]) -> dict:
    async with offline_lightrag(working_dir, **storages) as rag:
        for path in files:
            parsed = parse_docx(path, working_dir / "__parsed__")
            await aregister_document(rag, path, parsed.content, parsed.blocks_path)
            await rag.apipeline_enqueue_documents(parsed.content, file_paths=[str(path)])
    return {"enqueued": [p.name for p in files]}


async def process(working_dir: Path, storages: dict[str, Any], bound: bool) -> dict:
    async with offline_lightrag(working_dir, **storages) as rag:
        rag.chunking_func = chunking_func_for(rag) if bound else chunking_func
        await rag.apipeline_process_enqueue_documents()
    return {"processed": True, "bound": bound}


def main(argv: list[str]) -> int:
    options = {arg for arg in argv if arg.startswith("--")}
    mode, working_dir, *files = [arg for arg in argv if not arg.startswith("--")]
    storages = PG_STORAGES if "--postgres" in options else {}
    work = Path(working_dir)
    if mode == "enqueue":
        result = asyncio.run(enqueue(work, [Path(f) for f in files], storages))
    else:
        result = asyncio.run(process(work, storages, bound="--unbound" not in options))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
