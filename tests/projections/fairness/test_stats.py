"""The battery's statistics, each against a value worked out another way."""

from __future__ import annotations

from itertools import permutations, product

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sp  # type: ignore[import-untyped]

from projections.fairness import stats
from projections.fairness.calibration import fisher_yates

DECK = np.arange(40, dtype=np.uint8)


def _counts(perms: list[tuple[int, ...]]) -> np.ndarray:
    k = len(perms[0])
    counts = np.zeros((k, k), dtype=np.int64)
    for perm in perms:
        counts[list(perm), range(k)] += 1
    return counts


@pytest.mark.parametrize("k", [3, 4])
def test_the_fixed_margin_correction_makes_the_exact_mean_the_degrees_of_freedom(k: int) -> None:
    # Every pair of deals of k cards, enumerated: the corrected statistic's exact mean is
    # (k-1)^2, the uncorrected one's k/(k-1) times more.
    deals = list(permutations(range(k)))
    values = [stats.fixed_margin_chi2(_counts([a, b]), per_deal=k).statistic
              for a, b in product(deals, deals)]
    assert np.mean(values) == pytest.approx((k - 1) ** 2)
    assert stats.fixed_margin_chi2(_counts([deals[0]]), per_deal=k).df == (k - 1) ** 2


def test_the_corrected_slot_statistic_has_the_chi_square_mean_on_fair_decks() -> None:
    rng = np.random.default_rng(7)
    values = [stats.fixed_margin_chi2(stats.slot_counts(fisher_yates(rng, 400))).statistic
              for _ in range(200)]
    standard_error = np.sqrt(2 * 1521 / 200)
    assert abs(np.mean(values) - 1521) < 4 * standard_error
    assert abs(np.mean(values) * 40 / 39 - 1521) > 6 * standard_error   # uncorrected is off


def test_slot_counts_count_each_card_at_each_slot() -> None:
    decks = np.stack([DECK, DECK[::-1]])
    counts = stats.slot_counts(decks)
    assert counts.sum(axis=0).tolist() == [2] * 40 and counts.sum(axis=1).tolist() == [2] * 40
    assert counts[0, 0] == 1 and counts[0, 39] == 1 and counts[5, 5] == 1


def test_category_counts_follow_the_lookup_table() -> None:
    lut = np.array([[0] * 20 + [1] * 20, [1] * 20 + [0] * 20])
    counts = stats.category_counts(np.stack([DECK, DECK]), lut, np.array([0, 1]), 3)
    assert counts.tolist() == [[1, 1, 0]] * 40


def test_a_bias_at_one_slot_shows_in_the_scan_with_its_slot_and_card() -> None:
    rng = np.random.default_rng(1)
    decks = fisher_yates(rng, 20_000)
    rows = np.flatnonzero(rng.random(len(decks)) < 0.05)     # the 1d to slot 12, 5% more
    where = np.argmax(decks[rows] == 0, axis=1)
    decks[rows, where] = decks[rows, 12]
    decks[rows, 12] = 0
    counts = stats.slot_counts(decks)
    scan = stats.uniform_scan(counts)
    assert (scan.where, scan.worst, scan.tests, scan.df) == (12, 0, 40, 39)
    assert scan.p_value < 1e-10
    fair = stats.uniform_scan(stats.slot_counts(fisher_yates(rng, 20_000)))
    assert fair.p_value > 1e-3


def test_the_scan_is_bonferroni_of_the_per_column_tests() -> None:
    counts = stats.slot_counts(fisher_yates(np.random.default_rng(3), 1000))
    each = [sp.chisquare(counts[:, slot]).pvalue for slot in range(40)]
    assert stats.uniform_scan(counts).p_value == pytest.approx(min(1.0, 40 * min(each)))


def test_adjacent_gaps_of_an_unshuffled_deck_are_all_one() -> None:
    gaps = stats.adjacent_counts(np.stack([DECK] * 3))
    assert gaps.shape == (39, 39)
    assert gaps[0].tolist() == [3] * 39 and gaps[1:].sum() == 0
    assert stats.uniform_scan(gaps).p_value < 1e-6


@given(st.permutations(range(40)))
def test_adjacent_gaps_count_each_pair_once(deck: list[int]) -> None:
    gaps = stats.adjacent_counts(np.array([deck], dtype=np.uint8))
    assert gaps.sum(axis=0).tolist() == [1] * 39
    for pair in range(39):
        assert gaps[(deck[pair + 1] - deck[pair]) % 40 - 1, pair] == 1


def test_runs_by_hand() -> None:
    # 1 1 0 0 1: 3 runs; n1 = 3, n0 = 2: mean 1 + 12/5, variance 12 * 7 / (25 * 4)
    runs = stats.runs_test(np.zeros(5, dtype=np.int64), np.array([1, 1, 0, 0, 1]))
    assert runs.runs == 3 and runs.expected == pytest.approx(3.4)
    assert runs.z == pytest.approx(-0.4 / np.sqrt(0.84))
    assert runs.p_value == pytest.approx(2 * sp.norm.sf(0.4 / np.sqrt(0.84)))


def test_runs_do_not_cross_from_one_table_to_the_next() -> None:
    # Two tables 1 1 1 | 0 0 0: two runs, each table one run of its own
    pooled = stats.runs_test(np.array([0, 0, 0, 1, 1, 1]), np.array([1, 1, 1, 0, 0, 0]))
    assert pooled.runs == 2 and pooled.expected == 2 and pooled.sequences == 2
    assert pooled.p_value == 1.0


def test_alternation_and_clumping_are_both_runs_anomalies() -> None:
    alternating = stats.runs_test(np.zeros(200, dtype=np.int64), np.arange(200) % 2)
    clumped = stats.runs_test(np.zeros(200, dtype=np.int64), (np.arange(200) >= 100).astype(int))
    assert alternating.z > 5 and clumped.z < -5
    assert alternating.p_value < 1e-6 and clumped.p_value < 1e-6


@given(st.permutations(range(40)))
def test_the_runs_coin_is_symmetric(deck: list[int]) -> None:
    forward = np.array([deck], dtype=np.uint8)
    usable, above = stats.first_slots_above(forward)
    usable_mirror, above_mirror = stats.first_slots_above(39 - forward)
    assert usable[0] == usable_mirror[0]
    if usable[0]:
        assert above[0] != above_mirror[0]


def test_repeated_rows_are_found_with_their_rows() -> None:
    decks = fisher_yates(np.random.default_rng(5), 1000)
    decks[700] = decks[3]
    decks[900] = decks[3]
    groups = stats.repeated_rows(decks)
    assert [g.tolist() for g in groups] == [[3, 700, 900]]
    assert stats.repeated_rows(fisher_yates(np.random.default_rng(5), 1000)) == []


def test_a_seed_repeats_only_across_owners() -> None:
    seeds = ["aa", "aa", "bb", "aa", None, None, "cc"]
    owners = np.array([10, 10, 20, 34, 40, 50, 60])
    assert stats.repeated_keys(seeds, owners) == {"aa": [10, 34]}


def test_the_chance_of_a_repeat_is_the_birthday_bound() -> None:
    assert stats.chance_of_repeat(23, 365) == pytest.approx(1 - np.exp(-23 * 22 / 2 / 365))
    assert 0 < stats.chance_of_repeat(10**6, 2.0**128) < 1e-20


def test_benjamini_hochberg_by_hand() -> None:
    adjusted = stats.benjamini_hochberg([0.01, 0.04, 0.03, 0.5])
    # sorted 0.01 0.03 0.04 0.5 -> p * 4 / rank 0.04 0.06 0.0533 0.5 -> running min from the top
    assert adjusted.tolist() == pytest.approx([0.04, 0.16 / 3, 0.16 / 3, 0.5])
    assert stats.benjamini_hochberg([]).size == 0


def test_binomial_is_scipy_and_empty_is_one() -> None:
    assert stats.binomial(30, 100, 0.2).p_value == pytest.approx(
        sp.binomtest(30, 100, 0.2).pvalue)
    assert stats.binomial(0, 0, 0.5).p_value == 1.0
