"""Exceptions a user may see, each naming what was wrong and where."""

from __future__ import annotations


class DocxParseError(Exception):
    """A .docx we refuse to parse.

    ``reason`` is a short stable code for tests and CLI exit codes, one of:
    ``"not-a-zip"`` (not a zip, empty or truncated), ``"encrypted"`` (a password-protected
    OLE container), ``"legacy-doc"`` (a Word 97-2003 .doc), ``"zip-budget"`` (over a
    ``PackageLimits`` limit), ``"ambiguous"`` (two zip entries name the same part),
    ``"output-budget"`` (the document would produce more text than the output budget
    allows), ``"corrupt"`` (a member that cannot be decompressed),
    ``"unsupported"`` (another OOXML package type), ``"missing-part"`` (no main document
    part), ``"dtd"`` (a DOCTYPE or entity declaration), ``"xml"`` (a part that is not
    well-formed), ``"xml-limit"`` (past libxml2's depth or text-size limits) and
    ``"output"`` (the output folder is a file, or the ``.parsed`` folder a
    symbolic link).
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
