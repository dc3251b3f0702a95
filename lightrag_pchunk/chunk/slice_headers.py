"""Stage B: which header each continuation slice of a table repeats.

- The table's own header rows, whenever they leave room for its smallest row beside them
  (every table of the corpus at N=1200).
- Otherwise its compact header (``chunk/compact_headers.py``): one row of column labels,
  the richest form of it within a quarter of the slice's room, else its smallest form when
  that leaves room for the smallest row. The first slice keeps the full header rows, so
  they must fit a slice on their own.
- A row that does not fit a slice beside the table's header takes the richest shorter
  form that fits beside it alone; with none, it is a slice alone without a header (and a
  row over the cap even alone is cut by characters, spec §6.2).

The labels are made only when the full header does not fit somewhere, so a table whose
header fits every slice costs nothing more.
"""

from __future__ import annotations

import logging

from lightrag_pchunk.chunk.compact_headers import label_ladder
from lightrag_pchunk.chunk.table_rows import RepeatedHeader, TableRows

logger = logging.getLogger("lightrag.pchunk")

#: One row's slice after a shorter header: the header, the slice's text and its tokens.
Beside = tuple[RepeatedHeader, str, int]

#: The share of a slice's room (the cap less the ``<table>`` wrapper) a compact header may
#: take: three quarters stay for rows, so a table whose full header does not fit costs at
#: most a third more slices than with no header at all, and its labels stay readable (the
#: corpus's Russian estimate tables at N=400 keep two or three words a part: "Стоимость
#: на… / Всего / Основной зарплаты").
COMPACT_SHARE = 0.25


class SliceHeaders:
    """The headers one table's continuation slices may repeat, richest first.

    ``table`` is the header planned for every continuation slice (None: none is repeated);
    :meth:`shorter` gives the forms a row too big for it may take instead.
    """

    def __init__(
        self, rows: TableRows, keyed_rows: str | None, cap: int, smallest: int, repeat: bool
    ) -> None:
        self.rows, self.keyed_rows = rows, keyed_rows
        self._compact: list[RepeatedHeader] | None = None
        self.table: RepeatedHeader | None = None
        if not repeat:
            return
        full, room = rows.header, cap - rows.fixed
        if full.tokens + smallest <= room:
            self.table = full
            return
        # The first slice keeps the full header rows (and the caption, when it rides with
        # them): they must fit one, counted exactly.
        if rows.counter.count(rows.render(0, rows.header_count, None)) > cap:
            logger.debug(
                "table_slices table %s: header of %d tokens does not fit a slice alone; "
                "slices are made without repeating it",
                rows.tag.table_id or "?",
                full.tokens,
            )
            return
        ladder = self.compact()
        within = [h for h in ladder if h.tokens <= COMPACT_SHARE * room]
        if within:
            self.table = within[0]
        elif ladder and ladder[-1].tokens + smallest <= room:
            self.table = ladder[-1]
        logger.debug(
            "table_slices table %s: header of %d tokens is too big to repeat in a %d-token "
            "slice; continuation slices repeat %s",
            rows.tag.table_id or "?",
            full.tokens,
            room,
            f"its column labels ({self.table.tokens} tokens)" if self.table else "nothing",
        )

    def compact(self) -> list[RepeatedHeader]:
        """The compact header's forms, richest first, each counted (made once, on demand)."""
        if self._compact is None:
            labels = self.rows.column_labels(self.keyed_rows)
            forms = label_ladder(labels) if any(labels) else []
            self._compact = [self.rows.label_header(form) for form in forms]
        return self._compact

    def shorter(self) -> list[RepeatedHeader]:
        """The forms a row too big for the table's header may take instead, richest first:
        the compact ones after it; none when nothing repeats."""
        if self.table is None:
            return []
        ladder = self.compact()
        return ladder if self.table is self.rows.header else ladder[ladder.index(self.table) + 1 :]

    def beside(self, row: int, cap: int) -> Beside | None:
        """Row ``row`` alone after the richest :meth:`shorter` form that fits ``cap``: the
        form, the slice's text and its tokens. A form is skipped by the excess counted for
        a richer one, so a few counts suffice."""
        forms = self.shorter()
        index = 0
        while index < len(forms):
            text = self.rows.render(row, row + 1, forms[index])
            tokens = self.rows.counter.count(text)
            if tokens <= cap:
                return forms[index], text, tokens
            # The slice shrinks by about what its header does: skip forms not small enough.
            goal = forms[index].tokens - (tokens - cap)
            index += 1
            while index < len(forms) - 1 and forms[index].tokens > goal:
                index += 1
        return None
