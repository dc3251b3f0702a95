"""Questions made from a document's own text (``eval/questions.py``)."""

from __future__ import annotations

import json

import pytest

from lightrag_pchunk.eval.documents import ParsedText
from lightrag_pchunk.eval.questions import (
    PARAGRAPH,
    SENTENCE,
    TABLE,
    auto_questions,
    normalize,
    split_sentences,
)
from lightrag_pchunk.eval.user_questions import load_questions, place_user_questions
from lightrag_pchunk.model import BlockRow

TABLE_LINE = (
    '<table id="tb-1" format="json">[["Pump", "Flow rate", "Owner"], '
    '["P-101", "35 m3/h", "Operations"], ["P-102", "12 m3/h", "Maintenance"], '
    '["P-103", "7 m3/h", "Operations"]]</table>'
)


def prose(topic: str, sentences: int) -> str:
    return " ".join(
        f"The {topic} procedure number {i} requires the operator to record every {topic} "
        f"reading in the shift log before handover."
        for i in range(sentences)
    )


def parsed(rows: list[BlockRow]) -> ParsedText:
    return ParsedText("\n\n".join(r.content for r in rows), tuple(rows), None, "test")


def document() -> ParsedText:
    return parsed(
        [
            BlockRow(
                content=f"# 1 Valves\n{prose('valve', 3)}\n{prose('gasket', 3)}",
                heading="1 Valves",
            ),
            BlockRow(content=f"# 2 Pumps\nThe pump register:\n{TABLE_LINE}", heading="2 Pumps"),
            BlockRow(content=f"# 3 Seals\n{prose('seal', 30)}", heading="3 Seals"),
        ]
    )


def test_questions_carry_their_exact_evidence_from_the_document(cl100k) -> None:
    doc = document()
    questions, reason = auto_questions("d.docx", doc, cl100k, 200, seed=1, per_kind=3)
    assert reason is None
    body = normalize(doc.content)
    kinds = {q.kind for q in questions}
    assert kinds == {SENTENCE, PARAGRAPH, TABLE}
    for q in questions:
        assert q.document == "d.docx" and q.qid.startswith("d.docx#")
        if q.kind == TABLE:
            header, key, value = q.evidence
            assert q.text == f"What is the {header} of {key}?"
            assert (header, key, value) in {
                ("Flow rate", "P-101", "35 m3/h"),
                ("Flow rate", "P-102", "12 m3/h"),
                ("Flow rate", "P-103", "7 m3/h"),
                ("Owner", "P-101", "Operations"),
                ("Owner", "P-102", "Maintenance"),
                ("Owner", "P-103", "Operations"),
            }
        else:
            [evidence] = q.evidence
            assert body.count(evidence) == 1
            words = [w for w in q.text.split() if not w.endswith(":")]
            assert all(w in evidence or w in q.heading for w in words)
    paragraphs = [q for q in questions if q.kind == PARAGRAPH]
    assert any(q.text.startswith(q.heading + ": ") for q in paragraphs)
    assert any(not q.text.startswith(q.heading) for q in paragraphs)


def test_the_same_seed_gives_the_same_questions(cl100k) -> None:
    first = auto_questions("d.docx", document(), cl100k, 200, seed=3)
    assert first == auto_questions("d.docx", document(), cl100k, 200, seed=3)
    assert first != auto_questions("d.docx", document(), cl100k, 200, seed=4)


def test_a_document_that_fits_one_chunk_gets_none(cl100k) -> None:
    questions, reason = auto_questions("d.docx", document(), cl100k, 100_000, seed=0)
    assert questions == [] and reason is not None and "fits in N" in reason


def test_sentences_split_at_latin_and_cjk_end_marks() -> None:
    assert split_sentences("One two. Three four? 第一条 规定。第二条 要求！") == [
        "One two.",
        "Three four?",
        "第一条 规定。",
        "第二条 要求！",
    ]


def test_cjk_questions_are_windows_of_characters(cl100k) -> None:
    clause = "核电厂运营单位应当建立质量保证体系，并对安全重要设备进行定期检查和试验。"
    text = "".join(f"第{i}条 {clause[: 20 + i]}编号{i}。" for i in range(40))
    doc = parsed([BlockRow(content=f"# 总则\n{text}", heading="总则")])
    questions, _ = auto_questions("cn.docx", doc, cl100k, 300, seed=0, per_kind=4)
    sentences = [q for q in questions if q.kind == SENTENCE]
    assert sentences
    for q in sentences:
        assert q.text in q.evidence[0] and len(q.text) < len(q.evidence[0])


def test_user_questions_are_read_and_placed(tmp_path) -> None:
    path = tmp_path / "q.jsonl"
    lines = [
        {"question": "flow of P-101?", "evidence": ["P-101", "35 m3/h"], "kind": "table"},
        {"question": "valve log?", "evidence": "record every valve  reading", "document": "a.docx"},
        {"question": "nowhere", "evidence": "text that no document has"},
        {"question": "unknown", "evidence": "x", "document": "missing.docx"},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n", encoding="utf-8")
    loaded = load_questions(path)
    assert loaded[1].evidence == ("record every valve reading",)
    texts = {"a.docx": "record every valve reading", "b.docx": "P-101 35 m3/h"}
    placed, dropped = place_user_questions(loaded, texts)
    assert [(q.document, q.kind) for q in placed] == [("b.docx", "table"), ("a.docx", "user")]
    assert dropped == [
        "line 3: no document holds its evidence",
        "line 4: no document named 'missing.docx'",
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "not JSON"),
        ('["a"]', "expected an object"),
        ('{"evidence": "x"}', "'question'"),
        ('{"question": "q", "evidence": []}', "'evidence'"),
        ('{"question": "q", "evidence": "x", "document": 3}', "'document'"),
    ],
)
def test_a_bad_questions_line_is_named(tmp_path, line, message) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=f"q.jsonl:1: .*{message}"):
        load_questions(path)


def test_table_facts_skip_cells_a_rendering_would_change_and_headers_made_of_data(cl100k) -> None:
    rows = [
        ["Pump", "Rated flow", "Notes"],
        ["P-101", "35 m3/h", "first line\nsecond line"],
        ["P-102", "12 m3/h", 'says "stop"'],
        ["P-103", "7 m3/h", "plain note"],
    ]
    numbers = [["10", "20"], ["pear", "1.37"], ["apple", "2.05"], ["plum", "3.10"]]
    lines = [
        f'<table format="json">{json.dumps(t, ensure_ascii=False)}</table>' for t in (rows, numbers)
    ]
    doc = parsed([BlockRow(content="# Pumps\n" + "\n".join(lines) + "\n" + prose("pump", 40))])
    questions, _ = auto_questions("t.docx", doc, cl100k, 200, seed=0, per_kind=20)
    facts = {q.evidence for q in questions if q.kind == TABLE}
    assert ("Notes", "P-103", "plain note") in facts
    assert all(value not in ("first line second line", 'says "stop"') for _, _, value in facts)
    assert all(key in ("P-101", "P-102", "P-103") for _, key, _ in facts)


def test_table_facts_follow_the_header_the_parse_recorded(tmp_path, cl100k) -> None:
    # tb-1: a title row over the column names (two header rows recorded); tb-2: a glossary
    # the parser found no header in (recorded "[]"): its first row is data, not column names.
    titled = [["Pump register 2026", "", ""], *json.loads(TABLE_LINE.split(">", 1)[1][:-8])]
    glossary = [["AfriNIC", "Africa's number registry"], ["APNIC", "Asia-Pacific's"],
                ["ARIN", "North America's"], ["LACNIC", "Latin America's"]]  # fmt: skip
    lines = [
        f'<table id="{tid}" format="json">{json.dumps(rows)}</table>'
        for tid, rows in (("tb-1", titled), ("tb-2", glossary))
    ]
    blocks = tmp_path / "d.blocks.jsonl"
    blocks.write_text("", encoding="utf-8")
    tables = {
        "tb-1": {"table_header": json.dumps(titled[:2])},
        "tb-2": {"table_header": "[]"},
    }
    (tmp_path / "d.tables.json").write_text(json.dumps({"version": "1.0", "tables": tables}))
    rows = [BlockRow(content="# Pumps\n" + "\n".join(lines) + "\n" + prose("pump", 40))]
    doc = ParsedText(rows[0].content, tuple(rows), blocks, "test")
    questions, _ = auto_questions("t.docx", doc, cl100k, 200, seed=0, per_kind=20)
    facts = {q.evidence for q in questions if q.kind == TABLE}
    assert facts == {
        (column, key, value)
        for key, flow, owner in (("P-101", "35 m3/h", "Operations"), ("P-102", "12 m3/h",
                                 "Maintenance"), ("P-103", "7 m3/h", "Operations"))
        for column, value in (("Flow rate", flow), ("Owner", owner))
    }  # fmt: skip
