"""OMML -> LaTeX (ECMA-376 §22.1), block vs inline math, and the <equation> tag."""

from __future__ import annotations

import re
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from lightrag_pchunk.parse.equations import equation_record, equation_tag, escape_attr
from lightrag_pchunk.parse.latex_chars import symbol_font_char
from lightrag_pchunk.parse.omml_latex import omml_to_latex
from lightrag_pchunk.parse.text import InlineReader, InlineText

from helpers import shared_dir

M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
XMLNS = f'xmlns:m="{M}" xmlns:w="{W}"'


def math(body: str) -> etree._Element:
    return etree.fromstring(f"<m:oMath {XMLNS}>{body}</m:oMath>")


def latex(body: str) -> str:
    return omml_to_latex(math(body))


def r(text: str, *, sty: str | None = None, scr: str | None = None, nor: bool = False) -> str:
    props = (f'<m:sty m:val="{sty}"/>' if sty else "") + (f'<m:scr m:val="{scr}"/>' if scr else "")
    props += "<m:nor/>" if nor else ""
    rpr = f"<m:rPr>{props}</m:rPr>" if props else ""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f'<m:r>{rpr}<m:t xml:space="preserve">{text}</m:t></m:r>'


def el(name: str, *children: str, props: str = "") -> str:
    pr = f"<m:{name}Pr>{props}</m:{name}Pr>" if props else ""
    return f"<m:{name}>{pr}{''.join(children)}</m:{name}>"


def arg(name: str, *children: str) -> str:
    return f"<m:{name}>{''.join(children)}</m:{name}>"


def val(name: str, value: str) -> str:
    return f'<m:{name} m:val="{value}"/>'


def para(body: str) -> etree._Element:
    return etree.fromstring(f"<w:p {XMLNS}>{body}</w:p>")


def shown(p: etree._Element) -> InlineText:
    """What the parser's reader makes of a paragraph: its math, and whether math is all it
    shows (a block equation per math element)."""
    return InlineReader(None).read(p, "word/document.xml")


def balanced(text: str) -> bool:
    """Unescaped braces balance and never close before they open."""
    depth, i = 0, 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth < 0:
            return False
        i += 1
    return depth == 0


# -- runs, styles, symbols -------------------------------------------------------------------


def test_runs_concatenate():
    assert latex(r("a") + r("=") + r("b")) == "a=b"


@pytest.mark.parametrize(
    ("run", "expected"),
    [
        (r("d", sty="p") + r("x"), "\\mathrm{d}x"),
        (r("v", sty="b"), "\\mathbf{v}"),
        (r("2x", sty="b"), "\\mathbf{2x}"),
        (r("v", sty="bi"), "\\boldsymbol{v}"),
        (r("x", sty="i"), "x"),
        (r("L", scr="script"), "\\mathcal{L}"),
        (r("R", scr="double-struck"), "\\mathbb{R}"),
        (r("g", scr="fraktur"), "\\mathfrak{g}"),
        (r("A = B", sty="p"), "\\mathrm{A} = \\mathrm{B}"),
        (r("if x>0", nor=True), "\\text{if x\\textgreater{}0}"),
        (r("sin", sty="p") + r("x"), "\\sin x"),
    ],
)
def test_run_styles(run, expected):
    assert latex(run) == expected


def test_unicode_symbols_map_to_commands():
    assert latex(r("α≤β≠γ±δ×∞∂∇→⇒∈∉⊂∀∃")) == (
        "\\alpha\\leq\\beta\\neq\\gamma\\pm\\delta\\times\\infty\\partial\\nabla"
        "\\rightarrow\\Rightarrow\\in\\notin\\subset\\forall\\exists"
    )


def test_control_word_followed_by_letter_gets_a_space():
    assert latex(r("∀x∃y") + r("πr")) == "\\forall x\\exists y\\pi r"


def test_literal_latex_specials_are_escaped():
    assert latex(r("a_b{c}%#$&~^\\")) == "a\\_b\\{c\\}\\%\\#\\$\\&\\sim\\hat{}\\backslash"


def test_angle_brackets_become_lt_gt_as_in_lightrag():
    assert latex(r("a<b>c")) == "a\\lt b\\gt c"


def test_other_scripts_go_in_text():
    assert latex(r("速度 v=路程 c")) == "\\text{速度}v=\\text{路程}c"


def test_math_alphanumerics_and_letterlike():
    assert latex(r("𝐀𝔸𝒜𝛼ℝ")) == "\\mathbf{A}\\mathbb{A}\\mathcal{A}\\alpha\\mathbb{R}"


def test_symbol_font_sym_in_a_math_run():
    run = '<m:r><w:sym w:font="Symbol" w:char="F067"/></m:r>'
    assert latex(run) == "\\gamma"
    assert symbol_font_char("Symbol", "F0B3") == "≥"
    assert symbol_font_char("Wingdings", "F067") is None


def test_tracked_deletion_dropped_insertion_kept():
    body = f"<w:del>{r('x')}</w:del><w:ins>{r('y')}</w:ins>"
    assert latex(body) == "y"


# -- structures ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        (None, "\\frac{a}{b}"),
        ("bar", "\\frac{a}{b}"),
        ("skw", "{}^{a}/_{b}"),
        ("lin", "a/b"),
        ("noBar", "\\genfrac{}{}{0pt}{}{a}{b}"),
    ],
)
def test_fractions(kind, expected):
    props = val("type", kind) if kind else ""
    assert latex(el("f", arg("num", r("a")), arg("den", r("b")), props=props)) == expected


def test_linear_fraction_parenthesises_compound_parts():
    frac = el("f", arg("num", r("a+b")), arg("den", r("c")), props=val("type", "lin"))
    assert latex(frac) == "(a+b)/c"


def test_binomial_is_a_nobar_fraction_in_parentheses():
    frac = el("f", arg("num", r("n")), arg("den", r("k")), props=val("type", "noBar"))
    assert latex(el("d", arg("e", frac))) == "\\binom{n}{k}"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (el("sSub", arg("e", r("x")), arg("sub", r("i"))), "x_{i}"),
        (el("sSub", arg("e", r("ab")), arg("sub", r("i"))), "{ab}_{i}"),
        (el("sSup", arg("e", r("x")), arg("sup", r("2"))), "x^{2}"),
        (el("sSup", arg("e", r("α")), arg("sup", r("2"))), "\\alpha^{2}"),
        (el("sSubSup", arg("e", r("x")), arg("sub", r("i")), arg("sup", r("2"))), "x_{i}^{2}"),
        (el("sPre", arg("sub", r("1")), arg("sup", r("2")), arg("e", r("X"))), "{}_{1}^{2}X"),
        (el("sSup", arg("e"), arg("sup", r("n"))), "{}^{n}"),
    ],
)
def test_scripts(body, expected):
    assert latex(body) == expected


def test_superscript_of_a_delimiter_group_braces_the_base():
    body = el("sSup", arg("e", el("d", arg("e", r("x+a")))), arg("sup", r("n")))
    assert latex(body) == "{\\left(x+a\\right)}^{n}"


@pytest.mark.parametrize(
    ("props", "deg", "expected"),
    [
        ("", "", "\\sqrt{x}"),
        ("", r("3"), "\\sqrt[3]{x}"),
        (val("degHide", "1"), r("3"), "\\sqrt{x}"),
        ("<m:degHide/>", "", "\\sqrt{x}"),
    ],
)
def test_radicals(props, deg, expected):
    assert latex(el("rad", arg("deg", deg), arg("e", r("x")), props=props)) == expected


def nary(props: str, sub: str = "", sup: str = "", body: str = "f") -> str:
    return el("nary", arg("sub", sub), arg("sup", sup), arg("e", r(body)), props=props)


@pytest.mark.parametrize(
    ("props", "sub", "sup", "expected"),
    [
        (val("chr", "∑") + val("limLoc", "undOvr"), r("i=1"), r("n"), "\\sum_{i=1}^{n} f"),
        ("", r("0"), r("1"), "\\int_{0}^{1} f"),
        (val("limLoc", "undOvr"), r("0"), r("1"), "\\int\\limits_{0}^{1} f"),
        (val("chr", "∑") + val("limLoc", "subSup"), r("i"), "", "\\sum\\nolimits_{i} f"),
        (val("chr", "∮") + "<m:subHide/><m:supHide/>", r("C"), r("x"), "\\oint f"),
        (val("chr", "⋃"), r("n"), "", "\\bigcup_{n} f"),
        (val("chr", "∏"), "", "", "\\prod f"),
        (val("chr", "∬"), "", "", "\\iint f"),
        (val("chr", "⨃"), "", "", "\\mathop{⨃} f"),
    ],
)
def test_nary_operators(props, sub, sup, expected):
    assert latex(nary(props, sub, sup)) == expected


@pytest.mark.parametrize(
    ("props", "items", "expected"),
    [
        ("", [r("x")], "\\left(x\\right)"),
        (val("begChr", "[") + val("endChr", "]"), [r("x")], "\\left[x\\right]"),
        (val("begChr", "{") + val("endChr", "}"), [r("x")], "\\left\\{x\\right\\}"),
        (val("endChr", ""), [r("x")], "\\left(x\\right."),
        (val("begChr", "|") + val("endChr", "|"), [r("x")], "\\left|x\\right|"),
        (val("begChr", "⟨") + val("endChr", "⟩"), [r("x")], "\\left\\langle x\\right\\rangle"),
        (val("begChr", "⌊") + val("endChr", "⌋"), [r("x")], "\\left\\lfloor x\\right\\rfloor"),
        (val("sepChr", ","), [r("a"), r("b")], "\\left(a,b\\right)"),
        ("", [r("a"), r("b")], "\\left(a\\mid b\\right)"),
        (val("begChr", "⟦") + val("endChr", "⟧"), [r("x")], "⟦x⟧"),
    ],
)
def test_delimiters(props, items, expected):
    body = el("d", *(arg("e", item) for item in items), props=props)
    assert latex(body) == expected


def matrix() -> str:
    row1 = el("mr", arg("e", r("a")), arg("e", r("b")))
    row2 = el("mr", arg("e", r("c")), arg("e", r("d")))
    return el("m", row1, row2)


@pytest.mark.parametrize(
    ("beg", "end", "env"),
    [("(", ")", "pmatrix"), ("[", "]", "bmatrix"), ("|", "|", "vmatrix"), ("{", "}", "Bmatrix")],
)
def test_matrix_inside_delimiters_uses_the_matching_environment(beg, end, env):
    body = el("d", arg("e", matrix()), props=val("begChr", beg) + val("endChr", end))
    assert latex(body) == f"\\begin{{{env}}} a & b \\\\ c & d \\end{{{env}}}"


def test_bare_matrix():
    assert latex(matrix()) == "\\begin{matrix} a & b \\\\ c & d \\end{matrix}"


def test_equation_array_without_alignment_is_gathered():
    body = el("eqArr", arg("e", r("a=b")), arg("e", r("c=d")))
    assert latex(body) == "\\begin{gathered} a=b \\\\ c=d \\end{gathered}"


def test_equation_array_alignment_and_equation_numbers():
    body = el("eqArr", arg("e", r("x&=1#(1)")), arg("e", r("y&=2")))
    assert latex(body) == "\\begin{aligned} x&=1\\qquad (1) \\\\ y&=2 \\end{aligned}"


def test_ampersand_outside_an_equation_array_is_literal():
    assert latex(el("f", arg("num", r("a&b")), arg("den", r("c")))) == "\\frac{a\\&b}{c}"


def test_brace_with_equation_array_is_cases():
    rows = el("eqArr", arg("e", r("1&x>0")), arg("e", r("0&x≤0")))
    body = el("d", arg("e", rows), props=val("begChr", "{") + val("endChr", ""))
    # A control word ends at the first non-letter, so "\\gt0" is valid LaTeX: the code adds a
    # space only before a letter (see test_control_word_followed_by_letter_gets_a_space).
    assert latex(body) == "\\begin{cases} 1&x\\gt0 \\\\ 0&x\\leq0 \\end{cases}"


@pytest.mark.parametrize(
    ("chr_", "base", "expected"),
    [
        (None, "x", "\\hat{x}"),
        ("\u0303", "x", "\\tilde{x}"),
        ("\u20d7", "v", "\\vec{v}"),
        ("\u0307", "x", "\\dot{x}"),
        ("\u0308", "x", "\\ddot{x}"),
        ("\u0304", "x", "\\bar{x}"),
        ("\u030c", "x", "\\check{x}"),
        (None, "xy", "\\widehat{xy}"),
        ("\u0303", "xy", "\\widetilde{xy}"),
        ("★", "x", "\\overset{★}{x}"),
    ],
)
def test_accents(chr_, base, expected):
    props = val("chr", chr_) if chr_ is not None else ""
    assert latex(el("acc", arg("e", r(base)), props=props)) == expected


def test_bar_defaults_to_the_bottom_as_word_does():
    assert latex(el("bar", arg("e", r("x")))) == "\\underline{x}"
    assert latex(el("bar", arg("e", r("x")), props=val("pos", "top"))) == "\\overline{x}"


def test_group_characters_and_labelled_braces():
    under = el("groupChr", arg("e", r("a+b")))
    over = el("groupChr", arg("e", r("a+b")), props=val("chr", "⏞") + val("pos", "top"))
    assert latex(under) == "\\underbrace{a+b}"
    assert latex(over) == "\\overbrace{a+b}"
    assert latex(el("limLow", arg("e", under), arg("lim", r("n")))) == "\\underbrace{a+b}_{n}"
    assert latex(el("limUpp", arg("e", over), arg("lim", r("n")))) == "\\overbrace{a+b}^{n}"
    arrow = el("groupChr", arg("e", r("x")), props=val("chr", "→") + val("pos", "top"))
    assert latex(arrow) == "\\overset{\\rightarrow}{x}"


def test_limits_and_functions():
    lim = el("limLow", arg("e", r("lim", sty="p")), arg("lim", r("n→∞")))
    func = el("func", arg("fName", lim), arg("e", el("sSub", arg("e", r("a")), arg("sub", r("n")))))
    assert latex(func) == "\\lim_{n\\rightarrow\\infty} a_{n}"
    assert latex(el("limLow", arg("e", r("max")), arg("lim", r("x")))) == "\\max_{x}"
    assert latex(el("limLow", arg("e", r("A")), arg("lim", r("x")))) == "\\underset{x}{A}"
    assert latex(el("limUpp", arg("e", r("=")), arg("lim", r("def")))) == "\\overset{def}{=}"


@pytest.mark.parametrize(
    ("fname", "expected"),
    [
        (r("sin", sty="p"), "\\sin x"),
        (r("sgn", sty="p"), "\\operatorname{sgn} x"),
        (el("sSup", arg("e", r("sin", sty="p")), arg("sup", r("2"))), "\\sin^{2} x"),
        (el("sSub", arg("e", r("log", sty="p")), arg("sub", r("2"))), "\\log_{2} x"),
        (
            el("limLow", arg("e", r("argmax")), arg("lim", r("θ"))),
            "\\operatorname*{argmax}_{\\theta} x",
        ),
    ],
)
def test_function_names(fname, expected):
    assert latex(el("func", arg("fName", fname), arg("e", r("x")))) == expected


def test_boxes_and_phantoms():
    assert latex(el("box", arg("e", r("dx")))) == "dx"
    assert latex(el("borderBox", arg("e", r("E=m")))) == "\\boxed{E=m}"
    assert latex(el("phant", arg("e", r("x")))) == "x"
    assert latex(el("phant", arg("e", r("x")), props=val("show", "0"))) == "\\phantom{x}"
    hidden_width = val("show", "off") + val("zeroWid", "on")
    assert latex(el("phant", arg("e", r("x")), props=hidden_width)) == "\\vphantom{x}"


def test_math_paragraph_with_several_equations_is_gathered():
    para_xml = (
        f"<m:oMathPara {XMLNS}><m:oMath>{r('a=b')}</m:oMath>"
        f"<m:oMath>{r('c=d')}</m:oMath></m:oMathPara>"
    )
    assert omml_to_latex(etree.fromstring(para_xml)) == (
        "\\begin{gathered} a=b \\\\ c=d \\end{gathered}"
    )
    single = f"<m:oMathPara {XMLNS}><m:oMathParaPr/><m:oMath>{r('a')}</m:oMath></m:oMathPara>"
    assert omml_to_latex(etree.fromstring(single)) == "a"


# -- never raises ----------------------------------------------------------------------------


def test_unknown_elements_keep_their_text():
    body = (
        f'<m:mystery>{r("x")}</m:mystery><z:other xmlns:z="urn:z">{r("y")}</z:other>'
        "<!-- c --><?pi x?>"
    )
    assert latex(body) == "xy"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("", ""),
        (el("f"), "\\frac{}{}"),
        (el("rad"), "\\sqrt{}"),
        (el("nary"), "\\int"),
        (el("d"), "\\left(\\right)"),
        (el("m"), "\\begin{matrix} \\end{matrix}"),
        ("<m:r/>", ""),
        (f'<m:acc><m:accPr><m:chr m:val=""/></m:accPr>{arg("e", r("x"))}</m:acc>', "x"),
    ],
)
def test_empty_elements(body, expected):
    assert latex(body) == expected


def test_deep_nesting_is_kept_as_text_without_recursion_error():
    root = math("")
    node = root
    for _ in range(2000):
        node = etree.SubElement(etree.SubElement(node, f"{{{M}}}d"), f"{{{M}}}e")
    etree.SubElement(etree.SubElement(node, f"{{{M}}}r"), f"{{{M}}}t").text = "deep"
    result = omml_to_latex(root)
    assert "deep" in result
    assert balanced(result)


_NAMES = ["f", "sSub", "sSup", "sSubSup", "sPre", "rad", "nary", "d", "m", "mr", "eqArr", "acc",
          "bar", "groupChr", "limLow", "limUpp", "func", "box", "borderBox", "phant", "e", "num",
          "den", "sub", "sup", "deg", "lim", "fName", "unknownThing"]  # fmt: skip
_PROPS = ["chr", "begChr", "endChr", "sepChr", "type", "pos", "limLoc", "degHide", "show"]
_TEXT = st.text(alphabet=st.sampled_from(list("ab{}\\&#%_^~<>$ ∑∫α≤√()[]|⟨⟩ 速")), max_size=6)


def _tree(children):
    return st.builds(
        lambda name, props, kids: (name, props, kids),
        st.sampled_from(_NAMES),
        st.lists(st.tuples(st.sampled_from(_PROPS), _TEXT), max_size=2),
        st.lists(children, max_size=3),
    )


_TREES = st.recursive(_TEXT.map(lambda t: ("r", t)), _tree, max_leaves=25)


def _build(node, parent):
    if node[0] == "r":
        run = etree.SubElement(parent, f"{{{M}}}r")
        etree.SubElement(run, f"{{{M}}}t").text = node[1]
        return
    name, props, kids = node
    element = etree.SubElement(parent, f"{{{M}}}{name}")
    if props:
        pr = etree.SubElement(element, f"{{{M}}}{name}Pr")
        for prop, value in props:
            etree.SubElement(pr, f"{{{M}}}{prop}").set(f"{{{M}}}val", value)
    for kid in kids:
        _build(kid, element)


@settings(max_examples=300, deadline=None)
@given(st.lists(_TREES, max_size=4))
def test_any_tree_converts_to_balanced_single_line_latex(trees):
    root = math("")
    for tree in trees:
        _build(tree, root)
    result = omml_to_latex(root)
    assert balanced(result), result
    assert "\n" not in result
    assert "<" not in result and ">" not in result
    assert result.count("\\left") == result.count("\\right")
    assert result.count("\\begin{") == result.count("\\end{")


# -- block vs inline -------------------------------------------------------------------------


def omath(text: str) -> str:
    return f"<m:oMath>{r(text)}</m:oMath>"


def wrun(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


@pytest.mark.parametrize(
    ("body", "block"),
    [
        (omath("E=mc"), True),
        (f"<m:oMathPara>{omath('a')}{omath('b')}</m:oMathPara>", True),
        (wrun("  ") + omath("x") + '<w:bookmarkStart w:id="0" w:name="b"/>', True),
        (f"<w:del><w:r><w:delText>old</w:delText></w:r></w:del>{omath('x')}", True),
        ("<w:pPr><w:jc w:val='center'/></w:pPr>" + omath("x"), True),
        (wrun("Energy ") + omath("E"), False),
        (omath("x") + '<w:r><w:sym w:font="Symbol" w:char="F0B7"/></w:r>', False),
        (wrun("no math here"), False),
        (f"<w:hyperlink>{wrun('see')}</w:hyperlink>{omath('x')}", False),
    ],
)
def test_block_math_paragraphs(body, block):
    assert shown(para(body)).is_math_only is block


def test_sibling_equations_are_separate_block_equations():
    found = shown(para(omath("a=b") + omath("c=d") + "<m:oMath/>" + omath("e=f")))
    assert found.is_math_only
    assert found.equations == ["a=b", "c=d", "e=f"]


def test_math_paragraph_gives_one_block_equation():
    p = para(f"<m:oMathPara>{omath('a')}{omath('b')}</m:oMathPara>")
    assert shown(p).equations == ["\\begin{gathered} a \\\\ b \\end{gathered}"]


# -- tags ------------------------------------------------------------------------------------


def test_block_and_inline_tags_match_lightrag():
    assert equation_tag("E=mc^{2}", "eq-0123-0001") == (
        '<equation id="eq-0123-0001" format="latex">E=mc^{2}</equation>'
    )
    assert equation_tag("\\frac{a}{b}") == '<equation format="latex">\\frac{a}{b}</equation>'


def test_caption_attribute_is_escaped_and_follows_format():
    tag = equation_tag("x", "eq-1-0001", caption='Eq. "1" <a> & b\nc')
    assert tag == (
        '<equation id="eq-1-0001" format="latex" '
        'caption="Eq. &quot;1&quot; &lt;a&gt; &amp; b c">x</equation>'
    )
    assert escape_attr("a&b") == "a&amp;b"


def test_tag_body_is_one_line_without_angle_brackets():
    assert equation_tag("a<b\n</equation>") == (
        '<equation format="latex">a\\lt b \\lt /equation\\gt </equation>'
    )


def test_lightrag_reads_our_tags_back():
    from lightrag.chunk_schema import _EQUATION_RE

    body = latex(r("a<b") + el("f", arg("num", r("x&y")), arg("den", r("</equation>"))))
    text = "before " + equation_tag(body, "eq-9-0001", caption="c") + " after"
    (match,) = _EQUATION_RE.finditer(text)
    assert match.group(2) == body
    assert 'id="eq-9-0001"' in match.group(1) and 'caption="c"' in match.group(1)


def test_equation_record_field_order():
    record = equation_record("eq-1-0001", "a\nb")
    assert list(record) == ["id", "blockid", "heading", "parent_headings", "format", "content",
                            "caption", "footnotes"]  # fmt: skip
    assert record["content"] == "a b" and record["format"] == "latex"


# -- corpus ----------------------------------------------------------------------------------


def _corpus_math(name: str) -> list[tuple[bool, list[str]]]:
    shared = shared_dir()
    if shared is None:
        pytest.skip("../shared (the test corpus) is absent; set PCHUNK_SHARED_DIR to run")
    path = shared / "corpus" / "docx" / name
    if not path.exists():
        pytest.skip(f"corpus file {name} is absent")
    with zipfile.ZipFile(path) as zf:
        root = etree.fromstring(zf.read("word/document.xml"))
    out = []
    for p in root.iter(f"{{{W}}}p"):
        if next(p.iter(f"{{{M}}}oMath"), None) is None:
            continue
        if (found := shown(p)).is_math_only:
            out.append((True, found.equations))
        else:
            tops = [m for m in p.iter(f"{{{M}}}oMath") if m.getparent().tag != f"{{{M}}}oMathPara"]
            out.append((False, [omml_to_latex(m) for m in tops]))
    return out


CORPUS_MATH = {
    "docling__equations.docx": "{\\left(x+a\\right)}^{n}=\\sum_{k=0}^{n} \\binom{n}{k}x^{k}a^{n-k}",
    "poi__stress007-math.docx": (
        "Y_{tij}=\\beta_{0}+\\beta_{t}x_{t}+\\beta_{i}x_{0ij}+\\beta_{j}z_{j}+v_{j}+U_{ti}"
    ),
    "pandoc__equations-footnote.docx": "\\hat{v}^{i}={\\left(R^{-1}\\right)}_{j}^{i}v^{j},",
    "openxmlsdk__kitchen-sink-document.docx": (
        "{\\left(x+a\\right)}^{n}=\\sum_{k=0}^{n} \\binom{n}{k}x^{k}a^{n-k}"
    ),
    "tika__word2006ml-kitchen-sink.docx": "\\frac{3}{4}",
    "mineru__docx-01-mixed-cn-en.docx": "x=\\frac{-b\\pm\\sqrt{b^{2}-4ac}}{2a}",
}


@pytest.mark.parametrize("name", sorted(CORPUS_MATH))
def test_corpus_math_converts_with_balanced_braces(name):
    found = _corpus_math(name)
    blocks = [latex for is_block, items in found if is_block for latex in items]
    everything = [latex for _, items in found for latex in items]
    assert CORPUS_MATH[name] in blocks
    assert everything and all(balanced(x) and "<" not in x for x in everything)


def test_corpus_multi_equation_paragraph_gives_three_block_equations():
    found = _corpus_math("docling__omml-multi-equation-paragraph.docx")
    assert found == [(True, ["a=b", "c=d", "e=f"])]


def test_corpus_equation_array_number_and_symbol_font():
    found = _corpus_math("mineru__docx-01-mixed-cn-en.docx")
    blocks = [latex for is_block, items in found if is_block for latex in items]
    first = next(x for x in blocks if x.startswith("\\begin{gathered} LY="))
    assert first.endswith(
        "\\cdot\\frac{1}{E_{\\gamma}}\\cdot\\frac{1}{LCE}\\qquad (1) \\end{gathered}"
    )


def test_corpus_no_math_file_has_no_unbalanced_output():
    found = _corpus_math("docling__equations.docx")
    assert re.search(r"\\int\\limits \(2x\+1\)dx", " ".join(x for _, i in found for x in i))
