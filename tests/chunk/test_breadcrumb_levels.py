"""A chunk's level in the breadcrumb contract (chunk/breadcrumbs.py, rule ``level``): the
level the document's outline gives the heading its label names, for a span its parent's;
and stage E labels a span so where the children's levels do not tell it (a heading several
levels below its parent, stage C anchors that keep their section's level).

Pipelines run with 1 char = 1 token: N=200 fits about 190 characters of joined text.
"""

from __future__ import annotations

from dataclasses import replace

from lightrag_pchunk.chunk.block_runs import join_blocks
from lightrag_pchunk.chunk.breadcrumbs import LEVEL, check_breadcrumbs
from lightrag_pchunk.chunk.pipeline import chunk_rows
from lightrag_pchunk.model import Chunk

from helpers import char_context, make_block, make_row

GUIDE = [
    make_row("# Guide\nThe guide.", "Guide", level=1),
    make_row(
        "### Intro\nIntro text.\nFirst steps\nStep text.", "Intro", parents=("Guide",), level=3
    ),
    make_row("### Use\nUse text.", "Use", parents=("Guide",), level=3),
    make_row("# Terms\nTerms text.\nAnnex notes\nAnnex text.", "Terms", level=1),
]


def _rules(content: str, heading: str, parents: tuple[str, ...], level: int) -> list[str]:
    chunk = Chunk(content, len(content), 0, heading, parents, level)
    return [v.rule for v in check_breadcrumbs(GUIDE, [chunk])]


def test_the_check_finds_a_level_the_outline_does_not_give_the_declared_heading() -> None:
    intro = "### Intro\nIntro text."
    assert _rules(intro, "Intro", ("Guide",), 3) == []
    assert _rules(intro, "Intro", ("Guide",), 2) == [LEVEL]
    chunk = Chunk(intro, 9, 0, "Intro", ("Guide",), 2)
    (violation,) = check_breadcrumbs(GUIDE, [chunk])
    assert violation.reason == "level 2, but 'Guide' > 'Intro' is at level 3"


def test_a_span_is_at_its_parents_level_not_one_above_its_childrens() -> None:
    both = "### Intro\nIntro text.\nFirst steps\nStep text.\n\n### Use\nUse text."
    assert _rules(both, "Guide (Intro – Use)", (), 1) == []
    assert _rules(both, "Guide (Intro – Use)", (), 2) == [LEVEL]


def test_a_heading_made_of_a_line_lies_no_shallower_than_its_section() -> None:
    # The outline gives a line of Intro's text no level of its own: a stage C anchor keeps
    # its section's level, a heading the smart outline found lies deeper.
    steps = "First steps\nStep text."
    assert _rules(steps, "First steps", ("Guide", "Intro"), 3) == []
    assert _rules(steps, "First steps", ("Guide", "Intro"), 4) == []
    assert _rules(steps, "First steps", ("Guide", "Intro"), 2) == [LEVEL]


def test_a_span_at_the_top_is_at_the_level_of_the_shallowest_section_it_holds() -> None:
    content = "### Use\nUse text.\n\n# Terms\nTerms text."
    assert _rules(content, "Guide – Terms", (), 1) == []
    assert _rules(content, "Guide – Terms", (), 3) == [LEVEL]
    # An end the outline lacks (a line of Terms' text the smart outline may have made a
    # heading of) has no level in it: the span's is not checked.
    annex = "# Terms\nTerms text.\nAnnex notes\nAnnex text."
    assert _rules(annex, "Terms – Annex notes", (), 1) == []
    assert _rules(annex, "Terms – Annex notes", (), 2) == []


def _sentences(letter: str, count: int, size: int = 70) -> list[str]:
    return [f"{letter * (size - 2)}{i}." for i in range(count)]


def test_sections_several_levels_below_their_parent_are_spanned_at_the_parents_level() -> None:
    # Intro and Use are level 3 directly under Guide (level 1): the span of both declares
    # Guide, so it is at Guide's level, not one above theirs.
    rows = [
        make_row("\n".join(["# Guide", *_sentences("g", 2)]), "Guide", level=1),
        make_row("\n".join(["### Intro", *_sentences("i", 1)]), "Intro", ("Guide",), 3),
        make_row("\n".join(["### Use", *_sentences("u", 1)]), "Use", ("Guide",), 3),
    ]
    for fill in ("pack", "sections"):
        chunks = chunk_rows(rows, char_context(200, fill=fill))
        assert [(c.heading, c.level) for c in chunks] == [("Guide", 1), ("Guide (Intro – Use)", 1)]
        assert check_breadcrumbs(rows, chunks) == []


def test_a_span_of_anchors_is_at_the_level_of_the_section_they_cut() -> None:
    # Examples (level 2) is cut at its short lines; each anchor heads its piece one heading
    # below Examples at Examples' level, and the chunk holding the end of one and the start
    # of the other declares Examples with their span: at Examples' level.
    body = _sentences("e", 2)
    for title, letter in (("Tunnel example", "t"), ("DNS example", "d")):
        body += [title, *_sentences(letter, 3)]
    rows = [
        make_row("# Guide\nThe guide.", "Guide", level=1),
        make_row("\n".join(["## Examples", *body]), "Examples", ("Guide",), 2),
    ]
    chunks = chunk_rows(rows, char_context(200, fill="pack"))
    spans = [(c.heading, c.parent_headings, c.level) for c in chunks if "–" in c.heading]
    span = "Examples (Tunnel example [part 2] – DNS example [part 1])"
    assert spans == [(span, ("Guide",), 2)]
    assert check_breadcrumbs(rows, chunks) == []


def test_blocks_of_sibling_sections_joined_take_their_parents_level() -> None:
    # Stage D's joined block is headed by the common parent of its sections, at that
    # parent's level as the outline gives it (the later phases read it), not one above its
    # children's.
    ctx = char_context(200)
    intro, use = (
        replace(
            make_block(
                f"### {title}\nText.", ctx.counter, heading=title, parents=("Guide",), level=3
            ),
            parent_levels=(1,),
        )
        for title in ("Intro", "Use")
    )
    joined = join_blocks(intro, use, 200, ctx.counter)
    assert joined is not None
    assert (joined.heading, joined.parent_headings, joined.level) == ("Guide", (), 1)
