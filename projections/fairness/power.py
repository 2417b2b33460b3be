"""How many of one dealer's deals a one-sided exact binomial test needs to see a raised rate
(docs/fairness.md, "Per-dealer power").

The test (dealers.py): a dealer's count `k` of an event in his `n` deals against the exact
probability `p` (exact.py), one-sided, "more often than chance": p-value P(X ≥ k) for X ~
Binomial(n, p). At level α it rejects exactly when k ≥ c(n), the critical count: the smallest
c with P(X ≥ c) ≤ α. A dealer whose rate is r·p is caught with probability P(Y ≥ c(n)), Y ~
Binomial(n, r·p): the test's power at n. Power is not monotone in n (it drops each time c(n)
steps up: the exact test's sawtooth), so "the deals needed" is given two ways: the first n
whose power reaches the target, and the n from which on it never falls below it again
(checked up to three times that n, past which the dips are smaller than the rise).

Everything here is a computation with scipy's binomial distribution, vectorised over n; the
bench (bench/fairness_power.py) confirms it by simulating dealers, and the tests against a
brute-force sum over every count.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray
from scipy import stats as sp  # type: ignore[import-untyped]

TIE = 1e-9
"""A p-value within this relative distance of α is α: the floating-point sum of a tail that is
exactly α (P(X ≥ 2) = 1/100 for n = 2, p = 1/10) may land a few ulps above it."""
CEILING = 2_000_000
"""The most deals searched: an event too rare to be seen within it has no number."""


@dataclass(frozen=True, slots=True)
class Needed:
    """Deals of one dealer needed for `power` against `ratio` × p at level `alpha`: `first`,
    the first n that reaches it; `stays`, the n from which on it never falls below it."""

    p: float
    ratio: float
    power: float
    alpha: float
    first: int
    stays: int


def critical_counts(n: NDArray[np.int64], p: float, alpha: float) -> NDArray[np.int64]:
    """c(n) per n: the smallest count whose one-sided p-value P(X ≥ c) is at most α (n + 1
    when no count is that rare)."""
    n = np.asarray(n, dtype=np.int64)
    c = sp.binom.ppf(1 - alpha, n, p).astype(np.int64) + 1
    # ppf works on the cumulative distribution in floating point: settle the boundary on the
    # survival function itself, one count either way.
    level = alpha * (1 + TIE)
    c = np.where(sp.binom.sf(c - 1, n, p) <= level, c, c + 1)
    c = np.where((c >= 2) & (sp.binom.sf(c - 2, n, p) <= level), c - 1, c)
    out: NDArray[np.int64] = np.minimum(c, n + 1)
    return out


def power_at(n: NDArray[np.int64], p: float, ratio: float, alpha: float) -> NDArray[np.float64]:
    """The power per n against a dealer whose rate is `ratio` × p (capped at 1)."""
    n = np.asarray(n, dtype=np.int64)
    c = critical_counts(n, p, alpha)
    power: NDArray[np.float64] = sp.binom.sf(c - 1, n, min(ratio * p, 1.0))
    return power


def power_of(n: int, p: float, ratio: float, alpha: float) -> float:
    """The power at one n."""
    return float(power_at(np.array([n]), p, ratio, alpha)[0])


@lru_cache(maxsize=512)
def deals_needed(p: float, ratio: float, power: float, alpha: float) -> Needed:
    """The deals needed (`Needed`); ValueError when p·ratio is not above p and below 1, or
    the target is not reached within CEILING deals."""
    if not 0 < p < p * ratio <= 1 or not 0 < power < 1 or not 0 < alpha < 1:
        raise ValueError(f"no power to compute for p={p}, ratio={ratio}, power={power}, "
                         f"alpha={alpha}")
    top = 256
    while True:
        n = np.arange(1, top + 1, dtype=np.int64)
        reached = power_at(n, p, ratio, alpha) >= power
        if reached.any():
            first = int(n[int(np.argmax(reached))])
            if top >= 3 * first:
                below = np.flatnonzero(~reached[: 3 * first])
                stays = int(below[-1]) + 2 if below.size else 1
                return Needed(p, ratio, power, alpha, first, stays)
        if top >= CEILING:
            raise ValueError(f"power {power} against {ratio}×{p} not reached in {CEILING} deals")
        top = min(top * 4, CEILING)


def too_few(p: float, alpha: float) -> int:
    """The deals below which one dealer's cell of an event with probability p says nothing:
    fewer than the power table's n for 80% against a doubled rate at level α (docs/
    fairness.md, "Noise"). A probability above 1/2 cannot double: no cell of it is noise."""
    if not 0 < p <= 0.5:
        return 0
    return deals_needed(p, 2.0, 0.8, alpha).stays


def at_most(p_value: float, alpha: float) -> bool:
    """Whether a p-value is at most α, up to floating-point error (TIE)."""
    return p_value <= alpha * (1 + TIE)


__all__ = ["CEILING", "TIE", "Needed", "at_most", "critical_counts", "deals_needed",
           "power_at", "power_of", "too_few"]
