"""MyST's colon-fenced directives (``:::{code} bash`` … ``:::``), read as the fenced blocks
they are.

CommonMark knows no colon fence: inside one, a shell comment (``# Using uv``) is a heading,
and the directive's option block (``---`` / ``caption: …`` / ``---``) makes setext headings of
the lines above it. MyST's backtick-fenced directives (```` ```{note} ````) are code blocks to
the parser already, a unit kept as written; :func:`as_tilde_fences` gives the colon-fenced
ones the same reading. Only the fence's colons change (to tildes, as many: every byte keeps its
offset, so the walk still slices the source as written), and only for a fence that opens a
directive by name (``:::{name}``), outside code blocks. Pandoc's fenced divs (``::: note``)
and other containers (``:::tip``) hold Markdown and are left alone.
"""

from __future__ import annotations

import re

#: A directive's opening fence: up to three spaces, three colons or more, ``{name}``.
_OPENER = re.compile(r" {0,3}(:{3,})\{[^}\n]+\}")
#: A closing fence: up to three spaces, three colons or more, nothing else.
_CLOSER = re.compile(r" {0,3}(:{3,})[ \t\r]*$")
#: A code fence of backticks or tildes, which a colon fence inside does not open.
_CODE_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def as_tilde_fences(text: str) -> str:
    """``text`` with the colons of each directive's fences (opening and matching closing)
    made tildes; ``text`` itself where it has none."""
    if ":::{" not in text:
        return text
    lines = text.split("\n")
    code_fence = ""  # the open code fence, if inside one
    open_colons: list[int] = []  # the colon counts of the open directives, innermost last
    for index, line in enumerate(lines):
        found = _CODE_FENCE.match(line)
        if found and open_colons and found.group(1)[0] == "~":
            # Inside a directive read as a tilde fence, a code fence of tildes would close
            # it: as backticks (as many) it is a line of the directive's text, as it is.
            lines[index] = _refenced(line, found.start(1), len(found.group(1)), "`")
        if code_fence:
            if found and _closes(found.group(1), code_fence) and not line[found.end() :].strip():
                code_fence = ""
            continue
        if found:  # a directive's fence inside a code block (a directive's own too) is text
            code_fence = found.group(1)
            continue
        if opener := _OPENER.match(line):
            colons = opener.group(1)
            if not open_colons or len(colons) < open_colons[-1]:
                open_colons.append(len(colons))
                lines[index] = _refenced(line, opener.start(1), len(colons), "~")
            continue
        closer = _CLOSER.match(line)
        if closer and open_colons and len(closer.group(1)) >= open_colons[-1]:
            open_colons.pop()
            lines[index] = _refenced(line, closer.start(1), len(closer.group(1)), "~")
    return "\n".join(lines)


def _closes(fence: str, opened: str) -> bool:
    return fence[0] == opened[0] and len(fence) >= len(opened)


def _refenced(line: str, start: int, count: int, mark: str) -> str:
    """``line`` with its fence of ``count`` characters at ``start`` written in ``mark``."""
    return line[:start] + mark * count + line[start + count :]
