"""Stage A: OMML (ECMA-376 Part 1 §22.1) -> LaTeX, one handler per math construct.

Input: an ``m:oMath`` / ``m:oMathPara`` element (Transitional names, as ``parse/xml.py`` gives
them). Output: single-line LaTeX with balanced braces, no ``<``/``>`` (written ``\\lt``/``\\gt``
as LightRAG does) so the tag stays parseable by LightRAG's ``<equation …>…</equation>`` regexes.
Unknown elements keep their text; nothing raises. Characters become LaTeX in
``parse/latex_chars.py``; the ``<equation>`` tag and block vs inline math are
``parse/equations.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import groupby

from lxml import etree

from lightrag_pchunk.parse.latex_chars import (
    ACCENTS,
    ASCII_LETTERS,
    DELIMITERS,
    FUNCTIONS,
    INTEGRALS,
    INVISIBLE,
    LIMIT_OPS,
    MATRIX_ENVIRONMENTS,
    NARY_COMMANDS,
    SCRIPT_FONTS,
    STYLE_FONTS,
    WIDE_ACCENTS,
    is_atom,
    join_latex,
    math_text,
    scripts,
    symbol_font_char,
    text_mode,
    tidy_latex,
)
from lightrag_pchunk.parse.omml_nodes import (
    SKIPPED_W,
    child_named,
    content_elements,
    prefixed_name,
    prop_flag,
    prop_value,
)
from lightrag_pchunk.parse.xml import qn

_MAX_DEPTH = 120
"""Nesting depth beyond which a subtree is kept as plain text (guards hostile input)."""

_UNESCAPED_AMP = re.compile(r"(?<!\\)&")


@dataclass(frozen=True)
class _Ctx:
    depth: int = 0
    align: bool = False  # a direct run of an m:eqArr row: "&" aligns and "#" numbers (Word's rule)
    fname: bool = False  # inside m:fName: words are function names (\sin, \operatorname{sgn})


def omml_to_latex(element: etree._Element) -> str:
    """LaTeX for an ``m:oMath`` or ``m:oMathPara`` (any element works; its math is converted).

    Several ``m:oMath`` in one ``m:oMathPara`` become the lines of one
    ``\\begin{gathered} … \\\\ … \\end{gathered}`` (Word centres each line of a math paragraph).
    """
    if prefixed_name(element) == "m:oMathPara":
        lines = [tidy_latex(_convert(child, _Ctx())) for child in content_elements(element)]
        lines = [line for line in lines if line]
        if len(lines) > 1:
            return "\\begin{gathered} " + " \\\\ ".join(lines) + " \\end{gathered}"
        return lines[0] if lines else ""
    return tidy_latex(_convert(element, _Ctx()))


def _convert(el: etree._Element, ctx: _Ctx) -> str:
    name = prefixed_name(el)
    if ctx.depth > _MAX_DEPTH:
        return math_text("".join(_plain_text(el)), align=ctx.align)
    inner = replace(ctx, depth=ctx.depth + 1)
    handler = _HANDLERS.get(name)
    if handler is not None:
        return handler(el, inner)
    if name in ("w:del", "w:moveFrom") or name.endswith("Pr"):
        return ""  # tracked deletions and properties carry no displayed math
    if name == "mc:AlternateContent":
        branch = child_named(el, "mc:Choice")
        branch = branch if branch is not None else child_named(el, "mc:Fallback")
        return _children(branch, inner) if branch is not None else ""
    return _children(el, inner)


def _children(el: etree._Element, ctx: _Ctx) -> str:
    return join_latex(_convert(child, ctx) for child in content_elements(el))


def _arg(el: etree._Element, name: str, ctx: _Ctx, *, base: bool = False) -> str:
    """The converted ``m:{name}`` child; function-name mode survives only into a base."""
    child = child_named(el, f"m:{name}")
    if child is None:
        return ""
    return tidy_latex(_children(child, ctx if base else replace(ctx, fname=False, align=False)))


def _plain_text(el: etree._Element) -> Iterator[str]:
    """Displayed text of a subtree without recursion (m:t / w:t; deletions skipped)."""
    for node in el.iter(qn("m:t"), qn("w:t")):
        if not any(prefixed_name(a).removeprefix("w:") in SKIPPED_W for a in node.iterancestors()):
            yield node.text or ""


def _run(r: etree._Element, ctx: _Ctx) -> str:
    """``m:r``: its text with ``m:rPr`` styling (``m:nor`` -> ``\\text``, ``m:sty``, ``m:scr``)."""
    texts: list[str] = []
    for child in r:
        name = prefixed_name(child)
        if name in ("m:t", "w:t"):
            texts.append(child.text or "")
        elif name == "w:sym":
            code = child.get(qn("w:char"))
            font = child.get(qn("w:font"))
            texts.append(symbol_font_char(font, code) or _hex_char(code))
        elif name == "w:tab":
            texts.append(" ")
    text = "".join(texts)
    lead = "&" if ctx.align and prop_flag(r, "m:rPr", "m:aln") else ""
    if prop_flag(r, "m:rPr", "m:nor"):
        return lead + text_mode(text) if text.strip() else lead + (" " if text else "")
    word = "".join(ch for ch in text if ch not in INVISIBLE).strip()
    if word in FUNCTIONS and (ctx.fname or prop_value(r, "m:rPr", "m:sty") == "p"):
        return lead + "\\" + word
    if ctx.fname and len(word) > 1 and word.isascii() and word.isalpha():
        return lead + f"\\operatorname{{{word}}}"
    font = SCRIPT_FONTS.get(prop_value(r, "m:rPr", "m:scr") or "") or STYLE_FONTS.get(
        prop_value(r, "m:rPr", "m:sty") or ""
    )
    if not font:
        return lead + math_text(text, align=ctx.align)
    # Style letters (and digits unless upright) only: \mathrm{=} is noise, & and # stay markup.
    out = [lead]
    for styled, group in groupby(text, key=lambda c: c in ASCII_LETTERS or _styles_digit(c, font)):
        converted = math_text("".join(group), align=ctx.align)
        out.append(f"{font}{{{converted}}}" if styled else converted)
    return join_latex(out)


def _styles_digit(ch: str, font: str) -> bool:
    return ch in "0123456789" and font != "\\mathrm"


def _hex_char(code: str | None) -> str:
    try:
        return chr(int(code or "", 16))
    except (ValueError, OverflowError):
        return ""


def _s_sub(el: etree._Element, ctx: _Ctx) -> str:
    return scripts(_arg(el, "e", ctx, base=True), _arg(el, "sub", ctx), "")


def _s_sup(el: etree._Element, ctx: _Ctx) -> str:
    return scripts(_arg(el, "e", ctx, base=True), "", _arg(el, "sup", ctx))


def _s_sub_sup(el: etree._Element, ctx: _Ctx) -> str:
    return scripts(_arg(el, "e", ctx, base=True), _arg(el, "sub", ctx), _arg(el, "sup", ctx))


def _s_pre(el: etree._Element, ctx: _Ctx) -> str:
    pre = scripts("{}", _arg(el, "sub", ctx), _arg(el, "sup", ctx))
    return join_latex([pre if pre != "{}" else "", _arg(el, "e", ctx)])


def _fraction(el: etree._Element, ctx: _Ctx) -> str:
    num, den = _arg(el, "num", ctx), _arg(el, "den", ctx)
    kind = prop_value(el, "m:fPr", "m:type") or "bar"
    if kind == "skw":
        return f"{{}}^{{{num}}}/_{{{den}}}"
    if kind == "lin":
        return (num if is_atom(num) else f"({num})") + "/" + (den if is_atom(den) else f"({den})")
    if kind == "noBar":
        return f"\\genfrac{{}}{{}}{{0pt}}{{}}{{{num}}}{{{den}}}"
    return f"\\frac{{{num}}}{{{den}}}"


def _radical(el: etree._Element, ctx: _Ctx) -> str:
    body = _arg(el, "e", ctx)
    degree = "" if prop_flag(el, "m:radPr", "m:degHide") else _arg(el, "deg", ctx)
    if not degree:
        return f"\\sqrt{{{body}}}"
    if "]" in degree:
        degree = "{" + degree + "}"
    return f"\\sqrt[{degree}]{{{body}}}"


def _nary(el: etree._Element, ctx: _Ctx) -> str:
    # An absent m:chr means an integral (§22.1.2.20).
    op = prop_value(el, "m:naryPr", "m:chr") or "∫"
    command = NARY_COMMANDS.get(op) or f"\\mathop{{{math_text(op, align=ctx.align)}}}"
    limits = prop_value(el, "m:naryPr", "m:limLoc")
    if limits == "undOvr" and op in INTEGRALS:
        command += "\\limits"
    elif limits == "subSup" and op not in INTEGRALS:
        command += "\\nolimits"
    sub = "" if prop_flag(el, "m:naryPr", "m:subHide") else _arg(el, "sub", ctx)
    sup = "" if prop_flag(el, "m:naryPr", "m:supHide") else _arg(el, "sup", ctx)
    head = command + (f"_{{{sub}}}" if sub else "") + (f"^{{{sup}}}" if sup else "")
    body = _arg(el, "e", ctx)
    return f"{head} {body}" if body else head


def _only_child(el: etree._Element | None) -> etree._Element | None:
    """The single content child of an ``m:e`` (properties ignored), else None."""
    if el is None:
        return None
    kids = list(content_elements(el))
    return kids[0] if len(kids) == 1 else None


def _delimiter(el: etree._Element, ctx: _Ctx) -> str:
    beg = prop_value(el, "m:dPr", "m:begChr")
    end = prop_value(el, "m:dPr", "m:endChr")
    sep = prop_value(el, "m:dPr", "m:sepChr")
    beg, end = ("(" if beg is None else beg), (")" if end is None else end)
    sep = "|" if sep is None else sep  # a bare m:sepChr means no separator
    items = [child for child in el if prefixed_name(child) == "m:e"]
    only = _only_child(items[0]) if len(items) == 1 else None
    only_name = prefixed_name(only)
    if only_name == "m:m" and (beg, end) in MATRIX_ENVIRONMENTS:
        return _matrix(only, ctx, MATRIX_ENVIRONMENTS[(beg, end)])
    if only_name == "m:eqArr" and beg == "{" and not end:
        return _array(only, ctx, "cases")
    if (
        only_name == "m:f"
        and (beg, end) == ("(", ")")
        and prop_value(only, "m:fPr", "m:type") == "noBar"
    ):
        return f"\\binom{{{_arg(only, 'num', ctx)}}}{{{_arg(only, 'den', ctx)}}}"
    plain = replace(ctx, fname=False, align=False)
    separator = "\\mid " if sep == "|" else math_text(sep, align=False) or " "
    inner = separator.join(tidy_latex(_children(item, plain)) for item in items)
    if beg in DELIMITERS and end in DELIMITERS:
        return join_latex(["\\left" + DELIMITERS[beg], inner, "\\right" + DELIMITERS[end]])
    return join_latex([math_text(beg, align=False), inner, math_text(end, align=False)])


def _matrix(el: etree._Element, ctx: _Ctx, env: str = "matrix") -> str:
    plain = replace(ctx, fname=False, align=False)
    rows = []
    for row in el:
        if prefixed_name(row) == "m:mr":
            cells = [tidy_latex(_children(c, plain)) for c in row if prefixed_name(c) == "m:e"]
            rows.append(" & ".join(cells))
    return f"\\begin{{{env}}} " + " \\\\ ".join(rows) + f" \\end{{{env}}}"


def _array(el: etree._Element, ctx: _Ctx, env: str | None = None) -> str:
    """``m:eqArr``: ``aligned`` rows when they carry ``&`` alignment points, else ``gathered``."""
    aligned = replace(ctx, fname=False, align=True)
    rows = [tidy_latex(_children(row, aligned)) for row in el if prefixed_name(row) == "m:e"]
    env = env or ("aligned" if any(_UNESCAPED_AMP.search(row) for row in rows) else "gathered")
    return f"\\begin{{{env}}} " + " \\\\ ".join(rows) + f" \\end{{{env}}}"


def _accent(el: etree._Element, ctx: _Ctx) -> str:
    mark = prop_value(el, "m:accPr", "m:chr")
    mark = "\u0302" if mark is None else mark  # the default accent is a circumflex (§22.1.2.20)
    body = _arg(el, "e", ctx)
    command = ACCENTS.get(mark)
    if command is None:
        return f"\\overset{{{math_text(mark, align=ctx.align)}}}{{{body}}}" if mark else body
    if not is_atom(body):
        command = WIDE_ACCENTS.get(command, command)
    return f"{command}{{{body}}}"


def _bar(el: etree._Element, ctx: _Ctx) -> str:
    # Word (and ISO 29500) default the bar to the bottom, not the top ECMA-376 1st ed. named.
    top = prop_value(el, "m:barPr", "m:pos") == "top"
    return ("\\overline{" if top else "\\underline{") + _arg(el, "e", ctx) + "}"


def _group_char(el: etree._Element, ctx: _Ctx) -> str:
    mark = prop_value(el, "m:groupChrPr", "m:chr")
    mark = "⏟" if mark is None else mark
    top = prop_value(el, "m:groupChrPr", "m:pos") == "top"
    body = _arg(el, "e", ctx)
    if not mark:
        return body
    if mark in ("⏞", "⏜", "⎴"):
        return f"\\overbrace{{{body}}}"
    if mark in ("⏟", "⏝", "⎵"):
        return f"\\underbrace{{{body}}}"
    symbol = math_text(mark, align=False)
    return f"\\{'over' if top else 'under'}set{{{symbol}}}{{{body}}}"


def _limit(el: etree._Element, ctx: _Ctx, *, lower: bool) -> str:
    base = _arg(el, "e", ctx, base=True)
    lim = _arg(el, "lim", ctx)
    if not lim:
        return base
    if base in FUNCTIONS:
        base = "\\" + base  # "lim" typed without the function style
    script = "_" if lower else "^"
    brace = "\\underbrace{" if lower else "\\overbrace{"
    if base in LIMIT_OPS or (base.startswith(brace) and is_atom(base)):
        return f"{base}{script}{{{lim}}}"
    operator = "\\operatorname{"
    if base.startswith(operator) and is_atom(base):
        return "\\operatorname*{" + base[len(operator) :] + f"{script}{{{lim}}}"
    return f"\\{'under' if lower else 'over'}set{{{lim}}}{{{base}}}"


def _function(el: etree._Element, ctx: _Ctx) -> str:
    name = _arg(el, "fName", replace(ctx, fname=True), base=True)
    body = _arg(el, "e", ctx)
    return f"{name} {body}" if name and body else name or body


def _border_box(el: etree._Element, ctx: _Ctx) -> str:
    body = _arg(el, "e", ctx)
    sides = ("m:hideTop", "m:hideBot", "m:hideLeft", "m:hideRight")
    if all(prop_flag(el, "m:borderBoxPr", side) for side in sides):
        return body
    return f"\\boxed{{{body}}}"


def _phantom(el: etree._Element, ctx: _Ctx) -> str:
    body = _arg(el, "e", ctx)
    if prop_value(el, "m:phantPr", "m:show") is None or prop_flag(el, "m:phantPr", "m:show"):
        return body  # shown phantoms only change spacing
    if prop_flag(el, "m:phantPr", "m:zeroWid"):
        return f"\\vphantom{{{body}}}"
    if prop_flag(el, "m:phantPr", "m:zeroAsc") and prop_flag(el, "m:phantPr", "m:zeroDesc"):
        return f"\\hphantom{{{body}}}"
    return f"\\phantom{{{body}}}"


def _word_run(el: etree._Element, ctx: _Ctx) -> str:
    """A ``w:r`` inside math is ordinary text."""
    text = "".join(child.text or "" for child in el if prefixed_name(child) == "w:t")
    return text_mode(text) if text.strip() else (" " if text else "")


_HANDLERS = {
    "m:r": _run,
    "m:f": _fraction,
    "m:sSub": _s_sub,
    "m:sSup": _s_sup,
    "m:sSubSup": _s_sub_sup,
    "m:sPre": _s_pre,
    "m:rad": _radical,
    "m:nary": _nary,
    "m:d": _delimiter,
    "m:m": _matrix,
    "m:eqArr": _array,
    "m:acc": _accent,
    "m:bar": _bar,
    "m:groupChr": _group_char,
    "m:limLow": lambda el, ctx: _limit(el, ctx, lower=True),
    "m:limUpp": lambda el, ctx: _limit(el, ctx, lower=False),
    "m:func": _function,
    "m:borderBox": _border_box,
    "m:phant": _phantom,
    "w:r": _word_run,
    "m:t": lambda el, ctx: math_text(el.text or "", align=ctx.align),
    "w:t": lambda el, ctx: text_mode(el.text) if (el.text or "").strip() else "",
}
