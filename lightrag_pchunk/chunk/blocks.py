"""Making paragraphs and blocks, and deciding whether text fits a cap, with the fewest
encodes: a paragraph is counted once when made, a block's count is estimated from its
paragraphs, and an exact count is taken only when an estimate is too close to a cap to
decide (spec §9.5)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from lightrag_pchunk.model import UNCOUNTED, Block, BlockRow, Paragraph
from lightrag_pchunk.outline.labels import parse_label
from lightrag_pchunk.outline.lines import MARKDOWN_HEADING, is_bullet_item
from lightrag_pchunk.tokens import TokenCounter, TokenStarts

#: Joiner between the paragraphs of one content row (as in ``.blocks.jsonl``).
PARAGRAPH_JOINER = "\n"
#: Joiner between two merged blocks (stage D and heading glue), and between paragraphs of
#: which one holds several lines (a Markdown list, code block or quote: see
#: :func:`paragraph_texts`).
BLOCK_JOINER = "\n\n"

_TABLE_OPEN = re.compile(r"<table(?:\s[^>]*)?>", re.IGNORECASE)


def holds_table(paragraph: Paragraph) -> bool:
    """True for a table's paragraph or a piece of one (``is_piece``: a row written without
    the tag that leaves it no room, or cut by characters; text opening a tag): such text is
    cut at its rows, with its header, never as prose."""
    return (
        paragraph.is_table
        or paragraph.is_piece
        or paragraph.text.lstrip().lower().startswith("<table")
    )


def is_table_text(text: str) -> bool:
    """True for one complete ``<table ...>...</table>`` tag (surrounding spaces allowed)."""
    if "</table>" not in text:  # most lines: decided without copying or a regex
        return False
    return text.rstrip().endswith("</table>") and _TABLE_OPEN.match(text.lstrip()) is not None


#: A label set wholly in strong emphasis ("**Fixes**", "__Notes:__"), as release notes and
#: manuals head their lists.
_STRONG_LABEL = re.compile(r"\*\*[^*\n]{1,100}\*\*:?$|__[^_\n]{1,100}__:?$")
#: The opening line of a MyST directive (":::{note} Read first", "```{admonition} Tip"). The
#: Markdown parser keeps a container's opening line, with its options, as a paragraph before
#: its body (``markdown/directives.py``); a literal directive's paragraph holds its body and
#: its closing fence too.
_DIRECTIVE_OPENING = re.compile(r"(?::{3,}|`{3,}|~{3,})\{[A-Za-z][\w.:+-]*\}")
_FENCE_LINE = re.compile(r"\s*(?::{3,}|`{3,}|~{3,})")
#: Longest line ending with a colon read as a lead-in ("What To Expect Next:", "The options
#: are:"); a longer one is a sentence of its paragraph, which may end so before an equation.
#: A definition's text (": Specify output format. FORMAT can be:", a Markdown definition
#: list) is none either: it belongs to the term above it.
_LEAD_IN_COLON_CHARS = 80


def is_heading_line(line: str) -> bool:
    """Whether ``line`` (spaces around it aside) is a Markdown heading line: its marks, then
    its title."""
    line = line.strip()
    marks = MARKDOWN_HEADING.match(line)
    return marks is not None and marks.end() < len(line)


def without_heading_marks(line: str) -> str:
    """``line`` without the marks of a Markdown heading line that open it."""
    marks = MARKDOWN_HEADING.match(line)
    return line if marks is None else line[marks.end() :]


def is_lead_in(text: str) -> bool:
    """Whether ``text``, one paragraph, only introduces the text after it: a heading line, a
    label in strong emphasis, a short line ending with a colon, or a directive's opening
    line with its options. A chunk never ends with one where the next can take it."""
    text = text.strip()
    if _DIRECTIVE_OPENING.match(text):  # a container's, no fenced block of code
        return not any(map(_FENCE_LINE.match, text.split("\n")[1:]))
    if "\n" in text:
        return False
    if text.endswith((":", "：")) and len(text) <= _LEAD_IN_COLON_CHARS:
        return not text.startswith(":")
    return is_heading_line(text) or _STRONG_LABEL.match(text) is not None


def introduces(text: str, following: str) -> bool:
    """Whether ``text``, one paragraph, introduces ``following``: it is a lead-in
    (:func:`is_lead_in`), or a line ending with a colon, however long, before a list that
    ``following`` opens with a numbering label or a bullet ("E. Patients that may need to be
    temporarily detained by the Board:" over "i. The assessment is completed …"), where a
    colon before an equation or a quotation may end a long sentence that is none."""
    if is_lead_in(text):
        return True
    text = text.strip()
    if "\n" in text or not text.endswith((":", "：")) or text.startswith(":"):
        return False
    following = following.strip()
    return parse_label(following) is not None or is_bullet_item(following)


def has_big_table_line(content: str, limit: int) -> bool:
    """Whether a table line of ``content`` may exceed ``limit`` tokens, i.e. has more UTF-8
    bytes than ``limit`` (a byte-level BPE token covers at least one byte)."""
    if "<table" not in content:
        return False
    return any(
        line.lstrip().startswith("<table") and len(line.encode("utf-8", "surrogatepass")) > limit
        for line in content.split("\n")
    )


def make_paragraph(
    text: str, counter: TokenCounter, tokens: int | None = None, starts: TokenStarts | None = None
) -> Paragraph:
    """A paragraph with its exact token count (pass ``tokens`` when already known, and
    where its tokens start when the encode that counted it found them)."""
    return Paragraph(
        text=text,
        tokens=counter.count(text) if tokens is None else tokens,
        is_table=is_table_text(text),
        token_starts=starts,
    )


def paragraph_texts(content: str) -> list[str]:
    """The paragraphs of a content: its lines, or, when it has blank lines, the runs of
    lines between them.

    A content without a blank line (a .docx row) has one paragraph per line. In one with
    blank lines (a Markdown row) a blank line separates paragraphs, so a list, a code block
    or a quote written on several lines is one paragraph that is never cut while it fits a
    chunk; a ``<table>`` tag line is always a paragraph of its own (stage B slices it).
    Whitespace-only lines count as blank. See :func:`joiner_for` for the way back; a
    content that is one run of lines reads back as its lines, which cuts it only where it
    would be cut anyway (a paragraph alone over a cap is cut at its lines).
    """
    lines = content.split("\n")
    # str.strip removes what str.isspace calls whitespace: an empty result is a blank
    # line. Mapped in C, this decides the usual case (no blank line) without a loop.
    if all(map(str.strip, lines)):
        return lines
    texts: list[str] = []
    run: list[str] = []
    for line in lines:
        if not line or line.isspace():
            if run:
                texts.append(PARAGRAPH_JOINER.join(run))
                run = []
        elif "</table>" in line and is_table_text(line):
            if run:
                texts.append(PARAGRAPH_JOINER.join(run))
                run = []
            texts.append(line)
        else:
            run.append(line)
    if run:
        texts.append(PARAGRAPH_JOINER.join(run))
    return texts


def joiner_for(texts: Iterable[str]) -> str:
    """The joiner of paragraphs such that :func:`paragraph_texts` gives them back: a line
    break, or a blank line when one of them holds several lines."""
    return BLOCK_JOINER if any(PARAGRAPH_JOINER in text for text in texts) else PARAGRAPH_JOINER


def split_paragraphs(content: str, counter: TokenCounter) -> tuple[Paragraph, ...]:
    """The paragraphs of a content row (:func:`paragraph_texts`), each counted once."""
    return tuple([make_paragraph(text, counter) for text in paragraph_texts(content)])


def uncounted_paragraphs(content: str) -> tuple[Paragraph, ...]:
    """The paragraphs of ``content``, left :data:`~lightrag_pchunk.model.UNCOUNTED`."""
    texts = paragraph_texts(content)
    return tuple([Paragraph(text, UNCOUNTED, is_table_text(text)) for text in texts])


def line_paragraphs(paragraph: Paragraph, counter: TokenCounter) -> list[Paragraph]:
    """The lines of a paragraph written on several lines, each counted: how one that alone
    is over a cap is cut (at its lines before anything else)."""
    return [make_paragraph(line, counter) for line in paragraph.text.split(PARAGRAPH_JOINER)]


def without_blank_lines(content: str) -> str:
    """``content`` as the joined text of its paragraphs (:func:`paragraph_texts`): the
    text of a block whose paragraphs are made from it, blank lines dropped or, between
    paragraphs of several lines, made single."""
    return paragraphs_and_text(content)[1]


def paragraphs_and_text(content: str) -> tuple[list[str], str]:
    """The paragraphs of ``content`` (:func:`paragraph_texts`) and their joined text
    (:func:`without_blank_lines`), whose paragraphs they are too."""
    texts = paragraph_texts(content)
    if len(texts) == content.count(PARAGRAPH_JOINER) + 1:
        return texts, content  # every line is a paragraph: the content itself
    return texts, joiner_for(texts).join(texts)


def paragraphs_of(block: Block) -> tuple[Paragraph, ...]:
    """``block``'s paragraphs; for a block whose lines are not made yet (``paragraphs is
    None``) they are made from its content, uncounted (see :func:`counted`)."""
    if block.paragraphs is not None:
        return block.paragraphs
    return uncounted_paragraphs(block.content)


def row_level(row: BlockRow) -> int:
    """The level of a row's block: 0 for a pinned title, else the row's, at least 1."""
    return 0 if row.is_title_block else max(row.level, 1)


def build_block(
    paragraphs: Sequence[Paragraph], counter: TokenCounter, *, like: Block, **changes: object
) -> Block:
    """A block of ``paragraphs`` joined with :func:`joiner_for`, copying ``like``'s other fields.

    The count is derived exactly from the paragraphs' counts where the tokenizer allows
    (``TokenCounter.join_counts``), else estimated.
    """
    paragraphs = tuple(paragraphs)
    texts = [p.text for p in paragraphs]
    joiner = joiner_for(texts)
    content = joiner.join(texts)
    tokens, is_exact = counter.join_counts(texts, [p.tokens for p in paragraphs], joiner)
    return replace(
        like,
        paragraphs=paragraphs,
        content=content,
        tokens=tokens,
        is_exact=is_exact,
        **changes,  # type: ignore[arg-type]
    )


def counted(block: Block, counter: TokenCounter) -> Block:
    """``block`` with every paragraph made and counted: a row that fits one chunk is counted
    whole and split into lines only when something cuts its block after all (rare: heading
    glue near the cap, a re-cut)."""
    paragraphs = block.paragraphs
    if paragraphs is not None and all(p.tokens != UNCOUNTED for p in paragraphs):
        return block
    paragraphs = tuple(
        p if p.tokens != UNCOUNTED else replace(p, tokens=counter.count(p.text))
        for p in paragraphs_of(block)
    )
    return replace(block, paragraphs=paragraphs)


def joints(block: Block) -> int:
    """Joiners between the block's paragraphs (a merge's ``"\\n\\n"`` is one joint)."""
    if block.paragraphs is None:  # lines not made: no blank lines but the merge seams
        return block.content.count("\n") - block.content.count(BLOCK_JOINER)
    return max(len(block.paragraphs) - 1, 0)


def estimate_is_over(estimate: int, seams: int, cap: int) -> bool | None:
    """Whether a count estimated over ``seams`` joiners is over ``cap``: True or False when
    its bounds agree, None when only an encode can tell."""
    # Merging across a joiner can save a token or two per seam (".\n" is one token in
    # cl100k), and a tokenizer we do not know may spend a token or two more at one.
    if estimate - 2 * seams - 2 > cap:
        return True
    return None if estimate + 2 * seams + 2 > cap else False


def exact(block: Block, counter: TokenCounter) -> Block:
    """``block`` with an exact token count (encodes only if it is an estimate)."""
    if block.is_exact:
        return block
    return replace(block, tokens=counter.count(block.content), is_exact=True)


def exceeds(block: Block, cap: int, counter: TokenCounter) -> tuple[bool, Block]:
    """Whether ``block`` is over ``cap`` tokens, and the block (made exact if that was
    needed to decide: an estimate decides only when both bounds agree)."""
    if block.is_exact:
        return block.tokens > cap, block
    over = estimate_is_over(block.tokens, joints(block), cap)
    if over is not None:
        return over, block
    measured = exact(block, counter)
    return measured.tokens > cap, measured


def common_path(paths: Sequence[tuple[str, ...]]) -> tuple[str, ...]:
    """The longest heading path that starts every one of ``paths``."""
    first = paths[0]
    length = len(first)
    for path in paths[1:]:
        length = min(length, len(path))
        while path[:length] != first[:length]:
            length -= 1
    return first[:length]
