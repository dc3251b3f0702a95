"""What the PDF parser refuses, in one line with a stable reason, and what it opens."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pytest
from hostile_pages import flate_bomb, many_pages

from lightrag_pchunk.errors import DocumentParseError, PdfParseError
from lightrag_pchunk.pdf import isolation, source
from lightrag_pchunk.pdf.document import parse_pdf
from lightrag_pchunk.pdf.source import PdfLimits

from pdf_builders import Page, Text, build_pdf, wrap

BODY = "The cold store is inspected every week and the result written in the plant log."


def write(tmp_path: Path, data: bytes, name: str = "doc.pdf") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def refused(path: Path, **kwargs) -> PdfParseError:
    with pytest.raises(PdfParseError) as caught:
        parse_pdf(path, path.parent / "out", doc_id="doc-test", **kwargs)
    assert isinstance(caught.value, DocumentParseError)
    assert "\n" not in str(caught.value)
    assert not (path.parent / "out" / f"{path.name}.parsed").exists()
    return caught.value


def test_a_text_file_named_pdf_is_not_a_pdf(tmp_path: Path) -> None:
    error = refused(write(tmp_path, b"just some text\n" * 10))
    assert error.reason == "not-a-pdf"


def test_a_truncated_file_is_broken(tmp_path: Path) -> None:
    data = build_pdf([Page([Text(72, 720, BODY)])])
    error = refused(write(tmp_path, data[:200]))
    assert error.reason == "broken"


def _encrypted(user_password: str) -> bytes:
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(io.BytesIO(build_pdf([Page([Text(72, 720, BODY)])])))
    writer = pypdf.PdfWriter()
    writer.append(reader)
    writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm="AES-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_user_password_is_refused(tmp_path: Path) -> None:
    error = refused(write(tmp_path, _encrypted("user-secret")))
    assert error.reason == "password"


def test_an_owner_password_alone_opens(tmp_path: Path) -> None:
    path = write(tmp_path, _encrypted(""))
    result = parse_pdf(path, tmp_path / "out", doc_id="doc-test")
    assert BODY in result.content


def test_a_scan_without_text_is_refused_with_what_to_do(tmp_path: Path) -> None:
    error = refused(write(tmp_path, build_pdf([Page(image=True), Page(image=True)])))
    assert error.reason == "image-only"
    assert "ocrmypdf" in str(error) and "mineru/docling" in str(error)


def test_scanned_pages_among_text_pages_are_named_in_a_warning(tmp_path: Path) -> None:
    pages = [Page(wrap(BODY, 72, 720, 400)), Page(image=True), Page(wrap(BODY, 72, 720, 400))]
    result = parse_pdf(write(tmp_path, build_pdf(pages)), tmp_path / "out", doc_id="doc-test")
    assert BODY in result.content
    assert any("pages 2" in w and "ocrmypdf" in w for w in result.warnings)


def test_an_empty_pdf_parses_to_no_rows(tmp_path: Path) -> None:
    result = parse_pdf(write(tmp_path, build_pdf([Page()])), tmp_path / "out", doc_id="doc-test")
    # No warning: a document without text is empty, which every entrance says itself.
    assert result.rows == () and result.content == "" and result.warnings == ()


@pytest.mark.parametrize(
    ("limits", "reason"),
    [
        (PdfLimits(max_pages=2), "too-many-pages"),
        (PdfLimits(max_page_objects=2), "page-objects"),
        (PdfLimits(max_text_chars=100), "output-budget"),
        (PdfLimits(max_bytes=500), "too-large"),
    ],
)
def test_limits(tmp_path: Path, limits: PdfLimits, reason: str) -> None:
    pages = [Page(wrap(BODY * 2, 72, 720, 400)) for _ in range(3)]
    error = refused(write(tmp_path, build_pdf(pages)), limits=limits)
    assert error.reason == reason


def test_limits_come_from_the_environment_and_name_a_bad_value() -> None:
    assert PdfLimits.from_env({"LIGHTRAG_PCHUNK_PDF_MAX_PAGES": "7"}).max_pages == 7
    with pytest.raises(ValueError, match="LIGHTRAG_PCHUNK_PDF_MAX_SECONDS"):
        PdfLimits.from_env({"LIGHTRAG_PCHUNK_PDF_MAX_SECONDS": "soon"})


def test_a_page_that_needs_more_memory_than_the_limit_is_refused_not_fatal(
    tmp_path: Path,
) -> None:
    error = refused(
        write(tmp_path, flate_bomb(blocks=4, block_mib=64)), limits=PdfLimits(max_memory_mb=128)
    )
    assert error.reason in ("reader-crash", "memory-limit")
    assert "LIGHTRAG_PCHUNK_PDF_MAX_MEMORY_MB" in str(error) and "at page 1" in str(error)


def test_reading_over_the_time_limit_is_refused(tmp_path: Path) -> None:
    error = refused(write(tmp_path, many_pages(4000)), limits=PdfLimits(max_seconds=1))
    assert error.reason == "time-limit" and "LIGHTRAG_PCHUNK_PDF_MAX_SECONDS" in str(error)


def _idle_children() -> list[int]:
    return [child.process.pid for child in isolation._IDLE]


def test_a_reading_child_is_kept_for_the_next_document_until_it_goes_over_a_limit(
    tmp_path: Path,
) -> None:
    isolation.close_children()
    good = write(tmp_path, build_pdf([Page(wrap(BODY, 72, 720, 400))]), "good.pdf")
    long = write(tmp_path, many_pages(4000), "long.pdf")
    parse_pdf(good, tmp_path / "out", doc_id="doc-test")
    (first,) = _idle_children()
    assert BODY in parse_pdf(good, tmp_path / "out", doc_id="doc-test").content
    assert _idle_children() == [first]  # the same process read both
    # The limits are the document's own: the time a child spent on earlier documents
    # is not counted, and a child that went over a limit is ended.
    error = refused(long, limits=PdfLimits(max_seconds=1))
    assert error.reason == "time-limit" and _idle_children() == []
    assert BODY in parse_pdf(good, tmp_path / "out", doc_id="doc-test").content
    assert len(_idle_children()) == 1 and _idle_children() != [first]


def test_a_threaded_caller_reads_in_a_new_interpreter_with_the_same_limits(
    tmp_path: Path,
) -> None:
    # A server parses from worker threads: the reading cannot fork there, and starts a
    # new interpreter instead; it reads, refuses and caps as a forked one does.
    isolation.close_children()  # none forked by an earlier test is at hand
    good = write(tmp_path, build_pdf([Page(wrap(BODY, 72, 720, 400))]), "good.pdf")
    bomb = write(tmp_path, flate_bomb(blocks=4, block_mib=64), "bomb.pdf")
    outcomes: dict[str, object] = {}

    def parse(path: Path, **kwargs) -> None:
        try:
            outcomes[path.name] = parse_pdf(path, tmp_path / "out", doc_id="doc-test", **kwargs)
        except PdfParseError as error:
            outcomes[path.name] = error

    threads = [
        threading.Thread(target=parse, args=(good,)),
        threading.Thread(
            target=parse, args=(bomb,), kwargs={"limits": PdfLimits(max_memory_mb=128)}
        ),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert BODY in outcomes["good.pdf"].content  # type: ignore[union-attr]
    error = outcomes["bomb.pdf"]
    assert isinstance(error, PdfParseError) and error.reason in ("reader-crash", "memory-limit")


def test_memory_is_read_on_the_first_page_and_every_few_pages_after(monkeypatch) -> None:
    # A read of /proc on every page costs more than the rest of the checks; memory that
    # grows page by page is still refused within a few pages.
    grown = {"bytes": 0}
    reads: list[int] = []

    def resident() -> int:
        reads.append(1)
        return 1 + grown["bytes"]

    monkeypatch.setattr(source, "resident_bytes", resident)
    guard = source.ParseGuard(PdfLimits(max_memory_mb=1), "doc.pdf")
    reads.clear()
    pages = 2 * source.MEMORY_CHECK_PAGES
    for page in range(1, pages + 1):
        guard.after_page(0, page)
    assert len(reads) == 2  # pages 1 and MEMORY_CHECK_PAGES + 1
    grown["bytes"] = 2 * 1024 * 1024
    with pytest.raises(PdfParseError, match="memory grew") as caught:
        for page in range(pages + 1, 2 * pages + 1):
            guard.after_page(0, page)
    assert caught.value.reason == "memory-limit"
