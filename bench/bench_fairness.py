"""The fairness battery over a million deals: seconds and peak memory (issue 13).

Run: .venv/bin/python -m bench.bench_fairness [--deals 1000000] [--source numpy|project]

The deals are 2-seat Cirulla DealRecords (projections/fairness/deals.py) in matches of 20
smazzate, each with its seed, dealt a minute apart, a random winner on every deal; the decks
come from numpy's Fisher-Yates (`--source project`: from domain.shuffle, about 16 µs a deal,
not counted in the battery's time). Timed: the DealRecords into columns, then every test of the
battery with the calibration's event observed on the columns, and once more with an event that
observes one record at a time. Memory: the process's peak resident size before the records are
made, after, and after the battery (ru_maxrss).
"""

from __future__ import annotations

import argparse
import resource
import time
from datetime import UTC, datetime, timedelta

import numpy as np

from bench.machine import machine
from projections.fairness import calibration as cal
from projections.fairness.battery import SuspectedEvent, run_battery, run_on_columns
from projections.fairness.columns import columns_of
from projections.fairness.deals import DealRecord


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_records(decks: np.ndarray) -> list[DealRecord]:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    matches = [f"match-{m:07d}" for m in range(len(decks) // cal.TABLE_DEALS + 1)]
    minute = timedelta(minutes=1)
    winners = np.random.default_rng(2).integers(0, 2, size=len(decks)).tolist()
    return [DealRecord(match=matches[k // cal.TABLE_DEALS], smazzata=k % cal.TABLE_DEALS,
                       attempt=0, layout=cal.CIRULLA_2, dealer=k % 2, deck=deck.tobytes(),
                       seed=f"{k:032x}", provenance="simulated", dealt_at=start + k * minute,
                       winner=winners[k])
            for k, deck in enumerate(decks)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--source", choices=("numpy", "project"), default="numpy")
    args = parser.parse_args()
    print(machine())
    before = peak_mb()
    started = time.perf_counter()
    if args.source == "project":
        decks, _ = cal.fair_decks("bench", args.deals)
    else:
        decks = cal.fisher_yates(np.random.default_rng(1), args.deals)
    made = time.perf_counter()
    records = make_records(decks)
    del decks
    built = time.perf_counter()
    print(f"{args.deals:,} deals ({args.source}): shuffled in {made - started:.1f} s, "
          f"DealRecords in {built - made:.1f} s; peak {before:.0f} MB before, "
          f"{peak_mb():.0f} MB with the records")
    t0 = time.perf_counter()
    columns = columns_of(records)
    t1 = time.perf_counter()
    report = run_on_columns(columns, [cal.OPPONENT_FIFTEEN], records)
    t2 = time.perf_counter()
    print(f"  columns {t1 - t0:.1f} s, battery {t2 - t1:.1f} s, total {t2 - t0:.1f} s; "
          f"peak {peak_mb():.0f} MB; flagged: {[o.name for o in report.flagged] or '-'}")
    top_ace = SuspectedEvent("top-ace", 0.1, lambda r: r.deck[0] % 10 == 0)
    t3 = time.perf_counter()
    again = run_battery(records, [cal.OPPONENT_FIFTEEN, top_ace])
    t4 = time.perf_counter()
    print(f"  run_battery(records) with one per-record event: {t4 - t3:.1f} s; "
          f"peak {peak_mb():.0f} MB; {len(again.outcomes)} tests")
    for outcome in report.outcomes:
        print(f"    {outcome.name:34s} n={outcome.n:>9,} p={outcome.p_value:.3g}")


if __name__ == "__main__":
    main()
