"""Seeded mutants of real PDFs (``../shared/corpus/pdf``, read at test time; ``pdf_mutants``):
each is refused in one line with its reason or parsed and chunked with no word lost between
blocks and chunks, in a process capped at 2 GiB of address space (``pdf_child``) that exits
cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_child import run_capped
from pdf_mutants import mutants, sources

from helpers import shared_dir

SHARED = shared_dir()
CORPUS = SHARED / "corpus" / "pdf" if SHARED else None
MUTANTS, SEED = 60, 31
#: Mutants in one capped process, and the CPU seconds it may take (each reading has its own
#: 60 s limit in the parser).
BATCH, BATCH_CPU_SECONDS = 20, 300


@pytest.mark.skipif(CORPUS is None or not CORPUS.is_dir(), reason="../shared/corpus is absent")
@pytest.mark.parametrize("start", range(0, MUTANTS, BATCH))
def test_mutants_of_real_pdfs_are_refused_or_parsed_whole(tmp_path: Path, start: int) -> None:
    pdfs = sources(CORPUS, max_bytes=400_000, count=8)
    paths = []
    for index, (label, data) in enumerate(mutants(pdfs, MUTANTS, SEED)):
        if start <= index < start + BATCH:
            path = tmp_path / f"{label}.pdf"
            path.write_bytes(data)
            paths.append(path)
    result = run_capped(paths, cpu_seconds=BATCH_CPU_SECONDS)
    done = {Path(report["path"]).stem: report for report in result.reports}
    stopped = next((p.stem for p in paths if p.stem not in done), None)
    assert result.returncode == 0 and stopped is None, (
        f"the child ended with {result.returncode} at {stopped}: {result.stderr}"
    )
    failures = []
    for label, report in done.items():
        if report["outcome"] == "refused":
            message = report["message"]
            if "\n" in message or not message.endswith(f"[{report['reason']}]"):
                failures.append(f"{label}: refused in more than one line: {message!r}")
        elif report["lost"]:
            failures.append(f"{label}: {report['lost']} lost between blocks and chunks")
    assert not failures, "\n".join(failures)
    outcomes = [report["outcome"] for report in done.values()]
    assert outcomes.count("parsed") > BATCH // 4  # the mutants are not all refused
