"""Stage A: OMML (ECMA-376 Part 1 §22.1) -> LaTeX, and the one-line ``<equation>`` tag.

Input: an ``m:oMath`` / ``m:oMathPara`` element (Transitional names, as ``parse/xml.py`` gives
them). Output: single-line LaTeX with balanced braces, no ``<``/``>`` (written ``\\lt``/``\\gt``
as LightRAG does) so the tag stays parseable by LightRAG's ``<equation …>…</equation>`` regexes.
Unknown elements keep their text; nothing raises. Block vs inline: a paragraph whose only visible
content is math holds block equations (one tag per math element, each on its own line, with an
id and an ``equations.json`` entry); math inside text is inline (no id, not in the sidecar), the
rule LightRAG's writer applies (upstream facts §5.2). See docs/equations-and-drawings.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import groupby

from lxml import etree

from lightrag_pchunk.parse.xml import NS, qn

_M = "{" + NS["m"] + "}"
_W = "{" + NS["w"] + "}"
_MC = "{" + NS["mc"] + "}"
_M_VAL = qn("m:val")

_MAX_DEPTH = 120
"""Nesting depth beyond which a subtree is kept as plain text (guards hostile input)."""

# fmt: off
# Greek letters and symbols that have a LaTeX command: "character command" pairs.
_COMMANDS_SPEC = """
        α alpha β beta γ gamma δ delta ϵ epsilon ε varepsilon ζ zeta η eta θ theta ϑ vartheta
        ι iota κ kappa ϰ varkappa λ lambda μ mu ν nu ξ xi π pi ϖ varpi ρ rho ϱ varrho σ sigma
        ς varsigma τ tau υ upsilon φ varphi ϕ phi χ chi ψ psi ω omega Γ Gamma Δ Delta ∆ Delta
        Θ Theta Λ Lambda Ξ Xi Π Pi Σ Sigma Υ Upsilon ϒ Upsilon Φ Phi Ψ Psi Ω Omega Ω Omega
        ≤ leq ≥ geq ≦ leqq ≧ geqq ⩽ leqslant ⩾ geqslant ≠ neq ± pm ∓ mp × times ÷ div · cdot
        ⋅ cdot ∙ bullet • bullet ∘ circ ∞ infty ∂ partial ∇ nabla → rightarrow ← leftarrow
        ↔ leftrightarrow ⇒ Rightarrow ⇐ Leftarrow ⇔ Leftrightarrow ↦ mapsto ⟶ longrightarrow
        ⟵ longleftarrow ⟹ Longrightarrow ⟸ Longleftarrow ⟺ Longleftrightarrow ↑ uparrow
        ↓ downarrow ⇑ Uparrow ⇓ Downarrow ↗ nearrow ↘ searrow ⇌ rightleftharpoons ∈ in
        ∉ notin ∋ ni ⊂ subset ⊃ supset ⊆ subseteq ⊇ supseteq ⊊ subsetneq ⊋ supsetneq ∪ cup
        ∩ cap ⊎ uplus ⊔ sqcup ⊓ sqcap ∧ wedge ∨ vee ¬ neg ∀ forall ∃ exists ∄ nexists
        ∅ emptyset ≈ approx ≡ equiv ≅ cong ∼ sim ≃ simeq ∝ propto ≪ ll ≫ gg ≺ prec ≻ succ
        ⪯ preceq ⪰ succeq ⊥ perp ∥ parallel ∦ nparallel ∠ angle ∡ measuredangle ⊕ oplus
        ⊖ ominus ⊗ otimes ⊘ oslash ⊙ odot † dagger ‡ ddagger ∗ ast ⋆ star ∖ setminus ∣ mid
        ∤ nmid ⟨ langle ⟩ rangle 〈 langle 〉 rangle ⌊ lfloor ⌋ rfloor ⌈ lceil ⌉ rceil
        ∑ sum ∏ prod ∐ coprod ∫ int ∬ iint ∭ iiint ∮ oint √ surd ∴ therefore ∵ because
        ≜ triangleq … ldots ⋯ cdots ⋮ vdots ⋱ ddots ′ prime ℏ hbar ℓ ell ℵ aleph ℘ wp ℑ Im
        ℜ Re ⊢ vdash ⊨ models ⊤ top ◊ lozenge ⋄ diamond △ triangle ▽ triangledown □ square
        ♣ clubsuit ♦ diamondsuit ♥ heartsuit ♠ spadesuit ≺ prec ⋈ bowtie ≍ asymp ≐ doteq
        ⊲ lhd ⊳ rhd ∔ dotplus ⋉ ltimes ⋊ rtimes ↕ updownarrow ⇕ Updownarrow ⟷ longleftrightarrow
        ↖ nwarrow ↙ swarrow ↚ nleftarrow ↛ nrightarrow ↮ nleftrightarrow ⇍ nLeftarrow
        ⇏ nRightarrow ⇎ nLeftrightarrow ⇠ dashleftarrow ⇢ dashrightarrow ⊸ multimap
        ↭ leftrightsquigarrow ↝ rightsquigarrow ⟼ longmapsto ↩ hookleftarrow ↪ hookrightarrow
        ↼ leftharpoonup ↽ leftharpoondown ⇀ rightharpoonup ⇁ rightharpoondown ↿ upharpoonleft
        ↾ upharpoonright ⇃ downharpoonleft ⇂ downharpoonright ⇋ leftrightharpoons
        ⇇ leftleftarrows ⇉ rightrightarrows ⇈ upuparrows ⇊ downdownarrows ⇆ leftrightarrows
        ⇄ rightleftarrows ↫ looparrowleft ↬ looparrowright ↢ leftarrowtail ↣ rightarrowtail
        ↰ Lsh ↱ Rsh ⇚ Lleftarrow ⇛ Rrightarrow ↞ twoheadleftarrow ↠ twoheadrightarrow
        ↶ curvearrowleft ↷ curvearrowright ↺ circlearrowleft ↻ circlearrowright ≮ nless ≰ nleq
        ≯ ngtr ≱ ngeq ≇ ncong ≼ preccurlyeq ≽ succcurlyeq ⊏ sqsubset ⊐ sqsupset ⊑ sqsubseteq
        ⊒ sqsupseteq ⊣ dashv ⋂ bigcap ⋃ bigcup ⋀ bigwedge ⋁ bigvee ⨀ bigodot ⨂ bigotimes
        ⨁ bigoplus ⨄ biguplus ⨆ bigsqcup ∯ oiint ∰ oiiint ⨌ iiiint ∝ propto ℵ aleph
        """
_COMMANDS = dict(
    zip(_COMMANDS_SPEC.split()[::2], ("\\" + n for n in _COMMANDS_SPEC.split()[1::2]), strict=True)
)
_LITERALS = {
    "−": "-", "∕": "/", "°": "{}^{\\circ}", "″": "\\prime\\prime", "‴": "\\prime\\prime\\prime",
    "≔": ":=", "≝": "\\stackrel{def}{=}",
    "≉": "\\not\\approx", "≢": "\\not\\equiv", "⊄": "\\not\\subset", "⊅": "\\not\\supset",
    "ℂ": "\\mathbb{C}", "ℍ": "\\mathbb{H}", "ℕ": "\\mathbb{N}", "ℙ": "\\mathbb{P}",
    "ℚ": "\\mathbb{Q}", "ℝ": "\\mathbb{R}", "ℤ": "\\mathbb{Z}", "ℎ": "h", "ℯ": "e",
    "ℒ": "\\mathcal{L}", "ℋ": "\\mathcal{H}", "ℱ": "\\mathcal{F}", "ℰ": "\\mathcal{E}",
    "ℳ": "\\mathcal{M}", "ℬ": "\\mathcal{B}", "ℛ": "\\mathcal{R}", "ℐ": "\\mathcal{I}",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Χ": "X", "ο": "o", "\u00a0": "\\ ", "\u2009": "\\,",
    "\u2006": "\\,", "\u205f": "\\:", "\u2005": "\\:", "\u2004": "\\;", "\u2003": "\\quad",
    "\u2002": "\\enspace", "\u2001": "\\quad",
}
_ESCAPES = {
    "\\": "\\backslash", "{": "\\{", "}": "\\}", "#": "\\#", "$": "\\$", "%": "\\%", "&": "\\&",
    "_": "\\_", "^": "\\hat{}", "~": "\\sim", "<": "\\lt", ">": "\\gt",
}
_TEXT_ESCAPES = {
    "\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "#": "\\#", "$": "\\$", "%": "\\%",
    "&": "\\&", "_": "\\_", "^": "\\textasciicircum{}", "~": "\\textasciitilde{}",
    "<": "\\textless{}", ">": "\\textgreater{}",
}
_INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff")

# Adobe Symbol font (w:sym w:font="Symbol"), codes 0x20-0x7E and 0xA1-0xFE, to Unicode.
_SYMBOL_LOW = (" !∀#∃%&∋()∗+,−./0123456789:;<=>?≅ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ[∴]⊥_‾"
               "αβχδεφγηιϕκλμνοπθρστυϖωξψζ{|}∼")
_SYMBOL_HIGH = ("ϒ′≤⁄∞ƒ♣♦♥♠↔←↑→↓°±″≥×∝∂•÷≠≡≈…⏐⎯↵ℵℑℜ℘⊗⊕∅∩∪⊃⊇⊄⊂⊆∈∉∠∇®©™∏√⋅¬∧∨⇔⇐⇑⇒⇓◊〈®©™∑"
                "⎛⎜⎝⎡⎢⎣⎧⎨⎩⎪\uf8ff〉∫⌠⎮⌡⎞⎟⎠⎤⎥⎦⎫⎬⎭")

_FUNCTION_NAMES = """sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth log ln lg exp
    lim liminf limsup max min sup inf det dim gcd hom ker arg deg Pr"""
_FUNCTIONS = frozenset(_FUNCTION_NAMES.split())
_LIMIT_OPS = frozenset({"\\lim", "\\liminf", "\\limsup", "\\max", "\\min", "\\sup", "\\inf",
                        "\\det", "\\gcd", "\\Pr"})
_NARY = {
    "∑": "\\sum", "∏": "\\prod", "∐": "\\coprod", "⋃": "\\bigcup", "⋂": "\\bigcap",
    "⋁": "\\bigvee", "⋀": "\\bigwedge", "⨁": "\\bigoplus", "⨂": "\\bigotimes", "⨀": "\\bigodot",
    "⨄": "\\biguplus", "⨆": "\\bigsqcup", "∫": "\\int", "∬": "\\iint", "∭": "\\iiint",
    "⨌": "\\iiiint", "∮": "\\oint", "∯": "\\oiint", "∰": "\\oiiint", "∱": "\\int", "∲": "\\oint",
    "∳": "\\oint",
}
_INTEGRALS = frozenset("∫∬∭⨌∮∯∰∱∲∳")
_ACCENTS = {
    "\u0300": "\\grave", "`": "\\grave", "\u0301": "\\acute", "´": "\\acute", "\u0302": "\\hat",
    "^": "\\hat", "ˆ": "\\hat", "\u0303": "\\tilde", "~": "\\tilde", "˜": "\\tilde",
    "\u0304": "\\bar", "¯": "\\bar", "\u0305": "\\overline", "‾": "\\overline",
    "\u0306": "\\breve", "˘": "\\breve", "\u0307": "\\dot", "˙": "\\dot", "\u0308": "\\ddot",
    "¨": "\\ddot", "\u030c": "\\check", "ˇ": "\\check", "\u20d7": "\\vec", "→": "\\vec",
    "\u20d6": "\\overleftarrow", "←": "\\overleftarrow", "\u20e1": "\\overleftrightarrow",
    "↔": "\\overleftrightarrow", "\u20db": "\\dddot", "\u20dc": "\\ddddot",
    "\u20d0": "\\overleftharpoon", "\u20d1": "\\overrightharpoon",
}
_WIDE_ACCENTS = {"\\hat": "\\widehat", "\\tilde": "\\widetilde", "\\bar": "\\overline",
                 "\\vec": "\\overrightarrow"}
_DELIMS = {
    "(": "(", ")": ")", "[": "[", "]": "]", "{": "\\{", "}": "\\}", "|": "|", "‖": "\\|",
    "⟨": "\\langle", "〈": "\\langle", "⟩": "\\rangle", "〉": "\\rangle", "⌊": "\\lfloor",
    "⌋": "\\rfloor", "⌈": "\\lceil", "⌉": "\\rceil", "/": "/", "\\": "\\backslash", "": ".",
    "↑": "\\uparrow", "↓": "\\downarrow",
}
_MATRIX_ENVS = {("(", ")"): "pmatrix", ("[", "]"): "bmatrix", ("{", "}"): "Bmatrix",
                ("|", "|"): "vmatrix", ("‖", "‖"): "Vmatrix"}
_SCRIPT_FONTS = {"script": "\\mathcal", "fraktur": "\\mathfrak", "double-struck": "\\mathbb",
                 "sans-serif": "\\mathsf", "monospace": "\\mathtt"}
_STYLE_FONTS = {"p": "\\mathrm", "b": "\\mathbf", "bi": "\\boldsymbol"}
_ALPHANUM_FONTS = (("DOUBLE-STRUCK", "\\mathbb"), ("FRAKTUR", "\\mathfrak"),
                   ("SCRIPT", "\\mathcal"), ("SANS-SERIF", "\\mathsf"), ("MONOSPACE", "\\mathtt"),
                   ("BOLD ITALIC", "\\boldsymbol"), ("BOLD", "\\mathbf"))
_OFF = frozenset({"0", "off", "false"})
_SKIPPED_W = frozenset({"del", "moveFrom", "delText", "instrText", "delInstrText"})
_ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_UNESCAPED_AMP = re.compile(r"(?<!\\)&")
_SPACES = re.compile(r"\s+")
# fmt: on


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
    if _name(element) == "m:oMathPara":
        lines = [_tidy(_convert(child, _Ctx())) for child in _elements(element)]
        lines = [line for line in lines if line]
        if len(lines) > 1:
            return "\\begin{gathered} " + " \\\\ ".join(lines) + " \\end{gathered}"
        return lines[0] if lines else ""
    return _tidy(_convert(element, _Ctx()))


def is_block_math(p: etree._Element) -> bool:
    """True when a ``w:p`` holds math and no other visible content (text, tab-free runs, images).

    Such a paragraph renders as its own display line, so each of its math elements becomes a
    block ``<equation id=…>`` on its own line, as LightRAG writes a tag alone on its line.
    """
    has_math = False
    for node, is_math in _walk_paragraph(p):
        if is_math:
            has_math = True
        elif _is_visible(node):
            return False
    return has_math


def block_equations(p: etree._Element) -> list[str]:
    """LaTeX of each top-level math element of a paragraph, in document order, empty ones dropped.

    An ``m:oMathPara`` gives one entry (its lines gathered); sibling ``m:oMath`` give one each.
    """
    found = (omml_to_latex(node) for node, is_math in _walk_paragraph(p) if is_math)
    return [latex for latex in found if latex]


def escape_attr(value: str) -> str:
    """An attribute value as LightRAG writes it (``&amp; &lt; &gt; &quot;``), on one line."""
    flat = _SPACES.sub(" ", str(value)).strip()
    return (
        flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def equation_body(latex: str) -> str:
    """The tag body: one line, ``<``/``>`` as ``\\lt``/``\\gt``, so ``</equation>`` can't occur."""
    flat = _SPACES.sub(" ", latex).strip()
    return flat.replace("<", "\\lt ").replace(">", "\\gt ")


def equation_tag(latex: str, eq_id: str | None = None, caption: str | None = None) -> str:
    """``<equation id="…" format="latex" caption="…">LATEX</equation>``; no id for inline math.

    Attribute order and escaping follow LightRAG's writer; the body is written raw, as LightRAG
    does, after :func:`equation_body` made it single-line and free of angle brackets.
    """
    id_attr = f' id="{escape_attr(eq_id)}"' if eq_id else ""
    caption_attr = f' caption="{escape_attr(caption)}"' if caption else ""
    return f'<equation{id_attr} format="latex"{caption_attr}>{equation_body(latex)}</equation>'


def equation_record(eq_id: str, latex: str, caption: str = "") -> dict:
    """An ``equations.json`` item in LightRAG's field order; the walk fills blockid and headings."""
    return {
        "id": eq_id,
        "blockid": "",
        "heading": "",
        "parent_headings": [],
        "format": "latex",
        "content": equation_body(latex),
        "caption": caption,
        "footnotes": [],
    }


def symbol_font_char(font: str | None, code: str | None) -> str | None:
    """The Unicode character of a Symbol-font ``w:sym`` (``w:char`` hex: ``F0xx`` or ``xx``)."""
    if not font or not code or font.strip().lower() != "symbol":
        return None
    try:
        value = int(code, 16)
    except ValueError:
        return None
    value = value - 0xF000 if value >= 0xF000 else value
    if 0x20 <= value <= 0x7E:
        return _SYMBOL_LOW[value - 0x20]
    if 0xA1 <= value <= 0xFE:
        return _SYMBOL_HIGH[value - 0xA1]
    return None


def _name(el: object) -> str:
    """``"m:f"``, ``"w:r"``, ``"mc:Choice"``; ``""`` for comments, PIs and other namespaces."""
    tag = getattr(el, "tag", None)
    if not isinstance(tag, str):
        return ""
    for prefix, ns in (("m", _M), ("w", _W), ("mc", _MC)):
        if tag.startswith(ns):
            return f"{prefix}:{tag[len(ns) :]}"
    return ""


def _elements(el: etree._Element) -> Iterator[etree._Element]:
    """Child elements, without comments, processing instructions and property (``*Pr``) elements."""
    for child in el:
        if isinstance(child.tag, str) and not child.tag.endswith("Pr"):
            yield child


def _child(el: etree._Element, name: str) -> etree._Element | None:
    for child in el:
        if _name(child) == name:
            return child
    return None


def _prop(el: etree._Element, pr: str, prop: str) -> str | None:
    """``m:{pr}/m:{prop}/@m:val`` of ``el``: None when the property is absent, ``""`` when bare."""
    props = _child(el, pr)
    node = _child(props, prop) if props is not None else None
    if node is None:
        return None
    return node.get(_M_VAL, node.get("val", ""))


def _flag(el: etree._Element, pr: str, prop: str) -> bool:
    """An ST_OnOff property: present and not "0"/"off"/"false" (a bare element is on)."""
    value = _prop(el, pr, prop)
    return value is not None and value.lower() not in _OFF


def _convert(el: etree._Element, ctx: _Ctx) -> str:
    name = _name(el)
    if ctx.depth > _MAX_DEPTH:
        return _math_text("".join(_plain_text(el)), ctx)
    inner = replace(ctx, depth=ctx.depth + 1)
    handler = _HANDLERS.get(name)
    if handler is not None:
        return handler(el, inner)
    if name in ("w:del", "w:moveFrom") or name.endswith("Pr"):
        return ""  # tracked deletions and properties carry no displayed math
    if name == "mc:AlternateContent":
        branch = _child(el, "mc:Choice")
        branch = branch if branch is not None else _child(el, "mc:Fallback")
        return _children(branch, inner) if branch is not None else ""
    return _children(el, inner)


def _children(el: etree._Element, ctx: _Ctx) -> str:
    return _cat(_convert(child, ctx) for child in _elements(el))


def _arg(el: etree._Element, name: str, ctx: _Ctx, *, base: bool = False) -> str:
    """The converted ``m:{name}`` child; function-name mode survives only into a base."""
    child = _child(el, f"m:{name}")
    if child is None:
        return ""
    return _tidy(_children(child, ctx if base else replace(ctx, fname=False, align=False)))


def _cat(parts: Iterable[str]) -> str:
    """Concatenate LaTeX pieces, adding a space where a control word would swallow a letter."""
    out: list[str] = []
    for part in parts:
        if not part:
            continue
        if out and part[0].isascii() and part[0].isalpha() and _ends_in_control_word(out[-1]):
            out.append(" ")
        out.append(part)
    return "".join(out)


def _ends_in_control_word(text: str) -> bool:
    start = len(text.rstrip(_ASCII_LETTERS))
    if start == len(text) or start == 0 or text[start - 1] != "\\":
        return False
    slashes = start - len(text[:start].rstrip("\\"))
    return slashes % 2 == 1  # "\\\\abc" is a line break followed by letters


def _tidy(latex: str) -> str:
    return re.sub(r" {2,}", " ", latex).strip()


def _plain_text(el: etree._Element) -> Iterator[str]:
    """Displayed text of a subtree without recursion (m:t / w:t; deletions skipped)."""
    for node in el.iter(qn("m:t"), qn("w:t")):
        if not any(_name(a).removeprefix("w:") in _SKIPPED_W for a in node.iterancestors()):
            yield node.text or ""


def _walk_paragraph(p: etree._Element) -> Iterator[tuple[etree._Element, bool]]:
    """Nodes of a ``w:p`` in document order as (node, is_top_level_math); math not descended."""
    stack = list(reversed(list(_elements(p))))
    while stack:
        node = stack.pop()
        name = _name(node)
        if name in ("m:oMath", "m:oMathPara"):
            yield node, True
            continue
        if name.startswith("w:") and name[2:] in _SKIPPED_W:
            continue  # tracked deletions and field codes are not displayed
        yield node, False
        branch = _child(node, "mc:Choice") if name == "mc:AlternateContent" else None
        stack.extend(reversed([branch] if branch is not None else list(_elements(node))))


def _is_visible(node: etree._Element) -> bool:
    name = _name(node)
    if name == "w:t":
        return bool((node.text or "").strip())
    return name in (
        "w:drawing",
        "w:pict",
        "w:object",
        "w:sym",
        "w:footnoteReference",
        "w:endnoteReference",
        "w:noBreakHyphen",
        "w:ptab",
    )


def _run(r: etree._Element, ctx: _Ctx) -> str:
    """``m:r``: its text with ``m:rPr`` styling (``m:nor`` -> ``\\text``, ``m:sty``, ``m:scr``)."""
    texts: list[str] = []
    for child in r:
        name = _name(child)
        if name in ("m:t", "w:t"):
            texts.append(child.text or "")
        elif name == "w:sym":
            code = child.get(qn("w:char"))
            font = child.get(qn("w:font"))
            texts.append(symbol_font_char(font, code) or _hex_char(code))
        elif name == "w:tab":
            texts.append(" ")
    text = "".join(texts)
    lead = "&" if ctx.align and _flag(r, "m:rPr", "m:aln") else ""
    if _flag(r, "m:rPr", "m:nor"):
        return lead + _text_mode(text) if text.strip() else lead + (" " if text else "")
    word = "".join(ch for ch in text if ch not in _INVISIBLE).strip()
    if word in _FUNCTIONS and (ctx.fname or _prop(r, "m:rPr", "m:sty") == "p"):
        return lead + "\\" + word
    if ctx.fname and len(word) > 1 and word.isascii() and word.isalpha():
        return lead + f"\\operatorname{{{word}}}"
    font = _SCRIPT_FONTS.get(_prop(r, "m:rPr", "m:scr") or "") or _STYLE_FONTS.get(
        _prop(r, "m:rPr", "m:sty") or ""
    )
    if not font:
        return lead + _math_text(text, ctx)
    # Style letters (and digits unless upright) only: \mathrm{=} is noise, & and # stay markup.
    out = [lead]
    for styled, group in groupby(text, key=lambda c: c in _ASCII_LETTERS or _styles_digit(c, font)):
        converted = _math_text("".join(group), ctx)
        out.append(f"{font}{{{converted}}}" if styled else converted)
    return _cat(out)


def _styles_digit(ch: str, font: str) -> bool:
    return ch in "0123456789" and font != "\\mathrm"


def _hex_char(code: str | None) -> str:
    try:
        return chr(int(code or "", 16))
    except (ValueError, OverflowError):
        return ""


def _text_mode(text: str) -> str:
    body = "".join(_TEXT_ESCAPES.get(ch, ch) for ch in _SPACES.sub(" ", text))
    return f"\\text{{{body}}}"


def _math_text(text: str, ctx: _Ctx) -> str:
    """Literal math text: symbols -> commands, specials escaped, other scripts in ``\\text``."""
    parts: list[str] = []
    script: list[str] = []
    for ch in text:
        if _is_script_char(ch) or (script and (ch == " " or unicodedata.combining(ch))):
            script.append(ch)
            continue
        if script:
            parts.append(_text_mode("".join(script).rstrip()))
            script.clear()
        parts.append(_math_char(ch, ctx))
    if script:
        parts.append(_text_mode("".join(script).rstrip()))
    return _cat(parts)


def _math_char(ch: str, ctx: _Ctx) -> str:
    if ctx.align and ch == "&":
        return "&"
    if ctx.align and ch == "#":
        return "\\qquad "  # Word's equation-number separator in an equation-array row
    if ch.isspace():
        return _LITERALS.get(ch, " ")
    if ch in _INVISIBLE:
        return ""
    mapped = _ESCAPES.get(ch) or _COMMANDS.get(ch) or _LITERALS.get(ch)
    if mapped:
        return mapped
    if "\U0001d400" <= ch <= "\U0001d7ff":
        return _math_alphanumeric(ch, ctx)
    return ch


def _is_script_char(ch: str) -> bool:
    """Letters of scripts LaTeX math has no glyphs for (CJK, Cyrillic, Arabic…) go in ``\\text``."""
    if ch < "\u0400" or ch in _COMMANDS or ch in _LITERALS or "\U0001d400" <= ch <= "\U0001d7ff":
        return False
    category = unicodedata.category(ch)
    return category[0] in "LM" or (category[0] == "P" and ch >= "\u3000")


def _math_alphanumeric(ch: str, ctx: _Ctx) -> str:
    """U+1D400 block (𝐀, 𝔸, 𝒜…) -> base letter under its font command."""
    name = unicodedata.name(ch, "")
    words = name.removeprefix("MATHEMATICAL ").split()
    if len(words) < 2:
        return ch
    style = " ".join(w for w in words[:-1] if w not in ("CAPITAL", "SMALL", "DIGIT"))
    kind, letter = words[-2], words[-1]
    if kind == "DIGIT":
        base = str(unicodedata.digit(ch, 0))
    elif len(letter) == 1:
        base = letter if kind == "CAPITAL" else letter.lower()
    else:
        greek = f"GREEK {'CAPITAL' if kind == 'CAPITAL' else 'SMALL'} LETTER {letter}"
        try:
            base = _math_char(unicodedata.lookup(greek), ctx)
        except KeyError:
            return ch
    font = next((cmd for key, cmd in _ALPHANUM_FONTS if key in style), "")
    return f"{font}{{{base}}}" if font else base


def _is_atom(latex: str) -> bool:
    """One char, one control sequence (with its braced arguments) or one braced group."""
    if len(latex) == 1:
        return latex != " "
    if latex.startswith("{"):
        return _group_end(latex, 0) == len(latex) - 1
    match = re.match(r"\\(?:[A-Za-z]+|.)", latex)
    if match is None:
        return False
    end = match.end()
    while end < len(latex) and latex[end] == "{":
        end = _group_end(latex, end) + 1
    return end == len(latex)


def _group_end(latex: str, start: int) -> int:
    """Index of the ``}`` closing the group opened at ``start`` (escapes respected); -1 if none."""
    depth = 0
    i = start
    while i < len(latex):
        ch = latex[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _base(latex: str) -> str:
    return latex if _is_atom(latex) else "{" + latex + "}"


def _scripts(base: str, sub: str, sup: str) -> str:
    if not sub and not sup:
        return base
    out = _base(base)
    if sub:
        out += "_{" + sub + "}"
    if sup:
        out += "^{" + sup + "}"
    return out


def _s_sub(el: etree._Element, ctx: _Ctx) -> str:
    return _scripts(_arg(el, "e", ctx, base=True), _arg(el, "sub", ctx), "")


def _s_sup(el: etree._Element, ctx: _Ctx) -> str:
    return _scripts(_arg(el, "e", ctx, base=True), "", _arg(el, "sup", ctx))


def _s_sub_sup(el: etree._Element, ctx: _Ctx) -> str:
    return _scripts(_arg(el, "e", ctx, base=True), _arg(el, "sub", ctx), _arg(el, "sup", ctx))


def _s_pre(el: etree._Element, ctx: _Ctx) -> str:
    pre = _scripts("{}", _arg(el, "sub", ctx), _arg(el, "sup", ctx))
    return _cat([pre if pre != "{}" else "", _arg(el, "e", ctx)])


def _fraction(el: etree._Element, ctx: _Ctx) -> str:
    num, den = _arg(el, "num", ctx), _arg(el, "den", ctx)
    kind = _prop(el, "m:fPr", "m:type") or "bar"
    if kind == "skw":
        return f"{{}}^{{{num}}}/_{{{den}}}"
    if kind == "lin":
        return (num if _is_atom(num) else f"({num})") + "/" + (den if _is_atom(den) else f"({den})")
    if kind == "noBar":
        return f"\\genfrac{{}}{{}}{{0pt}}{{}}{{{num}}}{{{den}}}"
    return f"\\frac{{{num}}}{{{den}}}"


def _radical(el: etree._Element, ctx: _Ctx) -> str:
    body = _arg(el, "e", ctx)
    degree = "" if _flag(el, "m:radPr", "m:degHide") else _arg(el, "deg", ctx)
    if not degree:
        return f"\\sqrt{{{body}}}"
    if "]" in degree:
        degree = "{" + degree + "}"
    return f"\\sqrt[{degree}]{{{body}}}"


def _nary(el: etree._Element, ctx: _Ctx) -> str:
    op = _prop(el, "m:naryPr", "m:chr") or "∫"  # an absent m:chr means an integral (§22.1.2.20)
    command = _NARY.get(op) or f"\\mathop{{{_math_text(op, ctx)}}}"
    limits = _prop(el, "m:naryPr", "m:limLoc")
    if limits == "undOvr" and op in _INTEGRALS:
        command += "\\limits"
    elif limits == "subSup" and op not in _INTEGRALS:
        command += "\\nolimits"
    sub = "" if _flag(el, "m:naryPr", "m:subHide") else _arg(el, "sub", ctx)
    sup = "" if _flag(el, "m:naryPr", "m:supHide") else _arg(el, "sup", ctx)
    head = command + (f"_{{{sub}}}" if sub else "") + (f"^{{{sup}}}" if sup else "")
    body = _arg(el, "e", ctx)
    return f"{head} {body}" if body else head


def _only_child(el: etree._Element | None) -> etree._Element | None:
    """The single content child of an ``m:e`` (properties ignored), else None."""
    if el is None:
        return None
    kids = list(_elements(el))
    return kids[0] if len(kids) == 1 else None


def _delimiter(el: etree._Element, ctx: _Ctx) -> str:
    beg = _prop(el, "m:dPr", "m:begChr")
    end = _prop(el, "m:dPr", "m:endChr")
    sep = _prop(el, "m:dPr", "m:sepChr")
    beg, end = ("(" if beg is None else beg), (")" if end is None else end)
    sep = "|" if sep is None else sep  # a bare m:sepChr means no separator
    items = [child for child in el if _name(child) == "m:e"]
    only = _only_child(items[0]) if len(items) == 1 else None
    only_name = _name(only)
    if only_name == "m:m" and (beg, end) in _MATRIX_ENVS:
        return _matrix(only, ctx, _MATRIX_ENVS[(beg, end)])
    if only_name == "m:eqArr" and beg == "{" and not end:
        return _array(only, ctx, "cases")
    if (
        only_name == "m:f"
        and (beg, end) == ("(", ")")
        and _prop(only, "m:fPr", "m:type") == "noBar"
    ):
        return f"\\binom{{{_arg(only, 'num', ctx)}}}{{{_arg(only, 'den', ctx)}}}"
    plain = replace(ctx, fname=False, align=False)
    separator = "\\mid " if sep == "|" else _math_text(sep, plain) or " "
    inner = separator.join(_tidy(_children(item, plain)) for item in items)
    if beg in _DELIMS and end in _DELIMS:
        return _cat(["\\left" + _DELIMS[beg], inner, "\\right" + _DELIMS[end]])
    return _cat([_math_text(beg, plain), inner, _math_text(end, plain)])


def _matrix(el: etree._Element, ctx: _Ctx, env: str = "matrix") -> str:
    plain = replace(ctx, fname=False, align=False)
    rows = []
    for row in el:
        if _name(row) == "m:mr":
            cells = [_tidy(_children(c, plain)) for c in row if _name(c) == "m:e"]
            rows.append(" & ".join(cells))
    return f"\\begin{{{env}}} " + " \\\\ ".join(rows) + f" \\end{{{env}}}"


def _array(el: etree._Element, ctx: _Ctx, env: str | None = None) -> str:
    """``m:eqArr``: ``aligned`` rows when they carry ``&`` alignment points, else ``gathered``."""
    aligned = replace(ctx, fname=False, align=True)
    rows = [_tidy(_children(row, aligned)) for row in el if _name(row) == "m:e"]
    env = env or ("aligned" if any(_UNESCAPED_AMP.search(row) for row in rows) else "gathered")
    return f"\\begin{{{env}}} " + " \\\\ ".join(rows) + f" \\end{{{env}}}"


def _accent(el: etree._Element, ctx: _Ctx) -> str:
    mark = _prop(el, "m:accPr", "m:chr")
    mark = "\u0302" if mark is None else mark  # the default accent is a circumflex (§22.1.2.20)
    body = _arg(el, "e", ctx)
    command = _ACCENTS.get(mark)
    if command is None:
        return f"\\overset{{{_math_text(mark, ctx)}}}{{{body}}}" if mark else body
    if not _is_atom(body):
        command = _WIDE_ACCENTS.get(command, command)
    return f"{command}{{{body}}}"


def _bar(el: etree._Element, ctx: _Ctx) -> str:
    # Word (and ISO 29500) default the bar to the bottom, not the top ECMA-376 1st ed. named.
    top = _prop(el, "m:barPr", "m:pos") == "top"
    return ("\\overline{" if top else "\\underline{") + _arg(el, "e", ctx) + "}"


def _group_char(el: etree._Element, ctx: _Ctx) -> str:
    mark = _prop(el, "m:groupChrPr", "m:chr")
    mark = "⏟" if mark is None else mark
    top = _prop(el, "m:groupChrPr", "m:pos") == "top"
    body = _arg(el, "e", ctx)
    if not mark:
        return body
    if mark in ("⏞", "⏜", "⎴"):
        return f"\\overbrace{{{body}}}"
    if mark in ("⏟", "⏝", "⎵"):
        return f"\\underbrace{{{body}}}"
    symbol = _math_text(mark, replace(ctx, fname=False, align=False))
    return f"\\{'over' if top else 'under'}set{{{symbol}}}{{{body}}}"


def _limit(el: etree._Element, ctx: _Ctx, *, lower: bool) -> str:
    base = _arg(el, "e", ctx, base=True)
    lim = _arg(el, "lim", ctx)
    if not lim:
        return base
    if base in _FUNCTIONS:
        base = "\\" + base  # "lim" typed without the function style
    script = "_" if lower else "^"
    brace = "\\underbrace{" if lower else "\\overbrace{"
    if base in _LIMIT_OPS or (base.startswith(brace) and _is_atom(base)):
        return f"{base}{script}{{{lim}}}"
    operator = "\\operatorname{"
    if base.startswith(operator) and _is_atom(base):
        return "\\operatorname*{" + base[len(operator) :] + f"{script}{{{lim}}}"
    return f"\\{'under' if lower else 'over'}set{{{lim}}}{{{base}}}"


def _function(el: etree._Element, ctx: _Ctx) -> str:
    name = _arg(el, "fName", replace(ctx, fname=True), base=True)
    body = _arg(el, "e", ctx)
    return f"{name} {body}" if name and body else name or body


def _border_box(el: etree._Element, ctx: _Ctx) -> str:
    body = _arg(el, "e", ctx)
    sides = ("m:hideTop", "m:hideBot", "m:hideLeft", "m:hideRight")
    if all(_flag(el, "m:borderBoxPr", side) for side in sides):
        return body
    return f"\\boxed{{{body}}}"


def _phantom(el: etree._Element, ctx: _Ctx) -> str:
    body = _arg(el, "e", ctx)
    if _prop(el, "m:phantPr", "m:show") is None or _flag(el, "m:phantPr", "m:show"):
        return body  # shown phantoms only change spacing
    if _flag(el, "m:phantPr", "m:zeroWid"):
        return f"\\vphantom{{{body}}}"
    if _flag(el, "m:phantPr", "m:zeroAsc") and _flag(el, "m:phantPr", "m:zeroDesc"):
        return f"\\hphantom{{{body}}}"
    return f"\\phantom{{{body}}}"


def _word_run(el: etree._Element, ctx: _Ctx) -> str:
    """A ``w:r`` inside math is ordinary text."""
    text = "".join(child.text or "" for child in el if _name(child) == "w:t")
    return _text_mode(text) if text.strip() else (" " if text else "")


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
    "m:t": lambda el, ctx: _math_text(el.text or "", ctx),
    "w:t": lambda el, ctx: _text_mode(el.text) if (el.text or "").strip() else "",
}
