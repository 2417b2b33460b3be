"""The per-dealer power table (projections/fairness/power.py) against a brute-force sum over
every count, and against simulated dealers (bench/fairness_power.py runs it at full size)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sp  # type: ignore[import-untyped]

from projections.fairness.dealers import greater_p_values
from projections.fairness.power import (
    TIE,
    critical_counts,
    deals_needed,
    power_at,
    power_of,
    too_few,
)
from tests.profile import scaled


def _tail(n: int, p: Fraction, c: int) -> Fraction:
    """P(X ≥ c), X ~ Binomial(n, p), summed exactly over every count."""
    a, b = p.numerator, p.denominator
    return Fraction(sum(comb(n, x) * a ** x * (b - a) ** (n - x) for x in range(c, n + 1)),
                    b ** n)


def _brute_critical(n: int, p: Fraction, alpha: Fraction) -> int:
    return next(c for c in range(n + 2) if c == n + 1 or _tail(n, p, c) <= alpha)


def _brute_power(n: int, p: Fraction, ratio: Fraction, alpha: Fraction) -> float:
    return float(_tail(n, p * ratio, _brute_critical(n, p, alpha)))


@given(n=st.integers(1, 60), p=st.sampled_from([Fraction(1, 4), Fraction(1, 10),
                                                Fraction(617, 9139), Fraction(47, 4940)]),
       alpha=st.sampled_from([Fraction(1, 100), Fraction(1, 20)]))
def test_the_critical_count_and_the_power_are_the_brute_force_sums(
        n: int, p: Fraction, alpha: Fraction) -> None:
    expected = _brute_critical(n, p, alpha)
    assert int(critical_counts(np.array([n]), float(p), float(alpha))[0]) == expected
    assert power_of(n, float(p), 2.0, float(alpha)) == pytest.approx(
        _brute_power(n, p, Fraction(2), alpha), abs=1e-12)


def test_the_deals_needed_are_the_brute_force_search() -> None:
    p, alpha = Fraction(1, 4), Fraction(1, 100)
    powers = [_brute_power(n, p, Fraction(2), alpha) for n in range(1, 200)]
    first = 1 + next(k for k, value in enumerate(powers) if value >= 0.8)
    stays = 1 + max(k for k, value in enumerate(powers) if value < 0.8) + 1
    needed = deals_needed(0.25, 2.0, 0.8, 0.01)
    assert (needed.first, needed.stays) == (first, stays)
    assert first < stays   # the exact test's sawtooth: reached, lost, reached for good


def test_the_issue_s_figure_for_the_dealer_s_15() -> None:
    # issue 23: about 207 of his deals for 80% against a doubled 15 (p = 0.0643, due-assi)
    needed = deals_needed(5624 / 87465, 2.0, 0.8, 0.01)
    assert 190 <= needed.first <= needed.stays <= 230
    assert too_few(5624 / 87465, 0.01) == needed.stays


@pytest.mark.parametrize(("p", "ratio"), [(5624 / 87465, 2.0), (47 / 4940, 1.5), (0.25, 2.0)])
def test_simulated_dealers_reach_the_derived_power(p: float, ratio: float) -> None:
    needed = deals_needed(p, ratio, 0.8, 0.01)
    dealers = scaled(4_000, 20_000)
    rng = np.random.default_rng(23)
    n = needed.stays
    k = (rng.random((dealers, n)) < ratio * p).sum(axis=1)
    caught = greater_p_values(k, np.full(dealers, n), np.full(dealers, p)) <= 0.01 * (1 + TIE)
    power = power_of(n, p, ratio, 0.01)
    assert power >= 0.8
    # within 4 standard errors of the derived power
    assert abs(caught.mean() - power) <= 4 * np.sqrt(power * (1 - power) / dealers)


def test_the_one_sided_p_value_is_scipy_s_binomtest_greater() -> None:
    rng = np.random.default_rng(5)
    n = rng.integers(1, 400, 50)
    p = rng.choice([0.0643, 0.0016, 0.25, 0.1], 50)
    k = rng.binomial(n, p * 1.7)
    ours = greater_p_values(k, n, p)
    for value, kk, nn, pp in zip(ours, k, n, p, strict=True):
        assert value == pytest.approx(
            sp.binomtest(int(kk), int(nn), float(pp), alternative="greater").pvalue, rel=1e-9)


def test_power_grows_with_the_ratio_and_no_target_is_asked_of_no_bias() -> None:
    n = np.arange(1, 400)
    assert (power_at(n, 0.1, 2.0, 0.01) >= power_at(n, 0.1, 1.5, 0.01)).all()
    assert (power_at(n, 0.1, 1.0, 0.01) <= 0.01 + 1e-12).all()   # the level holds
    with pytest.raises(ValueError, match="no power"):
        deals_needed(0.1, 1.0, 0.8, 0.01)
