"""The timeline: build it once, then the view of any step as any viewer (docs/benchmarks.md).

Run: .venv/bin/python -m bench.bench_timeline [--runs R] [--events N]

A demo match of about N events (the demo set's match closest to N, default 100) is recorded into
a temporary SQLite store through the demo's own recording loop (`verbale simulate matches
--store`: replay_web.cli_store.record_match, one transaction per action), then read back (store
facts, decoded, with their timestamps). Measured, each the median of R runs on one core:
- build: `timeline(CATALOG, recorded)`, the one fold of the whole match;
- view: `Timeline.observe(version, viewer)` for every version from the creation on and every
  viewer (each seat, the public, the arbiter), with carte viste on (the most to list);
- baseline, same run: the same views the way one must without a timeline, folding the record
  from its first event up to the step (domain/record/match.py) and then asking the engine.
The Briscola demo match closest to N events is timed the same way (built in memory), and the
longest match of the demo set (build and view only) shows that a view does not grow with the
match.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from bench.machine import machine
from domain.demo.matches import DemoMatch, demo_set, play_demo
from domain.events import CardPlayed, SmazzataDealt
from domain.record.catalog import CATALOG
from domain.record.clock import parse_stamp
from domain.record.match import MatchEvent, MatchState, evolve, initial
from domain.record.timeline import Timeline, timeline
from domain.shuffle import Seed
from domain.viewing import ARBITER, PUBLIC, Observation, Viewer, Visibility
from projections.store.app import MatchStore
from replay_web.cli_store import record_match

START = datetime.fromisoformat("2026-11-22T18:00:00+00:00")
SEED = Seed(b"\x7a" * 16)
VIEW = Visibility(carte_viste=True)
Recorded = list[tuple[MatchEvent, datetime]]


def played(demo: DemoMatch) -> Recorded:
    return play_demo(demo, START)[0]


def pick(target: int) -> tuple[DemoMatch, DemoMatch, DemoMatch]:
    """The demo match with the event count closest to `target`, the Briscola one closest to
    it, and the longest one."""
    sized = [(len(played(demo)), demo) for demo in demo_set(SEED)]
    closest = min(sized, key=lambda item: abs(item[0] - target))[1]
    briscola = min((item for item in sized if item[1].setup.game == "briscola"),
                   key=lambda item: abs(item[0] - target))[1]
    return closest, briscola, max(sized, key=lambda item: item[0])[1]


def named(demo: DemoMatch) -> str:
    fmt = demo.setup.match_format
    return f"{demo.setup.game} {len(demo.setup.players)}p {fmt['kind']} {fmt['length']}"


def stored(demo: DemoMatch) -> tuple[Recorded, float]:
    """Record `demo` in a scratch SQLite store as the demo does and read it back: the recorded
    events and the read time (s)."""
    with tempfile.TemporaryDirectory(prefix="verbale-bench-") as folder:
        store = MatchStore(url=f"sqlite:///{Path(folder) / 'store.db'}")
        try:
            stream = uuid.uuid4()
            record_match(store, stream, demo)
            began = time.perf_counter()
            recorded: Recorded = [(f.to_domain(), parse_stamp(f.timestamp))
                                  for f in store.facts(stream)]
            read = time.perf_counter() - began
        finally:
            store.close()
    return recorded, read


def viewers(line: Timeline) -> tuple[Viewer, ...]:
    seating = line.state(line.last).seating
    assert seating is not None
    return (*seating.seats, PUBLIC, ARBITER)


def timed_views(line: Timeline) -> list[float]:
    """The time of each view (s), every step by every viewer."""
    times = []
    for version in range(1, len(line)):
        for viewer in viewers(line):
            began = time.perf_counter()
            line.observe(version, viewer, VIEW)
            times.append(time.perf_counter() - began)
    return times


def refolded_view(recorded: Sequence[tuple[MatchEvent, datetime]], version: int,
                  viewer: Viewer) -> Observation | None:
    """The baseline: fold the record from its first event up to `version`, then observe."""
    state: MatchState = initial(CATALOG)
    plays: list[CardPlayed] = []
    for event, at in recorded[:version]:
        state = evolve(state, event, at)
        if isinstance(event, SmazzataDealt):
            plays = []
        elif isinstance(event, CardPlayed):
            plays.append(event)
    if state.game is None:
        return None
    return state.engine.observe(state.game, viewer, VIEW, plays)


def timed_baseline(recorded: Recorded, line: Timeline) -> float:
    total, count = 0.0, 0
    for version in range(1, len(line)):
        for viewer in viewers(line):
            began = time.perf_counter()
            refolded_view(recorded, version, viewer)
            total, count = total + time.perf_counter() - began, count + 1
    return total / count


@dataclass(frozen=True, slots=True)
class Figures:
    events: int
    build: float
    view: float
    """Median over the runs of the mean time of a view."""
    p99: float
    slowest: float
    """The 99th percentile and the maximum of every view of every run."""
    baseline: float | None


def measure(recorded: Recorded, runs: int, baseline: bool) -> Figures:
    check(recorded)
    builds, means, every, bases = [], [], [], []
    for _ in range(runs):
        began = time.perf_counter()
        line = timeline(CATALOG, recorded)
        builds.append(time.perf_counter() - began)
        times = timed_views(line)
        means.append(statistics.fmean(times))
        every.extend(times)
        if baseline:
            bases.append(timed_baseline(recorded, line))
    every.sort()
    return Figures(len(recorded), statistics.median(builds), statistics.median(means),
                   every[int(len(every) * 0.99)], every[-1],
                   statistics.median(bases) if bases else None)


def check(recorded: Recorded) -> None:
    """Before timing: the timeline's view is the baseline's at every step (same answer)."""
    line = timeline(CATALOG, recorded)
    for version in range(1, len(line)):
        if line.state(version).game is not None:
            for viewer in viewers(line):
                assert line.observe(version, viewer, VIEW) == refolded_view(recorded, version,
                                                                             viewer)


def report(name: str, figures: Figures) -> None:
    line = (f"| {name} | {figures.events} | {figures.build * 1000:.2f} ms | "
            f"{figures.view * 1e6:.1f} µs | {figures.p99 * 1e6:.0f} µs | "
            f"{figures.slowest * 1000:.2f} ms | ")
    if figures.baseline is None:
        print(line + "| |")
        return
    print(line + f"{figures.baseline * 1e6:.0f} µs | {figures.baseline / figures.view:.0f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--events", type=int, default=100)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    demo, briscola, longest = pick(args.events)
    recorded, read = stored(demo)
    print(f"stored match: {named(demo)}, {len(recorded)} events, recorded in a temporary SQLite "
          f"store and read back (facts, decoded) in {read * 1000:.1f} ms")
    print(f"median of {args.runs} runs; views: every version x every viewer, carte viste")
    print("| match | events | timeline build | view, mean | view, p99 | slowest view "
          "| baseline: re-fold then view, mean | baseline / view |")
    print("|---|---|---|---|---|---|---|---|")
    report(f"stored: {named(demo)}", measure(recorded, args.runs, True))
    report(f"in memory: {named(briscola)}", measure(played(briscola), args.runs, True))
    report(f"in memory, longest demo: {named(longest)}",
           measure(played(longest), max(1, args.runs // 2), False))


if __name__ == "__main__":
    main()
