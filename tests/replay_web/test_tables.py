"""The plain columns of the read-model commands (replay_web/tables.py): every cell of a column
starts where its header starts, numbers end where it ends."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from replay_web.tables import aligned, pair

_cell = st.text(alphabet="abcdefghij -,0123456789", min_size=1, max_size=12).map(
    lambda text: text.strip() or "x")


@given(st.integers(min_value=1, max_value=5).flatmap(
    lambda width: st.lists(st.lists(_cell, min_size=width, max_size=width), min_size=1,
                           max_size=6)), st.sets(st.integers(min_value=0, max_value=4)))
def test_aligned_columns_start_and_end_together(lines: list[list[str]],
                                                numeric: set[int]) -> None:
    printed = aligned(lines, numeric)
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    starts = [sum(widths[:i]) + 2 * i for i in range(len(widths))]
    for line, text in zip(lines, printed, strict=True):
        assert text == text.rstrip()
        for index, cell in enumerate(line):
            start, width = starts[index], widths[index]
            if index in numeric:
                assert text[start:start + width] == cell.rjust(width)
            else:
                assert text[start:start + len(cell)] == cell


def test_pair() -> None:
    assert pair((26, 16)) == "26-16" and pair(None) == "" and pair((0, 1), " : ") == "0 : 1"
