"""The word check's shortcut (chunk/coverage.py: text the chunks hold verbatim is left out of
both sides) reports exactly what counting every word of both sides reports: the same words
lost, the same number of times, on chunks that repeat, drop, reorder and split the rows,
in scripts whose word boundaries differ (CJK, combining marks, right-to-left, long runs)."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lightrag_pchunk.chunk import coverage
from lightrag_pchunk.chunk.coverage import MAX_WORD_CHARS, lost_words
from lightrag_pchunk.chunk.shown_text import shown_text


def _every_word(text: str, counts: Counter[str], is_chunk: bool) -> None:
    """Every word of ``text`` counted, as the check counts words, with no text left out."""
    tokens = coverage._TOKEN.findall(text)
    for run in [t for t in tokens if len(t) > MAX_WORD_CHARS]:
        counts.update(run)
    tokens = [t for t in tokens if len(t) <= MAX_WORD_CHARS]
    counts.update(tokens)
    if is_chunk and tokens:
        for run in (tokens[0], tokens[-1]) if len(tokens) > 1 else (tokens[0],):
            if len(run) > 1:
                counts.update(run)


def _lost_counting_every_word(rows: list[str], chunks: list[str]) -> Counter[str]:
    row_counts: Counter[str] = Counter()
    for text in rows:
        _every_word(shown_text(text), row_counts, False)
    shown = [shown_text(text) for text in chunks]
    chunk_counts: Counter[str] = Counter()
    for text in shown:
        _every_word(text, chunk_counts, True)
    chunk_counts.update(coverage.escape_cut_words(chunks))
    seams = coverage._seams(shown)
    if seams:
        coverage._mend_seams(row_counts, chunk_counts, seams)
    return row_counts - chunk_counts


# Pieces whose boundaries disagree between scripts: a word continued by a combining mark or a
# joiner, CJK characters (each a word), right-to-left letters and marks, JSON escapes and a
# table tag (decoded before counting), a run longer than a word.
_PIECES = [
    "a", "ab", "b", "a_b", "7", " ", " ", "\n", "\n\n", ".", "-", "e\u0301", "\u0301",
    "\u200d", "\u200c", "中", "文", "ア", "한", "ب", "سلام", "\u200f", "\u0640", "ि", "क",
    "\\n", "\\u4e2d", '\\"', "x" * (MAX_WORD_CHARS + 3), "፡", "ሰላም",
    '<table format="json">[["a","中"],["b\\nc","e\u0301"]]</table>',
]  # fmt: skip
_text = st.lists(st.sampled_from(_PIECES), max_size=12).map("".join)


@st.composite
def _rows_and_chunks(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    rows = draw(st.lists(_text, min_size=1, max_size=6))
    whole = "\n".join(rows)
    chunks = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["row", "span", "line", "other"]))
        if kind == "row":  # a row whole, maybe again (an overlap or a repeated header)
            chunks.append(draw(st.sampled_from(rows)))
        elif kind == "span":  # any stretch of the rows: cut anywhere, in or out of order
            start = draw(st.integers(0, len(whole)))
            end = draw(st.integers(start, len(whole)))
            chunks.append(whole[start:end])
        elif kind == "line":
            chunks.append(draw(st.sampled_from(whole.split("\n"))))
        else:  # text the chunker adds (a heading, a joiner) or a row's words with others
            chunks.append(draw(_text) + draw(st.sampled_from(rows)) + draw(_text))
    return rows, chunks


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_rows_and_chunks())
def test_leaving_out_verbatim_text_reports_what_counting_every_word_reports(
    case: tuple[list[str], list[str]],
) -> None:
    rows, chunks = case
    assert lost_words(rows, chunks).missing == _lost_counting_every_word(rows, chunks)


def test_a_line_found_once_holds_one_of_its_copies() -> None:
    # The same line twice in the rows, once in the chunks: the second copy is lost, whichever
    # copy the chunk is taken for.
    rows = ["Stop the pump.\nStop the pump.", "Close the valve."]
    chunks = ["Stop the pump.", "Close the valve."]
    assert lost_words(rows, chunks).missing == {"Stop": 1, "the": 1, "pump": 1}
    # A row found inside a longer word is not held verbatim: 'pump' is not in 'pumps'.
    assert lost_words(["pump"], ["the pumps"]).missing == {"pump": 1}
    # A row found after text the chunks skipped: the skipped row is lost, not the found one.
    assert lost_words(["alpha beta", "gamma"], ["x gamma alpha"]).missing == {"beta": 1}


def test_text_opening_the_chunks_is_held_verbatim() -> None:
    # Nothing comes before the first chunk's first word: it is bounded there (a search for a
    # word character before position 0 reads the text's first character instead).
    rows, chunks = ["alpha beta", "gamma"], ["alpha beta", "gamma"]
    assert coverage._held_verbatim(rows, chunks) == ([], ["", "\n", ""])


@st.composite
def _rows_and_r_pieces(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """Long rows and chunks that cut their lines as R does: at white space, each piece
    stripped and repeating the end of the one before, some pieces missing or changed."""
    word = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=4).map("".join)
    rows = draw(st.lists(st.lists(word, max_size=40).map(" ".join), max_size=4))
    chunks = []
    for line in "\n".join(rows).split("\n"):
        words = line.split(" ")
        start = 0
        while start < len(words):
            end = draw(st.integers(start + 1, len(words)))
            piece = " ".join(words[start:end]).strip()
            kind = draw(st.sampled_from(["kept", "kept", "kept", "dropped", "cut", "changed"]))
            if kind in ("cut", "changed"):  # cut off anywhere, even inside a word
                piece = piece[: draw(st.integers(0, len(piece)))] + (
                    "x" if kind == "changed" else ""
                )
            if kind != "dropped":
                chunks.append(piece)
            start = draw(st.integers(start + 1, end)) if end < len(words) else end
    return rows, chunks


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_rows_and_r_pieces())
def test_lines_found_piece_by_piece_report_what_counting_every_word_reports(
    case: tuple[list[str], list[str]],
) -> None:
    rows, chunks = case
    assert lost_words(rows, chunks).missing == _lost_counting_every_word(rows, chunks)


def test_a_line_r_cut_with_an_overlap_is_held_piece_by_piece() -> None:
    line = "Close the inlet valve before the pump starts, then open the outlet valve slowly."
    chunks = ["Close the inlet valve before the pump starts,", "pump starts, then open the"]
    chunks.append("then open the outlet valve slowly.")
    # The first piece, then the rest whole in the third chunk (a part found in the second,
    # "then open the", is under MAX_WORD_CHARS: taken for no piece).
    assert coverage._held_verbatim([line], chunks) == (
        [],
        ["", "\npump starts, then open the\n", ""],
    )
    assert not lost_words([line], chunks)
    assert not lost_words([line], chunks[:1] + chunks[2:])  # the overlap was a copy
    lost = {"Close": 1, "the": 1, "inlet": 1, "valve": 1, "before": 1}
    assert lost_words([line], chunks[1:]).missing == lost


@st.composite
def _rows_joined_into_chunks(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """Rows (some blank) and chunks that join runs of them in order with blank lines, as P
    packs whole rows: the text of both sides is the same, read in other pieces."""
    rows = draw(st.lists(_text, min_size=1, max_size=8))
    with_text = [row for row in rows if row.strip()]
    cuts = sorted(draw(st.sets(st.integers(1, max(len(with_text) - 1, 1)))))
    bounds = [0, *[cut for cut in cuts if cut < len(with_text)], len(with_text)]
    chunks = ["\n\n".join(with_text[a:b]) for a, b in pairwise(bounds) if a < b]
    return rows, chunks


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_rows_joined_into_chunks())
def test_rows_joined_whole_report_what_counting_every_word_reports(
    case: tuple[list[str], list[str]],
) -> None:
    rows, chunks = case
    assert lost_words(rows, chunks).missing == _lost_counting_every_word(rows, chunks)


def test_chunks_that_are_the_rows_joined_are_checked_without_a_word_search(monkeypatch) -> None:
    # One comparison of the whole text: no row is looked for, no word counted.
    def searched(*_: object) -> None:
        raise AssertionError("the rows were searched word by word")

    monkeypatch.setattr(coverage, "_held_verbatim", searched)
    rows = ["# Pumps", "## Start\nOpen the valve.", "   ", "## Stop\nClose it."]
    assert not lost_words(rows, ["# Pumps\n\n## Start\nOpen the valve.", "## Stop\nClose it."])
    monkeypatch.undo()
    # A row left out, or one cut elsewhere than between rows, is counted word by word.
    assert lost_words(rows, ["# Pumps\n\n## Start\nOpen the valve."]).missing == {
        "Stop": 1,
        "Close": 1,
        "it": 1,
    }
    assert not lost_words(rows, ["# Pumps\n\n## Start", "Open the valve.\n\n## Stop\nClose it."])
