"""Stage A: characters -> LaTeX, for the OMML converter (``parse/omml_latex.py``).

The character tables (Greek letters and operators to LaTeX commands, literals, escapes; the
math constructs' functions, big operators, accents, delimiters and fonts), math text with the
scripts LaTeX math cannot set put in ``\\text``, math alphanumerics (U+1D400…) under their
font command, and the joining of LaTeX pieces so a control word never swallows the next
letter. Also the Adobe Symbol font (``w:sym w:font="Symbol"``) to Unicode, which body text
and list bullets use too.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

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
INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff")

# Adobe Symbol font (w:sym w:font="Symbol"), codes 0x20-0x7E and 0xA1-0xFE, to Unicode.
_SYMBOL_LOW = (" !∀#∃%&∋()∗+,−./0123456789:;<=>?≅ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ[∴]⊥_‾"
               "αβχδεφγηιϕκλμνοπθρστυϖωξψζ{|}∼")
_SYMBOL_HIGH = ("ϒ′≤⁄∞ƒ♣♦♥♠↔←↑→↓°±″≥×∝∂•÷≠≡≈…⏐⎯↵ℵℑℜ℘⊗⊕∅∩∪⊃⊇⊄⊂⊆∈∉∠∇®©™∏√⋅¬∧∨⇔⇐⇑⇒⇓◊〈®©™∑"
                "⎛⎜⎝⎡⎢⎣⎧⎨⎩⎪\uf8ff〉∫⌠⎮⌡⎞⎟⎠⎤⎥⎦⎫⎬⎭")
_ALPHANUM_FONTS = (("DOUBLE-STRUCK", "\\mathbb"), ("FRAKTUR", "\\mathfrak"),
                   ("SCRIPT", "\\mathcal"), ("SANS-SERIF", "\\mathsf"), ("MONOSPACE", "\\mathtt"),
                   ("BOLD ITALIC", "\\boldsymbol"), ("BOLD", "\\mathbf"))
ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_SPACES = re.compile(r"\s+")
# fmt: on


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


def text_mode(text: str) -> str:
    """``\\text{…}`` of ``text``: whitespace runs as one space, LaTeX specials escaped."""
    body = "".join(_TEXT_ESCAPES.get(ch, ch) for ch in _SPACES.sub(" ", text))
    return f"\\text{{{body}}}"


def math_text(text: str, *, align: bool) -> str:
    """Literal math text: symbols -> commands, specials escaped, other scripts in ``\\text``."""
    parts: list[str] = []
    script: list[str] = []
    for ch in text:
        if _is_script_char(ch) or (script and (ch == " " or unicodedata.combining(ch))):
            script.append(ch)
            continue
        if script:
            parts.append(text_mode("".join(script).rstrip()))
            script.clear()
        parts.append(_math_char(ch, align))
    if script:
        parts.append(text_mode("".join(script).rstrip()))
    return join_latex(parts)


def _math_char(ch: str, align: bool) -> str:
    if align and ch == "&":
        return "&"
    if align and ch == "#":
        return "\\qquad "  # Word's equation-number separator in an equation-array row
    if ch.isspace():
        return _LITERALS.get(ch, " ")
    if ch in INVISIBLE:
        return ""
    mapped = _ESCAPES.get(ch) or _COMMANDS.get(ch) or _LITERALS.get(ch)
    if mapped:
        return mapped
    if "\U0001d400" <= ch <= "\U0001d7ff":
        return _math_alphanumeric(ch, align)
    return ch


def _is_script_char(ch: str) -> bool:
    """Letters of scripts LaTeX math has no glyphs for (CJK, Cyrillic, Arabic…) go in ``\\text``."""
    if ch < "\u0400" or ch in _COMMANDS or ch in _LITERALS or "\U0001d400" <= ch <= "\U0001d7ff":
        return False
    category = unicodedata.category(ch)
    return category[0] in "LM" or (category[0] == "P" and ch >= "\u3000")


def _math_alphanumeric(ch: str, align: bool) -> str:
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
            base = _math_char(unicodedata.lookup(greek), align)
        except KeyError:
            return ch
    font = next((cmd for key, cmd in _ALPHANUM_FONTS if key in style), "")
    return f"{font}{{{base}}}" if font else base


def join_latex(parts: Iterable[str]) -> str:
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
    start = len(text.rstrip(ASCII_LETTERS))
    if start == len(text) or start == 0 or text[start - 1] != "\\":
        return False
    slashes = start - len(text[:start].rstrip("\\"))
    return slashes % 2 == 1  # "\\\\abc" is a line break followed by letters


def tidy_latex(latex: str) -> str:
    """``latex`` with runs of spaces collapsed to one and the ends stripped."""
    return re.sub(r" {2,}", " ", latex).strip()


def is_atom(latex: str) -> bool:
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
    return latex if is_atom(latex) else "{" + latex + "}"


def scripts(base: str, sub: str, sup: str) -> str:
    """``base`` with its subscript and superscript (either may be empty), braced if needed."""
    if not sub and not sup:
        return base
    out = _base(base)
    if sub:
        out += "_{" + sub + "}"
    if sup:
        out += "^{" + sup + "}"
    return out


# fmt: off
# The math constructs' own tables, for the OMML converter: function names, big operators,
# accents, delimiters, matrix environments and font commands.
_FUNCTION_NAMES = """sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth log ln lg exp
    lim liminf limsup max min sup inf det dim gcd hom ker arg deg Pr"""
FUNCTIONS = frozenset(_FUNCTION_NAMES.split())
LIMIT_OPS = frozenset({"\\lim", "\\liminf", "\\limsup", "\\max", "\\min", "\\sup", "\\inf",
                       "\\det", "\\gcd", "\\Pr"})
NARY_COMMANDS = {
    "∑": "\\sum", "∏": "\\prod", "∐": "\\coprod", "⋃": "\\bigcup", "⋂": "\\bigcap",
    "⋁": "\\bigvee", "⋀": "\\bigwedge", "⨁": "\\bigoplus", "⨂": "\\bigotimes", "⨀": "\\bigodot",
    "⨄": "\\biguplus", "⨆": "\\bigsqcup", "∫": "\\int", "∬": "\\iint", "∭": "\\iiint",
    "⨌": "\\iiiint", "∮": "\\oint", "∯": "\\oiint", "∰": "\\oiiint", "∱": "\\int", "∲": "\\oint",
    "∳": "\\oint",
}
INTEGRALS = frozenset("∫∬∭⨌∮∯∰∱∲∳")
ACCENTS = {
    "\u0300": "\\grave", "`": "\\grave", "\u0301": "\\acute", "´": "\\acute", "\u0302": "\\hat",
    "^": "\\hat", "ˆ": "\\hat", "\u0303": "\\tilde", "~": "\\tilde", "˜": "\\tilde",
    "\u0304": "\\bar", "¯": "\\bar", "\u0305": "\\overline", "‾": "\\overline",
    "\u0306": "\\breve", "˘": "\\breve", "\u0307": "\\dot", "˙": "\\dot", "\u0308": "\\ddot",
    "¨": "\\ddot", "\u030c": "\\check", "ˇ": "\\check", "\u20d7": "\\vec", "→": "\\vec",
    "\u20d6": "\\overleftarrow", "←": "\\overleftarrow", "\u20e1": "\\overleftrightarrow",
    "↔": "\\overleftrightarrow", "\u20db": "\\dddot", "\u20dc": "\\ddddot",
    "\u20d0": "\\overleftharpoon", "\u20d1": "\\overrightharpoon",
}
WIDE_ACCENTS = {"\\hat": "\\widehat", "\\tilde": "\\widetilde", "\\bar": "\\overline",
                "\\vec": "\\overrightarrow"}
DELIMITERS = {
    "(": "(", ")": ")", "[": "[", "]": "]", "{": "\\{", "}": "\\}", "|": "|", "‖": "\\|",
    "⟨": "\\langle", "〈": "\\langle", "⟩": "\\rangle", "〉": "\\rangle", "⌊": "\\lfloor",
    "⌋": "\\rfloor", "⌈": "\\lceil", "⌉": "\\rceil", "/": "/", "\\": "\\backslash", "": ".",
    "↑": "\\uparrow", "↓": "\\downarrow",
}
MATRIX_ENVIRONMENTS = {("(", ")"): "pmatrix", ("[", "]"): "bmatrix", ("{", "}"): "Bmatrix",
                       ("|", "|"): "vmatrix", ("‖", "‖"): "Vmatrix"}
SCRIPT_FONTS = {"script": "\\mathcal", "fraktur": "\\mathfrak", "double-struck": "\\mathbb",
                "sans-serif": "\\mathsf", "monospace": "\\mathtt"}
STYLE_FONTS = {"p": "\\mathrm", "b": "\\mathbf", "bi": "\\boldsymbol"}
# fmt: on
