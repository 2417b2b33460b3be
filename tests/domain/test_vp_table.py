"""VP/MP tables of 000 and 004 ("Tabella dei Victory Points"), corrections V1–V5, C11, C13."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.match_format import MatchFormat, MatchFormatError, SmazzataResult
from domain.penalty import forfeit
from domain.vp_table import (
    CORRECTIONS,
    MP_STEP,
    PRINTED,
    STANDARD,
    TABLES,
    Cell,
    MatchVp,
    VpTableError,
    cappotto_vp,
    column_rows,
    forfeit_vp,
    match_vp,
    max_mp,
    mp_minimum,
    vp_split,
)
from tests.domain.match_strategies import formats, played_matches

R = SmazzataResult

# The rows of the two tables exactly as the sources print them (tab-separated "da MP", "a MP"
# pairs per column; an empty string is an empty cell).
SOURCE_ROWS = {
    "cirulla": (
        '10-10\t0\t0\t0\t0\t0\t1\t0\t1\t0\t2\t0\t2',
        '11-9\t1\t1\t1\t2\t2\t3\t2\t3\t3\t4\t3\t5',
        '12-8\t2\t2\t3\t4\t4\t5\t4\t6\t5\t7\t6\t8',
        '13-7\t3\t3\t5\t6\t6\t7\t7\t9\t8\t10\t9\t11',
        '14-6\t4\t4\t7\t8\t8\t9\t10\t12\t11\t13\t12\t15',
        '15-5\t5\t6\t9\t10\t10\t11\t13\t15\t14\t16\t16\t18',
        '16-4\t7\t8\t11\t12\t12\t14\t16\t18\t17\t19\t19\t21',
        '17-3\t9\t+\t13\t14\t15\t17\t19\t21\t20\t22\t23\t25',
        '18-2\t\t\t15\t+\t18\t20\t22\t24\t23\t25\t26\t28',
        '19-1\t\t\t\t\t21\t+\t24\t26\t26\t29\t29\t32',
        '20-0\t\t\t\t\t\t\t27\t+\t30\t+\t33\t+',
    ),
    "briscola": (
        '10-10\t0\t0\t0\t0\t0\t0',
        '11-9\t2\t2\t2\t4\t2\t4',
        '12-8\t4\t6\t6\t10\t6\t12',
        '13-7\t8\t12\t12\t18\t14\t22',
        '14-6\t14\t18\t20\t26\t24\t32',
        '15-5\t20\t24\t28\t34\t34\t42',
        '16-4\t26\t30\t36\t42\t44\t52',
        '17-3\t32\t36\t44\t50\t34\t62',
        '18-2\t38\t42\t52\t58\t64\t72',
        '19-1\t44\t48\t60\t68\t74\t84',
        '20-0\t50\t+\t70\t+\t86\t+',
    ),
}


def _columns_from_source(rows: tuple[str, ...]) -> list[list[Cell]]:
    split = [row.split("\t")[1:] for row in rows]
    width = max(len(cells) for cells in split) // 2
    columns: list[list[Cell]] = [[] for _ in range(width)]
    for cells in split:
        cells += [""] * (2 * width - len(cells))
        for index in range(width):
            low, high = cells[2 * index], cells[2 * index + 1]
            columns[index].append(None if low == "" else
                                  (int(low), None if high == "+" else int(high)))
    return columns


def cirulla(text: str) -> MatchFormat:
    return MatchFormat.parse(text, "cirulla")


def briscola(text: str) -> MatchFormat:
    return MatchFormat.parse(text, "briscola")


@pytest.mark.parametrize("game", ["cirulla", "briscola"])
def test_printed_tables_are_the_sources_tables(game: str) -> None:
    """000 and 004, "Tabella dei Victory Points ( VP)": transcribed cell by cell."""
    assert [list(column) for column in PRINTED[game]] == _columns_from_source(SOURCE_ROWS[game])


def test_corrections_fix_exactly_the_printed_errors() -> None:
    for fix in CORRECTIONS:
        column = STANDARD.column(MatchFormat.parse(fix.column, fix.game, smazzate_pari=(
            fix.game == "briscola" and fix.column == "2smazzate")))
        printed = column.printed[fix.winner_vp - 10]
        assert printed is not None
        assert printed[0 if fix.bound == "da" else 1] == fix.printed
        row = next(r for r in column.rows if r.winner_vp == fix.winner_vp)
        assert (row.mp_from if fix.bound == "da" else row.mp_to) == fix.decided
    assert sorted(fix.reading for fix in CORRECTIONS) == ["V1", "V2", "V5"]
    assert [r.id for r in STANDARD.readings] == ["V1", "V2", "V3", "V4", "V5"]


def test_v1_cirulla_31pt_19_1_starts_at_25() -> None:
    """000, 31pt column: "18-2 ... 22 24" and "19-1 ... 24 26": 24 MP is 18-2 (V1)."""
    assert vp_split(cirulla("31pt"), 24) == (18, 2)
    assert vp_split(cirulla("4sm"), 25) == (19, 1)
    assert mp_minimum(cirulla("31pt"), 19) == 25


def test_v2_briscola_3_smazzate_17_3_is_54_to_62() -> None:
    """004, 3 smazzate: "16-4 ... 44 52", "17-3 ... 34 62", "18-2 ... 64 72": 17-3 is 54..62."""
    fmt = briscola("3sm")
    assert [vp_split(fmt, mp) for mp in (34, 52, 54, 62, 64)] == [
        (15, 5), (16, 4), (17, 3), (17, 3), (18, 2)]
    assert mp_minimum(fmt, 17) == 54


def test_v3_plus_is_and_above_and_empty_cells_cannot_occur() -> None:
    """000, 7pt column: "17-3 9 +" and no 18-2, 19-1, 20-0 (V3)."""
    assert vp_split(cirulla("7pt"), 9) == vp_split(cirulla("7pt"), 300) == (17, 3)
    with pytest.raises(VpTableError, match="18-2 cannot occur"):
        mp_minimum(cirulla("7pt"), 18)
    with pytest.raises(VpTableError, match="9-11 cannot occur"):
        mp_minimum(cirulla("21pt"), 9)


def test_v4_briscola_mp_are_even_and_odd_ones_go_to_the_row_below() -> None:
    """004, 1 smazzata: "10-10 0 0", "11-9 2 2", "12-8 4 6": card points total 120 (V4)."""
    fmt = briscola("punti")
    assert [vp_split(fmt, mp) for mp in (0, 1, 2, 3, 4, 7, 120)] == [
        (10, 10), (10, 10), (11, 9), (11, 9), (12, 8), (12, 8), (20, 0)]
    with pytest.raises(VpTableError, match="at most 120"):
        vp_split(fmt, 121)
    assert vp_split(briscola("3sm"), 360) == (20, 0)


def test_v5_cirulla_51pt_17_3_starts_at_22() -> None:
    """000, 51pt column: "16-4 ... 19 21" and "17-3 ... 23 25": 22 MP is 17-3 (V5, read as V1:
    the row above keeps its printed end, the next row's start moves)."""
    assert [vp_split(cirulla("51pt"), mp) for mp in (21, 22, 23)] == [(16, 4), (17, 3), (17, 3)]
    assert mp_minimum(cirulla("6sm"), 17) == 22


def test_v5_a_51pt_forfeit_giving_17_vp_has_mp_22() -> None:
    """C13 "I MP ... calcolati dai VP in base ai corrispondenti minimi": 17 VP in 51pt is the
    row 17-3, whose minimum is now 22 (it was 23 before V5 was read as V1)."""
    ahead = forfeit("cirulla", (40, 17), guilty_side=1, unawarded_points=0)  # 41 - 17: 24 MP
    assert forfeit_vp(cirulla("51pt"), ahead) == (17, 0, 22, -33)


def test_negative_mp_is_refused() -> None:
    with pytest.raises(VpTableError, match="non-negative"):
        vp_split(cirulla("21pt"), -1)
    assert issubclass(VpTableError, MatchFormatError)


@pytest.mark.parametrize(("text", "expected"), [
    ("7pt", (17, 3, 9)), ("1sm", (17, 3, 9)), ("21pt", (19, 1, 21)), ("31pt", (20, 0, 27)),
    ("51pt", (20, 0, 33)),
])
def test_cappotto_vince_con_il_massimo_numero_di_vp_e_il_minimo_di_mp(
        text: str, expected: tuple[int, int, int]) -> None:
    """000: "Nei tornei chi ha fatto cappotto vince con il massimo numero di VP previsto per
    quella partita e il corrispondente numero minimo di MP" (C11)."""
    assert cappotto_vp(cirulla(text)) == expected


def test_cappotto_vp_is_cirulla_only() -> None:
    with pytest.raises(VpTableError, match="Cirulla"):
        cappotto_vp(briscola("punti"))


def test_c13_timeout_guilty_line_0_vp_other_at_least_14() -> None:
    """000/004: "la linea che fa scadere il timeout o abbandona farà 0 VP e la linea avversaria
    farà minimo 14 VP. I MP di entrambe le linee saranno calcolati dai VP in base ai
    corrispondenti minimi previsti dalla tabella dei VP" (C13)."""
    fmt = cirulla("21pt")
    level = forfeit("cirulla", (20, 5), guilty_side=0, unawarded_points=2)  # difference 0
    assert forfeit_vp(fmt, level) == (14, 0, 8, -21)
    assert forfeit_vp(fmt, level, mirror_mp=True) == (14, 0, 8, -8)
    ahead = forfeit("cirulla", (30, 5), guilty_side=1, unawarded_points=0)  # 30 - 6: 24 MP
    assert forfeit_vp(fmt, ahead) == (19, 0, 21, -21)
    short = forfeit("cirulla", (8, 3), guilty_side=1, unawarded_points=9)  # 14-3: 11 MP
    assert forfeit_vp(cirulla("7pt"), short) == (17, 0, 9, -9)  # 7pt has no 20-0 row


def test_c13_briscola_forfeit_odd_difference() -> None:
    settled = forfeit("briscola", (30, 45), guilty_side=1, unawarded_points=45)
    assert (settled.final_totals, settled.point_difference) == ((50, 45), 5)
    assert forfeit_vp(briscola("punti"), settled) == (14, 0, 14, -50)


def test_match_vp_uses_the_table_or_the_cappotto_row() -> None:
    fmt = MatchFormat.parse("21pt", "cirulla", cappotto_ends=True)
    assert match_vp(fmt, [R((15, 3), 0), R((8, 6), 1)]) == MatchVp((16, 4), (14, -14))
    assert match_vp(fmt, [R((1, 4), 0), R((2, 12), 1, cappotto_side=1)]) == MatchVp(
        (1, 19), (-21, 21))
    assert match_vp(cirulla("2sm"), [R((5, 3), 0), R((3, 5), 1)]) == MatchVp((10, 10), (0, 0))
    with pytest.raises(VpTableError, match="before the match is over"):
        match_vp(fmt, [R((1, 4), 0)])


# --- properties ------------------------------------------------------------------------------

def test_every_column_partitions_mp_without_gaps_or_overlaps() -> None:
    """V1, V2, V3, V4, V5 together: from 0, each row starts one step after the previous ends,
    the top row is open ("+"), and the winner VPs climb by one from 10-10."""
    for game, columns in TABLES.items():
        step = MP_STEP[game]
        for rows in columns:
            assert rows[0].mp_from == 0
            assert [r.winner_vp for r in rows] == list(range(10, 10 + len(rows)))
            assert rows[-1].mp_to is None
            for below, above in itertools.pairwise(rows):
                assert below.mp_to is not None
                assert below.mp_from <= below.mp_to
                assert above.mp_from == below.mp_to + step
            assert all(r.mp_from % step == 0 for r in rows)


mps = st.integers(0, 120)


@given(formats(max_briscola_smazzate=3), mps, mps)
def test_vp_splits_sum_to_20_and_grow_with_mp(fmt: MatchFormat, first: int, second: int) -> None:
    low, high = sorted((first, second))
    winner, loser = vp_split(fmt, low)
    assert winner + loser == 20
    assert 10 <= winner <= 20
    assert vp_split(fmt, high)[0] >= winner


@given(formats(max_briscola_smazzate=3), mps)
def test_a_possible_mp_lies_in_exactly_one_printed_range(fmt: MatchFormat, mp: int) -> None:
    step = MP_STEP[fmt.game]
    mp -= mp % step
    holding = [r for r in column_rows(fmt)
               if r.mp_from <= mp and (r.mp_to is None or mp <= r.mp_to)]
    assert len(holding) == 1
    assert vp_split(fmt, mp)[0] == holding[0].winner_vp


@given(formats(max_briscola_smazzate=3))
def test_mp_minimum_is_the_first_mp_of_its_split(fmt: MatchFormat) -> None:
    for row in column_rows(fmt):
        minimum = mp_minimum(fmt, row.winner_vp)
        assert vp_split(fmt, minimum)[0] == row.winner_vp
        if minimum > 0:
            assert vp_split(fmt, minimum - 1)[0] < row.winner_vp


@given(st.data())
def test_a_forfeit_gives_0_vp_to_the_guilty_and_at_least_14_to_the_other(
        data: st.DataObject) -> None:
    fmt = data.draw(formats(max_briscola_smazzate=3))
    guilty, mirror = data.draw(st.sampled_from((0, 1))), data.draw(st.booleans())
    # Briscola: the card points taken and still to take fit in the smazzate played so far.
    cap = max_mp(fmt) or 400
    unawarded = data.draw(st.integers(0, min(30, cap)))
    first = data.draw(st.integers(0, cap - unawarded))
    before = (first, data.draw(st.integers(0, cap - unawarded - first)))
    settled = forfeit(fmt.game, before, guilty, unawarded)
    winner_vp, guilty_vp, winner_mp, guilty_mp = forfeit_vp(fmt, settled, mirror_mp=mirror)
    assert guilty_vp == 0
    assert winner_vp >= max(14, vp_split(fmt, settled.point_difference)[0])
    assert winner_mp == mp_minimum(fmt, winner_vp) >= 0
    assert guilty_mp <= -winner_mp if not mirror else guilty_mp == -winner_mp


@given(played_matches(formats(max_briscola_smazzate=3)))
def test_a_finished_match_gives_20_vp_and_zero_sum_mp(
        match: tuple[MatchFormat, list[SmazzataResult]]) -> None:
    fmt, results = match
    try:
        settled = match_vp(fmt, results)
    except VpTableError as unfinished:
        assert "before the match is over" in str(unfinished)
        return
    assert sum(settled.vp) == 20
    assert sum(settled.mp) == 0
