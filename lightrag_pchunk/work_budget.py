"""How much work one document may ask of a parser and of P: its content rows (blocks) and
their lines.

Every step is linear in these, but some with a large constant, and a file cheap to make can
hold millions of them. Measured with ``lightrag-pchunk chunk`` at N=1200 on the reference
machine (2 shared cores), before these limits: 1,000,000 one-word paragraphs in a 2.4 MB
.docx, 70 CPU-s and 1.9 GB; 500,000 one-line headings in a 4.9 MB Markdown file, 119 CPU-s
(stage D: about 0.2 ms a block when the blocks are tiny) and 1.56 GB; 1,000,000 Markdown
paragraphs, 34 CPU-s. Within the defaults a document stays far inside 60 s and 2 GB, and far
above real documents (the largest of the corpora has 651 rows and 10,620 lines): 240,000
Word paragraphs take 18 CPU-s and 0.58 GB, 49,000 Markdown headings 13 CPU-s and 0.31 GB,
240,000 Markdown paragraphs 9 CPU-s.

Past them our parsers refuse the document (``output-budget``, with the numbers; the Word
parser as soon as its walk passes a limit, before the rest of the document costs its time,
the Markdown parser once the file is walked): the three files above are refused after 7.7,
3.3 and 3.3 CPU-s (1.1, 0.31 and 0.34 GB). P falls back to R for a blocks file another
parser wrote (R is linear with a small constant).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

DEFAULT_MAX_BLOCKS = 50_000
DEFAULT_MAX_LINES = 250_000
ENV_VARS = {"max_blocks": "LIGHTRAG_PCHUNK_MAX_BLOCKS", "max_lines": "LIGHTRAG_PCHUNK_MAX_LINES"}


@dataclass(frozen=True)
class WorkBudget:
    """The most blocks (content rows) and lines one document may have; a value below 1 is
    refused."""

    max_blocks: int = DEFAULT_MAX_BLOCKS
    max_lines: int = DEFAULT_MAX_LINES

    def __post_init__(self) -> None:
        require_positive_fields(self)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> WorkBudget:
        """The budget from ``LIGHTRAG_PCHUNK_MAX_BLOCKS`` and ``LIGHTRAG_PCHUNK_MAX_LINES``;
        unset or empty ones keep their default.

        Raises:
            ValueError: a value is not an integer >= 1; the message names the variable.
        """
        return cls(**positive_ints_from_env(os.environ if env is None else env, ENV_VARS))

    def excess(self, blocks: int, lines: int, *, so_far: bool = False) -> str | None:
        """What is over the budget, with the numbers and the variable to raise; None when
        ``blocks`` and ``lines`` are within it. ``so_far``: counted while the document is
        read, which stops at the first one over ("more than")."""
        for count, limit, name, what in (
            (blocks, self.max_blocks, "max_blocks", "blocks (a heading opens each)"),
            (lines, self.max_lines, "max_lines", "lines"),
        ):
            if count > limit:
                has = (
                    f"more than {limit:,} {what}, the most"
                    if so_far
                    else f"{count:,} {what}, over the {limit:,}"
                )
                return (
                    f"the document has {has} one document may have"
                    f" (raise {ENV_VARS[name]} if it is genuine)"
                )
        return None


def require_positive_fields(limits: Any) -> None:
    """Refuse a limits dataclass (this budget, a parser's limits) any of whose fields is not
    an integer >= 1.

    Raises:
        ValueError: naming the class, the field and the value.
    """
    for item in fields(limits):
        value = getattr(limits, item.name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            name = type(limits).__name__
            raise ValueError(f"{name}.{item.name} must be an integer >= 1, got {value!r}")


def positive_ints_from_env(
    env: Mapping[str, str], variables: Mapping[str, str], *, none_is_unset: bool = False
) -> dict[str, int]:
    """The limits set in ``env``: field name -> the integer >= 1 its variable
    (``variables``: field name -> variable) holds; unset or empty variables are left out, and
    so is ``None`` with ``none_is_unset`` (LightRAG's own variables read it as unset).

    Raises:
        ValueError: a value is not an integer >= 1; the message names the variable.
    """
    values: dict[str, int] = {}
    for name, variable in variables.items():
        raw = (env.get(variable) or "").strip()
        if not raw or (none_is_unset and raw == "None"):
            continue
        try:
            value = int(raw)
        except ValueError:
            raise ValueError(f"{variable} (env) must be an integer, got {raw!r}") from None
        if value < 1:
            raise ValueError(f"{variable} (env) must be >= 1, got {raw!r}")
        values[name] = value
    return values


def text_lines(text: str) -> int:
    """The lines of ``text``, blank lines between paragraphs aside (a Markdown row joins its
    units with one)."""
    return text.count("\n") + 1 - text.count("\n\n")
