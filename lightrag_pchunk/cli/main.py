"""``lightrag-pchunk``: the command-line entry point; the only place that configures logging."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from lightrag_pchunk.integration.formats import format_names
from lightrag_pchunk.version import package_version

#: Sub-commands, each a module ``lightrag_pchunk.cli.<name>_cmd`` with
#: ``register(subparsers)`` that adds its parser and sets ``func(args) -> int``. A command
#: that passes unknown options on (``serve``) sets ``passes_unknown_args=True``; they
#: arrive as ``args.unknown_args``.
COMMANDS = ("parse", "chunk", "inspect", "ingest", "demo", "eval", "serve")
#: Commands that read LIGHTRAG_PARSER, CHUNK_P_* and DOCX_SMART_HEADING: a bad value stops
#: them before any file is touched, with exit code 2, as LightRAG's server refuses it at
#: start-up (``serve`` checks once LightRAG's server has loaded its .env; ``demo`` ignores
#: the environment).
CHECKS_CONFIG = ("parse", "chunk", "inspect", "ingest", "eval")

_VERBOSE_HELP = "more log output (-vv for debug); before or after the command"


def version_text() -> str:
    """``lightrag-pchunk 0.1.0 (lightrag-hku 1.5.7, Python 3.11.2)``."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        lightrag = version("lightrag-hku")
    except PackageNotFoundError:
        lightrag = "not installed"
    python = ".".join(map(str, sys.version_info[:3]))
    return f"lightrag-pchunk {package_version()} (lightrag-hku {lightrag}, Python {python})"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="lightrag-pchunk",
        description=(
            f"Paragraph Semantic (P) chunking of {format_names()} documents for LightRAG."
        ),
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help=_VERBOSE_HELP)
    parser.add_argument("--version", action="version", version=version_text())
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"lightrag_pchunk.cli.{name}_cmd").register(subparsers)
    for command in subparsers.choices.values():
        # A separate count: the sub-command's namespace would overwrite the top-level one.
        command.add_argument(
            "-v",
            "--verbose",
            dest="verbose_after",
            action="count",
            default=argparse.SUPPRESS,
            help=_VERBOSE_HELP,
        )
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
    args, unknown = parser.parse_known_args(argv)
    if unknown and not getattr(args, "passes_unknown_args", False):
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    args.unknown_args = unknown
    args.verbose += getattr(args, "verbose_after", 0)
    configure_logging(args.verbose)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    if args.command in CHECKS_CONFIG:
        from lightrag_pchunk.integration.settings import check_config

        try:
            check_config()
        except ValueError as exc:  # ParserRoutingConfigError is one
            print(f"error: {exc}", file=sys.stderr)
            return 2
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader went away (`... | head`): stop quietly, as other command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
