"""Our parser as a LightRAG parser engine, ``pchunk``, and its ``lightrag.parsers`` entry point.

LightRAG 1.5.7 runs every ``lightrag.parsers`` entry point at start-up (the server's
``create_app``, ``python -m lightrag.parser.cli``): :func:`register` adds the engine for the
suffixes of ``formats.FORMATS``, has LightRAG's P dispatch run our chunker on the blocks
our parser wrote (``plugin.activate_for_our_blocks``) and, inside LightRAG's server, points
``INPUT_DIR`` at the server's ``--input-dir`` (``server.align_input_dir``). So
``LIGHTRAG_PARSER=docx:pchunk-P`` (or ``report.[pchunk-P].docx``) parses with ours and chunks
with ours, in LightRAG's own server and file pipeline; ``docx:native-P`` keeps LightRAG's
parser and, unless ``install()`` was called, LightRAG's P.

:class:`PchunkParser` does what LightRAG's native engine does around its parse: the same
``__parsed__/<name>.parsed/`` folder (``.blocks.jsonl`` + sidecars), the ``full_docs``
record (merged text, ``sidecar_location``, ``parse_engine``), the archived source. The parse
itself goes through the front door (``front_door.read``: the parser of the file's format,
the smart outline from DOCX_SMART_HEADING). A file our parser refuses raises, so LightRAG
marks that document failed with the reason and goes on with the rest of the batch.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import shutil
import time
from pathlib import Path
from typing import Any

from lightrag.parser.base import BaseParser, ParseContext, ParseResult

from lightrag_pchunk.integration.formats import describe_formats, format_for
from lightrag_pchunk.integration.front_door import read
from lightrag_pchunk.integration.lightrag_routing import PCHUNK, register_pchunk_engine
from lightrag_pchunk.integration.request import PCHUNK_ENGINE, Request
from lightrag_pchunk.integration.settings import resolve
from lightrag_pchunk.integration.strategy import decide

#: At most this many parser warnings are copied into LightRAG's ``parse_warnings``.
MAX_REPORTED_WARNINGS = 20


def register() -> None:
    """The ``lightrag.parsers`` entry point: register the ``pchunk`` engine with LightRAG."""
    from lightrag_pchunk.integration.plugin import activate_for_our_blocks
    from lightrag_pchunk.integration.server import align_input_dir

    register_pchunk_engine()
    activate_for_our_blocks()
    align_input_dir()  # inside LightRAG's server: uploads are found in its --input-dir


class PchunkParser(BaseParser):
    """LightRAG's parser contract around our parsers (one per format)."""

    engine_name = PCHUNK

    async def parse(self, ctx: ParseContext) -> ParseResult:
        """Parse one document into LightRAG's sidecar layout and record it in ``full_docs``.

        Raises:
            ValueError: a suffix we do not parse, a ``parse_engine`` naming another engine,
                or a document without text (``[no-text]``, as LightRAG's native engine).
            DocumentParseError: our parser of its format refuses the file (not a Word
                package or a PDF, over a limit, hostile).
            FileNotFoundError: the upload is not where LightRAG looks for it (``INPUT_DIR``).
        """
        from lightrag.constants import FULL_DOCS_FORMAT_LIGHTRAG
        from lightrag.parser.routing import decode_parse_engine, encode_parse_engine
        from lightrag.utils_pipeline import make_lightrag_doc_content, sidecar_uri_for

        data = ctx.content_data if isinstance(ctx.content_data, dict) else {}
        engine, engine_params, errors = decode_parse_engine(data.get("parse_engine"))
        if errors or (engine and engine != PCHUNK):
            problem = "; ".join(errors) or f"it names the engine {engine!r}"
            raise ValueError(f"{PCHUNK}: invalid parse_engine for doc_id={ctx.doc_id}: {problem}")
        resolved = ctx.resolve(PCHUNK)
        source = resolved.source_path
        if not source.is_file():
            raise FileNotFoundError(
                f"{PCHUNK} source file not found: {source} (LightRAG looks for uploads in "
                "$INPUT_DIR, else ./inputs; set INPUT_DIR to the folder the file is in)"
            )
        if format_for(source) is None:
            raise ValueError(f"{PCHUNK} parses {describe_formats('and')}, not {source.name}")
        request = Request(PCHUNK_ENGINE, source=source, doc_id=ctx.doc_id)
        settings = resolve(request)
        decision = decide(request, settings)

        def run() -> Any:
            _, read_source = read(request, settings, decision, resolved.parsed_dir.parent)
            parsed = read_source.parsed
            if not parsed.content.strip():
                # As LightRAG's native engine: nothing to index is a failure, said plainly.
                shutil.rmtree(parsed.parsed_dir, ignore_errors=True)
                raise ValueError(f"{PCHUNK}: {source.name} holds no text to index [no-text]")
            blocks = _move_into(parsed.parsed_dir, resolved.parsed_dir) / parsed.blocks_path.name
            return parsed, blocks

        executor = getattr(ctx.rag, "_get_parse_native_executor", None)
        if executor is not None:  # LightRAG's parse pool, sized by max_parallel_parse_native
            loop = asyncio.get_running_loop()
            parsed, blocks = await loop.run_in_executor(
                executor(), contextvars.copy_context().run, run
            )
        else:  # the debug CLI's stand-in instance
            parsed, blocks = await asyncio.to_thread(run)

        await ctx.rag._persist_parsed_full_docs(
            ctx.doc_id,
            {
                "content": make_lightrag_doc_content(parsed.content),
                "file_path": ctx.file_path,
                "parse_format": FULL_DOCS_FORMAT_LIGHTRAG,
                "sidecar_location": sidecar_uri_for(resolved.parsed_dir),
                "parse_engine": encode_parse_engine(PCHUNK, engine_params or None),
                "update_time": int(time.time()),
            },
        )
        await ctx.archive_source(str(source))
        warnings = list(getattr(parsed, "warnings", ()) or ())
        return ParseResult(
            doc_id=ctx.doc_id,
            file_path=ctx.file_path,
            parse_format=FULL_DOCS_FORMAT_LIGHTRAG,
            content=parsed.content,
            blocks_path=str(blocks),
            parse_engine=PCHUNK,
            parse_warnings={
                "pchunk_warnings": warnings[:MAX_REPORTED_WARNINGS],
                "pchunk_warning_count": len(warnings),
            }
            if warnings
            else None,
        )


def _move_into(made: Path, wanted: Path) -> Path:
    """``wanted``, holding what the parser wrote to ``made`` (the same folder unless
    LightRAG chose another name, e.g. its debug CLI's flat layout)."""
    if Path(os.path.abspath(made)) == Path(os.path.abspath(wanted)):
        return wanted
    if wanted.exists():
        shutil.rmtree(wanted)
    wanted.parent.mkdir(parents=True, exist_ok=True)
    os.replace(made, wanted)
    return wanted
