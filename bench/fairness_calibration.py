"""Calibration of the fairness battery (projections/fairness/battery.py): false flags on fair
deals, and the deals each biased shuffler needs before the battery flags it.

Run: .venv/bin/python -m bench.fairness_calibration [--audits 200] [--deals 100000]
         [--source project|numpy] [--seed 13]
     .venv/bin/python -m bench.fairness_calibration --stores 200 --matches 1000 [--seed 13]
         [--first 0] [--jsonl FILE]
     .venv/bin/python -m bench.fairness_calibration --summarize FILE [FILE ...]
     .venv/bin/python -m bench.fairness_calibration --detect [--ladder 1000,2000,...]
         [--repeats 20] [--scenario NAME ...]

1. Null: `--audits` audits of `--deals` fair deals each (2-seat Cirulla, dealers taking turns,
   tables of 20 deals), from the project's shuffle (domain.shuffle, seeds from a counter: about
   16 µs a deal) or from numpy's Fisher-Yates (`--source numpy`, for many audits quickly). The
   battery flags an audit when any test's Benjamini-Hochberg adjusted p-value is at most 0.01;
   printed: the flag rate with its Clopper-Pearson 95% interval and the binomial test of the
   count against 1%, each test's own rate of raw p <= 0.01, the Kolmogorov-Smirnov test of the
   continuous tests' p-values against uniform, and the rate the card-by-slot chi-square would
   have without the fixed-margin correction.
2. Complete matches (`--stores N --matches M`): N honest stores of M complete bot-played
   matches each (projections/fairness/calibration.honest_store: the matches `verbale simulate
   matches` records, read back as `select_deals` reads a store), each through the report's own
   path (`fairness_report`). Printed as for the null above, per store, plus the descriptive win
   shares (they depend on play and flag nothing). `--jsonl FILE` appends each store's row as
   it ends, `--first K` numbers the stores from K (to go on where a run stopped), and
   `--summarize FILE...` prints the summary of the rows written.
3. Detection (`--detect`): per biased shuffler (projections/fairness/calibration.py) and per
   number of deals of the ladder, `--repeats` audits: how many flagged, and which tests did.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import numpy as np
from scipy import stats  # type: ignore[import-untyped]

from projections.fairness import calibration as cal
from projections.fairness.battery import ALPHA, BatteryReport
from projections.fairness.columns import DealColumns
from projections.fairness.report import SEEDED, FairnessReport, fairness_report
from projections.fairness.selection import Criteria

CONTINUOUS = ("slots", "seats/cirulla/2/uno-alla-volta", "roles/cirulla/2/uno-alla-volta",
              "runs")

Maker = Callable[[np.random.Generator, int], DealColumns]


def fair_audit(source: str, audit: int, n: int, rng: np.random.Generator) -> BatteryReport:
    if source == "project":
        decks, seeds = cal.fair_decks(f"audit-{audit}", n)
        return cal.audit(cal.calibration_columns(decks, seeds=seeds, label=f"a{audit}"))
    return cal.audit(cal.calibration_columns(cal.fisher_yates(rng, n)))


def null_run(audits: int, n: int, source: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    reports, started = [], time.perf_counter()
    for a in range(audits):
        reports.append(fair_audit(source, a, n, rng))
    elapsed = time.perf_counter() - started
    flagged = sum(bool(r.flagged) for r in reports)
    test = stats.binomtest(flagged, audits, ALPHA)
    ci = test.proportion_ci(0.95)
    print(f"null: {audits} audits x {n} fair deals ({source} shuffle), {elapsed:.0f} s")
    print(f"  audits flagged: {flagged}/{audits} = {flagged / audits:.3%} "
          f"(95% CI {ci.low:.3%}-{ci.high:.3%}; binomial test against 1%: p = {test.pvalue:.3g})")
    print("  tests flagged:", dict(Counter(o.name for r in reports for o in r.flagged)) or "-")
    names = [o.name for o in reports[0].outcomes if o.n > 0]
    for name in names:
        ps = np.array([r.outcome(name).p_value for r in reports])
        line = f"  {name:34s} raw p <= 0.01 in {(ps <= ALPHA).mean():6.2%}"
        if name in CONTINUOUS:
            line += f"   KS vs uniform p = {stats.kstest(ps, 'uniform').pvalue:.3f}"
        print(line)
    raw = np.array([stats.chi2.sf(r.outcome("slots").statistic * 40 / 39, 1521)
                    for r in reports])
    print(f"  card by slot WITHOUT the x39/40 correction: p <= 0.01 in {(raw <= ALPHA).mean():.2%}")


def store_row(report: FairnessReport, store: int) -> dict[str, object]:
    """One store's figures for the summary: its deals, flagged tests, every test's raw p."""
    battery = report.verified
    dealers = report.population(SEEDED).dealers
    named = [[c.dealer, c.event] for c in dealers.flagged] if dealers is not None else None
    return {"store": store, "deals": battery.deals, "flagged": report.flagged,
            "dealers_flagged": named,
            "flagged_tests": [o.name for o in battery.flagged],
            "p": {o.name: o.p_value for o in battery.outcomes if o.n > 0},
            "ran": sum(o.n > 0 for o in battery.outcomes),
            "wins": {o.name: [o.statistic, o.n, o.p_value] for o in battery.descriptive}}


def store_run(stores: int, matches: int, seed: int, first: int, jsonl: str | None) -> None:
    """The null over honest stores of complete matches, through the report's path; each
    store's row appended to `jsonl` as it ends (a run stopped early keeps what it made)."""
    started = time.perf_counter()
    print(f"stores {first}..{first + stores - 1} x {matches} complete matches, seed {seed}, "
          f"started {datetime.now(UTC):%Y-%m-%d %H:%M} UTC", flush=True)
    rows = []
    for k in range(first, first + stores):
        report = fairness_report(cal.honest_store(f"store-{seed}-{k}", matches), Criteria())
        rows.append(store_row(report, k))
        if jsonl is not None:
            with open(jsonl, "a", encoding="utf-8") as out:
                out.write(json.dumps(rows[-1] | {"matches": matches, "seed": seed}) + "\n")
        print(f"  store {k}: {report.verified.deals} deals, flagged "
              f"{rows[-1]['flagged_tests'] or '-'}, {time.perf_counter() - started:.0f} s",
              flush=True)
    print(f"{time.perf_counter() - started:.0f} s")
    summarize(rows)


def summarize(rows: list[dict[str, Any]]) -> None:
    """The flag rate of the stores and each test's rate of raw p <= 0.01."""
    stores = len(rows)
    flagged = sum(bool(r["flagged"]) for r in rows)
    test = stats.binomtest(flagged, stores, ALPHA)
    ci = test.proportion_ci(0.95)
    deals = [r["deals"] for r in rows]
    print(f"stores: {stores} ({min(deals)}-{max(deals)} deals a store, "
          f"{sum(deals)} in all; tests a store: {sorted({r['ran'] for r in rows})})")
    print(f"  stores flagged: {flagged}/{stores} = {flagged / stores:.3%} "
          f"(95% CI {ci.low:.3%}-{ci.high:.3%}; binomial test against 1%: p = {test.pvalue:.3g})")
    print("  tests flagged:", dict(Counter(n for r in rows for n in r["flagged_tests"])) or "-")
    viewed = [r for r in rows if r.get("dealers_flagged") is not None]
    if viewed:
        named = sum(bool(r["dealers_flagged"]) for r in viewed)
        either = sum(bool(r["dealers_flagged"]) or bool(r["flagged"]) for r in viewed)
        print(f"  of {len(viewed)} stores with the per-dealer view: a dealer named (Holm) in "
              f"{named} (binomial test against 1%: p = "
              f"{stats.binomtest(named, len(viewed), ALPHA).pvalue:.3g}); the battery or a "
              f"dealer in {either}:",
              [r["dealers_flagged"] for r in viewed if r["dealers_flagged"]] or "-")
    for name in sorted({n for r in rows for n in r["p"]}):
        ps = np.array([r["p"][name] for r in rows if name in r["p"]])
        line = f"  {name:52s} raw p <= 0.01 in {(ps <= ALPHA).mean():6.2%} of {len(ps)}"
        if name in ("slots", "runs") or name.startswith(("seats/", "roles/")):
            line += f"   KS vs uniform p = {stats.kstest(ps, 'uniform').pvalue:.3f}"
        print(line)
    for name in ("dealer-wins", "side-wins"):
        wins = np.array([r["wins"][name] for r in rows if r["wins"][name][1]])
        shares = wins[:, 0] / wins[:, 1]
        print(f"  descriptive {name}: share {wins[:, 0].sum() / wins[:, 1].sum():.2%} over "
              f"{int(wins[:, 1].sum())} smazzate (stores {shares.min():.2%}-{shares.max():.2%});"
              f" raw p <= 0.01 against half in {(wins[:, 2] <= ALPHA).mean():.1%} of the stores")


def read_rows(paths: list[str]) -> list[dict[str, Any]]:
    """The rows of one or more --jsonl files, one per store (a store met twice counted once)."""
    rows: dict[tuple[int, int, int], dict[str, Any]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                row = json.loads(line)
                rows[(row["seed"], row["matches"], row["store"])] = row
    return list(rows.values())


def _forced(i: int, j: int) -> Maker:
    return lambda rng, n: cal.calibration_columns(cal.fisher_yates(rng, n, (i, j, 0.01)))


def _after(i: int, j: int) -> Maker:
    return lambda rng, n: cal.calibration_columns(
        cal.swapped_after(cal.fisher_yates(rng, n), rng, i, j, 0.01))


def _sticky(slot: int) -> Maker:
    return lambda rng, n: cal.calibration_columns(
        cal.sticky_pair(cal.fisher_yates(rng, n), rng, slot, 0.01))


def _redealer(share: float) -> Maker:
    def make(rng: np.random.Generator, n: int) -> DealColumns:
        decks, dealers = cal.redealing_dealer(rng, n, cheat=1, share=share)
        return cal.calibration_columns(decks, dealers)
    return make


def _accuso(share: float) -> Maker:
    def make(rng: np.random.Generator, n: int) -> DealColumns:
        decks, dealers = cal.accuso_redealer(rng, n, cheat=1, share=share)
        return cal.calibration_columns(decks, dealers)
    return make


SCENARIOS: dict[str, Maker] = {
    "fair": lambda rng, n: cal.calibration_columns(cal.fisher_yates(rng, n)),
    "forced-step-39-0": _forced(39, 0),
    "forced-step-20-10": _forced(20, 10),
    "forced-step-5-2": _forced(5, 2),
    "swapped-after-5-30": _after(5, 30),
    "sticky-pair-7": _sticky(7),
    "redealing-dealer-all": _redealer(1.0),
    "redealing-dealer-25%": _redealer(0.25),
    "accuso-redealer-10%": _accuso(0.10),
    "accuso-redealer-25%": _accuso(0.25),
}


def detect(names: list[str], ladder: list[int], repeats: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for name in names:
        print(f"{name}:")
        for n in ladder:
            caught: Counter[str] = Counter()
            flagged = 0
            for _ in range(repeats):
                report = cal.audit(SCENARIOS[name](rng, n))
                flagged += bool(report.flagged)
                caught.update(o.name for o in report.flagged)
            named = ", ".join(f"{k} {v}" for k, v in caught.most_common(3)) or "-"
            print(f"  {n:>8} deals: flagged {flagged:>3}/{repeats}   by: {named}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--audits", type=int, default=200)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--source", choices=("project", "numpy"), default="project")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--detect", action="store_true")
    parser.add_argument("--ladder", default="1000,2000,5000,10000,20000,50000,100000")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--scenario", action="append", choices=sorted(SCENARIOS))
    parser.add_argument("--stores", type=int, default=0,
                        help="honest stores of complete matches (0: the bare-deal null)")
    parser.add_argument("--matches", type=int, default=1_000)
    parser.add_argument("--first", type=int, default=0, help="the first store's number")
    parser.add_argument("--jsonl", default=None, help="append each store's row to this file")
    parser.add_argument("--summarize", nargs="+", default=None, metavar="JSONL",
                        help="print the summary of the stores in these --jsonl files")
    args = parser.parse_args()
    if args.summarize:
        summarize(read_rows(args.summarize))
    elif args.stores:
        store_run(args.stores, args.matches, args.seed, args.first, args.jsonl)
    elif args.detect:
        detect(args.scenario or list(SCENARIOS), [int(x) for x in args.ladder.split(",")],
               args.repeats, args.seed)
    else:
        null_run(args.audits, args.deals, args.source, args.seed)


if __name__ == "__main__":
    main()
