"""The standard section names of papers and reports, as evidence that a line is a heading.

A paper or a report names its parts with a few words every reader knows: Abstract,
Introduction, Background, Method(s), Materials and Methods, Results, Discussion,
Conclusion(s), References, Acknowledg(e)ments and their usual variants. Set as a line of
its own, such a name heads the part after it whatever its look, as a number does: a paper
pasted or converted as plain text keeps these names where it lost its headings' look. Used
only where a styled outline leaves a long stretch without a heading (``infer.py``), where a
line's place alone, with no look and no number, found more false titles than true ones.

Input: a title. Output: whether it is such a name. Pure.
"""

from __future__ import annotations

import re

#: The parts after a paper's or a report's body: its bibliography and its thanks.
_BACK_MATTER_NAMES = r"references|bibliography|literature cited|works cited|acknowledge?ments?"
_SECTION_NAME = re.compile(
    r"abstract|introduction|background|methods?|methodology"
    r"|(?:materials?|patients|subjects|data) and methods|results|results and discussion"
    r"|discussion|conclusions?|conclusions? and (?:future work|outlook)|concluding remarks"
    rf"|{_BACK_MATTER_NAMES}",
    re.IGNORECASE,
)
#: Back matter's names, and those of a Chinese paper's ("参考文献", "致谢").
_BACK_MATTER = re.compile(rf"{_BACK_MATTER_NAMES}|参考文献|致[谢謝]", re.IGNORECASE)


def names_back_matter(title: str) -> bool:
    """Whether ``title`` names a part of a paper's or a report's back matter ("References",
    "Bibliography", "Acknowledgements", "参考文献"), nothing more."""
    return _BACK_MATTER.fullmatch(_as_name(title)) is not None


def names_paper_section(title: str) -> bool:
    """Whether ``title`` is one of a paper's or report's standard section names ("Results",
    "Materials and methods", "REFERENCES", "Acknowledgements"), nothing more."""
    return _SECTION_NAME.fullmatch(_as_name(title)) is not None


def _as_name(title: str) -> str:
    """``title`` as a name is compared: spaces collapsed, no full stop at its end."""
    return " ".join(title.split()).rstrip(".")
