"""The Victory Point tables of 000 (Cirulla) and 004 (Briscola), and VP/MP settlement.

MP (match points) is the match's point difference (domain.match_format.match_points); a column
of the table maps it to a VP split that sums to 20. The tables are transcribed as printed
(`PRINTED`), then the corrections of rules-notes V1, V2, V5 are applied by name (`CORRECTIONS`)
so the transcription and each fix can be checked on their own. V3: a "+" cell is open-ended, an
empty cell is a split that cannot occur at that length. V4: Briscola MPs step by 2; an odd MP
(only after a smazzata cut short) is read by the rows' lower bounds ("da MP").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.match_format import (
    MatchFormat,
    MatchFormatError,
    MatchKind,
    SmazzataResult,
    match_points,
    match_status,
)
from domain.penalty import Forfeit
from domain.text import say

VP_TOTAL = 20
FORFEIT_MIN_VP = 14  # 000/004: "la linea avversaria farà minimo 14 VP"
WINNER_VPS = tuple(range(10, 21))  # table rows 10-10, 11-9, ..., 20-0
OPEN = None  # the "+" of a top row

Cell = tuple[int, int | None] | None  # (da MP, a MP or OPEN), None for an empty cell

# Columns as printed, rows 10-10 .. 20-0. 000: 7pt/1 smazz., 11pt/2, 21pt/3, 31pt/4, 41pt/5,
# 51pt/6. 004: 1 smazzata (and 'punti'), 2 smazzate (only with MatchFormat.smazzate_pari),
# 3 smazzate; a Briscola format with no column (4, 5, 7 ... smazzate) is refused at creation when
# scored by VP (MatchFormat.vp, match_format.missing_vp_column).
PRINTED: dict[str, tuple[tuple[Cell, ...], ...]] = {
    "cirulla": (
        ((0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 6), (7, 8), (9, OPEN), None, None, None),
        ((0, 0), (1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, OPEN),
         None, None),
        ((0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 14), (15, 17), (18, 20),
         (21, OPEN), None),
        ((0, 1), (2, 3), (4, 6), (7, 9), (10, 12), (13, 15), (16, 18), (19, 21), (22, 24),
         (24, 26), (27, OPEN)),
        ((0, 2), (3, 4), (5, 7), (8, 10), (11, 13), (14, 16), (17, 19), (20, 22), (23, 25),
         (26, 29), (30, OPEN)),
        ((0, 2), (3, 5), (6, 8), (9, 11), (12, 15), (16, 18), (19, 21), (23, 25), (26, 28),
         (29, 32), (33, OPEN)),
    ),
    "briscola": (
        ((0, 0), (2, 2), (4, 6), (8, 12), (14, 18), (20, 24), (26, 30), (32, 36), (38, 42),
         (44, 48), (50, OPEN)),
        ((0, 0), (2, 4), (6, 10), (12, 18), (20, 26), (28, 34), (36, 42), (44, 50), (52, 58),
         (60, 68), (70, OPEN)),
        ((0, 0), (2, 4), (6, 12), (14, 22), (24, 32), (34, 42), (44, 52), (34, 62), (64, 72),
         (74, 84), (86, OPEN)),
    ),
}

# The MP step of a column: V4, Briscola card points total 120 so a difference is even.
MP_STEP = {"cirulla": 1, "briscola": 2}


class VpTableError(MatchFormatError):
    """An MP or VP that cannot occur in the format's column of the VP table."""


@dataclass(frozen=True, slots=True)
class Correction:
    note: str  # the rules-notes point
    game: str
    column: int
    winner_vp: int
    bound: str  # "da" (from) or "a" (to)
    printed: int
    corrected: int


CORRECTIONS = (
    Correction("V1", "cirulla", 3, 19, "da", 24, 25),  # 31pt: 18-2 ends at 24
    Correction("V2", "briscola", 2, 17, "da", 34, 54),  # 3 smazzate: 16-4 ends at 52
    Correction("V5", "cirulla", 5, 16, "a", 21, 22),  # 51pt: 17-3 starts at 23
)


@dataclass(frozen=True, slots=True)
class VpRow:
    winner_vp: int
    mp_from: int
    mp_to: int | None  # None: "+", this MP and above


def _apply(game: str, index: int, column: tuple[Cell, ...]) -> tuple[VpRow, ...]:
    rows: list[VpRow] = []
    for winner_vp, cell in zip(WINNER_VPS, column, strict=True):
        if cell is None:
            continue
        low, high = cell
        for fix in CORRECTIONS:
            if (fix.game, fix.column, fix.winner_vp) == (game, index, winner_vp):
                printed = low if fix.bound == "da" else high
                if printed != fix.printed:
                    raise AssertionError(f"{fix.note}: the printed table changed")
                low, high = (fix.corrected, high) if fix.bound == "da" else (low, fix.corrected)
        rows.append(VpRow(winner_vp, low, high))
    return tuple(rows)


TABLES: dict[str, tuple[tuple[VpRow, ...], ...]] = {
    game: tuple(_apply(game, i, column) for i, column in enumerate(columns))
    for game, columns in PRINTED.items()
}


def column_rows(fmt: MatchFormat) -> tuple[VpRow, ...]:
    return TABLES[fmt.game][fmt.vp_column]


def max_mp(fmt: MatchFormat) -> int | None:
    """The largest MP a Briscola match can have (120 card points a smazzata); Cirulla: none."""
    if fmt.game != "briscola":
        return None
    return 120 * (1 if fmt.kind is MatchKind.POINTS else fmt.length)


def vp_split(fmt: MatchFormat, mp: int) -> tuple[int, int]:
    """(winner VP, loser VP) for a match won by `mp` points, e.g. (14, 6)."""
    row = _row_for_mp(fmt, mp)
    return row.winner_vp, VP_TOTAL - row.winner_vp


def _row_for_mp(fmt: MatchFormat, mp: int) -> VpRow:
    if not isinstance(mp, int) or isinstance(mp, bool) or mp < 0:
        raise VpTableError(say("{format}: MP must be a non-negative int, not {mp}",
                               format=fmt.describe(), mp=repr(mp)))
    ceiling = max_mp(fmt)
    if ceiling is not None and mp > ceiling:
        raise VpTableError(say("{format}: MP {mp} cannot occur, at most {ceiling}",
                               format=fmt.describe(), mp=mp, ceiling=ceiling))
    # Rows are read by their lower bound: after the corrections a Cirulla MP falls in exactly
    # one printed range, and an odd Briscola MP goes with the even MP just below it.
    return [row for row in column_rows(fmt) if row.mp_from <= mp][-1]


def mp_minimum(fmt: MatchFormat, winner_vp: int) -> int:
    """The "da MP" of the row where the winner gets `winner_vp`."""
    for row in column_rows(fmt):
        if row.winner_vp == winner_vp:
            return row.mp_from
    raise VpTableError(say(
        "{format}: a split {winner}-{loser} cannot occur; this column has winner VP {column}",
        format=fmt.describe(), winner=winner_vp, loser=VP_TOTAL - winner_vp,
        column=", ".join(str(r.winner_vp) for r in column_rows(fmt))))


def top_row(fmt: MatchFormat) -> VpRow:
    return column_rows(fmt)[-1]


def cappotto_vp(fmt: MatchFormat) -> tuple[int, int, int]:
    """000 C11: "vince con il massimo numero di VP previsto per quella partita e il
    corrispondente numero minimo di MP": (winner VP, loser VP, MP)."""
    if fmt.game != "cirulla":
        raise VpTableError(say("{format}: cappotto is a Cirulla rule", format=fmt.describe()))
    row = top_row(fmt)
    return row.winner_vp, VP_TOTAL - row.winner_vp, row.mp_from


def forfeit_vp(fmt: MatchFormat, settled: Forfeit, *,
               mirror_mp: bool = False) -> tuple[int, int, int, int]:
    """C13: (VP winner, VP guilty, MP winner, MP guilty) after a timeout or abandon.

    The guilty line gets 0 VP; the other the VP its point difference earns, at least 14. Each
    line's MP is the "da MP" minimum of the row giving its own VP: the winner's row, and for 0
    VP the row 20-0 (the column's top row where 20-0 cannot occur), taken as negative. With
    `mirror_mp` the guilty line gets minus the winner's MP instead.
    """
    winner_vp = max(FORFEIT_MIN_VP, vp_split(fmt, settled.point_difference)[0])
    winner_mp = mp_minimum(fmt, winner_vp)
    guilty_mp = winner_mp if mirror_mp else top_row(fmt).mp_from
    return winner_vp, 0, winner_mp, -guilty_mp


@dataclass(frozen=True, slots=True)
class MatchVp:
    """VP and signed MP per side of a finished match."""

    vp: tuple[int, int]
    mp: tuple[int, int]


def match_vp(fmt: MatchFormat, results: Sequence[SmazzataResult]) -> MatchVp:
    """VP and MP of a finished match: the table, or the cappotto row when a cappotto ended it."""
    _ = fmt.vp_column  # a format with no column says so first, finished or not
    status = match_status(fmt, results)
    if not status.over:
        raise VpTableError(say("{format}: VP asked before the match is over",
                               format=fmt.describe()))
    if status.winner is None:
        return MatchVp((VP_TOTAL // 2, VP_TOTAL // 2), (0, 0))
    if status.reason == "cappotto":
        winner_vp, loser_vp, mp = cappotto_vp(fmt)
    else:
        mp = match_points(fmt, results)
        winner_vp, loser_vp = vp_split(fmt, mp)
    if status.winner == 0:
        return MatchVp((winner_vp, loser_vp), (mp, -mp))
    return MatchVp((loser_vp, winner_vp), (-mp, mp))
