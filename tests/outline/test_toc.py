"""Tables of contents written as plain lines."""

from __future__ import annotations

from lightrag_pchunk.outline.toc import is_toc_title, literal_toc_runs


def test_titles():
    for title in (
        "Contents",
        "TABLE OF CONTENTS",
        "目录",
        "目 次",
        "Inhaltsverzeichnis",
        "# Contents",
    ):
        assert is_toc_title(title), title
    assert not is_toc_title("Contents of the box")


def test_a_titled_run_of_page_referenced_lines():
    lines = [
        "Preface text.",
        "目录",
        "第一章 总则\t1",
        "第二章 职责\t3",
        "第三章 附则\t9",
        "第一章 总则",
    ]
    assert literal_toc_runs(lines) == [(1, 5)]


def test_an_untitled_run_needs_five_leader_lines():
    four = [f"Section {i} ........ {i * 3}" for i in range(1, 5)]
    assert literal_toc_runs(four) == []
    five = [*four, "Section 5 ........ 15"]
    assert literal_toc_runs(["Intro", *five, "Body"]) == [(1, 6)]


def test_a_part_heading_inside_the_toc_keeps_the_run_together():
    lines = ["Contents", "1 Scope\t1", "Part II", "2 Terms\t4", "3 Method\t7", "Body text here."]
    assert literal_toc_runs(lines) == [(0, 5)]


def test_two_entries_are_not_a_table_of_contents():
    assert literal_toc_runs(["Contents", "1 Scope\t1", "2 Terms\t4", "Body"]) == []
