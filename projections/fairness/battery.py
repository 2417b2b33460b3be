"""The fairness battery: every test over a selection of deals, one frozen report.

Which tests, and why each (docs/fairness.md, section "The battery"):
- card by deal slot: the corrected chi-square over the 40 × 40 table (stats.py), the omnibus;
- card at each slot: one 39-df goodness of fit per slot, the smallest p-value Bonferroni'd: a
  bias at one slot (a Fisher-Yates step that swaps with one position more often than chance)
  stands out here with a tenth of the deals the omnibus needs;
- adjacent slots: per pair of consecutive slots, how far the second card lies after the first
  in deck order; a fair shuffle makes that uniform, a stacked pair or a deck left partly in
  order (a cut, a weak riffle) does not. The slot tests cannot see it: a swap that puts a
  card's deck neighbour after it leaves every slot's card uniform;
- card by seat and card by role (relative to the dealer), per layout: who receives what;
- the suspected events (given with their exact probabilities): exact binomial tests;
- a runs test over the deals of each table in order (stats.first_slots_above);
- repeated seeds and repeated decks: any repetition is flagged (its chance is below 1e-30).
Benjamini-Hochberg over all the p-values; a test flags when its adjusted p-value is at most
alpha (0.01). Deals whose shuffle cannot be checked (transcribed, unseeded, unknown cards) are
counted apart and tested by nothing.

Beside the tests, descriptive figures that depend on play and so are no test of the shuffle:
the smazzate won by the dealer's side and by side 0. Cirulla favours the player on lead, and
skill moves both, so "half" is not what a fair shuffle gives (issue 23: 1,000 honest matches,
the dealer's side won 44.3%). They are reported with their share and never flag, never enter
Benjamini-Hochberg.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from domain.cards import DECK
from domain.text import Said, say
from projections.fairness import stats
from projections.fairness.choices import ALPHA
from projections.fairness.columns import UNKNOWN, DealColumns, columns_of
from projections.fairness.deals import BRISCOLA, RECEIVERS, STOCK, TABLE, DealRecord

SEED_OUTCOMES = 2.0 ** 128
DECK_OUTCOMES = float(np.prod(np.arange(1, 41, dtype=np.float64)))


@dataclass(frozen=True, slots=True)
class SuspectedEvent:
    """An event players suspect, with its exact probability on one deal. `observe` says
    whether it happened on a deal (None: the deal is not one it is counted on);
    `observe_columns`, if given, says the same for all deals at once (1, 0, or -1 for None)."""

    name: str
    expected: float
    observe: Callable[[DealRecord], bool | None]
    observe_columns: Callable[[DealColumns], NDArray[np.int8]] | None = None
    title: Said | None = None
    """The event in words (default: its name)."""
    observe_records: Callable[[Sequence[DealRecord]], NDArray[np.int8]] | None = None
    """`observe` for many records at once (1, 0, or -1 for None, one per record)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """One test of the battery: `name` its key, `title` and `method` in words, `n` the deals
    (or smazzate) it counted, its statistic and p-value, the BH-adjusted p-value, whether it
    flags, and the verdict sentence."""

    name: str
    title: Said
    method: Said
    n: int
    statistic: float
    df: float | None
    p_value: float
    detail: Said
    adjusted: float = float("nan")
    flagged: bool = False
    verdict: Said = field(default_factory=lambda: say("not decided yet"))

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": str(self.title), "method": str(self.method),
                "n": self.n, "statistic": self.statistic, "df": self.df,
                "p_value": self.p_value, "adjusted_p_value": self.adjusted,
                "flagged": self.flagged, "verdict": str(self.verdict)}


@dataclass(frozen=True, slots=True)
class BatteryReport:
    """The battery's result: deals tested, deals counted apart, one outcome per test, and the
    descriptive figures that depend on play (`descriptive`: the win shares; their adjusted
    p-value is NaN, they never flag and never enter Benjamini-Hochberg)."""

    alpha: float
    deals: int
    unverifiable: int
    unverifiable_matches: int
    outcomes: tuple[Outcome, ...]
    descriptive: tuple[Outcome, ...] = ()

    @property
    def flagged(self) -> tuple[Outcome, ...]:
        return tuple(o for o in self.outcomes if o.flagged)

    def outcome(self, name: str) -> Outcome:
        """A test or a descriptive figure by name."""
        return next(o for o in (*self.outcomes, *self.descriptive) if o.name == name)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (floats, ints, strings, lists; NaN left to the JSON writer)."""
        return {"alpha": self.alpha, "deals": self.deals,
                "unverifiable": {"deals": self.unverifiable,
                                 "matches": self.unverifiable_matches,
                                 "note": str(UNVERIFIABLE_NOTE)},
                "flagged": [o.name for o in self.flagged],
                "tests": [o.as_dict() for o in self.outcomes],
                "descriptive": [o.as_dict() for o in self.descriptive]}


UNVERIFIABLE_NOTE = say("transcribed or unseeded deals are counted, not tested: their shuffle "
                        "cannot be checked")


def run_battery(records: Sequence[DealRecord], events: Sequence[SuspectedEvent] = (),
                alpha: float = ALPHA, dealer_share: float = 0.5) -> BatteryReport:
    """Every test over the deals of `records`; the unverifiable ones are only counted."""
    tested = [r for r in records if not r.transcribed and r.complete]
    apart = [r for r in records if r.transcribed or not r.complete]
    return run_on_columns(columns_of(tested), events, tested, alpha, dealer_share,
                          (len(apart), len({r.match for r in apart})))


def run_on_columns(columns: DealColumns, events: Sequence[SuspectedEvent] = (),
                   records: Sequence[DealRecord] | None = None, alpha: float = ALPHA,
                   dealer_share: float = 0.5, apart: tuple[int, int] = (0, 0)) -> BatteryReport:
    """The battery over deals already in columns (`records`, if given, the same deals in any
    order, for the events that observe one record at a time)."""
    outcomes: list[Outcome] = []
    if columns.n:
        outcomes += _slot_tests(columns)
        outcomes += _receiver_tests(columns)
    outcomes += [_event_test(e, columns, records) for e in events]
    if columns.n:
        outcomes.append(_runs(columns))
    outcomes += _repetitions(columns)
    return BatteryReport(alpha, columns.n, apart[0], apart[1], decide_outcomes(outcomes, alpha),
                         tuple(_described(o) for o in _win_figures(columns, dealer_share)))


PLAY_NOTE = say("depends on play, not a test of the shuffle")
"""What every descriptive figure says of itself (the win shares)."""


def _described(o: Outcome) -> Outcome:
    if o.n == 0:
        return replace(o, verdict=say("{title}: no smazzata with a winner.", title=o.title))
    return replace(o, verdict=say("{title} ({note}): {detail}", title=o.title,
                                  note=PLAY_NOTE, detail=o.detail))


def decide_outcomes(outcomes: list[Outcome], alpha: float) -> tuple[Outcome, ...]:
    """The outcomes with their Benjamini-Hochberg adjusted p-values over those that ran, each
    flagged when its adjusted p-value is at most `alpha`, and each one's verdict."""
    ran = [o for o in outcomes if o.n > 0]
    adjusted = stats.benjamini_hochberg([o.p_value for o in ran])
    decided = {id(o): (float(q), bool(q <= alpha)) for o, q in zip(ran, adjusted, strict=True)}
    out = []
    for o in outcomes:
        q, flagged = decided.get(id(o), (float("nan"), False))
        out.append(replace(o, adjusted=q, flagged=flagged, verdict=_verdict(o, q, flagged)))
    return tuple(out)


def _verdict(o: Outcome, adjusted: float, flagged: bool) -> Said:
    if o.n == 0:
        return say("{title}: not run, no deal to count.", title=o.title)
    if flagged:
        return say("{title}: flagged. Over {n} deals p = {p} (adjusted for the whole battery "
                   "{q}): a fair shuffle would rarely give this. {detail}", title=o.title,
                   n=o.n, p=p_text(o.p_value), q=p_text(adjusted), detail=o.detail)
    return say("{title}: consistent with a fair shuffle. Over {n} deals p = {p} (adjusted "
               "{q}). {detail}", title=o.title, n=o.n, p=p_text(o.p_value), q=p_text(adjusted),
               detail=o.detail)


def p_text(value: float) -> str:
    """A p-value for people: 3 significant digits, or 1.2e-07 below 1e-4."""
    return f"{value:.3g}" if value >= 1e-4 or value == 0 else f"{value:.1e}"


# ---- the shuffle's layout -----------------------------------------------------------------------

def _slot_tests(columns: DealColumns) -> list[Outcome]:
    counts = stats.slot_counts(columns.decks)
    omnibus = stats.fixed_margin_chi2(counts)
    card, slot = omnibus.worst
    scan = stats.uniform_scan(counts)
    gaps = stats.adjacent_counts(columns.decks)
    pair = stats.uniform_scan(gaps)
    return [
        Outcome("slots", say("card by deal slot"),
                    say("chi-square, 40 cards × 40 slots, corrected for fixed margins "
                        "(×39/40), 1521 degrees of freedom"),
                    columns.n, omnibus.statistic, omnibus.df, omnibus.p_value,
                    say("The cell farthest from fair: {card} at slot {slot}, {z} standard "
                        "deviations.", card=DECK[card].code, slot=slot + 1,
                        z=format(omnibus.worst_z, "+.1f"))),
        Outcome("slot-scan", say("card at each deal slot"),
                    say("chi-square per slot, 39 degrees of freedom, smallest p-value × 40 "
                        "(Bonferroni)"),
                    columns.n, scan.statistic, scan.df, scan.p_value,
                    say("The least fair slot is slot {slot}: {card} is the card farthest from "
                        "its share there.", slot=scan.where + 1, card=DECK[scan.worst].code)),
        Outcome("adjacent", say("adjacent deal slots"),
                    say("chi-square per pair of consecutive slots on the deck-order distance "
                        "from one card to the next, 38 degrees of freedom, smallest p-value "
                        "× 39 (Bonferroni)"),
                    columns.n, pair.statistic, pair.df, pair.p_value,
                    say("The least fair pair: slots {first} and {second}, most off at a "
                        "distance of {gap} places in deck order.", first=pair.where + 1,
                        second=pair.where + 2, gap=pair.worst + 1)),
    ]


def receiver_name(category: int, by_role: bool, seats: int) -> Said:
    """A receiver's label: a seat counted from 0 as stored ("seat 0"), "dealer" and "served
    1..", or the table, the briscola card, the stock (a message: translated where shown)."""
    if category == TABLE:
        return say("table")
    if category == BRISCOLA:
        return say("briscola card")
    if category == STOCK:
        return say("stock")
    if by_role:
        return say("dealer") if category == seats - 1 else say("served {n}", n=category + 1)
    return say("seat {n}", n=category)


def _receiver_tests(columns: DealColumns) -> list[Outcome]:
    out = []
    for group, layout in enumerate(columns.layouts):
        mine = np.flatnonzero(columns.groups == group)
        decks, rows = columns.decks[mine], columns.rows[mine]
        label = f"{layout.game}, {layout.seats} seats, {layout.order}"
        for by_role, lut in ((False, columns.receivers), (True, columns.roles)):
            counts = stats.category_counts(decks, lut, rows, RECEIVERS)
            test = stats.fixed_margin_chi2(counts)
            used = np.flatnonzero(counts.sum(axis=0) > 0)
            card, where = test.worst
            title = (say("card by role ({layout})", layout=label) if by_role
                     else say("card by seat ({layout})", layout=label))
            out.append(Outcome(
                f"{'roles' if by_role else 'seats'}/{layout.game}/{layout.seats}/{layout.order}",
                title, say("chi-square, 40 cards × {k} receivers, corrected for fixed margins "
                           "(×39/40), {df} degrees of freedom", k=len(used), df=test.df),
                len(mine), test.statistic, test.df, test.p_value,
                say("The cell farthest from fair: {card} to {receiver}, {z} standard "
                    "deviations.", card=DECK[card].code,
                    receiver=receiver_name(int(used[where]), by_role, layout.seats),
                    z=format(test.worst_z, "+.1f"))))
    return out


# ---- events, wins, runs, repetitions -----------------------------------------------------------

def _event_test(event: SuspectedEvent, columns: DealColumns,
                records: Sequence[DealRecord] | None) -> Outcome:
    if event.observe_columns is not None:
        seen = event.observe_columns(columns)
        hits, n = int((seen == 1).sum()), int((seen >= 0).sum())
    elif records is not None and event.observe_records is not None:
        seen = event.observe_records(records)
        hits, n = int((seen == 1).sum()), int((seen >= 0).sum())
    elif records is not None:
        marks = [event.observe(r) for r in records]
        hits, n = sum(m is True for m in marks), sum(m is not None for m in marks)
    else:
        raise ValueError(say("event {name} observes one record at a time: give the records",
                             name=event.name))
    test = stats.binomial(hits, n, float(event.expected))
    return Outcome(
        f"event/{event.name}",
        event.title if event.title is not None else say("event: {name}", name=event.name),
        say("exact binomial test against the exact probability {expected}",
            expected=format(float(event.expected), ".6g")),
        n, float(hits), None, test.p_value,
        say("Seen {hits} times in {n} deals ({observed}), expected {expected} "
            "({count}).", hits=hits, n=n, observed=format(test.observed, ".4%"),
            expected=format(float(event.expected), ".4%"),
            count=format(n * float(event.expected), ".1f")))


def _win_figures(columns: DealColumns, dealer_share: float) -> list[Outcome]:
    known = columns.winners != UNKNOWN
    n = int(known.sum())
    dealer = stats.binomial(int((columns.dealers_sides_won == 1).sum()), n, dealer_share)
    side = stats.binomial(int((columns.winners == 0).sum()), n, 0.5)
    return [
        Outcome("dealer-wins", say("the dealer's side's smazzate"),
                    say("exact binomial test against a share of {share}",
                        share=format(dealer_share, ".3g")),
                    n, float(dealer.hits), None, dealer.p_value,
                    say("The dealer's side won {won} of {n} smazzate ({rate}); p = {p} "
                        "against half, which the game itself need not give.",
                        won=dealer.hits, n=n, rate=format(dealer.observed, ".2%"),
                        p=p_text(dealer.p_value))),
        Outcome("side-wins", say("side 0's smazzate"),
                    say("exact binomial test against equal shares"),
                    n, float(side.hits), None, side.p_value,
                    say("Side 0 won {won} of {n} smazzate ({rate}); p = {p} against half: "
                        "skill and the seat move this one.", won=side.hits, n=n,
                        rate=format(side.observed, ".2%"), p=p_text(side.p_value))),
    ]


def _runs(columns: DealColumns) -> Outcome:
    usable, above = stats.first_slots_above(columns.decks)
    runs = stats.runs_test(columns.tables[usable], above[usable])
    return Outcome(
        "runs", say("runs across consecutive deals of a table"),
        say("Wald-Wolfowitz runs test on whether the first 10 cards dealt sum above their "
            "centre in deck order, pooled over {tables} tables, normal approximation",
            tables=runs.sequences),
        runs.n, runs.z, None, runs.p_value,
        say("{runs} runs where {expected} were expected (z = {z}).", runs=runs.runs,
            expected=format(runs.expected, ".1f"), z=format(runs.z, "+.2f")))


def _repetitions(columns: DealColumns) -> list[Outcome]:
    owners = columns.owners()
    seeds = stats.repeated_keys(columns.seeds, owners)
    known = sum(s is not None for s in columns.seeds)
    decks = stats.repeated_rows(columns.decks)
    seed_names = sorted({columns.match_names[o >> 32] for holders in seeds.values()
                         for o in holders})
    deck_names = sorted({columns.match_names[int(columns.matches[i])] for group in decks
                         for i in group})
    return [
        Outcome("repeated-seeds", say("repeated seeds"),
                    say("every revealed seed compared with every other; a repetition has "
                        "p below the birthday bound over 128-bit seeds"),
                    known, float(len(seeds)), None,
                    stats.chance_of_repeat(known, SEED_OUTCOMES) if seeds else 1.0,
                    say("{count} seeds used by more than one smazzata, in matches {matches}.",
                        count=len(seeds), matches=", ".join(seed_names[:10]) or "-")),
        Outcome("repeated-decks", say("repeated decks"),
                    say("every deck compared with every other; a repetition has p below the "
                        "birthday bound over 40! orders"),
                    columns.n, float(len(decks)), None,
                    stats.chance_of_repeat(columns.n, DECK_OUTCOMES) if decks else 1.0,
                    say("{count} decks dealt more than once, in matches {matches}.",
                        count=len(decks), matches=", ".join(deck_names[:10]) or "-")),
    ]


__all__ = [
    "ALPHA",
    "PLAY_NOTE",
    "BatteryReport",
    "Outcome",
    "SuspectedEvent",
    "run_battery",
    "run_on_columns",
]
