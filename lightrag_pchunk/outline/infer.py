"""The smart outline: which unstyled lines of a document are headings, and at which level.

Input: the document's body as :class:`OutlineItem` s in reading order (paragraph lines with
their look, styled headings, and other content such as tables), and the body text size.
Output: one :class:`InferredHeading` per line promoted to a heading. Pure: the parsers
(.docx, Markdown) gather the items, this decides, and they build their blocks from it.

Evidence, per line that the text channel (:func:`~lightrag_pchunk.outline.lines.heading_text`)
allows at all:

- numbering: a label (第三章, 1.2, 一、, Article 5 …); sequence continuity with the previous
  heading of its family (1.1 -> 1.2, 第三条 -> 第四条) counts in its favour;
- the look: bold, larger than the body text, centred, all capitals;
- what follows: body text, a table or a deeper numbered line. A line followed by a sibling
  of its own list with no text between, or whose list siblings are sentences, is a list
  item, not a heading;
- the document's table of contents: a title it lists is a heading, whatever its look;
  the lines of a cover before it title nothing
  (``placed.cover_lines_before_contents``, applied by the parser), nor does a number that
  ends a title set centred on two lines;
- a series: a line that continues a series of accepted headings (第十五条 -> 第十六条,
  1.2 -> 1.3, AC-2 -> AC-3) is one, and so is a line in a known heading's look that
  continues its numbering, or a titled line of a run of numbers between two known headings
  that the second closes, or a short line in their look that opens a series of accepted
  headings, back to its first number (``series.py``); the members of one series are all
  headings or none, as most of them read (``series_votes.py``).

A numbered line needs its number plus one more piece of evidence (look, body after it, or
continuity); a Word list item also needs the look unless it names a unit (第X条, Article N)
or numbers on from the heading of its family taken last, or the first part of a unit taken
last (1.1 under 第一章), over text.
An unnumbered line needs the look and body text after it, and at most 12 words (24 in a larger
bold look that shorter titles share: ``_most_words``); where some headings are set larger than
the text (the document's title, set apart once, sets no tier: ``look_tiers.tier_lines``), a line
only bold at the text's size is a label (and any bold line, where headings larger but not bold
outsize and outnumber the bold ones), except in a long stretch the outline (styled, or
inferred whole) leaves bare, or a unit's text (Item 3.) in a look below the unit's, where such
a line standing alone between paragraphs heads a part of it. Where no heading has a look and
no table of contents lists them, a short title standing alone between paragraphs is a
heading by its place (``placed.py``). Decisions on weak evidence alone may go to a language
model (``judge``).

Levels: numbered headings nest by family (:class:`~lightrag_pchunk.outline.numbering.
FamilyStack`), below the styled heading they sit under; an unnumbered heading takes the level
that numbered headings of the same look have, else by prominence (larger, bold, caps first).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate

from lightrag_pchunk.outline.candidates import find_candidates
from lightrag_pchunk.outline.heading_levels import assign_levels, recurring_labels
from lightrag_pchunk.outline.items import InferredHeading, ItemKind, Look, OutlineItem, Promoted
from lightrag_pchunk.outline.judge import Candidate
from lightrag_pchunk.outline.known_series import continue_known_series
from lightrag_pchunk.outline.lines import (
    MAX_HEADING_CHARS,
    MAX_PLAIN_WORDS,
    cjk_share,
    count_text_words,
    count_title_words,
    flat_text,
    is_series_label,
    starts_lowercase,
)
from lightrag_pchunk.outline.list_items import (
    first_part_of,
    is_initial,
    list_items,
    numbers_a_part,
    titles_after,
)
from lightrag_pchunk.outline.look_tiers import (
    ends_a_centred_title,
    first_body_paragraph,
    followed_by_content,
    has_plain_tier,
    is_over_a_larger_title,
    is_set_larger,
    minor_tier_looks,
    same_look_run,
    set_below,
    stands_over_a_title,
    tier_lines,
)
from lightrag_pchunk.outline.placed import (
    over_text,
    recurring_lines,
    recurring_titles,
    stands_between_paragraphs,
    stands_under_content,
    titles_code,
)
from lightrag_pchunk.outline.run_on import in_its_look, runs_on
from lightrag_pchunk.outline.section_names import names_paper_section
from lightrag_pchunk.outline.series import (
    complete_series,
    fill_between_accepted,
    fill_between_known,
    open_series,
)
from lightrag_pchunk.outline.series_votes import settle_series
from lightrag_pchunk.outline.unit_words import names_a_unit

#: A whole-line bold or larger run counts as the look; centring and capitals add to it.
_LOOK_NEEDED = 1.0
#: A title only a note in brackets: "[Reserved]" at the text's look (a number kept with no
#: text) heads nothing; "[Insert section title]" in a heading's look does.
_PLACEHOLDER = re.compile(r"\[[^\[\]]+\]\.?")


def body_words(texts: Iterable[str]) -> float:
    """Words of text: space-separated tokens, CJK characters counting two to a word."""
    return sum(map(count_text_words, texts), 0.0)


def _holds_more_words(texts: Iterable[str], min_words: float) -> bool:
    """Whether ``texts`` hold more than ``min_words`` words (:func:`body_words`)."""
    return any(total > min_words for total in accumulate(map(count_text_words, texts)))


def long_stretches(
    items: Sequence[OutlineItem], min_words: float, *, content: bool = False, front: bool = False
) -> list[range]:
    """The stretches between known headings (and before the first) of over ``min_words``
    words of text (``infer_outline(..., within=...)`` reads them); ``content``: under a known
    heading (before it only if ``front``), of its other lines too (``ItemKind.OTHER``)."""
    stretches, start = [], 0
    for end in [*(i for i, item in enumerate(items) if item.kind is ItemKind.HEADING), len(items)]:
        kinds = {ItemKind.TEXT, ItemKind.OTHER} if content and (start or front) else {ItemKind.TEXT}
        if _holds_more_words((i.text for i in items[start:end] if i.kind in kinds), min_words):
            stretches.append(range(start, end))
        start = end + 1
    return stretches


def infer_outline(
    items: Sequence[OutlineItem],
    body_size: float = 0.0,
    look_of: Callable[[int], Look | None] | None = None,
    judge: Judge | None = None,
    *,
    within: Sequence[range] | None = None,
    long_gaps: Sequence[range] = (),
    listed: bool = False,
) -> list[InferredHeading]:
    """The lines of ``items`` that are headings, with their levels (see the module doc).

    ``look_of(index)`` gives the look of a TEXT item whose ``look`` is None, asked only for
    lines the text channel allows (formatting is the costly part to read). ``judge`` gets
    the candidates the rules could not settle (weak evidence only) and returns verdicts by
    candidate key (item index) for those it has an opinion on. ``within``: only lines of
    these ranges of items may become headings (None: all); the known headings around them
    still place them (a heading found inside a styled section nests below it), and the
    members their numbered series needs are found wherever they stand (``series.py``).
    ``long_gaps``: the stretches a styled outline leaves too long (:func:`long_stretches`);
    in them a line only the tiers of looks call a label heads a part where it stands
    alone between paragraphs, and a tab after a leading number reads as a space.
    ``listed``: the known headings are a printed table of contents' entries
    (``heading_levels.py``).
    """
    in_gaps = frozenset(i for stretch in long_gaps for i in stretch)
    candidates = find_candidates(items, body_size, look_of, within, in_gaps)
    accepted = _accept(items, candidates, body_size, judge, in_gaps, look_of, within is not None)
    accepted += complete_series(items, candidates, accepted, within)
    taken = {c.index for c in accepted}
    accepted += continue_known_series(items, body_size, look_of, taken)
    accepted += fill_between_known(items, body_size, look_of, taken)
    accepted += fill_between_accepted(items, accepted, body_size, look_of, taken)
    accepted += open_series(items, accepted, body_size, look_of, taken)
    accepted = settle_series(items, candidates, accepted, within)
    accepted += recurring_titles(items, candidates, accepted)
    # Lines their parser knows head nothing told the tiers of looks; none is a heading.
    accepted = [c for c in accepted if not items[c.index].titles_nothing]
    accepted.sort(key=lambda c: c.index)
    found = assign_levels(items, accepted, listed=listed, in_gaps=in_gaps)
    # Labels taken out may bring others to the top: again until none is left.
    while labels := recurring_labels(items, found, {c.index for c in accepted if not c.label}):
        accepted = [c for c in accepted if c.index not in labels]
        found = assign_levels(items, accepted, listed=listed, in_gaps=in_gaps)
    return found


Judge = Callable[[list[Candidate]], dict[int, bool]]


def _accept(
    items: Sequence[OutlineItem],
    candidates: dict[int, Promoted],
    body_size: float,
    judge: Judge | None = None,
    in_gaps: frozenset[int] = frozenset(),
    look_of: Callable[[int], Look | None] | None = None,
    styled: bool = False,
) -> list[Promoted]:
    """The candidates that are headings. Decisions that rest on weak evidence alone are
    ambiguous; ``judge`` (a language model, when asked for) may overturn those.
    ``in_gaps``: the lines of long stretches that a styled outline leaves without a
    heading; ``look_of``: the look of a line the items give none (``infer_outline``);
    ``styled``: the stretches read are those the known headings leave (not read whole)."""
    listed = list_items(items, candidates)
    opening = first_body_paragraph(items, candidates)
    # Where some headings are set larger than the text, a line that is only bold (or in
    # capitals) at the text's size is a run-in label ("Note", "Examples"), not a heading;
    # a document whose only emphasis is bold uses it for its headings. Larger headings are
    # bold (then a larger line that is not is no heading either), or else several lines of
    # one larger look that outsizes every bold line (a template's headings set larger
    # only, as Word's own heading styles are: then bold lines are emphasis).
    larger = tier_lines(
        items,
        candidates,
        [c for i, c in candidates.items() if i not in listed and is_set_larger(c, body_size)],
        opening,
    )
    bold_tier = any(c.look.bold for c in larger)  # type: ignore[union-attr]
    plain_tier = has_plain_tier(items, candidates, larger)
    larger_at = sorted(c.index for c in larger)
    minor_tier = (
        minor_tier_looks(items, candidates, listed, body_size, larger_at) if bold_tier else set()
    )
    # The lines that recur, read when a rule first asks (most documents' never do).
    recurring = functools.cache(functools.partial(recurring_lines, items))
    # A table of contents says which lines are headings: place alone is evidence without one.
    by_place = not any(item.in_toc for item in items) and not (bold_tier or plain_tier)
    # Looks of the short titles set larger in bold: a tier of headings in which a title
    # may run longer (``_most_words``).
    tiers = Counter(
        c.look.signature()
        for c in larger
        if c.look is not None
        and c.look.bold
        and count_title_words(c.heading.title) <= MAX_PLAIN_WORDS
    )
    decisions: dict[int, bool] = {}
    ambiguous: list[int] = []
    last_by_family: dict[str, Promoted] = {}  # each family's heading taken last
    unit, seen = None, 0  # the look of a unit's heading taken last, up to a known heading
    taken: Promoted | None = None  # the heading taken last, up to a known heading
    for index in sorted(candidates):
        candidate = candidates[index]
        if any(i.kind is ItemKind.HEADING for i in items[seen:index]):
            unit = taken = None
        seen = index + 1
        label = candidate.label
        last = last_by_family.get(label.family) if label is not None else None
        previous = last.label if last is not None else None
        continues = previous is not None and label is not None and label.follows(previous)
        if items[index].in_toc:
            # The document's own table of contents lists it: a heading, whatever its look.
            decisions[index], taken = True, candidate
            if label is not None:
                last_by_family[label.family] = candidate
            continue
        if index in listed and not (continues and label is not None and is_series_label(label)):
            continue
        follows = followed_by_content(items, candidates, index)
        score = candidate.look_score
        if label is not None:
            is_unit = names_a_unit(label)
            strong = score >= _LOOK_NEEDED or bool(candidate.heading.body) or continues
            # A number with nothing else over a larger title heads an empty section: a
            # list's item left before the next section.
            evidence = strong or (follows and not is_over_a_larger_title(candidates, index))
            if starts_lowercase(label.rest):
                # "a) the operator shall": usually a list item; an identifier after a
                # section number ("5.2.1 tosca_definitions") needs the look or continuity.
                evidence = strong = score >= _LOOK_NEEDED or continues
                if follows and not evidence:
                    ambiguous.append(index)
            if items[index].is_list_item and not is_unit and score < 1:
                # A list's item, unless a stretch the styles leave too long holds it over its
                # own first part (3. over 3.1.), or it numbers on, over text, from the heading
                # of its family taken last (``titles_after``) or a unit's (1.1 under 第一章).
                over_parts = index in in_gaps and numbers_a_part(items, index, label)
                titled = continues and titles_after(items, last.index, index, label)
                titled = titled or first_part_of(label, taken and taken.label)
                evidence = strong = over_parts or (titled and follows)
            if ends_a_centred_title(items, candidates, index):
                evidence = strong = False
            broken = runs_on(items, index, MAX_PLAIN_WORDS)
            if not is_unit and score < _LOOK_NEEDED and label.rest and broken:
                # A numbered paragraph's first line, broken off; a unit's label ("Appendix
                # 2" / "to the contract") may run on into its title's second line.
                evidence = strong = False
            if score < _LOOK_NEEDED and _PLACEHOLDER.fullmatch(label.rest.strip()):
                evidence = strong = False  # "(2) [Reserved]"
            if not strong and is_initial(items, index, label, continues):
                evidence = False  # "S. Radhakrishnan" under a quotation: a name
            if not strong and label.family == "keyword-note" and stands_under_content(items, index):
                evidence = False  # "Note 1 - Amounts in thousands": the table's footnote
            if evidence and not strong:
                ambiguous.append(index)  # a number and body text after it, nothing else
        else:
            # A lower-case start needs a strong look, and so does a colon at the end at the
            # text's size (a run-in label: "Note:"); set larger than the text, a line that
            # ends in a colon introduces its section ("Test 1:", "Step 2:").
            text = items[index].text.strip()
            colon = text[-1:] in (":", "：") and not is_set_larger(candidate, body_size)
            weak = starts_lowercase(candidate.heading.title) or colon
            needed = _LOOK_NEEDED * (2 if weak else 1)
            evidence = (
                score >= needed
                and follows
                and count_title_words(candidate.heading.title) <= _most_words(candidate, tiers)
                and not same_look_run(items, candidates, index)
                and not stands_over_a_title(candidates, index, opening)
                # A paragraph's first line set apart, its sentence going on in its look.
                and not (
                    runs_on(items, index, MAX_PLAIN_WORDS)
                    and in_its_look(items, index, candidate.look, look_of)
                )
            )
            is_larger = is_set_larger(candidate, body_size)
            if plain_tier:
                # Bold lines are outsized by the tier: emphasis, wherever they stand.
                is_label = not is_larger or candidate.look.bold  # type: ignore[union-attr]
            elif bold_tier:
                # A bold line set a step smaller than the text, in a tier of such titles,
                # titles a section of its own, unless its text recurs (a label: "Note").
                minor = (
                    candidate.look.signature() in minor_tier  # type: ignore[union-attr]
                    and flat_text(items[index].text).casefold() not in recurring()
                )
                set_apart = is_larger or minor
                is_label = not (set_apart and candidate.look.bold)  # type: ignore[union-attr]
            else:
                is_label = False
            if evidence and (is_label or score < 2 * _LOOK_NEEDED):
                ambiguous.append(index)  # bold (or capitals) at text size
            if evidence and is_label and (index in in_gaps or set_below(candidate.look, unit)):
                # A stretch the styles leave too long, or a unit's text (an Item, an Article)
                # past its first paragraph, in a look below the unit's, is parted by the lines
                # in a look of their own standing alone between paragraphs (no run-in label).
                above = index in in_gaps and decisions.get(index - 1, False)
                evidence = stands_between_paragraphs(
                    items, index, candidate.heading.title, recurring(), after_heading=above
                )
            else:
                evidence = evidence and not is_label
            set_as_title = score >= _LOOK_NEEDED and (is_larger or candidate.look.caps)  # type: ignore[union-attr]
            if not evidence and (index in in_gaps or set_as_title) and not weak:
                # A paper's or report's own section name ("Results", "References") alone on
                # its line over text heads its part as a number would: in any look in a long
                # stretch the styles leave, else set as a title ("ABSTRACT" in bold capitals),
                # in each paper of several; so does an example's title over its code there.
                evidence = (
                    names_paper_section(candidate.heading.title) and over_text(items, index)
                ) or (index in in_gaps and styled and titles_code(items, index, candidate.look))
            if not evidence and by_place and not weak and score < _LOOK_NEEDED:
                # No heading in the document has a look: where it stands is the evidence.
                evidence = stands_between_paragraphs(
                    items, index, candidate.heading.title, recurring(), cut_below=False
                )
                if evidence:
                    ambiguous.append(index)
        decisions[index] = evidence
        taken = candidate if evidence else taken
        if evidence and label is not None:
            last_by_family[label.family] = candidate
            unit = candidate.look if names_a_unit(label) else None
    if judge is not None and ambiguous:
        questions = [_question(items, i, candidates[i]) for i in ambiguous]
        asked = set(ambiguous)
        for index, verdict in judge(questions).items():
            if index in asked:  # an answer about anything else is not the model's to give
                decisions[index] = verdict
    return [candidates[i] for i in sorted(decisions) if decisions[i]]


#: Titles of a tier of headings this many or more: the tier is the document's heading look.
_TIER_TITLES = 2


def _most_words(candidate: Promoted, tiers: Counter) -> float:
    """Most words an unnumbered title may have: :data:`MAX_PLAIN_WORDS`, twice that in a
    look set larger in bold that :data:`_TIER_TITLES` shorter titles share (``tiers``
    counts only those looks: a help page's "Create a hyperlink to a location in the
    current document or Web page" among its other task titles), and a CJK title there up
    to the longest heading (:data:`MAX_HEADING_CHARS` characters, two to a word: a law's
    title naming the law it decides on); a longer line in another look is a sentence set
    apart."""
    # A type of its own, centred or not: a title wrapped on two lines is set flush.
    signature = candidate.look.signature() if candidate.look is not None else None
    if tiers[signature] >= _TIER_TITLES:
        if cjk_share(candidate.heading.title) > 0.5:
            return max(2 * MAX_PLAIN_WORDS, MAX_HEADING_CHARS / 2)
        return 2 * MAX_PLAIN_WORDS
    return MAX_PLAIN_WORDS


def _question(items: Sequence[OutlineItem], index: int, candidate: Promoted) -> Candidate:
    before = items[index - 1].text if index > 0 else ""
    after = items[index + 1].text if index + 1 < len(items) else ""
    return Candidate(index, items[index].text, before, after)
