"""MyST's directives (markdown/directives.py): a literal one is a fenced block (what it holds
makes no heading, its option block no setext heading), a container's body is Markdown (its
list, its table); the text stays as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from lightrag_pchunk.markdown.directives import for_parser, read_directives
from lightrag_pchunk.markdown.document import parse_markdown
from lightrag_pchunk.model import PREFACE_HEADING

DOC = """# Batch processing

:::{code} bash
# Using uv
uv tool install ocrmypdf
# Or using pip
pip install ocrmypdf
:::

:::{literalinclude} ../misc/watcher.py
---
caption: misc/watcher.py
---
:::

## Caveats

Text.
"""


def parse(tmp_path: Path, text: str):
    """``text`` written to ``tmp_path/doc.md`` and parsed into ``tmp_path/out``."""
    source = tmp_path / "doc.md"
    source.write_text(text, encoding="utf-8")
    return parse_markdown(source, tmp_path / "out", doc_id="doc-" + "0" * 32)


def outline(parsed) -> list[tuple[int, str]]:
    """The level and heading of each row."""
    return [(row.level, row.heading) for row in parsed.rows]


def test_a_directive_holds_no_heading_and_keeps_its_text(tmp_path: Path) -> None:
    parsed = parse(tmp_path, DOC)
    assert outline(parsed) == [
        (1, "Batch processing"),
        (2, "Caveats"),
    ]
    assert ":::{code} bash\n# Using uv\nuv tool install ocrmypdf" in parsed.rows[0].content
    assert "caption: misc/watcher.py\n---\n:::" in parsed.rows[0].content
    assert PREFACE_HEADING not in [row.heading for row in parsed.rows]


def blank(line: str) -> str:
    return " " * len(line.encode())


def test_only_directive_fences_outside_code_change_and_keep_their_length() -> None:
    text = (
        "```md\n:::{note}\n# x\n:::\n```\n\n:::{code-block} bash\n# y\n:::\n\n"
        "::::{tab-set}\n:::{tab-item} Ä\n:::\n::::\n"
    )
    masked = for_parser(text)
    assert len(masked.encode()) == len(text.encode())
    tab_set = "".join(
        blank(line) + "\n" for line in ["::::{tab-set}", ":::{tab-item} Ä", ":::", "::::"]
    )
    assert (
        masked == "```md\n:::{note}\n# x\n:::\n```\n\n~~~{code-block} bash\n# y\n~~~\n\n" + tab_set
    )
    # Pandoc's fenced divs and other containers hold Markdown: left alone, as are Pandoc's
    # code attributes and R Markdown's cell options (no directive's name).
    for kept in ("::: note\n# Title\n:::\n", ":::tip\ntext\n:::\n", "```{=html}\n<b>\n```\n"):
        assert for_parser(kept) == kept
    assert (
        for_parser("```{r setup, echo=FALSE}\n# x\n```\n") == "```{r setup, echo=FALSE}\n# x\n```\n"
    )


def test_a_code_fence_inside_a_literal_directive_neither_closes_it_nor_is_closed_by_it() -> None:
    # A tilde fence would close the directive's tilde fence; a colon line inside a code
    # block of the directive is the block's text, no closing fence.
    text = ":::{code}\n~~~\n# not a heading\n~~~\n```md\n:::\n```\n:::\n# Heading\n"
    masked = for_parser(text)
    assert len(masked) == len(text)
    assert masked == "~~~{code}\n```\n# not a heading\n```\n```md\n:::\n```\n~~~\n# Heading\n"


def test_a_colon_line_inside_a_code_block_of_a_container_is_no_closing_fence() -> None:
    text = ":::{note}\n```md\n:::\n```\n:::\n# Heading\n"
    masked = for_parser(text)
    assert masked == blank(":::{note}") + "\n```md\n:::\n```\n" + blank(":::") + "\n# Heading\n"


CONTAINERS = """# Install

Intro paragraph.
:::{note} Before you start
- one
- two

| Step | Time |
|------|------|
| copy | 1 min |
:::

```{admonition} Tip
---
class: tip
---
The *fast* way:

| Mode | Speed |
|------|-------|
| fast | high |
```

::::{tab-set}
:::{tab-item} Linux
:sync: linux
Run `make`.
::::

```{python}
# Load the data
x = 1
```

## Next

Text.
"""


def test_a_container_directive_holds_markdown_and_keeps_its_fences_as_text(tmp_path: Path) -> None:
    parsed = parse(tmp_path, CONTAINERS)
    # A code cell (Quarto's, R Markdown's) stays code: its comment is no heading; a
    # container's option block makes no setext heading.
    assert outline(parsed) == [(1, "Install"), (2, "Next")]
    content = parsed.rows[0].content
    # The note's list and table, the admonition's table keep their structure.
    assert content.count("<table ") == 2
    assert '[["Step", "Time"], ["copy", "1 min"]]' in content
    assert '[["Mode", "Speed"], ["fast", "high"]]' in content
    assert "- one\n- two" in content
    # Every directive line stays where the author wrote it, the option blocks with it.
    for line in CONTAINERS.split("\n")[3:31]:
        if not line.startswith("|"):
            assert line in content
    assert ":::\n\n```{admonition} Tip\n---\nclass: tip\n---\n\nThe *fast* way:" in content
    assert ":::{tab-item} Linux\n:sync: linux\n\nRun `make`.\n\n::::" in content
    assert "```{python}\n# Load the data\nx = 1\n```" in content


CELLS = """# Build

```{java}
# not a heading
class A { int x; }
```

~~~{lua}
-- a *comment*
# not a heading either
~~~

```{py:function} run(x)
Runs *x*.

| a | b |
|---|---|
| 1 | 2 |
```

:::{custom-box}
- one
- two
:::

## Next

Text.
"""


def test_a_fence_with_a_name_no_container_has_is_a_code_block(tmp_path: Path) -> None:
    # Quarto's cells in languages not listed, any name no container has: behind backticks
    # or tildes a code block, its comment no heading, its text whole. A Sphinx domain's
    # directive holds Markdown (its table), as does a colon fence with any name.
    assert for_parser("```{java}\n# x\n```\n") == "```{java}\n# x\n```\n"
    parsed = parse(tmp_path, CELLS)
    assert outline(parsed) == [(1, "Build"), (2, "Next")]
    content = parsed.rows[0].content
    assert "```{java}\n# not a heading\nclass A { int x; }\n```" in content
    assert "~~~{lua}\n-- a *comment*\n# not a heading either\n~~~" in content
    assert content.count("<table ") == 1
    assert "- one\n- two" in content


RUBRICS = """# Guide

## Setup

```{note}
# Before you start
Check the *version*.

Tabs
====
```

::::{tab-set}
:::{tab-item} Linux
## On Linux
Run `make`.
:::
::::

After the tabs.

## Usage

:::{warning} Ünclosed
### Careful
"""


CALLOUTS = """# Guide

## Setup

::: {.callout-tip collapse="true"}
## Tip with a title
Use *this*.
:::

After the callout.

::: callout-note
### Note
:::

::: {.column}
## Columns
:::
"""


@pytest.mark.parametrize(
    ("text", "sections", "kept"),
    [
        # MyST makes a rubric (a label) of a heading in a directive's body: no section opens,
        # the text after the directive stays under the heading it was written under. A
        # container never closed (a forgotten fence) leaves its headings sections.
        (
            RUBRICS,
            [(1, "Guide"), (2, "Setup"), (2, "Usage"), (3, "Careful")],
            ("# Before you start", "Tabs\n====", "## On Linux", "After the tabs."),
        ),
        # Quarto titles a callout by its heading; any other Pandoc div keeps its headings.
        (
            CALLOUTS,
            [(1, "Guide"), (2, "Setup"), (2, "Columns")],
            ("## Tip with a title", "Use *this*.", "After the callout.", "### Note"),
        ),
    ],
    ids=["myst rubric", "quarto callout"],
)
def test_a_heading_inside_a_container_is_its_rubric_or_title_not_a_section(
    tmp_path: Path, text: str, sections: list[tuple[int, str]], kept: tuple[str, ...]
) -> None:
    parsed = parse(tmp_path, text)
    assert outline(parsed) == sections
    setup = parsed.rows[1].content
    for line in kept:
        assert line in setup


def test_the_bodies_of_outermost_containers_are_told_in_bytes() -> None:
    text = "# Ä\n::::{note} Ö\n:class: x\n## a\n:::{tip}\nb\n:::\n::::\n# c\n```{tip}\nd\n```\n"
    masked, bodies = read_directives(text)
    assert masked == for_parser(text)
    raw = text.encode()
    assert [raw[start:end] for start, end in zip(bodies[::2], bodies[1::2], strict=True)] == [
        b"## a\n:::{tip}\nb\n:::\n",
        b"d\n",
    ]
    assert read_directives("# a\n```python\n# b\n```\n") == ("# a\n```python\n# b\n```\n", [])


def test_backticks_followed_by_a_backtick_on_their_line_open_no_code_block() -> None:
    # CommonMark: no fence; read as one, it hid the directive after it from the reader
    # (its comment line became a heading).
    text = "```make``` builds it.\n\n:::{code} bash\n# comment\n:::\n\n````\n```{note}\n````\n"
    assert for_parser(text) == (
        "```make``` builds it.\n\n~~~{code} bash\n# comment\n~~~\n\n````\n```{note}\n````\n"
    )


ITEM_FENCE = """# Notes

- ```md
  :::{note}
  ```

```python
x = 1
```

## Real

:::{tip}
Text.
:::
"""


def test_a_code_fence_on_a_list_items_first_line_opens_a_code_block(tmp_path: Path) -> None:
    # Unseen, its code (a note's opening line) opened a container no fence closed but the
    # tip's, with the heading between them in its body: a rubric, no section.
    parsed = parse(tmp_path, ITEM_FENCE)
    assert outline(parsed) == [(1, "Notes"), (2, "Real")]
    in_item = "1. ```{note}\n   :::{tip}\n   ```\n"
    assert for_parser(in_item) == in_item


@pytest.mark.parametrize(
    "item",
    [
        "- ```md\n  :::{note}\n  ```\n",
        "- one\n    - ```md\n      :::{note}\n      ```\n",  # a nested item's
        "10. ~~~md\n    :::{note}\n    ~~~\n",  # its text indented by four
    ],
)
def test_a_code_block_in_a_list_item_closes_at_its_fence(item: str) -> None:
    # Its lines are code; after its fence the reader sees the directives again.
    after = ":::{code}\n# c\n:::\n"
    assert for_parser(item + "\n" + after) == item + "\n~~~{code}\n# c\n~~~\n"


@pytest.mark.parametrize(
    ("fence", "closes"),
    [("  ```", True), ("     ```", True), ("      ```", False)],
    ids=["as the text", "three more", "four more"],
)
def test_a_directive_in_a_list_item_after_its_code_block_is_read(fence: str, closes: bool) -> None:
    # The code block's fence closes it indented as the item's text or up to three spaces
    # more (four more is a line of its code): the note in the item after it is a directive,
    # its comment no heading. (After the item, at the margin, the item's end closes the code
    # block whatever its fence.)
    code = "- ```md\n  :::{note}\n" + fence + "\n\n"
    note = "  :::{code}\n  # c\n  :::\n"
    read = note.replace(":::", "~~~") if closes else note
    assert for_parser(code + note) == code + read


def test_a_code_block_in_a_list_item_ends_with_the_item() -> None:
    # Its fence set back past the item's text ends the item, and the code block with it (no
    # code line continues lazily): that fence opens a code block of its own, as CommonMark
    # reads it, and the note shown in that code stays as written.
    text = "- ```sh\n  make\n```\n\n:::{note}\n# Rubric\n:::\n\n```\n"
    assert for_parser(text) == text
