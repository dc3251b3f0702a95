"""The text channel of the heading classifier: whether a line can be a heading at all.

Input: one line of text. Output: :class:`HeadingText` (the heading it would give, and any
body text after it on the same line) or None. Formatting is not seen here: the .docx smart
outline adds the look (bold, size, centring) on top, and stage C uses this alone to choose
anchors, so both promote the same kind of line.

A heading is short and reads like a title: no bullet, no caption (图/表/图表/Figure/Table N), no
table-of-contents entry (leaders or a tab before a page number), no form blank ("___"), no
sentence (ending with 。；，,;.!? …, or holding a full stop inside), no lower-case
continuation of a sentence, no unnumbered lead-in ending with a colon ("The secondary aims
are:") or on a word that leaves its sentence open ("Inspired by") or inside a parenthesis it
opened, no equation (more mathematical symbols than words: "Ui → R n"), no paper's author list
or copyright line (``front_matter.py``). A numbered line may carry its body after a colon
("1.目的：规范…" gives "1.目的" + "规范…") and a legal article its text after the label
("第一条 为加强…" gives "第一条" + "为加强…"). A placeholder ("None", "N/A") titles nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lightrag_pchunk.outline.front_matter import reads_as_front_matter
from lightrag_pchunk.outline.labels import Label, parse_label
from lightrag_pchunk.outline.page_references import heads_entry_columns, is_toc_line
from lightrag_pchunk.outline.unit_words import cited_in_a_sentence, names_a_unit

#: Longest heading, in characters (LightRAG's anchor limit); CJK text is denser.
MAX_HEADING_CHARS = 100
MAX_CJK_HEADING_CHARS = 40
#: A numbered title that is not a sentence may run longer ("18.6. ATTACHMENT 5 – FedRAMP
#: Tailored Low Impact Software as a Service (LI-SaaS) Baseline …").
MAX_NUMBERED_HEADING_CHARS = 150
MAX_CJK_NUMBERED_HEADING_CHARS = 60
#: Longest unnumbered heading, in words (CJK characters count as half a word).
MAX_PLAIN_WORDS = 12
#: Longest unnumbered line ending with a colon that may be a title (``lead_in``), in words.
_MAX_LEAD_IN_WORDS = 5
#: Longest title before a colon that a numbered line may carry its body after.
_MAX_LEAD_CHARS = 40
_MAX_CJK_LEAD_CHARS = 20
#: Characters that show nothing, trimmed from a title's ends (a zero-width space before
#: "Examples"); inside a word they stay (a Persian zero-width non-joiner shapes it).
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"
_SPACE_RUN = re.compile(r" {2,}")
_TAG_LINE = re.compile(r"<(?:table|equation|drawing)\b", re.IGNORECASE)
#: The marks that open a Markdown heading line ("## ").
MARKDOWN_HEADING = re.compile(r"#{1,6}[ \t]+")
_BULLETS = frozenset("•◦▪▫‣⁃●○■□◆◇►▶▷➢➤➔→✓✔✗✘❖★☆-–—*·+>⚫⬤⦁")
#: A line wholly in brackets is an aside, never a title: "(Continued)", "(2004年4月6日…通過)".
_ASIDE = re.compile(r"[(（][^()（）]*[)）]")
_O_BULLET = re.compile(r"o[ \t]+\S")
_CAPTION = re.compile(
    r"(?:figure|fig\.|table|tab\.|chart|exhibit|listing|equation|eq\.|formula|plate)"
    r"(?:\s*\d|\s+(?:[ivxlcdm]+\b|[a-z]\b|[a-z]{1,3}[-.]?\d))"
    r"|(?:附图|附表|图表|圖表|图|表|圖|公式)\s*[\d０-９一二三四五六七八九十a-z]",
    re.IGNORECASE,
)
#: A blank to fill in ("Описание недостатка ______"): the line is a form's field.
_FORM_BLANK = "___"
#: Answers that say there is nothing (a form's or a filing's item left empty, a
#: converter's placeholder): a line of one of them alone names no topic, so titles nothing.
_NOTHING_STATED = frozenset(["not applicable", *"none n/a na nil null tbd tba 无 нет".split()])
#: Endings that make a line a sentence or a fragment rather than a title.
_SENTENCE_END = frozenset(".!;,。！；，、…")
#: A capital after a ";" opens an item a title names ("Funding; Conflicts of interest");
#: lower case after it goes on with a sentence's clause ("the user logs in; the system …").
ITEM_CAPITAL = "[A-ZÀ-ÖØ-Þ]"
_INNER_FULL_STOP = re.compile(rf"[。！？；]|[a-z]{{2}}[.!?]\s+\S|;\s+(?!{ITEM_CAPITAL})\S")
_COLON = re.compile(r"[:：]")
#: Last words that leave a sentence open ("Inspired by", "we obtain that"): no title ends so.
OPEN_ENDINGS = frozenset(
    "a an the of by and or nor but that which whose than from at into via its their our "
    "your such as".split()
)
_LEADING_QUOTES = "\"'«“‘"
_CLOSING_QUOTES = "\"'»”’」』"  # a quoted sentence ends inside them: “… the idea.”
_OPEN_BRACKETS = frozenset("([{（【《〈「『")
_LAST_WORD = re.compile(r"\b([a-z]+)\W*$")  # lower case: "Required (OR)" is a title
#: Inline tags a heading may hold (an equation, a superscript): one character when measured.
_INLINE_TAG = re.compile(r"<(equation|sup|sub)\b[^>]*>.*?</\1>|<drawing\b[^>]*/>", re.DOTALL)
_CJK_IDEOGRAPH = re.compile("[\u3400-\u9fff]")
#: Letters a word of a title is made of, at least; an equation's names are shorter.
_WORD_LETTERS = 3
_WORD = re.compile(rf"[\u3400-\u9fff]|[^\W\d_\u3400-\u9fff]{{{_WORD_LETTERS},}}")
_MATH_LETTER = re.compile("[\U0001d400-\U0001d7ff]")
#: Unicode's arrows, mathematical operators and mathematical alphanumerics.
_MATH_SYMBOL = re.compile("[\u2190-\u22ff\u27c0-\u27ff\u2900-\u2aff\U0001d400-\U0001d7ff]")
#: A value stated on a line: a name, "=", a measured number ("p-value= 0.2175", "45 %").
_STATED_VALUE = re.compile(r"[^\W\d_][^=]{0,40}=\s*[-+−]?\d[\d,]*(?:\.\d+\s*%?|\s*%)")
#: Units of a law that carry their text on their label's line ("第一条 为加强…", "§ 5 The …").
LEGAL_ARTICLES = frozenset({"legal-条", "legal-款", "keyword-article", "keyword-§"})
#: No title of any kind is longer (checked first: most body paragraphs are).
_MAX_ANY_CHARS = 2 * MAX_NUMBERED_HEADING_CHARS


@dataclass(frozen=True, slots=True)
class HeadingText:
    """The heading a line would give: ``title`` (label included, no trailing colon) and
    ``body``, the text after it on the same line ("" when none); ``label`` its numbering."""

    title: str
    body: str
    label: Label | None


def cjk_count(text: str) -> int:
    """How many CJK ideographs (U+3400-U+9FFF) ``text`` holds."""
    if text.isascii():  # known without reading the text: most lines of most documents
        return 0
    return len(_CJK_IDEOGRAPH.findall(text))


def count_text_words(text: str) -> float:
    """Words of a text: space-separated tokens, CJK characters counting two to a word."""
    return len(text.split()) + cjk_count(text) / 2


def count_title_words(text: str) -> float:
    """Words of a title: space-separated tokens, a run of CJK characters counting two
    characters to a word instead of one token."""
    cjk = cjk_count(text)
    return len(text.split()) - (1 if cjk else 0) + cjk / 2


def cjk_share(text: str) -> float:
    """Share of CJK characters among the non-space characters of ``text``."""
    cjk = cjk_count(text)  # 0 for most lines, without reading them (ASCII)
    # Over the words' characters: all but the spaces, at least the CJK ones.
    return cjk / sum(map(len, text.split())) if cjk else 0.0


def _too_long(text: str, max_chars: int, max_cjk: int = MAX_CJK_HEADING_CHARS) -> bool:
    if "<" in text:
        text = _INLINE_TAG.sub("x", text)
    limit = max_cjk if cjk_share(text) > 0.5 else max_chars
    return len(text) > min(limit, max_chars)


def flat_text(line: str) -> str:
    """``line`` as a reader sees it: without invisible characters at its ends, each run of
    whitespace (tabs, spaces typed to align) one space. A title the classifier makes from a line is
    this text of it, or a piece of it."""
    return " ".join(line.strip().strip(_INVISIBLE).split())


def is_caption(line: str) -> bool:
    """A caption: "Figure 3", "Table B-1.", "图 2", "表1" … at the start of the line."""
    return _CAPTION.match(line.strip()) is not None


def _is_sentence(text: str) -> bool:
    if "<" in text:
        text = _INLINE_TAG.sub("x", text)
    ending = text.rstrip(_CLOSING_QUOTES)[-1:] or text[-1]
    return ending in _SENTENCE_END or _INNER_FULL_STOP.search(text) is not None


# The outline's rules ask of one line whether it can be a heading several times (candidate,
# table of contents, list item, section title): it is read once.
@lru_cache(maxsize=4096)
def heading_text(
    line: str,
    max_chars: int = MAX_HEADING_CHARS,
    *,
    markdown: bool = True,
    lowercase: bool = False,
    lead_in: bool = False,
    max_cjk: int = MAX_CJK_HEADING_CHARS,
) -> HeadingText | None:
    """The heading ``line`` can be, or None when it cannot be one (see the module doc).

    ``markdown``: a ``# Title`` line is a heading (in blocks, heading lines are written so);
    in a document body a line starting with ``#`` is text. ``lowercase``: an unnumbered line
    may start with a lower-case letter ("docx4j.NET", "iPhone setup"); the caller then
    needs other evidence, as such a line more often continues a sentence. ``lead_in``: a
    short unnumbered line ending with a colon gives its title without the colon ("Test
    1:"); the caller then needs a strong look, as such a line more often leads into a list.
    ``max_cjk``: the longest unnumbered CJK title; a caller that sees a heading's look
    may allow a document's long title (a law's, naming the law it decides on).
    """
    text = line.strip().strip(_INVISIBLE).strip()
    if not text or _TAG_LINE.match(text):
        return None
    heading = MARKDOWN_HEADING.match(text) if markdown else None
    if heading:
        title = text[heading.end() :].strip()
        return HeadingText(title, "", parse_label(title)) if title else None
    if "\t" in text:
        return None
    typed = text
    # Spaces typed to push a mark to the right edge ("FUNDING       TOP") are one space.
    text = _SPACE_RUN.sub(" ", text)
    label = parse_label(text)  # a mark may open a label: "★一、" is a binding term's
    if label is None and starts_with_bullet(text):
        # A bullet glyph before a number ("● 1 Introduction", as some numbering definitions
        # render heading labels) decorates the label; before text, or a catalogue's code
        # ("• CWE-79: Cross-site Scripting", a list of references), it marks a list item.
        label = parse_label(text[1:])
        if label is None or label.family.startswith("code") or not text[1:2].isspace():
            return None
    elif text[0] in "<#{[=,;，；" or _O_BULLET.match(text) or _ASIDE.fullmatch(text):
        return None  # a tag, a continuation, an aside
    if len(text) > _MAX_ANY_CHARS and (label is None or label.family not in LEGAL_ARTICLES):
        return None  # too long for any title; only an article carries its text along
    if label is None:
        heading = _plain_heading(text, max_chars, lowercase, lead_in, max_cjk)
    else:
        heading = _numbered_heading(text, label, max_chars, lowercase)
    # What a line shaped as a title says is read last: its shape rules out most lines, and
    # more cheaply than these searches of the whole line. A contents entry's leaders may be
    # spaces ("Preface   iv"): it is read as typed.
    if heading is None or is_toc_line(typed) or _FORM_BLANK in typed:
        return None  # an entry of a table of contents; a form's field to fill in
    if typed.casefold() in _NOTHING_STATED or heads_entry_columns(typed):
        return None  # "None", "N/A"; a list's column headings: "Figure  Page"
    if is_caption(text) or reads_as_front_matter(text):
        return None  # a caption; a paper's author list or copyright line
    if reads_as_equation(text) or all(map(_STATED_VALUE.fullmatch, text.split("\n"))):
        return None  # "Ui → R n", "8) X = (R \ { 0 }) ∪ (01, 02)"; values: "Chi-square= 1.52"
    return heading


def starts_with_bullet(text: str) -> bool:
    """Whether ``text`` starts with a bullet glyph (a symbol font's are mapped to the
    private use area: U+F0B7); "+" only before a space: glued to a word it is a sign ("+D")."""
    first = text[:1]
    if first == "+":
        return text[1:2].isspace()
    return bool(first) and (first in _BULLETS or "\ue000" <= first <= "\uf8ff")


def is_bullet_item(text: str) -> bool:
    """Whether ``text`` is a list item: a bullet before text (not a number: "● 1 Intro")."""
    text = text.strip()
    return starts_with_bullet(text) and parse_label(text[1:].strip()) is None


def label_tab_as_space(text: str) -> str | None:
    """``text`` with the tab that parts a leading numbering label from its title read as
    a space ("2.\tPhysical infrastructure"); None when it has no such label or a tab
    stands anywhere else (a form's "Name:\tvalue", an entry's "Scope\t4": columns)."""
    label = parse_label(text.strip())
    if label is None or not label.rest or "\t" in label.rest:
        return None
    return f"{label.text.rstrip()} {label.rest}"


def starts_lowercase(text: str) -> bool:
    """Whether ``text`` starts with a lower-case letter of any cased script ("the …",
    "с частью 2 …"), past opening quotes; CJK has no case. A leading parenthesis is
    judged by the word after it: "(informative) Examples" is a title, "(одного) рабочего
    дня" a sentence's continuation."""
    if text.startswith(("(", "（")):
        close = text.find(")" if text[0] == "(" else "）")
        if close > 0:
            text = text[close + 1 :].lstrip()
    letters = text.lstrip(_LEADING_QUOTES)
    return bool(letters) and letters[0].islower()


def _is_formula(text: str) -> bool:
    """Whether a line is mostly symbols: at most half of its characters (spaces aside) are
    letters or digits."""
    shown = "".join(text.split())
    return 2 * sum(map(str.isalnum, shown)) <= len(shown)


def reads_as_equation(text: str) -> bool:
    """Whether a line is an equation's: more mathematical symbols (arrows and operators:
    → ⇒ ∈ ∩ ≠ ∅, letters of the mathematical alphabets: 𝑉 𝛿) than words (of
    :data:`_WORD_LETTERS` letters, or a CJK ideograph). A title may hold one between
    its words ("Input → Output"); the keyboard's "=" is no evidence ("x = y + 1")."""
    symbols = len(_MATH_SYMBOL.findall(text))
    return symbols > 0 and symbols > len(_WORD.findall(_MATH_LETTER.sub(" ", text)))


def _plain_heading(
    text: str, max_chars: int, lowercase: bool, lead_in: bool, max_cjk: int
) -> HeadingText | None:
    if not any(ch.isalpha() for ch in text) or _too_long(text, max_chars, max_cjk):
        return None
    if _is_formula(text):
        return None  # "∑ x", "n=1 ( Xn∩Yn)": an equation's line, not a title
    if starts_lowercase(text) and not lowercase:
        return None  # a continuation of a sentence, not a title
    if text[-1] in ":：" and lead_in and len(text.split()) <= _MAX_LEAD_IN_WORDS:
        text = text[:-1].rstrip()  # "Test 1:": a title only where its look says so
        if not text:
            return None
    if _is_sentence(text) or text[-1] in ":：" or ends_open(text):
        return None
    return HeadingText(text, "", None)


def ends_open(text: str) -> bool:
    """Whether ``text`` stops where its sentence must go on: on an opening bracket, an
    equals sign (an equation's left side: "∫ I(λ) · QE(λ) EWQE="), or on an English
    article, preposition or conjunction ("Inspired by", "we obtain that"). Chinese has no
    word test: a title may end on 的 or 及 inside a word ("评价目的", "涉及")."""
    if text[-1] in _OPEN_BRACKETS or text[-1] in "=＝":
        return True  # "Ultimately, the attention queries (": cut inside a parenthesis
    if _opens_parenthesis(text):
        return True  # "Taxable (Exempt for state": a parenthesis left open
    last = _LAST_WORD.search(text)
    # One word alone is a name ("and", an operator a specification describes), not a fragment.
    return last is not None and last.group(1) in OPEN_ENDINGS and last.start() > 0


def _opens_parenthesis(text: str) -> bool:
    return text.count("(") + text.count("（") > text.count(")") + text.count("）")


def _numbered_heading(
    text: str, label: Label, max_chars: int, lowercase: bool
) -> HeadingText | None:
    rest = label.rest
    label_end = len(text) - len(rest) if rest else len(text)
    if not rest:
        # A bare label is a heading only when the label names a unit ("第一条", "Article 5").
        return HeadingText(text.rstrip(":："), "", label) if names_a_unit(label) else None
    if starts_lowercase(rest) and not lowercase:
        return None  # "a) the operator shall": a list item continuing a sentence
    if label.family.startswith("legal-") and cited_in_a_sentence(
        label.family, text[len(label.text) :]
    ):
        return None  # "第七條和附件二第三條的解釋》，就…": a unit cited, its sentence going on
    colon = _COLON.search(rest)
    if colon is not None:
        lead = rest[: colon.start()].strip()
        body = rest[colon.end() :].strip()
        lead_limit = _MAX_CJK_LEAD_CHARS if cjk_share(lead) > 0.5 else _MAX_LEAD_CHARS
        # "1.目的：规范…。" carries its body; "9.2 Conformance Clause 1: TOSCA processor"
        # is one title with a colon in it.
        carries_body = not body or _is_sentence(body) or len(body) > 2 * lead_limit
        fits = lead and len(lead) <= lead_limit and not _opens_parenthesis(lead)
        if fits and not _is_sentence(lead) and carries_body:  # no colon inside a parenthesis
            title = text[: label_end + colon.start()].rstrip()
            return HeadingText(title, body, label) if any(c.isalpha() for c in lead) else None
        if not body:
            return None  # "231. There are a number of mechanisms, including:": a lead-in
    if label.family in LEGAL_ARTICLES and (_is_sentence(rest) or _too_long(rest, max_chars)):
        return HeadingText(text[:label_end].rstrip(" \t\u3000:：、."), rest, label)
    if not any(ch.isalpha() for ch in rest) or _is_sentence(rest) or ends_open(rest):
        return None
    limit = max_chars * MAX_NUMBERED_HEADING_CHARS // MAX_HEADING_CHARS
    if _too_long(text, limit, MAX_CJK_NUMBERED_HEADING_CHARS):
        return None
    return HeadingText(text, "", label)


def continues_sentence(text: str) -> bool:
    """Whether ``text``, the lines after a soft break, goes on with the sentence above it:
    its first letter is lower case ("…заказчиком" over "в безналичном порядке…", "…лиц"
    over "(далее – Получатель)…")."""
    first = next((ch for ch in text if ch.isalpha()), "")
    return first.islower()


def is_series_label(label: Label) -> bool:
    """A label whose numbers place it in a document's outline rather than in a list (a
    named unit, a decimal or annex number of two levels or more, a control identifier)."""
    if label.family in ("decimal", "annex-decimal", "lettered"):
        return label.depth >= 2
    return names_a_unit(label) or label.family.startswith("code")


def soft_break_pieces(text: str) -> list[str]:
    """How the smart outline reads a paragraph with soft line breaks: whole (a heading
    written on two lines, "第一章" over "总则", stays one title; a list typed with line
    breaks, "1. …" over "2. …", stays one paragraph), except that a line starting a member
    of a series (第十六条, 2.3, Article 4, AC-3) starts a piece of its own, and that a
    numbered title on the first line over body text is a piece of its own ("第十五条 安全责任"
    over "各部门应…"). The pieces joined with ``"\n"`` are ``text``."""
    lines = text.split("\n")
    if len(lines) == 1:
        return [text]
    first = parse_label(lines[0])
    pieces: list[list[str]] = [[lines[0]]]
    for line in lines[1:]:
        label = parse_label(line)
        if label is not None and is_series_label(label):
            pieces.append([line])
        else:
            pieces[-1].append(line)
    head = pieces[0]
    if first is not None and len(head) > 1:
        title = heading_text(head[0], markdown=False)
        rest = "\n".join(head[1:])
        if (
            title is not None
            and not title.body
            and heading_text(rest, markdown=False) is None
            and not continues_sentence(rest)
        ):
            pieces[0:1] = [[head[0]], head[1:]]
    return ["\n".join(piece) for piece in pieces]
