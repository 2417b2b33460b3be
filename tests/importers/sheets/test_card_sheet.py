"""The score sheet's CSV form (importers/sheets/card_sheet.py): claims paired by side, and every
error at its file, line and column."""

from __future__ import annotations

import pytest

from importers.notation.errors import NotationError
from importers.sheets.card_sheet import SheetClaim, read_sheet, read_sheet_bytes

SHEET = """\
match,smazzata,side,scope,primiera,claimed_by
d8057a6b,1,1,2,1,Marisa
d8057a6b,1,2,0,0,Marisa
beb7e392,2,2,1,0,
beb7e392,2,1,3,1,
"""


def test_each_smazzata_pairs_its_two_sides_in_the_sheets_column_order() -> None:
    assert read_sheet(SHEET, "s.csv") == (
        SheetClaim("d8057a6b", 0, (("scope", 2, 0), ("primiera", 1, 0)), "Marisa", 2),
        SheetClaim("beb7e392", 1, (("scope", 3, 1), ("primiera", 1, 0)), "", 4))


def test_briscolas_vinco_subito_is_the_breakdowns_category() -> None:
    text = "match,smazzata,side,punti,vinco_subito\nab,1,1,61,1\nab,1,2,20,0\n"
    (claim,) = read_sheet(text, "b.csv")
    assert claim.rows == (("punti", 61, 20), ("vinco subito", 1, 0))


@pytest.mark.parametrize(("text", "line", "column", "found"), [
    ("", 1, 1, "an empty file"),
    ("match,smazzata,side,scopa\n", 1, 21, "'scopa'"),
    ("match,smazzata,side,scope\nab,1,1,x\n", 2, 8, "'x'"),
    ("match,smazzata,side,scope\nab,1,3,1\n", 2, 6, "'3'"),
    ("match,smazzata,side,scope\nab,0,1,1\n", 2, 4, "'0'"),
    ("match,smazzata,side,scope\nab,1,1,1\nab,1,1,2\n", 3, 1, "'ab 1'"),
    ("match,smazzata,side,scope\nab,1,1,1\n", 2, 1, "'ab 1'"),
    ("match,smazzata,side,scope\nab,1,1\n", 2, 1, "3 fields"),
])
def test_every_error_names_its_line_and_column(text: str, line: int, column: int,
                                               found: str) -> None:
    with pytest.raises(NotationError) as raised:
        read_sheet(text, "s.csv")
    error = raised.value
    assert (error.source, error.line, error.column, str(error.found)) == (
        "s.csv", line, column, found)


def test_a_byte_that_is_not_utf8_is_named_where_it_is() -> None:
    with pytest.raises(NotationError) as raised:
        read_sheet_bytes(b"match,smazzata,side,scope\nab\xe9,1,1,1\n", "s.csv")
    assert (raised.value.line, raised.value.column, raised.value.found) == (2, 3, "byte 0xE9")
