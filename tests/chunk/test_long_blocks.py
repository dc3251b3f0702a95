"""Long blocks that hold heading-like lines (``chunk/long_blocks.py``): what the corpus
benchmark counts and ``inspect`` warns of."""

from __future__ import annotations

from lightrag_pchunk.chunk.long_blocks import headed_long_blocks, long_blocks
from lightrag_pchunk.model import BlockRow

SAID = (
    "The operator reads the meter every morning and writes the value into the log book, "
    "so that the engineer can compare it with the value of the day before."
)


def row(heading: str, lines: list[str], number: int = 2) -> BlockRow:
    return BlockRow("\n".join([f"# {heading}", *lines]), heading, line_number=number)


def test_a_long_block_parted_by_plain_titles_is_listed_with_them(cl100k) -> None:
    body = [SAID] * 12 + ["Cleaning the filters"] + [SAID] * 12
    rows = [row("Operation", body), row("Short", [SAID, "Cleaning the filters", SAID], 3)]
    assert [b.heading for b in long_blocks(rows, cl100k, 100)] == ["Operation"]
    found = headed_long_blocks(rows, cl100k, 100)
    assert [(b.heading, b.line_number, b.titles) for b in found] == [
        ("Operation", 2, ("Cleaning the filters",))
    ]
    assert found[0].tokens == cl100k.count(rows[0].content) > 400
    # Over four times a larger size, the block is no long block.
    assert headed_long_blocks(rows, cl100k, 1000) == []


def test_a_long_block_of_text_alone_or_of_list_items_is_not_listed(cl100k) -> None:
    assert headed_long_blocks([row("Operation", [SAID] * 25)], cl100k, 100) == []
    # "1. Stufe: …", "2. Stufe: …": the steps of a list, read from the text alone.
    steps = [f"{n}. Stufe: {SAID}" for n in range(1, 7)]
    block = row("Stufen", [SAID] * 6 + steps + [SAID] * 6)
    assert headed_long_blocks([block], cl100k, 100) == []
    # In Markdown a list item is known by its marker; a Word row's numbered line is read
    # as a numbered title with its body after it.
    block = row("Operation", [SAID] * 12 + ["1. Cleaning the filters"] + [SAID] * 12)
    assert headed_long_blocks([block], cl100k, 100, markdown=True) == []
    assert headed_long_blocks([block], cl100k, 100)[0].titles == ("1. Cleaning the filters",)


def test_each_long_block_is_counted_once(cl100k) -> None:
    # House rule: a piece of text is counted once; a long block's count serves both the
    # length test and the LongBlock it makes.
    block = row("Operation", [SAID] * 12 + ["Cleaning the filters"] + [SAID] * 12)
    before = cl100k.stats.encode_calls
    (found,) = headed_long_blocks([block], cl100k, 100)
    assert cl100k.stats.encode_calls - before == 1
    assert found.tokens == cl100k.count(block.content)


def test_a_long_block_with_stated_values_between_its_paragraphs_is_not_listed(cl100k) -> None:
    # "Chi-square= 1.5209" / "p-value= 0.2175" under a table of results: values the text
    # states, not titles. A title beside them is still found.
    values = ["<table>[[1]]</table>", "Chi-square= 1.5209\np-value= 0.2175"]
    block = row("S2 (6) = 0.6687", [SAID] * 12 + values + [SAID] * 12)
    assert headed_long_blocks([block], cl100k, 100) == []
    titled = row("Results", [SAID] * 8 + values + [SAID] * 8 + ["Discussion"] + [SAID] * 8)
    assert headed_long_blocks([titled], cl100k, 100)[0].titles == ("Discussion",)


def test_in_markdown_that_marks_its_outline_only_bold_or_numbered_lines_read_as_headings(
    cl100k,
) -> None:
    # "In recent years, Large Language Models" over "(LLMs) have been …": a converter parted
    # a sentence; where the author marks headings with "#", a plain line is no title left
    # unmarked. Bold and numbered lines still are.
    def block(title: str) -> BlockRow:
        return row("Introduction", [SAID] * 12 + [title] + [SAID] * 12)

    marked = [row("Report", [SAID], 1)]
    plain = block("In recent years, Large Language Models")
    assert headed_long_blocks([*marked, plain], cl100k, 100, markdown=True) == []
    assert headed_long_blocks([plain], cl100k, 100, markdown=True)[0].titles
    for title in ("**Training details**", "NOTE 3 - INITIAL PUBLIC OFFERING"):
        (found,) = headed_long_blocks([*marked, block(title)], cl100k, 100, markdown=True)
        assert len(found.titles) == 1
    # Bold words with plain text between them are no paragraph set all in bold.
    for title in ("**Inputs** and **outputs**", "__init__ and __main__"):
        assert headed_long_blocks([*marked, block(title)], cl100k, 100, markdown=True) == []
