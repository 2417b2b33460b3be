"""Scopa's match formats (docs/rules-interpretations.md, "Scopa", S6): a match to 11, 16 or 21
points, or of a fixed number of smazzate; no cappotto, no vinco subito, no VP table.

A match to a target is decided as Cirulla's (domain/match_format.py): the side past the target
with more points wins; level past it, another smazzata is played.
"""

from __future__ import annotations

from domain.match_format import (
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

SCOPA_TARGETS = (11, 16, 21)
SCOPA_MAX_SMAZZATE = 10


class ScopaFormats:
    """The FormatRules of Scopa (domain/match_format.py)."""

    cappotto = False

    def accepted(self) -> Said:
        return say("'<N>pt' with N in {targets}, or '<N>smazzate' / '<N>sm' with N 1..{most}",
                   targets="/".join(str(t) for t in SCOPA_TARGETS), most=SCOPA_MAX_SMAZZATE)

    def parse_kind(self, cleaned: str) -> tuple[MatchKind, int] | None:
        return points_or_smazzate(cleaned)

    def length_allowed(self, fmt: MatchFormat) -> bool:
        if fmt.kind is MatchKind.TARGET:
            return fmt.length in SCOPA_TARGETS
        return fmt.kind is MatchKind.SMAZZATE and 1 <= fmt.length <= SCOPA_MAX_SMAZZATE

    def refused_option(self, fmt: MatchFormat) -> Said | None:
        if (fmt.vinco_subito or fmt.vinco_subito_ends_smazzata_only or fmt.cappotto_ends
                or fmt.cappotto_waits_end):
            return say("{where}: cappotto and vinco subito are not Scopa rules",
                       where=format_name(fmt))
        return None

    def allows_smazzate_pari(self, fmt: MatchFormat) -> bool:
        return False

    def missing_vp_column(self, fmt: MatchFormat) -> Said | None:
        return say("no VP column: Scopa has no VP table")

    def vp_column(self, fmt: MatchFormat) -> int:
        raise MatchFormatError(say("no VP column: Scopa has no VP table"))

    def max_mp(self, fmt: MatchFormat) -> int | None:
        return None

    def add_totals(self, fmt: MatchFormat, totals: tuple[int, int],
                   result: SmazzataResult) -> tuple[int, int]:
        return added_points(totals, result)

    def decided_early(self, fmt: MatchFormat, totals: tuple[int, int], remaining: int) -> bool:
        return False

    def check_result(self, fmt: MatchFormat, result: SmazzataResult, index: int) -> None:
        if result.cappotto_side is not None or result.vinco_subito_side is not None:
            raise MatchFormatError(say("{where}: cappotto and vinco subito are not Scopa rules",
                                       where=result_place(fmt, index)))

    def unit(self, fmt: MatchFormat) -> str:
        return "punti"


FORMATS = ScopaFormats()
