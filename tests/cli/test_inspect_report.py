"""The ``inspect`` report as a user opens it: an outline linking every section to its chunks,
a search, the chunks drawn as they come into view, a page that stays light however long the
document (its texts in parts beside it), right-to-left text shown right to left, pictures as
placeholders, pages and broken breadcrumb promises on their chunks, no file named that the
user does not have, and the document's text never taken for markup. Opened in Debian's
chromium where it is installed."""

from __future__ import annotations

import json
import random
import re
import shutil
from collections import Counter
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

from lightrag_pchunk.blockfile.jsonl import write_blocks
from lightrag_pchunk.chunk.breadcrumbs import check_breadcrumbs
from lightrag_pchunk.cli.checks import pages_label
from lightrag_pchunk.cli.demo_cmd import example_path
from lightrag_pchunk.cli.inspection import inspect_document
from lightrag_pchunk.cli.main import main
from lightrag_pchunk.cli.report import (
    PART_CHARACTERS,
    outline_index,
    parts_folder,
    report_files,
    write_report,
)
from lightrag_pchunk.cli.report_pieces import content_pieces, plain_text
from lightrag_pchunk.cli.report_svg import ROLE_COLOURS
from lightrag_pchunk.integration.request import COMMAND, Flags, Request
from lightrag_pchunk.model import BlockRow, TableRole

from browser import dom_after_scripts, png_pixels, rgb, screenshot

HEBREW = "שלום עולם: המשאבה נבדקת בכל משמרת"
ARABIC = "يجب فحص المضخة في كل وردية"


@pytest.fixture(autouse=True)
def _clean_env(clean_p_env):
    yield


def inspect_blocks(path: Path, counter, size: int = 2000, overlap: int = 100):
    request = Request(COMMAND.format("inspect"), blocks=path, flags=Flags(size, overlap))
    return inspect_document(request, counter)[1]


def rendered(inspection, title: str) -> str:
    """The report's page of a short document, its one part inside it."""
    report = report_files(inspection, Path("x.inspect.html"), title=title)
    assert report.parts_folder is None
    return report.texts[report.page]


def bbox(page: int, start: int, end: int) -> dict:
    return {"type": "bbox", "anchor": page, "charspan": [start, end]}


def sample_rows() -> list[BlockRow]:
    """A short document with what the report draws: headings, a table, right-to-left text,
    a picture and an equation, pages, and text that looks like markup."""
    scope = (
        "# 1 Scope\nThis standard covers the pump room <b>and</b> its <script>alert('x')</script>."
    )
    rtl = f"## 1.1 {HEBREW}\n{HEBREW}.\n{ARABIC}."
    picture = (
        '# 2 Layout\nThe room as built: <drawing id="im-1" format="png" caption="Pump room plan"'
        ' path="/tmp/somewhere/doc.blocks.assets/plan.png" src="" /> and the flow rate'
        ' <equation format="latex">Q = v \\cdot A</equation> at the inlet.'
    )
    table = (
        '# 3 Readings\n<table id="t1" format="json">[["Pump", "Pressure"], ["P-1", "4 bar"],'
        ' ["<img src=x>", "a&b"]]</table>'
    )
    contents = [scope, rtl, picture, table]
    headings = [("1 Scope", (), 1), (f"1.1 {HEBREW}", ("1 Scope",), 2), ("2 Layout", (), 1),
                ("3 Readings", (), 1)]  # fmt: skip
    rows = []
    pairs = zip(contents, headings, strict=True)
    for index, (content, (heading, parents, level)) in enumerate(pairs, 1):
        positions = (bbox(index, 0, len(content)),)  # one page each, as a PDF's rows
        rows.append(BlockRow(content, heading, parents, level, f"b{index}", positions))
    return rows


def handbook(path: Path, chapters: int, sections: int, topics: int, words: int = 100) -> Path:
    """A long generated document: chapters of sections of topics of three paragraphs."""
    rng = random.Random(3)
    vocabulary = "pump valve seal pressure store door alarm record shift operator rail".split()

    def paragraph() -> str:
        return " ".join(rng.choice(vocabulary) for _ in range(words)).capitalize() + "."

    rows: list[BlockRow] = []
    for c in range(1, chapters + 1):
        chapter = f"{c} Chapter {c}"
        rows.append(BlockRow(f"# {chapter}\n{paragraph()}", chapter, (), 1, f"b{len(rows)}"))
        for s in range(1, sections + 1):
            section = f"{c}.{s} Section {c}.{s}"
            rows.append(
                BlockRow(f"## {section}\n{paragraph()}", section, (chapter,), 2, f"b{len(rows)}")
            )
            for t in range(1, topics + 1):
                topic = f"{c}.{s}.{t} Topic {c}.{s}.{t}"
                text = "\n".join([f"### {topic}", *(paragraph() for _ in range(3))])
                rows.append(BlockRow(text, topic, (chapter, section), 3, f"b{len(rows)}"))
    return write_blocks(path, {"doc_id": "doc-handbook"}, rows)


class Elements(HTMLParser):
    """The elements of a page, the text of its scripts, and whether its tags nest."""

    VOID = frozenset({"meta", "br", "hr", "img", "input", "link", "col", "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: Counter[str] = Counter()
        self.scripts: list[str] = []
        self.open: list[str] = []
        self.errors: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs) -> None:
        self.tags[tag] += 1
        if tag not in self.VOID:
            self.open.append(tag)
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_startendtag(self, tag, attrs) -> None:
        self.tags[tag] += 1  # <line … />, <rect … />: SVG's self-closed elements

    def handle_endtag(self, tag) -> None:
        self._in_script = False
        if not self.open or self.open[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
        else:
            self.open.pop()

    def handle_data(self, data) -> None:
        if self._in_script:
            self.scripts[-1] += data


def page_index(page: str) -> dict:
    elements = Elements()
    elements.feed(page)
    return json.loads(elements.scripts[0])


# --- what the page holds -----------------------------------------------------------------


def test_pieces_draw_pictures_and_equations_as_placeholders_and_tables_as_cells() -> None:
    pieces = content_pieces("\n".join(row.content for row in sample_rows()))
    assert pieces[0] == ["h", 1, ["1 Scope"]]
    layout = next(p for p in pieces if p[0] == "p" and "as built" in str(p))
    assert layout[1][1] == ["d", "png", "plan.png", "Pump room plan"]  # the file's name only
    assert layout[1][3] == ["e", "Q = v \\cdot A"]
    table = next(p for p in pieces if p[0] == "t")
    assert table[1] == [["Pump", "Pressure"], ["P-1", "4 bar"], ["<img src=x>", "a&b"]]
    html_table = content_pieces(
        '<table format="html"><tr><th colspan="2">Pump</th></tr><tr><td>P-1</td><td>4 bar</td>'
        "</tr></table>"
    )
    assert html_table == [["t", [["Pump", "Pump"], ["P-1", "4 bar"]]]]
    assert content_pieces('<table format="csv">a,b</table>') == [
        ["x", '<table format="csv">a,b</table>']
    ]
    assert "<drawing" not in plain_text(pieces) and "Pump room plan" in plain_text(pieces)


def test_the_page_holds_the_document_as_data_never_as_markup(tmp_path, cl100k) -> None:
    inspection = inspect_blocks(write_blocks(tmp_path / "x.blocks.jsonl", {}, sample_rows()),
                                cl100k)  # fmt: skip
    page = rendered(inspection, "<script>title</script>")
    elements = Elements()
    elements.feed(page)
    elements.close()
    assert elements.errors == [] and elements.open == []
    # Only the page's own elements: the document's <b>, <img>, <script> are text in data.
    assert elements.tags["b"] == 0 and elements.tags["img"] == 0
    assert elements.tags["script"] == 3  # the index, the page's script, the one part
    assert "<script>title" not in page and "&lt;script&gt;title" in page
    index = json.loads(elements.scripts[0])
    assert [c[0] for c in index["chunks"]] == [c.order for c in inspection.chunks]
    part = elements.scripts[2]
    assert part.startswith("lightragPchunkPart(1,") and "<\\/script>" in part
    assert "</script" not in part.replace("<\\/script", "")
    assert "http" not in page.replace("http://www.w3.org/2000/svg", "")


def test_pages_and_broken_breadcrumb_promises_are_on_their_chunks(tmp_path, cl100k) -> None:
    rows = sample_rows()
    inspection = inspect_blocks(write_blocks(tmp_path / "x.blocks.jsonl", {}, rows), cl100k, 60, 0)
    chunks = page_index(rendered(inspection, "x"))["chunks"]
    labels = [pages_label([span.page for span in c.pages]) for c in inspection.chunks]
    assert [c[4] for c in chunks] == labels and labels[0].startswith("p")
    assert all(c[6] == [] for c in chunks)  # the document's own chunks keep the contract
    # A chunk claiming a section it does not hold breaks the "path" promise, named on it.
    lying = replace(inspection.chunks[0], heading="9 Nowhere", parent_headings=())
    inspection.chunks[0] = lying
    inspection.violations = check_breadcrumbs(inspection.rows, inspection.chunks)
    first = page_index(rendered(inspection, "x"))["chunks"][0]
    assert first[6] and first[6][0].startswith("path: ")


def test_the_outline_links_every_section_to_the_chunks_that_hold_it(tmp_path, cl100k) -> None:
    rows = sample_rows()
    inspection = inspect_blocks(write_blocks(tmp_path / "x.blocks.jsonl", {}, rows), cl100k, 60, 0)
    entries = outline_index(inspection.rows, inspection.chunks)
    assert [(e[0], e[1]) for e in entries] == [(r.level, r.heading) for r in rows]
    for (_level, heading, first, last), row in zip(entries, rows, strict=True):
        holders = [c.order for c in inspection.chunks if row.blockid in c.block_ids]
        assert (first, last) == (min(holders), max(holders)), heading
    # A section no chunk holds (a setting dropped it) is listed, not linked.
    assert outline_index(rows, inspection.chunks[:1])[-1][2:] == [-1, -1]


def test_a_long_document_keeps_its_page_light_and_its_texts_in_parts(tmp_path, cl100k) -> None:
    # About 230 printed pages of text (86,000 words), at N=2000.
    blocks = handbook(tmp_path / "handbook.blocks.jsonl", chapters=6, sections=8, topics=6)
    inspection = inspect_blocks(blocks, cl100k)
    text = sum(len(c.content) for c in inspection.chunks)
    page_path = tmp_path / "handbook.inspect.html"
    report = write_report(inspection, page_path, title="handbook")
    page = page_path.read_text(encoding="utf-8")
    parts = sorted(parts_folder(page_path).glob("part-*.js"))
    assert report.parts_folder == parts_folder(page_path) and len(parts) >= 3
    # The page grows with the chunks and sections, not with their text.
    assert len(page) < 40_000 + 150 * len(inspection.chunks) + 100 * len(inspection.rows)
    assert len(page) < text / 8
    body = inspection.chunks[5].content.split("\n")[1]
    assert body not in page
    # Every chunk's text is in exactly one part, each part about PART_CHARACTERS.
    found = Counter()
    for part in parts:
        script = part.read_text(encoding="utf-8")
        assert len(script) < PART_CHARACTERS + max(len(c.content) for c in inspection.chunks) * 2
        payload = json.loads(script[script.index(",") + 1 : script.rindex(")")])
        found.update(order for order, _pieces in payload)
    assert found == Counter(c.order for c in inspection.chunks)
    # Written again as a short document, the parts of the long one go.
    short = inspect_blocks(write_blocks(tmp_path / "s.blocks.jsonl", {}, sample_rows()), cl100k)
    assert write_report(short, page_path, title="short").parts_folder is None
    assert not parts_folder(page_path).exists()


def test_the_report_names_no_file_the_user_does_not_have(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    source = shutil.copy(example_path(), tmp_path / "standard.docx")
    assert main(["inspect", str(source)]) == 0
    page = (tmp_path / "standard.inspect.html").read_text(encoding="utf-8")
    assert "lightrag-pchunk-" not in page and "/tmp" not in page  # the temporary parse
    assert "§" not in page  # the strategy's spec: not a document the user has
    assert "Parsed from standard.docx" in page
    hrefs = re.findall(r'href="([^"]*)"', page)
    assert hrefs == []  # links are the page's own, made by its script


# --- in a browser --------------------------------------------------------------------------


def drawn(dom: str) -> str:
    """What the page shows: its sidebar and main column, not the text of its scripts."""
    return dom[dom.index('<nav id="side"') : dom.index("</main>")]


def test_the_report_in_a_browser(tmp_path, cl100k) -> None:
    inspection = inspect_blocks(write_blocks(tmp_path / "x.blocks.jsonl", {}, sample_rows()),
                                cl100k, 60, 0)  # fmt: skip
    page = write_report(inspection, tmp_path / "x.inspect.html", title="x").page
    dom = drawn(dom_after_scripts(page, tmp_path))
    assert dom.count('<section class="chunk"') == len(inspection.chunks)
    assert 'class="drawing"' in dom and "<drawing" not in dom and "&lt;drawing" not in dom
    assert "Pump room plan" in dom and 'class="eq"' in dom
    assert f'<p dir="auto">{HEBREW}.</p>' in dom and f'<p dir="auto">{ARABIC}.</p>' in dom
    assert "<b>" not in dom and "<img" not in dom  # shown as text: &lt;b&gt;
    assert 'href="#chunk-1"' in dom  # the outline
    found = drawn(dom_after_scripts(Path(f"{page}#search=pressure"), tmp_path))
    assert "1 chunk" in found and "<mark" in found
    shot = png_pixels(screenshot(page, tmp_path))
    counts = Counter(shot)
    # The chunks' frames in their table role's colour, the sidebar and the page's own.
    assert counts[rgb(ROLE_COLOURS[TableRole.NONE])] > 500
    assert counts[(255, 255, 255)] > 100_000


def test_a_long_report_loads_its_parts_in_a_browser(tmp_path, cl100k) -> None:
    blocks = handbook(tmp_path / "handbook.blocks.jsonl", chapters=6, sections=8, topics=6)
    inspection = inspect_blocks(blocks, cl100k, 500, 50)
    report = write_report(inspection, tmp_path / "handbook.inspect.html", title="handbook")
    assert report.parts_folder is not None
    dom = drawn(dom_after_scripts(report.page, tmp_path))
    first = inspection.chunks[0].content.split("\n")[1][:60]
    assert first in dom  # drawn from part 1, loaded beside the page
    everywhere = drawn(dom_after_scripts(Path(f"{report.page}#search=topic 6.8.6"), tmp_path))
    assert re.search(r'id="found"[^>]*>\d+ chunks?<', everywhere), "the search read every part"
