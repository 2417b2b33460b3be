"""The per-dealer view (projections/fairness/dealers.py): a dealer whose 15 comes twice as often
as chance over enough deals is named, honest dealers are not (calibrated over many stores), the
statistics are scipy's (binomtest "greater", Clopper-Pearson) and Holm's step-down."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sp  # type: ignore[import-untyped]

from projections.fairness import calibration as cal
from projections.fairness.dealers import clopper_pearson, dealer_of, dealer_view, holm
from projections.fairness.deals import DealRecord
from projections.fairness.power import too_few
from projections.fairness.suspected import catalogued_events, group_name, marks_of
from tests.profile import scaled

START = datetime(2026, 5, 1, tzinfo=UTC)
MAI = (("redeal", "mai"),)
QUINDICI = "cirulla.quindici[redeal=mai]"
P_QUINDICI = 617 / 9139


def _records(decks: np.ndarray, name: str | None, seat: int, label: str,
             per_match: int = 10) -> list[DealRecord]:
    return [DealRecord(match=f"{label}{k // per_match:07d}", smazzata=k % 10, attempt=0,
                       layout=cal.CIRULLA_2, dealer=seat, deck=deck.tobytes(),
                       seed=f"{label}{k:030x}", provenance="simulated",
                       dealt_at=START + timedelta(minutes=k), ruleset=MAI, dealer_name=name)
            for k, deck in enumerate(decks)]


def _fifteens(rng: np.random.Generator, seat: int, wanted: int) -> np.ndarray:
    """Fair decks whose table gives the dealer at `seat` a 15 (rejection from fair decks)."""
    found: list[np.ndarray] = []
    while sum(len(f) for f in found) < wanted:
        decks = cal.fisher_yates(rng, 4000)
        marks = marks_of(_records(decks, "x", seat, "pool"), [("cirulla.quindici", MAI)])
        found.append(decks[marks[:, 0] == 1])
    return np.concatenate(found)[:wanted]


def _cheater(rng: np.random.Generator, deals: int, seat: int) -> np.ndarray:
    """A dealer whose 15 comes twice as often: a share q = p / (1 - p) of his deals is a 15
    chosen on purpose, the rest fair, so his rate is q + (1 - q) p = 2p."""
    decks = cal.fisher_yates(rng, deals)
    chosen = rng.random(deals) < P_QUINDICI / (1 - P_QUINDICI)
    decks[chosen] = _fifteens(rng, seat, int(chosen.sum()))
    return decks


def test_a_dealer_with_a_doubled_15_is_named_and_the_honest_ones_are_not() -> None:
    rng = np.random.default_rng(23)
    deals = 1_500   # the power table's n for 90% against x2 is 264: well past it
    records = (_records(_cheater(rng, deals, 1), "Franco", 1, "c")
               + _records(cal.fisher_yates(rng, deals), "Anna", 0, "a")
               + _records(cal.fisher_yates(rng, deals), "Bruno", 1, "b"))
    view = dealer_view(records, catalogued_events(records), alpha=0.01)
    assert [d for d, _ in view.dealers] == ["Anna", "Bruno", "Franco"]
    flagged = {(c.dealer, c.event) for c in view.flagged}
    assert ("Franco", QUINDICI) in flagged
    assert {dealer for dealer, _ in flagged} == {"Franco"}
    cell = next(c for c in view.of_event(QUINDICI) if c.dealer == "Franco")
    assert cell.n == deals and cell.rate > 1.6 * P_QUINDICI
    assert cell.low > P_QUINDICI and not cell.noise
    assert "Franco" in str(view.verdict())
    data = view.as_dict()
    assert data["correction"] == "holm" and ["Franco", QUINDICI] in data["flagged"]


def test_honest_dealers_are_named_at_most_at_the_nominal_rate() -> None:
    # Holm bounds the chance that any honest dealer is named at alpha: over many honest stores
    # the stores with a flag are at most the 99.9% point of Binomial(stores, 1%).
    stores = scaled(40, 150, 1000)
    rng = np.random.default_rng(7)
    named = 0
    events = None
    for store in range(stores):
        records = [r for seat, name in enumerate(("Anna", "Bruno", "Carla"))
                   for r in _records(cal.fisher_yates(rng, 300), name, seat % 2,
                                    f"s{store}{seat}")]
        events = catalogued_events(records)
        named += bool(dealer_view(records, events, alpha=0.01).flagged)
    assert events is not None and len(events) == 14
    assert named <= sp.binom.ppf(0.999, stores, 0.01)


def test_cells_carry_the_exact_numbers_and_the_noise_mark() -> None:
    rng = np.random.default_rng(3)
    records = (_records(cal.fisher_yates(rng, 120), "Anna", 0, "a")
               + _records(cal.fisher_yates(rng, 400), None, 1, "b", per_match=400))
    events = catalogued_events(records)
    view = dealer_view(records, events, alpha=0.01)
    assert [d for d, _ in view.dealers] == ["Anna", "b0000000/2"]
    assert dealer_of(records[-1]) == "b0000000/2"
    for cell in view.cells:
        expected = next(e.expected for e in events if e.name == cell.event)
        assert cell.expected == expected
        assert cell.p_value == pytest.approx(sp.binomtest(
            cell.k, cell.n, expected, alternative="greater").pvalue, rel=1e-9)
        assert cell.needed == too_few(expected, 0.01)
        assert cell.noise == (cell.n < cell.needed)
        assert cell.low <= cell.rate <= cell.high
    quindici = {c.dealer: c for c in view.of_event(QUINDICI)}
    assert quindici["Anna"].noise and not quindici["b0000000/2"].noise   # 120 < 205 <= 400


def test_a_dealer_with_too_few_deals_is_only_counted() -> None:
    rng = np.random.default_rng(4)
    records = (_records(cal.fisher_yates(rng, 50), "Anna", 0, "a")
               + _records(cal.fisher_yates(rng, 10), "Bruno", 1, "b"))
    view = dealer_view(records, catalogued_events(records), minimum=40)
    assert view.dealers == (("Anna", 50),) and view.hidden == 1
    assert {c.dealer for c in view.cells} == {"Anna"}
    assert "Bruno" not in str(view.as_dict())


def _holm_step_down(p: list[float], alpha: float) -> set[int]:
    """Holm's procedure as stated: reject in order of p while p_(i) <= alpha / (m - i)."""
    m, rejected = len(p), set()
    for i, k in enumerate(sorted(range(m), key=lambda j: p[j])):
        if p[k] > alpha / (m - i):
            break
        rejected.add(k)
    return rejected


@given(st.lists(st.floats(0, 1), min_size=1, max_size=30),
       st.sampled_from([0.01, 0.05, 0.2]))
def test_holm_adjusted_p_values_reject_what_the_step_down_rejects(
        p: list[float], alpha: float) -> None:
    adjusted = holm(np.array(p))
    assert {k for k, q in enumerate(adjusted) if q <= alpha} == _holm_step_down(p, alpha)
    assert (adjusted >= np.array(p)).all() and (adjusted <= 1).all()


def test_the_interval_is_scipy_s_clopper_pearson() -> None:
    k = np.array([0, 1, 7, 30, 30])
    n = np.array([10, 10, 100, 30, 400])
    low, high = clopper_pearson(k, n, 0.99)
    for lo, hi, kk, nn in zip(low, high, k, n, strict=True):
        ci = sp.binomtest(int(kk), int(nn)).proportion_ci(confidence_level=0.99,
                                                         method="exact")
        assert (lo, hi) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_the_events_are_the_catalogue_s() -> None:
    rng = np.random.default_rng(9)
    records = _records(cal.fisher_yates(rng, 50), "Anna", 0, "a")
    view = dealer_view(records, catalogued_events(records))
    assert QUINDICI in view.events()
    assert group_name(("cirulla.quindici", MAI)) == QUINDICI


def test_the_public_view_hides_small_dealers_and_cells_and_decides_again() -> None:
    rng = np.random.default_rng(11)
    records = (_records(_cheater(rng, 1_000, 1), "Franco", 1, "c")
               + _records(cal.fisher_yates(rng, 30), "Bruno", 0, "b"))
    whole = dealer_view(records, catalogued_events(records))
    assert {d for d, _ in whole.dealers} == {"Bruno", "Franco"}
    shown = whole.public(40)
    assert shown.dealers == (("Franco", 1_000),) and shown.hidden == 1
    assert all(c.n >= 40 and c.dealer == "Franco" for c in shown.cells)
    assert ("Franco", QUINDICI) in {(c.dealer, c.event) for c in shown.flagged}
    # Holm over fewer cells: no adjusted p-value grows
    before = {(c.dealer, c.event): c.adjusted for c in whole.cells}
    assert all(c.adjusted <= before[(c.dealer, c.event)] + 1e-15 for c in shown.cells)
