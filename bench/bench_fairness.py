"""The fairness report over a million deals: seconds and peak memory, against scipy's
chi-square on the same deals (issue 13; docs/benchmarks.md "Fairness battery").

Run: .venv/bin/python -m bench.bench_fairness [--deals 1000000] [--runs 3]
         [--source numpy|project]

The deals are 2-seat Cirulla DealRecords (projections/fairness/deals.py) of the standard
ruleset (redeal=due-assi), in matches of 20 smazzate, each with its seed, dealt a minute apart,
a random winner on every deal: what the store's selection (selection.py) hands the report. The
decks come from numpy's Fisher-Yates (`--source project`: from domain.shuffle, about 16 µs a
deal, not timed). Before timing, the exact catalogue is enumerated once (it is cached for the
life of the process; its time is printed apart).

Timed, the runs alternating:
- report: `fairness_report` over the records: the columns, every test of the battery (card by
  slot, the slot and adjacent scans, card by seat and by role, the 14 catalogue events of the
  ruleset, win rates, runs, repeated seeds and decks, Benjamini-Hochberg) and the figures; what
  `verbale fairness` does once the deals are read;
- baseline: the textbook single test on the same records: the card-by-slot table counted with
  numpy (`np.bincount`) from the records' decks, then `scipy.stats.chi2_contingency`.
Time: wall clock and the process's CPU time (time.process_time: on a shared, loaded machine the
wall clock says more about the other processes; the ratio is taken on CPU time). Peak memory:
one more run of each case under tracemalloc (not timed: tracing slows it), its
peak of Python and numpy allocations; and the process's peak resident size (ru_maxrss).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from scipy import stats  # type: ignore[import-untyped]

from bench.machine import machine
from projections.fairness import calibration as cal
from projections.fairness.deals import DECK_SIZE, DealRecord
from projections.fairness.exact import catalogue
from projections.fairness.report import fairness_report
from projections.fairness.selection import Criteria, Selection

RULESET = (("redeal", "due-assi"),)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_records(decks: np.ndarray) -> list[DealRecord]:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    matches = [f"match-{m:07d}" for m in range(len(decks) // cal.TABLE_DEALS + 1)]
    minute = timedelta(minutes=1)
    winners = np.random.default_rng(2).integers(0, 2, size=len(decks)).tolist()
    template = DealRecord(match="", smazzata=0, attempt=0, layout=cal.CIRULLA_2, dealer=0,
                          deck=bytes(range(DECK_SIZE)), provenance="simulated",
                          ruleset=RULESET)
    return [replace(template, match=matches[k // cal.TABLE_DEALS],
                    smazzata=k % cal.TABLE_DEALS, dealer=k % 2, deck=deck.tobytes(),
                    seed=f"{k:032x}", dealt_at=start + k * minute, winner=winners[k])
            for k, deck in enumerate(decks)]


def report_case(records: list[DealRecord]) -> Any:
    return fairness_report(Selection(tuple(records), len(records) // cal.TABLE_DEALS, 0),
                           Criteria())


def baseline_case(records: list[DealRecord]) -> Any:
    decks = np.frombuffer(b"".join(r.deck for r in records), dtype=np.uint8)
    cells = decks.astype(np.int64) * DECK_SIZE + np.tile(np.arange(DECK_SIZE), len(records))
    table = np.bincount(cells, minlength=DECK_SIZE * DECK_SIZE).reshape(DECK_SIZE, DECK_SIZE)
    return stats.chi2_contingency(table)


def traced_peak(case: Callable[[list[DealRecord]], Any], records: list[DealRecord]) -> float:
    tracemalloc.start()
    case(records)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--source", choices=("numpy", "project"), default="numpy")
    args = parser.parse_args()
    print(machine())
    started = time.perf_counter()
    catalogue()
    print(f"exact catalogue enumerated once: {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    if args.source == "project":
        decks, _ = cal.fair_decks("bench", args.deals)
    else:
        decks = cal.fisher_yates(np.random.default_rng(1), args.deals)
    records = make_records(decks)
    del decks
    print(f"{args.deals:,} deals ({args.source}) as DealRecords in "
          f"{time.perf_counter() - started:.1f} s; peak resident {peak_mb():.0f} MB")
    times: dict[str, list[float]] = {"report": [], "baseline": []}
    cpu: dict[str, list[float]] = {"report": [], "baseline": []}
    cases = {"report": report_case, "baseline": baseline_case}
    flagged: list[str] = []
    for run in range(args.runs):
        for name in (("report", "baseline") if run % 2 == 0 else ("baseline", "report")):
            t0, c0 = time.perf_counter(), time.process_time()
            result = cases[name](records)
            times[name].append(time.perf_counter() - t0)
            cpu[name].append(time.process_time() - c0)
            if name == "report":
                flagged = [o.name for o in result.verified.flagged]
                tests = sum(o.n > 0 for o in result.verified.outcomes)
        print(f"  run {run + 1}: report {times['report'][-1]:.2f} s "
              f"(CPU {cpu['report'][-1]:.2f} s), baseline {times['baseline'][-1]:.2f} s "
              f"(CPU {cpu['baseline'][-1]:.2f} s)", flush=True)
    ratios = [r / b for r, b in zip(cpu["report"], cpu["baseline"], strict=True)]
    print(f"report: {tests} tests, flagged: {flagged or '-'}")
    for name in ("report", "baseline"):
        print(f"{name:9s} median {statistics.median(times[name]):.2f} s wall, "
              f"{statistics.median(cpu[name]):.2f} s CPU (CPU runs "
              f"{min(cpu[name]):.2f}-{max(cpu[name]):.2f}), "
              f"{args.deals / statistics.median(cpu[name]):,.0f} deals per CPU second; "
              f"traced peak {traced_peak(cases[name], records):,.0f} MB")
    print(f"report / baseline (CPU): median of the runs' ratios {statistics.median(ratios):.2f}x "
          f"(runs {min(ratios):.2f}-{max(ratios):.2f})")
    print(f"process peak resident (ru_maxrss): {peak_mb():,.0f} MB")


if __name__ == "__main__":
    main()
