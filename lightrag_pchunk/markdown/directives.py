"""MyST's directives (``:::{note}`` … ``:::``, ```` ```{code-block} python ```` … ```` ``` ````)
as the parser should read them: a literal one as a fenced block, a container's body as
Markdown.

CommonMark knows no directive. A backtick (or tilde) fence with ``{name}`` after it is a code
block to it, so a note's list and table lose their structure; a colon fence is paragraph
text, so a shell comment in a ``:::{code}`` (``# Using uv``) is a heading and the directive's
option block (``---`` / ``caption: …`` / ``---``) makes setext headings of the lines above
it. :func:`for_parser` rewrites a copy of the text for the parser only, every byte at its
offset (the walk slices the source as written, so no text changes and none is lost):

- a **literal** directive, whose body is code, data or another markup
  (:data:`LITERAL_DIRECTIVES`; a code cell's language, :data:`CELL_LANGUAGES`), is a fenced
  block: a colon fence's colons become as many tildes;
- a **container** (``note``, ``admonition``, ``tab-set``, ``figure``, ``list-table``…:
  MyST parses their body as Markdown; :data:`CONTAINER_DIRECTIVES`, a Sphinx domain's
  ``{py:function}``, and any other name fenced by colons, MyST's fence for Markdown
  bodies) has its opening line with its options and its closing fence blanked (spaces, as
  many bytes): its body is read as Markdown, and the walk keeps the blanked lines as text
  of their own (a gap between elements), so ``:::{note}`` stays in the text where the
  author wrote it; a heading in its body is its rubric (:func:`read_directives`);
- a backtick or tilde fence with a name no container has (Quarto's ```` ```{java} ````,
  ```` ```{lua} ````, a directive of an extension not known here) is a code block, as
  CommonMark reads it: a ``# comment`` in it is no heading, and its text stays whole.

Only a fence that opens a directive by name (``{name}``), up to three spaces in, outside code
blocks, changes. Pandoc's fenced divs (``::: note``) and ``:::tip`` containers are left as
they are: Markdown already; a heading in a Quarto callout (``::: {.callout-tip}``) is its
title, as a heading in a container is its rubric.
"""

from __future__ import annotations

import re

#: Directives whose body is not Markdown: code (run or shown), a file's lines, LaTeX, raw
#: output, reStructuredText, diagram sources, CSV rows, lists of names (a table of contents,
#: an autosummary), a grammar, a glossary's own term/definition syntax. Read as Markdown,
#: a comment line of their body would be a heading, an indented line a code block.
LITERAL_DIRECTIVES = frozenset(
    {
        "code", "code-block", "sourcecode", "code-cell", "literalinclude", "jupyter-execute",
        "ipython", "doctest", "testcode", "testoutput", "testsetup", "testcleanup", "plot",
        "math", "raw", "eval-rst", "parsed-literal", "productionlist", "prompt", "mermaid",
        "graphviz", "digraph", "graph", "uml", "plantuml", "tikz", "csv-table", "toctree",
        "autosummary", "glossary",
    }
)  # fmt: skip
#: Quarto's and R Markdown's code cells write their language where MyST writes a
#: directive's name (```` ```{python} ````, ```` ```{r} ````): the engines they run.
CELL_LANGUAGES = frozenset(
    {
        "r", "python", "julia", "ojs", "bash", "sh", "zsh", "sql", "js", "javascript",
        "node", "stan", "rcpp", "cpp", "c", "fortran", "go", "rust", "perl", "ruby",
        "octave", "matlab", "sas", "stata", "scala", "powershell", "css", "tex", "latex",
        "dot", "yaml", "json",
    }
)  # fmt: skip

#: Directives whose body is Markdown (docutils', Sphinx's, sphinx-design's, sphinx-proof's,
#: sphinx-exercise's, sphinx-togglebutton's): behind backticks or tildes only these are
#: containers, and a name with a colon (a domain's, MyST-NB's ``glue:figure``), any other
#: name a code block (:func:`_is_literal`).
CONTAINER_DIRECTIVES = frozenset(
    {
        "admonition", "attention", "caution", "danger", "error", "hint", "important",
        "note", "seealso", "tip", "todo", "warning", "versionadded", "versionchanged",
        "versionremoved", "deprecated", "figure", "figure-md", "image", "table",
        "list-table", "topic", "sidebar", "margin", "rubric", "epigraph", "highlights",
        "pull-quote", "compound", "container", "div", "line-block", "only", "ifconfig",
        "centered", "hlist", "include", "tab-set", "tab-item", "tabs", "tab", "group-tab",
        "card", "card-carousel", "grid", "grid-item", "grid-item-card", "dropdown",
        "article-info", "toggle", "exercise", "solution", "proof", "theorem", "lemma",
        "definition", "remark", "conjecture", "corollary", "algorithm", "criterion",
        "example", "property", "observation", "proposition", "assumption", "axiom",
        "bibliography", "footbibliography", "contents",
    }
)  # fmt: skip

#: A fence line: up to three spaces, three colons, backticks or tildes or more (group 1),
#: then what follows it (group 2). Backticks followed by another on the line open no fence
#: (CommonMark): "```make``` builds it" is a paragraph with code in it.
_FENCE = re.compile(r" {0,3}(:{3,}|`{3,}(?!.*`)|~{3,})(.*)")
#: A code fence on a list item's first line ("- ```md", "1. ```{note}", a nested item's):
#: a code block in the item as the parser reads it (group 2), closed by a fence on a line
#: of its own, indented as the item's text (group 1) and up to three spaces more.
_ITEM_FENCE = re.compile(r"( *(?:[-*+]|\d{1,9}[.)]) {1,4})(`{3,}(?!.*`)|~{3,})")
#: A code block's closing fence in a list item: its indent (group 1), its fence (group 2).
_INDENTED_FENCE = re.compile(r"( *)(`{3,}|~{3,})[ \t]*$")
#: A directive's name after its fence: ``{name}``, then its argument. A name starts with a
#: letter: Pandoc's ``{.python}``, ``{#id .class}`` and ``{=html}`` are a code block's
#: attributes, R Markdown's ``{r setup, echo=FALSE}`` a cell's.
_DIRECTIVE = re.compile(r"\{([A-Za-z][\w.:+-]*)\}")
#: Quarto's callout, a Pandoc div (``::: {.callout-note}``, ``::: callout-tip``): a heading
#: in it is its title, as a heading in a MyST container is its rubric.
_CALLOUT = re.compile(r"\s*(?:\{[^}]*\.callout(?:-[\w-]+)?[\s}]|callout(?:-[\w-]+)?\s*$)")
#: A fence's marks, then a name's brace and first letter: where a directive may open, no
#: Pandoc attribute (``{=html}``, ``{.python}``): a text without one has nothing to rewrite.
_NAMED_FENCE = re.compile(r"(?::::|```|~~~)\{[A-Za-z]")
#: An option line right after a directive's opening line (``:caption: Setup``).
_OPTION = re.compile(r" {0,3}:[\w-]+:")


def for_parser(text: str) -> str:
    """``text`` with its directives rewritten for the parser (module doc); ``text`` itself
    where it has none."""
    return read_directives(text)[0]


def read_directives(text: str) -> tuple[str, list[int]]:
    """:func:`for_parser`'s text, and where the bodies of the outermost containers that
    close lie: byte offsets into ``text``'s UTF-8, ascending, a body's start then its end (a
    heading in a body is the directive's rubric, a label: MyST makes no section of it). A
    container never closed runs to the end of the text for MyST, but more often a fence was
    forgotten or stands where this reader cannot see (in a block quote): its
    headings stay sections."""
    braced = ":::{" in text or "```{" in text or "~~~{" in text  # most texts stop here, unsearched
    if "callout" not in text and not (braced and _NAMED_FENCE.search(text)):
        return text, []
    lines = text.split("\n")
    reader = _Reader(lines)
    reader.run()
    return "\n".join(lines), _byte_offsets(lines, reader.bodies)


class _Reader:
    """One pass over the lines, rewriting them in place."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.code_fence = ""  # the open code block's fence (a literal directive's too)
        self.item_indent = -1  # a list item's text indent, when the code block opened in one
        self.literal_colons: list[int] = []  # a colon-fenced literal's colons, nested ones after
        self.containers: list[str] = []  # the open containers' fences, innermost last
        self.bodies: list[int] = []  # the outermost containers' bodies' lines (read_directives)
        self.body = 0  # the line where the open outermost container's body starts

    def run(self) -> None:
        lines = self.lines
        index = 0
        while index < len(lines):
            index = self._line(index)

    def _line(self, index: int) -> int:
        """Read the line at ``index``; the index of the next line to read."""
        line = self.lines[index]
        found = _FENCE.match(line)
        if self.literal_colons:
            self._in_literal_colons(index, found)
            return index + 1
        if self.item_indent >= 0 and self._in_item_code(line):
            return index + 1
        if self.code_fence:
            if found and _closes(found.group(1), self.code_fence) and not found.group(2).strip():
                self.code_fence = ""
            return index + 1
        if found is None:
            if item := _ITEM_FENCE.match(line):  # its lines are code, no fence of ours
                self.code_fence, self.item_indent = item[2], len(item[1])
            return index + 1
        fence, rest = found.group(1), found.group(2)
        if not rest.strip() and self._closes_container(fence, index):
            self.lines[index] = _blank(line)
            return index + 1
        if fence[0] == ":" and _CALLOUT.match(rest):  # its lines kept for the parser
            self._open(fence, index + 1)
            return index + 1
        directive = _DIRECTIVE.match(rest)
        if directive is None or _is_literal(directive.group(1), fence[0]):
            if fence[0] == ":":
                if directive is not None:  # a literal directive: a fenced block of tildes
                    self.literal_colons.append(len(fence))
                    self.lines[index] = _refenced(line, found.start(1), len(fence), "~")
            else:  # a code block, or a literal directive fenced as one
                self.code_fence = fence
            return index + 1
        end = _options_end(self.lines, index + 1)
        self._open(fence, end)
        for at in range(index, end):
            self.lines[at] = _blank(self.lines[at])
        return end

    def _in_item_code(self, line: str) -> bool:
        """Whether ``line`` is read as a line of the code block opened on a list item's first
        line (its closing fence too); a line that ends the item ends the block, and is read
        as any other."""
        if _ends_item(line, self.item_indent):
            self.code_fence, self.item_indent = "", -1
            return False
        closing = _INDENTED_FENCE.match(line)
        if (
            closing
            and len(closing[1]) <= self.item_indent + 3
            and _closes(closing[2], self.code_fence)
        ):
            self.code_fence, self.item_indent = "", -1
        return True

    def _open(self, fence: str, body: int) -> None:
        """A container opens with ``fence``, its body at line ``body``."""
        self.containers.append(fence)
        if len(self.containers) == 1:
            self.body = body

    def _closes_container(self, fence: str, index: int) -> bool:
        """Whether a bare fence closes an open container: the outermost one it can close
        (the same mark, as many or fewer) closes with those inside it, as MyST finds an outer
        directive's end before it reads the body."""
        for depth, opened in enumerate(self.containers):
            if _closes(fence, opened):
                del self.containers[depth:]
                if not depth:
                    self.bodies += (self.body, index)
                return True
        return False

    def _in_literal_colons(self, index: int, found: re.Match[str] | None) -> None:
        """A line inside a colon-fenced literal directive, read as a tilde fence."""
        if found is None:
            return
        line = self.lines[index]
        fence, rest = found.group(1), found.group(2)
        if fence[0] == "~":
            # A code fence of tildes would close the directive's tilde fence: as backticks
            # (as many) it is a line of the directive's text, as it is.
            self.lines[index] = line = _refenced(line, found.start(1), len(fence), "`")
        if self.code_fence:  # a code block inside the directive: its lines are its text
            if _closes(fence, self.code_fence) and not rest.strip():
                self.code_fence = ""
            return
        if fence[0] != ":":
            self.code_fence = fence
            return
        open_colons = self.literal_colons
        if _DIRECTIVE.match(rest):
            if len(fence) < open_colons[-1]:  # a directive nested in it, fewer colons
                open_colons.append(len(fence))
                self.lines[index] = _refenced(line, found.start(1), len(fence), "~")
        elif not rest.strip() and len(fence) >= open_colons[-1]:
            open_colons.pop()
            self.lines[index] = _refenced(line, found.start(1), len(fence), "~")


def _is_literal(name: str, mark: str) -> bool:
    """Whether the directive ``name`` (or a code cell's language) fenced by ``mark`` has a
    literal body: a literal directive's, a cell's, any but a container's behind backticks
    or tildes (a domain's directive, ``{py:function}``, is a container)."""
    name = name.lower()
    if name in LITERAL_DIRECTIVES or name in CELL_LANGUAGES:
        return True
    return mark != ":" and name not in CONTAINER_DIRECTIVES and ":" not in name


def _options_end(lines: list[str], start: int) -> int:
    """The index after a directive's options starting at ``start``: ``:name: value`` lines,
    or a YAML block between two ``---`` lines; ``start`` where there are none."""
    if start < len(lines) and lines[start].strip() == "---":
        for index in range(start + 1, len(lines)):
            if lines[index].strip() == "---":
                return index + 1
        return start
    index = start
    while index < len(lines) and _OPTION.match(lines[index]):
        index += 1
    return index


def _ends_item(line: str, indent: int) -> bool:
    """Whether ``line`` ends a list item whose text is indented by ``indent``, and the code
    block in it: text indented less (no code line continues lazily), as CommonMark reads it;
    a fence there opens a code block of its own. A tab indents to the next fourth column."""
    spaced = line.expandtabs(4)
    return bool(spaced.strip()) and len(spaced) - len(spaced.lstrip(" ")) < indent


def _byte_offsets(lines: list[str], indexes: list[int]) -> list[int]:
    """Where the lines at ``indexes`` (ascending) start in the UTF-8 of the lines joined,
    only the lines before the last one encoded."""
    offsets, at, done = [], 0, 0
    for index in indexes:
        at += sum(len(line.encode("utf-8", "surrogatepass")) + 1 for line in lines[done:index])
        offsets.append(at)
        done = index
    return offsets


def _closes(fence: str, opened: str) -> bool:
    return fence[0] == opened[0] and len(fence) >= len(opened)


def _blank(line: str) -> str:
    """As many spaces as ``line`` has bytes: a blank line at the same offsets."""
    return " " * len(line.encode("utf-8", "surrogatepass"))


def _refenced(line: str, start: int, count: int, mark: str) -> str:
    """``line`` with its fence of ``count`` characters at ``start`` written in ``mark``."""
    return line[:start] + mark * count + line[start + count :]
