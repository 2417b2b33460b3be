"""Statistical fairness of the shuffle (docs/shuffle.md, section 13).

A card-by-position chi-square over 100,000 shuffles, shown able to reject biased shuffles at the
same sample size, and observed frequencies of table events against their exact probabilities.
The shuffles use seeds 0, 1, 2, ... as 16-byte big-endian integers; VERBALE_FAIRNESS_START moves
the first one, so an auditor can repeat the check on other seeds.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from scipy.stats import binomtest, chi2  # type: ignore[import-untyped]

from domain.cards import DECK, Rank
from domain.shuffle import Seed, shuffled_indices

SHUFFLES = 100_000
N = 40
ALPHA = 0.001
DOC = Path(__file__).resolve().parents[2] / "docs" / "shuffle.md"

Orders = npt.NDArray[np.int64]
"""One shuffle per row: orders[s, position] is the deck index of the card at that position."""


@pytest.fixture(scope="module")
def orders() -> Orders:
    start = int(os.environ.get("VERBALE_FAIRNESS_START", "0"))
    rows = [shuffled_indices(Seed((start + s).to_bytes(16, "big"))) for s in range(SHUFFLES)]
    return np.array(rows, dtype=np.int64)


def card_by_position(orders: Orders) -> Orders:
    """counts[card, position]: how often each card lay at each position."""
    cells = orders * N + np.arange(N, dtype=np.int64)
    return np.bincount(cells.ravel(), minlength=N * N).reshape(N, N).astype(np.int64)


def corrected_chi_square(counts: Orders) -> tuple[float, int, float]:
    """Pearson's X² scaled by (n−1)/n, against χ² with (n−1)² degrees of freedom.

    Every row and every column of the table sums to the number of shuffles (each shuffle puts
    each card at exactly one position and one card at each position), so the table is not a
    sample of independent cells. For a uniform random permutation matrix P the covariance is
    Cov(P_ij, P_kl) = (δ_ik − 1/n)(δ_jl − 1/n)/(n−1): the counts move only in the (n−1)²
    dimensions with zero row and column sums, with variance n/(n−1) times what Pearson's X²
    assumes. Hence X² → n/(n−1)·χ²((n−1)²) and X' = X²·(n−1)/n → χ²((n−1)²). The plain X² (as
    chi2_contingency computes it) is inflated by 40/39 and rejects fair shuffles too often.
    """
    shuffles = int(counts[:, 0].sum())
    expected = shuffles / N
    x2 = float(((counts - expected) ** 2).sum() / expected)
    corrected = x2 * (N - 1) / N
    dof = (N - 1) ** 2
    return corrected, dof, float(chi2.sf(corrected, dof))


@pytest.mark.slow
def test_card_by_position_chi_square_over_100000_shuffles(orders: Orders) -> None:
    counts = card_by_position(orders)
    assert (counts.sum(axis=0) == SHUFFLES).all() and (counts.sum(axis=1) == SHUFFLES).all()
    statistic, dof, p = corrected_chi_square(counts)
    assert dof == 1521
    assert p > ALPHA, f"X' = {statistic:.1f} on {dof} degrees of freedom, p = {p:.2g}"


# ---- the statistic can fail: biased shuffles are rejected at the same sample size ----------

def _swap(order: Orders, i: int, j: npt.NDArray[np.int64]) -> None:
    rows = np.arange(order.shape[0])
    held = order[:, i].copy()
    order[:, i] = order[rows, j]
    order[rows, j] = held


def naive_swap_shuffle(rng: np.random.Generator) -> Orders:
    """The classic mistake: every position swaps with any of the 40, giving 40^40 equally
    likely paths onto 40! orders, which cannot be uniform."""
    order = np.tile(np.arange(N, dtype=np.int64), (SHUFFLES, 1))
    for i in range(N):
        _swap(order, i, rng.integers(0, N, SHUFFLES, dtype=np.int64))
    return order


def byte_modulo_shuffle(rng: np.random.Generator) -> Orders:
    """Fisher–Yates with j = byte mod (i+1) and no rejection: small j come up too often."""
    order = np.tile(np.arange(N, dtype=np.int64), (SHUFFLES, 1))
    for i in range(N - 1, 0, -1):
        _swap(order, i, rng.integers(0, 256, SHUFFLES, dtype=np.int64) % (i + 1))
    return order


@pytest.mark.slow
@pytest.mark.parametrize("biased", [naive_swap_shuffle, byte_modulo_shuffle])
def test_biased_shuffles_are_rejected(biased: Callable[[np.random.Generator], Orders]) -> None:
    _, _, p = corrected_chi_square(card_by_position(biased(np.random.default_rng(2026))))
    assert p < ALPHA


# ---- exact probabilities of table events -------------------------------------------------

ACES = frozenset(c.index for c in DECK if c.rank is Rank.ASSO)
KINGS = frozenset(c.index for c in DECK if c.rank is Rank.RE)
MARKED = {"aces": ACES, "kings": KINGS}
_FIGURE = re.compile(r"^\| at least (\d) of the 4 (aces|kings) \| (\d+)–(\d+) \| (\d+)/(\d+) \|",
                     flags=re.M)


def doc_figures() -> list[tuple[int, str, range, Fraction]]:
    """The rows of the exact-figures table in docs/shuffle.md: (k, cards, positions, p)."""
    rows = _FIGURE.findall(DOC.read_text(encoding="utf-8"))
    return [(int(k), cards, range(int(lo), int(hi) + 1), Fraction(int(num), int(den)))
            for k, cards, lo, hi, num, den in rows]


def hypergeometric_at_least(k: int, positions: int) -> Fraction:
    """P(at least k of 4 given cards among `positions` fixed positions of a uniform deck)."""
    favourable = sum(comb(4, x) * comb(N - 4, positions - x) for x in range(k, 5))
    return Fraction(favourable, comb(N, positions))


def enumerated_at_least(k: int, cards: frozenset[int]) -> Fraction:
    """The same for 4 positions, by enumerating all C(40,4) = 91,390 four-card tables."""
    tables = list(combinations(range(N), 4))
    assert len(tables) == 91_390
    return Fraction(sum(1 for t in tables if len(cards.intersection(t)) >= k), len(tables))


def test_doc_figures_are_exact() -> None:
    figures = doc_figures()
    assert len(figures) >= 3
    for k, cards, positions, p in figures:
        assert hypergeometric_at_least(k, len(positions)) == p
        if len(positions) == 4:
            assert enumerated_at_least(k, MARKED[cards]) == p


@pytest.mark.slow
def test_table_events_occur_at_their_exact_frequency(orders: Orders) -> None:
    """Two-sided binomial test at α = 0.001 for each event of the doc's table."""
    for k, cards, positions, p in doc_figures():
        marked = np.isin(orders[:, positions.start:positions.stop], sorted(MARKED[cards]))
        hits = int((marked.sum(axis=1) >= k).sum())
        result = binomtest(hits, SHUFFLES, float(p))
        assert result.pvalue > ALPHA, (k, cards, positions, hits, float(p) * SHUFFLES)
