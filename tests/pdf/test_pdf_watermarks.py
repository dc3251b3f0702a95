"""Text drawn at a slant across the page: a watermark ("DRAFT" set large at 45 degrees, at
one place on every page) is page furniture; slanted text printed once (a stamp) is the
page's text, never joined into the upright lines it crosses."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import LOREM, Page, Text, parse_pages, wrap

WORDS = ["ammonia", "brine", "freezer", "valve"]


def _page(word: str, slanted: list[Text]) -> Page:
    """A page of prose whose lines the slanted text crosses (drawn first, under them)."""
    body = wrap(f"Body text about the {word}. {LOREM} {LOREM} {LOREM}", 72, 700, 460)
    options = [Text(72, 450, f"A Option on the {word}"), Text(300, 450, "B Second option")]
    return Page([*slanted, *body, *options])


def test_a_watermark_repeated_at_one_place_on_every_page_is_dropped(tmp_path: Path) -> None:
    for angle in (-45, 45, 55):
        mark = Text(190, 620 if angle < 0 else 300, "DRAFT", 90.0, angle=angle)
        pages = [_page(word, [mark]) for word in WORDS]
        (tmp_path / str(angle)).mkdir()
        result = parse_pages(tmp_path / str(angle), pages)
        assert "DRAFT" not in result.content, angle
        for word in WORDS:
            assert f"Body text about the {word}." in result.content
            assert f"A Option on the {word}" in result.content
        assert {row.heading for row in result.rows} <= {row.heading for row in result.rows[:1]}


def test_slanted_text_printed_once_is_kept_on_its_own(tmp_path: Path) -> None:
    stamp = Text(190, 620, "APPROVED", 60.0, angle=-45)
    pages = [_page(word, [stamp] if word == "brine" else []) for word in WORDS]
    result = parse_pages(tmp_path, pages)
    assert "APPROVED" in result.content
    # Never read into the upright lines it crosses.
    assert "A Option on the brine B Second option" in result.content.replace("\n", " ")
    assert "APPROVED B" not in result.content and "brine APPROVED" not in result.content


def test_a_synthetic_italic_leaning_on_a_level_baseline_stays_in_its_line(
    tmp_path: Path,
) -> None:
    # A producer's italic for a font without one skews the glyphs 15 degrees or more
    # (PDFium's angle of such a glyph reads the skew); the baseline is level.
    words = ["Italic", "words", "lean"]
    items = [Text(72, 420, "Plain text with", 11)]
    items += [Text(153 + 40 * k, 420, word, 11, skew=18) for k, word in enumerate(words)]
    result = parse_pages(tmp_path, [_page("valve", items)])
    assert "Plain text with Italic words lean" in result.content


def test_slanted_column_titles_repeated_on_every_page_are_kept(tmp_path: Path) -> None:
    # A table printed on every page with its column titles set at a slant over its
    # columns, at the text's size: no watermark (drawn large across the page), text of
    # the page on each of them.
    titles = ["Ammonia", "Brine", "Freezer"]
    pages = []
    for word in WORDS:
        items = [Text(200 + 80 * k, 600, title, 10, angle=45) for k, title in enumerate(titles)]
        items += wrap(f"Body text about the {word}. {LOREM}", 72, 680, 460)
        for row in range(4):
            items.append(Text(72, 560 - 16 * row, f"Plant {word} {row}", 10))
            items += [Text(205 + 80 * k, 560 - 16 * row, f"{row + k}", 10) for k in range(3)]
        pages.append(Page(items))
    result = parse_pages(tmp_path, pages)
    for title in titles:
        assert result.content.count(title) == len(WORDS), title
