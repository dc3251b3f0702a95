"""Word accounting between rows and chunks (chunk/coverage.py): what counts as a word, and
that a shortfall is found, counted and named."""

from __future__ import annotations

import json

import pytest

from lightrag_pchunk.chunk.coverage import MAX_WORD_CHARS, count_words, lost_words

from helpers import run_within_cpu


def test_nothing_lost_when_the_chunks_hold_every_word() -> None:
    rows = ["# Scope\nThe pump shall stop.", "Second row, second words."]
    chunks = ["# Scope [part 1]\nThe pump shall stop.\n\nSecond row, second words."]
    shortfall = lost_words(rows, chunks)
    assert not shortfall and shortfall.total == 0 and shortfall.describe() == "no word"


def test_words_are_a_multiset_and_copies_only_add() -> None:
    rows = ["alarm alarm alarm"]
    assert lost_words(rows, ["alarm alarm", "alarm"]).total == 0
    assert lost_words(rows, ["alarm alarm alarm", "alarm overlap"]).total == 0
    shortfall = lost_words(rows, ["alarm", "alarm"])
    assert shortfall.total == 1 and shortfall.missing == {"alarm": 1}
    assert shortfall.describe() == "1 word (e.g. 'alarm')"


def test_a_lost_chunk_is_counted_and_named() -> None:
    rows = ["one two three", "four five five"]
    shortfall = lost_words(rows, ["one two three"])
    assert shortfall.total == 3
    assert shortfall.describe().startswith("3 words (e.g. 'five' x2, 'four')")


def test_cjk_characters_are_words_one_by_one() -> None:
    assert count_words("第一条 为加强管理") == dict.fromkeys("第一条为加强管理", 1)
    # A row cut anywhere between characters still has all its characters in the chunks.
    assert lost_words(["为加强安全生产管理"], ["为加强安", "全生产管理"]).total == 0
    assert lost_words(["为加强安全生产管理"], ["为加强安全生产"]).missing == {"管": 1, "理": 1}
    # Mixed runs: the Latin part stays one word.
    assert count_words("GB50016标准") == {"GB50016": 1, "标": 1, "准": 1}


def test_json_escaping_inside_table_tags_makes_no_words() -> None:
    rows = [["Name", "Note"], ['say "hi"', "line one\nline two"], ["路径", "C:\\new"]]
    body = json.dumps(rows, ensure_ascii=False)
    tag = f'<table id="tb-1" format="json">{body}</table>'
    words = count_words(tag)
    assert words["hi"] == 1 and words["line"] == 2 and words["new"] == 1
    assert "nline" not in words and "n" not in words  # "\n" is a line break, not "n"
    # A slice re-serialised with ASCII escapes and the header repeated counts the same.
    slice_rows = [rows[0], rows[2]]
    escaped = f'<table id="tb-1" format="json">{json.dumps(slice_rows)}</table>'
    first = f'<table id="tb-1" format="json">{json.dumps(rows[:2], ensure_ascii=False)}</table>'
    assert lost_words([tag], [first, escaped]).total == 0
    assert lost_words([tag], [first]).missing == {"路": 1, "径": 1, "C": 1, "new": 1}


def test_a_table_row_cut_into_raw_pieces_is_read_as_json_text() -> None:
    # R cuts a table row over the cap into pieces that are no longer JSON: their escapes
    # are read as JSON string escapes, so the words are the decoded tag's words.
    row = json.dumps([["first cell", 'one "quoted" word\nnext']], ensure_ascii=False)
    tag = f'<table id="tb-2" format="json">{row}</table>'
    cut = tag.index("cell")
    head, tail = tag[:cut], tag[cut:]
    assert lost_words([tag], [head, tail]).total == 0
    assert lost_words([tag], [head]).missing == {
        "cell": 1, "one": 1, "quoted": 1, "word": 1, "next": 1
    }  # fmt: skip


def test_a_caption_counts_in_the_tag_or_as_text_and_markup_is_no_word() -> None:
    rows = json.dumps([["Month", "Event"], ["1", "Winter fair"]])
    tag = f'<table id="tb-3" format="json" caption="Events &amp; fairs in Январь">{rows}</table>'
    assert count_words(tag) == {
        "Events": 1, "fairs": 1, "in": 1, "Январь": 1, "Month": 1, "Event": 1, "1": 1,
        "Winter": 1, "fair": 1,
    }  # fmt: skip
    bare = f'<table id="tb-3" format="json">{rows}</table>'
    assert lost_words([tag], ["Events & fairs in Январь", bare]).total == 0
    assert lost_words([tag], [bare]).missing == {"Events": 1, "fairs": 1, "in": 1, "Январь": 1}
    html = '<table format="html" caption="Q3"><tr><td>a</td></tr></table>'
    assert lost_words([html], ["Q3", '<table format="html"><tr><td>a</td></tr></table>']).total == 0


def test_a_long_run_cut_between_characters_loses_nothing() -> None:
    blob = "x" * 5000 + "Q" * 3 + "y" * 5000  # no separator: R cuts between characters
    pieces = [blob[i : i + 777] for i in range(0, len(blob), 777)]
    assert lost_words([f"start {blob} end"], ["start", *pieces, "end"]).total == 0
    assert lost_words([blob], pieces[:-1]).total == len(pieces[-1])
    # Ordinary words stay whole words: a piece of one is not the word (R had a space at hand).
    assert lost_words(["the interoperability"], ["the interop", "erability"]).total == 1
    assert MAX_WORD_CHARS >= 40  # longer than any real word


# Scripts written without spaces: R cuts their stretches wherever the cap falls.
_ETHIOPIC = "ሰላም፡ለዓለም፡ኢትዮጵያ፡ቋንቋ፡ፊደል፡መጽሐፍ፡ትምህርት"
_TIBETAN = "བོད་ཀྱི་སྐད་ཡིག་ནི་གལ་ཆེན་པོ་ཡིན"


@pytest.mark.parametrize("text", [_ETHIOPIC * 4, _TIBETAN * 4, "<table><tr><td>" * 8 + "x"])
def test_a_stretch_without_spaces_cut_inside_a_word_loses_nothing(text: str) -> None:
    for cut in range(1, len(text)):
        assert lost_words([text], [text[:cut], text[cut:]]).total == 0, cut
        # The next chunk repeats a few characters before the cut (an overlap).
        back = max(0, cut - 3)
        assert lost_words([text], [text[:cut], text[back:]]).total == 0, cut


def test_a_stretch_cut_in_many_places_loses_nothing_and_pieces_are_no_words() -> None:
    text = "፡".join(["ሰላም", "ላም", "ሰ"] * 30)  # the pieces of a cut word are words too
    for step in (7, 11, 13):
        pieces = [text[i : i + step] for i in range(0, len(text), step)]
        assert lost_words([text], pieces).total == 0, step
        # The pieces of a cut word stand in for it once, not for words of their own too.
        assert lost_words([text + "፡ላም"], pieces).missing == {"ላም": 1}, step


def test_text_really_lost_in_a_stretch_without_spaces_is_still_counted() -> None:
    text = _ETHIOPIC * 4
    cut = text.index("ለዓለም", 10) + 2  # inside a word
    # A character at the cut is missing: its two pieces do not spell the word.
    assert lost_words([text], [text[:cut], text[cut + 1 :]]).missing == {"ለዓለም": 1}
    # A piece of the stretch is missing: its words are lost, the seam spells none of them.
    later = text.index("ቋንቋ", cut) + 1
    shortfall = lost_words([text], [text[:cut], text[later:]])
    assert shortfall.total >= 3 and shortfall.missing["ለዓለም"] == 1


def test_long_runs_at_chunk_ends_cost_linear_time() -> None:
    """Runs of a million word characters stopping just short of a chunk's end: finding the
    run at the end by a search anchored there is quadratic (hours); the check runs in a child
    process the kernel stops after 60 CPU-s."""
    code = (
        "from lightrag_pchunk.chunk.coverage import lost_words\n"
        "run = 'a' * 1_000_000\n"
        "chunks = [run + '.', run, run + ' ' + run, run + '.']\n"
        "assert lost_words(['x'], chunks).missing == {'x': 1}\n"
    )
    done = run_within_cpu(code, 60)
    assert done.returncode == 0, done.stderr[-2000:]


def test_combining_marks_belong_to_their_word() -> None:
    # Devanagari vowel signs and viramas are combining marks: 'किताब' is one word, not the
    # letters 'क', 'त', 'ब' between them, which other words hold too (here repeated by an
    # overlap): the word lost is found lost.
    assert count_words("किताब") == {"किताब": 1}
    assert lost_words(["किताब", "क त ब"], ["क त ब", "क त ब"]).missing == {"किताब": 1}
    assert count_words("cafe\u0301 au lait") == {"cafe\u0301": 1, "au": 1, "lait": 1}
    assert lost_words(["cafe\u0301"], ["cafe"]).missing == {"cafe\u0301": 1}


# Characters of several tokens each: at a small N the cap falls inside a stretch shorter than
# MAX_WORD_CHARS, and R cuts it where the cap falls, here before a virama or an asat.
_GRANTHA = ("𑌏𑌤𑍇 𑌸𑌰𑍍𑌵𑍇 ", "𑌚𑍇𑌤𑌨𑌾-𑌤𑌰𑍍𑌕-𑌶𑌕𑍍𑌤𑌿𑌭", "𑍍𑌯𑌾𑌂 𑌸𑍁𑌸𑌮𑍍𑌪𑌨𑍍𑌨𑌾𑌃")
_SHAN = ("ၶဝ်ၼႆႉ လႄႈ ", "ၸႂ်ဢၼ်ႁူႉၸၵ်းၾိင်ႈတိုဝ်းၵမ", "် ၼၼ်ႉလႄႈ")


@pytest.mark.parametrize("parts", [_GRANTHA, _SHAN])
def test_a_word_cut_in_a_chunk_holding_no_space_loses_nothing(parts: tuple[str, ...]) -> None:
    before, stretch, after = parts
    row = before + stretch + after
    word = (stretch + after).split(" ")[0].split("-")[-1]
    chunks = [before.strip(), stretch, after]
    assert lost_words([row], chunks).total == 0
    # A character missing at the cut: the two pieces do not spell the word.
    assert lost_words([row], [before.strip(), stretch, after[1:]]).missing == {word: 1}
    # The chunk before the cut holds a space: R had one at hand, the cut was needless.
    assert lost_words([row], [before + stretch, after]).missing == {word: 1}


def test_an_escape_cut_between_chunks_is_read_whole() -> None:
    # Outside tags a backslash reads as a JSON escape, in the rows as in the chunks: LaTeX's
    # "\\biguplus" shows a backspace and "iguplus". R cut between the backslash and the "b"
    # (or inside a \\uXXXX): the next chunk reads the escape whole, as the row does.
    row = r"\bigcup\biguplus\bigvee and \u4e2d\u6587"
    for cut in (row.index("biguplus"), row.index("e2d"), row.index("2d")):
        assert lost_words([row], [row[:cut], row[cut:]]).total == 0, cut
    cut = row.index("biguplus")
    assert lost_words([row], [row[:cut]]).missing == {
        "iguplus": 1, "igvee": 1, "and": 1, "中": 1, "文": 1
    }  # fmt: skip
    # Two backslashes are one escape, complete before the cut: "nabla" starts no escape.
    paired = "x\\\\nabla"
    cut = paired.index("n")
    assert lost_words([paired], [paired[:cut], paired[cut:]]).total == 0
    assert lost_words([paired], [paired[:cut]]).missing == {"nabla": 1}
    # R cut at a space it stripped: the backslash before it escapes nothing after the cut.
    spaced = r"\rho\ \nabla p"
    cut = spaced.index(" ")
    assert lost_words([spaced], [spaced[:cut], spaced[cut + 1 :]]).total == 0
