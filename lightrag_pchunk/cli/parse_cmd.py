"""``lightrag-pchunk parse FILE_OR_DIR... [-o DIR] [--jobs N]``: documents -> blocks file +
sidecars.

One line per file on stdout: ``name: N blocks, T tables, E equations, D drawings, W warnings,
S s -> blocks path``, ``name: empty (the document has no text) ...`` (an empty document is no
error: its blocks file has no content rows) or ``name: REFUSED [reason] message``, then one
summary line. Folders are
searched (recursively; ``--glob``) for every registered format (``integration/formats.py``),
parsed through the front door (``front_door.read``: the format's parser, the smart outline
resolved once) in parallel processes with a progress bar on stderr (when it is a terminal).
Exit code 0 when every file parsed, 1 when any was refused, 3 when the parser failed
unexpectedly on any (a bug: please report it), 2 when no input file was found or a setting is
bad.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
import traceback
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from lightrag_pchunk.cli.document_input import (
    add_glob_argument,
    add_smart_heading_argument,
    flags_of,
    int_at_least,
)
from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.integration.decision import NO_TEXT, Decision
from lightrag_pchunk.integration.formats import collect_files, describe_formats, format_for
from lightrag_pchunk.integration.front_door import read
from lightrag_pchunk.integration.request import COMMAND, Flags, Request
from lightrag_pchunk.integration.settings import Settings, resolve
from lightrag_pchunk.integration.strategy import decide
from lightrag_pchunk.naming import canonical_basename
from lightrag_pchunk.wording import counted

EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_BUG = 3


@dataclass
class Outcome:
    """What parsing one file gave (picklable: it comes back from a worker process)."""

    source: str
    ok: bool
    seconds: float
    blocks: int = 0
    tables: int = 0
    equations: int = 0
    drawings: int = 0
    warnings: list[str] = field(default_factory=list)
    blocks_path: str = ""
    reason: str = ""
    message: str = ""
    inferred_headings: int = 0
    toc_blocks: int = 0
    is_empty: bool = False

    def line(self) -> str:
        """The one line printed for this file."""
        name = Path(self.source).name
        if not self.ok:
            return f"{name}: REFUSED [{self.reason}] {self.message}"
        if self.is_empty:
            return (
                f"{name}: empty ({NO_TEXT}), {counted(len(self.warnings), 'warning')},"
                f" {self.seconds:.2f} s -> {self.blocks_path}"
            )
        outline = ""
        if self.inferred_headings:
            outline += f", {counted(self.inferred_headings, 'inferred heading')}"
        if self.toc_blocks:
            outline += f", {counted(self.toc_blocks, 'table of contents')}"
        return (
            f"{name}: {counted(self.blocks, 'block')}{outline}, {counted(self.tables, 'table')},"
            f" {counted(self.equations, 'equation')}, {counted(self.drawings, 'drawing')},"
            f" {counted(len(self.warnings), 'warning')}, {self.seconds:.2f} s -> {self.blocks_path}"
        )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``parse`` sub-command."""
    parser = subparsers.add_parser(
        "parse",
        help="parse documents into LightRAG blocks files (.blocks.jsonl + sidecars)",
        description=(
            f"Parse {describe_formats()} files into <name>.parsed/<stem>.blocks.jsonl and its"
            " sidecars, exactly as LightRAG's native parser lays them out. Folders are"
            " searched recursively and parsed in parallel."
        ),
    )
    parser.add_argument(
        "paths", nargs="+", metavar="FILE_OR_DIR", help="documents, or folders of them"
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="DIR",
        default=None,
        help="folder that receives <name>.parsed/ (default: __parsed__ next to each file)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int_at_least(1),
        default=None,
        metavar="N",
        help="parallel processes for several files (default: the number of CPUs)",
    )
    add_glob_argument(parser)
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress bar, even on a terminal"
    )
    add_smart_heading_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Parse every input file; returns the exit code."""
    start = time.perf_counter()
    try:  # the flags' settings, checked before any file is read
        resolve(Request(COMMAND.format("parse"), flags=flags_of(args), strict=True))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    files, missing = collect_files(args.paths, args.glob)
    for path in missing:
        print(f"{path}: no such file or folder", file=sys.stderr)
    if not files:
        print(f"no {describe_formats()} files to parse", file=sys.stderr)
        return EXIT_USAGE
    jobs = args.jobs or os.cpu_count() or 1
    verbose = getattr(args, "verbose", 0)
    show_bar = len(files) > 1 and not args.no_progress and sys.stderr.isatty()
    progress = Progress(len(files), sys.stderr) if show_bar else None
    # Warnings come back with each outcome and are printed once, under the file's line.
    logger = logging.getLogger("lightrag.pchunk")
    previous = logger.level
    if verbose < 2:
        logger.setLevel(logging.ERROR)
    worst = EXIT_REFUSED if missing else 0
    outcomes: list[Outcome] = []
    try:
        for outcome in parse_many(
            files, args.output, jobs, quiet=verbose < 2, flags=flags_of(args)
        ):
            outcomes.append(outcome)
            if progress is not None:
                progress.clear()
            print(outcome.line(), flush=True)
            for warning in outcome.warnings:
                print(f"  {Path(outcome.source).name}: warning: {warning}", file=sys.stderr)
            if outcome.reason == "internal-error":
                print(outcome.message, file=sys.stderr)
                worst = EXIT_BUG
            elif not outcome.ok:
                worst = max(worst, EXIT_REFUSED)
            if progress is not None:
                progress.step(Path(outcome.source).name)
    finally:
        logger.setLevel(previous)
        if progress is not None:
            progress.finish()
    print(summary_line(outcomes, len(missing), time.perf_counter() - start))
    return worst


def summary_line(outcomes: list[Outcome], missing: int, seconds: float) -> str:
    """``98 files: 93 parsed (12 with warnings), 3 empty (no text), 2 refused, 0 parser
    errors, 41.2 s``."""
    parsed = [o for o in outcomes if o.ok and not o.is_empty]
    empty = sum(o.ok and o.is_empty for o in outcomes)
    bugs = sum(o.reason == "internal-error" for o in outcomes)
    refused = len(outcomes) - len(parsed) - empty - bugs
    warned = sum(bool(o.warnings) for o in parsed)
    empties = f", {empty} empty (no text)" if empty else ""
    not_found = f", {missing} not found" if missing else ""
    return (
        f"{counted(len(outcomes), 'file')}: {len(parsed)} parsed ({warned} with warnings)"
        f"{empties}, {refused} refused, {counted(bugs, 'parser error')}{not_found},"
        f" {seconds:.1f} s"
    )


def parse_many(
    files: list[Path],
    output: str | None,
    jobs: int,
    *,
    quiet: bool = True,
    flags: Flags | None = None,
) -> Iterator[Outcome]:
    """Outcomes as files finish; in worker processes when there are several files and jobs.

    Each file's settings and parser are resolved here, through the front door (a bad setting
    raises ``ValueError`` before any file is parsed); the parse runs in the worker. With
    ``output``, two inputs with the same canonical name would write the same folder: the
    later ones are refused instead.

    Raises:
        ValueError: a bad setting, naming it and where it came from.
    """
    names: set[str] = set()
    todo: list[tuple[Path, tuple[Request, Settings, Decision] | None]] = []
    for path in files:
        name = canonical_basename(path.name)
        if output is not None and name in names:
            yield Outcome(
                str(path),
                False,
                0.0,
                reason="duplicate-name",
                message=f"another input is also named {name}; its output would be overwritten",
            )
            continue
        names.add(name)
        todo.append((path, _planned(path, flags or Flags())))
    if len(todo) <= 1 or jobs <= 1:
        for path, plan in todo:
            yield parse_one(str(path), output, plan)
        return
    initializer = _quiet if quiet else None
    with ProcessPoolExecutor(max_workers=min(jobs, len(todo)), initializer=initializer) as pool:
        futures = [pool.submit(parse_one, str(path), output, plan) for path, plan in todo]
        for future in as_completed(futures):
            yield future.result()


def _planned(path: Path, flags: Flags) -> tuple[Request, Settings, Decision] | None:
    """The front door's request, settings and decision for parsing ``path`` (None: no
    parser of ours reads it). Not routed: ``parse`` parses with ours whatever
    LIGHTRAG_PARSER says."""
    if format_for(path) is None:
        return None
    request = Request(COMMAND.format("parse"), source=path, flags=flags, strict=True)
    settings = resolve(request)
    return request, settings, decide(request, settings)


def parse_one(
    source: str, output: str | None, plan: tuple[Request, Settings, Decision] | None
) -> Outcome:
    """Parse one file as planned; refusals and unexpected failures become an :class:`Outcome`."""
    start = time.perf_counter()
    if plan is None:
        return Outcome(source, False, 0.0, reason="unsupported",
                       message=f"not a {describe_formats()} file")  # fmt: skip
    request, settings, decision = plan
    try:
        decision, read_source = read(request, settings, decision, output)
        result = read_source.parsed
    except DocumentParseError as exc:
        return Outcome(source, False, time.perf_counter() - start, reason=exc.reason,
                       message=str(exc.detail))  # fmt: skip
    except (FileNotFoundError, PermissionError, IsADirectoryError) as exc:
        return Outcome(source, False, time.perf_counter() - start, reason="unreadable",
                       message=str(exc))  # fmt: skip
    except Exception:  # the CLI reports a parser bug per file instead of stopping the batch
        return Outcome(
            source,
            False,
            time.perf_counter() - start,
            reason="internal-error",
            message=traceback.format_exc(),
        )
    return Outcome(
        source,
        True,
        time.perf_counter() - start,
        blocks=result.blocks,
        tables=result.tables,
        equations=result.equations,
        drawings=result.drawings,
        warnings=list(result.warnings),
        blocks_path=str(result.blocks_path),
        inferred_headings=result.inferred_headings,
        toc_blocks=result.outline.toc_blocks if result.outline is not None else 0,
        is_empty=decision.is_empty,
    )


class Progress:
    """A one-line progress bar on a terminal stream: ``[#####-----] 12/98 name``."""

    def __init__(self, total: int, stream: TextIO, width: int = 30) -> None:
        self.total = total
        self.done = 0
        self.stream = stream
        self.width = width
        self._shown = 0
        self.step("")

    def step(self, name: str) -> None:
        """Count one more file (``name`` ""= just draw) and redraw the bar."""
        if name:
            self.done += 1
        filled = self.width * self.done // max(self.total, 1)
        text = f"[{'#' * filled}{'-' * (self.width - filled)}] {self.done}/{self.total} {name}"
        text = text[:100]
        self.stream.write("\r" + text.ljust(self._shown))
        self.stream.flush()
        self._shown = len(text)

    def clear(self) -> None:
        """Erase the bar so a result line can be printed."""
        self.stream.write("\r" + " " * self._shown + "\r")
        self.stream.flush()

    def finish(self) -> None:
        """Erase the bar for good."""
        self.clear()


def _quiet() -> None:
    # Workers report warnings in their Outcome; the parent prints them.
    logging.getLogger("lightrag.pchunk").setLevel(logging.ERROR)
