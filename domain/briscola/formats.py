"""Briscola's match formats (source 004): 'a punti', an odd number of smazzate, vinco subito.

Briscola's part of domain/match_format.py's FormatRules: a match of smazzate counts smazzate won
(61 card points win one) and ends once the majority is certain; 'punti' is one smazzata to more
than 60; the VP table of 004 has columns for 1, 2 and 3 smazzate ('punti' uses the first).
"""

from __future__ import annotations

from domain.match_format import (
    BRISCOLA_CARD_POINTS,
    BRISCOLA_SOGLIA,
    BRISCOLA_VP_SMAZZATE,
    POINTS_WORDS,
    SMAZZATE_RE,
    MatchFormat,
    MatchFormatError,
    MatchKind,
    SmazzataResult,
    added_points,
    briscola_smazzata_winner,
    format_name,
    result_place,
)
from domain.text import Said, say


class BriscolaFormats:
    """The FormatRules of Briscola (domain/match_format.py)."""

    cappotto = False

    def accepted(self) -> Said:
        return say("'punti' / 'points', or '<N>smazzate' / '<N>sm' with N odd (1, 3, 5, ...), "
                   "or N even (2, 4, ...) with the option smazzate_pari")

    def parse_kind(self, cleaned: str) -> tuple[MatchKind, int] | None:
        if cleaned in POINTS_WORDS:
            return MatchKind.POINTS, 1
        found = SMAZZATE_RE.fullmatch(cleaned)
        return None if found is None else (MatchKind.SMAZZATE, int(found.group(1)))

    def length_allowed(self, fmt: MatchFormat) -> bool:
        if fmt.kind is MatchKind.POINTS:
            return fmt.length == 1
        # 004: "il numero di smazzate deve sempre essere dispari", unless smazzate_pari
        parity = 0 if fmt.smazzate_pari else 1
        return fmt.kind is MatchKind.SMAZZATE and fmt.length >= 1 and fmt.length % 2 == parity

    def refused_option(self, fmt: MatchFormat) -> Said | None:
        if fmt.cappotto_ends or fmt.cappotto_waits_end or fmt.target_strict:
            return say("{where}: cappotto and targets are Cirulla rules (000)",
                       where=format_name(fmt))
        return None

    def allows_smazzate_pari(self, fmt: MatchFormat) -> bool:
        return fmt.kind is MatchKind.SMAZZATE and fmt.length % 2 == 0

    def missing_vp_column(self, fmt: MatchFormat) -> Said | None:
        """'punti' uses the 1 smazzata column; 004 prints columns for 1, 2 and 3 smazzate."""
        if fmt.kind is MatchKind.POINTS or fmt.length in BRISCOLA_VP_SMAZZATE:
            return None
        return say("no VP column: the Briscola VP table of 004 has columns for 1, 2 and 3 "
                   "smazzate only, not {length}", length=fmt.length)

    def vp_column(self, fmt: MatchFormat) -> int:
        return 0 if fmt.kind is MatchKind.POINTS else fmt.length - 1

    def max_mp(self, fmt: MatchFormat) -> int | None:
        """120 card points a smazzata."""
        return BRISCOLA_CARD_POINTS * (1 if fmt.kind is MatchKind.POINTS else fmt.length)

    def add_totals(self, fmt: MatchFormat, totals: tuple[int, int],
                   result: SmazzataResult) -> tuple[int, int]:
        if fmt.kind is MatchKind.POINTS:
            return added_points(totals, result)
        won = briscola_smazzata_winner(result)
        if won is None:
            return totals
        return (totals[0] + 1, totals[1]) if won == 0 else (totals[0], totals[1] + 1)

    def decided_early(self, fmt: MatchFormat, totals: tuple[int, int], remaining: int) -> bool:
        """004: the majority of smazzate is certain before the last one."""
        return abs(totals[0] - totals[1]) > remaining

    def check_result(self, fmt: MatchFormat, result: SmazzataResult, index: int) -> None:
        if result.cappotto_side is not None:
            raise MatchFormatError(say("{where}: cappotto_side is a Cirulla rule",
                                       where=result_place(fmt, index)))
        _check_points(fmt, result, index)

    def unit(self, fmt: MatchFormat) -> str:
        """004: "vince la partita chi si aggiudica la maggioranza delle smazzate"."""
        return "smazzate" if fmt.kind is MatchKind.SMAZZATE else "punti"


def _check_points(fmt: MatchFormat, result: SmazzataResult, index: int) -> None:
    total = sum(result.points)
    side = result.vinco_subito_side
    if side is None:
        if total != BRISCOLA_CARD_POINTS:
            raise MatchFormatError(say("{where}: card points total {total}; a smazzata played "
                                       "to the end totals 120", where=result_place(fmt, index),
                                       total=total))
        if fmt.vinco_subito and briscola_smazzata_winner(result) is not None:
            raise MatchFormatError(say(
                "{where}: with vinco subito a side reaching 61 ends the match at the trick "
                "that brought it there; vinco_subito_side must name it",
                where=result_place(fmt, index)))
        return
    if not fmt.vinco_subito:
        raise MatchFormatError(say("{where}: vinco_subito_side given but the format has no "
                                   "vinco subito", where=result_place(fmt, index)))
    if result.points[side] < BRISCOLA_SOGLIA or total > BRISCOLA_CARD_POINTS:
        raise MatchFormatError(say(
            "{where}: vinco subito by side {side} needs at least 61 of at most 120 card "
            "points, got {points}", where=result_place(fmt, index), side=side,
            points=repr(result.points)))


FORMATS = BriscolaFormats()
