"""Viewer benchmark (docs/benchmarks.md, section "Viewer step endpoint", issue 11).

Run: .venv/bin/python -m bench.bench_viewer [--matches 10000] [--runs 5] [--seconds 10]
     [--connections 16] [--threads 8] [--quick]

A store of 10,000 matches (bench/viewer_data.py, cached under bench/.data/) is served by
`verbale serve` (waitress) in a subprocess, with one more route on the same app,
`/bench/trivial` (bench/viewer_server.py). `wrk` (Debian package `wrk`) loads it with 16
connections, taking turns run by run: the trivial endpoint, then the step page
(`/matches/<id>?step=N&view=public|seatN&token=…`) over 2,000 URLs of two sets of matches:
"warm", 50 matches (all kept folded by the viewer, records.KEPT), and "spread", 1,000
matches (more than KEPT was before issue 11's benchmark: then nearly every request folded its
match again); and "warm-api", the warm set's steps asked of the JSON mirror. Twice: as served
(the answers already made are kept, replay_web/web/rendered.py), then with no answer kept
(VERBALE_KEPT_ANSWERS=0), so that what rendering a step costs is measured too. Medians of the
runs: requests per second, p95 latency, responses other than 200 and socket errors, and the
ratio to the trivial endpoint.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from bench.machine import machine
from bench.read_models_data import ROOT, sqlite_url
from bench.viewer_data import ensure_viewer_store, step_paths, stored_matches
from bench.viewer_server import TRIVIAL
from projections.accounts import site_secret
from projections.read_models.engine import read_model_engine

SETS = {"warm": 50, "spread": 1000, "warm-api": 50}
"""The step URLs' sets: how many matches each spreads its URLs over (`-api`: the same steps
asked of the JSON mirror, /api/matches/<id>/steps/<n>)."""
URLS = 2000
LUA = ROOT / "bench" / "viewer.lua"
TARGET_RATIO = 0.40
TARGET_P95_MS = 50.0


def log(line: str) -> None:
    print(line, flush=True)


@dataclass(frozen=True, slots=True)
class Run:
    rate: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    requests: int
    not_200: int
    socket_errors: int


class Server:
    """`verbale serve` with the trivial route, in a subprocess, on a free port."""

    def __init__(self, database: str, threads: int, kept_answers: int | None = None) -> None:
        env = dict(os.environ)
        if kept_answers is not None:   # 0: every request renders its answer
            env["VERBALE_KEPT_ANSWERS"] = str(kept_answers)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.viewer_server", "--database", database,
             "--port", "0", "--threads", str(threads)],
            cwd=ROOT, stdout=subprocess.PIPE, text=True, env=env)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://\S+?:(\d+)/", line)
        if found is None:
            self.process.kill()
            raise RuntimeError(f"verbale serve did not start: {line!r}")
        self.base = f"http://127.0.0.1:{found.group(1)}"

    def rss_mb(self) -> float:
        with open(f"/proc/{self.process.pid}/status", encoding="ascii") as status:
            kb = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        return kb / 1024

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def wrk(base: str, paths: Path | None, seconds: int, connections: int) -> Run:
    command = ["wrk", f"-c{connections}", "-t2", f"-d{seconds}s", "--timeout", "10s",
               "-s", str(LUA), base + (TRIVIAL if paths is None else "/")]
    if paths is not None:
        command += ["--", str(paths)]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    fields = re.search(r"^bench: (.*)$", out, re.M).group(1).split()  # type: ignore[union-attr]
    p50, p95, p99, requests, not_200, errors = (int(f) for f in fields)
    return Run(rate, p50 / 1000, p95 / 1000, p99 / 1000, requests, not_200, errors)


def api_path(page: str) -> str:
    """The JSON mirror of a step page's URL."""
    found = re.fullmatch(r"/matches/([^?]+)\?step=(\d+)&(.*)", page)
    assert found is not None
    return f"/api/matches/{found.group(1)}/steps/{found.group(2)}?{found.group(3)}"


def check(base: str, paths: list[str]) -> None:
    """A few of the URLs answer 200 with a page or JSON (before the load: a wrong URL is a
    bench bug)."""
    for path in paths[:: max(1, len(paths) // 20)]:
        with urllib.request.urlopen(base + path, timeout=30) as answer:
            start = answer.read(200).lower()
            if answer.status != 200 or not (b"<html" in start or start.startswith(b"{")):
                raise RuntimeError(f"{path}: {answer.status}")


def prime(base: str, paths: list[str]) -> None:
    """Ask each URL once, 8 at a time: its answer is made and kept before the runs."""
    from concurrent.futures import ThreadPoolExecutor

    def get(path: str) -> None:
        with urllib.request.urlopen(base + path, timeout=60) as answer:
            answer.read()

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(get, paths))
    log(f"  primed: {len(paths):,} URLs asked once")


def measure(server: Server, files: dict[str, Path], runs: int, seconds: int,
            connections: int) -> dict[str, list[Run]]:
    cases: dict[str, Path | None] = {"trivial": None, **files}
    for name, paths in cases.items():   # warm-up: imports, templates, the kept matches
        wrk(server.base, paths, 3, connections)
        log(f"  warmed up: {name}")
    results: dict[str, list[Run]] = {name: [] for name in cases}
    for run in range(runs):
        for name, paths in cases.items():
            result = wrk(server.base, paths, seconds, connections)
            results[name].append(result)
            log(f"  run {run + 1} {name:<8} {result.rate:8.1f} req/s  p95 "
                f"{result.p95_ms:6.1f} ms  not 200 {result.not_200}  errors "
                f"{result.socket_errors}")
    return results


def report(results: dict[str, list[Run]], rss: float) -> None:
    trivial = statistics.median(r.rate for r in results["trivial"])
    log("\nmedians of the runs (req/s: slowest...fastest run):")
    log(f"  {'endpoint':<24} {'req/s':>8} {'runs':>15} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'p99 ms':>7} {'not 200':>8} {'errors':>7} {'/ trivial':>9}  target")
    for name, runs in results.items():
        rate = statistics.median(r.rate for r in runs)
        p95 = statistics.median(r.p95_ms for r in runs)
        bad = sum(r.not_200 for r in runs)
        errors = sum(r.socket_errors for r in runs)
        met = rate / trivial >= TARGET_RATIO and p95 < TARGET_P95_MS and bad + errors == 0
        label = "trivial" if name == "trivial" else f"{name} ({SETS[name]:,} matches)"
        log(f"  {label:<24} {rate:>8.1f} {min(r.rate for r in runs):>7.0f}..."
            f"{max(r.rate for r in runs):<5.0f} "
            f"{statistics.median(r.p50_ms for r in runs):>7.1f} {p95:>7.1f} "
            f"{statistics.median(r.p99_ms for r in runs):>7.1f} {bad:>8} {errors:>7} "
            f"{rate / trivial:>9.1%}  {'' if name == 'trivial' else ('met' if met else 'MISSED')}")
    log(f"  server RSS after the runs: {rss:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000, help="matches stored")
    parser.add_argument("--runs", type=int, default=5, help="runs of each endpoint")
    parser.add_argument("--seconds", type=int, default=10, help="length of a wrk run")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=8, help="the server's threads")
    parser.add_argument("--quick", action="store_true", help="3 runs of 5 s")
    args = parser.parse_args()
    runs, seconds = (3, 5) if args.quick else (args.runs, args.seconds)
    if shutil.which("wrk") is None:
        log("skipped: wrk is missing (Debian: apt-get install -y wrk)")
        return
    version = subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.split("\n")[0]
    log(f"machine: {machine()}; {version.split(' Copyright')[0]}")
    path = ensure_viewer_store(args.matches, log)
    url = sqlite_url(path)
    engine = read_model_engine(url)
    try:
        matches = stored_matches(engine, max(SETS.values()))
        secret = site_secret(engine)
    finally:
        engine.dispose()
    log(f"store: {path.name} ({args.matches:,} matches, bench/.data/); wrk -c"
        f"{args.connections} -t2 -d{seconds}s, {runs} runs, server threads {args.threads}")
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, count in SETS.items():
            files[name] = Path(tmp) / f"{name}.txt"
            paths = step_paths(matches[:count], secret, URLS)
            if name.endswith("-api"):
                paths = [api_path(p) for p in paths]
            files[name].write_text("\n".join(paths) + "\n")
        for kept, title in ((None, "answers kept (replay_web/web/rendered.py), as served"),
                            (0, "no answer kept: every request renders its step")):
            log(f"\n{title}")
            server = Server(url, args.threads, kept)
            try:
                for name in SETS:
                    check(server.base, files[name].read_text().split())
                if kept is None:   # the steady state: every URL asked once before the runs
                    prime(server.base, [p for name in SETS
                                        for p in files[name].read_text().split()])
                results = measure(server, files, runs, seconds, args.connections)
                rss = server.rss_mb()
            finally:
                server.close()
            report(results, rss)


if __name__ == "__main__":
    main()
