"""Every cell of the VP tables of 000 and 004, one test each, expected as the sources print it.

The expected values come from the sources' text (the excerpts below, copied verbatim from
/work/shared/rules 000 and 004 and checked against them when that directory is at hand), parsed
here without the data file: header to columns, row to cells. The three cells the readings decide
otherwise (V1, V2, V5) are expected as decided, and have a test of their own; V3 ("+" and empty
cells) and V4 (odd Briscola MP) too. Then `parse_vp_table`'s refusals, each naming the file and
the cell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import pytest

from domain.match_format import MatchFormat
from domain.vp_table import (
    STANDARD,
    VpTableError,
    cappotto_vp,
    column_rows,
    max_mp,
    mp_minimum,
    parse_vp_table,
    top_row,
    vp_split,
)

RULES = Path("/work/shared/rules")

# 000, "### *Tabella dei Victory Points ( VP)*" and the table under it, verbatim (tabs kept).
SOURCE_000 = (
    "VP\tpartita a 7pt\t\tpartita a 11pt\t\tpartita a 21pt\t\tpartita a 31pt\t\tpartita a 41pt"
    "\t\tpartita a 51pt\t\n"
    "\to 1 smazz.\t\to 2 smazz.\t\to 3 smazz.\t\to 4 smazz.\t\to 5 smazz.\t\to 6 smazz.\t\n"
    "\tda MP\ta MP\tda MP\ta MP\tda MP\ta MP\tda MP\ta MP\tda MP\ta MP\tda MP\ta MP\n"
    "10-10\t0\t0\t0\t0\t0\t1\t0\t1\t0\t2\t0\t2\n"
    "11-9\t1\t1\t1\t2\t2\t3\t2\t3\t3\t4\t3\t5\n"
    "12-8\t2\t2\t3\t4\t4\t5\t4\t6\t5\t7\t6\t8\n"
    "13-7\t3\t3\t5\t6\t6\t7\t7\t9\t8\t10\t9\t11\n"
    "14-6\t4\t4\t7\t8\t8\t9\t10\t12\t11\t13\t12\t15\n"
    "15-5\t5\t6\t9\t10\t10\t11\t13\t15\t14\t16\t16\t18\n"
    "16-4\t7\t8\t11\t12\t12\t14\t16\t18\t17\t19\t19\t21\n"
    "17-3\t9\t+\t13\t14\t15\t17\t19\t21\t20\t22\t23\t25\n"
    "18-2\t\t\t15\t+\t18\t20\t22\t24\t23\t25\t26\t28\n"
    "19-1\t\t\t\t\t21\t+\t24\t26\t26\t29\t29\t32\n"
    "20-0\t\t\t\t\t\t\t27\t+\t30\t+\t33\t+\n"
)
# 004, "## *Tabella dei Victory Points ( VP)*" and the table under it, verbatim.
SOURCE_004 = (
    "VP\t<b>1 smazzata da MP</b>\ta <b>MP</b>\t<b>2 smazzate da MP</b>\ta <b>MP</b>\t"
    "<b>3 smazzate da MP</b>\ta <b>MP</b>\n"
    "10-10\t0\t0\t0\t0\t0\t0\n"
    "11-9\t2\t2\t2\t4\t2\t4\n"
    "12-8\t4\t6\t6\t10\t6\t12\n"
    "13-7\t8\t12\t12\t18\t14\t22\n"
    "14-6\t14\t18\t20\t26\t24\t32\n"
    "15-5\t20\t24\t28\t34\t34\t42\n"
    "16-4\t26\t30\t36\t42\t44\t52\n"
    "17-3\t32\t36\t44\t50\t34\t62\n"
    "18-2\t38\t42\t52\t58\t64\t72\n"
    "19-1\t44\t48\t60\t68\t74\t84\n"
    "20-0\t50\t+\t70\t+\t86\t+\n"
)
SOURCES = {"cirulla": ("000", SOURCE_000), "briscola": ("004", SOURCE_004)}

# The readings that decide a printed cell otherwise (docs/rules-interpretations.md).
DECIDED = {"cirulla-31pt-19-1-da": 25,  # V1
           "briscola-3smazzate-17-3-da": 54,  # V2
           "cirulla-51pt-17-3-da": 22}  # V5


@dataclass(frozen=True)
class SourceCell:
    game: str
    column: str  # the format the source's header names: "21pt", "3smazzate"
    row: str
    bound: str  # "da" or "a"
    text: str  # as printed: a number, "+", or "" (an empty cell)

    @property
    def id(self) -> str:
        return f"{self.game}-{self.column}-{self.row}-{self.bound}"

    @property
    def winner_vp(self) -> int:
        return int(self.row.split("-")[0])


def _header_columns(game: str, text: str) -> list[str]:
    """The columns' formats, read from the header: "partita a 21pt" and "<b>3 smazzate"."""
    if game == "cirulla":
        return [f"{n}pt" for n in re.findall(r"partita a (\d+)pt", text)]
    return [f"{n}smazzat{'a' if n == '1' else 'e'}"
            for n in re.findall(r"<b>(\d) smazzat[ae] da MP", text)]


def source_cells() -> list[SourceCell]:
    cells = []
    for game, (_, text) in SOURCES.items():
        columns = _header_columns(game, text)
        for line in text.splitlines():
            if not re.match(r"\d+-\d+\t", line):
                continue
            row, *values = line.split("\t")
            values += [""] * (2 * len(columns) - len(values))
            for index, column in enumerate(columns):
                for offset, bound in enumerate(("da", "a")):
                    cells.append(SourceCell(game, column, row, bound,
                                            values[2 * index + offset]))
    return cells


CELLS = source_cells()


def fmt_of(game: str, column: str) -> MatchFormat:
    return MatchFormat.parse(column, game, smazzate_pari=(column == "2smazzate"))


def test_the_excerpts_are_the_sources_text() -> None:
    """The excerpts above are the sources' own lines (skipped where the sources are absent)."""
    if not RULES.is_dir():
        pytest.skip("the rule sources are not at /work/shared/rules")
    for number, excerpt in SOURCES.values():
        (path,) = RULES.glob(f"{number}_*.txt")
        assert excerpt.rstrip("\n") in path.read_text(encoding="utf-8")


def test_every_printed_cell_is_listed() -> None:
    """Cirulla 6 columns, Briscola 3, 11 rows each, two bounds: 198 cells."""
    assert len(CELLS) == (6 + 3) * 11 * 2 == len({c.id for c in CELLS})


@pytest.mark.parametrize("cell", CELLS, ids=[c.id for c in CELLS])
def test_cell(cell: SourceCell) -> None:
    fmt = fmt_of(cell.game, cell.column)
    column = STANDARD.column(fmt)
    printed = column.printed[column_rows_index(cell.row)]
    split = (cell.winner_vp, 20 - cell.winner_vp)
    if cell.text == "":
        # V3: an empty cell, a split that cannot occur at that length.
        assert printed is None
        with pytest.raises(VpTableError, match=f"{cell.row} cannot occur"):
            mp_minimum(fmt, cell.winner_vp)
        return
    assert printed is not None
    as_printed = printed[0 if cell.bound == "da" else 1]
    assert ("+" if as_printed is None else str(as_printed)) == cell.text
    expected = DECIDED.get(cell.id, None if cell.text == "+" else int(cell.text))
    row = next(r for r in column_rows(fmt) if r.winner_vp == cell.winner_vp)
    assert (row.mp_from if cell.bound == "da" else row.mp_to) == expected
    if expected is None:
        # V3: "+", this MP and above: the top row, however large the MP.
        assert row == top_row(fmt)
        assert vp_split(fmt, max_mp(fmt) or row.mp_from + 100) == split
    elif cell.bound == "da":
        assert vp_split(fmt, expected) == split
        assert mp_minimum(fmt, cell.winner_vp) == expected
        if expected > 0:
            assert vp_split(fmt, expected - 1)[0] == cell.winner_vp - 1
    else:
        assert vp_split(fmt, expected) == split
        assert vp_split(fmt, expected + 1)[0] == cell.winner_vp + (
            1 if cell.game == "cirulla" else 0)  # V4: an odd MP stays in the row below


def column_rows_index(row: str) -> int:
    return int(row.split("-")[0]) - 10


def test_the_cirulla_columns_serve_targets_and_smazzate_alike() -> None:
    """000: "partita a 21pt" over "o 3 smazz.": one column for both formats."""
    for target, smazzate in zip((7, 11, 21, 31, 41, 51), range(1, 7), strict=True):
        assert STANDARD.column(fmt_of("cirulla", f"{target}pt")) is STANDARD.column(
            MatchFormat.parse(f"{smazzate}sm", "cirulla"))
    assert STANDARD.column(MatchFormat.parse("punti", "briscola")) is STANDARD.column(
        fmt_of("briscola", "1smazzata"))


# --- the cells decided otherwise, each by its reading ------------------------------------------

def test_v1_31pt_19_1_starts_at_25_not_24() -> None:
    """000, 31pt: "18-2 ... 22 24", "19-1 ... 24 26": 18-2 keeps 24, 19-1 starts at 25."""
    fmt = fmt_of("cirulla", "31pt")
    assert [vp_split(fmt, mp) for mp in (24, 25)] == [(18, 2), (19, 1)]
    assert mp_minimum(fmt, 19) == 25


def test_v2_briscola_3_smazzate_17_3_starts_at_54_not_34() -> None:
    """004, 3 smazzate: "16-4 ... 44 52", "17-3 ... 34 62", "18-2 ... 64 72"."""
    fmt = fmt_of("briscola", "3smazzate")
    assert [vp_split(fmt, mp) for mp in (34, 52, 54, 62)] == [(15, 5), (16, 4), (17, 3), (17, 3)]
    assert mp_minimum(fmt, 17) == 54


def test_v5_51pt_17_3_starts_at_22_not_23() -> None:
    """000, 51pt: "16-4 ... 19 21", "17-3 ... 23 25": read as V1, 16-4 keeps its printed end 21
    and 17-3 starts at 22; so a forfeit giving 17 VP in 51pt has MP 22 (C13)."""
    fmt = fmt_of("cirulla", "51pt")
    assert [vp_split(fmt, mp) for mp in (21, 22, 23)] == [(16, 4), (17, 3), (17, 3)]
    assert mp_minimum(fmt, 17) == 22


def test_v3_plus_is_and_above_and_an_empty_cell_cannot_occur() -> None:
    """000, 7pt: "17-3 9 +" and no 18-2 … 20-0; the cappotto row is then 17-3 (C11)."""
    fmt = fmt_of("cirulla", "7pt")
    assert vp_split(fmt, 9) == vp_split(fmt, 1000) == (17, 3)
    assert cappotto_vp(fmt) == (17, 3, 9)
    with pytest.raises(VpTableError, match="20-0 cannot occur"):
        mp_minimum(fmt, 20)


def test_v4_an_odd_briscola_mp_goes_with_the_even_mp_below() -> None:
    """004, 1 smazzata: "11-9 2 2", "12-8 4 6": MP 3 (a smazzata cut short) is 11-9."""
    fmt = MatchFormat.parse("punti", "briscola")
    assert [vp_split(fmt, mp) for mp in (1, 2, 3, 5, 7)] == [
        (10, 10), (11, 9), (11, 9), (12, 8), (12, 8)]


# --- parse_vp_table refuses a table that is not one, naming the file and the cell ---------------

STANDARD_TEXT = resources.files("domain").joinpath("vp_tables.toml").read_text(encoding="utf-8")


def _edited(column: str, old: str, new: str) -> str:
    """The standard text with `old` replaced by `new` in the column serving `column`."""
    start = STANDARD_TEXT.index(f'formats = ["{column}"')
    at = STANDARD_TEXT.index(old, start)
    return STANDARD_TEXT[:at] + new + STANDARD_TEXT[at + len(old):]


def _refusal(text: str) -> str:
    with pytest.raises(VpTableError) as refused:
        parse_vp_table(text, "torneo.toml")
    return str(refused.value)


def test_the_standard_file_parses_and_says_what_it_is() -> None:
    table = parse_vp_table(STANDARD_TEXT, "domain/vp_tables.toml")
    assert table == STANDARD
    assert table.describe() == "verbale standard v2 (000, 004; readings V1–V5)"
    assert len(table.sha256) == 64


def test_a_gap_is_refused_naming_the_cell() -> None:
    message = _refusal(_edited("21pt", '"14-6" = [8, 9]', '"14-6" = [8, 8]'))
    assert message == "torneo.toml: cirulla 21pt, row 15-5: gap: MP 9..9 are in no row"


def test_an_overlap_is_refused_naming_the_cell() -> None:
    message = _refusal(_edited("21pt", '"14-6" = [8, 9]', '"14-6" = [8, 10]'))
    assert message == ("torneo.toml: cirulla 21pt, row 15-5: overlap: MP 10..10 are also in "
                       "the row below")


def test_the_printed_table_without_its_readings_has_the_v1_overlap() -> None:
    text = STANDARD_TEXT[:STANDARD_TEXT.index("[[readings]]")]
    assert _refusal(text) == ("torneo.toml: cirulla 31pt, row 19-1: overlap: MP 24..24 are "
                              "also in the row below")


def test_a_split_not_summing_to_20_is_refused() -> None:
    message = _refusal(STANDARD_TEXT.replace('"13-7", "14-6"', '"13-7", "14-7"', 1))
    assert message == "torneo.toml: row 14-7: the split sums to 21, not 20"


def test_rows_must_grow() -> None:
    message = _refusal(STANDARD_TEXT.replace('"12-8", "13-7"', '"13-7", "12-8"', 1))
    assert message.startswith("torneo.toml: rows: the rows must grow by one from 10-10")


def test_a_reading_must_correct_what_is_printed() -> None:
    message = _refusal(STANDARD_TEXT.replace("printed = 24", "printed = 23", 1))
    assert message == ("torneo.toml: cirulla 31pt, row 19-1, da MP (V1): the reading says the "
                       "table prints 23, the cell holds 24")


def test_a_briscola_mp_must_be_even() -> None:
    message = _refusal(_edited("3smazzate", '"12-8" = [6, 12]', '"12-8" = [6, 13]'))
    assert message == "torneo.toml: briscola 3smazzate, row 12-8: MP step by 2 in this game"


def test_a_bad_cell_and_a_missing_row_are_refused() -> None:
    bad = _refusal(_edited("7pt", '"12-8" = [2, 2]', '"12-8" = [2, "x"]'))
    assert bad.startswith("torneo.toml: cirulla 7pt, row 12-8: a cell is [da MP, a MP]")
    missing = _refusal(_edited("7pt", '"12-8" = [2, 2]\n', ""))
    assert missing == "torneo.toml: cirulla 7pt, row 12-8: missing (an empty cell is [])"


def test_bad_toml_is_refused_with_its_line_and_column() -> None:
    lines = STANDARD_TEXT.splitlines()
    at = lines.index('version = 2')
    lines[at] = "version = = 2"
    message = _refusal("\n".join(lines))
    assert message.startswith("torneo.toml: not a TOML file: ")
    assert f"(at line {at + 1}, column 11)" in message


def test_a_table_may_hold_one_game_only() -> None:
    text = STANDARD_TEXT[:STANDARD_TEXT.index("[games.briscola]")]
    readings = STANDARD_TEXT[STANDARD_TEXT.index("[[readings]]"):]
    one = readings.split("[[readings]]")
    kept = "[[readings]]".join(r for r in one if 'game = "briscola"' not in r)
    table = parse_vp_table(text + kept, "cirulla.toml")
    assert [g.game for g in table.games] == ["cirulla"]
    assert table.describe() == "verbale standard v2 (000; readings V1, V3, V4, V5)"
    with pytest.raises(VpTableError, match="no table for briscola"):
        vp_split(MatchFormat.parse("punti", "briscola"), 2, table=table)
