"""MyST's colon-fenced directives read as fenced blocks (markdown/colon_fences.py): what they
hold makes no heading, their option block no setext heading; the text stays as written."""

from __future__ import annotations

from pathlib import Path

from lightrag_pchunk.markdown.colon_fences import as_tilde_fences
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


def test_a_directive_holds_no_heading_and_keeps_its_text(tmp_path: Path) -> None:
    source = tmp_path / "batch.md"
    source.write_text(DOC, encoding="utf-8")
    parsed = parse_markdown(source, tmp_path / "out", doc_id="doc-" + "0" * 32)
    assert [(row.level, row.heading) for row in parsed.rows] == [
        (1, "Batch processing"),
        (2, "Caveats"),
    ]
    assert ":::{code} bash\n# Using uv\nuv tool install ocrmypdf" in parsed.rows[0].content
    assert "caption: misc/watcher.py\n---\n:::" in parsed.rows[0].content
    assert PREFACE_HEADING not in [row.heading for row in parsed.rows]


def test_only_directive_fences_outside_code_change_and_keep_their_length() -> None:
    text = "```md\n:::{note}\n# x\n:::\n```\n\n::::{tab-set}\n:::{tab-item} A\n:::\n::::\n"
    masked = as_tilde_fences(text)
    assert len(masked) == len(text)
    tilded = "~~~~{tab-set}\n~~~{tab-item} A\n~~~\n~~~~\n"
    assert masked == "```md\n:::{note}\n# x\n:::\n```\n\n" + tilded
    # Pandoc's fenced divs and other containers hold Markdown: left alone.
    assert as_tilde_fences("::: note\n# Title\n:::\n") == "::: note\n# Title\n:::\n"
    assert as_tilde_fences(":::tip\ntext\n:::\n") == ":::tip\ntext\n:::\n"


def test_a_code_fence_inside_a_directive_neither_closes_it_nor_is_closed_by_it() -> None:
    # A tilde fence would close the directive's tilde fence; a colon line inside a code
    # block of the directive is the block's text, no closing fence.
    text = ":::{note}\n~~~\n# not a heading\n~~~\n```md\n:::\n```\n:::\n# Heading\n"
    masked = as_tilde_fences(text)
    assert len(masked) == len(text)
    assert masked == "~~~{note}\n```\n# not a heading\n```\n```md\n:::\n```\n~~~\n# Heading\n"
