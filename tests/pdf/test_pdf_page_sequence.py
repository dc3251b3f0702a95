"""Running lines that carry their page's number beside a title that changes with the
chapter or section ("6    Chapter 2. Pumps" on a left-hand page, "2.1 Brine pumps    7" on
a right-hand one): a short chapter prints each on a page or two only, too few to repeat,
but the number runs with the pages. They are furniture, never a heading or the text of a
page; a number of the sequence that is a heading's label or a table's total is kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pdf_builders import BOLD, LOREM, Page, Text, headings_of, parse_pages, wrap

CHAPTERS = ["Ammonia plant", "Brine pumps", "Freezer coils"]


def _book() -> list[Page]:
    """Three chapters of three pages, the pages numbered from 1: a chapter opens with its
    title and prints its number alone at the foot; its left-hand page prints the number and
    the chapter's title in the footer, its right-hand page its section's title and the
    number."""
    pages = []
    for chapter, title in enumerate(CHAPTERS, start=1):
        for page in range(3):
            number = len(pages) + 1
            body = wrap(f"Text {number} on the {title.lower()}. {LOREM} {LOREM}", 72, 690, 460)
            if page == 0:
                top = [Text(72, 740, f"{chapter} {title}", 16, BOLD)]
                foot = [Text(300, 40, str(number), 10)]
            elif number % 2 == 0:
                top, foot = [], [Text(72, 40, str(number), 10), Text(300, 40, title, 10)]
            else:
                foot = [Text(72, 40, f"{chapter}.1 Scope of the {title.lower()}", 10)]
                top, foot = [], [*foot, Text(520, 40, str(number), 10)]
            pages.append(Page([*top, *body, *foot]))
    return pages


def test_running_footers_numbered_with_their_pages_are_removed(tmp_path: Path) -> None:
    result = parse_pages(tmp_path, _book())
    assert headings_of(result) == [f"{n} {title}" for n, title in enumerate(CHAPTERS, start=1)]
    assert "Scope of the" not in result.content
    for title in CHAPTERS:
        assert result.content.count(title) == 1
    assert all(f"Text {n} on the" in result.content for n in range(1, 10))


def test_a_heading_or_a_total_numbered_as_its_page_is_kept(tmp_path: Path) -> None:
    # Page 4 opens with a section numbered 4 in the top band and ends with a table's
    # total of 4 over its page number; page 5's heading "5 Valves", set large, opens a
    # page that prints no number; page 7 prints no number, its table's total of 7 over a
    # note. Each is the text's.
    pages = _book()
    pages[3].items += [Text(72, 760, "4", 10, BOLD), Text(120, 760, "Pump checks", 10, BOLD)]
    pages[3].items += [Text(72, 64, "Total", 10), Text(520, 64, "4", 10)]
    pages[4].items = [i for i in pages[4].items if i.y > 60]
    pages[4].items += [Text(72, 760, "5", 16, BOLD), Text(120, 760, "Valves", 16, BOLD)]
    pages[6].items = [i for i in pages[6].items if i.y > 60]
    pages[6].items += [Text(72, 64, "Total", 10), Text(520, 64, "7", 10)]
    pages[6].items += [Text(72, 40, "Keep this log with the plant records.", 10)]
    result = parse_pages(tmp_path, pages)
    assert "Pump checks" in result.content and result.content.count("Total") == 2
    assert "Valves" in result.content


def test_a_line_numbered_at_both_ends_reads_the_same_in_every_run() -> None:
    # Which end's number a line prints is read in the same order in every process: read
    # from a set of strings, the answer followed PYTHONHASHSEED and a parse changed from run
    # to run.
    code = (
        "from types import SimpleNamespace as N\n"
        "from lightrag_pchunk.pdf.page_sequence import _end_number\n"
        "parts = ['7', 'Chapter 2. Pumps', '12']\n"
        "print(_end_number(N(segments=[N(text=t, table=None) for t in parts])))\n"
    )
    answers = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True, text=True, check=True,
        ).stdout.strip()
        for seed in range(8)
    }  # fmt: skip
    assert answers == {"7"}


def test_a_banner_title_with_its_page_number_raised_in_its_row_keeps_its_title(
    tmp_path: Path,
) -> None:
    # A designed report opens each page with a title set large, its page's number small and
    # raised at the row's far end (read as the title's superscript): the numbers run with
    # the pages, yet the titles are the sections', each a heading without its number.
    titles = ["Pump checks", "Valve settings", "Coil defrosting", "Brine strength"]
    pages = []
    for number, title in enumerate(titles, start=1):
        body = wrap(f"Text {number} on {title.lower()}. {LOREM} {LOREM}", 72, 690, 460)
        banner = [Text(72, 744, title, 24, BOLD), Text(530, 760, str(number), 9, BOLD)]
        pages.append(Page([*banner, *body]))
    result = parse_pages(tmp_path, pages)
    assert headings_of(result) == titles
    assert all(f"Text {n} on" in result.content for n in range(1, 5))
