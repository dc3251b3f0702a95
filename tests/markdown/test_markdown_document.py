"""parse_markdown: headings and their tree, units kept whole, tables, equations, embedded
images, front matter, links kept as text; LightRAG's artefact layout and row format."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from lightrag_pchunk.blockfile.sidecars import read_sidecar
from lightrag_pchunk.chunk.blocks import paragraph_texts
from lightrag_pchunk.markdown.document import parse_markdown
from lightrag_pchunk.model import PREFACE_HEADING

DOC_ID = "doc-0123456789abcdef0123456789abcdef"
HASH = DOC_ID.removeprefix("doc-")
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def parse(tmp_path: Path, text: str, name: str = "doc.md", **kwargs):
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    return parse_markdown(source, tmp_path / "out", doc_id=DOC_ID, **kwargs)


def tree(parsed) -> list[tuple[int, str, tuple[str, ...]]]:
    return [(row.level, row.heading, row.parent_headings) for row in parsed.rows]


def test_atx_and_setext_headings_make_the_tree_and_text_before_them_the_preface(tmp_path):
    parsed = parse(
        tmp_path,
        "Intro text.\n\n# Guide #\n\nBody.\n\nScope\n-----\n\nA.\n\n### Deep\n\nB.\n\n"
        "Annex\n=====\n\nC.\n",
    )
    assert tree(parsed) == [
        (1, PREFACE_HEADING, ()),
        (1, "Guide", ()),
        (2, "Scope", ("Guide",)),
        (3, "Deep", ("Guide", "Scope")),
        (1, "Annex", ()),
    ]
    # The content opens with the heading in ATX form (a setext heading too), then a blank
    # line between units; the closing #s are not part of the heading.
    assert [row.content for row in parsed.rows] == [
        "Intro text.",
        "# Guide\n\nBody.",
        "## Scope\n\nA.",
        "### Deep\n\nB.",
        "# Annex\n\nC.",
    ]
    assert parsed.meta["doc_title"] == "Guide"  # LightRAG: the first level-1 heading
    assert [p["type"] for r in parsed.rows for p in r.positions] == ["heading"] * 5
    assert parsed.rows[1].positions[0]["anchor"] == "Guide"


def test_a_heading_shows_its_text_without_markup_and_its_content_line_keeps_it(tmp_path):
    parsed = parse(tmp_path, "## `run` *object* [v2.1](https://x.org/v2.1) ##\n\nBody.\n")
    (row,) = parsed.rows
    assert row.heading == "run object v2.1"
    assert row.content.split("\n")[0] == "## `run` *object* [v2.1](https://x.org/v2.1)"


def test_an_empty_heading_marks_nothing_and_a_thematic_break_is_dropped(tmp_path):
    parsed = parse(tmp_path, "# A\n\none\n\n#\n\n---\n\ntwo\n")
    assert tree(parsed) == [(1, "A", ())]
    assert parsed.rows[0].content == "# A\n\none\n\ntwo"


def test_a_flat_numbered_outline_takes_its_levels_from_the_numbering(tmp_path):
    text = (
        "## A Study of Tables\n\nAuthors.\n\n## 1 Introduction\n\nx\n\n## 1.1 Scope\n\nx\n\n"
        "## 1.1.1 Terms\n\nx\n\n## 2 Method\n\nx\n\n## References\n\nx\n"
    )
    parsed = parse(tmp_path, text)
    assert tree(parsed) == [
        (1, "A Study of Tables", ()),
        (1, "1 Introduction", ()),
        (2, "1.1 Scope", ("1 Introduction",)),
        (3, "1.1.1 Terms", ("1 Introduction", "1.1 Scope")),
        (1, "2 Method", ()),
        (1, "References", ()),
    ]
    assert parsed.rows[2].content.startswith("## 1.1 Scope\n")
    assert parsed.rows[3].content.startswith("### 1.1.1 Terms\n")


def test_a_title_above_a_flat_numbered_outline_stays_on_top(tmp_path):
    text = "# Report\n\n## 1 Scope\n\nx\n\n## 1.1 Terms\n\nx\n\n## 2 Rules\n\nx\n"
    assert tree(parse(tmp_path, text)) == [
        (1, "Report", ()),
        (2, "1 Scope", ("Report",)),
        (3, "1.1 Terms", ("Report", "1 Scope")),
        (2, "2 Rules", ("Report",)),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "## Intro\n\nx\n\n## Method\n\nx\n\n## Results\n\nx\n",  # flat, not numbered
        "# 1 Scope\n\nx\n\n## 2 Rules\n\nx\n\n# 3 Annex\n\nx\n",  # not flat: as written
    ],
)
def test_headings_keep_their_written_levels_unless_flat_and_numbered(tmp_path, text):
    written = [len(line.split(" ")[0]) for line in text.split("\n") if line[:1] == "#"]
    assert [row.level for row in parse(tmp_path, text).rows] == written


def test_units_stay_whole_and_a_blank_line_separates_them(tmp_path):
    text = (
        "# A\n\nFirst line of a paragraph\nwrapped here.\n\n- item one\n\n- item two\n"
        "  continued\n\n```python\ndef f():\n\n    return 1\n```\n\n    indented code\n\n"
        "    more code\n\n> quoted\n>\n> more quote\n\n[^1]: A footnote.\n"
    )
    (row,) = parse(tmp_path, text).rows
    assert paragraph_texts(row.content) == [
        "# A",
        "First line of a paragraph\nwrapped here.",
        "- item one\n- item two\n  continued",  # a loose list: its inner blank line dropped
        "```python\ndef f():\n    return 1\n```",
        "    indented code\n    more code",
        "> quoted\n>\n> more quote",
        "[^1]: A footnote.",
    ]


def test_links_images_and_reference_definitions_are_kept_as_text(tmp_path):
    text = (
        '# A\n\nSee [the site](https://example.org "t") and ![a chart](img/chart.png).\n\n'
        "Also [ref][r].\n\n[r]: https://example.org/ref\n"
    )
    content = parse(tmp_path, text).rows[0].content
    assert '[the site](https://example.org "t")' in content
    assert "![a chart](img/chart.png)" in content
    assert content.endswith("Also [ref][r].\n\n[r]: https://example.org/ref")


def test_a_pipe_table_is_a_json_tag_with_its_header_first_and_recorded(tmp_path):
    text = (
        "# T\n\nBefore.\n\n| Name | Value \\| unit |\n|---|---:|\n| a | 1 |\n| b |\n"
        "| c | 3 | extra |\n\nAfter.\n"
    )
    parsed = parse(tmp_path, text)
    table_id = f"tb-{HASH}-0001"
    rows = [["Name", "Value | unit", ""], ["a", "1", ""], ["b", "", ""], ["c", "3", "extra"]]
    tag = f'<table id="{table_id}" format="json">{json.dumps(rows, ensure_ascii=False)}</table>'
    assert parsed.rows[0].content == f"# T\n\nBefore.\n\n{tag}\n\nAfter."
    record = read_sidecar(parsed.blocks_path, "tables")[table_id]
    assert record["table_header"] == json.dumps([rows[0]], ensure_ascii=False)
    assert record["dimension"] == [4, 3] and record["format"] == "json"
    assert (record["heading"], record["blockid"]) == ("T", parsed.rows[0].blockid)


def test_display_math_in_a_table_cell_stays_the_cell_text(tmp_path):
    # It once made the parse fail: the formula was taken for a row of the table.
    parsed = parse(tmp_path, "| a | b |\n|---|---|\n| $$x^2$$ | 2 |\n")
    record = next(iter(read_sidecar(parsed.blocks_path, "tables").values()))
    assert json.loads(record["content"]) == [["a", "b"], ["$$x^2$$", "2"]]


def test_table_cells_keep_their_markup_and_a_data_image_in_one_is_a_drawing(tmp_path):
    # A table without "![" is read from its cells' ranges only; one with an image is read
    # event by event, its data: image made a drawing tag inside the cell.
    data = base64.b64encode(PNG).decode()
    plain = parse(tmp_path, "| a | b |\n|---|---|\n| *x* \\| y | [l](u) |\n| c | d | e |\n")
    record = next(iter(read_sidecar(plain.blocks_path, "tables").values()))
    assert json.loads(record["content"]) == [["a", "b", ""], ["*x* | y", "[l](u)", ""],
                                             ["c", "d", "e"]]  # fmt: skip
    text = f"| a | b |\n|---|---|\n| ![logo](data:image/png;base64,{data}) | ![w](u.png) |\n"
    parsed = parse(tmp_path, text, name="images.md")
    record = next(iter(read_sidecar(parsed.blocks_path, "tables").values()))
    cells = json.loads(record["content"])[1]
    assert cells[0].startswith(f'<drawing id="im-{HASH}-0001" format="png" caption="logo"')
    assert cells[1] == "![w](u.png)"


def test_an_html_table_is_an_html_tag_with_its_thead_recorded(tmp_path):
    text = (
        '# T\n\n<div>\n<table class="x">\n  <thead><tr><th>H</th></tr></thead>\n'
        '  <tbody><tr><td>1</td></tr>\n  <tr><td colspan="2">2</td></tr></tbody>\n</table>\n'
        "</div>\n"
    )
    parsed = parse(tmp_path, text)
    table_id = f"tb-{HASH}-0001"
    body = (
        "<thead><tr><th>H</th></tr></thead> <tbody><tr><td>1</td></tr>"
        ' <tr><td colspan="2">2</td></tr></tbody>'
    )
    assert parsed.rows[0].content == (
        f'# T\n\n<div>\n\n<table id="{table_id}" format="html">{body}</table>\n\n</div>'
    )
    record = read_sidecar(parsed.blocks_path, "tables")[table_id]
    assert record["table_header"] == "<thead><tr><th>H</th></tr></thead>"
    assert record["dimension"] == [3, 2] and record["format"] == "html"


def test_an_html_table_loses_what_only_styles_it_and_keeps_its_spans_and_text(tmp_path):
    # A table pasted from a spreadsheet: column widths, each cell's size, class and style.
    text = (
        "# T\n\n<table border=0 width=300>\n <col width=177>\n <colgroup><col span=2></colgroup>\n"
        " <tr height=23 style='height:17.0pt'>\n  <td height=23 class=xl63 width=177\n"
        "  style='height:17.0pt;width:133pt'>Name</td>\n"
        '  <td rowspan="2" class=xl64 x:str align=center>set width = 5 class</td>\n </tr>\n'
        ' <tr>\n  <td colspan=2 nowrap><a href="u.html" class=l>link</a></td>\n </tr>\n</table>\n'
    )
    parsed = parse(tmp_path, text)
    table_id = f"tb-{HASH}-0001"
    body = (
        '<tr> <td>Name</td> <td rowspan="2">set width = 5 class</td> </tr>'
        ' <tr> <td colspan=2><a href="u.html">link</a></td> </tr>'
    )
    assert parsed.rows[0].content == f'# T\n\n<table id="{table_id}" format="html">{body}</table>'
    record = read_sidecar(parsed.blocks_path, "tables")[table_id]
    assert record["content"] == body and record["dimension"] == [2, 2]


def test_display_math_is_an_equation_and_inline_math_stays_text(tmp_path):
    text = "# E\n\nThe mass $m$ and\n$$E = mc^2$$ inline.\n\n$$\n\\frac{a}{b}\n\\cdot 1\n$$\n"
    parsed = parse(tmp_path, text)
    eq_id = f"eq-{HASH}-0001"
    assert parsed.rows[0].content == (
        "# E\n\nThe mass $m$ and\n$$E = mc^2$$ inline.\n\n"
        f'<equation id="{eq_id}" format="latex">\\frac{{a}}{{b}} \\cdot 1</equation>'
    )
    record = read_sidecar(parsed.blocks_path, "equations")[eq_id]
    assert record["content"] == "\\frac{a}{b} \\cdot 1" and record["heading"] == "E"


def test_an_embedded_image_becomes_a_drawing_and_its_base64_never_a_chunk(tmp_path):
    data = base64.b64encode(PNG).decode()
    text = (
        f"# P\n\nLogo: ![the logo](data:image/png;base64,{data}) and again "
        f"![same](data:image/png;base64,{data}).\n\n"
        f"[![badge](https://img.shields.io/b?logo=data:image/svg+xml;base64,{data})](https://x.org)\n"
    )
    parsed = parse(tmp_path, text, name="guide.md")
    content = parsed.rows[0].content
    assert data not in content and data[:16] not in content
    first, second = f"im-{HASH}-0001", f"im-{HASH}-0002"
    assert (
        f'Logo: <drawing id="{first}" format="png" caption="the logo" '
        f'path="guide.blocks.assets/image-{_sha12(PNG)}.png" src="" />'
    ) in content
    assert f'<drawing id="{second}" format="png" caption="same"' in content
    assert "logo=data:image/svg+xml;base64,…)](https://x.org)" in content
    drawings = read_sidecar(parsed.blocks_path, "drawings")
    assert drawings[first]["path"] == drawings[second]["path"]  # one file, two references
    assets = parsed.parsed_dir / "guide.blocks.assets"
    assert [p.read_bytes() for p in assets.iterdir()] == [PNG]
    assert parsed.meta["drawing_file"] and parsed.meta["asset_dir"]


def test_an_embedded_image_that_cannot_be_kept_stays_text_without_its_payload(tmp_path):
    bad = base64.b64encode(b"not an image at all, just bytes").decode()
    parsed = parse(tmp_path, f"# P\n\n![x](data:image/png;base64,{bad})\n")
    assert parsed.rows[0].content == "# P\n\n![x](data:image/png;base64,…)"
    assert parsed.drawings == 0 and any("not an image" in w for w in parsed.warnings)


def test_an_embedded_image_over_its_limit_is_refused_before_it_is_decoded(tmp_path):
    from lightrag_pchunk.markdown.source import MarkdownLimits

    data = base64.b64encode(PNG * 100).decode()
    limits = MarkdownLimits(max_image_bytes=len(PNG) * 10)
    parsed = parse(tmp_path, f"![x](data:image/png;base64,{data})\n", limits=limits)
    assert parsed.drawings == 0 and "NATIVE_MD_IMAGE_MAX_BYTES" in parsed.warnings[0]


def test_front_matter_goes_to_the_meta_row_and_its_text_to_the_first_block(tmp_path):
    text = (
        "---\ntitle: The  Handbook\ntags: [a, b]\ndate: 2024-01-02\nnested: {x: 1}\n---\n\nBody.\n"
    )
    parsed = parse(tmp_path, text)
    assert parsed.meta["doc_title"] == "The Handbook"
    assert parsed.meta["front_matter"] == {
        "title": "The  Handbook",
        "tags": ["a", "b"],
        "date": "2024-01-02",
    }
    # The values are the author's words too (a nested one included): they reach a chunk.
    assert [row.content for row in parsed.rows] == [
        "title: The  Handbook\ntags: [a, b]\ndate: 2024-01-02\nnested: {x: 1}\n\nBody."
    ]


def test_prose_between_two_rules_at_the_start_is_not_lost_to_the_meta_row(tmp_path):
    text = "---\nNote: this draft replaces the March version.\n---\n\n# Report\n\nBody.\n"
    parsed = parse(tmp_path, text)
    assert [row.content for row in parsed.rows] == [
        "Note: this draft replaces the March version.",
        "# Report\n\nBody.",
    ]


@pytest.mark.parametrize(
    ("line", "title"),
    [
        ("# ![](https://example.com/chart.png)", "![](https://example.com/chart.png)"),
        ('## <img src="q.png" alt="Quarterly figures">', "Quarterly figures"),
        ("### [^1]", "[^1]"),
        ("# ![Revenue](rev.png)", "Revenue"),
    ],
    ids=["image", "html-image", "footnote-mark", "alt-text"],
)
def test_a_heading_that_shows_no_text_keeps_its_source_and_is_named_by_it(tmp_path, line, title):
    parsed = parse(tmp_path, f"{line}\n\nBody under it.\n\n[^1]: The note.\n")
    (row,) = parsed.rows
    assert row.heading == title
    assert row.content.startswith(f"{line}\n\nBody under it.")  # alt text and URL kept


def test_front_matter_that_is_not_yaml_is_kept_as_text(tmp_path):
    parsed = parse(tmp_path, "---\nthis: [is not: valid\n---\n\nBody.\n")
    assert "this: [is not: valid" in parsed.rows[0].content
    assert parsed.meta["doc_title"] == "doc"  # the file's stem


def test_the_blocks_file_has_lightrags_layout_and_row_format(tmp_path):
    parsed = parse(tmp_path, "# A\n\ntext\n", name="notes.[native-P].md")
    assert parsed.parsed_dir == tmp_path / "out" / "notes.md.parsed"
    assert parsed.blocks_path.name == "notes.blocks.jsonl"
    lines = [json.loads(line) for line in parsed.blocks_path.read_text().splitlines()]
    assert lines[0]["document_format"] == "md" and lines[0]["parse_engine"] == "native"
    assert list(lines[1]) == [
        "type", "blockid", "format", "content", "heading", "parent_headings", "level",
        "session_type", "table_slice", "positions",
    ]  # fmt: skip
    assert parsed.content == "# A\n\ntext"


def test_an_empty_file_gives_no_rows(tmp_path):
    parsed = parse(tmp_path, "\n\n   \n")
    # No warning: a document without text is empty, which every entrance says itself.
    assert parsed.rows == () and parsed.content == "" and parsed.warnings == ()


def _sha12(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()[:12]


def _prose(words: int, seed: str) -> str:
    """A paragraph of body text of about ``words`` words, ending as a sentence."""
    return " ".join(f"{seed}{i % 7}" for i in range(words)) + "."


def test_a_long_stretch_under_a_heading_gets_the_inferred_outline_below_it(tmp_path):
    # A converted filing marks one heading; its notes are paragraphs, some set in bold.
    body = "\n\n".join(_prose(120, "w") for _ in range(3))
    text = (
        f"# Annual report\n\n{body}\n\n**NOTE 1 - ORGANIZATION**\n\n{body}\n\n"
        f"NOTE 2 - ACCOUNTING POLICIES\n\n{body}\n\n## Signatures\n\n{_prose(20, 's')}\n"
    )
    parsed = parse(tmp_path, text)
    assert tree(parsed) == [
        (1, "Annual report", ()),
        (2, "NOTE 1 - ORGANIZATION", ("Annual report",)),
        (2, "NOTE 2 - ACCOUNTING POLICIES", ("Annual report",)),
        (2, "Signatures", ("Annual report",)),
    ]
    inferred = [row.extra.get("heading_source") for row in parsed.rows]
    assert inferred == [None, "inferred", "inferred", None]
    # The heading line keeps the paragraph's source; the text is all there.
    assert parsed.rows[1].content.startswith("## **NOTE 1 - ORGANIZATION**\n\n")
    assert tree(parse(tmp_path, text, smart_heading="off"))[1:] == [
        (2, "Signatures", ("Annual report",))
    ]


def test_a_bare_title_after_a_labelled_one_nests_under_it_in_a_long_stretch(tmp_path):
    # A filing's notes are numbered ("NOTE 2 - …"), the policies inside a note are bare
    # bold titles: each policy belongs to the note before it.
    body = "\n\n".join(_prose(120, "w") for _ in range(3))
    text = (
        f"# Annual report\n\n**Report of the auditors**\n\n{body}\n\n"
        f"**NOTE 1 - ORGANIZATION**\n\n{body}\n\n"
        f"**NOTE 2 - ACCOUNTING POLICIES**\n\n{body}\n\n**Basis of Presentation**\n\n"
        f"{body}\n\n**Use of Estimates**\n\n{body}\n\n**NOTE 3 - LEASES**\n\n{body}\n\n"
        f"**Appendix**\n\n{body}\n"
    )
    assert tree(parse(tmp_path, text)) == [
        (1, "Annual report", ()),
        (2, "Report of the auditors", ("Annual report",)),  # before any note: no parent
        (2, "NOTE 1 - ORGANIZATION", ("Annual report",)),
        (2, "NOTE 2 - ACCOUNTING POLICIES", ("Annual report",)),
        (3, "Basis of Presentation", ("Annual report", "NOTE 2 - ACCOUNTING POLICIES")),
        (3, "Use of Estimates", ("Annual report", "NOTE 2 - ACCOUNTING POLICIES")),
        (2, "NOTE 3 - LEASES", ("Annual report",)),
        (2, "Appendix", ("Annual report",)),  # back matter: at the top
    ]
    # Bare titles alone keep the one level below their heading.
    bare = text.replace("NOTE 1 - ", "").replace("NOTE 2 - ", "").replace("NOTE 3 - ", "")
    assert {level for level, _, _ in tree(parse(tmp_path, bare))[1:]} == {2}


def test_a_bare_title_in_the_capitals_of_the_labelled_one_before_it_stands_beside_it(tmp_path):
    # The notes are set in capitals, a policy inside one is not: a bare title in capitals
    # after the last note is the next part of the filing, not a part of that note.
    body = "\n\n".join(_prose(120, "w") for _ in range(3))
    text = (
        f"# Annual report\n\n**NOTE 1 - ORGANIZATION**\n\n{body}\n\n"
        f"**Basis of Presentation**\n\n{body}\n\n**NOTE 2 - LEASES**\n\n{body}\n\n"
        f"**SIGNATURES**\n\n{body}\n"
    )
    assert tree(parse(tmp_path, text)) == [
        (1, "Annual report", ()),
        (2, "NOTE 1 - ORGANIZATION", ("Annual report",)),
        (3, "Basis of Presentation", ("Annual report", "NOTE 1 - ORGANIZATION")),
        (2, "NOTE 2 - LEASES", ("Annual report",)),
        (2, "SIGNATURES", ("Annual report",)),
    ]


def test_signatures_after_the_last_labelled_part_stand_beside_it_in_any_case(tmp_path):
    # The signature block closes the filing whatever its case; a bare topic after the last
    # note still belongs to that note.
    body = "\n\n".join(_prose(120, "w") for _ in range(3))
    text = (
        f"# Annual report\n\n**Note 1 - Organization**\n\n{body}\n\n"
        f"**Note 2 - Leases**\n\n{body}\n\n**Operating Leases**\n\n{body}\n\n"
        f"**Signatures**\n\n{body}\n"
    )
    assert tree(parse(tmp_path, text)) == [
        (1, "Annual report", ()),
        (2, "Note 1 - Organization", ("Annual report",)),
        (2, "Note 2 - Leases", ("Annual report",)),
        (3, "Operating Leases", ("Annual report", "Note 2 - Leases")),
        (2, "Signatures", ("Annual report",)),
    ]


def test_a_placeholder_saying_there_is_nothing_heads_nothing(tmp_path):
    # A converter writes "None" for a filing's item left empty, over the next item's text.
    body = "\n\n".join(_prose(150, "w") for _ in range(3))
    text = f"# Report\n\nNone\n\n{body}\n\nOpinion on the Statements\n\n{body}\n"
    assert tree(parse(tmp_path, text))[1:] == [(2, "Opinion on the Statements", ("Report",))]


def test_a_marked_heading_is_never_below_an_inferred_one(tmp_path):
    body = "\n\n".join(_prose(150, "w") for _ in range(3))
    text = (
        f"# Guide\n\n{body}\n\n**Background of the plan**\n\n{body}\n\n"
        f"### Details\n\n{_prose(20, 'd')}\n\n# Annex\n\n{_prose(20, 'a')}\n"
    )
    assert tree(parse(tmp_path, text)) == [
        (1, "Guide", ()),
        (2, "Background of the plan", ("Guide",)),
        (3, "Details", ("Guide",)),
        (1, "Annex", ()),
    ]


def test_a_plain_short_paragraph_heads_a_part_only_where_no_outline_is_marked(tmp_path):
    body = "\n\n".join(_prose(150, "w") for _ in range(3))
    stretch = f"{body}\n\nOpinion on the Financial Statements\n\n{body}"
    alone = tree(parse(tmp_path, f"# Report\n\n{stretch}\n"))
    assert alone[1] == (2, "Opinion on the Financial Statements", ("Report",))
    # An author who marks headings marks them: a sentence's start left on a line of its
    # own ("During pre-training, we train") is no heading there.
    marked = f"# Report\n\n## Introduction\n\n{stretch}\n\n## Method\n\n{_prose(20, 'm')}\n"
    assert [row.heading for row in parse(tmp_path, marked).rows] == [
        "Report",
        "Introduction",
        "Method",
    ]


def test_a_plain_line_under_a_heading_over_all_its_text_is_no_heading(tmp_path):
    # A byline or a date right under the file's one heading (or opening a file without
    # one), over a long text nothing else parts: no title of it.
    body = "\n\n".join(_prose(150, "w") for _ in range(7))
    for opening in ("# My trip to the coast\n\nBy Jane Doe", "March 2024"):
        parsed = parse(tmp_path, f"{opening}\n\n{body}\n")
        assert [row.extra.get("heading_source") for row in parsed.rows] == [None]
    # Over the first of the parts the stretch's other titles open, it heads that part.
    stretch = f"Abstract\n\n{body}\n\nMethods of the survey\n\n{body}"
    assert tree(parse(tmp_path, f"# Report\n\n{stretch}\n"))[1:] == [
        (2, "Abstract", ("Report",)),
        (2, "Methods of the survey", ("Report",)),
    ]


def test_a_box_repeated_at_three_places_is_no_passage_written_twice(tmp_path):
    # A service manual repeats its warning box, a title over the same two paragraphs: the
    # title labels the box, it heads none of the text after it.
    box = (
        "Warning\n\nDisconnect the power supply before you open the housing of the unit.\n\n"
        "Failure to do so may cause serious injury or damage to the equipment."
    )
    parts = ["\n\n".join(_prose(150, seed) for _ in range(2)) for seed in "abcd"]
    text = f"# Service manual\n\n{parts[0]}\n\n" + "".join(f"{box}\n\n{p}\n\n" for p in parts[1:])
    assert tree(parse(tmp_path, text)) == [(1, "Service manual", ())]


def test_a_heading_attribute_block_is_no_part_of_its_title(tmp_path):
    parsed = parse(
        tmp_path,
        "# Docker image {#docker}\n\nA.\n\n## API ## {#api .wide}\n\nB.\n\n"
        "## The set {a, b}\n\nC.\n\n## Preface {-}\n\nD.\n\n## Setup {: #setup}\n\nE.\n\n"
        "## Syntax `{#id}`\n\nF.\n",
    )
    assert tree(parsed) == [
        (1, "Docker image", ()),
        (2, "API", ("Docker image",)),
        (2, "The set {a, b}", ("Docker image",)),
        (2, "Preface", ("Docker image",)),  # Pandoc's unnumbered heading
        (2, "Setup", ("Docker image",)),  # kramdown's attribute list
        (2, "Syntax {#id}", ("Docker image",)),  # a code span shows its text
    ]
    # The content keeps the heading line as written.
    assert parsed.rows[0].content == "# Docker image {#docker}\n\nA."


def test_a_heading_of_only_an_attribute_block_is_titled_by_its_id(tmp_path):
    # The id is the name the author gave the section; a block without one stays as written
    # (an empty title would drop the heading).
    parsed = parse(
        tmp_path,
        "# Guide\n\nA.\n\n## {#installation}\n\nB.\n\n## {: .wide #setup-steps}\n\nC.\n\n"
        "## {.wide}\n\nD.\n",
    )
    assert tree(parsed) == [
        (1, "Guide", ()),
        (2, "installation", ("Guide",)),
        (2, "setup-steps", ("Guide",)),
        (2, "{.wide}", ("Guide",)),
    ]
    assert parsed.rows[1].content == "## {#installation}\n\nB."


def test_a_list_of_links_to_the_documents_headings_is_a_table_of_contents(tmp_path):
    # A contents written as a list of links to the document's own anchors is a block of
    # its own (as a Word contents field is), the text after it going on under its heading;
    # under a heading that names it, the heading's block is the contents. A list of three
    # links to other pages is text.
    contents = "- [Summary](#summary)\n- [Motivation](#motivation)\n  - [Goals](#goals)"
    links = "- [Home](https://x.org)\n- [Guide](guide.md)\n- [FAQ](faq.md#top)"
    parsed = parse(
        tmp_path,
        f"# Proposal\n\nBy the team.\n\n{contents}\n\nRead it all.\n\n## Summary\n\n{links}\n\n"
        f"## Contents\n\n{contents}\n",
    )
    assert [(row.heading, row.extra.get("session_type")) for row in parsed.rows] == [
        ("Proposal", None),
        ("Table of Contents", "toc"),
        ("Proposal", None),
        ("Summary", None),
        ("Contents", "toc"),
    ]
    assert [row.content for row in parsed.rows[:3]] == [
        "# Proposal\n\nBy the team.",
        contents,
        "Read it all.",
    ]
    assert parsed.rows[4].content == f"## Contents\n\n{contents}"
