"""Stage C (spec §8): lines the heading classifier takes for titles that name no part.

The classifier (``outline/lines.py``, ``outline/non_titles.py``) reads a line as a title for
the outline, where a look or a style confirms it; stage C names a part after it with no
such check, so it also refuses lines that label a kind of text rather than title a part.
Alone, a line is none when it (:func:`names_no_part`) ends on a dash glued to its last word,
a lead-in as one ending on a colon ("The potential impact is high if—"; a title may end on a
dash set apart, "Part 1 –"); on a word a hyphen cuts at the line's end, in capitals too (a
notice set in capitals broken over lines: "… IN AN ACTION OF CONTRACT, TORT OR OTHER-"; the
outline refuses the cut word in lower case, ``outline/non_titles.py``); or when it is a
table's row read as a line, its cells parted by " | ": three cells or more ("WD01, Rev03 |
2019-05-08 | Calin Curescu | …", "Sender Action | MQTT-SN Control Packet | Receiver
Action"), a cell that is a number ("162 | gnuplot 5.4", a page's running head), or a piece
of a row opening or closing on its rule ("| order <n>"); a title may name two things so
("AC-2 | Control Summary Information"); or when it opens a reference list's entry: its
number, glued or not, then an author in citation form, initials before the name and a comma
or "and" after it ("22.M. Levin, B. Morsey, …", "[7] E. N. Marieb, Human Anatomy …"; with no
number two initials, each with its space: "U.S. Federal Government Terms" is a title), or
that holds an entry's type code as GB/T 7714 writes it after the work's title ("沧浪之水[M].
北京: …", "Differential power analysis[C]//Wiener M. …") or ends on its year and pages, as
it writes them ("Publishing Company, 1994: 112-125", the entry's last line); or when it is a
field listing its values after a run-in label, four or more of a word or three each, parted
by commas, one in lower case or the list parted by "、" ("Keywords: storm, evacuate, coast,
rain", "Additional capabilities: PNG, JPEG, TIFF, cairo"; "Goal: Useful, consistent, tool
supported comments" names three and stays a title); or when it is an annotation of code
alone ("@Override", "@SuppressWarnings(unchecked)"; a routine's signature stays, as a
reference manual lists its routines so: "YZero(bool extend=true)"). The outline
keeps a line ending on a dash: a title broken over two lines may end its first so ("… for
nuclear power plants—"), and its look tells it is one.

In a block, a line is none when it numbers an entry of a reference list whose entries open
as above (:func:`among_reference_entries`: "59.Department of Health …, Guidelines for"
between "57.S. Loue, …" and "60.F. M. Smith, …": its number written as theirs, between their
first and last); when the line before it ends on a word a hyphen cuts (:func:`after_cut_words`:
it opens with the word's rest, "ING BUT NOT LIMITED TO …"); or when the run-in label before
its colon opens another line of the block too (:func:`recurring_run_in_labels`: "正例：…" and
"反例：…" before a rule's examples, "说明：…", "Beweis: …", "Note: …"): the label of a kind of
paragraph the document repeats, its text an example, a note, a proof or a field's value. Not
where the text after the label is a title in capitals ("DHHS: FAMILY PLANNING …", "NIH: …":
items headed by the body that offers them).

Beside its block, a title is none when it says a heading on the block's path again
(:func:`repeats_its_path`: a running head left in the text, "Chapter 1 …" in a section of
chapter 1): a part named so would nest a heading below itself.

Input: a line, or a block's lines. Output: whether the line names no part, or the lines
(flat, casefolded) that name none. Pure.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from lightrag_pchunk.outline.lines import flat_text
from lightrag_pchunk.outline.non_titles import cut_word_at_end

#: A dash glued to a line's last word or its closing parenthesis, ending the line.
_DASH_LEAD_IN = re.compile(r"[^\s\d][\u2013\u2014]$")
#: A table's cells parted in a line, and a cell that is a number ("162", "12.5%").
_CELL_RULE = " | "
_NUMBER_CELL = re.compile(r"[-+]?\d[\d.,]*%?")
#: A reference list's entry: its number, an author's initials (each with its space), the
#: name, then a comma, "and" or the year in parentheses.
_CITED_NAME = r"[A-Z][\w'’-]+(?: [A-Z][\w'’-]+)?(?:,|\s+and\s|\s+\((?:1[5-9]|20)\d\d\))"
_REFERENCE_ENTRY = re.compile(
    rf"(?:\[\d{{1,3}}\]\s*|\d{{1,3}}\.\s?)(?:[A-Z]\.\s)+{_CITED_NAME}"
    rf"|(?:[A-Z]\.\s){{2,}}{_CITED_NAME}"
)
#: An entry's number as written: in brackets, or glued to the text or set apart after its point.
_ENTRY_NUMBER = re.compile(r"\[(\d{1,3})\]\s*(?=\S)|(\d{1,3})\.(?=[^\W\d_])|(\d{1,3})\.\s(?=\S)")
#: A cited work's type code after its title (GB/T 7714: a book, a paper in proceedings, a
#: thesis, an article, a report, a standard, a patent, an online work …), then its point.
_TYPE_CODE = re.compile(r"\[(?:[ACDGJMNPRSZ]|EB|DB|CP)(?:/OL)?\](?:\.|//|,)")
#: An entry's year, volume and issue, then its pages after a colon, ending the line.
_YEAR_AND_PAGES = re.compile(r"(?:1[5-9]|20)\d\d(?:,\s*\d+(?:\(\d+\))?)?:\s*\d+(?:[-–]\d+)?\.?$")
#: A list's items after a run-in label, and what a list of four or more sets apart in brackets.
_LIST_ITEMS = re.compile(r"[,;，；、]\s*")
_BRACKETED = re.compile(r"\([^()]*\)|（[^（）]*）|《[^《》]*》|\[[^\[\]]*\]")
#: An annotation of code alone, its arguments in parentheses.
_ANNOTATION = re.compile(r"@[^\W\d][\w.]*(?:\([^()]*\))?")
#: A run-in label and its text: a word or two of letters (or up to four ideographs) before a
#: colon, text after it ("正例：ForceCode / UserDO", "Note: the value is cached").
_RUN_IN_LABEL = re.compile(
    r"([\u3400-\u9fff]{1,4}|[^\W\d_][^\W\d_'’-]*(?: [^\W\d_][^\W\d_'’-]*)?)\s*(?:：\s*|:\s+)(\S.*)"
)


def names_no_part(text: str) -> bool:
    """Whether ``text``, one line the classifier reads as a title, names no part alone: it
    ends on a dash glued to its last word or on a word a hyphen cuts, is a table's row or
    opens a reference's entry (see the module doc)."""
    line = text.strip()
    if _DASH_LEAD_IN.search(line) or cut_word_at_end(line):
        return True
    if _REFERENCE_ENTRY.match(line) or _TYPE_CODE.search(line) or _YEAR_AND_PAGES.search(line):
        return True
    if _lists_values(line) or _ANNOTATION.fullmatch(line):
        return True
    return _is_table_row(line)


def _lists_values(line: str) -> bool:
    """Whether ``line`` is a field listing four values or more after its run-in label."""
    found = _RUN_IN_LABEL.match(flat_text(line))
    if found is None:
        return False
    rest = _BRACKETED.sub("", found.group(2)).rstrip(".。")
    items = [item.strip() for item in _LIST_ITEMS.split(rest)]
    if len(items) < 4 or any(not item or len(item.split()) > 3 for item in items):
        return False
    return "、" in rest or any(item[0].islower() for item in items)


def _is_table_row(line: str) -> bool:
    """Whether ``line`` is a table's row read as a line, or a piece of one."""
    if line.startswith("| ") or line.endswith(" |") or line == "|":
        return True
    cells = line.split(_CELL_RULE)
    if len(cells) > 2:
        return True
    return len(cells) == 2 and any(_NUMBER_CELL.fullmatch(cell.strip()) for cell in cells)


def repeats_its_path(title: str, path: Sequence[str]) -> bool:
    """Whether ``title``, an anchor's, says a heading of ``path`` (its block's parents and
    heading) again (see the module doc)."""
    key = flat_text(title).casefold()
    return any(flat_text(heading).casefold() == key for heading in path)


def naming_no_part(lines: Sequence[str]) -> frozenset[str]:
    """The lines of a block (flat, casefolded; "" for a table) that name no part by the
    lines beside them: :func:`after_cut_words`, :func:`recurring_run_in_labels`,
    :func:`among_reference_entries`."""
    return after_cut_words(lines) | recurring_run_in_labels(lines) | among_reference_entries(lines)


def among_reference_entries(lines: Sequence[str]) -> frozenset[str]:
    """The lines of a block (flat, casefolded; "" for a table) numbered as two entries of a
    reference list or more, between their first and last (see the module doc)."""
    numbered: dict[int, list[tuple[int, str]]] = {}
    entries: dict[int, list[int]] = {}
    for line in lines:
        found = _ENTRY_NUMBER.match(line.strip()) if line and "\n" not in line else None
        if found is not None:
            form = found.lastindex or 0
            number = int(found.group(form))
            numbered.setdefault(form, []).append((number, flat_text(line).casefold()))
            if _REFERENCE_ENTRY.match(line.strip()):
                entries.setdefault(form, []).append(number)
    return frozenset(
        line
        for form, numbers in entries.items()
        if len(numbers) > 1
        for number, line in numbered[form]
        if min(numbers) <= number <= max(numbers)
    )


def after_cut_words(lines: Sequence[str]) -> frozenset[str]:
    """The lines of a block (flat, casefolded; "" for a table) after a line that ends on a
    word a hyphen cuts (see the module doc)."""
    return frozenset(
        flat_text(line).casefold()
        for before, line in pairwise(lines)
        if line and cut_word_at_end(before)
    )


def run_in_label(text: str) -> str | None:
    """The run-in label opening ``text`` (casefolded), or None; None too where the text
    after it is a title in capitals: two words in capitals or more, no lower case, no "_"."""
    found = _RUN_IN_LABEL.match(flat_text(text))
    if found is None:
        return None
    rest = found.group(2)
    capitals = sum(word.isupper() and len(word) > 1 for word in rest.split())
    if capitals > 1 and not any(map(str.islower, rest)) and "_" not in rest:
        return None
    return found.group(1).casefold()


def recurring_run_in_labels(lines: Sequence[str]) -> frozenset[str]:
    """The lines of a block (flat, casefolded; "" for a table) whose run-in label opens
    another line of the block too (see the module doc)."""
    labels = [run_in_label(line) if line and "\n" not in line else None for line in lines]
    counts = Counter(label for label in labels if label is not None)
    return frozenset(
        flat_text(line).casefold()
        for line, label in zip(lines, labels, strict=True)
        if label is not None and counts[label] > 1
    )
