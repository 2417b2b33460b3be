"""The per-dealer view: does any dealer get an event more often than chance? (docs/fairness.md,
"Per dealer").

A dealer is a person: his name where the match records one (DealRecord.dealer_name), else his
seat in that match (`1a2b3c4d/2`: seat 2 of the match whose id starts 1a2b3c4d). For each
dealer and each event of the catalogue (suspected.py: the same marks, per C1 reading), his count
`k` in his `n` deals of the event's population, against the event's exact probability `p`
(exact.py):

- a one-sided exact binomial test, "more often than chance": P(X ≥ k), X ~ Binomial(n, p)
  (scipy's binomtest with alternative="greater" gives the same number);
- Holm's correction over every dealer × event cell that has a deal. Holm, not the battery's
  Benjamini-Hochberg: a flag here names a person, and Holm bounds the chance that *any* honest
  dealer is named at α (the family-wise rate), under any dependence between the cells (a
  dealer's 15 and his 15 without the matta are nested); Benjamini-Hochberg bounds the share of
  wrong names among the flags, which is the wrong promise to make about people;
- the 99% Clopper-Pearson interval of his rate (exact, two-sided);
- `noise`: fewer deals than the power table says one test at the report's α needs for 80%
  power against a doubled rate (power.too_few): such a cell cannot say anything either way.

A dealer with fewer deals than the minimum population (`minimum`: the page's and the API's
k-anonymity rule) is not shown at all, only counted: his cells would describe a handful of
deals of one person.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats as sp  # type: ignore[import-untyped]

from domain.text import Said, say
from projections.fairness.battery import ALPHA, SuspectedEvent
from projections.fairness.deals import DealRecord
from projections.fairness.power import at_most, too_few

CONFIDENCE = 0.99
"""The level of each dealer's interval."""
MINIMUM = 1
"""A dealer with fewer deals is only counted (replaced by the report's minimum population)."""


@dataclass(frozen=True, slots=True)
class DealerCell:
    """One dealer and one event: `k` of `n`, the exact `expected` probability, the one-sided
    p-value, Holm's adjusted p-value, the 99% interval of his rate, `needed` (the deals below
    which the cell is noise), whether it flags."""

    dealer: str
    event: str
    k: int
    n: int
    expected: float
    p_value: float
    adjusted: float
    low: float
    high: float
    needed: int
    flagged: bool

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else 0.0

    @property
    def noise(self) -> bool:
        """Too few deals to say anything (power table: under 80% against a doubled rate)."""
        return self.n < self.needed

    def as_dict(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "event": self.event, "k": self.k, "n": self.n,
                "expected": self.expected, "rate": self.rate, "p_value": self.p_value,
                "holm_adjusted_p_value": self.adjusted,
                "interval_99": [self.low, self.high], "deals_needed": self.needed,
                "noise": self.noise, "flagged": self.flagged}


@dataclass(frozen=True, slots=True)
class DealerView:
    """Every shown dealer's cells, event by event (catalogue order), dealers by name; the
    dealers left out for having fewer than `minimum` deals; the events' titles."""

    alpha: float
    minimum: int
    dealers: tuple[tuple[str, int], ...]
    """(dealer, deals) of each dealer shown."""
    hidden: int
    cells: tuple[DealerCell, ...]
    titles: tuple[tuple[str, Said], ...]

    @property
    def flagged(self) -> tuple[DealerCell, ...]:
        return tuple(c for c in self.cells if c.flagged)

    def title(self, event: str) -> Said:
        return dict(self.titles).get(event, say("event: {name}", name=event))

    def events(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.titles)

    def of_event(self, event: str) -> tuple[DealerCell, ...]:
        return tuple(c for c in self.cells if c.event == event)

    def verdict(self) -> Said:
        """One sentence: which dealers flag, or none."""
        tested = sum(c.n > 0 for c in self.cells)
        if not self.dealers:
            return say("No dealer has enough deals to be shown on his own (at least {minimum}).",
                       minimum=self.minimum)
        if not self.flagged:
            return say("No dealer gets an event more often than chance at the {alpha} level "
                       "(Holm over {cells} dealer × event cells of {dealers} dealers).",
                       alpha=format(self.alpha, "g"), cells=tested, dealers=len(self.dealers))
        return say("{count} dealer × event cells flag at the {alpha} level (Holm over {cells} "
                   "cells): {which}. Each names a dealer who got the event more often than "
                   "chance; read the counts before drawing a conclusion.",
                   count=len(self.flagged), alpha=format(self.alpha, "g"), cells=tested,
                   which="; ".join(f"{c.dealer} {c.event} {c.k}/{c.n}"
                                   for c in self.flagged))

    def public(self, minimum: int) -> DealerView:
        """The view as the public sees it: no dealer with fewer than `minimum` deals, no cell
        counted on fewer (privacy.py's minimum population), Holm decided again over the cells
        shown (a withheld cell's p-value moves nothing that is shown)."""
        dealers = tuple((d, n) for d, n in self.dealers if n >= minimum)
        names = {d for d, _ in dealers}
        kept = [c for c in self.cells if c.dealer in names and c.n >= minimum]
        adjusted = holm(np.array([c.p_value for c in kept], dtype=np.float64))
        cells = tuple(replace(c, adjusted=float(q), flagged=at_most(float(q), self.alpha))
                      for c, q in zip(kept, adjusted, strict=True))
        events = {c.event for c in cells}
        return DealerView(self.alpha, max(minimum, self.minimum), dealers,
                          self.hidden + len(self.dealers) - len(dealers), cells,
                          tuple(t for t in self.titles if t[0] in events))

    def as_dict(self) -> dict[str, Any]:
        return {"alpha": self.alpha, "confidence": CONFIDENCE,
                "correction": "holm", "minimum_deals": self.minimum,
                "dealers_hidden": self.hidden,
                "dealers": [{"dealer": d, "deals": n} for d, n in self.dealers],
                "flagged": [[c.dealer, c.event] for c in self.flagged],
                "verdict": str(self.verdict()),
                "cells": [c.as_dict() for c in self.cells]}


def dealer_of(record: DealRecord) -> str:
    """The dealer as a person: his recorded name, else his seat in that match, written
    `1a2b3c4d/2` (the match's id, its first 8 characters, and the seat counted from 1)."""
    if record.dealer_name:
        return record.dealer_name
    return f"{record.match[:8]}/{record.dealer + 1}"


def dealer_view(records: Sequence[DealRecord], events: Sequence[SuspectedEvent],
                alpha: float = ALPHA, minimum: int = MINIMUM) -> DealerView:
    """The per-dealer view of `records` for the catalogue's `events` (their marks are
    computed once for all, as the battery computed them)."""
    names = [dealer_of(r) for r in records]
    order = sorted(set(names), key=str.casefold)
    deals = dict.fromkeys(order, 0)
    for name in names:
        deals[name] += 1
    shown = [d for d in order if deals[d] >= minimum]
    index = {d: k for k, d in enumerate(shown)}
    who = np.array([index.get(n, -1) for n in names], dtype=np.int64)
    marks = {e.name: _marks(e, records) for e in events}
    counts = [(e, *_per_dealer(marks[e.name], who, len(shown))) for e in events]
    return dealer_cells(shown, counts, alpha, minimum,
                        hidden=len(order) - len(shown), deals=deals)


def _marks(event: SuspectedEvent, records: Sequence[DealRecord]) -> NDArray[np.int8]:
    if event.observe_records is not None:
        return np.asarray(event.observe_records(records), dtype=np.int8)
    return np.array([-1 if m is None else int(m) for m in map(event.observe, records)],
                    dtype=np.int8)


def _per_dealer(marks: NDArray[np.int8], who: NDArray[np.int64],
                dealers: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    mine = who >= 0
    k = np.bincount(who[mine & (marks == 1)], minlength=dealers)
    n = np.bincount(who[mine & (marks >= 0)], minlength=dealers)
    return k.astype(np.int64), n.astype(np.int64)


def dealer_cells(shown: Sequence[str],
                 counts: Sequence[tuple[SuspectedEvent, NDArray[np.int64], NDArray[np.int64]]],
                 alpha: float, minimum: int, hidden: int,
                 deals: dict[str, int]) -> DealerView:
    """The view from each event's per-dealer counts `k` and `n` (arrays over `shown`)."""
    raw: list[tuple[str, str, int, int, float]] = []
    for event, k, n in counts:
        raw += [(shown[d], event.name, int(k[d]), int(n[d]), float(event.expected))
                for d in range(len(shown)) if n[d] > 0]
    ks = np.array([r[2] for r in raw], dtype=np.int64)
    ns = np.array([r[3] for r in raw], dtype=np.int64)
    ps = np.array([r[4] for r in raw], dtype=np.float64)
    p_values = greater_p_values(ks, ns, ps)
    adjusted = holm(p_values)
    low, high = clopper_pearson(ks, ns, CONFIDENCE)
    cells = tuple(DealerCell(dealer, event, k, n, p, float(pv), float(q), float(lo), float(hi),
                             too_few(p, alpha), at_most(float(q), alpha))
                  for (dealer, event, k, n, p), pv, q, lo, hi
                  in zip(raw, p_values, adjusted, low, high, strict=True))
    titles = tuple((e.name, e.title if e.title is not None else say("event: {name}",
                                                                    name=e.name))
                   for e, _, n in counts if n.sum() > 0)
    return DealerView(alpha, minimum, tuple((d, deals[d]) for d in shown), hidden, cells,
                      titles)


def greater_p_values(k: NDArray[np.int64], n: NDArray[np.int64],
                     p: NDArray[np.float64]) -> NDArray[np.float64]:
    """P(X ≥ k), X ~ Binomial(n, p): the exact one-sided p-value of binomtest(k, n, p,
    alternative="greater"), for many cells at once."""
    out: NDArray[np.float64] = np.minimum(sp.binom.sf(k - 1, n, p), 1.0)
    return out


def holm(p_values: NDArray[np.float64]) -> NDArray[np.float64]:
    """Holm's step-down adjusted p-values: the i-th smallest times (m - i + 1), made
    non-decreasing, capped at 1. A cell flags when its adjusted p-value is at most α."""
    m = len(p_values)
    if m == 0:
        return np.zeros(0)
    order = np.argsort(p_values, kind="stable")
    scaled = np.minimum(p_values[order] * (m - np.arange(m)), 1.0)
    out = np.empty(m)
    out[order] = np.maximum.accumulate(scaled)
    return out


def clopper_pearson(k: NDArray[np.int64], n: NDArray[np.int64],
                    confidence: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The exact (Clopper-Pearson) two-sided interval of k/n at `confidence`."""
    tail = (1 - confidence) / 2
    low = np.where(k > 0, sp.beta.ppf(tail, np.maximum(k, 1), n - k + 1), 0.0)
    high = np.where(k < n, sp.beta.ppf(1 - tail, k + 1, np.maximum(n - k, 1)), 1.0)
    return low.astype(np.float64), high.astype(np.float64)


__all__ = ["CONFIDENCE", "DealerCell", "DealerView", "clopper_pearson", "dealer_of",
           "dealer_view", "greater_p_values", "holm"]
