"""The battery over complete recorded matches (issue 23): no false alarm from what play decides,
no hidden alarm in hand-shuffled deals. The calibration over honest stores of complete matches
runs here at a small scale, sized by the hypothesis profile (bench/fairness_calibration.py
--stores runs it at full scale; docs/fairness.md, "Calibration")."""

from __future__ import annotations

from hypothesis import settings
from scipy import stats as sp  # type: ignore[import-untyped]

from projections.fairness import calibration as cal
from projections.fairness.deals import DealRecord
from projections.fairness.report import SEEDED, fairness_report
from projections.fairness.selection import Criteria
from projections.fairness.suspected import catalogued_events
from tests.projections.fairness.stores import CHEAT, honest, stacked_by_hand

STORES = max(10, settings().max_examples // 6)   # dev 10, ci 25, deep 333
STORE_MATCHES = 200


def test_honest_complete_matches_raise_no_false_alarm() -> None:
    # The case: 1,000 honest recorded matches. The dealer's side wins less than half
    # of the smazzate (Cirulla favours the player on lead); that is the game, not the shuffle.
    report = fairness_report(honest(), Criteria())
    assert report.verified.deals > 2_000 and report.transcribed.deals == 0
    dealer = report.verified.outcome("dealer-wins")
    assert dealer.n > 1_500 and dealer.statistic / dealer.n < 0.48
    assert dealer.p_value < 1e-3 and not dealer.flagged
    assert "depends on play, not a test of the shuffle" in dealer.verdict
    assert not report.flagged, [o.name for o in report.verified.flagged]
    assert str(report.headline()).startswith("No test flags the ")
    assert "dealer-wins" not in {o.name for o in report.verified.outcomes}


def test_honest_complete_match_stores_flag_at_the_nominal_rate() -> None:
    reports = [fairness_report(cal.honest_store(f"nominal-{k}", STORE_MATCHES), Criteria())
               for k in range(STORES)]
    assert all(r.verified.deals > 300 and r.in_progress == 0 for r in reports)
    flagged = sum(r.flagged for r in reports)
    # at most the 99.9% point of Binomial(STORES, 1%): BH keeps the family-wise rate at 1%
    assert flagged <= sp.binom.ppf(0.999, STORES, 0.01), [
        [o.name for o in r.verified.flagged] for r in reports if r.flagged]
    # the per-dealer view names a dealer (Holm over his cells) no more often
    views = [r.population(SEEDED).dealers for r in reports]
    named = sum(bool(v.flagged) for v in views if v is not None)
    assert named <= sp.binom.ppf(0.999, STORES, 0.01), [
        [(c.dealer, c.event) for c in v.flagged] for v in views if v is not None and v.flagged]
    slots = [r.verified.outcome("slots").p_value for r in reports]
    assert sp.kstest(slots, "uniform").pvalue > 0.001


def _fifteens(records: tuple[DealRecord, ...], dealer: int) -> float:
    mine = [r for r in records if r.dealer == dealer and r.game == "cirulla"]
    hits = seen = 0
    for event in catalogued_events(mine):
        if event.name.startswith("cirulla.quindici["):
            marks = [event.observe(r) for r in mine]
            hits += sum(m is True for m in marks)
            seen += sum(m is not None for m in marks)
    return hits / seen


def test_a_dealer_who_stacks_his_15_by_hand_is_the_headline() -> None:
    # 1,000 transcribed matches (hand-shuffled: no seed); seat 0's 15 twice as frequent.
    fair = fairness_report(cal.hand_shuffled(honest()), Criteria())
    assert fair.verified.deals == 0 and fair.transcribed.deals > 2_000 and not fair.flagged
    stacked = stacked_by_hand()
    cheat, other = _fifteens(stacked.records, CHEAT), _fifteens(stacked.records, 1 - CHEAT)
    assert 1.6 < cheat / other < 2.6, (cheat, other)
    report = fairness_report(stacked, Criteria())
    assert report.flagged
    flagged = [o.name for o in report.transcribed.flagged]
    assert any(name.startswith("event/cirulla.quindici") for name in flagged), flagged
    headline = str(report.headline())
    assert headline.startswith("Transcribed (hand-shuffled) deals: ")
    assert "event/cirulla.quindici" in headline and "nothing was tested" not in headline
    data = report.as_dict()
    assert data["flagged"] is True and data["transcribed"]["flagged"] == flagged
    # selected away, the transcribed deals are still tested, and do not decide
    seeded = fairness_report(stacked, Criteria(), populations=("seeded",))
    assert seeded.transcribed.flagged and not seeded.flagged
