"""Small chunk sizes: every chunk within N, counted as it is returned, and nothing lost
(stage E returns a block's text as the stages measured it)."""

from __future__ import annotations

import json

import pytest

from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.pipeline import chunk_rows, over_cap

from helpers import make_row
from invariants import assert_no_word_lost, check_output

#: An author list with hard line breaks: every line after the first starts with a space,
#: which cl100k merges into the name (" Ziwei" is two tokens, "Ziwei" three).
NAMES = (
    "Ziwei Xie, Ziyang Song, Ziyi Gao, Zizheng Pan, Bei Feng, Hui Li, J.L. Cai, Jiaqi Ni, "
    "Lei Xu, Meng Li, Ning Tian, R.J. Chen, R.L. Jin, Ruyi Chen, S.S. Li, Shuang Zhou, "
    "Tianyu Sun, X.Q. Li, Xiangyue Jin, Xiaojin Shen, Xiaosha Chen, Xiaowen Sun, Xiaoxiang "
    "Wang, Xinnan Song, Xinyi Zhou, Xu Chen, Y.K. Li, Yang Zhang, Yanping Huang, Yaohui Li"
).split(", ")


def author_rows() -> list:
    lines = ["Contributions and Acknowledgments", NAMES[0], *(f" {name}" for name in NAMES[1:])]
    return [make_row("\n".join(lines), "Authors", level=2, blockid="authors")]


@pytest.mark.parametrize("size", range(12, 130, 3))
def test_a_piece_starting_on_an_indented_line_stays_within_the_cap(size, cl100k) -> None:
    rows = author_rows()
    chunks = chunk_rows(rows, Context.create(cl100k, size, 0))
    assert not over_cap(chunks, size)
    assert all(c.tokens == cl100k.count(c.content) <= size for c in chunks)
    assert_no_word_lost([r.content for r in rows], [c.content for c in chunks])
    # The pieces read back as the row's lines, indentation included.
    lines = [line for c in chunks for line in c.content.split("\n") if line.strip()]
    assert lines == rows[0].content.split("\n")


TABLE_ID = "tb-923d5d41fc7173fd579ebade8e3b0040-0002"
CAPTION = (
    "Figure 1.5: Estimated Breast Cancer Incidence (New Cases) Rates among Women by State, "
    "2006-2010"
)
HEADER = ["State", "Rate of Invasive Breast Cancer (per 100,000 women)", "State", "Rate"]
STATES = [
    ("Alabama", "119", "Montana", "124"), ("Alaska", "128", "Nebraska", "122"),
    ("Arizona", "110", "Nevada", "113"), ("Arkansas", "110", "New Hampshire", "132"),
    ("California", "122", "New Jersey", "129"), ("Colorado", "125", "New Mexico", "109"),
    ("Connecticut", "136", "New York", "128"), ("Delaware", "127", "North Carolina", "125"),
    ("Florida", "114", "Ohio", "121"), ("Georgia", "122", "Oklahoma", "122"),
    ("Hawaii", "123", "Oregon", "130"), ("Idaho", "120", "Pennsylvania", "126"),
]  # fmt: skip


def captioned_table_rows() -> tuple[list, dict[str, str]]:
    body = json.dumps([HEADER, *map(list, STATES)], ensure_ascii=False)
    tag = f'<table id="{TABLE_ID}" format="json" caption="{CAPTION}">{body}</table>'
    content = f"Breast cancer rates are given by state.\n{tag}\nSource: American Cancer Society."
    headers = {TABLE_ID: json.dumps([HEADER], ensure_ascii=False)}
    return [make_row(content, "Rates", level=1, blockid="rates")], headers


@pytest.mark.parametrize("size", [60, 80, 100, 120, 150])
def test_a_caption_too_long_to_ride_with_a_slice_is_text_and_the_header_rides_on_every_slice(
    size, cl100k
) -> None:
    rows, headers = captioned_table_rows()
    chunks = chunk_rows(rows, Context.create(cl100k, size, 0, table_headers=headers))
    contents = [c.content for c in chunks]
    assert_no_word_lost([r.content for r in rows], contents)
    assert all(c.tokens == cl100k.count(c.content) <= size for c in chunks)
    check_output([r.content for r in rows], contents, counter=cl100k, cap=size,
                 tokens=[c.tokens for c in chunks])  # fmt: skip
    lines = [line for content in contents for line in content.split("\n")]
    slices = [line for line in lines if line.startswith("<table")]
    assert len(slices) > 1 and all(line.endswith("</table>") for line in slices)
    # No row goes out outside the tag; the header opens every slice where it leaves room.
    assert not any(line.startswith("[") for line in lines)
    assert json.loads(slices[0].split(">", 1)[1][: -len("</table>")])[0] == HEADER
    for line in slices[1:]:
        opening, body = line.split(">", 1)
        table_rows = json.loads(body[: -len("</table>")])
        if table_rows[0] != HEADER:
            with_header = json.dumps([HEADER, *table_rows], ensure_ascii=False)
            assert cl100k.count(f"{opening}>{with_header}</table>") > size, line
    # The caption rides in the first slice's tag, or is a line of its own right before it.
    first = lines.index(slices[0])
    assert 'caption="' in slices[0] or lines[first - 1] == CAPTION
    assert all('caption="' not in line for line in slices[1:])
