"""Cirulla's match formats (source 000): targets and fixed numbers of smazzate, cappotto, VP.

Cirulla's part of domain/match_format.py's FormatRules: a match to a target (7, 11, 21, 31, 41,
51 points) or of 1 to 6 smazzate, each with a column in 000's VP table; points are game points.
"""

from __future__ import annotations

from domain.match_format import (
    CIRULLA_MAX_SMAZZATE,
    CIRULLA_TARGETS,
    MatchFormat,
    MatchFormatError,
    MatchKind,
    SmazzataResult,
    added_points,
    format_name,
    points_or_smazzate,
    result_place,
)
from domain.text import Said, say


class CirullaFormats:
    """The FormatRules of Cirulla (domain/match_format.py)."""

    cappotto = True

    def accepted(self) -> Said:
        return say("'<N>pt' with N in {targets}, or '<N>smazzate' / '<N>sm' with N 1..6 "
                   "('1smazzata')", targets="/".join(str(t) for t in CIRULLA_TARGETS))

    def parse_kind(self, cleaned: str) -> tuple[MatchKind, int] | None:
        return points_or_smazzate(cleaned)

    def length_allowed(self, fmt: MatchFormat) -> bool:
        if fmt.kind is MatchKind.TARGET:
            return fmt.length in CIRULLA_TARGETS
        return fmt.kind is MatchKind.SMAZZATE and 1 <= fmt.length <= CIRULLA_MAX_SMAZZATE

    def refused_option(self, fmt: MatchFormat) -> Said | None:
        if fmt.vinco_subito or fmt.vinco_subito_ends_smazzata_only:
            return say("{where}: 'vinco subito' is a Briscola rule (004)",
                       where=format_name(fmt))
        return None

    def allows_smazzate_pari(self, fmt: MatchFormat) -> bool:
        return False

    def missing_vp_column(self, fmt: MatchFormat) -> Said | None:
        return None   # 000 prints a column for every format

    def vp_column(self, fmt: MatchFormat) -> int:
        if fmt.kind is MatchKind.TARGET:
            return CIRULLA_TARGETS.index(fmt.length)
        return fmt.length - 1

    def max_mp(self, fmt: MatchFormat) -> int | None:
        return None

    def add_totals(self, fmt: MatchFormat, totals: tuple[int, int],
                   result: SmazzataResult) -> tuple[int, int]:
        return added_points(totals, result)

    def decided_early(self, fmt: MatchFormat, totals: tuple[int, int], remaining: int) -> bool:
        return False

    def check_result(self, fmt: MatchFormat, result: SmazzataResult, index: int) -> None:
        if result.vinco_subito_side is not None:
            raise MatchFormatError(say("{where}: vinco_subito_side is a Briscola rule",
                                       where=result_place(fmt, index)))

    def unit(self, fmt: MatchFormat) -> str:
        return "punti"


FORMATS = CirullaFormats()
