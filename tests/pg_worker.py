"""One LightRAG worker process on a shared PostgreSQL, for the multi-process tests.

``python pg_worker.py enqueue WORKING_DIR FILE...``: parse each Word file, register it (our
registry lives in the instance's storage: PostgreSQL here) and enqueue its text in
LightRAG, without processing anything. ``python pg_worker.py process WORKING_DIR``: process
every pending document of the shared queue. Each worker has its own working dir (its
vector and graph files), as a worker on another machine would; they share only the
database named by the POSTGRES_* variables. Prints one JSON line: what it did.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from lightrag_helpers import offline_lightrag

from lightrag_pchunk.integration.ingest import aregister_document
from lightrag_pchunk.parse.document import parse_docx

PG_STORAGES = {"kv_storage": "PGKVStorage", "doc_status_storage": "PGDocStatusStorage"}


async def enqueue(working_dir: Path, files: list[Path]) -> dict:
    async with offline_lightrag(working_dir, **PG_STORAGES) as rag:
        for path in files:
            parsed = parse_docx(path, working_dir / "__parsed__")
            await aregister_document(rag, path, parsed.content, parsed.blocks_path)
            await rag.apipeline_enqueue_documents(parsed.content, file_paths=[str(path)])
    return {"enqueued": [p.name for p in files]}


async def process(working_dir: Path) -> dict:
    async with offline_lightrag(working_dir, **PG_STORAGES) as rag:
        await rag.apipeline_process_enqueue_documents()
    return {"processed": True}


def main(argv: list[str]) -> int:
    mode, working_dir, *files = argv
    work = Path(working_dir)
    if mode == "enqueue":
        result = asyncio.run(enqueue(work, [Path(f) for f in files]))
    else:
        result = asyncio.run(process(work))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
