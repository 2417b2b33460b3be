"""The public's fairness report (projections/fairness/privacy.py): below the minimum population
nothing depends on the cards; a test over too few deals is withheld with its figure and the
battery decided again over what is shown; the owner's report is whole; the setting."""

from __future__ import annotations

import json
from dataclasses import fields
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from projections.fairness import calibration as cal
from projections.fairness import privacy
from projections.fairness.deals import DealLayout, DealRecord
from projections.fairness.report import FairnessReport, Population, fairness_report
from projections.fairness.selection import Criteria, Selection
from projections.fairness.stats import benjamini_hochberg

START = datetime(2026, 5, 1, tzinfo=UTC)
BRISCOLA_2 = DealLayout("briscola", 2, "briscola")


def _records(decks: np.ndarray, layout: DealLayout = cal.CIRULLA_2, label: str = "m",
             ruleset: tuple[tuple[str, str], ...] = (("redeal", "due-assi"),),
             provenance: str = "simulated") -> list[DealRecord]:
    return [DealRecord(match=f"{label}{k // 10}", smazzata=k % 10, attempt=0, layout=layout,
                       dealer=k % 2, deck=deck.tobytes(), seed=f"{label}{k:030x}",
                       provenance=provenance, dealt_at=START + timedelta(minutes=k),
                       winner=k // 2 % 2, ruleset=ruleset)
            for k, deck in enumerate(decks)]


def _report(records: list[DealRecord]) -> FairnessReport:
    matches = len({r.match for r in records})
    return fairness_report(Selection(tuple(records), matches, 0), Criteria())


def _public_json(records: list[DealRecord], minimum: int) -> str:
    return json.dumps(privacy.public_report(_report(records), minimum).as_dict(),
                      sort_keys=True)


@settings(max_examples=max(5, settings().max_examples // 6))
@given(deals=st.integers(1, 12), minimum=st.integers(2, 40), seeds=st.tuples(
    st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1)),
    briscola=st.booleans())
def test_below_the_minimum_nothing_shown_depends_on_the_cards(
        deals: int, minimum: int, seeds: tuple[int, int], briscola: bool) -> None:
    """Two selections that differ only in their cards (hands, table, stock: every position)
    give the public the same answer, byte for byte, when they have fewer deals than the
    minimum: nothing per card or per position is in it."""
    deals = min(deals, minimum - 1)
    layout = BRISCOLA_2 if briscola else cal.CIRULLA_2
    ruleset = () if briscola else (("redeal", "due-assi"),)
    one, other = (_records(cal.fisher_yates(np.random.default_rng(s), deals), layout,
                           ruleset=ruleset) for s in seeds)
    shown = privacy.public_report(_report(one), minimum)
    assert shown.whole("seeded") and shown.gated
    assert shown.report.verified.outcomes == () and shown.report.figures == privacy.NO_FIGURES
    assert _public_json(one, minimum) == _public_json(other, minimum)
    dealers = shown.report.population("seeded").dealers
    assert dealers is not None and dealers.cells == () and dealers.dealers == ()
    assert f"fewer than the minimum of {minimum}" in str(shown.headline())
    # the owner sees the whole report, which does depend on the cards
    assert privacy.whole_report(_report(one), minimum).report.verified.outcomes


def test_a_test_over_too_few_deals_is_withheld_and_the_battery_decided_again() -> None:
    rng = np.random.default_rng(5)
    records = (_records(cal.fisher_yates(rng, 60))
               + _records(cal.fisher_yates(rng, 3), BRISCOLA_2, "b", ()))
    whole = _report(records)
    assert whole.verified.outcome("seats/briscola/2/briscola").n == 3
    shown = privacy.public_report(whole, 40)
    battery = shown.report.verified
    names = {o.name for o in battery.outcomes if o.n > 0}
    assert "slots" in names and "seats/cirulla/2/uno-alla-volta" in names
    assert not any(n.startswith(("seats/briscola", "roles/briscola", "event/briscola"))
                   for n in names)
    assert dict(shown.tests_withheld("seeded"))["seats/briscola/2/briscola"] == 3
    assert all(o.n >= 40 for o in battery.outcomes if o.n > 0)
    assert all(o.n == 0 or o.n >= 40 for o in battery.descriptive)
    figures = shown.report.figures
    drawn = {f.test for group in (figures.heatmaps, figures.bars, figures.events,
                                  figures.wins, figures.runs) for f in group}
    described = {o.name for o in battery.descriptive if o.n > 0}
    assert drawn and drawn <= names | described
    ran = [o for o in battery.outcomes if o.n > 0]
    expected = benjamini_hochberg([o.p_value for o in ran])
    assert [o.adjusted for o in ran] == pytest.approx(list(expected))
    data = shown.as_dict()
    assert data["privacy"]["gated"] is True and data["privacy"]["minimum_deals"] == 40
    assert "seats/briscola/2/briscola" not in json.dumps(data["verified"])
    # over the minimum, the same report is shown whole
    assert privacy.public_report(whole, 3).withheld == ()


def test_the_gate_knows_every_field_of_the_report() -> None:
    """A field added to the report (a per-dealer view, a new figure) must be gated before the
    public sees it: the gate refuses a report it does not know."""
    assert {f.name for f in fields(FairnessReport)} == privacy.KNOWN_FIELDS
    assert {f.name for f in fields(Population)} == privacy.POPULATION_FIELDS


def test_the_minimum_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(privacy.SETTING, raising=False)
    assert privacy.min_deals() == privacy.MIN_DEALS == 40
    monkeypatch.setenv(privacy.SETTING, "100")
    assert privacy.min_deals() == 100
    assert privacy.min_deals("7") == 7
    for bad in ("0", "-3", "forty", "2.5"):
        with pytest.raises(privacy.PrivacyError, match=privacy.SETTING):
            privacy.min_deals(bad)


def test_a_withheld_population_says_so_in_the_headlines_and_never_looks_fair() -> None:
    """Seeded deals enough, transcribed ones too few: the headline gives the seeded verdict and
    says the transcribed deals are too few (before: "the hand shuffles look fair" over 0
    tests), in the whole headline and in the population's own JSON headline."""
    rng = np.random.default_rng(9)
    hand = [DealRecord(match="t0", smazzata=k, attempt=0, layout=cal.CIRULLA_2, dealer=k % 2,
                       deck=deck.tobytes(), provenance="transcribed",
                       dealt_at=START + timedelta(hours=k), ruleset=(("redeal", "due-assi"),))
            for k, deck in enumerate(cal.fisher_yates(rng, 3))]
    shown = privacy.public_report(_report(_records(cal.fisher_yates(rng, 60)) + hand), 40)
    assert shown.whole("transcribed") and not shown.whole("seeded")
    headline = str(shown.headline())
    assert headline.startswith("No test flags the 60 deals")
    assert ("Transcribed (hand-shuffled) deals: Too few deals for a public figure: 3 selected"
            in headline) and "look fair" not in headline.split("Transcribed", 1)[1]
    data = shown.as_dict()
    assert data["headline"] == headline
    assert data["transcribed"]["headline"].startswith("Too few deals for a public figure: 3")
    assert data["verified"]["headline"].startswith("No test flags the 60 deals")
