"""The Victory Point tables of 000 (Cirulla) and 004 (Briscola), and VP/MP settlement.

MP (match points) is the match's point difference (domain.match_format.match_points); a column
of the table maps it to a VP split that sums to 20. The tables live in one versioned data file,
domain/vp_tables.toml: the cells exactly as printed, and the readings V1–V5 of
docs/rules-interpretations.md, those that change a cell (V1, V2, V5) naming it, so the
transcription and each fix can be checked on their own. V3: a "+" cell is open-ended, an empty
cell is a split that cannot occur at that length. V4: Briscola MPs step by 2; an odd MP (only
after a smazzata cut short) is read by the rows' lower bounds ("da MP").

The domain does no I/O, yet `STANDARD` is read here from the package's own data file, once, at
import: it is a resource shipped inside the package (importlib.resources, like a literal in a
module), not a file of the user's, so every run of the same release reads the same bytes and
the rules stay a pure function of them. A table a tournament declares comes in as text
(`parse_vp_table`), read by whoever names the file. Every function below takes `table=`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from domain.match_format import (
    MatchFormat,
    SmazzataResult,
    format_rules,
    match_points,
    match_status,
    missing_vp_column,
)
from domain.penalty import Forfeit
from domain.record.events import ENDINGS, DeclaredVpTable, TournamentCreated
from domain.text import say
from domain.vp_table_data import (
    OPEN,
    VP_TOTAL,
    Cell,
    Correction,
    GameTable,
    Reading,
    VpColumn,
    VpRow,
    VpTable,
    VpTableError,
    parse_vp_table,
)

FORFEIT_MIN_VP = 14  # 000/004: "la linea avversaria farà minimo 14 VP"
WINNER_VPS = tuple(range(10, 21))  # table rows 10-10, 11-9, ..., 20-0
STANDARD_FILE = "vp_tables.toml"

STANDARD: VpTable = parse_vp_table(
    resources.files("domain").joinpath(STANDARD_FILE).read_text(encoding="utf-8"),
    f"domain/{STANDARD_FILE}")

# The standard table's columns, by game, as printed and as corrected (tests and the CLI read them).
PRINTED: dict[str, tuple[tuple[Cell, ...], ...]] = {
    g.game: tuple(c.printed for c in g.columns) for g in STANDARD.games}
TABLES: dict[str, tuple[tuple[VpRow, ...], ...]] = {
    g.game: tuple(c.rows for c in g.columns) for g in STANDARD.games}
CORRECTIONS: tuple[Correction, ...] = STANDARD.corrections()
MP_STEP = {g.game: g.mp_step for g in STANDARD.games}


def table_of(created: TournamentCreated) -> VpTable:
    """The VP table a tournament's matches are scored with: the one it declared, else the
    standard table (so also for a tournament recorded before tables could be declared)."""
    if created.vp_table is None:
        return STANDARD
    return declared_table(created.vp_table)


@lru_cache(maxsize=32)
def declared_table(declared: DeclaredVpTable) -> VpTable:
    """A declared table parsed (once per text: read models ask for it per match)."""
    return parse_vp_table(declared.text, declared.name)


def column_rows(fmt: MatchFormat, *, table: VpTable = STANDARD) -> tuple[VpRow, ...]:
    return table.column(fmt).rows


def max_mp(fmt: MatchFormat) -> int | None:
    """The largest MP a match can have (Briscola: 120 card points a smazzata); Cirulla: none."""
    return format_rules(fmt.game).max_mp(fmt)


def vp_split(fmt: MatchFormat, mp: int, *, table: VpTable = STANDARD) -> tuple[int, int]:
    """(winner VP, loser VP) for a match won by `mp` points, e.g. (14, 6)."""
    row = row_for_mp(fmt, mp, table=table)
    return row.winner_vp, VP_TOTAL - row.winner_vp


def row_for_mp(fmt: MatchFormat, mp: int, *, table: VpTable = STANDARD) -> VpRow:
    """The row holding `mp` in the format's column."""
    if not isinstance(mp, int) or isinstance(mp, bool) or mp < 0:
        raise VpTableError(say("{format}: MP must be a non-negative int, not {mp}",
                               format=fmt.describe(), mp=repr(mp)))
    ceiling = max_mp(fmt)
    if ceiling is not None and mp > ceiling:
        raise VpTableError(say("{format}: MP {mp} cannot occur, at most {ceiling}",
                               format=fmt.describe(), mp=mp, ceiling=ceiling))
    # Rows are read by their lower bound: after the corrections a Cirulla MP falls in exactly
    # one printed range, and an odd Briscola MP goes with the even MP just below it.
    return [row for row in column_rows(fmt, table=table) if row.mp_from <= mp][-1]


def mp_minimum(fmt: MatchFormat, winner_vp: int, *, table: VpTable = STANDARD) -> int:
    """The "da MP" of the row where the winner gets `winner_vp`."""
    rows = column_rows(fmt, table=table)
    for row in rows:
        if row.winner_vp == winner_vp:
            return row.mp_from
    raise VpTableError(say(
        "{format}: a split {winner}-{loser} cannot occur; this column has winner VP {column}",
        format=fmt.describe(), winner=winner_vp, loser=VP_TOTAL - winner_vp,
        column=", ".join(str(r.winner_vp) for r in rows)))


def top_row(fmt: MatchFormat, *, table: VpTable = STANDARD) -> VpRow:
    return column_rows(fmt, table=table)[-1]


def cappotto_vp(fmt: MatchFormat, *, table: VpTable = STANDARD) -> tuple[int, int, int]:
    """000 C11: "vince con il massimo numero di VP previsto per quella partita e il
    corrispondente numero minimo di MP": (winner VP, loser VP, MP)."""
    if not format_rules(fmt.game).cappotto:
        raise VpTableError(say("{format}: cappotto is a Cirulla rule", format=fmt.describe()))
    row = top_row(fmt, table=table)
    return row.winner_vp, VP_TOTAL - row.winner_vp, row.mp_from


def forfeit_vp(fmt: MatchFormat, settled: Forfeit, *, mirror_mp: bool = False,
               table: VpTable = STANDARD) -> tuple[int, int, int, int]:
    """C13: (VP winner, VP guilty, MP winner, MP guilty) after a timeout or abandon.

    The guilty line gets 0 VP; the other the VP its point difference earns, at least 14. Each
    line's MP is the "da MP" minimum of the row giving its own VP: the winner's row, and for 0
    VP the row 20-0 (the column's top row where 20-0 cannot occur), taken as negative. With
    `mirror_mp` the guilty line gets minus the winner's MP instead.
    """
    return _forfeit_split(fmt, settled.point_difference, mirror_mp, table)


def _forfeit_split(fmt: MatchFormat, point_difference: int, mirror_mp: bool,
                   table: VpTable) -> tuple[int, int, int, int]:
    winner_vp = max(FORFEIT_MIN_VP, vp_split(fmt, point_difference, table=table)[0])
    winner_mp = mp_minimum(fmt, winner_vp, table=table)
    guilty_mp = winner_mp if mirror_mp else top_row(fmt, table=table).mp_from
    return winner_vp, 0, winner_mp, -guilty_mp


@dataclass(frozen=True, slots=True)
class MatchVp:
    """VP and signed MP per side of a finished match."""

    vp: tuple[int, int]
    mp: tuple[int, int]


DRAW = MatchVp((VP_TOTAL // 2, VP_TOTAL // 2), (0, 0))


def _sided(winner: int, winner_vp: int, loser_vp: int, winner_mp: int,
           loser_mp: int) -> MatchVp:
    if winner == 0:
        return MatchVp((winner_vp, loser_vp), (winner_mp, loser_mp))
    return MatchVp((loser_vp, winner_vp), (loser_mp, winner_mp))


def match_vp(fmt: MatchFormat, results: Sequence[SmazzataResult], *,
             table: VpTable = STANDARD) -> MatchVp:
    """VP and MP of a finished match: the table, or the cappotto row when a cappotto ended it."""
    _ = fmt.vp_column  # a format with no column says so first, finished or not
    status = match_status(fmt, results)
    if not status.over:
        raise VpTableError(say("{format}: VP asked before the match is over",
                               format=fmt.describe()))
    if status.winner is None:
        return DRAW
    if status.reason == "cappotto":
        winner_vp, loser_vp, mp = cappotto_vp(fmt, table=table)
    else:
        mp = match_points(fmt, results)
        winner_vp, loser_vp = vp_split(fmt, mp, table=table)
    return _sided(status.winner, winner_vp, loser_vp, mp, -mp)


def settled_vp(fmt: MatchFormat, winner: int | None, how: str, mp: int, *,
               table: VpTable = STANDARD, mirror_mp: bool = False) -> MatchVp | None:
    """VP and signed MP per side from what a MatchEnded's settlement says, without replaying.

    `how` is one of domain.record.events.ENDINGS and `mp` the settlement's MP difference (for a
    forfeit it is domain.penalty.Forfeit.point_difference). A draw is 10-10 and 0 MP; a cappotto
    the cappotto row (C11); a timeout or abandon the forfeit split, the loser being the guilty
    line (C13, `mirror_mp` as in forfeit_vp); any other ending the table's row for `mp`. None
    for a format the sources give no VP column.
    """
    if missing_vp_column(fmt) is not None:
        return None
    if how not in ENDINGS:
        raise VpTableError(say("{format}: a match ends by {endings}, not {how}",
                               format=fmt.describe(), endings=", ".join(ENDINGS),
                               how=repr(how)))
    if winner is None:
        return DRAW
    if winner not in (0, 1):
        raise VpTableError(say("{format}: the winner is side 0 or 1, not {winner}",
                               format=fmt.describe(), winner=repr(winner)))
    if how == "cappotto":
        winner_vp, loser_vp, cappotto_mp = cappotto_vp(fmt, table=table)
        return _sided(winner, winner_vp, loser_vp, cappotto_mp, -cappotto_mp)
    if how in ("timeout", "abandon"):
        return _sided(winner, *_forfeit_split(fmt, mp, mirror_mp, table))
    winner_vp, loser_vp = vp_split(fmt, mp, table=table)
    return _sided(winner, winner_vp, loser_vp, mp, -mp)


__all__ = ["CORRECTIONS", "DRAW", "FORFEIT_MIN_VP", "MP_STEP", "OPEN", "PRINTED", "STANDARD",
           "TABLES", "VP_TOTAL", "WINNER_VPS", "Cell", "Correction", "GameTable", "MatchVp",
           "Reading", "VpColumn", "VpRow", "VpTable", "VpTableError", "cappotto_vp",
           "column_rows", "declared_table", "forfeit_vp", "match_vp", "max_mp", "mp_minimum",
           "parse_vp_table", "row_for_mp", "settled_vp", "table_of", "top_row", "vp_split"]
