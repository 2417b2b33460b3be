"""What `verbale verify` cannot do without, each against json.loads of the same rows, same run.

Run: .venv/bin/python -m bench.bench_verify_floor [--matches N] [--runs R]

Issue 24 asks verify's CPU to be at most 3x a plain `json.loads` of the rows. This bench
measures the parts no route of verify can skip, each alone, on bench_verify's store (built by
`python -m bench.bench_verify --matches N` first; SQLite):

- **fetch**: every stream's rows read from the store (`MatchStore.stored`), nothing checked;
- **read**: each row decoded into its typed record and held to its canonical bytes
  (projections/verify/whole.py `whole`: what makes a stored event trustworthy at all);
- **hash**: SHA-256 of each row (the chain, docs/events.md);
- **rules**: the game engine's `decide_folded` of every live play, from states folded
  beforehand: the rules alone, without the record around them (clock, seats, the MatchState);
- **deals**: each smazzata's deal re-derived from its seed (docs/shuffle.md).

The sum is a floor for pure Python: verify does all of it and more (the record's checks, the
scores, the seeds' commitments, signatures).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import time
from collections.abc import Callable
from typing import Any, cast

from bench.bench_verify import _sqlite_url
from bench.machine import machine
from domain.events import CardPlayed
from domain.game import PlayCard
from domain.record.catalog import CATALOG
from domain.record.commands import DealSmazzata
from domain.record.decide import decide
from domain.record.events import MatchCreated, SeedRevealed
from domain.record.match import MatchState, Phase, evolve, initial
from domain.shuffle import Seed
from projections.store.app import MatchStore
from projections.verify.structure import read_stream
from projections.verify.whole import whole

Case = Callable[[], int]


def _folded(store: MatchStore) -> tuple[list[tuple[Any, Any, PlayCard]],
                                         list[tuple[MatchState, DealSmazzata, Any]]]:
    """Every live play with the game's state it was made in, and every deal with the match
    state before it and its revealed seed."""
    plays: list[tuple[Any, Any, PlayCard]] = []
    deals: list[tuple[MatchState, DealSmazzata, Any]] = []
    heads = {h[0]: h for h in store.heads()}
    for stream in sorted(store.streams(), key=str):
        decoded = read_stream(store, stream, store.stored(stream), heads.get(stream)).decoded
        first = decoded[0][0] if decoded else None
        if not isinstance(first, MatchCreated) \
                or (first.provenance is not None and first.provenance.transcribed):
            continue
        seeds = {e.smazzata: e.seed for e, _ in decoded if isinstance(e, SeedRevealed)}
        state = initial(CATALOG)
        for event, at in decoded:
            if type(event) is CardPlayed and state.phase is Phase.PLAY:
                plays.append((state.engine, state.game, PlayCard(
                    event.seat, event.card, event.capture, event.matta_value)))
            elif state.phase is Phase.DEAL and state.smazzata in seeds:
                deals.append((state, DealSmazzata(seed=Seed.from_hex(seeds[state.smazzata])),
                              at))
            state = evolve(state, cast(Any, event), at)
    return plays, deals


def cases(store: MatchStore) -> dict[str, Case]:
    streams = sorted(store.streams(), key=str)
    rows = [row for stream in streams for row in store.stored(stream)]
    texts = {row.originator_id: str(row.originator_id) for row in rows}
    plays, deals = _folded(store)

    def loads() -> int:
        for row in rows:
            json.loads(row.state)
        return len(rows)

    def fetch() -> int:
        return sum(len(store.stored(stream)) for stream in streams)

    def read() -> int:
        for row in rows:
            whole(row, texts[row.originator_id])
        return len(rows)

    def hashed() -> int:
        for row in rows:
            hashlib.sha256(row.state).hexdigest()
        return len(rows)

    def rules() -> int:
        for engine, game, command in plays:
            engine.decide_folded(game, command)
        return len(plays)

    def dealt() -> int:
        for state, command, at in deals:
            decide(state, command, at)
        return len(deals)

    return {"loads": loads, "fetch": fetch, "read": read, "hash": hashed, "rules": rules,
            "deals": dealt}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(machine(), flush=True)
    store = MatchStore(url=_sqlite_url(args.matches), catalog=CATALOG, read_only=True)
    try:
        measured = cases(store)
        seconds: dict[str, list[float]] = {name: [] for name in measured}
        counts: dict[str, int] = {}
        for _ in range(args.runs):   # alternating: a passing load hits each alike
            for name, case in measured.items():
                start = time.process_time()
                counts[name] = case()
                seconds[name].append(time.process_time() - start)
    finally:
        store.close()
    print(f"{counts['loads']:,} rows, {counts['rules']:,} live plays, {counts['deals']:,} deals;"
          f" CPU, median of {args.runs} runs")
    floor = 0.0
    for name, values in seconds.items():
        ratio = statistics.median(v / j for v, j in zip(values, seconds["loads"], strict=True))
        floor += ratio if name != "loads" else 0.0
        print(f"  {name:6} {statistics.median(values):6.3f} s  x{ratio:.2f} of json.loads")
    print(f"  floor (fetch + read + hash + rules + deals): x{floor:.2f} of json.loads")


if __name__ == "__main__":
    main()
