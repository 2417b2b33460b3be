"""`python -m bench` (make bench): every benchmark in turn, each printing its own report."""

from __future__ import annotations

import runpy
import sys

BENCHMARKS = ("bench.bench_cirulla", "bench.bench_briscola", "bench.bench_store",
              "bench.bench_timeline", "bench.bench_startup")

if __name__ == "__main__":
    for name in BENCHMARKS:
        print(f"== {name}", flush=True)
        sys.argv = [name]
        runpy.run_module(name, run_name="__main__")
