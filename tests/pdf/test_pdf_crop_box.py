"""Text a page prints outside its crop box is shown by no viewer: a proof's slug over a
sheet taller than the page ("Page 13 of 48  Fileid: …"), a browser's print header set off
the page, the other half of a spread two pages share. It is no text of the page's; the
text inside the box is read whole."""

from __future__ import annotations

from pathlib import Path

from pdf_builders import Page, Text, parse_pages

_BODY = [
    "Simplified method. You must use the Simplified Method if your annuity starting",
    "date was after July 1, 1986, and you used this method last year to figure the",
    "taxable part of the payments you received.",
]


def test_text_outside_the_crop_box_is_not_read(tmp_path: Path) -> None:
    items = [Text(60, 900, "Page 13 of 48   Fileid: i1040nr/2007/A/XML/Cycle03", 9)]
    items.append(Text(60, 880, "The type and rule above prints on all proofs", 9))
    items += [Text(60, 700 - 12 * i, line, 10) for i, line in enumerate(_BODY)]
    result = parse_pages(tmp_path, [Page(items, height=1008, crop=(0, 0, 612, 792))])
    text = " ".join(row.content for row in result.rows)
    assert "Fileid" not in text and "type and rule" not in text
    assert " ".join(_BODY) in text


def test_a_spread_shared_by_two_pages_is_read_once_on_each(tmp_path: Path) -> None:
    # Two pages draw one spread twice, each showing its half through its crop box.
    left = "The left page of the spread tells the story of the company's first year."
    right = "The right page of the spread lists the figures of that year in full."
    items = [Text(60, 700, left, 10), Text(672, 700, right, 10)]
    pages = [
        Page(items, width=1224, crop=(0, 0, 612, 792)),
        Page(items, width=1224, crop=(612, 0, 1224, 792)),
    ]
    result = parse_pages(tmp_path, pages)
    text = " ".join(row.content for row in result.rows)
    assert text.count(left) == 1 and text.count(right) == 1
