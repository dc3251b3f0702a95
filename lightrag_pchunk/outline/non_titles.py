"""Short lines the text channel lets through that no reader calls a title.

The text channel (``lines.py``) reads one line alone and accepts most short lines that are
not sentences, so it also accepts lines that only look short and title-like. The smart
outline (``candidates.py``) takes none of them for an inferred heading and stage C
(``chunk/anchor_split.py``) none for an anchor; a styled or stated heading is never asked.
One predicate per reason:

- text without words (:func:`reads_without_words`): a figure's labels or a font without a
  text map read as characters ("4:<8+7:6I:F+=-4=#0C1923#": half of the title's characters
  or fewer, digits aside, stand in words of two letters or more in a row, of single
  letters joined by "&" or "/" ("Q&A" is a word), or of an ideograph, a syllable of Hangul
  or kana, each a word of its own; a number's points are none of its characters), a
  table's row of figures, an axis's labels, a reference's or an index's entry (three
  numbers standing as words or more: "BM25 + DPR 78.0 79.9 74.7", "22.12월 23.12월 24.1월",
  "25th 50th 75th Mean", "72 C.G.Jung, GW 5, Walter Verlag 1988"; a title mentions a
  number or two, or lists them as a sentence does: "Results for 2019, 2020 and 2021", a
  date and its time one), a count or a date alone ("7월", "25%");
- code or data (:func:`reads_as_code_or_data`): a comment ("// test, if the user …"), an
  assignment, an equation or a block ("P2 = new Point { X = 2, Y = 3 }", "(param) =>
  expr"; not a title stating its case, "Stratum 1: Treatment = 1"), a variable set alone
  ("LIBnn=lib", "CFLAGS=-O2"), a statement's ";" (at
  the line's end or beside code's other marks; not the ";" between the items a title
  names, "Funding; Conflicts of interest"), a string's line ("\\n a ButtonPanel in the
  upper right corner"), a TeX command ("340 \\let\\btxjournalfont=\\@empty", a documented
  package's numbered code), a field of a YAML, JSON or mail header ("$$myid1: myval1",
  '"SHA-1": "5374…"', "Other-Definitions: string": one word, a colon, one word; not two
  words of letters in title case, "Summary: Findings", unless the first is a form's label,
  "Status: Draft"), a field named in a word or two over an identifier ("Type Name:
  open-vocab"), a definition's text in a Markdown definition list (": *Deprecated
  synonym …*"), a command after a shell's prompt ("$ man 1 bash") or run from a relative
  path ("./configure --enable-jit": a build manual's line of code), a key of data alone
  before its colon (:func:`is_data_key`: "example1:", "node_types:"; asked of the line as
  written, ``candidates.py``: a title drops a lead-in's colon);
- a person's line (:func:`is_persons_line`): a contact line with an e-mail address ("Emily
  Ratliff (emily.ratliff@ibm.com), IBM"), a Chinese byline, an office and the name after it
  ("全國人大常委會副秘書長　李飛", "…起草委員會主任委員姬鵬飛");
- a date line (:func:`is_date_line`): a full date, then where it happened, as a speech or
  a decision records when and where it was given ("2014年8月27日在第十二屆全國人民代表大會
  常務委員會第十次會議上", "27 August 2014 at the Tenth Session"); a date alone may head a
  diary's entry and stays, and so does a review of that time ("12 May 2023 in Review");
- a sentence's first line (:func:`opens_a_sentence`): a line of more words than a title
  has, broken off at a page's line end on a word that leaves the sentence open ("The
  curveTo method starts painting a Bezier curve beginning at the current brush location,
  using", "… the widget on the page alternatives are"), one ending in a word a hyphen cuts
  at the line's end ("… qualified subchapter S sub-", "TIP you must include liabilities
  owed for credit reduc-"), a lead-in and its note's mark
  ("… as follows: 23"), a sentence's piece ("PACKAGE 亦可）": a parenthesis closed, never
  opened);
- a reference's tail (:func:`is_citation_tail`): the line of a reference list's entry that
  opens with the entry's pages and year, the entry broken at a line's end before them
  ("2767–2775, 2007. View at Publisher", "140–153, 2006. Google Scholar"). A title may open
  with a span of years, never with pages, a comma and a year closing the entry
  ("1914–1918, 1939–1945: Two Wars" goes on with a span).

Lines that are no title by their neighbours, not alone (an option of a multiple-choice
question, a line of a numbered listing, a table's row of a label and its count, whose shape
:func:`is_count_row` reads): ``line_runs.py``.

Input: one line. Output: whether it is such a line. Pure.
"""

from __future__ import annotations

import re

from lightrag_pchunk.outline.labels import Label, parse_label
from lightrag_pchunk.outline.lines import MAX_PLAIN_WORDS, OPEN_ENDINGS
from lightrag_pchunk.outline.unit_words import MONTH_PATTERN

#: Characters of a word: two letters or more in a row, single letters joined by "&" or "/"
#: (an abbreviation read as one word: "Q&A", "M&A", "I/O"), or one character of a script
#: whose characters are words or syllables (CJK ideographs, Hangul, kana).
_IN_WORDS = re.compile(
    r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|[^\W\d_](?:[&/][^\W\d_])+"
    r"|[^\W\d_\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{2,}"
)
#: A note's mark after a word ("Kohut[^51]", "Future<sup>™</sup>"): no part of the title.
_NOTE_MARK = re.compile(r"\[\^[^\]]*\]|<sup>.*?</sup>")
#: An inline object a title may hold (an equation's LaTeX: "2. 标题内包含公式 <equation
#: …>x=\\frac{…}</equation>", a subscript, a drawing): no code of the line's own.
_INLINE_OBJECT = re.compile(r"<(equation|sub)\b[^>]*>.*?</\1>|<drawing\b[^>]*/>", re.DOTALL)
#: Characters a reader sees none of or reads as no letters: white space, Markdown's inline
#: marks (code, emphasis), digits (a title may carry a number: "КОНТРАКТ № 0172…").
_NOT_COUNTED = frozenset(" `*_~0123456789")
#: A number standing as a word, with its sign, currency, unit or an ordinal's ending
#: ("78.0", "$4,750", "7월", "25th": a table's header of percentiles).
_NUMBER = re.compile(r"[-+−$€£¥]?\d[\d.,:/]*(?:%|[\u3400-\u9fff\uac00-\ud7af]|st|nd|rd|th)?")
#: A line with this many numbers standing as words is a table's row, an axis's labels, a
#: reference's or an index's entry; a title mentions a number or two.
_ROW_NUMBERS = 3
#: Numbers listed in a sentence's way, "and" or "or" before the last ("2019, 2020 and
#: 2021", "QoS 1 and 2"): one mention, as a title makes it; a table's cells stand apart.
_LISTED_NUMBERS = re.compile(
    r"(?<!\S)\d[\d.]*(?:,\s+\d[\d.]*)*,?\s+(?:and|or|&|und|oder|et|ou|y|o|e|和|及|或)\s+\d[\d.]*"
    r"(?=[,;:]?(?:\s|$))",
    re.IGNORECASE,
)
#: A comment's mark (a TeX comment's "%": "%%% 答案用紙ヘッダー開始"; a listing's numbered
#: comment line: "12 # package maintainers to append LDFLAGS"), or a colon opening a
#: definition's text in a Markdown definition list.
_COMMENT = re.compile(r"//|/\*|--\s|:\s|%|\d+\s+#\s")
#: A block's braces, an arrow standing as a word ("(a) => b"), a string's escape or a TeX
#: command ("\\n EXPLANATION PANEL:", "340 \\let\\btxjournalfont=\\@empty"): a backslash
#: opening a word, not one inside a path ("C:\\Program Files", "Windows\\System32", a
#: manual's title).
_CODE_MARKS = re.compile(
    r"[{}]|(?:^|\s)=>(?:\s|$)|(?<![\w:])\\[A-Za-z@]"
    # A comparison standing as a word: a package's relation ("quux (<< 5)", "(>= 7.6)").
    r"|(?:^|[\s(])(?:<<|>>|<=|>=|==|!=)\s"
)
#: A statement's end: a ";" closing the line, glued to what follows (a path list, an
#: entity: "a.jar;b.jar", "&emsp;ELSE"), or beside code's other marks (an "=", a call's
#: parentheses, a keyword: "for (i = 0; i < n; i++)", "int x; char c"; a query's statement
#: opening with its verb in capitals: "SELECT Name FROM Users; DROP TABLE Logs"). Before a
#: space alone it sets apart the items a title names ("Funding; Conflicts of interest").
_STATEMENT_END = re.compile(r";(?:\s*$|(?=\S))")
_BESIDE_STATEMENTS = re.compile(
    r"=|\w\(|\(\)|\b(?:return|var|let|const|int|char|void|import|include|print)\b"
    r"|(?:^|;\s*)(?:SELECT|INSERT|UPDATE|DELETE|DROP|CREATE|ALTER)\s"
)
#: An "=" standing as a word: an assignment ("x = 0"), an equation ("JF (u, v) = −R cos
#: v …"), a proof's step; an option's "--output=FILE" names its value.
_EQUALS = re.compile(r"(?:^|\s)=(?:\s|$)")
#: A variable set to its value, the line's one word (a shell's or a makefile's: "LIBnn=lib",
#: 'CC="gcc -m32"', "CFLAGS=-O2"; quoted in typographic quotes as a PDF prints them:
#: "CPPFLAGS=’-isystem $LOCAL/include’"); its name two characters or more ("E=mc2" is none).
_ASSIGNED = re.compile(r"""[^\W\d]\w+=(?:"[^"]*"|'[^']*'|[‘’][^‘’]*’|“[^”]*”|\S+)""")
#: A title stating its case after its label and a colon, a word or two on each side of the
#: "=" ("Stratum 1: Treatment = 1", "Section 3: Data = Records", "Fall 3: a = 1"); its
#: label opens in upper case (a variable's type, "x: int = 0", is code).
_STATED_CASE = re.compile(r"[^\W\d_a-z][^:=]*:\s+\S+(?:\s\S+)?\s=\s\S+(?:\s\S+)?")
#: A command: after a shell's prompt, in lower case ("$ man 1 bash", "$ ls -l"), or run
#: from a relative path ("./configure --enable-jit", "../bin/run"), no prompt before it.
_COMMAND = re.compile(r"\$\s+[a-z][\w.-]*(?:\s|$)|\.\.?/[\w.-]+(?:/[\w.-]+)*(?:\s|$)")
#: "key: value": one word (an identifier, a quoted key) before the colon, one after it.
_FIELD = re.compile(r"""["']?[\w$.-]+["']?:\s+\S+""")
#: A field named in a word or two whose value is an identifier: lower case, its parts joined
#: by "-", "_" or "." ("Vocabulary Name: malware-capabilities-ov", "Type Name: open-vocab").
_IDENTIFIER_FIELD = re.compile(r"[^\W\d_][\w-]*(?: [^\W\d_][\w-]*)?:\s+[a-z\d]+(?:[-_.][a-z\d]+)+")
#: A title's two parts, each a word of letters in title case ("Summary: Findings",
#: "Appendix: Glossary"): no key of data nor its value, which have other shapes (an
#: identifier, a path, a number, lower case: "Image: figures/nextn.pdf").
_TITLED_PARTS = re.compile(r"([^\W\d_][^\W\d_]*):\s+([^\W\d_][^\W\d_]*)")
#: A key of data alone before its colon, its value on the lines below: one identifier in
#: lower case holding a digit, an underscore or a word in camel case inside ("example1:",
#: "node_types:", "minInstances:"); a lead-in's word ("Examples:", "outputs:") is none, nor
#: a name whose capitals close it ("macOS:", "watchOS:": a product, its steps below).
_DATA_KEY = re.compile(r"(?=[a-z][\w$.-]*?(?:\d|_|[a-z][A-Z][a-z]))[a-z][\w$.-]*:")
#: The labels of a form's fields, whose value may be a word in title case ("Status: Draft",
#: "Author: Smith"): a field still.
_FORM_LABELS = frozenset(
    "name author owner editor status version date type title subject from to cc by source"
    " category tags language priority phone email address location".split()
)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
#: An office ending in its usual character (secretary-general 秘書長, member 委員, chairman
#: 主席, premier 總理, judge 法官, professor 教授), a space, then a name of two or three
#: characters.
_SPACED_BYLINE = re.compile(r"[\u3400-\u9fff]+[長长員员席理官授][\s\u3000]+[\u3400-\u9fff]{2,3}")
#: An office written in one run with the name after it ("…起草委員會主任委員姬鵬飛"): the
#: body whose office it is (two characters or more), the offices whose name is no part of a
#: longer word, then a name of two or three characters none of which names a body, a
#: meeting, an act, a power, a speech or a message ("委員長會議" is the council of chairmen,
#: "主任職責" the director's duties, "主席致辭" the chairman's address, "学院院长寄语" the
#: college's dean's message, "国务院总理答问" the premier's answers). An office with no body
#: before it opens a title of what the office does ("院长寄语" the dean's message).
_JOINED_BYLINE = re.compile(
    r"[\u3400-\u9fff]{2,}(?:主任委員|主任委员|委員長|委员长|秘書長|秘书长|主席|總理|总理|部長|部长"
    r"|院長|院长|教授)([\u3400-\u9fff]{2,3})"
)
_NOT_IN_A_NAME = frozenset(
    "會会議议團团令職职權权辦办法制的和及與与處处室部院組组廳厅局致辭辞講讲話话報报告簡简介選选免序言"
    "寄語语賀贺詞词答問问函信"
)
#: A full date: "2014年8月27日", "2014-08-27", "27 August 2014", "August 27, 2014" (a month
#: named as ``unit_words.MONTH_NAMES`` knows them: "27 maart 2014").
_FULL_DATE = re.compile(
    rf"(?:\d{{4}}\s*年\s*\d{{1,2}}\s*月\s*\d{{1,2}}\s*日|\d{{4}}-\d{{2}}-\d{{2}}"
    rf"|\d{{1,2}}\s+(?:{MONTH_PATTERN})\.?\s+\d{{4}}|(?:{MONTH_PATTERN})\.?\s+\d{{1,2}},?\s+\d{{4}})",
    re.IGNORECASE,
)
#: After a date, what says where it happened: "在…(會議)上", "於…", "at …", "in …".
_WHERE = re.compile(r"\s*(?:在|于|於|(?:at|in|during|before)\s)", re.IGNORECASE)
#: After a date, "in" and a word that names what the text gives of that time, the line's
#: last ("12 May 2023 in Review", "… in Brief", "… in Numbers"): a title, no place.
_IN_REVIEW = re.compile(
    r"\s*in\s+(?:review|brief|focus|numbers|figures|pictures|summary|retrospect|perspective)\s*",
    re.IGNORECASE,
)
#: Last words that leave a sentence open, besides an article, a preposition or a
#: conjunction (``lines.OPEN_ENDINGS``, which the text channel already refuses at any
#: length): a verb that wants its object or complement, a preposition that wants its noun.
_OPEN_LAST_WORDS = OPEN_ENDINGS | frozenset(
    "using including is are was were be been being has have had will would can could shall "
    "should must may might for with to in on onto under over about between through per".split()
)
#: A word cut by a hyphen at the line's end: two letters or more, the last in lower case,
#: then a hyphen (ASCII, Unicode's or a soft one) closing the line ("employ-", "sub-"); a
#: title may end on a dash set apart ("Part 1 –"), never on half a word.
_CUT_WORD = re.compile(r"[^\W\d_]{2,}[-\u2010\u00ad]")
#: A lead-in's colon, then a note's mark: superscript digits, or a number set apart ("Here
#: is a simplified description of package relationships: ⁷", "… can be customized as
#: follows: 23", "这里有一篇关于软件包关系的简述：⁷"); a short title may state a number
#: after its colon ("Season Two: 12", "Psalm 23: 4").
_LEAD_IN_NOTE = re.compile(r"[:：]\s*[\u00b9\u00b2\u00b3\u2070-\u2079]+$|[:：]\s+\d{1,3}$")
#: Fewest characters before a lead-in's colon.
_LEAD_IN_CHARS = 12
#: An item's or a note's mark closed by a parenthesis: a letter or two, a number ("b)",
#: "§1)", "지표1)").
_MARK_IN_PARENTHESIS = re.compile(r"(?<!\S)§?\w{1,2}\)|\d{1,2}\)")
#: A day's date and its time ("12.04.2006 23:05", "2021-05-03 14:30"): one mention, as a
#: news item's heading gives when it was filed ("Agency 03.05.2021 14:30 J. Smith: …").
_TIMESTAMP = re.compile(r"(?<!\S)\d{1,4}([./-])\d{1,2}\1\d{2,4}\s+\d{1,2}:\d{2}(?::\d{2})?(?!\S)")
#: A document cited by its name in 《》, with its code or nothing more ("《记录控制管理程序》
#: C2QA-Z07-000"): an entry of a list of related documents or forms, no section's title.
_CITED_DOCUMENT = re.compile(r"《[^《》]+》(?:\s*[A-Za-z0-9][\w./-]*\d[\w./-]*)?[;；。]?", re.ASCII)
#: A reference's pages and year opening a line: a range, a comma and the year, which a
#: point, a comma, a ";", a parenthesis or the line's end closes ("2767–2775, 2007.").
_CITATION_TAIL = re.compile(r"\d+\s*[-\u2010-\u2013]\s*\d+,\s*(?:1[5-9]|20)\d{2}(?=[.,;)]|$)")
#: A count as a table's cell gives it: "200人", "25%", "1,200元"; a year ("2024年") names
#: a time, no count.
_COUNT = re.compile(r"(?!\d{4}年)\d[\d,.]*(?:%|[\u3400-\u9fff])")


def reads_as_no_title(line: str) -> bool:
    """Whether ``line``, short and title-like to the text channel, is text without words, a
    line of code or data, a person's line, a date line, a sentence's first line or a
    reference's tail (see the module doc)."""
    text = " ".join(_INLINE_OBJECT.sub(" ", line).split())
    label = parse_label(text)
    title = label.rest if label is not None else text
    return (
        reads_without_words(text, label)
        or reads_as_code_or_data(text, label)
        or is_persons_line(text)
        or is_date_line(text)
        or opens_a_sentence(text)
        or is_sentence_piece(title)
        or is_citation_tail(text)
        or _CITED_DOCUMENT.fullmatch(title) is not None
    )


def reads_without_words(text: str, label: Label | None) -> bool:
    """Whether ``text`` (its ``label`` as ``parse_label`` reads it) is text without words,
    a table's row of figures, or a count or a date alone."""
    # A bare label the classifier took names a unit ("§ 1308.12", "Article 5"): its number
    # is its title; after a label, the title's words are in the text that follows it.
    title = _NOTE_MARK.sub("", label.rest if label is not None else text)
    # A number's points and commas are no characters without words: a section's number the
    # label did not take ("○ 3.6.2.2.2 QoS", "● C.6.2.2 DUP": after a list's glyph) leaves
    # its title its words.
    unnumbered = [word for word in title.split() if not _is_number(word)]
    shown = sum(char not in _NOT_COUNTED and not char.isdigit() for char in "".join(unnumbered))
    if shown and 2 * sum(map(len, _IN_WORDS.findall(title))) <= shown:
        return True
    words = text.split()
    numbers = sum(_NUMBER.fullmatch(word) is not None for word in words)
    if numbers == len(words):
        return True  # a count or a date alone
    if numbers < _ROW_NUMBERS:
        return False
    mentioned = _LISTED_NUMBERS.sub("0", _TIMESTAMP.sub("0", text)).split()
    return sum(_NUMBER.fullmatch(word) is not None for word in mentioned) >= _ROW_NUMBERS


def repeats_itself(text: str) -> bool:
    """Whether ``text`` is one run of two words or more said again, once or twice (cells
    parted by "|" or spaces): a table's column groups under headings of one text read
    across ("Percentile (mmol/l) Percentile (mmol/l)"). Stage C takes no such line for an
    anchor; the outline keeps it, as two columns may each repeat a real title ("Product-Limit
    Survival Estimates" twice over a program's two outputs). A title that says a word again
    says it alone ("Bora Bora", "Tora! Tora! Tora!") or sets its halves apart ("New York,
    New York")."""
    words = [word for word in text.split() if word != "|"]
    for times in (2, 3):
        size, rest = divmod(len(words), times)
        if not rest and size >= 2 and words == words[:size] * times:
            return True
    return False


def _is_number(word: str) -> bool:
    """Whether ``word`` is a number standing as a word, or a section's number of several
    parts ("3.6.2", "C.6.2.2")."""
    if _NUMBER.fullmatch(word) is not None:
        return True
    label = parse_label(word)
    return label is not None and label.depth > 1 and not label.rest


def reads_as_code_or_data(text: str, label: Label | None) -> bool:
    """Whether ``text`` (its ``label`` as ``parse_label`` reads it) is a line of code or
    data: a comment, a block, an assignment, a string's escape, a TeX command, a field."""
    if _COMMENT.match(text) or _CODE_MARKS.search(text) or _COMMAND.match(text):
        return True
    if ";" in text and (_STATEMENT_END.search(text) or _BESIDE_STATEMENTS.search(text)):
        return True
    if _EQUALS.search(text) and not _STATED_CASE.fullmatch(text):
        return True
    if _ASSIGNED.fullmatch(text):
        return True
    if label is not None:
        return False
    if _FIELD.fullmatch(text) is None and _IDENTIFIER_FIELD.fullmatch(text) is None:
        return False
    parts = _TITLED_PARTS.fullmatch(text)  # never an identifier's value: a field still
    if parts is None or not (parts[1][0].isupper() and parts[2][0].isupper()):
        return True  # a script without case: no title case to tell ("자료: Bloomberg")
    return parts[1].casefold() in _FORM_LABELS


def is_data_key(line: str) -> bool:
    """Whether ``line`` is a key of data alone before its colon (:data:`_DATA_KEY`): a
    YAML mapping's key over its value's lines, no lead-in titling them."""
    return _DATA_KEY.fullmatch(line.strip()) is not None


def is_persons_line(text: str) -> bool:
    """Whether ``text`` is a person's line: an e-mail address, or a Chinese byline (an
    office and the name after it)."""
    if _EMAIL.search(text) or _SPACED_BYLINE.fullmatch(text):
        return True
    joined = _JOINED_BYLINE.fullmatch(text)
    return joined is not None and not _NOT_IN_A_NAME.intersection(joined.group(1))


def is_date_line(text: str) -> bool:
    """Whether ``text`` opens with a full date and goes on with where it happened (see
    the module doc)."""
    date = _FULL_DATE.match(text)
    if date is None or _IN_REVIEW.fullmatch(text, date.end()):
        return False
    return _WHERE.match(text, date.end()) is not None


def opens_a_sentence(text: str) -> bool:
    """Whether ``text`` is a sentence's first line: more words than an unnumbered
    title has (:data:`MAX_PLAIN_WORDS`), the last a lower-case word that leaves the
    sentence open; a line ending in a word a hyphen cuts (:data:`_CUT_WORD`), whose rest
    opens the next line; or a lead-in ending with its colon and a note's mark."""
    words = text.split()
    last = words[-1] if words else ""
    if len(words) > MAX_PLAIN_WORDS and last.rstrip(",") in _OPEN_LAST_WORDS:
        return True
    if ends_in_a_cut_word(text):
        return True
    note = _LEAD_IN_NOTE.search(text)
    return note is not None and note.start() >= _LEAD_IN_CHARS


def ends_in_a_cut_word(text: str) -> bool:
    """Whether ``text`` ends in a word a hyphen cuts at the line's end (:data:`_CUT_WORD`,
    the letter before the hyphen in lower case: "reduc-"), whose rest opens the next line."""
    cut = cut_word_at_end(text)
    return cut is not None and cut[-2].islower()


def cut_word_at_end(text: str) -> str | None:
    """The last word of ``text`` where a hyphen cuts it at the line's end (:data:`_CUT_WORD`,
    in any case: "reduc-", "OTHER-"), else None."""
    words = text.split()
    return words[-1] if words and _CUT_WORD.fullmatch(words[-1]) else None


def is_sentence_piece(title: str) -> bool:
    """Whether ``title`` (a line's text after its label: "a)" opens a list's item) closes
    a parenthesis it never opened ("PACKAGE 亦可）"): the end of a sentence broken at a
    line's end. An item's or a note's mark closes none ("Teilaufgabe b)", "지표1)")."""
    text = _MARK_IN_PARENTHESIS.sub("", title)
    return sum(map(text.count, ")）")) > sum(map(text.count, "(（"))


def is_citation_tail(text: str) -> bool:
    """Whether ``text`` opens with a reference's pages and year (:data:`_CITATION_TAIL`):
    the rest of a reference list's entry broken at a line's end."""
    return _CITATION_TAIL.match(text) is not None


def is_count(text: str) -> bool:
    """Whether ``text`` is a count as a table's cell gives it ("200人", "25%")."""
    return _COUNT.fullmatch(text) is not None


def holds_counts(text: str) -> bool:
    """Whether ``text`` holds a count before its last word (rows of a table read across:
    "功能團體選舉的議員 35人分區直接選舉的議員 35人")."""
    return _COUNT.search(text.rsplit(maxsplit=1)[0]) is not None


def is_count_row(text: str) -> bool:
    """Whether ``text`` has the shape of a table's row of a label and its count ("香港地區
    全國政協委員的代表 200人", "工商、金融界 25%"): several words, the last a number with a
    percent sign or a unit. A title may have it too ("Early Bird Discount 15%"): such a
    row is no title beside another (``line_runs.in_a_run_of_counts``)."""
    words = text.split()
    return len(words) > 1 and _COUNT.fullmatch(words[-1]) is not None
