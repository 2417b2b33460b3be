"""Hypothesis strategies for match formats and smazzata results consistent with them."""

from __future__ import annotations

from hypothesis import strategies as st

from domain.match_format import (
    CIRULLA_TARGETS,
    MatchFormat,
    MatchKind,
    MatchStatus,
    SmazzataResult,
    match_status,
)

sides = st.sampled_from((0, 1))


@st.composite
def cirulla_formats(draw: st.DrawFn) -> MatchFormat:
    kind = draw(st.sampled_from((MatchKind.TARGET, MatchKind.SMAZZATE)))
    length = draw(st.sampled_from(CIRULLA_TARGETS) if kind is MatchKind.TARGET
                  else st.integers(1, 6))
    return MatchFormat("cirulla", kind, length, ko=draw(st.booleans()),
                       cappotto_ends=draw(st.booleans()), target_strict=draw(st.booleans()))


@st.composite
def briscola_formats(draw: st.DrawFn, max_smazzate: int = 7) -> MatchFormat:
    kind = draw(st.sampled_from((MatchKind.POINTS, MatchKind.SMAZZATE)))
    length = 1 if kind is MatchKind.POINTS else draw(
        st.sampled_from(tuple(range(1, max_smazzate + 1, 2))))
    vinco = draw(st.booleans())
    only_smazzata = vinco and draw(st.booleans())
    return MatchFormat("briscola", kind, length, ko=draw(st.booleans()), vinco_subito=vinco,
                       vinco_subito_ends_smazzata_only=only_smazzata)


def formats(max_briscola_smazzate: int = 7) -> st.SearchStrategy[MatchFormat]:
    return st.one_of(cirulla_formats(), briscola_formats(max_briscola_smazzate))


@st.composite
def cirulla_results(draw: st.DrawFn) -> SmazzataResult:
    # Small point ranges make level scores, hence spareggi, frequent.
    top = draw(st.sampled_from((0, 2, 9, 9)))
    cappotto = draw(sides) if draw(st.integers(0, 7)) == 0 else None
    return SmazzataResult((draw(st.integers(0, top)), draw(st.integers(0, top))),
                          draw(sides), cappotto_side=cappotto)


@st.composite
def briscola_results(draw: st.DrawFn, vinco_subito: bool) -> SmazzataResult:
    last = draw(sides)
    if draw(st.integers(0, 3)) == 0:
        return SmazzataResult((60, 60), last)
    side = draw(sides)
    won = draw(st.integers(61, 120))
    lost = draw(st.integers(0, 120 - won)) if vinco_subito else 120 - won
    points = (won, lost) if side == 0 else (lost, won)
    return SmazzataResult(points, last, vinco_subito_side=side if vinco_subito else None)


def results_for(fmt: MatchFormat, max_size: int = 14) -> st.SearchStrategy[list[SmazzataResult]]:
    one = (cirulla_results() if fmt.game == "cirulla"
           else briscola_results(fmt.vinco_subito))
    return st.lists(one, max_size=max_size)


@st.composite
def played_matches(draw: st.DrawFn, fmts: st.SearchStrategy[MatchFormat] | None = None,
                   max_size: int = 14) -> tuple[MatchFormat, list[SmazzataResult]]:
    """A format and the results of its smazzate, cut where the match ends (if it does)."""
    fmt = draw(fmts if fmts is not None else formats())
    results = draw(results_for(fmt, max_size))
    return fmt, results[:played_length(fmt, results)]


def played_length(fmt: MatchFormat, results: list[SmazzataResult]) -> int:
    """How many of `results` are played before the match is over (all if it never is)."""
    for count in range(len(results) + 1):
        if match_status(fmt, results[:count]).over:
            return count
    return len(results)


def statuses(fmt: MatchFormat, results: list[SmazzataResult]) -> list[MatchStatus]:
    return [match_status(fmt, results[:count]) for count in range(len(results) + 1)]
