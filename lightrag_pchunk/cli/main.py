"""``lightrag-pchunk``: the command-line entry point; the only place that configures logging."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

#: Sub-commands, each a module ``lightrag_pchunk.cli.<name>_cmd`` with
#: ``register(subparsers)`` that adds its parser and sets ``func(args) -> int``.
COMMANDS = ("parse", "chunk", "inspect", "ingest", "demo")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="lightrag-pchunk",
        description="Paragraph Semantic (P) chunking of DOCX and Markdown for LightRAG.",
    )
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"lightrag_pchunk.cli.{name}_cmd").register(subparsers)
    return parser


def configure_logging(verbosity: int) -> None:
    """Send our logger (``lightrag.pchunk``) to stderr at the requested level."""
    level = logging.WARNING if verbosity <= 0 else logging.INFO if verbosity == 1 else logging.DEBUG
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("lightrag.pchunk")
    logger.handlers[:] = [handler]
    logger.setLevel(level)
    logger.propagate = False


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    configure_logging(args.verbose)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader went away (`... | head`): stop quietly, as other command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
