"""Small chunk sizes: every chunk within N, counted as it is returned, and nothing lost
(stage E returns a block's text as the stages measured it)."""

from __future__ import annotations

import pytest

from lightrag_pchunk.chunk.context import Context
from lightrag_pchunk.chunk.coverage import lost_words
from lightrag_pchunk.chunk.pipeline import chunk_rows, over_cap

from helpers import make_row

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
    assert not lost_words([r.content for r in rows], [c.content for c in chunks])
    # The pieces read back as the row's lines, indentation included.
    lines = [line for c in chunks for line in c.content.split("\n") if line.strip()]
    assert lines == rows[0].content.split("\n")
