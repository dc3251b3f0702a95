"""The HTML report opened in a real headless browser (Debian's chromium): the screenshot
must show the plots, drawn in each contender's colour, with no network."""

from __future__ import annotations

from collections import Counter

from lightrag_pchunk.eval.report_html import COLOURS, write_html
from lightrag_pchunk.eval.run import evaluate

from browser import chromium, png_pixels, rgb, screenshot
from sample_docs import write_manual


def test_the_html_report_shows_its_plots_in_a_headless_browser(tmp_path) -> None:
    chromium()
    documents = [
        write_manual(tmp_path / "manual.docx"),
        write_manual(tmp_path / "second.docx", seed=8, paragraphs=5),
    ]
    result = evaluate(documents, size=300, overlap=0, chunkers="P,R,F,lightrag-P", workers=1)
    page = write_html(result, tmp_path / "report.html")
    text = page.read_text(encoding="utf-8")
    assert "<script" not in text and "http://" not in text and "https://" not in text
    assert text.count("<svg") == 2 + len(result.contenders)
    shot = screenshot(page, tmp_path, "report.png")
    counts = Counter(png_pixels(shot))
    for contender in result.contenders:
        drawn = counts[rgb(COLOURS[contender])]
        # A legend swatch alone is 140 pixels; lines, bars and a histogram are thousands.
        assert drawn > 1500, f"{contender}'s plots are missing from the screenshot ({drawn} px)"


def test_histogram_bins_end_at_n_and_add_a_bar_only_for_chunks_over_n() -> None:
    from lightrag_pchunk.eval.report_html import HISTOGRAM_BINS, histogram

    within = histogram([1, 100, 1200, 1200], 1200, "#000000", "x")
    assert within.count("<rect") == HISTOGRAM_BINS
    over = histogram([1, 1201], 1200, "#000000", "x")
    assert over.count("<rect") == HISTOGRAM_BINS + 1
