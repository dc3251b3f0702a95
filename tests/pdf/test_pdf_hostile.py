"""The hostile PDF set (``hostile_pdfs``, ``hostile_pages``): every file is refused in one
line with its reason, or parsed with no word lost between blocks and chunks, in a process
capped at 2 GiB of address space and 60 CPU seconds (``pdf_child``) that exits cleanly.

The light files share a capped process in small batches; the heavy ones (a billion forms,
a 1.5 GB content stream, millions of characters, 10,000 pages) each have one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import hostile_pages as pages
import hostile_pdfs as pdfs
import pytest
from pdf_child import run_capped

#: Refusals of a reading that ran out of memory or time, or that PDFium aborted.
OVER_BUDGET = ("reader-crash", "memory-limit", "time-limit", "page-objects", "output-budget")


@dataclass(frozen=True)
class Case:
    """A hostile file and what must become of it: ``parsed`` (BODY reaches the chunks),
    ``refused`` (with one of ``reasons``) or ``either`` (PDFium's choice: refused with a
    reason, or parsed; never a crash, never a word lost)."""

    build: Callable[[], bytes]
    expect: str = "parsed"
    reasons: tuple[str, ...] = ()


LIGHT = {
    "plain": Case(pdfs.plain),
    "xref-prev-loop": Case(pdfs.xref_prev_loop),
    "xref-two-section-loop": Case(pdfs.xref_two_section_loop),
    "xref-garbage": Case(pdfs.xref_garbage),
    "xref-stream-self-prev": Case(pdfs.xref_stream_self_prev),
    "objstm-self-extends": Case(pdfs.objstm_self_extends),
    "objstm-holds-itself": Case(pdfs.objstm_holds_itself),
    "objstm-count-lie": Case(pdfs.objstm_count_lie, "either"),
    "indirect-chain": Case(pdfs.indirect_chain),
    "deep-arrays": Case(pdfs.deep_arrays),
    "deep-dicts": Case(pdfs.deep_dicts),
    "deep-content-operands": Case(pdfs.deep_content_operands),
    "page-tree-loop": Case(pdfs.page_tree_loop),
    "page-count-lie": Case(pdfs.page_count_lie),
    "form-recursion": Case(pdfs.form_recursion),
    "huge-media-box": Case(pages.huge_media_box),
    "huge-user-unit": Case(pages.huge_user_unit),
    "empty-media-box": Case(pages.empty_media_box),
    "huge-image": Case(pages.huge_image),
    "huge-inline-image": Case(pages.huge_inline_image),
    "jbig2": Case(pages.jbig2_image),
    "jbig2-only": Case(lambda: pages.jbig2_image(with_text=False), "refused", ("image-only",)),
    "jpx": Case(pages.jpx_image),
    "jpx-only": Case(lambda: pages.jpx_image(with_text=False), "refused", ("image-only",)),
    "font-without-widths": Case(pages.font_without_widths),
    "font-bad-widths": Case(pages.font_bad_widths, "either"),  # PDFium drops stacked glyphs
    "tounicode-garbage": Case(pages.tounicode_garbage),
    "tounicode-unbalanced": Case(pages.tounicode_unbalanced),
    "type3-recursion": Case(pages.type3_recursion),
    "long-line": Case(pages.long_line),
    **{
        f"{algorithm}-owner-password": Case(lambda a=algorithm: pages.encrypted(a, ""))
        for algorithm in pages.ALGORITHMS
    },
    **{
        f"{algorithm}-user-password": Case(
            lambda a=algorithm: pages.encrypted(a, "user-secret"), "refused", ("password",)
        )
        for algorithm in pages.ALGORITHMS
    },
}
HEAVY = {
    "form-fan-out": Case(pdfs.form_fan_out, "refused", OVER_BUDGET),
    "flate-bomb": Case(pages.flate_bomb, "refused", OVER_BUDGET),
    "flate-bomb-split": Case(pages.flate_bomb_split, "either"),
    "many-paths": Case(pages.many_paths, "refused", ("page-objects",)),
    "many-text-objects": Case(pages.many_text_objects, "either"),
    "tounicode-amplifier": Case(pages.tounicode_amplifier),
    "many-pages": Case(pages.many_pages, "either"),  # each page says its own line
}
BATCH = 12


def check(cases: dict[str, Case], tmp_path: Path) -> dict[str, dict]:
    """Run ``cases`` in one capped child; each one's report, after the checks every case
    passes (the child exits cleanly, a report for each, refusals in one line with their
    reason, no word lost)."""
    paths = []
    for name, case in cases.items():
        path = tmp_path / f"{name}.pdf"
        path.write_bytes(case.build())
        paths.append(path)
    result = run_capped(paths)
    done = {Path(report["path"]).stem: report for report in result.reports}
    stopped = next((name for name in cases if name not in done), None)
    assert result.returncode == 0 and stopped is None, (
        f"the child ended with {result.returncode} at {stopped}: {result.stderr}"
    )
    failures = []
    for name, case in cases.items():
        report = done[name]
        outcome = report["outcome"]
        if outcome == "refused":
            message = report["message"]
            ok = case.expect != "parsed" and "\n" not in message
            ok = ok and message.endswith(f"[{report['reason']}]")
            ok = ok and (not case.reasons or report["reason"] in case.reasons)
        else:
            ok = case.expect != "refused" and not report["lost"]
            ok = ok and (case.expect == "either" or report["has_body"])
        if not ok:
            failures.append(f"{name} (expected {case.expect} {case.reasons}): {report}")
    assert not failures, "\n".join(failures)
    return done


@pytest.mark.parametrize("start", range(0, len(LIGHT), BATCH))
def test_light_hostile_files_are_refused_or_parsed_whole(tmp_path: Path, start: int) -> None:
    names = list(LIGHT)[start : start + BATCH]
    done = check({name: LIGHT[name] for name in names}, tmp_path)
    if "page-tree-loop" in done:  # the pages that loop are named, the one that loads is read
        assert any("pages 2-3" in w for w in done["page-tree-loop"]["warnings"])


@pytest.mark.parametrize("name", list(HEAVY))
def test_heavy_hostile_files_stay_within_the_budget(tmp_path: Path, name: str) -> None:
    report = check({name: HEAVY[name]}, tmp_path)[name]
    if name == "many-pages":
        assert report["pages"] == 10_000 and report["chars"] > 10_000 * len("Entry 1 of the")
    if name == "tounicode-amplifier":  # ten million characters shown, none over the budget
        assert 1_000_000 < report["chars"] <= 32 * 1024 * 1024
