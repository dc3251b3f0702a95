"""The words that name a document's units before their number, in the languages the outline
reads ("Chapter 3", "Приложение № 2", "Anexo B", "附录A", "Note 12 - Leases"), and the
patterns that find them at a line's start; ``labels.py`` reads the label they start.
"""

from __future__ import annotations

import re

#: Chinese numerals, as a pattern ("十二", "一百零五").
CN_NUMBER = "[零〇○一二三四五六七八九十百千两]+"

#: The same units named in other languages, by the English word whose rank they take.
#: Words in CJK scripts may stand right before their number ("附录A", "付録1").
KEYWORD_SYNONYMS = {
    "приложение": "appendix", "раздел": "section", "глава": "chapter", "статья": "article",
    "часть": "part", "anhang": "appendix", "anlage": "appendix", "kapitel": "chapter",
    "abschnitt": "section", "artikel": "article", "teil": "part", "annexe": "annex",
    "chapitre": "chapter", "partie": "part", "appendice": "appendix", "anexo": "annex",
    "apéndice": "appendix", "apêndice": "appendix", "capítulo": "chapter",
    "allegato": "annex", "bijlage": "appendix", "bilaga": "appendix", "załącznik": "annex",
    "附錄": "附录", "付録": "附录", "附属書": "annex", "附屬書": "annex",
}  # fmt: skip
_CJK_WORDS = [w for w in ("附录", "附件", *KEYWORD_SYNONYMS) if "\u3400" <= w[0] <= "\u9fff"]
_OTHER_WORDS = "|".join(word for word in KEYWORD_SYNONYMS if word not in _CJK_WORDS)
KEYWORD = re.compile(
    r"(?P<word>part|book|chapter|annex|appendix|schedule|attachment|exhibit|section|article"
    r"|clause|" + _OTHER_WORDS + r")"
    # A number sign may stand before the number ("Приложение № 2", "Anlage Nr. 3", "Załącznik
    # nr 3", "Anexo Nº 1"). A chapter's number may carry a letter ("Appendix 7A": its first).
    r"\s+(?:(?:№|no\.|nr\.?|n[º°]\.?)\s*)?"
    # A lone letter is a capital ("Anexo A"): "Anexo a la Resolución", "part a of" are words.
    r"(?P<n>\d{1,3}(?:\.\d{1,3})*|\d{1,3}[a-z]|[ivxlcdm]{1,7}|(?-i:[A-Z]))(?!\w|\.\w)\.?",
    re.IGNORECASE,
)
#: A financial statement's note: "NOTE 3 - INITIAL PUBLIC OFFERING", "Note 12 – Leases"; only
#: before a dash (after a colon or a full stop it is as often a table's footnote).
NOTE = re.compile(r"(?P<word>note)\s+(?P<n>\d{1,2})(?=\s*[-–—]\s*\w)", re.IGNORECASE)
#: The CJK words, right before their number or after a space; "附件一览表", "付録一覧" (the
#: list of the attachments) number nothing.
CN_KEYWORD = re.compile(
    rf"(?P<word>{'|'.join(_CJK_WORDS)})\s*(?P<n>[A-Z]|\d{{1,3}}|{CN_NUMBER})(?![览覽覧])"
)
