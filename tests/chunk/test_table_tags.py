"""Parsing and re-wrapping table tags: attributes, formats, JSON rows, HTML rows."""

from __future__ import annotations

import json
import logging

import pytest

from lightrag_pchunk.chunk.html_rows import html_rows
from lightrag_pchunk.chunk.table_rows import table_rows
from lightrag_pchunk.chunk.table_tags import (
    dump_json_row,
    join_json_rows,
    json_header_rows,
    json_rows,
    parse_table,
)

HTML_BODY = (
    "<caption>Prices</caption>"
    "<thead><tr><th>Name</th><th>Price</th></tr></thead>"
    '<tbody class="b"><tr><td>apple</td><td>1</td></tr>'
    "<tr><td>nested<table><tr><td>inner</td></tr><tr><td>x</td></tr></table></td><td>2</td></tr>"
    "<tr><td>pear</td><td>3</td></tr></tbody>"
    "<tfoot><tr><td>total</td><td>6</td></tr></tfoot>"
)


class TestParseTable:
    def test_attributes_id_and_explicit_format(self) -> None:
        text = '<table id="tb-a&amp;b-0001" format="json">[["a"], ["b"]]</table>'
        tag = parse_table(text)
        assert tag is not None
        assert tag.attrs == 'id="tb-a&amp;b-0001" format="json"'
        assert tag.table_id == "tb-a&b-0001"
        assert tag.format == "json"
        assert tag.body == '[["a"], ["b"]]'
        assert tag.wrap(tag.body) == text

    def test_explicit_html_and_unknown_formats(self) -> None:
        assert parse_table('<table format="html"><tr></tr></table>').format == "html"
        assert parse_table('<table format="HTML">[1]</table>').format == "html"
        # An explicit format that is neither json nor html is unknown, even if the body
        # looks like JSON.
        assert parse_table('<table format="csv">[1, 2]</table>').format is None

    @pytest.mark.parametrize(
        ("body", "expected"),
        [
            ('[["a"], ["b"]]', "json"),
            ('  [["a"]]', "json"),
            ("<tr><td>a</td></tr>", "html"),
            ("<THEAD><tr><td>a</td></tr></THEAD>", "html"),
            ("<tbody><tr><td>a</td></tr></tbody>", "html"),
            ("<tfoot><tr><td>a</td></tr></tfoot>", "html"),
            ("a,b\\nc,d", None),
            ("<trumpet>", None),
        ],
    )
    def test_sniffs_the_body_without_a_format_attribute(self, body, expected) -> None:
        tag = parse_table(f'<table id="t">{body}</table>')
        assert tag is not None and tag.format == expected

    def test_bare_table_tag_rewraps_without_a_stray_space(self) -> None:
        tag = parse_table('<table>[["a"], ["b"]]</table>')
        assert tag is not None and tag.attrs == "" and tag.table_id is None
        assert tag.wrap("[]") == "<table>[]</table>"

    @pytest.mark.parametrize(
        "text",
        ["plain text", "<table id='t'>unclosed", "<tablex>[]</table>", '<table id="t" />'],
    )
    def test_not_a_table(self, text) -> None:
        assert parse_table(text) is None

    def test_nested_table_stays_in_the_body(self) -> None:
        tag = parse_table(f'<table id="t" format="html">{HTML_BODY}</table>')
        assert tag is not None and tag.body == HTML_BODY


class TestJsonRows:
    def test_rows_and_serialisation_match_json_dumps(self) -> None:
        rows = [["编号", "名称"], ["1", 'a "quoted" cell'], ["2", ["nested", 3]]]
        body = json.dumps(rows, ensure_ascii=False)
        assert json_rows(body) == rows
        assert join_json_rows([dump_json_row(r) for r in rows]) == body
        assert "编号" in dump_json_row(rows[0])  # ensure_ascii=False, as LightRAG writes

    @pytest.mark.parametrize("body", ['{"a": 1}', '[["a"], ["b"]', "", "null"])
    def test_not_a_list(self, body) -> None:
        assert json_rows(body) is None

    def test_header_rows(self) -> None:
        assert json_header_rows('[["ID", "Name"]]') == [["ID", "Name"]]
        assert json_header_rows('["ID", "Name"]') == [["ID", "Name"]]
        assert json_header_rows('[["a"], "b"]') is None
        assert json_header_rows("<thead></thead>") is None


class TestHtmlRows:
    def test_rows_keep_their_wrappers_and_skip_nested_tables(self) -> None:
        table = html_rows(HTML_BODY)
        names = [table.groups[r.group].name for r in table.rows]
        assert names == ["thead", "tbody", "tbody", "tbody", "tfoot"]
        assert table.rows[0].lead == "<caption>Prices</caption>"
        assert "<td>inner</td>" in table.rows[2].text
        assert table.rows[2].text.endswith("<td>2</td></tr>")
        assert table.groups[1].open_tag == '<tbody class="b">'

    def test_rendering_every_row_reproduces_the_body(self) -> None:
        table = html_rows(HTML_BODY)
        assert table.render(table.rows, with_tail=True) == HTML_BODY

    def test_a_subset_reopens_and_closes_its_wrappers(self) -> None:
        table = html_rows(HTML_BODY)
        assert table.render([table.rows[0], table.rows[3], table.rows[4]], with_tail=True) == (
            "<caption>Prices</caption><thead><tr><th>Name</th><th>Price</th></tr></thead>"
            '<tbody class="b"><tr><td>pear</td><td>3</td></tr></tbody>'
            "<tfoot><tr><td>total</td><td>6</td></tr></tfoot>"
        )

    def test_bare_rows_implied_end_tags_and_tail(self) -> None:
        body = "<tr><td>a<tr><td>b</td></tr><tbody></tbody>trailing"
        table = html_rows(body)
        assert [r.text for r in table.rows] == ["<tr><td>a", "<tr><td>b</td></tr>"]
        assert all(r.group is None for r in table.rows)
        # An empty wrapper and the text after the rows are kept, not dropped.
        assert table.tail == "<tbody></tbody>trailing"
        assert table.render(table.rows, with_tail=True) == body

    def test_unclosed_wrapper_is_closed_on_render(self) -> None:
        table = html_rows("<tbody><tr><td>a</td></tr><tr><td>b</td></tr>")
        assert len(table.rows) == 2
        assert table.render(table.rows[1:], with_tail=True) == "<tbody><tr><td>b</td></tr></tbody>"


class TestTableRows:
    def test_json_costs_add_up_exactly_under_the_char_tokenizer(self, chars) -> None:
        rows = [["H", "I"], ["1", "aa"], ["2", "bbbb"], ["3", "c"]]
        tag = parse_table(f'<table id="t" format="json">{json.dumps(rows)}</table>')
        model = table_rows(tag, chars)
        assert model is not None and model.n == 4 and model.header_count == 1
        for start, end in [(0, 4), (1, 3), (2, 3)]:
            text = model.render(start, end, None)
            assert len(text) == model.fixed + model.prefix[end] - model.prefix[start]
            with_header = model.render(start, end, model.header)
            assert len(with_header) == len(text) + model.header_cost
            assert json.loads(parse_table(with_header).body) == [rows[0], *rows[start:end]]

    def test_declared_json_header_rows(self, chars) -> None:
        rows = [["H1", "H2"], ["h1", "h2"], ["1", "a"], ["2", "b"]]
        tag = parse_table(f'<table id="t" format="json">{json.dumps(rows)}</table>')
        assert table_rows(tag, chars, '[["H1", "H2"], ["h1", "h2"]]').header_count == 2
        # A declared header the rows do not start with: the first row is the header.
        assert table_rows(tag, chars, '[["X", "Y"]]').header_count == 1

    def test_mismatched_header_is_ignored_with_a_warning(self, chars, pchunk_logs) -> None:
        rows = [["H1", "H2"], ["1", "a"], ["2", "b"]]
        tag = parse_table(f'<table id="tb-9" format="json">{json.dumps(rows)}</table>')
        with pchunk_logs.at_level(logging.WARNING, logger="lightrag.pchunk"):
            model = table_rows(tag, chars, "<thead><tr><th>H1</th></tr></thead>")
        assert model is not None and model.header_count == 1
        assert "tb-9" in pchunk_logs.text and "header ignored" in pchunk_logs.text

        html_tag = parse_table(f'<table id="tb-8" format="html">{HTML_BODY}</table>')
        pchunk_logs.clear()
        with pchunk_logs.at_level(logging.WARNING, logger="lightrag.pchunk"):
            model = table_rows(html_tag, chars, '[["Name", "Price"]]')
        assert model is not None and model.header_count == 1  # the <thead> row
        assert "tb-8" in pchunk_logs.text and "header ignored" in pchunk_logs.text

    def test_html_header_from_sidecar_or_thead(self, chars) -> None:
        body = (
            "<thead><tr><th>A</th></tr><tr><th>B</th></tr></thead>"
            "<tbody><tr><td>1</td></tr><tr><td>2</td></tr></tbody>"
        )
        tag = parse_table(f'<table id="t" format="html">{body}</table>')
        assert table_rows(tag, chars).header_count == 2  # the whole <thead>
        declared = "<thead>\n<tr><th>A</th></tr>\n</thead>"
        assert table_rows(tag, chars, declared).header_count == 1

    @pytest.mark.parametrize(
        "text",
        [
            '<table id="t" format="csv">a,b</table>',
            '<table id="t" format="json">[["only one row"]]</table>',
            '<table id="t" format="json">{"a": [1, 2]}</table>',
            '<table id="t" format="html"><tr><td>one row</td></tr></table>',
        ],
    )
    def test_unsliceable_tables(self, chars, text) -> None:
        assert table_rows(parse_table(text), chars) is None
