"""`python -m bench` (make bench): every benchmark in turn, each printing its own report.

`python -m bench --quick` skips the slow cases (the read models' store of 1,000,000 events) and
runs the viewer's load shorter, the notation's over fewer matches and the fairness battery over
100,000 deals once."""

from __future__ import annotations

import runpy
import sys

BENCHMARKS = ("bench.bench_cirulla", "bench.bench_briscola", "bench.bench_store",
              "bench.bench_timeline", "bench.bench_startup", "bench.bench_read_models",
              "bench.bench_viewer", "bench.bench_notation", "bench.bench_verify",
              "bench.bench_fairness")
QUICK = {"bench.bench_read_models": ["--quick"], "bench.bench_viewer": ["--quick"],
         "bench.bench_notation": ["--quick"],
         "bench.bench_fairness": ["--deals", "100000", "--runs", "1"]}
"""The options each benchmark takes in a quick run."""

if __name__ == "__main__":
    quick = "--quick" in sys.argv[1:]
    for name in BENCHMARKS:
        print(f"== {name}", flush=True)
        sys.argv = [name, *(QUICK.get(name, []) if quick else [])]
        runpy.run_module(name, run_name="__main__")
