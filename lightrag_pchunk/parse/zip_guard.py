"""Stage A, first: the zip budget, checked before anything is decompressed or parsed.

Input: a path, bytes or a binary file object. Output: an open zip, an index of its safe entry
names (:func:`safe_index`) and :func:`read_entry`, which reads one entry within the budget.
:class:`~lightrag_pchunk.parse.package.DocxPackage` reads parts only through these.

Checks, each a :class:`DocxParseError` with a stable ``reason``:

- ``not-a-zip``: empty, not a zip, or a truncated/damaged zip with no central directory.
- ``encrypted`` / ``legacy-doc``: an OLE compound file (a password-protected OOXML file, or a
  Word 97-2003 .doc renamed); also ``encrypted`` for a zip member that needs a password.
- ``zip-budget``: too many entries, declared sizes over the budget or expanding at an excessive
  ratio (checked on the central directory before anything is decompressed, with LightRAG's
  semantics), a part over its own limit, or a part that decompresses to more than its header
  declares. Headers can lie, so every read stops one byte past the declared size and past the
  remaining total budget: the actual bytes decompressed are capped, never trusted.
- ``corrupt``: member data that fails to decompress or its CRC check.
- ``unsupported``: a member compressed with a method Python cannot read.
- ``ambiguous``: two entries whose names differ only by case, %-escapes or ``\\`` vs ``/``
  (or are identical): they name the same part, and readers disagree on which one counts.

Unsafe entry names (absolute, ``..``, a drive letter, NUL) are ignored with a warning, not
refused: they are never read, and the rest of the package is still safe to use, since parts are
only looked up in an index of safe names.
"""

from __future__ import annotations

import copy
import io
import lzma
import os
import struct
import zipfile
import zlib
from collections.abc import Callable
from typing import IO

from lightrag_pchunk.errors import DocxParseError
from lightrag_pchunk.parse.limits import PackageLimits
from lightrag_pchunk.parse.opc import is_unsafe_entry, part_key

_MIB = 1024 * 1024
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_OLE_SCAN_BYTES = 64 * _MIB
_ENCRYPTED_MARKER = "EncryptedPackage".encode("utf-16-le")
_WORD_MARKER = "WordDocument".encode("utf-16-le")
_READ_CHUNK = _MIB
# Errors zipfile and its decompressors raise on damaged member data.
_MEMBER_ERRORS = (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, OSError, struct.error)
_OPEN_ERRORS = (
    zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, struct.error,
    OverflowError, NotImplementedError,
)  # fmt: skip


class Budget:
    """Actual bytes still to be decompressed (``remaining``, None: no limit); shared by a
    package and the ones it embeds. ``input_bytes`` is the size of the distinct parts read
    (a part read again adds nothing): the input the output budget is relative to."""

    def __init__(self, total: int) -> None:
        self.remaining: int | None = total if total > 0 else None
        self.input_bytes = 0
        self._parts: set[str] = set()

    def note_input(self, name: str, size: int) -> None:
        """Count a part read as input, once per ``name`` (unique across packages)."""
        if name not in self._parts:
            self._parts.add(name)
            self.input_bytes += size


def open_source(
    source: str | os.PathLike[str] | bytes | bytearray | IO[bytes],
    limits: PackageLimits,
    name: str | None,
) -> tuple[IO[bytes], str, bool]:
    """A seekable handle on ``source``, the name messages call it, and whether we opened it.

    ``name`` defaults to the path or the file object's name. A non-seekable stream is read
    into memory, at most the total budget. A missing or unreadable path raises the usual
    ``OSError``.

    Raises:
        DocxParseError: ``zip-budget`` for a stream larger than the total budget.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        handle: IO[bytes] = io.BytesIO(bytes(source))
        label, owned = name or "<bytes>", True
    elif isinstance(source, (str, os.PathLike)):
        handle = open(source, "rb")  # noqa: SIM115 (closed by DocxPackage.close())
        label, owned = name or str(source), True
    else:
        handle, owned = source, False
        label = name or str(getattr(source, "name", "<stream>"))
        if not (hasattr(handle, "seekable") and handle.seekable()):
            handle, owned = _buffer_stream(handle, limits, label), True
    return handle, label, owned


def safe_index(
    archive: zipfile.ZipFile,
    handle: IO[bytes],
    limits: PackageLimits,
    path: str,
    warn: Callable[[str], None],
) -> dict[str, zipfile.ZipInfo]:
    """The archive's entries by part key, once its central directory fits the budget.

    Directories are skipped; entries with an unsafe name are left out and ``warn`` is told.

    Raises:
        DocxParseError: ``zip-budget``: too many entries, or declared sizes or expansion
            over the limits; ``ambiguous``: two entries name the same part.
    """
    infos = archive.infolist()
    _check_declared_budget(infos, _archive_size(handle), limits, path)
    index: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        if info.is_dir():
            continue
        if is_unsafe_entry(info):
            warn(f"zip entry {info.orig_filename!r} has an unsafe name; ignored")
            continue
        key = part_key(info.filename)
        if key in index:
            # Readers disagree on which twin is "the" part (zipfile and python-docx take the
            # last, a first-match lookup the first): two readers, two documents. The Open
            # XML SDK refuses such a package too.
            first = index[key].orig_filename
            raise DocxParseError(
                path,
                "ambiguous",
                f"zip entries {first!r} and {info.orig_filename!r} name the same part (part"
                " names ignore case, %-escapes and \\ vs /): the package is ambiguous; re-save"
                " it in Word",
            )
        index[key] = info
    return index


def read_entry(
    archive: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    part: str,
    max_bytes: int,
    *,
    budget: Budget,
    limits: PackageLimits,
    path: str,
) -> bytes:
    """The decompressed bytes of one entry, at most ``max_bytes`` and what ``budget`` has left.

    The declared size is checked first; the read then stops one byte past it, so a forged
    header is refused rather than trusted. ``budget`` is charged with the bytes read.

    Raises:
        DocxParseError: ``zip-budget``, ``corrupt``, ``encrypted`` or ``unsupported``.
    """
    declared = info.file_size
    remaining = budget.remaining
    if declared > max_bytes:
        raise _part_error(path, limits, part, f"it declares {declared} bytes", max_bytes)
    if remaining is not None and declared > remaining:
        raise _total_error(path, limits, part, declared)
    # Let zipfile decompress past the declared size (it would stop there and fail the CRC),
    # so a forged header shows; this loop stops one byte past it.
    probe = copy.copy(info)
    probe.file_size = declared + _READ_CHUNK
    chunks: list[bytes] = []
    total = 0
    try:
        with archive.open(probe) as member:
            while chunk := member.read(min(_READ_CHUNK, declared + 1 - total)):
                total += len(chunk)
                if total > declared:
                    raise DocxParseError(
                        path,
                        "zip-budget",
                        f"it decompresses to more than the {declared} bytes its zip header"
                        " declares (a forged header); refused",
                        part=part,
                    )
                chunks.append(chunk)
    except NotImplementedError as exc:  # a RuntimeError too: test it first
        raise DocxParseError(
            path, "unsupported", f"the part cannot be decompressed: {exc}", part=part
        ) from exc
    except RuntimeError as exc:  # zipfile: "File ... is encrypted, password required"
        raise DocxParseError(
            path, "encrypted", f"the part is password-protected: {exc}", part=part
        ) from exc
    except _MEMBER_ERRORS as exc:
        raise DocxParseError(
            path,
            "corrupt",
            f"the part's data is damaged ({exc}); re-save the document in Word",
            part=part,
        ) from exc
    if remaining is not None:
        budget.remaining = remaining - total
    return b"".join(chunks)


def _part_error(
    path: str, limits: PackageLimits, part: str, what: str, limit: int
) -> DocxParseError:
    var = "LIGHTRAG_PCHUNK_MAX_XML_PART_BYTES"
    if limit != limits.max_xml_part_bytes:
        var = "NATIVE_DOCX_IMAGE_MAX_BYTES"
    return DocxParseError(
        path,
        "zip-budget",
        f"the part is too large: {what}, the limit is {limit} (env {var})",
        part=part,
    )


def _total_error(path: str, limits: PackageLimits, part: str, size: int) -> DocxParseError:
    return DocxParseError(
        path,
        "zip-budget",
        f"reading {size} more bytes would exceed the {limits.max_uncompressed_bytes}"
        " bytes this document may decompress (env DOCX_MAX_UNCOMPRESSED_BYTES)",
        part=part,
    )


def _check_declared_budget(
    infos: list[zipfile.ZipInfo], archive_bytes: int, limits: PackageLimits, path: str
) -> None:
    """Refuse from the central directory alone: entry count, declared sizes, expansion ratio."""

    def refuse(message: str) -> DocxParseError:
        return DocxParseError(path, "zip-budget", message)

    if 0 < limits.max_entries < len(infos):
        raise refuse(
            f"the zip has {len(infos)} entries, the limit is {limits.max_entries}"
            " (env DOCX_MAX_ENTRIES)"
        )
    max_total, ratio = limits.max_uncompressed_bytes, limits.max_compression_ratio
    total = excess = over_compressed = 0
    for info in infos:
        size, packed = max(0, info.file_size), max(0, info.compress_size)
        total += size
        if max_total > 0 and size > max_total:
            raise refuse(
                f"entry {info.filename!r} declares {size} uncompressed bytes, the limit is"
                f" {max_total} (env DOCX_MAX_UNCOMPRESSED_BYTES)"
            )
        if ratio > 0 and size > packed * ratio:
            excess += size - packed * ratio
            over_compressed += packed
    if max_total > 0 and total > max_total:
        raise refuse(
            f"the entries declare {total} uncompressed bytes, the limit is {max_total}"
            " (env DOCX_MAX_UNCOMPRESSED_BYTES)"
        )
    if ratio <= 0:
        return
    # Expansion beyond each entry's own ratio allowance is tolerated up to the floor plus the
    # archive bytes outside those entries, so splitting a bomb into entries gains nothing.
    allowance = max(0, limits.ratio_floor_bytes) + max(0, archive_bytes - over_compressed)
    if excess > allowance:
        raise refuse(
            f"entries expand {excess} bytes beyond {ratio}x their compressed size (allowed"
            f" {allowance}; env DOCX_MAX_COMPRESSION_RATIO, DOCX_RATIO_FLOOR_BYTES): a zip bomb?"
        )
    if archive_bytes > 0 and total > limits.ratio_floor_bytes and total > archive_bytes * ratio:
        raise refuse(
            f"{archive_bytes} bytes on disk declare {total} uncompressed bytes (over {ratio}x;"
            " env DOCX_MAX_COMPRESSION_RATIO): a zip bomb?"
        )


def _archive_size(handle: IO[bytes]) -> int:
    position = handle.tell()
    size = handle.seek(0, io.SEEK_END)
    handle.seek(position)
    return size


def _buffer_stream(stream: IO[bytes], limits: PackageLimits, path: str) -> IO[bytes]:
    """A non-seekable stream read into memory, at most the total budget."""
    cap = limits.max_uncompressed_bytes if limits.max_uncompressed_bytes > 0 else None
    data = stream.read() if cap is None else stream.read(cap + 1)
    if cap is not None and len(data) > cap:
        raise DocxParseError(path, "zip-budget", f"the stream is larger than {cap} bytes")
    return io.BytesIO(data)


def open_zip(handle: IO[bytes], path: str) -> zipfile.ZipFile:
    """The zip in ``handle``; a file that is not one is named (OLE, RTF, PDF, XML) if it can be.

    Raises:
        DocxParseError: ``not-a-zip``, ``encrypted`` or ``legacy-doc``.
    """
    handle.seek(0)
    head = handle.read(8)
    handle.seek(0)
    if not head:
        raise DocxParseError(path, "not-a-zip", "the file is empty")
    if head == _OLE_MAGIC:
        raise _ole_error(handle, path)
    try:
        return zipfile.ZipFile(handle)
    except _OPEN_ERRORS as exc:
        if head.startswith(b"PK"):
            message = f"the zip is damaged or truncated ({exc}); re-save or re-download it"
        else:
            message = f"the file is not a .docx (zip) package{_sniff_hint(head)}"
        raise DocxParseError(path, "not-a-zip", message) from exc


def _sniff_hint(head: bytes) -> str:
    if head.startswith(b"{\\rtf"):
        return ": it is an RTF file; save it as .docx in Word"
    if head.startswith(b"%PDF"):
        return ": it is a PDF"
    if head.lstrip(b"\xef\xbb\xbf \r\n\t").startswith(b"<"):
        return ": it is an XML/HTML file (Word 2003 XML or Flat OPC?); save it as .docx in Word"
    return ""


def _ole_error(handle: IO[bytes], path: str) -> DocxParseError:
    """An OLE compound file: a password-protected OOXML file or a legacy binary document."""
    found: set[bytes] = set()
    tail, scanned = b"", 0
    while scanned < _OLE_SCAN_BYTES and len(found) < 2:
        chunk = handle.read(_READ_CHUNK)
        if not chunk:
            break
        window = tail + chunk
        found.update(m for m in (_ENCRYPTED_MARKER, _WORD_MARKER) if m in window)
        tail, scanned = window[-len(_ENCRYPTED_MARKER) :], scanned + len(chunk)
    if _ENCRYPTED_MARKER in found:
        return DocxParseError(
            path,
            "encrypted",
            "the document is password-protected (encrypted); remove the password in Word"
            " (File > Info > Protect Document) and save it again",
        )
    what = "a Word 97-2003 .doc file" if _WORD_MARKER in found else "a legacy Office (OLE) file"
    return DocxParseError(
        path,
        "legacy-doc",
        f"this is {what}, not a .docx; open it in Word or LibreOffice and save it as .docx",
    )
