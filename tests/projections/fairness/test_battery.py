"""The battery over deals with a known answer: quiet on fair deals, loud on each cheat, with the
test that caught it named. The full-size calibration (100,000 deals x 200 audits) is
bench/fairness_calibration.py; here the sizes scale with the hypothesis profile."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import settings
from scipy import stats as sp  # type: ignore[import-untyped]

from projections.fairness import calibration as cal
from projections.fairness.battery import BatteryReport, SuspectedEvent, run_battery, run_on_columns
from projections.fairness.columns import DealColumns
from projections.fairness.deals import DealRecord
from tests.replacing import replace

AUDITS = max(30, settings().max_examples // 2)   # dev 30, ci 75, deep 1000
DEALS = 2_000


@pytest.fixture(scope="module")
def fair_reports() -> list[BatteryReport]:
    return [cal.audit(cal.calibration_columns(*_fair(a))) for a in range(AUDITS)]


def _fair(audit: int) -> tuple[np.ndarray, None, list[str], str]:
    decks, seeds = cal.fair_decks(f"test-{audit}", DEALS)
    return decks, None, seeds, f"t{audit}"


def test_fair_deals_are_flagged_at_most_at_the_nominal_rate(
        fair_reports: list[BatteryReport]) -> None:
    flagged = sum(bool(r.flagged) for r in fair_reports)
    # at most the 99.9% point of Binomial(AUDITS, 1%): BH keeps the family-wise rate at 1%
    assert flagged <= sp.binom.ppf(0.999, AUDITS, 0.01)


@pytest.mark.parametrize("name", ["slots", "seats/cirulla/2/uno-alla-volta",
                                  "roles/cirulla/2/uno-alla-volta", "runs"])
def test_continuous_p_values_on_fair_deals_are_uniform(
        fair_reports: list[BatteryReport], name: str) -> None:
    p_values = [r.outcome(name).p_value for r in fair_reports]
    assert sp.kstest(p_values, "uniform").pvalue > 1e-3


def test_the_fair_deals_are_the_project_shuffle(fair_reports: list[BatteryReport]) -> None:
    report = fair_reports[0]
    assert report.deals == DEALS and report.outcome("repeated-seeds").n == DEALS
    assert report.outcome("event/di-mano-quindici").n == DEALS


def _flagged_by(columns: DealColumns) -> set[str]:
    return {o.name for o in cal.audit(columns).flagged}


def test_a_step_that_swaps_with_one_slot_too_often_is_caught_by_the_slot_scan() -> None:
    rng = np.random.default_rng(11)
    caught = _flagged_by(cal.calibration_columns(cal.fisher_yates(rng, 60_000, (39, 0, 0.01))))
    assert "slot-scan" in caught
    report = cal.audit(cal.calibration_columns(cal.fisher_yates(rng, 60_000, (39, 0, 0.01))))
    assert "slot 40" in report.outcome("slot-scan").verdict
    assert "Ad is the card" in report.outcome("slot-scan").verdict


def test_a_stacked_pair_is_caught_by_the_adjacent_test_only() -> None:
    rng = np.random.default_rng(12)
    decks = cal.sticky_pair(cal.fisher_yates(rng, 60_000), rng, 7, 0.01)
    report = cal.audit(cal.calibration_columns(decks))
    assert {o.name for o in report.flagged} == {"adjacent"}
    assert "slots 8 and 9" in report.outcome("adjacent").verdict
    assert report.outcome("slots").p_value > 0.01


def test_a_swap_after_a_fair_shuffle_changes_nothing_and_is_not_flagged() -> None:
    rng = np.random.default_rng(13)
    decks = cal.swapped_after(cal.fisher_yates(rng, 60_000), rng, 5, 30, 0.01)
    assert _flagged_by(cal.calibration_columns(decks)) == set()


def test_a_dealer_who_redeals_a_table_he_dislikes_is_caught_by_the_event() -> None:
    rng = np.random.default_rng(14)
    decks, dealers = cal.redealing_dealer(rng, 5_000, cheat=1)
    report = cal.audit(cal.calibration_columns(decks, dealers))
    assert "event/di-mano-quindici" in {o.name for o in report.flagged}
    event = report.outcome("event/di-mano-quindici")
    assert event.statistic < event.n * cal.OPPONENT_FIFTEEN.expected


def test_the_calibration_event_probability_by_cards() -> None:
    # Independently of the rank patterns: every 4-card table, and the 3-card hands beside it
    # holding a card of the one rank that sweeps it.
    from itertools import combinations
    from math import comb
    hits = 0
    for table in combinations(range(40), 4):
        need = 15 - sum(c % 10 + 1 for c in table)
        if 1 <= need <= 10:
            left = 4 - sum(c % 10 + 1 == need for c in table)
            hits += comb(36, 3) - comb(36 - left, 3)
    assert cal.opponent_fifteen_probability() == pytest.approx(
        hits / (comb(40, 4) * comb(36, 3)), abs=0)


def test_the_calibration_event_reads_the_dealt_hands_and_table() -> None:
    decks = cal.fisher_yates(np.random.default_rng(15), 300)
    columns = cal.calibration_columns(decks)
    seen = cal.OPPONENT_FIFTEEN.observe_columns(columns) if \
        cal.OPPONENT_FIFTEEN.observe_columns else None
    for k, deck in enumerate(decks):
        dealer = k % 2
        dealt = DealRecord("m", k, 0, cal.CIRULLA_2, dealer, deck.tobytes()).dealt()
        first = 1 - dealer
        sweep = any(c.rank + sum(t.rank for t in dealt.table) == 15 for c in dealt.hands[first])
        assert seen is not None and bool(seen[k]) == sweep
        assert cal.OPPONENT_FIFTEEN.observe(
            DealRecord("m", k, 0, cal.CIRULLA_2, dealer, deck.tobytes())) == sweep


# ---- over records -----------------------------------------------------------------------------

START = datetime(2026, 5, 1, tzinfo=UTC)


def _records(decks: np.ndarray, winners: list[int | None]) -> list[DealRecord]:
    seeds = [f"{k:032x}" for k in range(len(decks))]
    return [DealRecord(match=f"m{k // 10}", smazzata=k % 10, attempt=0, layout=cal.CIRULLA_2,
                       dealer=k % 2, deck=deck.tobytes(), table=None, seed=seeds[k],
                       provenance="simulated", dealt_at=START + timedelta(minutes=k),
                       winner=winners[k])
            for k, deck in enumerate(decks)]


def test_a_repeated_deck_and_a_repeated_seed_are_flagged_with_their_matches() -> None:
    decks = cal.fisher_yates(np.random.default_rng(16), 400)
    decks[333] = decks[17]
    records = _records(decks, [None] * 400)
    records[250] = replace(records[250], seed=records[42].seed)
    report = run_battery(records)
    assert {o.name for o in report.flagged} == {"repeated-decks", "repeated-seeds"}
    assert "m1, m33" in report.outcome("repeated-decks").verdict
    assert "m25, m4" in report.outcome("repeated-seeds").verdict


def test_the_win_shares_are_described_and_never_flag() -> None:
    # They depend on play (Cirulla favours the player on lead), not on the shuffle: a dealer
    # who always wins is reported as such, beside the battery, and flags nothing.
    decks = cal.fisher_yates(np.random.default_rng(17), 300)
    report = run_battery(_records(decks, [k % 2 for k in range(300)]))
    assert not report.flagged
    assert [o.name for o in report.descriptive] == ["dealer-wins", "side-wins"]
    assert not {"dealer-wins", "side-wins"} & {o.name for o in report.outcomes}
    dealer = report.outcome("dealer-wins")
    assert dealer.n == 300 and dealer.statistic == 300 and dealer.p_value < 1e-80
    assert not dealer.flagged and dealer.adjusted != dealer.adjusted   # NaN: not adjusted
    assert "depends on play, not a test of the shuffle" in dealer.verdict
    assert report.outcome("side-wins").p_value > 0.5
    assert [d["name"] for d in report.as_dict()["descriptive"]] == ["dealer-wins", "side-wins"]


def test_transcribed_deals_are_counted_apart_and_the_report_is_json() -> None:
    decks = cal.fisher_yates(np.random.default_rng(18), 200)
    records = _records(decks, [None] * 200)
    apart = [replace(r, seed=None, provenance="transcribed", match=f"t{k % 3}")
             for k, r in enumerate(records[:30])]
    report = run_battery(records[30:] + apart)
    assert (report.deals, report.unverifiable, report.unverifiable_matches) == (170, 30, 3)
    data = json.loads(json.dumps(report.as_dict()))
    assert data["unverifiable"]["deals"] == 30
    assert {t["name"] for t in data["tests"]} >= {"slots", "adjacent", "runs", "repeated-decks"}
    assert all(isinstance(t["verdict"], str) and t["verdict"] for t in data["tests"])


def test_per_record_events_count_only_the_deals_they_apply_to() -> None:
    decks = cal.fisher_yates(np.random.default_rng(19), 100)
    top_is_ace = SuspectedEvent("top-ace", 0.1,
                                lambda r: None if r.dealer == 0 else r.deck[0] % 10 == 0)
    report = run_battery(_records(decks, [None] * 100), [top_is_ace])
    event = report.outcome("event/top-ace")
    assert event.n == 50
    assert event.statistic == sum(1 for k in range(1, 100, 2) if decks[k, 0] % 10 == 0)
    with pytest.raises(ValueError):
        run_on_columns(cal.calibration_columns(decks), [top_is_ace])


def test_every_test_has_a_name_a_method_and_a_verdict(fair_reports: list[BatteryReport]
                                                      ) -> None:
    names = Counter(o.name for o in fair_reports[0].outcomes)
    assert all(count == 1 for count in names.values())
    for outcome in fair_reports[0].outcomes:
        assert outcome.method and outcome.verdict.startswith(str(outcome.title))
