"""Stage C (spec §8): lines the heading classifier takes for titles that name no part.

The classifier (``outline/lines.py``, ``outline/non_titles.py``) reads a line as a title for
the outline, where a look or a style confirms it; stage C names a part after it with no
such check, so it also refuses lines that label a kind of text rather than title a part.
Alone, a line is none when it (:func:`names_no_part`) ends on a dash glued to its last word,
a lead-in as one ending on a colon ("The potential impact is high if—"; a title may end on a
dash set apart, "Part 1 –"). The outline keeps such a line: a title broken over two lines
may end its first on a dash ("… for nuclear power plants—"), and its look tells it is one.

Input: a line. Output: whether the line names no part. Pure.
"""

from __future__ import annotations

import re

#: A dash glued to a line's last word or its closing parenthesis, ending the line.
_DASH_LEAD_IN = re.compile(r"[^\s\d][\u2013\u2014]$")


def names_no_part(text: str) -> bool:
    """Whether ``text``, one line the classifier reads as a title, names no part alone: it
    ends on a dash glued to its last word (see the module doc)."""
    return _DASH_LEAD_IN.search(text.strip()) is not None
