"""Exceptions a user may see, each naming what was wrong and where."""

from __future__ import annotations


class DocxParseError(Exception):
    """A .docx we refuse to parse.

    ``reason`` is a short stable code for tests and CLI exit codes, e.g. ``"not-a-zip"``,
    ``"zip-budget"``, ``"dtd"``, ``"missing-part"``, ``"xml"``, ``"encrypted"``,
    ``"unsupported"``.
    """

    def __init__(self, path: str, reason: str, message: str, *, part: str | None = None):
        self.path = str(path)
        self.reason = reason
        self.part = part
        self.detail = message
        where = f"{self.path}" + (f" (part {part})" if part else "")
        super().__init__(f"{where}: {message} [{reason}]")


class BlockFileError(Exception):
    """A ``.blocks.jsonl`` file that cannot be read at all (missing, unreadable, not UTF-8)."""

    def __init__(self, path: str, message: str):
        self.path = str(path)
        super().__init__(f"{self.path}: {message}")
