"""The report over a selection (projections/fairness/report.py): the catalogue's events as tests,
the transcribed deals tested apart and never deciding, the figures agreeing with the tests they
illustrate, strict JSON."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from scipy import stats as sp  # type: ignore[import-untyped]

from domain.cirulla.ruleset import ruleset_from_dict
from projections.fairness import calibration as cal
from projections.fairness.deals import DealLayout, DealRecord
from projections.fairness.events import happened
from projections.fairness.exact import exact_probabilities
from projections.fairness.report import SCHEMA, fairness_report
from projections.fairness.selection import Criteria, Selection
from projections.fairness.suspected import catalogued_events
from tests.replacing import replace

START = datetime(2026, 5, 1, tzinfo=UTC)
BRISCOLA_2 = DealLayout("briscola", 2, "briscola")


def _records(decks: np.ndarray, layout: DealLayout = cal.CIRULLA_2, label: str = "m",
             ruleset: tuple[tuple[str, str], ...] = (("redeal", "due-assi"),),
             provenance: str = "simulated", seeded: bool = True) -> list[DealRecord]:
    return [DealRecord(match=f"{label}{k // 10}", smazzata=k % 10, attempt=0, layout=layout,
                       dealer=k % 2, deck=deck.tobytes(),
                       seed=f"{label}{k:030x}" if seeded else None, provenance=provenance,
                       dealt_at=START + timedelta(minutes=k), winner=k // 2 % 2,
                       ruleset=ruleset)
            for k, deck in enumerate(decks)]


def test_each_catalogue_event_counts_what_happened_on_its_deals() -> None:
    rng = np.random.default_rng(31)
    records = (_records(cal.fisher_yates(rng, 300))
               + _records(cal.fisher_yates(rng, 200), label="t", ruleset=(("redeal", "mai"),))
               + _records(cal.fisher_yates(rng, 100), BRISCOLA_2, "b", ()))
    events = {e.name: e for e in catalogued_events(records)}
    assert "cirulla.quindici[redeal=due-assi]" in events
    assert "cirulla.quindici[redeal=mai]" in events
    assert "cirulla.a-monte.tre-re" in events and "briscola.seme.denari" in events
    for reading, label in (("due-assi", "m"), ("mai", "t")):
        rules = ruleset_from_dict({"redeal": reading})
        for entry in exact_probabilities("cirulla", rules):
            name = entry.name if not entry.applies_to else f"{entry.name}[redeal={reading}]"
            event = events[name]
            assert event.expected == float(entry.probability)
            mine = [r for r in records if r.match.startswith(label)]
            seen = [happened(entry.key, r.dealt(), rules) for r in mine]
            assert [event.observe(r) for r in mine] == seen
    # a deal of another reading is not counted against this reading's probability
    other = next(r for r in records if r.match.startswith("t"))
    assert events["cirulla.quindici[redeal=due-assi]"].observe(other) is None


def test_transcribed_deals_are_a_population_with_its_own_verdict() -> None:
    rng = np.random.default_rng(32)
    fair = _records(cal.fisher_yates(rng, 400))
    one = cal.fisher_yates(rng, 1)
    stacked = _records(np.repeat(one, 60, axis=0), label="x", provenance="transcribed",
                       seeded=False)
    unknown = [replace(stacked[0], match="u0", deck=bytes([255]) + stacked[0].deck[1:])]
    selection = Selection(tuple(fair + stacked + unknown), 43, 2)
    report = fairness_report(selection, Criteria())
    assert report.verified.deals == 400 and report.transcribed.deals == 60
    assert report.incomplete == 1
    assert (report.verified.unverifiable, report.verified.unverifiable_matches) == (61, 7)
    assert "repeated-decks" in {o.name for o in report.transcribed.flagged}
    assert not report.verified.flagged and report.flagged
    # the flagged population comes first in the headline, the other's verdict after it
    headline = str(report.headline())
    assert headline.startswith("Transcribed (hand-shuffled) deals: ")
    assert "repeated-decks" in headline and "No test flags the 400 deals" in headline
    data = json.loads(json.dumps(report.as_dict(), allow_nan=False))
    assert data["schema"] == SCHEMA and data["populations"] == ["seeded", "transcribed"]
    assert data["matches"] == 43 and data["matches_in_progress_left_out"] == 2
    assert data["transcribed"]["deals"] == 60 and data["transcribed"]["incomplete"] == 1
    assert "repeated-decks" in data["transcribed"]["flagged"] and data["flagged"] is True
    assert data["transcribed"]["headline"].startswith("Transcribed (hand-shuffled) deals")
    # selecting only the seeded deals: the transcribed ones are still tested, and do not decide
    seeded = fairness_report(selection, Criteria(), populations=("seeded",))
    assert seeded.transcribed.flagged and not seeded.flagged
    assert str(seeded.headline()).startswith("No test flags the 400 deals")
    assert seeded.as_dict()["transcribed"]["selected"] is False
    with pytest.raises(ValueError, match="not hand"):
        fairness_report(selection, Criteria(), populations=("hand",))


def test_a_flag_of_the_verified_deals_is_the_headline() -> None:
    rng = np.random.default_rng(33)
    decks = cal.fisher_yates(rng, 300)
    decks[200] = decks[5]
    report = fairness_report(Selection(tuple(_records(decks)), 30, 0), Criteria())
    assert report.flagged
    assert "repeated-decks" in report.headline()
    assert report.as_dict()["verified"]["flagged"] == ["repeated-decks"]


def test_nothing_selected_is_a_report_that_tests_nothing() -> None:
    report = fairness_report(Selection((), 0, 3), Criteria(game="briscola"))
    assert report.verified.deals == 0 and not report.flagged
    assert "nothing was tested" in report.headline()
    data = json.loads(json.dumps(report.as_dict(), allow_nan=False))
    assert data["criteria"]["game"] == "briscola"
    assert all(t["adjusted_p_value"] is None for t in data["verified"]["tests"] if t["n"] == 0)


def test_the_figures_are_the_numbers_of_their_tests() -> None:
    rng = np.random.default_rng(34)
    records = _records(cal.fisher_yates(rng, 2_000, (39, 0, 0.05)))
    report = fairness_report(Selection(tuple(records), 200, 0), Criteria())
    figures, battery = report.figures, report.verified
    slots = next(h for h in figures.heatmaps if h.test == "slots")
    z = np.array(slots.z)
    assert z.shape == (40, 40)
    assert (z ** 2).sum() * 39 / 40 == pytest.approx(battery.outcome("slots").statistic,
                                                     rel=1e-3)
    seats = next(h for h in figures.heatmaps if h.test.startswith("seats/"))
    assert set(seats.columns) == {"seat 0", "seat 1", "table"}
    scan = next(b for b in figures.bars if b.test == "slot-scan")
    assert max(scan.values) == pytest.approx(battery.outcome("slot-scan").statistic, rel=1e-3)
    assert scan.values.index(max(scan.values)) == 39   # the forced step is slot 40's
    assert scan.limit == pytest.approx(sp.chi2.isf(0.01 / 40, 39))
    assert battery.outcome("slot-scan").flagged and max(scan.values) > scan.limit
    for row in figures.events:
        outcome = battery.outcome(row.test)
        inside = row.low <= row.observed <= row.high
        # the band is the two-sided 1 - alpha acceptance region of the exact test's count
        assert inside or outcome.p_value <= 0.011
    assert [w.test for w in figures.wins] == ["dealer-wins", "side-wins"]
    assert figures.runs[0].observed == battery.outcome("runs").statistic


def test_a_dealer_who_redeals_tables_without_his_accuso_is_caught_by_the_catalogue() -> None:
    # Seat 1, when dealing, shuffles again unseen in 40% of the deals whose four table cards do
    # not add up to 15 or 30 at face value: his 15s and 30s come too often. The report over the
    # store's path (catalogue events per C1 reading) must flag it and name the event.
    rng = np.random.default_rng(35)
    n = 20_000
    decks = cal.fisher_yates(rng, n)
    table = _table_positions()
    for k in range(1, n, 2):
        total = int((decks[k, table] % 10 + 1).sum())
        if total not in (15, 30) and rng.random() < 0.4:
            decks[k] = cal.fisher_yates(rng, 1)[0]
    report = fairness_report(Selection(tuple(_records(decks)), n // 10, 0), Criteria())
    flagged = {o.name for o in report.verified.flagged}
    # Face value leaves the matta at 7: his rule is the "without the matta" events'.
    assert flagged, "the cheat must be caught"
    assert all(name.startswith(("event/cirulla.quindici", "event/cirulla.trenta"))
               for name in flagged), flagged
    assert "event/cirulla.quindici-senza-matta[redeal=due-assi]" in flagged
    assert report.flagged and "event/cirulla." in report.headline()


def _table_positions() -> list[int]:
    return [p for p, (where, _, _) in enumerate(cal.CIRULLA_2.locations(1)) if where == "table"]
