"""The statistics of the fairness battery, over deals held as numpy arrays (docs/fairness.md).

Every function here is pure: arrays in, a small frozen result out, no I/O. Decks are an
(n, 40) array of deck indices, row = one deal, column = deal slot (position in the shuffle's
output, 0 dealt first); every row a permutation of 0..39.

Fixed margins. One deal's card-by-category table (40 cards down, categories across: the 40
slots, or the receivers: seats, table, briscola card, stock) has both margins fixed: each card
once, each category its fixed number of cards. For such a table of N = 40 entries the Pearson
statistic has mean (r-1)(c-1)·N/(N-1) instead of (r-1)(c-1) (the hypergeometric variance), and
the sum over n independent deals keeps that factor: X·(N-1)/N is asymptotically χ² with
(r-1)(c-1) degrees of freedom; for card by slot, (40-1)² = 1521. Uncorrected, X would flag a
fair shuffle about 5% of the time at a 1% level.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy import stats  # type: ignore[import-untyped]

DECK_SIZE = 40
IntArray = NDArray[np.integer]


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """A chi-square test: statistic, degrees of freedom, p-value; `worst` the (row, column) of
    the cell farthest from its expectation, in standard units `worst_z`."""

    statistic: float
    df: int
    p_value: float
    worst: tuple[int, int]
    worst_z: float


@dataclass(frozen=True, slots=True)
class Scan:
    """The smallest of several p-values, made valid for all of them (Bonferroni): `where` is
    the index of the smallest, `statistic` its own statistic, `tests` how many were scanned."""

    statistic: float
    df: int
    p_value: float
    where: int
    tests: int
    worst: int
    """The category of `where` farthest from its expectation."""


@dataclass(frozen=True, slots=True)
class Binomial:
    """An exact binomial test of `hits` in `n` against probability `expected`."""

    hits: int
    n: int
    expected: float
    p_value: float

    @property
    def observed(self) -> float:
        return self.hits / self.n if self.n else float("nan")


@dataclass(frozen=True, slots=True)
class Runs:
    """Wald-Wolfowitz runs over several sequences pooled: runs observed and expected, z."""

    runs: int
    expected: float
    z: float
    p_value: float
    n: int
    sequences: int


# ---- counting ---------------------------------------------------------------------------------

def slot_counts(decks: IntArray) -> NDArray[np.int64]:
    """counts[card, slot]: how many deals put `card` at `slot`."""
    out = np.empty((DECK_SIZE, decks.shape[1]), dtype=np.int64)
    for slot in range(decks.shape[1]):
        out[:, slot] = np.bincount(decks[:, slot], minlength=DECK_SIZE)[:DECK_SIZE]
    return out


def category_counts(decks: IntArray, lut: IntArray, rows: IntArray,
                    categories: int) -> NDArray[np.int64]:
    """counts[card, category]: deal d's slot s goes to category lut[rows[d], s]."""
    flat = np.zeros(DECK_SIZE * categories, dtype=np.int64)
    for slot in range(decks.shape[1]):
        keys = decks[:, slot].astype(np.int64) * categories + lut[rows, slot]
        flat += np.bincount(keys, minlength=flat.size)
    return flat.reshape(DECK_SIZE, categories)


# ---- chi-square -------------------------------------------------------------------------------

def fixed_margin_chi2(counts: IntArray, per_deal: int = DECK_SIZE) -> ChiSquare:
    """Pearson's X on a card-by-category table summed over deals whose own tables have fixed
    margins, corrected by (N-1)/N with N = `per_deal` cards per deal (module docstring).
    Categories nobody receives (an empty column) are left out."""
    resid, _ = margin_residuals(counts)
    raw = float((resid ** 2).sum())
    df = (resid.shape[0] - 1) * (resid.shape[1] - 1)
    statistic = raw * (per_deal - 1) / per_deal
    worst = np.unravel_index(int(np.argmax(np.abs(resid))), resid.shape)
    return ChiSquare(statistic, df, float(stats.chi2.sf(statistic, df)),
                     (int(worst[0]), int(worst[1])), float(resid[worst]))


def margin_residuals(counts: IntArray) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """The standardized residuals (observed - expected) / sqrt(expected) of a card-by-category
    table against its margins, over the categories somebody receives (their indices, second)."""
    table = np.asarray(counts, dtype=np.float64)
    used = np.flatnonzero(table.sum(axis=0) > 0)
    table = table[:, used]
    expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / table.sum()
    return (table - expected) / np.sqrt(expected), used


def uniform_scan(counts: IntArray) -> Scan:
    """One goodness-of-fit chi-square per column of `counts` against equal shares of its rows
    (each column a multinomial over independent deals, so no correction), the smallest p-value
    times the number of columns (Bonferroni, at most 1)."""
    statistics, p_values, resid = column_chi2(counts)
    df = resid.shape[0] - 1
    where = int(np.argmin(p_values))
    return Scan(float(statistics[where]), df, min(1.0, float(p_values[where]) * resid.shape[1]),
                where, resid.shape[1], int(np.argmax(np.abs(resid[:, where]))))


def column_chi2(counts: IntArray) -> tuple[NDArray[np.float64], NDArray[np.float64],
                                            NDArray[np.float64]]:
    """Per column of `counts`, the goodness-of-fit chi-square against equal shares of its rows
    (rows - 1 degrees of freedom): the statistics, their p-values, and the standardized
    residuals (observed - expected) / sqrt(expected) of every cell."""
    table = np.asarray(counts, dtype=np.float64)
    expected = table.sum(axis=0) / table.shape[0]
    resid = (table - expected) / np.sqrt(np.where(expected > 0, expected, 1.0))
    statistics = (resid ** 2).sum(axis=0)
    return statistics, stats.chi2.sf(statistics, table.shape[0] - 1), resid


def adjacent_counts(decks: IntArray) -> NDArray[np.int64]:
    """counts[d - 1, pair]: how often the card at slot pair+1 lies d places after the card at
    slot `pair` in deck order (mod 40, d = 1..39). Under a fair shuffle, given one card the
    next is any of the other 39 alike, deal after deal: each column is uniform over d."""
    pairs = decks.shape[1] - 1
    out = np.empty((DECK_SIZE - 1, pairs), dtype=np.int64)
    for pair in range(pairs):
        gap = (decks[:, pair + 1].astype(np.int16) - decks[:, pair]) % DECK_SIZE
        out[:, pair] = np.bincount(gap, minlength=DECK_SIZE)[1:DECK_SIZE]
    return out


# ---- exact binomial, win rates, runs -----------------------------------------------------------

def binomial(hits: int, n: int, expected: float) -> Binomial:
    """Two-sided exact binomial test (scipy.stats.binomtest); p = 1 when n = 0."""
    if n == 0:
        return Binomial(0, 0, expected, 1.0)
    return Binomial(hits, n, expected, float(stats.binomtest(hits, n, expected).pvalue))


def runs_test(groups: IntArray, bits: IntArray) -> Runs:
    """Wald-Wolfowitz runs test pooled over sequences: `groups` names each element's sequence
    (elements in sequence order, each sequence contiguous), `bits` is 0/1. Each sequence's runs
    count has, given its numbers of ones and zeros, a known mean and variance; the sequences
    are independent, so means and variances add. Two-sided normal p-value."""
    groups = np.asarray(groups)
    bits = np.asarray(bits, dtype=np.int64)
    if bits.size == 0:
        return Runs(0, 0.0, 0.0, 1.0, 0, 0)
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    changes = np.r_[False, (bits[1:] != bits[:-1]) & (groups[1:] == groups[:-1])]
    size = np.diff(np.r_[starts, bits.size]).astype(np.float64)
    ones = np.add.reduceat(bits, starts).astype(np.float64)
    zeros = size - ones
    runs = int(starts.size + changes.sum())
    both = 2 * ones * zeros
    usable = size > 1
    mean = float(np.sum(np.where(usable, 1 + both / np.maximum(size, 1), 1.0)))
    var = float(np.sum(np.where(usable, both * (both - size)
                                / (size ** 2 * np.maximum(size - 1, 1)), 0.0)))
    z = (runs - mean) / np.sqrt(var) if var > 0 else 0.0
    return Runs(runs, mean, float(z), float(2 * stats.norm.sf(abs(z))) if var > 0 else 1.0,
                int(bits.size), int(starts.size))


def first_slots_above(decks: IntArray, slots: int = 10) -> tuple[NDArray[np.bool_],
                                                                  NDArray[np.int8]]:
    """The runs test's coin: whether the deck indices of the first `slots` cards dealt add up to
    more than their centre (`slots` × 19.5). Under a fair shuffle that sum is symmetric about
    its centre, so the coin is fair and independent from deal to deal; a deal landing exactly
    on the centre has no coin (`usable` False)."""
    total = decks[:, :slots].sum(axis=1, dtype=np.int64) * 2
    centre = slots * (DECK_SIZE - 1)
    return total != centre, (total > centre).astype(np.int8)


# ---- repetitions ------------------------------------------------------------------------------

def repeated_rows(decks: IntArray) -> list[NDArray[np.intp]]:
    """The groups (row indices) of identical decks, each group of at least two rows."""
    if len(decks) < 2:
        return []
    packed = np.ascontiguousarray(decks, dtype=np.uint8)
    words = packed.view(np.uint64) if packed.shape[1] % 8 == 0 else packed
    order = np.lexsort(words.T[::-1])
    ranked = words[order]
    same = np.all(ranked[1:] == ranked[:-1], axis=1)
    if not same.any():
        return []
    groups: list[NDArray[np.intp]] = []
    starts = np.flatnonzero(np.r_[True, ~same])
    for start, stop in zip(starts, np.r_[starts[1:], len(order)], strict=True):
        if stop - start > 1:
            groups.append(np.sort(order[start:stop]))
    return groups


def repeated_keys(keys: Sequence[str | None],
                  owners: NDArray[np.int64]) -> dict[str, list[int]]:
    """Keys (seeds) found with more than one owner (a number per smazzata: a seed is reused
    by every attempt of its own smazzata); None keys are skipped. The keys are compared by
    hash first, as numbers, and only the few that share a hash are compared as strings."""
    hashes = np.fromiter((0 if k is None else hash(k) for k in keys), dtype=np.int64,
                         count=len(keys))
    present = np.fromiter((k is not None for k in keys), dtype=np.bool_, count=len(keys))
    values, counts = np.unique(hashes[present], return_counts=True)
    shared = values[counts > 1]
    found: dict[str, list[int]] = {}
    for index in np.flatnonzero(present & np.isin(hashes, shared)).tolist():
        holders = found.setdefault(str(keys[index]), [])
        if int(owners[index]) not in holders:
            holders.append(int(owners[index]))
    return {key: holders for key, holders in found.items() if len(holders) > 1}


def chance_of_repeat(n: int, outcomes: float) -> float:
    """The chance that n independent uniform draws among `outcomes` repeat one (the birthday
    bound, 1 - exp(-n(n-1)/2/outcomes)): the p-value of seeing any repetition."""
    return float(-np.expm1(-n * (n - 1) / 2 / outcomes))


def benjamini_hochberg(p_values: Sequence[float]) -> NDArray[np.float64]:
    """Adjusted p-values over the whole battery (scipy.stats.false_discovery_control, BH)."""
    if not p_values:
        return np.empty(0)
    return np.asarray(stats.false_discovery_control(np.asarray(p_values, dtype=np.float64),
                                                    method="bh"))
