"""What the commands share: the files a folder gives, the input of ``chunk`` and ``inspect``
(a file of a registered format, parsed first, or a ``.blocks.jsonl``) as a front-door
request, the setting flags, the tokenizer.

The settings are the front door's (``integration/settings.py``): the flags win, then
everything the SDK reads, so the command line chunks exactly as the SDK would.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from lightrag_pchunk.blockfile.jsonl import BLOCKS_SUFFIX
from lightrag_pchunk.encodings import DEFAULT_ENCODING, TiktokenAdapter, load_tiktoken
from lightrag_pchunk.errors import DocumentParseError
from lightrag_pchunk.integration.config import PSettings
from lightrag_pchunk.integration.formats import describe_formats, format_for
from lightrag_pchunk.integration.request import COMMAND, Flags, Request
from lightrag_pchunk.integration.settings import Settings, resolve

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

#: The smart outline's one vocabulary (``DOCX_SMART_HEADING``, ``native(smart_heading=...)``).
SMART_HEADING_WORDS = ("true", "false", "auto")


class InputError(Exception):
    """The input cannot be used; ``exit_code`` is what the command returns."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def add_glob_argument(parser: argparse.ArgumentParser) -> None:
    """``--glob PATTERN``: which files of a folder argument are taken."""
    parser.add_argument(
        "--glob",
        metavar="PATTERN",
        help=(
            "in folders, take the files whose path below the folder matches PATTERN "
            f"(e.g. '*.docx', 'contracts/*'); default: every {describe_formats()} file"
        ),
    )


def add_document_arguments(parser: argparse.ArgumentParser) -> None:
    """The input, sizes, tokenizer and output-folder options of ``chunk`` and ``inspect``."""
    parser.add_argument(
        "file",
        type=Path,
        metavar="FILE",
        help=(
            f"a {describe_formats()} file (parsed first) or a .blocks.jsonl (or its .parsed/"
            " folder)"
        ),
    )
    parser.add_argument(
        "--size",
        type=int_at_least(1),
        metavar="N",
        help=(
            "chunk size N in tokens, for P and for a document decided R (default: P's,"
            " CHUNK_P_SIZE, else 2000; R's, CHUNK_R_SIZE, else CHUNK_SIZE, else 1200)"
        ),
    )
    parser.add_argument(
        "--overlap",
        type=int_at_least(0),
        metavar="N",
        help=(
            "overlap in tokens, for P and for a document decided R (default: P's,"
            " CHUNK_P_OVERLAP_SIZE, R's, CHUNK_R_OVERLAP_SIZE; else CHUNK_OVERLAP_SIZE, else 100)"
        ),
    )
    parser.add_argument(
        "--encoding",
        metavar="NAME",
        help=f"tiktoken encoding (default: $LIGHTRAG_PCHUNK_ENCODING, else {DEFAULT_ENCODING})",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="DIR",
        help="keep the parse of a document in DIR/<name>.parsed/ (default: a temporary folder)",
    )
    add_smart_heading_argument(parser)


def add_smart_heading_argument(parser: argparse.ArgumentParser) -> None:
    """``--smart-heading [true|false|auto]`` (bare: true), ``native(smart_heading=...)``."""
    parser.add_argument(
        "--smart-heading",
        nargs="?",
        const="true",
        default=None,
        metavar="|".join(SMART_HEADING_WORDS),
        help=(
            "infer headings from numbering and look where heading styles are missing (bare:"
            " true; default: the LIGHTRAG_PARSER rule or file-name hint's"
            " native(smart_heading=...), else DOCX_SMART_HEADING, else auto: on for documents"
            " with too few styled headings)"
        ),
    )


def flags_of(args: argparse.Namespace) -> Flags:
    """The setting flags a command was given."""
    return Flags(
        size=getattr(args, "size", None),
        overlap=getattr(args, "overlap", None),
        smart_heading=getattr(args, "smart_heading", None),
    )


def document_request(path: Path, args: argparse.Namespace, command: str) -> Request:
    """The front-door request for ``chunk`` / ``inspect`` of ``path``: a file of a registered
    format is parsed and routed by its name, a blocks file (or its folder) gets P.

    Raises:
        InputError: no such file, or a kind of file no command reads.
    """
    entrance = COMMAND.format(command)
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    flags = flags_of(args)
    if not path.is_dir() and format_for(path) is not None:  # the parser refuses a FIFO
        return Request(entrance, file_name=path.name, source=path, flags=flags, strict=True)
    if path.is_dir() and not any(path.glob(f"*{BLOCKS_SUFFIX}")):
        raise InputError(f"{path}: a folder without a {BLOCKS_SUFFIX} file")
    if path.is_dir() or path.name.lower().endswith(".jsonl"):
        blocks_source = f"the command line ({path.name})"
        return Request(entrance, blocks=path, blocks_source=blocks_source, flags=flags, strict=True)
    raise InputError(
        f"{path}: expected a {describe_formats()} file or a {BLOCKS_SUFFIX} file (or the"
        " .parsed/ folder that holds one)"
    )


@contextmanager
def opened_document(
    args: argparse.Namespace, command: str
) -> Iterator[tuple[Request, Settings, TiktokenAdapter, Path]]:
    """``args.file`` opened for ``chunk`` / ``inspect``: its front-door request, its settings,
    the tokenizer of ``--encoding`` and the folder to parse it into (``--output``, else a
    temporary folder removed afterwards).

    Raises:
        InputError: no such file, a kind of file no command reads, a bad setting (named), an
            encoding that is unavailable (with what to install); inside the ``with`` block, a
            document refused or unreadable (exit code 1, what went wrong in one line).
    """
    request = document_request(args.file, args, command)
    try:
        settings, tokenizer = resolve(request), load_tiktoken(args.encoding)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    folder = args.output
    try:
        if folder is None:
            folder = Path(tempfile.mkdtemp(prefix="lightrag-pchunk-"))
        yield request, settings, tokenizer, folder
    except DocumentParseError as exc:
        raise InputError(f"cannot parse {exc}", EXIT_FAILED) from None
    except OSError as exc:
        raise InputError(f"cannot read {args.file}: {exc}", EXIT_FAILED) from None
    finally:
        if args.output is None and folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def sizes_text(settings: PSettings) -> str:
    """``size 2000 (default), overlap 100 (CHUNK_OVERLAP_SIZE (env))``."""
    sources = settings.sources
    return (
        f"size {settings.chunk_token_size} ({sources.get('chunk_token_size', 'default')}), "
        f"overlap {settings.chunk_overlap_token_size} "
        f"({sources.get('chunk_overlap_token_size', 'default')})"
    )


def int_at_least(minimum: int) -> Callable[[str], int]:
    """An argparse ``type``: an integer >= ``minimum``, else a usage error naming the value."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be an integer >= {minimum}, got {text!r}"
            ) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}, got {text!r}")
        return value

    return convert
