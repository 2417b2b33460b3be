"""What the report's figures plot, computed from the same columns the battery tested (the
viewer draws them as SVG: replay_web/web/fairness_svg.py).

- `Heatmap`: a card-by-category table as standardized residuals (observed - expected) /
  sqrt(expected): card by deal slot, card by seat and by role per layout. Under a fair shuffle
  each cell is about a standard normal; a cheat shows as a cell, row or column of one colour.
- `Bars`: one goodness-of-fit chi-square per deal slot (or pair of adjacent slots) against its
  expectation under fairness (its degrees of freedom) and the level a single bar must pass to
  flag the scan on its own (Bonferroni over the bars, at the report's alpha).
- `Intervals`: a rate per row (an event's frequency as a multiple of its exact probability, a
  win share, the runs test's z) beside the interval a fair shuffle keeps it in with probability
  1 - alpha (exact binomial quantiles, or the normal's).
Each figure names the battery's test it illustrates (`test`): the page prints that test's
method, n, p-value and verdict with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as sp  # type: ignore[import-untyped]

from domain.cards import DECK
from projections.fairness import stats
from projections.fairness.battery import BatteryReport, SuspectedEvent, receiver_name
from projections.fairness.columns import DealColumns
from projections.fairness.deals import RECEIVERS

CARDS = tuple(card.code for card in DECK)


@dataclass(frozen=True, slots=True)
class Heatmap:
    test: str
    columns: tuple[str, ...]
    z: tuple[tuple[float, ...], ...]
    """z[card][column], cards in deck order (CARDS)."""


@dataclass(frozen=True, slots=True)
class Bars:
    test: str
    labels: tuple[str, ...]
    values: tuple[float, ...]
    expected: float
    limit: float


@dataclass(frozen=True, slots=True)
class Interval:
    label: str
    test: str
    observed: float
    expected: float
    low: float
    high: float

    @property
    def outside(self) -> bool:
        return not self.low <= self.observed <= self.high


@dataclass(frozen=True, slots=True)
class Figures:
    heatmaps: tuple[Heatmap, ...]
    bars: tuple[Bars, ...]
    events: tuple[Interval, ...]
    wins: tuple[Interval, ...]
    runs: tuple[Interval, ...]


def figures_of(columns: DealColumns, report: BatteryReport,
               events: Sequence[SuspectedEvent]) -> Figures:
    """The figures of a battery `report` made over `columns` with `events`."""
    if columns.n == 0:
        return Figures((), (), (), (), ())
    alpha = report.alpha
    return Figures(_heatmaps(columns), _bars(columns, alpha),
                   tuple(_event(e, report, alpha) for e in events
                         if report.outcome(f"event/{e.name}").n > 0),
                   _wins(report, alpha), _runs(report, alpha))


def _matrix(resid: np.ndarray) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(round(float(v), 3) for v in row) for row in resid)


def _heatmaps(columns: DealColumns) -> tuple[Heatmap, ...]:
    slots, _ = stats.margin_residuals(stats.slot_counts(columns.decks))
    out = [Heatmap("slots", tuple(str(s + 1) for s in range(slots.shape[1])), _matrix(slots))]
    for group, layout in enumerate(columns.layouts):
        mine = np.flatnonzero(columns.groups == group)
        for by_role, lut, kind in ((False, columns.receivers, "seats"),
                                   (True, columns.roles, "roles")):
            counts = stats.category_counts(columns.decks[mine], lut, columns.rows[mine],
                                           RECEIVERS)
            resid, used = stats.margin_residuals(counts)
            out.append(Heatmap(
                f"{kind}/{layout.game}/{layout.seats}/{layout.order}",
                tuple(receiver_name(int(c), by_role, layout.seats) for c in used),
                _matrix(resid)))
    return tuple(out)


def _bars(columns: DealColumns, alpha: float) -> tuple[Bars, ...]:
    slot_stats, _, slot_resid = stats.column_chi2(stats.slot_counts(columns.decks))
    gap_stats, _, gap_resid = stats.column_chi2(stats.adjacent_counts(columns.decks))
    out = []
    for test, values, resid, label in (("slot-scan", slot_stats, slot_resid, "{}"),
                                       ("adjacent", gap_stats, gap_resid, "{}-{}")):
        df = resid.shape[0] - 1
        bars = resid.shape[1]
        out.append(Bars(test, tuple(label.format(k + 1, k + 2) for k in range(bars)),
                        tuple(round(float(v), 3) for v in values), float(df),
                        float(sp.chi2.isf(alpha / bars, df))))
    return tuple(out)


def _binomial_interval(n: int, p: float, alpha: float) -> tuple[float, float]:
    return (float(sp.binom.ppf(alpha / 2, n, p)), float(sp.binom.isf(alpha / 2, n, p)))


def _event(event: SuspectedEvent, report: BatteryReport, alpha: float) -> Interval:
    outcome = report.outcome(f"event/{event.name}")
    expected = outcome.n * event.expected
    low, high = _binomial_interval(outcome.n, event.expected, alpha)
    scale = expected if expected > 0 else 1.0
    return Interval(event.name, outcome.name, outcome.statistic / scale, 1.0, low / scale,
                    high / scale)


def _wins(report: BatteryReport, alpha: float) -> tuple[Interval, ...]:
    out = []
    for name in ("dealer-wins", "side-wins"):
        outcome = report.outcome(name)
        if outcome.n == 0:
            continue
        low, high = _binomial_interval(outcome.n, 0.5, alpha)
        out.append(Interval(name, name, outcome.statistic / outcome.n, 0.5, low / outcome.n,
                            high / outcome.n))
    return tuple(out)


def _runs(report: BatteryReport, alpha: float) -> tuple[Interval, ...]:
    outcome = report.outcome("runs")
    if outcome.n == 0:
        return ()
    edge = float(sp.norm.isf(alpha / 2))
    return (Interval("runs", "runs", outcome.statistic, 0.0, -edge, edge),)


__all__ = ["CARDS", "Bars", "Figures", "Heatmap", "Interval", "figures_of"]
